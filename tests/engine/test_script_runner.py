"""The game script format and its runner (docs/game-scripts.md)."""

import json
from io import StringIO
from pathlib import Path

import pytest

from games.engine import EngineError, ScriptError
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
                    "away": {"players": [3, 4, 5, 6], "goalkeepers": [8, 3]},
                }
            },
            "R-06",
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


TWO_ASSISTS = [
    {"type": "period_start", "period": 1},
    {"type": "goal", "id": "g", "period": 1, "time": "1:00", "team": "home", "player": 5, "assists": [6, 7]},
]


def test_an_expected_refusal_raised_while_the_log_is_read_passes_with_its_rule_and_event():
    """5.5.11 C is refused while the log is read; the script expecting it passes (issue 8)."""
    data = script(events=TWO_ASSISTS, expect=[], expect_error={"rule": "5.5.11 C", "event": "g"})
    outcome = run_script(parse_script(data))
    assert outcome.ok
    assert (outcome.state, outcome.error.event_id, outcome.error.field) == (None, "g", "assists")


def test_an_expected_refusal_raised_while_the_log_is_read_must_cite_the_rule_and_name_the_event():
    wrong_rule = run_script(parse_script(script(events=TWO_ASSISTS, expect=[], expect_error={"rule": "5.5.11 D"})))
    assert wrong_rule.mismatches == [
        "expect_error: expected an error citing '5.5.11 D', got "
        "Rule 5.5.11 C / R-32: a goal has at most one assist (event g)"
    ]
    wrong_event = run_script(
        parse_script(script(events=TWO_ASSISTS, expect=[], expect_error={"rule": "5.5.11 C", "event": "e0"}))
    )
    assert wrong_event.mismatches == [
        "expect_error: expected the error on event e0, got Rule 5.5.11 C / R-32: a goal has at most one assist (event g)"
    ]


def test_a_refusal_of_the_log_names_the_event_by_its_position_when_it_has_no_id():
    events = [{"type": "period_start", "period": 1}, {"type": "shot", "period": 1, "time": "1:60", "team": "home"}]
    with pytest.raises(EngineError, match="R-10") as info:
        parse_script(script(events=events, expect=[]))
    assert info.value.event_id == "e1"


def test_an_expected_refusal_of_the_teams_passes_and_leaves_no_state_to_check():
    teams = {
        "home": {"players": [2, 3, 4, 5], "goalkeepers": [1], "captain": 1},
        "away": {"players": [12, 13, 14, 15], "goalkeepers": [11]},
    }
    data = script(teams=teams, expect_error={"rule": "3.1.2 C"})
    outcome = run_script(parse_script(data))
    assert outcome.error.field == "teams"
    assert outcome.mismatches == [
        "expect[0] at P1 4:00: no state (the teams or the log were refused)",
        "expect[1] at P1 4:10: no state (the teams or the log were refused)",
    ]
    assert run_script(parse_script(dict(data, expect=[]))).ok


def test_a_short_line_up_is_refused_at_the_period_start_and_the_script_names_that_event():
    """5.3 B is checked when play starts (issue 8): the refusal names the period_start."""
    teams = {
        "home": {"players": [2, 3, 4], "goalkeepers": [1]},
        "away": {"players": [12, 13, 14, 15], "goalkeepers": [11]},
    }
    events = [{"type": "period_start", "id": "start", "period": 1}]
    data = script(teams=teams, events=events, expect=[], expect_error={"rule": "5.3 B", "event": "start"})
    assert run_script(parse_script(data)).ok


def test_an_expected_refusal_may_name_its_field_and_a_wrong_field_is_a_mismatch():
    """expect_error's field is the input the refusal is about (EngineError.field), as the tests assert it."""
    right = script(events=TWO_ASSISTS, expect=[], expect_error={"rule": "5.5.11 C", "event": "g", "field": "assists"})
    assert run_script(parse_script(right)).ok
    wrong = script(events=TWO_ASSISTS, expect=[], expect_error={"rule": "5.5.11 C", "event": "g", "field": "player"})
    assert run_script(parse_script(wrong)).mismatches == [
        "expect_error: expected the error about field player, got assists: "
        "Rule 5.5.11 C / R-32: a goal has at most one assist (event g)"
    ]


def test_an_expected_refusal_with_an_unknown_key_is_refused():
    with pytest.raises(ScriptError, match="expect_error has no key.s. feild; it has rule, event and field"):
        parse_script(script(events=TWO_ASSISTS, expect=[], expect_error={"rule": "5.5.11 C", "feild": "assists"}))
