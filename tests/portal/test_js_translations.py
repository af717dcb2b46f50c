"""The scripts' strings in three languages (issue 26): Django's JavaScript catalogue, served by the portal itself.

- every string the project's scripts mark (``gettext``, ``ngettext``, ``pgettext`` in ``static/``, the apps'
  ``static/`` folders) has a French and a Spanish translation that keeps its placeholders and articles;
- the catalogue of a language is served at its own URL, the project's strings only, with a cache header;
- the pages that run those scripts load it first, and the console keeps it for offline use.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from portal.i18n import UNVERSIONED_MAX_AGE, VERSIONED_MAX_AGE, catalogue_url, catalogue_version
from tests.portal.test_translations import ARTICLE, _pairs, makemessages_on_a_copy

BASE = Path(settings.BASE_DIR)
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
JS_PLACEHOLDER = re.compile(r"%\([a-z_]+\)s")
# Strings a French or Spanish reader reads as they are written in English: codes, numbers, separators.
SAME_IN_EVERY_LANGUAGE = {
    "P%(n)s",
    "P%(period)s %(time)s",
    "HTTP %(status)s",
    "%(n)s s",
    "%(who)s – %(reason)s",
    "%(what)s: %(reason)s",
    "%(what)s: %(team)s",
    "Device %(device)s · %(duties)s",
    "Final",  # Spanish: "Final"
    "(G)",  # French: gardien
}


def js_catalogue(language: str, base: Path = BASE) -> polib.POFile:
    return polib.pofile(str(base / "locale" / language / "LC_MESSAGES" / "djangojs.po"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_script_string_has_a_translation_that_keeps_its_placeholders_and_articles(language):
    po = js_catalogue(language)
    assert len(po) > 100, "the console's, the scoreboard's and the countdowns' strings"
    assert po.metadata.get("Language") == language and "nplurals=2" in po.metadata.get("Plural-Forms", "")
    unfinished, changed, untranslated = [], [], []
    for entry in po:
        if entry.obsolete:
            continue
        if entry.fuzzy or not all(text.strip() for _english, text in _pairs(entry)):
            unfinished.append(entry.msgid)
            continue
        for english, text in _pairs(entry):
            for pattern in (JS_PLACEHOLDER, ARTICLE):
                if sorted(pattern.findall(english)) != sorted(pattern.findall(text)):
                    changed.append((english, text))
            if text == english and english not in SAME_IN_EVERY_LANGUAGE:
                untranslated.append(english)
    assert not unfinished, f"{language}: untranslated or fuzzy: {unfinished[:20]}"
    assert not changed, f"{language}: placeholder or article changed: {changed[:10]}"
    assert not untranslated, f"{language}: left in English: {untranslated[:20]}"


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="gettext is installed by scripts/pdf-tools")
def test_the_script_catalogues_hold_every_string_the_scripts_mark(tmp_path):
    """makemessages -d djangojs on a copy of the sources (as `make makemessages` runs it): nothing comes back
    untranslated, so every gettext() of a script is in both catalogues."""
    copy = makemessages_on_a_copy(tmp_path, "--domain", "djangojs", skipped="vendor")
    for language in LANGUAGES:
        po = js_catalogue(language, copy)
        unfinished = [entry.msgid for entry in po if not entry.obsolete and (not entry.translated() or entry.fuzzy)]
        assert not unfinished, f"{language}: run `make makemessages` and translate: {unfinished[:20]}"
        assert len(po) == len(js_catalogue(language)), f"{language}: entries no script marks any more"


# --- The catalogue as the browser gets it --------------------------------------------------------------------------


def test_each_language_has_its_own_catalogue_url_with_its_version():
    assert catalogue_url("es") == f"/jsi18n/es/?v={catalogue_version('es')}"
    assert catalogue_url("fr") != catalogue_url("es")
    assert catalogue_url("de").startswith("/jsi18n/en/"), "a language the portal does not speak: English"


@pytest.mark.django_db
def test_the_catalogue_says_the_scripts_strings_in_the_language_of_its_url(client: Client):
    response = client.get(catalogue_url("es"), HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Content-Language"] == "es"
    body = response.content.decode()
    assert '"Offline since %(time)s": "Sin conexi\\u00f3n desde %(time)s"' in body
    assert "function (msgid)" in body or "django.gettext" in body
    french = client.get(catalogue_url("fr")).content.decode()
    assert '"Sin conexi' not in french and "Hors ligne depuis" in french


@pytest.mark.django_db
def test_the_catalogue_holds_the_projects_strings_only(client: Client):
    body = client.get(catalogue_url("es")).content.decode()
    # django.contrib.admin's own djangojs catalogue ("Now", "Midnight" of its calendar) is not the portal's.
    assert "Medianoche" not in body
    assert '"Midnight"' not in body


@pytest.mark.django_db
def test_the_catalogue_is_cached_a_year_under_its_version_and_an_hour_without(client: Client):
    current = client.get(catalogue_url("fr"))
    assert f"max-age={VERSIONED_MAX_AGE}" in current["Cache-Control"] and "public" in current["Cache-Control"]
    unversioned = client.get(reverse("javascript-catalogue", args=["fr"]))
    assert f"max-age={UNVERSIONED_MAX_AGE}" in unversioned["Cache-Control"]
    old = client.get(reverse("javascript-catalogue", args=["fr"]) + "?v=000000000000")
    assert f"max-age={UNVERSIONED_MAX_AGE}" in old["Cache-Control"]


@pytest.mark.django_db
def test_a_language_the_portal_does_not_speak_has_no_catalogue(client: Client):
    assert client.get(reverse("javascript-catalogue", args=["de"])).status_code == 404
    assert client.post(catalogue_url("fr")).status_code == 405


@pytest.mark.django_db
def test_the_catalogue_runs_under_the_content_security_policy(client: Client):
    """A file of the portal's own origin (script-src 'self'): no inline script and no eval() needed."""
    response = client.get(catalogue_url("fr"))
    body = response.content.decode()
    assert "eval(" not in body and "new Function" not in body
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy


@pytest.mark.parametrize(
    "template", ["games/console.html", "games/live.html", "games/championship_live.html", "home.html"]
)
def test_the_pages_load_the_catalogue_before_their_scripts(template):
    source = (BASE / "templates" / template).read_text()
    catalogue = source.index("{% javascript_catalogue %}")
    scripts = [m.start() for m in re.finditer(r"<script src=\"\{% static", source)]
    assert scripts and all(catalogue < at for at in scripts), f"{template}: the catalogue comes first"


def test_the_console_has_no_english_string_table_of_its_own():
    """The console's strings were a <template> of translated spans; they are the catalogue's now."""
    assert 'id="console-text"' not in (BASE / "templates" / "games" / "console.html").read_text()
    script = (BASE / "games" / "static" / "games" / "console.js").read_text()
    assert "console-text" not in script
    assert "gettext(" in script and "interpolate(" in script
