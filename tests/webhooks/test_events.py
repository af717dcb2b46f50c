"""Events → deliveries, per federation: each event goes to the endpoints of the federations it concerns that asked
for its type, once its transaction commits, and to no other federation (a third federation's receiver on loopback
hears nothing). The events are made by the apps' own services, as the pages and the API make them."""

from __future__ import annotations

import datetime
import json

import pytest
from djmoney.money import Money

from discipline import protests as protest_services
from discipline.models import Suspension
from federation import services as federation_services
from tests.discipline.protest_helpers import INCIDENT_AT, file_as_home, world
from tests.discipline.test_suspensions import make_final, receive
from tests.factories import (
    FederationFactory,
    GameFactory,
    PersonFactory,
    RosterEntryFactory,
    TeamEntryFactory,
    federation_staff,
    international_staff,
)
from webhooks import events, services
from webhooks.models import Delivery, DeliveryStatus, EventType
from webhooks.signing import verify

pytestmark = pytest.mark.django_db
HOUR = datetime.timedelta(hours=1)


def listen(federation, receiver, types=None):
    """``federation``'s staff register ``receiver`` for ``types`` (default: every event)."""
    return services.endpoint_create(
        by=federation_staff(federation),
        federation=federation,
        url=receiver.url,
        event_types=types or list(EventType.values),
    )


def told(endpoint, event_type=None) -> list[dict]:
    deliveries = Delivery.objects.filter(endpoint=endpoint).order_by("pk")
    if event_type:
        deliveries = deliveries.filter(event_type=event_type)
    return [delivery.payload for delivery in deliveries]


def received(receiver, endpoint) -> list[dict]:
    """The bodies the receiver got for ``endpoint``, each signature checked with the endpoint's secret."""
    bodies = []
    for request in receiver.requests:
        body = json.loads(request.body)
        if body["federation"] == endpoint.federation_id:
            verify(
                endpoint.secret,
                request.headers["X-Portal-Signature"],
                request.body,
                now=datetime.datetime.now().timestamp(),
            )
            bodies.append(body)
    return bodies


def test_a_game_final_goes_to_both_teams_federations_and_to_no_other(
    receiver, other_receiver, django_capture_on_commit_callbacks
):
    game = GameFactory()
    home, away = listen(game.home.federation, receiver), listen(game.away.federation, receiver)
    stranger = listen(FederationFactory(), other_receiver)
    with django_capture_on_commit_callbacks(execute=True):
        make_final(game, international_staff())
    for endpoint in (home, away):
        [payload] = told(endpoint, EventType.GAME_FINAL)
        assert payload["data"]["game"] == game.pk and payload["data"]["amended"] is False
        assert payload["data"]["home"]["id"] == game.home_id and payload["federation"] == endpoint.federation_id
        assert [body["type"] for body in received(receiver, endpoint)] == ["game.final"]
    assert told(stranger) == [] and other_receiver.requests == []
    # Both teams' deliveries are one event: one id.
    assert told(home)[0]["id"] == told(away)[0]["id"]
    assert set(Delivery.objects.values_list("status", flat=True)) == {DeliveryStatus.DELIVERED}


def test_an_endpoint_hears_only_the_types_it_asked_for(receiver, django_capture_on_commit_callbacks):
    game = GameFactory()
    endpoint = listen(game.home.federation, receiver, [EventType.PROTEST_FILED])
    with django_capture_on_commit_callbacks(execute=True):
        make_final(game, international_staff())
    assert told(endpoint) == [] and receiver.requests == []


def test_a_suspension_imposed_goes_to_the_persons_federation_only(
    receiver, other_receiver, django_capture_on_commit_callbacks
):
    game = GameFactory()
    player = RosterEntryFactory(entry=game.home, number="7").person
    director = international_staff()
    make_final(game, director)
    mine = listen(player.federation, receiver, [EventType.SUSPENSION_IMPOSED, EventType.SUSPENSION_ENDED])
    opponent = listen(game.away.federation, other_receiver)
    with django_capture_on_commit_callbacks(execute=True):
        receive(game, player)  # a major and its game misconduct: a provisional suspension (8.2 A)
    suspension = Suspension.objects.get()
    [payload] = told(mine, EventType.SUSPENSION_IMPOSED)
    assert payload["data"]["suspension"] == suspension.pk
    assert payload["data"]["person"]["id"] == player.pk
    assert (payload["data"]["article"], payload["data"]["games_required"]) == ("8.2 A", 1)
    assert told(opponent) == [] and other_receiver.requests == []
    # Told again in the same state and terms (the same notice twice): one event.
    with django_capture_on_commit_callbacks(execute=True):
        events.tell_suspension(suspension.pk)
    assert len(told(mine)) == 1


def test_a_protest_filed_and_decided_goes_to_the_games_two_federations_only(
    receiver, other_receiver, django_capture_on_commit_callbacks
):
    w = world()
    home, away = listen(w.game.home.federation, receiver), listen(w.game.away.federation, receiver)
    stranger = listen(FederationFactory(), other_receiver)
    with django_capture_on_commit_callbacks(execute=True):
        protest = file_as_home(w, "ruling", w.on_rink_protest, now=INCIDENT_AT + HOUR, statement="After the whistle.")
    protest_services.protest_record_fee(by=w.staff, protest=protest, amount=Money(200, "USD"), method="cash")
    protest_services.protest_start_review(by=w.committee, protest=protest, reason="Complete.")
    with django_capture_on_commit_callbacks(execute=True):
        protest_services.protest_reject(by=w.committee, protest=protest, reason="The goal stands (9.1 A).")
    for endpoint in (home, away):
        filed, decided = told(endpoint)
        assert (filed["type"], decided["type"]) == ("protest.filed", "protest.decided")
        assert filed["data"]["protest"] == decided["data"]["protest"] == protest.pk
        assert filed["data"]["entry"]["id"] == w.game.home_id
        assert (decided["data"]["status"], decided["data"]["decision_reason"]) == (
            "rejected", "The goal stands (9.1 A).",
        )  # fmt: skip
        assert "statement" not in filed["data"]  # the written protest stays on the portal
        assert len(received(receiver, endpoint)) == 2
    assert told(stranger) == [] and other_receiver.requests == []


def test_a_persons_eligibility_is_told_to_their_federation_when_it_changes(
    receiver, other_receiver, django_capture_on_commit_callbacks
):
    person = PersonFactory()
    mine = listen(person.federation, receiver, [EventType.ELIGIBILITY_CHANGED])
    stranger = listen(FederationFactory(), other_receiver)
    staff = federation_staff(person.federation)
    with django_capture_on_commit_callbacks(execute=True):
        passport = federation_services.passport_add(
            person=person,
            issuing_country=str(person.nationality),
            number="X1234567",
            expiry_date=datetime.date(2035, 1, 1),
            by=staff,
        )
    [first] = told(mine)
    assert first["data"]["person"]["id"] == person.pk
    assert first["data"]["eligibility"]["person"] == person.pk
    categories = {row["category"]: row for row in first["data"]["eligibility"]["assumed"]["categories"]}
    assert categories["senior_men"]["eligible"] is True
    # A fact written again without changing the answer, or a new name, tells nothing new.
    with django_capture_on_commit_callbacks(execute=True):
        events.tell_eligibility(person.pk)
        federation_services.person_update(person=person, by=staff, first_name="Renamed")
    assert len(told(mine)) == 1
    # 1.1 B: without a passport the person is no longer eligible: told.
    with django_capture_on_commit_callbacks(execute=True):
        federation_services.passport_remove(passport=passport, by=staff)
    first, second = told(mine)
    categories = {row["category"]: row for row in second["data"]["eligibility"]["assumed"]["categories"]}
    assert categories["senior_men"]["eligible"] is False
    assert "no_passport" in [reason["code"] for reason in categories["senior_men"]["reasons"]]
    assert len(received(receiver, mine)) == 2
    assert told(stranger) == [] and other_receiver.requests == []


def test_a_roster_frozen_is_told_once_to_the_entrys_federation_when_the_first_game_starts(
    receiver, other_receiver, django_capture_on_commit_callbacks
):
    entry = TeamEntryFactory()
    line = RosterEntryFactory(entry=entry, number="9")
    game = GameFactory(championship=entry.championship, home=entry)
    mine = listen(entry.federation, receiver, [EventType.ROSTER_FROZEN])
    opponent = listen(game.away.federation, other_receiver, [EventType.GAME_FINAL])
    with django_capture_on_commit_callbacks(execute=True):
        assert events.announce_frozen_rosters(now=game.start_at - HOUR) == 0  # 3.1.1 B: not begun yet
        assert events.announce_frozen_rosters(now=game.start_at + HOUR) == 1
        assert events.announce_frozen_rosters(now=game.start_at + 2 * HOUR) == 0  # once
    [payload] = told(mine)
    assert payload["data"]["entry"]["id"] == entry.pk
    assert [(row["person"], row["number"]) for row in payload["data"]["roster"]] == [(line.person_id, "9")]
    assert len(received(receiver, mine)) == 1
    assert told(opponent) == [] and other_receiver.requests == []


def test_a_change_rolled_back_tells_nobody(receiver, django_capture_on_commit_callbacks):
    game = GameFactory()
    endpoint = listen(game.home.federation, receiver)
    with django_capture_on_commit_callbacks(execute=False):
        make_final(game, international_staff())
    assert told(endpoint) == [] and receiver.requests == []
