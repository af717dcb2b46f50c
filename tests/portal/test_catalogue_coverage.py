"""Every message the code makes is in the catalogues, translated, with its parameters (issue 26, "Languages").

A message made in code is said in the reader's language where it is shown: the pure cores write
``common.text._("...", name=value)`` (``portal.i18n.say`` says it), the services ``gettext("...")``. These tests read
the sources (their syntax tree, no xgettext needed) and the catalogues (polib) and fail on:

- a catalogue entry (``django.po`` and ``djangojs.po``, French and Spanish) that is untranslated, fuzzy or empty;
- a translation that loses or adds a placeholder (``%(name)s``, ``%s``, ``{name}``);
- a core's or a service's message missing from a catalogue;
- a core's message built another way (an f-string, a concatenation at run time: it cannot be translated) or whose
  arguments do not match its placeholders.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import polib
import pytest
from django.conf import settings

BASE = Path(settings.BASE_DIR)
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
APPS = [
    "accounts",
    "common",
    "discipline",
    "federation",
    "games",
    "hub",
    "portal",
    "reports",
    "tournaments",
    "webhooks",
]
PLACEHOLDER = re.compile(r"%\(\w+\)[sdfr]|%[sdfr]|\{\w*\}")
GETTEXT = {"gettext", "gettext_lazy", "pgettext", "pgettext_lazy", "ngettext", "ngettext_lazy", "_", "gettext_noop"}


@cache
def catalogue(language: str, domain: str = "django") -> polib.POFile:
    return polib.pofile(str(BASE / "locale" / language / "LC_MESSAGES" / f"{domain}.po"))


def placeholders(message: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(message.replace("%%", "")))


def _sources() -> list[Path]:
    return sorted(
        path
        for app in APPS
        for path in (BASE / app).rglob("*.py")
        if "migrations" not in path.parts and "__pycache__" not in path.parts
    )


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), filename=str(path))


def _imports_text(tree: ast.Module) -> bool:
    return any(isinstance(node, ast.ImportFrom) and node.module == "common.text" for node in ast.walk(tree))


def _is_service(path: Path) -> bool:
    relative = path.relative_to(BASE)
    return relative.name in {"services.py", "access.py"} or "services" in relative.parts


def core_modules() -> list[Path]:
    """The pure cores that say sentences: the modules that import ``common.text``."""
    return [path for path in _sources() if path.parts[-2:] != ("common", "text.py") and _imports_text(_tree(path))]


def _called(node: ast.Call) -> str:
    return node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")


def text_calls(path: Path) -> list[ast.Call]:
    """The ``_(...)`` / ``Text(...)`` calls of a core module."""
    return [n for n in ast.walk(_tree(path)) if isinstance(n, ast.Call) and _called(n) in {"_", "Text"}]


def gettext_calls(path: Path) -> list[ast.Call]:
    return [n for n in ast.walk(_tree(path)) if isinstance(n, ast.Call) and _called(n) in GETTEXT]


def _literal(call: ast.Call, index: int) -> str | None:
    if (
        len(call.args) > index
        and isinstance(call.args[index], ast.Constant)
        and isinstance(call.args[index].value, str)
    ):
        return call.args[index].value
    return None


def _msgid(call: ast.Call) -> str | None:
    return _literal(call, 0)


def _key(call: ast.Call) -> tuple[str | None, str | None]:
    """(context, message) of a gettext call: ``pgettext("context", "message")`` names its context."""
    if _called(call).startswith("pgettext"):
        return _literal(call, 0), _literal(call, 1)
    return None, _literal(call, 0)


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(BASE)}:{node.lineno}"


def _missing(msgids: dict[tuple[str | None, str], str]) -> list[str]:
    """The (context, message) pairs that a catalogue lacks or leaves untranslated: an entry of another context is
    not the message's (gettext looks a message up in its context)."""
    missing = []
    for language in LANGUAGES:
        entries = {(entry.msgctxt, entry.msgid): entry for entry in catalogue(language) if not entry.obsolete}
        for key, where in msgids.items():
            entry = entries.get(key)
            if entry is None or not (entry.msgstr or entry.msgstr_plural) or entry.fuzzy:
                missing.append(f"{language} {where}: {key[1]!r}" + (f" (context {key[0]!r})" if key[0] else ""))
    return missing


# --- The catalogues --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("domain", ["django", "djangojs"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_is_translated_and_keeps_its_placeholders(language, domain):
    po = catalogue(language, domain)
    assert len(po) > 0
    wrong = []
    for entry in po:
        if entry.obsolete:
            continue
        if entry.fuzzy:
            wrong.append(f"fuzzy: {entry.msgid!r}")
            continue
        if entry.msgid_plural:
            forms = [entry.msgstr_plural[k] for k in sorted(entry.msgstr_plural)]
            pairs = [(entry.msgid, forms[0])] + [(entry.msgid_plural, form) for form in forms[1:]]
        else:
            pairs = [(entry.msgid, entry.msgstr)]
        for msgid, msgstr in pairs:
            if not msgstr.strip():
                wrong.append(f"untranslated: {msgid!r}")
            elif placeholders(msgid) != placeholders(msgstr):
                wrong.append(f"placeholders {placeholders(msgid)} != {placeholders(msgstr)}: {msgid!r} -> {msgstr!r}")
    assert not wrong, f"{language} {domain}.po: {len(wrong)} wrong:\n" + "\n".join(wrong[:30])


def test_the_placeholder_check_sees_each_kind():
    assert placeholders("%(name)s of %s, {count} (100%%)") == ["%(name)s", "%s", "{count}"]
    assert placeholders("%(name)s de %s") != placeholders("%(name)s de")


# --- The pure cores' sentences (common.text) ---------------------------------------------------------------------


def test_the_cores_are_found():
    names = {str(path.relative_to(BASE)) for path in core_modules()}
    assert {"federation/eligibility.py", "tournaments/standings.py"} <= names


# The mark of a line that makes a Text of a label the catalogue already holds (a choice's gettext_lazy label).
CATALOGUED_LABEL = "# catalogued label"


def test_every_core_sentence_is_a_literal_message_with_its_arguments():
    """``_(f"...")`` or ``_(a + b)`` cannot be looked up; an argument missing (or extra) loses a value."""
    wrong = []
    for path in core_modules():
        for call in text_calls(path):
            msgid = _msgid(call)
            if msgid is None and CATALOGUED_LABEL in path.read_text().splitlines()[call.lineno - 1]:
                continue  # a choice's label, already a message of the catalogue (portal.i18n.untranslated)
            if msgid is None:
                wrong.append(f"{_where(path, call)}: the message is not a literal string")
                continue
            given = {keyword.arg for keyword in call.keywords}
            if None in given:  # **arguments: checked where they are built
                continue
            named = set(re.findall(r"%\((\w+)\)", msgid))
            if named != given:
                wrong.append(f"{_where(path, call)}: placeholders {sorted(named)} but arguments {sorted(given)}")
    assert not wrong, "\n".join(wrong)


def test_every_core_sentence_is_in_the_catalogues():
    msgids = {}
    for path in core_modules():
        for call in text_calls(path):
            msgid = _msgid(call)
            if msgid is not None:
                msgids.setdefault((None, msgid), _where(path, call))
    assert len(msgids) > 20
    missing = _missing(msgids)
    assert not missing, f"{len(missing)} missing or untranslated:\n" + "\n".join(missing[:40])


# --- The services' messages (gettext), and every other module's -------------------------------------------------


def test_every_gettext_message_of_the_services_and_the_other_modules_is_in_the_catalogues():
    """The services (``services.py``, ``access.py``, a ``services`` package) and every other module of the apps:
    a ``gettext``/``pgettext``/``_`` message is in both catalogues, under its context, translated."""
    msgids, services = {}, set()
    for path in _sources():
        for call in gettext_calls(path):
            context, msgid = _key(call)
            if msgid is not None:
                msgids.setdefault((context, msgid), _where(path, call))
                if _is_service(path):
                    services.add(msgid)
    assert len(services) > 20
    missing = _missing(msgids)
    assert not missing, f"{len(missing)} missing or untranslated:\n" + "\n".join(missing[:40])


def test_the_coverage_check_fails_on_a_missing_message():
    assert _missing({(None, "A sentence no catalogue holds (issue 26)."): "here"})
    # A message held only under a context is missing without it.
    held = next(e for e in catalogue(LANGUAGES[0]) if e.msgctxt and not e.obsolete)
    if not any(e.msgid == held.msgid and e.msgctxt is None for e in catalogue(LANGUAGES[0])):
        assert _missing({(None, held.msgid): "here"})
    assert not _missing({(held.msgctxt, held.msgid): "here"})


# --- The site walk's English detector (tests/e2e/test_site_walk.py) ----------------------------------------------


def test_the_walks_detector_flags_english_sentences_not_french_or_spanish_ones():
    from tests.e2e.test_site_walk import english_sentences

    page = "\n".join(
        [
            "Règle 3.2.9 C : les numéros vont de 1 à 99 sans zéro initial",
            "On ne peut pas ajouter de joueur une fois le championnat commencé (R-05)",
            "No passport of the team's country (1.1 B, R-03)",
            "Italie – Espagne",
        ]
    )
    assert english_sentences(page, "fr") == ["No passport of the team's country (1.1 B, R-03)"]
    spanish = "No hay pasaporte del país del equipo (1.1 B, R-03)\nThe fee is due by then (R-52)."
    assert english_sentences(spanish, "es") == ["The fee is due by then (R-52)."]
    assert english_sentences("The fee is due by then (R-52).", "en") == []


# --- Refusals written as bare English strings: no new ones ------------------------------------------------------
# A refusal (``ValidationError``, ``PermissionDenied``, ``NotYet``/``Http404``, ``InvalidEvent``, ``access.require``,
# ``field_error``) whose message is a bare string literal or an f-string cannot be said in the reader's language.
# These files still hold some (issue 26 turned the pages' most seen ones into sentences); a file may hold fewer, never
# more: write a new refusal with ``common.text._`` (or gettext) and lower the count when you turn an old one.
REFUSALS = {
    "ValidationError",
    "PermissionDenied",
    "NotYet",
    "Http404",
    "InvalidEvent",
    "EventFormatError",
    "NotANumber",
    "DutyHeld",  # the console's conflicts (games/devices.py)
    "DeviceTakenOver",
}
REFUSALS_WITH_A_FIELD = {"require", "field_error"}
# The message first, then the event and the field: the game engine's ``Replayer.refuse`` (games/engine/replay.py).
REFUSALS_MESSAGE_FIRST = {"refuse"}
UNTRANSLATED_REFUSALS = {}


def untranslated_refusals(path: Path) -> int:
    count = 0
    for call in ast.walk(_tree(path)):
        if (
            not isinstance(call, ast.Call)
            or _called(call) not in REFUSALS | REFUSALS_WITH_A_FIELD | REFUSALS_MESSAGE_FIRST
        ):
            continue
        values = [v for a in call.args for v in (a.values if isinstance(a, ast.Dict) else [a])]
        if _called(call) in REFUSALS_WITH_A_FIELD:
            values = values[1:]
        if _called(call) in REFUSALS_MESSAGE_FIRST:
            values = values[:1]
        count += sum(
            isinstance(v, ast.JoinedStr) or (isinstance(v, ast.Constant) and isinstance(v.value, str)) for v in values
        )
    return count


def test_no_new_refusal_is_a_bare_english_string():
    grown = []
    for path in _sources():
        name = str(path.relative_to(BASE))
        count, allowed = untranslated_refusals(path), UNTRANSLATED_REFUSALS.get(name, 0)
        if count > allowed:
            grown.append(f"{name}: {count} bare refusal messages (at most {allowed})")
    assert not grown, "say them with common.text._ or gettext:\n" + "\n".join(grown)


def test_the_refusal_count_sees_a_bare_message(tmp_path):
    module = tmp_path / "refusing.py"
    module.write_text(
        'def f(x):\n    raise ValidationError({"a": f"Rule 9.1: {x}", "b": _("Rule 9.1: said.")})\n'
        '    require(x, "Rule 9.1: only the manager.")\n'
        # The engine's refusals: the message counts, not the field named after the event.
        '    self.refuse(f"R-11: period {x}", x, "period")\n'
        '    self.refuse(_("R-10: a period starts at 0:00 elapsed"), x, "time")\n'
    )
    assert untranslated_refusals(module) == 3


# --- Labels, help and admin descriptions written as bare English strings: none ------------------------------------
# A form's ``label=``/``help_text=``/``empty_label=``, a filter's ``label=``, an admin column's or action's
# ``description=`` is shown on a page (or the admin) to every reader: it is a ``gettext_lazy`` message.
SHOWN_KEYWORDS = {"label", "help_text", "empty_label", "description"}


def _shows_pages(path: Path) -> bool:
    relative = path.relative_to(BASE)
    return relative.name in {"forms.py", "views.py", "filters.py", "admin.py"} or bool(
        {"forms", "views"} & set(relative.parts[:-1])
    )


def bare_shown_strings(path: Path) -> list[str]:
    found = []
    for call in ast.walk(_tree(path)):
        if not isinstance(call, ast.Call):
            continue
        for keyword in call.keywords:
            value = keyword.value
            bare = isinstance(value, ast.JoinedStr) or (
                isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value.strip()
            )
            if keyword.arg in SHOWN_KEYWORDS and bare:
                found.append(f"{_where(path, call)}: {keyword.arg}=")
    return found


def test_no_label_help_or_admin_description_is_a_bare_english_string():
    found = [where for path in _sources() if _shows_pages(path) for where in bare_shown_strings(path)]
    assert not found, "say them with gettext_lazy:\n" + "\n".join(found)


def test_the_label_check_sees_a_bare_label(tmp_path):
    module = tmp_path / "forms.py"
    module.write_text(
        'x = forms.CharField(label="Team", help_text=_("Said."))\n'
        '@admin.display(description=f"Rule {n}")\ndef f(): pass\n'
        'y = forms.CharField(label=gettext_lazy("Team"), help_text="")\n'
    )
    global BASE
    saved, BASE = BASE, tmp_path
    try:
        assert len(bare_shown_strings(module)) == 2
    finally:
        BASE = saved


# --- A page's or the admin's notice (``messages.success(request, ...)``, ``self.message_user(request, ...)``) written
# as a bare English string or an f-string: none (say it with gettext / ngettext).
NOTICES = {"message_user", "success", "error", "warning", "info"}


def bare_notices(path: Path) -> list[str]:
    found = []
    for call in ast.walk(_tree(path)):
        if isinstance(call, ast.Call) and _called(call) in NOTICES and len(call.args) > 1:
            value = call.args[1]
            if isinstance(value, ast.JoinedStr) or (isinstance(value, ast.Constant) and isinstance(value.value, str)):
                found.append(_where(path, call))
    return found


def test_no_notice_is_a_bare_english_string():
    # tournaments/rinks.py's ``error(field, article, message)`` is the rink check's own helper, not a notice.
    found = [w for path in _sources() if path.name != "rinks.py" for w in bare_notices(path)]
    assert not found, "say them with gettext or ngettext:\n" + "\n".join(found)
