"""Who enters at the officials' table (4.3-4.5): devices sign in as duties; a take-over is explicit and logged."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied

from accounts.models import Role
from games import services
from games.devices import DeviceTakenOver, DutyHeld, console_sign_in
from games.models import ConsoleSignIn, OfficialAccount, SheetEvent
from games.sheet import record_events
from tests.factories import PersonFactory, client_for, with_role

from .sheet_helpers import DEVICE_TIME, devices_url, entry, events_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(a_sheet_game):
    return a_sheet_game


def _official(game, director, duty):
    person = PersonFactory(is_official=True, is_referee=True)
    services.official_assign(
        game=game, person=person, duty=duty, by=director, now=DEVICE_TIME - datetime.timedelta(days=30)
    )
    login = with_role(Role.GAME_OFFICIAL)
    OfficialAccount.objects.create(person=person, user=login)
    return login


def _enter(client, game, device, events):
    return client.post(events_url(game), {"device": device, "events": events}, format="json")


def test_a_device_that_never_signed_in_enters_nothing(game, director):
    answer = _enter(client_for(director), game, "tablet-a", [entry("period_start", period=1)])
    assert answer.status_code == 403
    assert "4.3-4.5" in answer.json()["detail"] and "signed in" in answer.json()["detail"]
    assert not SheetEvent.objects.exists()
    with pytest.raises(PermissionDenied, match="4.3-4.5"):
        record_events(game=game, by=director, device="tablet-a", events=[entry("period_start", period=1)])


def test_a_signed_in_device_enters_and_signing_in_again_changes_nothing(game, director):
    client = client_for(director)
    first = client.post(devices_url(game), {"device": "tablet-a", "duties": ["timekeeper", "scorer"]}, format="json")
    assert first.status_code == 201
    assert [row["duty"] for row in first.json()] == ["scorer", "timekeeper"]
    again = client.post(devices_url(game), {"device": "tablet-a", "duties": ["scorer"]}, format="json")
    assert again.status_code == 201
    assert ConsoleSignIn.objects.filter(game=game).count() == 2
    assert _enter(client, game, "tablet-a", [entry("period_start", period=1)]).status_code == 200


def test_a_duty_another_device_keeps_is_a_409_naming_it_until_taken_over(game, director):
    client = client_for(director)
    console_sign_in(game=game, by=director, device="tablet-a", duties=["scorer", "timekeeper"])
    start = entry("period_start", period=1)
    assert _enter(client, game, "tablet-a", [start]).status_code == 200

    refused = client.post(devices_url(game), {"device": "tablet-b", "duties": ["scorer"]}, format="json")
    assert refused.status_code == 409
    assert "tablet-a" in refused.json()["detail"] and "4.3-4.5" in refused.json()["detail"]
    assert refused.json()["held_by"][0]["device"] == "tablet-a"

    body = {"device": "tablet-b", "duties": ["scorer", "timekeeper"], "take_over": True}
    assert client.post(devices_url(game), body, format="json").status_code == 201
    # The old device's next entry is refused, naming the device that took over; nothing is stored.
    late = _enter(client, game, "tablet-a", [entry("shot", period=1, time="0:10", team="home")])
    assert late.status_code == 409
    assert "tablet-b" in late.json()["detail"] and "rescue export" in late.json()["detail"]
    assert SheetEvent.objects.count() == 1
    # ... but a resend of what it had stored is still acknowledged: its outbox drains.
    resend = _enter(client, game, "tablet-a", [start])
    assert resend.status_code == 200 and resend.json()["acknowledged"][0]["duplicate"] is True
    assert _enter(client, game, "tablet-b", [entry("shot", period=1, time="0:10", team="home")]).status_code == 200


def test_the_take_over_is_logged_in_the_sign_ins(game, director):
    console_sign_in(game=game, by=director, device="tablet-a", duties=["penalty_timekeeper"])
    with pytest.raises(DutyHeld):
        console_sign_in(game=game, by=director, device="tablet-b", duties=["penalty_timekeeper"])
    console_sign_in(game=game, by=director, device="tablet-b", duties=["penalty_timekeeper"], take_over=True)
    log = client_for(director).get(devices_url(game)).json()
    assert [(row["device"], row["ended_at"] is None) for row in log] == [("tablet-a", False), ("tablet-b", True)]
    assert log[0]["taken_over_by"] == log[1]["id"]
    with pytest.raises(DeviceTakenOver, match="tablet-b"):
        record_events(game=game, by=director, device="tablet-a", events=[entry("period_start", period=1)])


def test_an_official_signs_in_only_as_the_duty_assigned_to_him(game, director):
    timekeeper = _official(game, director, "timekeeper")
    client = client_for(timekeeper)
    assert client.post(devices_url(game), {"device": "t", "duties": ["scorer"]}, format="json").status_code == 403
    assert client.post(devices_url(game), {"device": "t", "duties": ["timekeeper"]}, format="json").status_code == 201
    assert _enter(client, game, "t", [entry("period_start", period=1)]).status_code == 200
    referee = _official(game, director, "referee")
    assert (
        client_for(referee)
        .post(devices_url(game), {"device": "r", "duties": ["timekeeper"]}, format="json")
        .status_code
        == 403
    )


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"device": "t", "duties": []}, "duties"),
        ({"device": "t", "duties": ["referee"]}, "duties"),
        ({"device": "", "duties": ["scorer"]}, "device"),
        ({"device": "t", "duties": ["scorer"], "colour": "red"}, "colour"),
    ],
)
def test_a_bad_sign_in_is_a_400_naming_the_field_and_stores_nothing(game, director, body, field):
    answer = client_for(director).post(devices_url(game), body, format="json")
    assert answer.status_code == 400
    assert field in answer.json()
    assert not ConsoleSignIn.objects.exists()


def test_the_service_checks_duties_and_names_the_rule(game, director):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match="4.3-4.5"):
        console_sign_in(game=game, by=director, device="t", duties=["goal_judge"])
    with pytest.raises(PermissionDenied, match="4.3-4.5"):
        console_sign_in(game=game, by=with_role(Role.TEAM_MANAGER), device="t", duties=["scorer"])
