"""The game script format and its runner (docs/game-scripts.md)."""

import json
from io import StringIO
from pathlib import Path

import pytest

from games.engine import ScriptError
from games.engine.__main__ import main
from games.engine.scripts import compare, parse_script, run_script

SCRIPT = Path(__file__).parent / "scripts" / "6.2.1-B_power_play_goal_ends_minor.json"


def script(**changes) -> dict:
    data = json.loads(SCRIPT.read_text())
    data.update(changes)
    return data


def test_it_runs_a_script_and_reports_no_mismatch():
    outcome = run_script(parse_script(script()))
    assert outcome.ok
    assert outcome.state["score"] == {"home": 0, "away": 1}


def test_it_names_every_mismatch_with_its_moment_and_path():
    data = script(expect=[{"at": {"period": 1, "time": "4:00"}, "strength": {"home": 4}, "power_play": None}])
    outcome = run_script(parse_script(data))
    assert outcome.mismatches == [
        "expect[0] at P1 4:00: strength.home: expected 4, got 3",
        'expect[0] at P1 4:00: power_play: expected null, got "away"',
    ]


def test_it_reports_a_refused_log_as_a_mismatch():
    data = script(
        events=[{"type": "period_start", "period": 1}, {"type": "timeout", "period": 1, "time": "1:00", "team": "home"}]
    )
    data["expect"] = []
    outcome = run_script(parse_script(data))
    assert outcome.mismatches == [
        "replay refused the log: Rule 5.5.2 A: a time-out is called at a stoppage of play (event e1)"
    ]


def test_an_expected_error_must_happen_and_cite_the_rule():
    assert not run_script(parse_script(script(expect_error={"rule": "5.5.2 D"}))).ok
    data = script(
        events=[
            {"type": "period_start", "period": 1},
            {"type": "timeout", "id": "t", "period": 1, "time": 0, "team": "home"},
        ]
    )
    data["expect"] = []
    assert run_script(parse_script(dict(data, expect_error={"rule": "5.5.2 A", "event": "t"}))).ok
    assert not run_script(parse_script(dict(data, expect_error={"rule": "5.5.2 D", "event": "t"}))).ok
    assert not run_script(parse_script(dict(data, expect_error={"rule": "5.5.2 A", "event": "other"}))).ok


def test_it_compares_times_as_times_and_lists_item_by_item():
    assert compare("01:30", "1:30", "remaining") == []
    assert compare(900, "1:30", "remaining") == []
    assert compare([{"a": 1}], [{"a": 1, "b": 2}], "box") == []
    assert compare([{"a": 1}], [{"a": 1}, {"a": 2}], "box") != []
    assert compare([{"a": 2}], [{"a": 1}, {"a": 2}], "notices") == []
    assert compare(1, True, "x") != []  # true is not 1


@pytest.mark.parametrize(
    "changes, match",
    [
        ({"colour": "red"}, "unknown script key"),
        ({"teams": {"home": {"players": [2, 3, 4, 5], "goalkeepers": [1]}}}, "R-07"),
        (
            {
                "teams": {
                    "home": {"players": [2, 3], "goalkeepers": [1]},
                    "away": {"players": [4, 5, 6, 7], "goalkeepers": [8]},
                }
            },
            "5.3 B",
        ),
        ({"game_type": "friendly"}, "1.3"),
        ({"expect": [{"at": {"period": 1, "time": "1:00"}, "mood": "happy"}]}, "cannot check mood"),
        ({"expect": [{"at": "later"}]}, "'at' is"),
        ({"ruleset": {"periods": 2, "speed": 3}}, "unknown ruleset parameter"),
    ],
)
def test_it_refuses_a_malformed_script(changes, match):
    with pytest.raises(ScriptError, match=match):
        parse_script(script(**changes))


def test_the_command_line_exits_1_naming_the_mismatch(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(script(expect=[{"at": "end", "score": {"away": 2}}])))
    out, err = StringIO(), StringIO()
    assert main([str(bad)], stdout=out, stderr=err) == 1
    assert "MISMATCH expect[0] at end: score.away: expected 2, got 1" in err.getvalue()
    assert json.loads(out.getvalue())["score"] == {"home": 0, "away": 1}


def test_the_command_line_exits_0_when_every_expectation_holds_and_2_without_a_file():
    assert main([str(SCRIPT)], stdout=StringIO(), stderr=StringIO()) == 0
    assert main([], stdout=StringIO(), stderr=StringIO()) == 2
