"""Issue 26, "Languages": country and team names, currencies, dates and numbers in the reader's language."""

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from djmoney.money import Money
from rest_framework.test import APIClient

from portal.countries import country_name, team_display_name
from portal.currencies import currency_choices
from tests.factories import (
    ChampionshipFactory,
    FederationFactory,
    GameFactory,
    SuperuserFactory,
    TeamEntryFactory,
    VenueFactory,
)

pytestmark = pytest.mark.django_db


def _page(url: str, language: str, user=None) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def italy_spain():
    """Italy v Spain at a Spanish venue, entered under their countries' English names (the default)."""
    championship = ChampionshipFactory(venue=VenueFactory(country="ES", city="Barcelona", time_zone="Europe/Madrid"))
    italy = TeamEntryFactory(championship=championship, federation=FederationFactory(country="IT"), name="Italy")
    spain = TeamEntryFactory(championship=championship, federation=FederationFactory(country="ES"), name="Spain")
    game = GameFactory(championship=championship, phase__championship=championship, home=italy, away=spain)
    return championship, italy, spain, game


# --- team and country names ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stored", "language", "shown"),
    [
        ("Italy", "es", "Italia"),
        ("Italy", "fr", "Italie"),
        ("Italy", "en", "Italy"),
        ("Spain", "fr", "Espagne"),
        ("Italie", "en", "Italy"),  # entered under its French name, read in English
        ("Czech Republic", "en", "Czech Republic"),  # a name the country is still known by in English stays
        ("Czech Republic", "es", "Chequia"),
        ("USA", "es", "USA"),  # not a country's name: as entered
        ("National Federation 3", "fr", "National Federation 3"),
    ],
)
def test_a_team_entered_under_its_countrys_name_reads_in_the_readers_language(stored, language, shown):
    with translation.override(language):
        assert team_display_name(stored) == shown
        assert team_display_name(team_display_name(stored)) == shown  # shown twice, still the same


def test_country_names_come_from_django_countries_catalogues():
    with translation.override("es"):
        assert country_name("de") == "Alemania"
    with translation.override("fr"):
        assert country_name("CH") == "Suisse"
    assert country_name("") == ""


def test_the_entry_and_the_game_say_their_names_in_the_active_language(italy_spain):
    _championship, italy, _spain, game = italy_spain
    with translation.override("es"):
        assert italy.display_name == "Italia"
        assert str(italy) == "Italia"
        assert str(game).endswith("Italia – España")
    assert italy.name == "Italy"  # the stored name is not changed


def test_the_schedule_reads_italia_espana_in_spanish_and_italie_espagne_in_french(italy_spain):
    championship, *_ = italy_spain
    url = reverse("tournaments:schedule", args=[championship.pk])
    spanish = _page(url, "es")
    assert "Italia" in spanish and "España" in spanish
    assert "Italy" not in spanish
    french = _page(url, "fr")
    assert "Italie" in french and "Espagne" in french


def test_the_championship_page_names_the_teams_and_the_venues_country_in_the_readers_language(italy_spain):
    championship, *_ = italy_spain
    url = reverse("tournaments:championship-detail", args=[championship.pk])
    spanish = _page(url, "es")
    assert "Barcelona (España)" in spanish
    french = _page(url, "fr")
    assert "Barcelona (Espagne)" in french


def test_the_live_board_knows_the_names_the_reader_reads(italy_spain):
    _championship, _italy, _spain, game = italy_spain
    page = _page(reverse("games:game-live", args=[game.pk]), "es")
    assert '"team_names": {' in page and '"Italy": "Italia"' in page and '"Spain": "Espa\\u00f1a"' in page


def test_the_api_gives_the_stored_name_and_the_name_in_the_requested_language(italy_spain):
    championship, italy, _spain, game = italy_spain
    client = APIClient()
    client.force_authenticate(SuperuserFactory())
    entry = client.get(f"/api/v1/entries/{italy.pk}/", HTTP_ACCEPT_LANGUAGE="es").json()
    assert (entry["name"], entry["display_name"]) == ("Italy", "Italia")
    answer = client.get(f"/api/v1/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="es").json()
    assert (answer["home_name"], answer["home_display_name"]) == ("Italy", "Italia")
    assert (answer["away_name"], answer["away_display_name"]) == ("Spain", "España")
    venue = client.get(f"/api/v1/venues/{championship.venue_id}/", HTTP_ACCEPT_LANGUAGE="fr").json()
    assert (venue["country"], venue["country_name"]) == ("ES", "Espagne")
    english = client.get(f"/api/v1/entries/{italy.pk}/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert english["display_name"] == "Italy"


# --- dates and numbers ----------------------------------------------------------------------------------------------


def test_the_championship_page_writes_dates_and_amounts_as_the_readers_locale_does(italy_spain):
    championship, *_ = italy_spain
    championship.entry_fee = Money("1250.50", "EUR")
    championship.save(update_fields=["entry_fee", "entry_fee_currency"])
    url = reverse("tournaments:championship-detail", args=[championship.pk])
    french = _page(url, "fr")
    assert "1 juillet 2027 – 10 juillet 2027" in french
    assert "1\xa0mai 2027" in french or "1 mai 2027" in french
    assert "1\u202f250,50\xa0€" in french or "1\xa0250,50\xa0€" in french
    spanish = _page(url, "es")
    assert "1 de julio de 2027 – 10 de julio de 2027" in spanish
    assert "1.250,50\xa0€" in spanish
    english = _page(url, "en")  # the portal's English: day before month (portal/formats/en)
    assert "1 July 2027 – 10 July 2027" in english
    assert "€1,250.50" in english
    for page in (french, spanish):
        assert "2027-07-01" not in page


def test_a_persons_page_writes_the_date_of_birth_in_the_readers_short_format():
    from tests.factories import PersonFactory

    person = PersonFactory(date_of_birth=datetime.date(2001, 12, 7))
    url = reverse("federation:person-detail", args=[person.pk])
    assert "07/12/2001" in _page(url, "fr", SuperuserFactory())
    assert "07/12/2001" in _page(url, "es", SuperuserFactory())
    assert "2001-12-07" in _page(url, "en", SuperuserFactory())  # never 12/07: the portal's English is ISO


def test_machine_readable_times_stay_iso(italy_spain):
    championship, *_ = italy_spain
    page = _page(reverse("tournaments:schedule", args=[championship.pk]), "fr")
    assert re.search(r'<time datetime="2027-07-01T\d{2}:\d{2}:\d{2}', page)


# --- currencies -----------------------------------------------------------------------------------------------------


def test_the_currency_choices_are_the_settings_named_in_the_readers_language(settings):
    settings.PORTAL_CURRENCIES = ["USD", "EUR", "CHF"]
    with translation.override("fr"):
        assert currency_choices() == [
            ("USD", "USD – dollar des États-Unis"),
            ("EUR", "EUR – euro"),
            ("CHF", "CHF – franc suisse"),
        ]
    with translation.override("es"):
        assert currency_choices(keep="JPY")[-1] == ("JPY", "JPY – yen japonés")  # a stored one is kept


def test_the_championship_form_offers_only_the_portals_currencies_in_french():
    page = _page(reverse("tournaments:championship-create"), "fr", SuperuserFactory())
    select = re.search(r'<select name="entry_fee_currency".*?</select>', page, re.S).group(0)
    assert '<option value="EUR">EUR – euro</option>' in select
    assert "franc suisse" in select
    assert "ADB" not in page and "Unit of Account" not in page
    assert select.count("<option") == 8


def test_a_championships_stored_currency_outside_the_setting_is_kept_and_shown(settings):
    settings.PORTAL_CURRENCIES = ["USD", "EUR"]
    championship = ChampionshipFactory(entry_fee=Money(40000, "JPY"))
    page = _page(reverse("tournaments:championship-edit", args=[championship.pk]), "es", SuperuserFactory())
    assert '<option value="JPY" selected>JPY – yen japonés</option>' in page
    detail = _page(reverse("tournaments:championship-detail", args=[championship.pk]), "es")
    assert "JPY" in detail


def test_the_api_refuses_a_currency_outside_the_setting_naming_the_field_and_the_setting(settings):
    settings.PORTAL_CURRENCIES = ["USD", "EUR"]
    championship = ChampionshipFactory(entry_fee=Money(40000, "JPY"))
    client = APIClient()
    client.force_authenticate(SuperuserFactory())
    url = f"/api/v1/championships/{championship.pk}/"
    refused = client.patch(url, {"entry_fee_currency": "GBP"}, format="json")
    assert refused.status_code == 400
    (message,) = refused.json()["entry_fee_currency"]
    assert "GBP" in message and "PORTAL_CURRENCIES: USD, EUR" in message
    kept = client.patch(url, {"entry_fee": "30000.00"}, format="json")  # the stored currency stays
    assert kept.status_code == 200, kept.json()
    championship.refresh_from_db()
    assert championship.entry_fee == Money(30000, "JPY")
