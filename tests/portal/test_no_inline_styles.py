"""One stylesheet (issue 26): no template carries a <style> block or a style= attribute; static/portal.css holds
every rule, as components used the same way on every page (and the Content-Security-Policy needs no nonce for it)."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

TEMPLATES = Path(settings.BASE_DIR) / "templates"
STYLE_BLOCK = re.compile(r"<style\b", re.IGNORECASE)
STYLE_ATTRIBUTE = re.compile(r"<[a-zA-Z][^>]*\sstyle\s*=", re.IGNORECASE | re.DOTALL)


def _templates() -> list[Path]:
    return sorted(p for p in TEMPLATES.rglob("*") if p.is_file() and p.suffix in {".html", ".txt", ".xml", ".svg"})


def test_no_template_holds_a_style_block():
    found = [str(p.relative_to(TEMPLATES)) for p in _templates() if STYLE_BLOCK.search(p.read_text())]
    assert not found, f"<style> in {found}: move the rules into static/portal.css"


def test_no_template_holds_an_inline_style_attribute():
    found = [str(p.relative_to(TEMPLATES)) for p in _templates() if STYLE_ATTRIBUTE.search(p.read_text())]
    assert not found, f"style= in {found}: use a class of static/portal.css"


def test_the_checks_see_what_they_look_for():
    assert STYLE_BLOCK.search('<style nonce="x">p{}</style>')
    assert STYLE_ATTRIBUTE.search('<p class="a"\n   style="color:red">')
    assert not STYLE_ATTRIBUTE.search('<link rel="stylesheet" href="portal.css">')
