"""championship_create / championship_update: directors only, the ruleset through championship_update_ruleset
(frozen once the championship has begun, 3.1.1 B), errors naming the field and the rule, nothing stored on refusal."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from djmoney.money import Money

from tests.factories import (
    ChampionshipFactory,
    FederationFactory,
    GameFactory,
    VenueFactory,
    federation_staff,
    international_staff,
)
from tournaments import services
from tournaments.models import Championship

from .conftest import BEFORE_START, DURING

pytestmark = pytest.mark.django_db


def _setup(**changes) -> dict:
    fields = {
        "name": "European Championship 2027",
        "category": "senior_men",
        "level": "continental",
        "start_date": datetime.date(2027, 8, 1),
        "end_date": datetime.date(2027, 8, 7),
        "venue": VenueFactory(),
        "entry_closing_date": datetime.date(2027, 6, 1),
        "entry_fee": Money(300, "EUR"),
        "sanctioning_body": FederationFactory(),
    }
    fields.update(changes)
    return fields


def test_staff_of_the_sanctioning_body_set_up_its_championship():
    body = FederationFactory()
    staff = federation_staff(body)
    championship = services.championship_create(**_setup(sanctioning_body=body), by=staff)
    stored = Championship.objects.get(pk=championship.pk)
    assert stored.entry_fee == Money(300, "EUR")
    assert stored.ruleset == {} and stored.standings_preset == "firs-2017"
    assert stored.history.get().history_user == staff


def test_it_refuses_a_set_up_for_a_body_the_user_does_not_direct():
    with pytest.raises(PermissionDenied):
        services.championship_create(**_setup(), by=federation_staff())
    assert not Championship.objects.exists()


def test_it_refuses_entries_closing_after_the_start_1_1_a():
    with pytest.raises(ValidationError) as exc:
        services.championship_create(**_setup(entry_closing_date=datetime.date(2027, 8, 2)), by=international_staff())
    assert "Rule 1.1 A: entries close before the championship starts." in exc.value.messages
    assert not Championship.objects.exists()


def test_it_refuses_a_bad_ruleset_naming_the_parameter_on_create():
    with pytest.raises(ValidationError) as exc:
        services.championship_create(**_setup(ruleset={"roster": {"max_skaters": "many"}}), by=international_staff())
    assert "roster.max_skaters" in " ".join(exc.value.message_dict["ruleset"])
    assert not Championship.objects.exists()


def test_it_refuses_an_unknown_standings_preset():
    with pytest.raises(ValidationError) as exc:
        services.championship_create(**_setup(standings_preset="galactic"), by=international_staff())
    assert "galactic" in " ".join(exc.value.message_dict["standings_preset"])


def test_an_update_changes_only_the_fields_named():
    championship = ChampionshipFactory()
    director = international_staff()
    services.championship_update(championship=championship, name="Renamed", entry_fee=Money(80, "CHF"), by=director)
    championship.refresh_from_db()
    assert championship.name == "Renamed"
    assert championship.entry_fee.amount == Decimal("80.00") and str(championship.entry_fee.currency) == "CHF"
    assert championship.level == "world"
    assert championship.history.first().history_user == director


def test_the_ruleset_changes_through_the_ruleset_service_before_the_start():
    championship = ChampionshipFactory()
    services.championship_update(
        championship=championship,
        ruleset={"roster": {"max_skaters": 12}},
        standings_preset="iihf",
        by=international_staff(),
        now=BEFORE_START,
    )
    championship.refresh_from_db()
    assert services.roster_limits(championship).max_skaters == 12
    assert championship.standings_preset == "iihf"


def test_the_ruleset_is_frozen_once_begun_and_nothing_else_is_saved_3_1_1_b():
    championship = ChampionshipFactory()
    GameFactory(championship=championship)
    with pytest.raises(ValidationError) as exc:
        services.championship_update(
            championship=championship,
            name="Renamed",
            ruleset={"roster": {"max_skaters": 12}},
            by=international_staff(),
            now=DURING,
        )
    assert "frozen once the championship has begun" in " ".join(exc.value.message_dict["ruleset"])
    championship.refresh_from_db()
    assert championship.ruleset == {} and championship.name != "Renamed"


def test_an_unchanged_ruleset_does_not_count_as_a_change_once_begun():
    championship = ChampionshipFactory(ruleset={"roster": {"max_skaters": 12}})
    GameFactory(championship=championship)
    services.championship_update(
        championship=championship,
        name="Renamed",
        ruleset={"roster": {"max_skaters": 12}},
        standings_preset=championship.standings_preset,
        by=international_staff(),
        now=DURING,
    )
    championship.refresh_from_db()
    assert championship.name == "Renamed"


def test_staff_may_not_hand_the_championship_to_a_body_they_do_not_direct():
    body = FederationFactory()
    championship = ChampionshipFactory(sanctioning_body=body)
    with pytest.raises(PermissionDenied):
        services.championship_update(
            championship=championship, sanctioning_body=FederationFactory(), by=federation_staff(body)
        )
    championship.refresh_from_db()
    assert championship.sanctioning_body == body


def test_staff_of_another_federation_may_not_change_the_championship():
    championship = ChampionshipFactory()
    with pytest.raises(PermissionDenied):
        services.championship_update(championship=championship, name="Renamed", by=federation_staff())
    championship.refresh_from_db()
    assert championship.name != "Renamed"


def test_dates_in_the_wrong_order_are_refused_on_update():
    championship = ChampionshipFactory()
    with pytest.raises(ValidationError):
        services.championship_update(
            championship=championship, end_date=datetime.date(2027, 6, 1), by=international_staff()
        )
    championship.refresh_from_db()
    assert championship.end_date == datetime.date(2027, 7, 10)


def test_it_refuses_a_field_that_is_not_part_of_the_set_up():
    championship = ChampionshipFactory()
    with pytest.raises(ValidationError) as exc:
        services.championship_update(championship=championship, id=999, by=international_staff())
    assert "id" in exc.value.message_dict


def test_money_refuses_a_code_that_names_no_currency():
    assert services.money("12.50", " eur ") == Money("12.50", "EUR")
    with pytest.raises(ValidationError) as exc:
        services.money("1", "ABC", field="entry_fee_currency")
    assert "ISO 4217" in " ".join(exc.value.message_dict["entry_fee_currency"])
