"""Sentences the pure cores write for people, sayable in every language (issue 12). Plain Python, no Django.

A :class:`Text` *is* its English sentence (a ``str``): the API, the tests and a document's fingerprint read the
authoritative English. It also keeps its message and arguments, so a page or a document can say it in the
reader's language (``portal.i18n.say``). The cores write ``_("...", name=value)``: the name ``_`` is what
``makemessages`` (xgettext) collects into the catalogues. Articles ("9.3 D", "R-42") stay in the message, in
every language.
"""

from __future__ import annotations

import datetime
import re
import zoneinfo
from collections.abc import Iterator, Mapping
from typing import Any


class Text(str):
    """An English sentence that remembers its message (``msgid``) and the values put into it (``args``).

    ``context`` is the message's context (``pgettext``); a ``braced`` message names its values ``{name}``
    (``str.format``, as ``format_lazy`` messages do) rather than ``%(name)s``."""

    msgid: str
    args: Mapping[str, object]
    context: str = ""
    braced: bool = False

    def __new__(cls, msgid: str, /, **args: object) -> Text:
        return cls.made(msgid, args)

    @classmethod
    def made(cls, msgid: str, args: Mapping[str, object], *, context: str = "", braced: bool = False) -> Text:
        values = {name: str(value) for name, value in args.items()}
        if braced and args:
            english = msgid.format(**values)
        elif braced:
            english = msgid
        else:
            english = msgid % values if args else msgid
        text = super().__new__(cls, english)
        text.msgid, text.args, text.context, text.braced = msgid, dict(args), context, braced
        return text

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (self.msgid, dict(self.args), self.context, self.braced))


def _rebuild(msgid: str, args: dict[str, object], context: str = "", braced: bool = False) -> Text:
    return Text.made(msgid, args, context=context, braced=braced)


def said(msgid: str, /, **args: object) -> Text:
    """A message to store (issue 26), its values named ``{name}`` as ``format_lazy`` messages name them.

    ``said`` and ``said_in`` are keywords of ``manage.py makemessages`` (portal/management/commands)."""
    return Text.made(msgid, args, braced=True)


def said_in(context: str, msgid: str, /, **args: object) -> Text:
    """A message to store with its context (``pgettext``): the same English word said apart in other languages."""
    return Text.made(msgid, args, context=context, braced=True)


# --- Stored texts (issue 26): a text made at the time of an action is stored as its message and values ----------
# ``{"msgid": ..., "args": {...}}`` (with "context" and "braced" when set; a value is a plain string or a stored
# text itself), so a page, an e-mail or a document says it in its reader's language when it is shown.


class Texts(str):
    """A text written out in each of the portal's languages when it was made (``{"en": ..., "fr": ...}``), for the
    words built by code that reads the records in the active language (an incident's label): it *is* its English."""

    texts: Mapping[str, str]

    def __new__(cls, texts: Mapping[str, str], english: str = "en") -> Texts:
        made = super().__new__(cls, texts.get(english, next(iter(texts.values()), "")))
        made.texts = dict(texts)
        return made

    def __reduce__(self) -> tuple[object, ...]:
        return (Texts, (dict(self.texts),))


class Words(str):
    """People's own words put into a message (an equipment's description, a committee's reasons): never
    translated, and marked as theirs where a page shows them (``portal.i18n.stored_html``: ``.their-words``)."""

    def __reduce__(self) -> tuple[object, ...]:
        return (Words, (str(self),))


class Moment(str):
    """A moment put into a message (a deadline, a hearing), said at display in the reader's language and locale
    (``portal.i18n.say``): never stored as English words. It *is* its English ("Sat 3 Jul 2027, 13:30:00 CEST"
    to the second; "2027-07-03 18:00 (venue time)" on the venue's clock); ``at`` is aware, in the zone it is
    read in."""

    at: datetime.datetime
    style: str  # "second" (R-51: to the second, with the zone's abbreviation) or "venue" (the venue's clock)

    def __new__(cls, at: datetime.datetime, style: str = "second") -> Moment:
        if style == "venue":
            english = f"{at:%Y-%m-%d %H:%M} (venue time)"
        else:
            english = f"{at:%a} {at.day} {at:%b %Y, %H:%M:%S} {at.tzname()}"  # C-locale names: the English
        made = super().__new__(cls, english)
        made.at, made.style = at, style
        return made

    def __reduce__(self) -> tuple[object, ...]:
        return (Moment, (self.at, self.style))


def _moment_data(moment: Moment) -> dict[str, object]:
    zone = getattr(moment.at.tzinfo, "key", None)
    data: dict[str, object] = {"moment": moment.at.isoformat(), "style": moment.style}
    if zone:
        data["zone"] = zone
    return data


def _moment(data: Mapping[str, object]) -> Moment:
    at = datetime.datetime.fromisoformat(str(data["moment"]))
    if data.get("zone"):
        at = at.astimezone(zoneinfo.ZoneInfo(str(data["zone"])))
    return Moment(at, str(data.get("style") or "second"))


def to_data(value: object) -> object:
    """The JSON-able form of ``value``: a ``Text`` as its message and values, a ``Texts`` as its texts, ``Words``
    as ``{"words": ...}``, a ``Moment`` as its ISO 8601 time and zone, anything else as its string (a number as it is)."""
    if isinstance(value, Texts):
        return {"texts": dict(value.texts)}
    if isinstance(value, Words):
        return {"words": str(value)}
    if isinstance(value, Moment):
        return _moment_data(value)
    if not isinstance(value, Text):
        return value if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
    data: dict[str, object] = {"msgid": value.msgid, "args": {k: to_data(v) for k, v in value.args.items()}}
    if value.context:
        data["context"] = value.context
    if value.braced:
        data["braced"] = True
    return data


def from_data(data: object) -> object:
    """The ``Text`` (or the plain value) ``to_data`` stored."""
    if isinstance(data, dict) and isinstance(data.get("texts"), dict):
        return Texts({str(k): str(v) for k, v in data["texts"].items()})
    if isinstance(data, dict) and "words" in data and "msgid" not in data:
        return Words(str(data["words"]))
    if isinstance(data, dict) and "moment" in data and "msgid" not in data:
        return _moment(data)
    if not isinstance(data, dict) or "msgid" not in data:
        return data
    args = {name: from_data(value) for name, value in (data.get("args") or {}).items()}
    return Text.made(str(data["msgid"]), args, context=str(data.get("context") or ""), braced=bool(data.get("braced")))


_ = Text


# --- Reading English back (issue 26's data migrations) ----------------------------------------------------------


def read_back(english: str, patterns: list[dict[str, Any]]) -> Text | None:
    """The ``Text`` whose English is ``english``, found among ``patterns`` (None when none reads it back).

    A pattern is ``{"msgid": ..., "context": ..., "braced": ..., "args": {name: [patterns]}}``: a value named
    in ``args`` is read back with its own patterns (a value none of them reads stays its string), any other value
    is a string. For the rows stored in English before messages were stored (the data migrations)."""
    for pattern in patterns:
        found = _read_one(english, pattern)
        if found is not None:
            return found
    return None


def _read_one(english: str, pattern: dict[str, Any]) -> Text | None:
    """The best reading of ``english`` by ``pattern``: of the ways to split it into the message's values, the one
    whose values read back by their own patterns the most."""
    msgid, braced = pattern["msgid"], pattern.get("braced", True)
    field = re.compile(r"\{(\w+)\}" if braced else r"%\((\w+)\)s")
    pieces = field.split(msgid)  # literal, name, literal, name, ..., literal
    literals, names = pieces[0::2], pieces[1::2]
    nested = pattern.get("args", {})
    best: tuple[int, dict[str, object]] | None = None
    for values in _splits(english, literals):
        args: dict[str, object] = {}
        score = 0
        for name, value in zip(names, values, strict=True):
            read = read_back(value, nested[name]) if nested.get(name) else None
            if nested.get(name) and read is None and name not in pattern.get("words", ()):
                break  # a value with patterns must read back by one (unless it may be people's own words)
            score += read is not None
            if name in args and str(args[name]) != value:
                break
            args[name] = read if read is not None else value
        else:
            if best is None or score > best[0]:
                best = (score, args)
    if best is None:
        return None
    text = Text.made(msgid, best[1], context=pattern.get("context", ""), braced=braced)
    return text if text == english else None


def _splits(english: str, literals: list[str]) -> Iterator[list[str]]:
    """Every way ``english`` is ``literals[0] v1 literals[1] v2 ... literals[-1]`` with non-empty values."""
    head, rest = literals[0], literals[1:]
    if not english.startswith(head):
        return
    english = english[len(head) :]
    if not rest:
        if not english:
            yield []
        return
    following = rest[0]
    if len(rest) == 1:
        if following == "":
            if english:
                yield [english]
        elif english.endswith(following) and len(english) > len(following):
            yield [english[: len(english) - len(following)]]
        return
    start = 1
    while True:
        at = english.find(following, start) if following else start
        if at < 0 or at > len(english):
            return
        for tail in _splits(english[at:], rest):
            yield [english[:at], *tail]
        if not following:
            start += 1
            if start > len(english):
                return
        else:
            start = at + 1
