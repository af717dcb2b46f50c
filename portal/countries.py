"""Country and national-team names in the reader's language (issue 26).

Country names come from django-countries' own catalogues (English, French, Spanish), read in the active
language each time they are shown: nothing stores a translated name. A team entry is a national team entered
by its federation (1.1 A) and is stored under a name, by default its country's ("Italy"); when that name is a
name of a country (its current name, a former one such as "Czech Republic", in any of the site's languages) it
is shown as the country's name in the reader's language ("Italia" on a Spanish page). A name the country goes
by in the reader's language is kept as entered ("Czech Republic" on an English page); any other name ("USA",
"Team B") is shown as stored.
"""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.utils.translation import get_language, override
from django_countries import countries


def country_name(code: object) -> str:
    """The name of the country of ISO 3166-1 ``code`` in the active language; the code itself when unknown."""
    text = str(code or "").strip().upper()
    return str(countries.name(text) or text) if text else ""


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()


@lru_cache(maxsize=8)
def _names_in(language: str) -> dict[str, frozenset[str]]:
    """Each country's names in ``language`` (its current one, then any it is also known by), folded."""
    with override(language):
        return {
            code: frozenset(
                _fold(str(name)) for name in (countries.name(code), *countries.shadowed_names.get(code, ()))
            )
            for code in countries.countries
        }


@lru_cache(maxsize=1)
def _codes_by_name() -> dict[str, str]:
    index: dict[str, str] = {}
    for language, _label in settings.LANGUAGES:
        for code, names in _names_in(language).items():
            for name in names:
                index.setdefault(name, code)
    return index


def country_of_team(name: str) -> str:
    """The ISO code of the country a team's stored ``name`` names (in any of the site's languages); "" if none."""
    return _codes_by_name().get(_fold(name or ""), "")


def _active_language() -> str:
    language = (get_language() or settings.LANGUAGE_CODE).split("-")[0]
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def team_display_name(name: str) -> str:
    """The name a national team is shown under in the active language (see the module's docstring)."""
    code = country_of_team(name)
    if not code:
        return name
    if _fold(name) in _names_in(_active_language()).get(code, frozenset()):
        return name
    return country_name(code)
