"""The live sheet's service and API: entries stored once, replayed by the engine, refused naming the rule."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Role
from games import engine
from games.models import GameSheet, SheetEvent, SheetSnapshot, SheetStatus
from games.sheet import record_events, sheet_state
from tests.factories import FederationFactory, client_for, federation_staff, with_role
from tournaments.models import GameStatus

from .sheet_helpers import DEVICE_TIME, entry, events_url, sheet_game, sheet_url, sign_in_through_api

pytestmark = pytest.mark.django_db


# The reason a console shows: the rule's words, without the event's id (which the refusal names apart).
STOPPAGE_ONLY = "Rule 5.5.2 A: a time-out is called at a stoppage of play"


@pytest.fixture
def game(a_sheet_game):
    return a_sheet_game


def post(client, game, events, device="table-1"):
    """Enter a batch as a console does: its device signed in first (games.devices)."""
    if hasattr(game, "championship"):
        sign_in_through_api(client, game, device)
    return client.post(events_url(game), {"device": device, "events": events}, format="json")


def opening(**clock):
    return [entry("period_start", period=1)]


def stored_ids(game) -> list[str]:
    return [str(i) for i in SheetEvent.objects.filter(sheet__game=game).values_list("event_id", flat=True)]


def test_a_resend_is_acknowledged_as_a_duplicate_and_stored_once(game, director):
    client = client_for(director)
    batch = [entry("period_start", period=1), entry("shot", period=1, time="1:00", team="home")]
    first = post(client, game, batch)
    assert first.status_code == 200, first.content
    assert [a["duplicate"] for a in first.json()["acknowledged"]] == [False, False]
    again = post(client, game, batch)
    assert again.status_code == 200
    body = again.json()
    assert [a["duplicate"] for a in body["acknowledged"]] == [True, True]
    assert [a["sequence"] for a in body["acknowledged"]] == [1, 2]
    assert body["sequence"] == 2
    assert sorted(stored_ids(game)) == sorted(e["id"] for e in batch)
    assert body["state"]["teams"]["home"]["shots"] == 1


def test_a_resend_mixed_with_new_entries_stores_only_the_new_ones(game, director):
    client = client_for(director)
    start = entry("period_start", period=1)
    post(client, game, [start])
    shot = entry("shot", period=1, time="0:30", team="away")
    answer = post(client, game, [start, shot, shot]).json()
    assert [(a["sequence"], a["duplicate"]) for a in answer["acknowledged"]] == [(1, True), (2, False), (2, True)]
    assert SheetEvent.objects.filter(sheet__game=game).count() == 2


def test_other_content_under_a_stored_id_is_refused(game, director):
    client = client_for(director)
    start = entry("period_start", period=1)
    shot = entry("shot", period=1, time="0:30", team="away")
    post(client, game, [start, shot])
    changed = {**shot, "team": "home"}
    response = post(client, game, [changed])
    assert response.status_code == 400
    assert "R-10" in response.json()["events"][0] and shot["id"] in response.json()["events"][0]
    assert SheetEvent.objects.get(event_id=shot["id"]).payload["team"] == "away"


def test_a_null_device_time_is_refused_citing_r_10_and_a_null_clock_offset_is_taken(game, director):
    """Issue 29: what the schema says of the envelope (games.sheet_api.SHEET_ENTRY_SCHEMA)."""
    client = client_for(director)
    start = entry("period_start", period=1)
    for device_time in (None, "2026-12-07T18:30:00"):  # null; no UTC offset
        response = post(client, game, [{**start, "device_time": device_time}])
        assert response.status_code == 400
        assert response.json()["events"] == [
            f"R-10: events[0] ({start['id']}): device_time is an ISO 8601 time with its UTC offset."
        ]
    assert not stored_ids(game)
    unknown_offset = entry("period_start", period=1, offset_ms=None)
    response = post(client, game, [unknown_offset])
    assert response.status_code == 200, response.content
    assert SheetEvent.objects.get(event_id=unknown_offset["id"]).clock_offset_ms is None


def test_an_event_the_engine_refuses_stores_nothing_and_names_the_rule_and_the_event(game, director):
    client = client_for(director)
    post(client, game, [entry("period_start", period=1)])
    fine = entry("shot", period=1, time="1:00", team="home")
    timeout = entry("timeout", period=1, time="1:10", team="home")  # the clock runs: 5.5.2 A
    response = post(client, game, [fine, timeout])
    assert response.status_code == 400
    body = response.json()
    assert body["refused"] == {
        "event_id": timeout["id"],
        "rule": "5.5.2 A",
        "field": "time",
        "stored": False,
        "message": STOPPAGE_ONLY,
    }
    assert "Rule 5.5.2 A" in body["events"][0] and timeout["id"] in body["events"][0]
    assert SheetEvent.objects.filter(sheet__game=game).count() == 1
    assert GameSheet.objects.get(game=game).sequence == 1
    assert client.get(sheet_url(game)).json()["state"]["teams"]["home"]["shots"] == 0


def test_a_late_entry_that_breaks_a_stored_one_is_refused_naming_the_stored_event(game, director):
    client = client_for(director)
    stop = entry("clock_stop", period=1, time="5:00")
    timeout = entry("timeout", period=1, time="5:00", team="home")
    post(client, game, [entry("period_start", period=1), stop, timeout])
    # Another device voids the stoppage: the time-out would then be called while the clock runs (5.5.2 A).
    response = post(client, game, [entry("correction", voids=stop["id"])], device="table-2")
    assert response.status_code == 400
    assert response.json()["refused"] == {
        "event_id": timeout["id"],
        "rule": "5.5.2 A",
        "field": "time",
        "stored": True,
        "message": STOPPAGE_ONLY,
    }
    assert SheetEvent.objects.filter(sheet__game=game).count() == 3


def test_a_first_batch_the_engine_refuses_opens_no_sheet(game, director):
    response = post(client_for(director), game, [entry("goal", period=1, time="1:00", team="home", player=8)])
    assert response.status_code == 400
    assert response.json()["refused"]["rule"] == "R-11"
    assert not GameSheet.objects.filter(game=game).exists()


def test_two_devices_entering_out_of_order_merge_in_game_time_order(director):
    """The timekeeper's device and the scorer's send in turn, the scorer's late: the state is the same as
    one device entering the whole game in game-time order (the engine replays in (period, time, stored) order)."""
    start = entry("period_start", period=1)
    stop_1 = entry("clock_stop", period=1, time="1:30")
    start_1 = entry("clock_start", period=1, time="1:30")
    shot_1 = entry("shot", period=1, time="1:00", team="away", player=18)
    shot_2 = entry("shot", period=1, time="2:00", team="home", player=10)
    goal = entry("goal", period=1, time="3:00", team="away", player=19)
    start_3 = entry("clock_start", period=1, time="3:00")
    stop_4 = entry("clock_stop", period=1, time="4:00")
    penalty = entry("penalty", period=1, time="4:00", team="away", player=14, penalty="minor", infraction="hooking")
    start_4 = entry("clock_start", period=1, time="4:00")
    shot_3 = entry("shot", period=1, time="3:30", team="home", player=8)
    pp_goal = entry("goal", period=1, time="5:00", team="home", player=8, assist=9)
    sends = [
        ("timekeeper", [start, stop_1, start_1]),
        ("scorer", [shot_1, shot_2]),  # late: 1:00 is before the stoppage stored at 1:30
        ("scorer", [goal]),
        ("timekeeper", [start_3, stop_4, penalty, start_4]),
        ("scorer", [pp_goal, shot_3]),  # the shot at 3:30 comes last, between stored events
    ]
    merged_game, single_game = sheet_game(), sheet_game()
    client = client_for(director)
    for device, batch in sends:
        answer = post(client, merged_game, batch, device=device)
        assert answer.status_code == 200, answer.content
    merged = answer.json()
    in_order = [start, shot_1, stop_1, start_1, shot_2, goal, start_3, shot_3, stop_4, penalty, start_4, pp_goal]
    single = post(client, single_game, in_order, device="one").json()

    assert merged["state"]["score"] == {"home": 1, "away": 1}
    assert merged["state"]["goals"][1]["strength"] == "power_play"  # 14's minor from 4:00 still runs at 5:00
    assert merged["state"]["box"] == {"home": [], "away": []}  # 6.2.1 B: the power-play goal ended the minor
    for key in ("score", "goals", "penalties", "players", "teams", "box", "strength"):
        merged_part = merged["state"][key]
        single_part = single["state"][key]
        if key == "teams":
            for side in ("home", "away"):
                merged_part[side].pop("name"), single_part[side].pop("name")
        assert merged_part == single_part, key


def test_a_correction_voids_an_entry_that_stays_in_the_log(game, director):
    client = client_for(director)
    goal = entry("goal", period=1, time="1:00", team="home", player=8)
    post(client, game, [entry("period_start", period=1), goal])
    undo = entry("correction", voids=goal["id"].upper())  # the canonical id, however it is written
    answer = post(client, game, [undo]).json()
    assert answer["state"]["score"] == {"home": 0, "away": 0}
    log = client.get(events_url(game)).json()
    assert [line["event"]["type"] for line in log] == ["period_start", "goal", "correction"]
    assert log[1]["voided_by"] == undo["id"] and log[2]["voided_by"] is None
    assert log[2]["event"]["voids"] == goal["id"]
    assert log[1]["entered_by"] == director.username and log[1]["device"] == "table-1"
    assert client.get(events_url(game) + "?after=2").json()[0]["id"] == undo["id"]


def test_a_final_sheet_takes_no_new_entry_but_acknowledges_a_resend(game, director):
    client = client_for(director)
    batch = opening()
    post(client, game, batch)
    GameSheet.objects.filter(game=game).update(status=SheetStatus.FINAL)
    assert post(client, game, batch).status_code == 200
    refused = post(client, game, [entry("shot", period=1, time="1:00", team="home")])
    assert refused.status_code == 400 and "4.2 O" in refused.json()["events"][0]


def test_a_game_whose_result_is_recorded_takes_no_entry(director):
    game = sheet_game(status=GameStatus.FINAL, home_goals=1, away_goals=0)
    response = post(client_for(director), game, opening())
    assert response.status_code == 400 and "4.2 O / 4.3" in response.json()["events"][0]


@pytest.mark.parametrize(
    "bad, says",
    [
        ({"type": "period_start", "period": 1, "device_time": DEVICE_TIME.isoformat()}, "needs its id"),
        ({"id": "not-a-uuid", "type": "period_start", "period": 1, "device_time": "2027-07-01T08:00:00Z"}, "UUID"),
        ({**entry("period_start", period=1), "seq": 4}, "the server gives the sequence"),
        ({**entry("period_start", period=1), "device_time": "2027-07-01T08:00:00"}, "UTC offset"),
        ({**entry("period_start", period=1), "clock_offset_ms": "12"}, "whole milliseconds"),
        ("period_start", "dictionary"),  # the request's shape: the serializer
    ],
)
def test_a_malformed_entry_is_refused_naming_it_and_nothing_is_stored(game, director, bad, says):
    response = post(client_for(director), game, [bad])
    assert response.status_code == 400
    assert says in str(response.json()["events"])
    assert not SheetEvent.objects.exists()


def test_an_unknown_event_field_is_refused_by_the_engine_with_its_rule(game, director):
    response = post(client_for(director), game, [entry("period_start", period=1, colour="red")])
    assert response.status_code == 400
    assert response.json()["refused"]["rule"] == "R-10" and response.json()["refused"]["field"] == "colour"


def test_the_state_before_the_first_entry_is_the_not_started_game(game):
    body = client_for(None).get(sheet_url(game)).json()
    assert body["status"] == "not_opened" and body["sequence"] == 0
    assert body["state"]["status"] == "not_started" and body["clock"]["anchor"] is None
    assert body["state"]["teams"]["home"]["name"] == game.home.name


def test_a_resume_reads_the_state_the_log_replays_to_with_the_clock_anchor(game, director):
    client = client_for(director)
    batch = [
        entry("period_start", period=1, seconds=0),
        entry("clock_stop", period=1, time="2:00", seconds=120),
        entry("clock_start", period=1, time="2:00", seconds=150, offset_ms=1500),
    ]
    post(client, game, batch)
    body = client_for(None).get(sheet_url(game)).json()
    assert body["status"] == "open" and body["sequence"] == 3
    assert body["clock"]["running"] is True and body["clock"]["elapsed_tenths"] == 1200
    # The device's clock was 1.5 s ahead: the clock restarted at 08:02:30 device time, 08:02:28.5 server time.
    anchor = datetime.datetime.fromisoformat(body["clock"]["anchor"])
    assert anchor == DEVICE_TIME + datetime.timedelta(seconds=148.5)
    replayed = engine.replay(
        engine.parse_log([{k: v for k, v in e.items() if k not in ("device_time", "clock_offset_ms")} for e in batch]),
        engine.Game(*_rosters()),
    ).to_dict()
    assert body["state"]["elapsed"] == replayed["elapsed"] and body["state"]["running"] == replayed["running"]
    assert body["state"]["box"] == replayed["box"] and body["state"]["score"] == replayed["score"]


def _rosters():
    from tests.engine.generators import AWAY, HOME

    return HOME, AWAY


def test_each_period_keeps_its_snapshot_and_the_latest_is_the_state(game, director):
    client = client_for(director)
    post(client, game, [entry("period_start", period=1), entry("period_end", period=1, time="20:00")])
    post(client, game, [entry("period_start", period=2), entry("shot", period=2, time="1:00", team="home")])
    sheet = GameSheet.objects.get(game=game)
    periods = {s.period: (s.sequence, s.state["state"]["status"]) for s in sheet.snapshots.all()}
    assert periods == {1: (2, "intermission"), 2: (4, "in_progress")}
    assert sheet_state(game).state["teams"]["home"]["shots"] == 1


# --- who may ------------------------------------------------------------------------------------------------------


def test_only_the_staff_who_direct_the_championship_enter_events(game):
    other_staff = federation_staff(FederationFactory())
    official = with_role(Role.GAME_OFFICIAL)
    assert post(client_for(None), game, opening()).status_code == 403
    assert post(client_for(other_staff), game, opening()).status_code == 403
    assert post(client_for(official), game, opening()).status_code == 403
    assert client_for(other_staff).get(events_url(game)).status_code == 403
    assert not SheetEvent.objects.exists()
    sanctioning_staff = federation_staff(game.championship.sanctioning_body)
    assert post(client_for(sanctioning_staff), game, opening()).status_code == 200


def test_the_service_checks_access_itself(game):
    with pytest.raises(PermissionDenied):
        record_events(game=game, by=with_role(Role.GAME_OFFICIAL), device="x", events=opening())
    assert not GameSheet.objects.exists()


def test_an_unknown_game_is_a_404(director):
    client = client_for(director)
    assert client.get("/api/games/999999/sheet/").status_code == 404
    assert client.get("/api/games/999999/sheet/events/").status_code == 404
    assert post(client, type("G", (), {"pk": 999999})(), opening()).status_code == 404


# --- reads cost the same however long the log -------------------------------------------------------------------


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_reading_the_state_and_the_log_costs_the_same_queries_as_the_log_grows(game, director):
    client = client_for(director)
    post(client, game, opening())
    short = _queries(client, sheet_url(game)), _queries(client, events_url(game))
    shots = [entry("shot", period=1, time=10 * n, team="home" if n % 2 else "away") for n in range(1, 120)]
    post(client, game, shots)
    long = _queries(client, sheet_url(game)), _queries(client, events_url(game))
    assert long == short
    assert len(client.get(events_url(game)).json()) == 120


@pytest.mark.django_db(transaction=True)
def test_the_next_entry_replays_the_log_kept_from_the_last_one_and_rereads_a_stale_one(director):
    from games.sheet import PARSED_LOGS

    game = sheet_game()
    client = client_for(director)
    post(client, game, [entry("period_start", period=1), entry("shot", period=1, time="0:10", team="home")])
    sheet = GameSheet.objects.get(game=game)
    kept = PARSED_LOGS.logs[sheet.pk, sheet.log_key]
    assert kept.sequence == 2 and [e.type for e in kept.events] == ["period_start", "shot"]
    # Another process entered since: the kept log is behind the sheet's sequence and is read again.
    other = entry("shot", period=1, time="0:20", team="away")
    SheetEvent.objects.create(
        sheet=sheet,
        event_id=other["id"],
        sequence=3,
        payload={k: v for k, v in other.items() if k not in ("id", "device_time", "clock_offset_ms")},
        entered_by=director,
        device="elsewhere",
        received_at=DEVICE_TIME,
        device_time=DEVICE_TIME,
    )
    GameSheet.objects.filter(pk=sheet.pk).update(sequence=3)
    answer = post(client, game, [entry("shot", period=1, time="0:30", team="away")]).json()
    assert answer["sequence"] == 4 and answer["state"]["teams"]["away"]["shots"] == 2
    assert PARSED_LOGS.logs[sheet.pk, sheet.log_key].sequence == 4


def _stored(sheet, director, made, sequence):
    """Store an entry as another process would (not through this process's ``record_events``)."""
    SheetEvent.objects.create(
        sheet=sheet,
        event_id=made["id"],
        sequence=sequence,
        payload={k: v for k, v in made.items() if k not in ("id", "device_time", "clock_offset_ms")},
        entered_by=director,
        device="elsewhere",
        received_at=DEVICE_TIME,
        device_time=DEVICE_TIME,
    )


@pytest.mark.django_db(transaction=True)
def test_a_new_sheet_given_a_gone_sheets_id_replays_its_own_log_not_the_one_kept_for_that_id(director):
    """SQLite gives the id of a rolled-back or deleted row to the next row: the log kept for a sheet is its by
    id and ``log_key``, so a new sheet under a gone sheet's id, at the same sequence, reads its own rows."""
    from games.sheet import PARSED_LOGS, engine_game_type, engine_teams

    first = sheet_game()
    client = client_for(director)
    post(client, first, [entry("period_start", period=1), entry("shot", period=1, time="0:10", team="home")])
    gone = GameSheet.objects.get(game=first)
    assert PARSED_LOGS.get(gone) is PARSED_LOGS.logs[gone.pk, gone.log_key]  # kept at sequence 2
    gone_id = gone.pk
    SheetSnapshot.objects.filter(sheet=gone).delete()
    SheetEvent.objects.filter(sheet=gone).delete()
    gone.delete()

    second = sheet_game()
    sheet = GameSheet.objects.create(
        pk=gone_id, game=second, sequence=2, teams=engine_teams(second), game_type=engine_game_type(second),
        ruleset=gone.ruleset, opened_at=DEVICE_TIME, opened_by=director,
    )  # fmt: skip
    _stored(sheet, director, entry("period_start", period=1), 1)
    _stored(sheet, director, entry("shot", period=1, time="0:20", team="away"), 2)
    answer = post(client, second, [entry("shot", period=1, time="0:30", team="away")]).json()
    assert answer["sequence"] == 3
    shots = {side: team["shots"] for side, team in answer["state"]["teams"].items()}
    assert shots == {"home": 0, "away": 2}  # not the gone sheet's home shot


@pytest.mark.parametrize(
    ("duty", "enters"),
    [("timekeeper", True), ("penalty_timekeeper", True), ("scorer", True), ("referee", False), ("goal_judge", False)],
)
def test_the_games_table_officials_enter_its_events_and_no_other_official(game, director, duty, enters):
    """4.3-4.5: the scorer, the timekeeper and the penalty timekeeper keep the sheet; referees and goal judges
    (4.2, 4.6) and officials of other games do not."""
    from games import services
    from games.models import OfficialAccount
    from tests.factories import PersonFactory

    person = PersonFactory(is_official=True, is_referee=True)
    services.official_assign(
        game=game, person=person, duty=duty, by=director, now=DEVICE_TIME - datetime.timedelta(days=30)
    )
    login = with_role(Role.GAME_OFFICIAL)
    OfficialAccount.objects.create(person=person, user=login)
    other_game = sheet_game(championship=game.championship)
    assert post(client_for(login), other_game, opening()).status_code == 403
    answer = post(client_for(login), game, opening())
    assert answer.status_code == (200 if enters else 403)
    assert SheetEvent.objects.filter(sheet__game=game).exists() is enters
    # The log is read by those who enter it and by the referees, who check the report they sign (4.2 O).
    assert (client_for(login).get(events_url(game)).status_code == 200) is (enters or duty == "referee")


@pytest.mark.parametrize(
    ("language", "words", "event"),
    [("fr", "R-11 : goal en période 1, mais", "(événement"), ("es", "R-11: goal en el periodo 1, pero", "(evento")],
)
def test_a_refused_entry_is_said_in_the_readers_language(game, director, language, words, event):
    """The console shows the engine's reason as the API gives it: in the language the console asks for (issue 26)."""
    client = client_for(director)
    sign_in_through_api(client, game, "table-1")
    goal = entry("goal", period=1, time="1:00", team="home", player=8)
    response = client.post(
        events_url(game), {"device": "table-1", "events": [goal]}, format="json", HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 400
    body = response.json()
    assert body["refused"]["rule"] == "R-11"
    assert body["refused"]["message"].startswith(words)
    assert words in body["events"][0] and f"{event} {goal['id']})" in body["events"][0]
