"""Games played under protest (9.1 B, R-51) and the captains' on-rink protests on the sheet (9.1 A, R-50)."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from games import services
from games.models import GameProtestMark, OfficialAccount
from games.selectors import on_rink_protests, protest_marks
from games.sheet import record_events
from tests.factories import ChampionshipFactory, GameFactory, PersonFactory, client_for, with_role

from .conftest import AFTER, BEFORE
from .sheet_helpers import entry, sheet_game, sheet_url, sign_in

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def official(game, director, *, position=1):
    """A referee of the game (the first assigned is the lead, 4.2 C) with his login."""
    person = PersonFactory(is_referee=True)
    services.official_assign(game=game, person=person, duty="referee", by=director, position=position, now=BEFORE)
    login = with_role(Role.GAME_OFFICIAL)
    OfficialAccount.objects.create(person=person, user=login)
    return login


def mark(game, *, by, subject="rink", entry=None, now=BEFORE, **kwargs):
    return services.protest_mark_record(game=game, entry=entry or game.home, subject=subject, by=by, now=now, **kwargs)


def test_the_lead_referee_records_a_protest_made_before_the_start_9_1_b(game, director):
    lead = official(game, director)
    recorded = mark(game, by=lead, subject="equipment", details="Away goalkeeper's pads")
    assert (recorded.entry, recorded.subject, recorded.made_at, recorded.recorded_by) == (
        game.home,
        "equipment",
        BEFORE,
        lead,
    )
    assert protest_marks(game) == [recorded]
    assert recorded.history.first().history_user == lead


def test_the_second_referee_and_a_team_manager_may_not_record_it(game, director, manager):
    official(game, director)
    second = official(game, director, position=2)
    for user in (second, manager):
        with pytest.raises(PermissionDenied, match="9.1 B"):
            mark(game, by=user)
    assert not GameProtestMark.objects.exists()


def test_the_directors_record_it_on_the_referees_word(game, director):
    assert mark(game, by=director, subject="players").subject == "players"


@pytest.mark.parametrize(("minutes", "ok"), [(-1, True), (0, False)])
def test_a_protest_at_or_after_the_start_is_refused_9_1_b(game, director, minutes, ok):
    at = game.start_at + datetime.timedelta(minutes=minutes)
    if ok:
        mark(game, by=director, now=at)
        return
    with pytest.raises(ValidationError) as exc:
        mark(game, by=director, now=at)
    message = exc.value.message_dict["game"][0]
    assert message.startswith("Rule 9.1 B / R-51") and "9.1 A" in message
    assert not GameProtestMark.objects.exists()


def test_once_the_sheet_is_open_the_game_has_started(director):
    game = sheet_game()
    sign_in(game, director)
    record_events(game=game, by=director, device="table-1", events=[entry("period_start", period=1)])
    with pytest.raises(ValidationError) as exc:
        mark(game, by=director)
    assert "9.1 B" in exc.value.message_dict["game"][0]


def test_the_protesting_team_plays_the_game_and_protests_a_subject_once(game, director):
    stranger = GameFactory(championship=game.championship).home
    with pytest.raises(ValidationError) as exc:
        mark(game, by=director, entry=stranger)
    assert "Rule 9.1 B" in exc.value.message_dict["entry"][0]
    with pytest.raises(ValidationError) as exc:
        mark(game, by=director, subject="referee")
    assert "R-51" in exc.value.message_dict["subject"][0]
    mark(game, by=director, subject="rink")
    mark(game, by=director, subject="rink", entry=game.away)  # the other team may protest the same
    with pytest.raises(ValidationError) as exc:
        mark(game, by=director, subject="rink")
    assert "already protested" in exc.value.message_dict["subject"][0]
    assert GameProtestMark.objects.count() == 2


def test_the_api_records_it_and_the_sheet_shows_the_game_under_protest(game, director):
    lead = official(game, director)
    body = {"game": game.pk, "entry": game.away_id, "subject": "players", "details": "No. 7 is not eligible"}
    created = client_for(lead).post("/api/protest-marks/", body, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["subject_label"] == "Unqualified players" and created.json()["entry_name"] == game.away.name
    state = client_for(None).get(sheet_url(game)).json()
    assert [(m["entry"], m["subject"]) for m in state["under_protest"]] == [(game.away_id, "players")]
    assert state["state"]["protests"] == []
    listed = client_for(None).get("/api/protest-marks/", {"game": game.pk}).json()
    assert [m["id"] for m in listed["results"]] == [created.json()["id"]]


@pytest.mark.parametrize(
    ("change", "field", "says"),
    [
        ({"subject": "referee"}, "subject", "R-51"),
        ({"entry": 999999}, "entry", "No team entry"),
        ({"details": "x" * 301}, "details", "300"),
    ],
)
def test_bad_input_is_a_400_naming_the_field_and_nothing_is_stored(game, director, change, field, says):
    body = {"game": game.pk, "entry": game.home_id, "subject": "rink", **change}
    response = client_for(director).post("/api/protest-marks/", body, format="json")
    assert response.status_code == 400
    assert says in " ".join(response.json()[field])
    assert not GameProtestMark.objects.exists()


def test_the_api_refuses_a_protest_after_the_start_with_a_400_naming_game(director):
    past = ChampionshipFactory(
        start_date=datetime.date(2026, 7, 1),
        end_date=datetime.date(2026, 7, 10),
        entry_closing_date=datetime.date(2026, 5, 1),
    )
    played = GameFactory(championship=past)
    body = {"game": played.pk, "entry": played.home_id, "subject": "rink"}
    response = client_for(director).post("/api/protest-marks/", body, format="json")
    assert response.status_code == 400 and "Rule 9.1 B / R-51" in response.json()["game"][0]


def test_my_games_and_the_game_page_show_the_game_under_protest(game, director):
    lead = official(game, director)
    mark(game, by=lead, subject="rink", details="Wet floor")
    page = logged_in(lead).get(reverse("games:my-games")).content.decode()
    assert (
        "Played under protest (9.1 B)" in page
        and "bad condition of the rink (" in page
        and ">Wet floor</span>)" in page
    )
    staff_page = logged_in(director).get(reverse("tournaments:game-manage", args=[game.pk])).content.decode()
    assert "Played under protest (9.1 B)" in staff_page


def test_the_admin_records_it_through_the_service_and_refuses_after_the_start(director):
    past = ChampionshipFactory(
        start_date=datetime.date(2026, 7, 1),
        end_date=datetime.date(2026, 7, 10),
        entry_closing_date=datetime.date(2026, 5, 1),
    )
    played = GameFactory(championship=past)
    client = logged_in(director)
    url = reverse("admin:games_gameprotestmark_add")
    refused = client.post(url, {"game": played.pk, "entry": played.home_id, "subject": "rink", "details": ""})
    assert refused.status_code == 200 and "Rule 9.1 B / R-51" in refused.content.decode()
    upcoming = GameFactory()
    saved = client.post(url, {"game": upcoming.pk, "entry": upcoming.home_id, "subject": "rink", "details": ""})
    assert saved.status_code == 302
    assert GameProtestMark.objects.get().game == upcoming


def test_the_captains_on_rink_protests_are_read_from_the_sheet_9_1_a(director):
    game = sheet_game()
    sign_in(game, director)
    protest = entry("protest", period=1, time="3:00", team="away", seconds=180)
    events = [entry("period_start", period=1), entry("clock_stop", period=1, time="3:00"), protest]
    record_events(game=game, by=director, device="table-1", events=events, now=AFTER)
    assert on_rink_protests(sheet_game()) == []
    [read] = on_rink_protests(game)
    assert (read.event_id, read.team, read.entry, read.period, read.time) == (
        protest["id"],
        "away",
        game.away,
        1,
        "3:00",
    )
    assert read.recorded_at == AFTER
    assert client_for(None).get(sheet_url(game)).json()["state"]["protests"][0]["id"] == protest["id"]
