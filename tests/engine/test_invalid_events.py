"""Invalid events are refused with an error that cites the rule (issue: 'Invalid events are refused')."""

import copy
import json
import re
from pathlib import Path

import pytest

from games.engine import EngineError, EventFormatError, InvalidEvent, parse_log, replay
from games.engine.scripts import parse_script

from .helpers import ev, regulation_tied, run


def refused(entries, match, game_type="round_robin", error=InvalidEvent):
    with pytest.raises(error, match=match) as info:
        run(entries, game_type)
    return info.value


def test_it_refuses_a_second_assist():
    error = refused(
        [ev("period_start", 1), ev("goal", 1, "1:00", team="home", player=5, assists=[6, 7])],
        r"5\.5\.11 C / R-32",
        error=EventFormatError,
    )
    assert error.field == "assists"


def test_it_refuses_assist_and_assists_together():
    refused(
        [ev("period_start", 1), ev("goal", 1, "1:00", team="home", player=5, assist=6, assists=[7])],
        r"5\.5\.11 C",
        error=EventFormatError,
    )


def test_it_refuses_an_assist_on_an_own_goal():
    refused(
        [ev("period_start", 1), ev("goal", 1, "1:00", team="home", player=5, own_goal=True, assist=6)],
        r"5\.5\.11 D / R-32",
    )


def test_it_refuses_a_time_out_in_overtime():
    events = regulation_tied(
        [ev("period_start", 3), ev("clock_stop", 3, "1:00"), ev("timeout", 3, "1:00", id="t", team="home")]
    )
    error = refused(events, r"5\.5\.2 D", game_type="elimination")
    assert error.event_id == "t"


def test_it_refuses_a_teams_second_time_out_in_a_period():
    events = [
        ev("period_start", 1),
        ev("clock_stop", 1, "2:00"),
        ev("timeout", 1, "2:00", team="away"),
        ev("clock_start", 1, "2:00"),
        ev("clock_stop", 1, "9:00"),
        ev("timeout", 1, "9:00", team="away"),
    ]
    error = refused(events, r"1\.2 B / 5\.5\.2 B / R-12")
    assert error.field == "team"


def test_it_refuses_a_time_out_while_play_goes_on():
    refused([ev("period_start", 1), ev("timeout", 1, "2:00", team="home")], r"5\.5\.2 A")


def test_it_refuses_anything_after_the_game_has_ended():
    events = [
        ev("period_start", 1),
        ev("period_end", 1, "20:00"),
        ev("period_start", 2),
        ev("goal", 2, "5:00", team="home", player=5),
        ev("clock_start", 2, "5:00"),
        ev("period_end", 2, "20:00"),
        ev("penalty", 2, "20:00", id="late", team="away", player=14, penalty="misconduct"),
    ]
    error = refused(events, r"R-11: the game has ended")
    assert error.event_id == "late"


def test_it_refuses_a_second_game_end():
    events = regulation_tied([ev("period_start", 3), ev("goal", 3, "1:00", team="home", player=7)])
    refused(
        [*events, ev("game_end"), ev("game_end")], r"R-11: the game has ended; no game_end", game_type="elimination"
    )


def test_it_refuses_a_game_end_in_the_middle_of_a_period():
    refused([ev("period_start", 1), ev("clock_stop", 1, "5:00"), ev("game_end")], r"1\.2 A / 1\.3")


def test_it_refuses_a_goal_by_a_player_in_the_box():
    events = [
        ev("period_start", 1),
        ev("penalty", 1, "2:00", team="home", player=5, penalty="minor", infraction="hooking"),
        ev("clock_start", 1, "2:00"),
        ev("goal", 1, "3:00", id="g", team="home", player=5),
    ]
    error = refused(events, r"6\.4\.1 B / 6\.4\.27 D: scorer 5 is in the penalty box")
    assert (error.field, error.event_id) == ("player", "g")


def test_it_refuses_an_assist_by_a_player_in_the_box():
    events = [
        ev("period_start", 1),
        ev("penalty", 1, "2:00", team="home", player=5, penalty="minor"),
        ev("clock_start", 1, "2:00"),
        ev("goal", 1, "3:00", team="home", player=6, assist=5),
    ]
    refused(events, r"6\.4\.1 B / 6\.4\.27 D: assist 5")


def test_it_refuses_a_goal_by_a_player_out_of_the_game():
    events = [
        ev("period_start", 1),
        ev("penalty", 1, "2:00", team="home", player=5, penalty="major", infraction="boarding_major", served_by=6),
        ev("clock_start", 1, "2:00"),
        ev("goal", 1, "8:00", team="home", player=5),
    ]
    refused(events, r"6\.1\.3 B / R-30: scorer 5 is out of the game")


def test_it_refuses_overtime_in_a_round_robin_game():
    events = regulation_tied([ev("period_start", 3, id="ot")])
    error = refused(events, r"1\.3 D")
    assert error.event_id == "ot"


def test_it_refuses_overtime_when_an_elimination_game_is_decided():
    events = [
        ev("period_start", 1),
        ev("goal", 1, "3:00", team="home", player=5),
        ev("clock_start", 1, "3:00"),
        ev("period_end", 1, "20:00"),
        ev("period_start", 2),
        ev("period_end", 2, "20:00"),
        ev("period_start", 3),
    ]
    refused(events, r"R-11: the game has ended; no period_start", game_type="elimination")


def test_it_refuses_a_second_overtime_period():
    events = regulation_tied([ev("period_start", 3), ev("period_end", 3, "10:00"), ev("period_start", 4)])
    refused(events, r"R-11: period 4 cannot start while the game is shootout", game_type="elimination")


def test_it_refuses_a_shootout_shooter_repeating_before_every_team_mate_shot():
    attempts = [
        ("home", 2),
        ("away", 12),
        ("home", 3),
        ("away", 13),
        ("home", 4),
        ("away", 14),
        ("away", 15),
        ("home", 2),
    ]
    events = regulation_tied([ev("period_start", 3), ev("period_end", 3, "10:00")])
    events += [ev("shootout_attempt", team=t, player=p, scored=False) for t, p in attempts]
    error = refused(events, r"1\.3 E / R-40: 2 already shot", game_type="elimination")
    assert error.field == "player"


def test_it_refuses_a_shootout_shooter_twice_in_the_first_rounds():
    attempts = [("home", 2), ("away", 12), ("home", 2)]
    events = regulation_tied([ev("period_start", 3), ev("period_end", 3, "10:00")])
    events += [ev("shootout_attempt", team=t, player=p, scored=False) for t, p in attempts]
    refused(events, r"1\.3 E / R-40: 2 already shot", game_type="elimination")


def test_it_refuses_a_shootout_before_overtime_ends():
    events = regulation_tied([ev("period_start", 3), ev("shootout_attempt", team="home", player=2, scored=True)])
    refused(events, r"1\.3 B, E / R-40", game_type="elimination")


def test_it_refuses_a_goalkeeper_in_the_shootout():
    events = regulation_tied([ev("period_start", 3), ev("period_end", 3, "10:00")])
    refused(
        [*events, ev("shootout_attempt", team="home", player=1, scored=True)],
        r"R-40: 1 cannot shoot",
        game_type="elimination",
    )


def test_it_refuses_a_team_shooting_twice_in_a_row():
    events = regulation_tied([ev("period_start", 3), ev("period_end", 3, "10:00")])
    events += [ev("shootout_attempt", team="home", player=2, scored=True)] * 1
    events += [ev("shootout_attempt", team="home", player=3, scored=True)]
    refused(events, r"1\.3 E / R-40: teams shoot alternately", game_type="elimination")


def test_it_refuses_an_unknown_infraction_code():
    events = [
        ev("period_start", 1),
        ev("penalty", 1, "1:00", team="home", player=5, penalty="minor", infraction="nope"),
    ]
    error = refused(events, r"R-20: 'nope' is not a line of the Annex C")
    assert error.field == "infraction"


def test_it_refuses_a_goalkeeper_serving_a_penalty():
    events = [ev("period_start", 1), ev("penalty", 1, "1:00", team="home", player=1, penalty="minor", served_by=30)]
    refused(events, r"6\.1\.2 B / 6\.1\.4 B")


def test_it_refuses_the_penalized_player_serving_his_own_major():
    events = [ev("period_start", 1), ev("penalty", 1, "1:00", team="home", player=5, penalty="major", served_by=5)]
    refused(events, r"6\.1\.3 A")


def test_it_refuses_a_minor_without_a_player():
    refused([ev("period_start", 1), ev("penalty", 1, "1:00", team="home", penalty="minor")], r"6\.1\.2 D")


def test_it_refuses_a_player_not_on_the_line_up():
    refused([ev("period_start", 1), ev("goal", 1, "1:00", team="home", player=55)], r"5\.1 B / R-07")


def test_it_refuses_a_delayed_penalty_at_a_stoppage():
    events = [
        ev("period_start", 1),
        ev("clock_stop", 1, "1:00"),
        ev("penalty", 1, "1:00", team="home", player=5, penalty="minor", delayed=True),
    ]
    refused(events, r"6\.3 B")


def test_it_refuses_time_moving_while_the_clock_is_stopped():
    events = [ev("period_start", 1), ev("clock_stop", 1, "1:00"), ev("shot", 1, "2:00", team="home")]
    error = refused(events, r"R-10: game time moved")
    assert error.field == "time"


def test_it_refuses_an_event_in_a_period_not_started():
    refused([ev("period_start", 1), ev("shot", 2, "1:00", team="home")], r"R-11: shot in period 2, but period 1")


def test_it_refuses_a_period_ending_early():
    refused([ev("period_start", 1), ev("period_end", 1, "19:00")], r"1\.2 A / R-11")


def test_it_refuses_a_time_beyond_the_period():
    refused(
        [ev("period_start", 1), ev("shot", 1, "20:01", team="home")], r"R-10: time 20:01 is beyond the period's 20:00"
    )


def test_it_refuses_a_goal_while_the_clock_is_stopped():
    refused(
        [ev("period_start", 1), ev("clock_stop", 1, "1:00"), ev("goal", 1, "1:00", team="home", player=5)],
        r"5\.5\.11 A",
    )


def test_it_refuses_an_unknown_event_type_and_field():
    refused([{"type": "fight", "period": 1, "time": 0}], r"R-10: unknown event type", error=EventFormatError)
    refused(
        [ev("period_start", 1), ev("shot", 1, "1:00", team="home", speed=9)],
        r"R-10: shot has no field",
        error=EventFormatError,
    )


def test_it_refuses_a_malformed_time():
    for bad in ("1:5", "1:60", "abc", -3, True, "1:00.25"):
        refused([ev("period_start", 1), ev("shot", 1, bad, team="home")], r"R-10: time", error=EventFormatError)


def test_every_refusal_is_an_engine_error():
    assert issubclass(InvalidEvent, EngineError)
    assert issubclass(EventFormatError, EngineError)


# -- lists and mappings where a scalar is expected (R-10: one error family, never a TypeError) ---------------

SCRIPTS = Path(__file__).parent / "scripts"


@pytest.mark.parametrize("value", [[], {}, ["minor"], 3, None])
def test_it_refuses_an_event_type_that_is_not_a_known_text(value):
    with pytest.raises(EventFormatError, match=r"R-10: unknown event type") as info:
        parse_log([{"type": value}])
    assert info.value.field == "type"


def test_it_refuses_an_article_that_is_not_text():
    events = [ev("period_start", 1), ev("penalty", 1, "1:00", team="home", player=5, penalty="minor", article=["6"])]
    error = refused(events, r"R-20: article", error=EventFormatError)
    assert error.field == "article"


@pytest.mark.parametrize(
    "script",
    [
        "6.1.6-B_team_member_replaces_goalkeeper_with_match_penalty.json",
        "6.1.8-F_penalty_shot_after_time_runs_out_decides_the_game.json",
        "R-30_designated_server_removed_from_the_game_does_not_serve.json",
    ],
)
def test_a_list_or_mapping_in_any_field_is_refused_as_an_engine_error(script):
    """R-10: whatever JSON a field holds, the replay either succeeds or raises the engine's own error family."""
    path = SCRIPTS / script
    data = json.loads(path.read_text(encoding="utf-8"))
    game = parse_script(data).game
    tried = 0
    for index, entry in enumerate(data["events"]):
        for key in entry:
            for value in ([], {}, [7], {"a": 1}):
                entries = copy.deepcopy(data["events"])
                entries[index][key] = value
                tried += 1
                try:
                    replay(parse_log(entries), game)
                except EngineError as error:
                    assert re.search(r"\bR-\d\d\b|\b\d\.\d", error.message), error.message
    assert tried > 50


# -- a player out of the game neither serves nor returns to the goal ------------------------------------


def test_it_refuses_a_server_already_out_of_the_game_named_on_a_penalty():
    events = [
        ev("period_start", 1),
        ev("penalty", 1, "2:00", team="home", player=5, penalty="game_misconduct"),
        ev("clock_start", 1, "2:00"),
        ev("penalty", 1, "4:00", id="b", team="home", penalty="bench_minor", served_by=5),
    ]
    error = refused(events, r"6\.1\.5 A / R-30: 5 is out of the game")
    assert (error.field, error.event_id) == ("served_by", "b")


def test_it_refuses_a_goalkeeper_out_of_the_game_returning_to_the_goal():
    events = [
        ev("period_start", 1),
        ev("penalty", 1, "2:00", team="home", player=1, penalty="game_misconduct"),
        ev("clock_start", 1, "2:00"),
        ev("clock_stop", 1, "3:00"),
        ev("goalkeeper_returned", 1, "3:00", id="back", team="home", player=1),
    ]
    error = refused(events, r"R-30: goalkeeper 1 is out of the game")
    assert (error.field, error.event_id) == ("player", "back")


# -- 6.1.5 B, 6.1.6 B: who takes the place of a goalkeeper sent off --------------------------------------------


def test_it_refuses_a_replacement_goalkeeper_when_no_goalkeeper_was_sent_off():
    events = [
        ev("period_start", 1),
        ev("clock_stop", 1, "2:00"),
        ev("goalkeeper_replaced", 1, "2:00", team="home", player=7),
    ]
    error = refused(events, r"6\.1\.5 B / 6\.1\.6 B: no home goalkeeper has been sent off")
    assert error.field == "type"


def test_it_refuses_a_replacement_goalkeeper_while_play_goes_on():
    events = [
        ev("period_start", 1),
        ev("penalty", 1, "2:00", team="home", player=1, penalty="game_misconduct"),
        ev("clock_start", 1, "2:00"),
        ev("goalkeeper_replaced", 1, "3:00", team="home", player=7),
    ]
    error = refused(events, r"Rule 6\.1\.5 B: the goalkeeper's place is taken at a stoppage")
    assert error.field == "time"


def test_it_refuses_a_replacement_goalkeeper_out_of_the_game():
    events = [
        ev("period_start", 1),
        ev("penalty", 1, "2:00", team="home", player=7, penalty="game_misconduct"),
        ev("penalty", 1, "2:00", team="home", player=1, penalty="match"),
        ev("goalkeeper_replaced", 1, "2:00", id="gr", team="home", player=7),
    ]
    error = refused(events, r"R-30: 7 is out of the game")
    assert (error.field, error.event_id) == ("player", "gr")


def test_it_refuses_a_replacement_goalkeeper_not_on_the_line_up():
    events = [
        ev("period_start", 1),
        ev("penalty", 1, "2:00", team="home", player=1, penalty="game_misconduct"),
        ev("goalkeeper_replaced", 1, "2:00", team="home", player=55),
    ]
    refused(events, r"5\.1 B / R-07: 55 is not on the home line-up")


def test_it_refuses_the_temporary_goalkeeper_as_a_penalty_server():
    """6.1.2 B, Glossary (Temporary Goalkeeper): the team member in goal has a goalkeeper's limitations."""
    in_goal = [
        ev("period_start", 1),
        ev("penalty", 1, "2:00", team="home", player=1, penalty="game_misconduct"),
        ev("goalkeeper_replaced", 1, "2:00", team="home", player=7),
    ]
    by_serve = [*in_goal, ev("penalty", 1, "2:00", id="b", team="home", penalty="bench_minor")]
    by_serve.append(ev("serve", 1, "2:00", team="home", penalty="b", player=7))
    refused(by_serve, r"6\.1\.2 B / 6\.1\.4 B")
    named = [*in_goal, ev("clock_start", 1, "2:00"), ev("penalty", 1, "3:00", team="home", penalty="bench_minor")]
    named[-1]["served_by"] = 7
    assert refused(named, r"6\.1\.2 B / 6\.1\.4 B").field == "served_by"


# -- 6.1.8 F: the period ends after the penalty shot awarded as its time ran out --------------------------------


def test_it_refuses_the_clock_starting_while_the_period_end_waits_for_a_penalty_shot():
    events = [
        ev("period_start", 1),
        ev("penalty", 1, "19:58", team="home", player=6, penalty="penalty_shot", delayed=True),
        ev("period_end", 1, "20:00"),
        ev("clock_start", 1, "20:00", id="go"),
    ]
    error = refused(events, r"1\.2 A / 6\.1\.8 F")
    assert error.event_id == "go"


def test_it_refuses_a_penalty_shot_with_no_shot_awarded_to_that_team():
    """6.1.8: the shot is taken by the team a penalty shot was awarded to; none awarded, none taken."""
    events = [
        ev("period_start", 1),
        ev("clock_stop", 1, "5:00"),
        ev("penalty_shot", 1, "5:00", id="ps", team="home", player=5, scored=True),
    ]
    error = refused(events, r"Rule 6\.1\.8: no penalty shot has been awarded to home")
    assert (error.field, error.event_id) == ("team", "ps")


def test_it_refuses_a_penalty_shot_by_the_team_that_was_penalized():
    events = [
        ev("period_start", 1),
        ev("penalty", 1, "5:00", team="home", player=6, penalty="penalty_shot"),
        ev("penalty_shot", 1, "5:00", id="ps", team="home", player=5, scored=True),
    ]
    assert refused(events, r"Rule 6\.1\.8: no penalty shot has been awarded to home").event_id == "ps"


def test_an_unknown_infraction_code_suggests_the_nearest_codes():
    events = [
        ev("period_start", 1),
        ev("penalty", 1, "1:00", team="home", player=5, penalty="minor", infraction="slashng"),
    ]
    error = refused(events, r"R-20: 'slashng' is not a line of the Annex C penalty index; nearest: slashing")
    assert error.field == "infraction"


def test_it_refuses_a_protest_that_names_no_team_9_1_a():
    error = refused(
        [ev("period_start", 1), ev("protest", 1, "1:00")], r"R-10: protest needs team", error=EventFormatError
    )
    assert error.field == "team"


def test_a_protest_before_the_game_started_is_refused_r_11():
    refused([ev("protest", 1, "0:00", team="home")], r"R-11: protest in period 1")
