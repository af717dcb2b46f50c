"""Bench staff in the game log: penalties to a manager, coach or trainer (6.4.28 B, 8.2 C)."""

import pytest

from games.engine import Game, InvalidEvent, ScriptError, TeamRoster, parse_log, replay
from games.engine.scripts import parse_script

from .helpers import AWAY, ev

HOME = TeamRoster("Italy", frozenset(range(2, 12)), frozenset({1, 30}), captain=9, staff=frozenset({"coach"}))


def run(entries):
    return replay(parse_log(entries), Game(home=HOME, away=AWAY))


def test_a_staff_member_sent_off_takes_no_further_penalty_8_2_c():
    entries = [
        ev("period_start", 1),
        ev("clock_stop", 1, "8:00"),
        ev("penalty", 1, "8:00", team="home", staff="coach", penalty="game_misconduct", article="8.2 C"),
        ev("clock_start", 1, "8:00"),
        ev("clock_stop", 1, "9:00"),
    ]
    state = run(entries)
    assert state.to_dict()["teams"]["home"]["staff"] == {"coach": {"minutes": 10, "out_of_game_by": "8.2 C"}}
    again = ev("penalty", 1, "9:00", team="home", staff="coach", penalty="bench_minor", id="again")
    with pytest.raises(InvalidEvent, match=r"8\.2 C") as info:
        run([*entries, again])
    assert (info.value.field, info.value.event_id) == ("staff", "again")


def test_a_penalty_to_someone_not_on_the_bench_staff_is_refused():
    entries = [ev("period_start", 1), ev("penalty", 1, "1:00", team="away", staff="coach", penalty="bench_minor")]
    with pytest.raises(InvalidEvent, match=r"5\.1 B / R-07"):
        run(entries)


def test_a_script_lists_the_bench_staff_once_each():
    teams = {
        "home": {
            "name": "Italy",
            "players": [2, 3, 4, 5],
            "goalkeepers": [1],
            "captain": 2,
            "staff": ["coach", "coach"],
        },
        "away": {"name": "Spain", "players": [12, 13, 14, 15], "goalkeepers": [31], "captain": 12},
    }
    with pytest.raises(ScriptError, match="staff"):
        parse_script({"title": "t", "rule": "R-07", "description": "R-07", "teams": teams, "events": [], "expect": []})
