"""Setting up a championship with a form (issue 25): the standings preset chosen from the presets, the ruleset's
parameters as labelled fields with their articles (no JSON box), a bad value refused beside its field naming the
rule with nothing stored, and publishing after a page that says what becomes public."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import ChampionshipFactory, InternationalFederationFactory, VenueFactory, international_staff
from tournaments.models import Championship

pytestmark = pytest.mark.django_db


def _form(**changes) -> dict:
    data = {
        "name": "Euro Cup 2027",
        "category": "senior_men",
        "level": "world",
        "start_date": "2027-07-01",
        "end_date": "2027-07-10",
        "venue": VenueFactory().pk,
        "entry_closing_date": "2027-05-01",
        "entry_fee": "500",
        "entry_fee_currency": "EUR",
        "sanctioning_body": InternationalFederationFactory().pk,
        "standings_preset": "iihf",
        "game__period_minutes": "15",
        "game__halftime_minutes": "5",
        "game__overtime_minutes": "10",
        "game__timeouts_per_period": "1",
        "game__shootout_shooters": "3",
        "roster__min_skaters": "6",
        "roster__max_skaters": "14",
        "roster__max_goalkeepers": "2",
        "protests__fee_amount": "150.00",
        "protests__fee_currency": "EUR",
        "protests__administrative_confirm_minutes": "90",
        "protests__ruling_minutes": "180",
        "protests__federation_minutes": "180",
        "protests__answer_minutes": "180",
        "appeals__general_assembly_days": "30",
        "appeals__congress_days": "",
    }
    data.update(changes)
    return data


@pytest.fixture
def staff_client():
    client = Client()
    client.force_login(international_staff())
    return client


def test_the_form_shows_labelled_parameters_with_articles_and_no_json_box(staff_client):
    page = staff_client.get(reverse("tournaments:championship-create")).content.decode()
    assert "<textarea" not in page and 'name="ruleset"' not in page
    assert "Period length (minutes)" in page and "Rule 1.2 A, R-11" in page
    assert "Protest fee" in page and "Rule 9.1 A, R-52" in page
    assert "Administrative protest: confirmed within (minutes)" in page
    assert re.search(r'<option value="iihf"[^>]*>IIHF', page)
    assert 'name="game__period_minutes" value="20"' in page  # the default of 1.2 A


def test_a_valid_form_stores_the_preset_and_only_the_changed_parameters(staff_client):
    response = staff_client.post(reverse("tournaments:championship-create"), _form())
    assert response.status_code == 302, response.content.decode()[:3000]
    championship = Championship.objects.get(name="Euro Cup 2027")
    assert championship.standings_preset == "iihf"
    assert championship.published is False
    assert championship.ruleset == {
        "game": {"period_minutes": 15},
        "protests": {"fee_amount": "150.00", "fee_currency": "EUR"},
        "appeals": {"general_assembly_days": 30},
    }


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("game__period_minutes", "0", "Period length (minutes): R-11: must be at least 1, not 0"),
        ("game__period_minutes", "twenty", "1.2 A, R-11: enter a whole number."),
        (
            "protests__fee_currency",
            "eu",
            "Protest fee currency: EU is not one of the currencies the portal uses (PORTAL_CURRENCIES: USD, EUR",
        ),
        ("roster__min_skaters", "20", "Fewest players on a roster: R-04: min_skaters (20) must not exceed"),
    ],
)
def test_a_bad_value_is_an_error_beside_its_field_naming_the_rule_and_nothing_is_stored(
    staff_client, field, value, says
):
    response = staff_client.post(reverse("tournaments:championship-create"), _form(**{field: value}))
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert field in errors, errors
    assert any(says in error for error in errors[field]), errors[field]
    assert not Championship.objects.filter(name="Euro Cup 2027").exists()


def test_editing_keeps_the_stored_parameters_and_publishing_asks_first(staff_client):
    championship = ChampionshipFactory(published=False, ruleset={"game": {"period_minutes": 15}})
    edit = reverse("tournaments:championship-edit", args=[championship.pk])
    assert 'name="game__period_minutes" value="15"' in staff_client.get(edit).content.decode()
    detail = staff_client.get(reverse("tournaments:championship-detail", args=[championship.pk])).content.decode()
    confirm = reverse("tournaments:championship-publish-confirm", args=[championship.pk])
    assert confirm in detail
    page = staff_client.get(confirm).content.decode()
    assert "Once published, everyone sees, without signing in:" in page
    assert reverse("tournaments:championship-publish", args=[championship.pk]) in page
    championship.refresh_from_db()
    assert championship.published is False
    assert Client().get(confirm).status_code == 302  # anonymous: to the login
