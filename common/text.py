"""Sentences the pure cores write for people, sayable in every language (issue 12). Plain Python, no Django.

A :class:`Text` *is* its English sentence (a ``str``): the API, the tests and a document's fingerprint read the
authoritative English. It also keeps its message and arguments, so a page or a document can say it in the
reader's language (``portal.i18n.say``). The cores write ``_("...", name=value)``: the name ``_`` is what
``makemessages`` (xgettext) collects into the catalogues. Articles ("9.3 D", "R-42") stay in the message, in
every language.
"""

from __future__ import annotations

from collections.abc import Mapping


class Text(str):
    """An English sentence that remembers its message (``msgid``) and the values put into it (``args``)."""

    msgid: str
    args: Mapping[str, object]

    def __new__(cls, msgid: str, **args: object) -> Text:
        english = msgid % {name: str(value) for name, value in args.items()} if args else msgid
        text = super().__new__(cls, english)
        text.msgid = msgid
        text.args = args
        return text

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (self.msgid, dict(self.args)))


def _rebuild(msgid: str, args: dict[str, object]) -> Text:
    return Text(msgid, **args)


_ = Text
