"""Three languages (issue 12, "Languages"): every template string and e-mail in French and Spanish.

- every catalogue entry is translated and none is fuzzy (``test_catalogue_is_complete``);
- the catalogues hold every string the code and templates mark: makemessages run on a copy of the sources adds
  nothing untranslated (``test_catalogues_hold_every_marked_string``);
- no template shows text that is not marked for translation (``test_template_text_is_marked``);
- rule citations keep their article numbers and placeholders in every language (R-ids, "6.2.2 B").
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.template.base import Lexer, TokenType

BASE = Path(settings.BASE_DIR)
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
TEMPLATES = sorted(p for p in (BASE / "templates").rglob("*.html") if "drf_spectacular" not in p.parts)
# An article of the rulebook ("6.2.2 B", "9.1 A", "4.2 O") or a decision ("R-52").
ARTICLE = re.compile(r"\b\d{1,2}(?:\.\d{1,2}){1,3}(?: [A-Z]\b)?|\bR-\d{2}\b")
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sdf]|\{[a-z_]*\}")


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(BASE / "locale" / language / "LC_MESSAGES" / "django.po"))


def _unfinished(po: polib.POFile) -> list[str]:
    return [entry.msgid for entry in po if not entry.obsolete and (not entry.translated() or entry.fuzzy)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogue_is_complete(language):
    po = catalogue(language)
    assert len(po) > 0
    unfinished = _unfinished(po)
    assert not unfinished, f"{language}: {len(unfinished)} untranslated or fuzzy: {unfinished[:20]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_articles_and_placeholders(language):
    """A rule message is translated, its article is not; a placeholder survives translation."""
    wrong = []
    for entry in catalogue(language):
        if entry.obsolete or not entry.translated():
            continue
        for msgid, msgstr in _pairs(entry):
            for pattern in (ARTICLE, PLACEHOLDER):
                if sorted(pattern.findall(msgid)) != sorted(pattern.findall(msgstr)):
                    wrong.append((msgid, msgstr))
    assert not wrong, f"{language}: article or placeholder changed in {wrong[:10]}"


def _pairs(entry: polib.POEntry):
    if entry.msgid_plural:
        forms = list(entry.msgstr_plural.values())
        yield entry.msgid, forms[0]
        for form in forms[1:]:
            yield entry.msgid_plural, form
    else:
        yield entry.msgid, entry.msgstr


@pytest.mark.parametrize("domain", ["django", "djangojs"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_compiled_catalogue_is_current(language, domain):
    """The .mo files are built (`make messages`), not kept in the repository: a stale one would hide a change."""
    po = BASE / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
    mo = po.with_suffix(".mo")
    assert mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime, f"run `make messages`: {mo} is missing or stale"


def makemessages_on_a_copy(tmp_path: Path, *options: str, skipped: str) -> Path:
    """Run makemessages (``options``: a domain) for every language on a copy of the sources without the folders
    named ``skipped``; return the copy, whose catalogues tell what the real ones lack."""
    copy = tmp_path / "src"
    ignore = shutil.ignore_patterns(".venv", "var", "tests", "node_modules", "__pycache__", "*.mo", ".git", skipped)
    shutil.copytree(BASE, copy, ignore=ignore, symlinks=True)
    result = subprocess.run(
        [sys.executable, "manage.py", "makemessages", *options, *sum((["--locale", code] for code in LANGUAGES), [])]
        + ["--no-obsolete", "--verbosity", "0"],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return copy


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="gettext is installed by scripts/pdf-tools")
def test_catalogues_hold_every_marked_string(tmp_path):
    """makemessages on a copy of the sources: a marked string missing from a catalogue comes back untranslated."""
    copy = makemessages_on_a_copy(tmp_path, skipped="static")
    for language in LANGUAGES:
        po = polib.pofile(str(copy / "locale" / language / "LC_MESSAGES" / "django.po"))
        unfinished = _unfinished(po)
        assert not unfinished, f"{language}: run `make makemessages` and translate: {unfinished[:20]}"


# --- Template text that is not marked -------------------------------------------------------------------------
ATTRIBUTE = re.compile(r"""\b(?:aria-label|title|placeholder|alt|aria-description)\s*=\s*(["'])(.*?)\1""", re.S)
LETTER = re.compile(r"[^\W\d_]", re.UNICODE)
SKIPPED_BLOCKS = {"blocktranslate": "endblocktranslate", "blocktrans": "endblocktrans", "comment": "endcomment"}


def visible_text(source: str) -> str:
    """The template's HTML with every template tag, variable and translated block replaced by a marker."""
    parts, closing = [], None
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0] if token.contents.split() else ""
            if closing:
                if name == closing:
                    closing = None
                continue
            if name in SKIPPED_BLOCKS:
                closing = SKIPPED_BLOCKS[name]
            parts.append("\x00")
        elif closing:
            continue
        elif token.token_type == TokenType.TEXT:
            parts.append(token.contents)
        else:
            parts.append("\x00")
    return "".join(parts)


def unmarked_text(source: str) -> list[str]:
    html = visible_text(source)
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S | re.I)
    html = re.sub(r"<!--.*?-->", " ", html, flags=re.S)
    found = [value for _quote, value in ATTRIBUTE.findall(html) if LETTER.search(value.replace("\x00", ""))]
    text = re.sub(r"<[^>]*>", "\x00", html)
    text = re.sub(r"&[a-zA-Z]+;|&#\d+;", " ", text)
    found += [chunk.strip() for chunk in text.split("\x00") if LETTER.search(chunk)]
    return found


def test_the_lint_finds_unmarked_text_and_passes_marked_text():
    assert unmarked_text('<p title="Rink">Games</p>') == ["Rink", "Games"]
    marked = (
        "{% load i18n %}<p title=\"{% translate 'Rink' %}\">{% translate 'Games' %} {{ n }} &middot; 3–2</p>"
        "{% blocktranslate with n=n %}Game {{ n }}{% endblocktranslate %}<script>var a = 'x';</script>"
    )
    assert unmarked_text(marked) == []


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: str(p.relative_to(BASE / "templates")))
def test_template_text_is_marked(template):
    found = unmarked_text(template.read_text())
    assert not found, f"{template.name}: text not marked for translation: {found[:10]}"
