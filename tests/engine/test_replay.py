"""Replay: same log, same state; corrections; the clock; the pure penalty rules. Database-free."""

import random

import pytest

from games.engine import (
    EventFormatError,
    Game,
    InvalidEvent,
    Ruleset,
    ScriptError,
    TeamRoster,
    format_countdown,
    format_time,
    parse_log,
    parse_time,
    replay,
)
from games.engine.penalties import automatic_penalties
from games.engine.ruleset import DOUBLE_MINOR, GAME_EJECTION, GAME_MISCONDUCT, MAJOR, MINOR, MISCONDUCT
from games.engine.state import PlayerRecord

from .helpers import ev, game, regulation_tied, run, run_to

BUSY_GAME = [
    ev("period_start", 1),
    ev("penalty", 1, "1:00", team="home", player=3, penalty="minor", infraction="holding"),
    ev("clock_start", 1, "1:00"),
    ev("penalty", 1, "1:30", team="home", player=4, penalty="minor", infraction="slashing"),
    ev("clock_start", 1, "1:30"),
    ev("penalty", 1, "2:00", team="home", player=5, penalty="double_minor"),
    ev("penalty", 1, "2:00", team="away", player=14, penalty="minor"),
    ev("clock_start", 1, "2:00"),
    ev("penalty", 1, "2:40", team="away", player=15, penalty="minor", delayed=True),
    ev("goal", 1, "2:50", team="home", player=6, assist=7),
    ev("clock_start", 1, "2:50"),
    ev("goal", 1, "4:00", team="away", player=16),
    ev("clock_start", 1, "4:00"),
    ev("penalty", 1, "9:00", team="away", player=17, penalty="major", infraction="tripping_major", served_by=18),
    ev("clock_start", 1, "9:00"),
    ev("shot", 1, "10:00", team="home", player=8),
    ev("period_end", 1, "20:00"),
    ev("period_start", 2),
    ev("clock_stop", 2, "3:00"),
    ev("timeout", 2, "3:00", team="away"),
    ev("clock_start", 2, "3:00"),
    ev("goal", 2, "12:00", team="home", player=9),
    ev("clock_start", 2, "12:00"),
    ev("period_end", 2, "20:00"),
]


def test_same_log_gives_the_same_state():
    assert run(BUSY_GAME).to_dict() == run(BUSY_GAME).to_dict()


def test_any_order_of_entry_gives_the_same_state():
    entries = [dict(e, seq=i, id=f"x{i}") for i, e in enumerate(BUSY_GAME)]
    expected = replay(parse_log(entries), game()).to_dict()
    shuffled = list(entries)
    random.Random(7).shuffle(shuffled)
    assert replay(parse_log(shuffled), game()).to_dict() == expected


def test_a_correction_voids_an_event_by_id():
    entries = [
        ev("period_start", 1),
        ev("goal", 1, "3:00", id="g1", team="home", player=5),
        ev("clock_start", 1, "3:00"),
        ev("correction", voids="g1"),
    ]
    state = run(entries)
    assert state.teams["home"].score == 0
    assert state.goals == []


def test_a_corrected_penalty_leaves_no_trace_in_the_box_or_records():
    entries = [
        ev("period_start", 1),
        ev("penalty", 1, "3:00", id="p1", team="home", player=5, penalty="minor"),
        ev("clock_start", 1, "3:00"),
        ev("correction", voids="p1"),
    ]
    state = run_to(entries, 1, 3600)
    assert state.strength("home") == 4
    assert state.teams["home"].players[5].minutes == 0


def test_state_at_runs_the_clock_to_the_asked_time():
    state = run_to(
        [
            ev("period_start", 1),
            ev("penalty", 1, "3:00", team="home", player=5, penalty="minor"),
            ev("clock_start", 1, "3:00"),
        ],
        1,
        2400,
    )
    assert state.elapsed == 2400
    assert state.box_entries("home")[0]["remaining"] == "1:00"


def test_state_at_does_not_move_a_stopped_clock():
    state = run_to([ev("period_start", 1), ev("clock_stop", 1, "3:00")], 1, 6000)
    assert (state.elapsed, state.running) == (1800, False)


def test_a_penalty_time_starts_when_assessed_not_when_signalled():
    entries = [
        ev("period_start", 1),
        ev("penalty", 1, "5:00", id="p", team="away", player=14, penalty="minor", delayed=True),
        ev("clock_stop", 1, "5:40"),
        ev("clock_start", 1, "5:40"),
    ]
    state = run_to(entries, 1, 3500)
    record = state.penalties[0]
    assert (record.time, record.signalled_time) == (3400, 3000)
    assert state.box_entries("away")[0]["remaining"] == "1:50"


def test_the_two_minute_mark_is_announced_at_18_00():
    state = run_to([ev("period_start", 1)], 1, 11000)
    assert [(n.article, format_time(n.time)) for n in state.notices] == [("4.4", "18:00")]


def test_the_countdown_never_shows_zero_while_time_remains():
    assert format_countdown(1) == "0:01"
    assert format_countdown(0) == "0:00"
    assert format_countdown(11999) == "20:00"
    assert format_countdown(12000) == "20:00"
    assert format_countdown(595) == "1:00"


def test_it_parses_and_formats_game_times():
    assert parse_time("3:00") == 1800
    assert parse_time("19:59.9") == 11999
    assert parse_time(42) == 42
    assert format_time(11999) == "19:59.9"
    assert format_time(1800) == "3:00"


def test_a_ruleset_parameter_can_change_which_minor_a_goal_ends():
    entries = [
        ev("period_start", 1),
        ev("penalty", 1, "1:00", id="dm", team="home", player=3, penalty="double_minor"),
        ev("clock_start", 1, "1:00"),
        ev("penalty", 1, "2:30", id="m", team="home", player=4, penalty="minor"),
        ev("clock_start", 1, "2:30"),
        ev("goal", 1, "3:30", team="away", player=14),
    ]
    first = replay(parse_log(entries), game())
    least = replay(parse_log(entries), game(), Ruleset(goal_ends_penalty="least_time_left"))
    assert first.goals[0].ended_penalty == "dm"  # 6.2.1 B: the penalty that first made home shorthanded
    assert least.goals[0].ended_penalty == "m"


def test_a_ruleset_refuses_unknown_parameters_and_values():
    with pytest.raises(ScriptError, match="R-10"):
        Ruleset.from_dict({"period_lenght": 1})
    with pytest.raises(ScriptError, match="R-23"):
        Ruleset(goal_ends_penalty="last")


def test_minutes_charged_equal_the_sum_over_penalties():
    state = run(BUSY_GAME)
    for side, team in state.teams.items():
        for number, player in team.players.items():
            charged = sum(p.minutes for p in state.penalties if p.team == side and p.player == number)
            assert player.minutes == charged


class TestAutomaticPenalties:
    """6.1.3 B and 6.1.7 A-D as a pure function over the player's record (R-29)."""

    rules = Ruleset()

    def test_a_major_adds_a_game_misconduct_and_is_one_call(self):
        player = PlayerRecord(5)
        assert automatic_penalties(player, MAJOR, False, self.rules) == [(GAME_MISCONDUCT, "6.1.3 B")]
        assert player.calls == 1

    def test_a_double_minor_is_one_call(self):
        player = PlayerRecord(5)
        automatic_penalties(player, DOUBLE_MINOR, False, self.rules)
        assert player.calls == 1

    def test_the_third_call_adds_a_misconduct_and_the_fourth_an_ejection(self):
        player = PlayerRecord(5)
        added = [automatic_penalties(player, MINOR, False, self.rules) for _ in range(4)]
        assert added == [[], [], [(MISCONDUCT, "6.1.7 A")], [(GAME_EJECTION, "6.1.7 B")]]

    def test_the_third_stick_infraction_adds_an_ejection(self):
        player = PlayerRecord(5, calls=5, stick_infractions=2)
        assert automatic_penalties(player, MINOR, True, self.rules) == [(GAME_EJECTION, "6.1.7 B, C")]
        player = PlayerRecord(5, stick_infractions=2)
        assert automatic_penalties(player, MINOR, True, self.rules) == [(GAME_EJECTION, "6.1.7 C")]

    def test_a_second_misconduct_adds_a_game_misconduct(self):
        player = PlayerRecord(5)
        assert automatic_penalties(player, MISCONDUCT, False, self.rules) == []
        assert automatic_penalties(player, MISCONDUCT, False, self.rules) == [(GAME_MISCONDUCT, "6.1.7 D")]

    def test_a_misconduct_as_third_call_is_a_second_misconduct(self):
        player = PlayerRecord(5, calls=2)
        added = automatic_penalties(player, MISCONDUCT, False, self.rules)
        assert added == [(MISCONDUCT, "6.1.7 A"), (GAME_MISCONDUCT, "6.1.7 D")]


def test_a_shot_on_goal_is_a_save_for_the_goalkeeper_in_net():
    entries = [
        ev("period_start", 1),
        ev("shot", 1, "1:00", team="home", player=5),
        ev("goalkeeper_returned", 1, "1:00", team="away", player=35),
        ev("shot", 1, "2:00", team="home", player=6),
        ev("goalkeeper_pulled", 1, "3:00", team="away"),
        ev("shot", 1, "3:10", team="home", player=6),
    ]
    state = run(entries)
    away = state.teams["away"].players
    assert (away[31].saves, away[35].saves, state.teams["home"].shots) == (1, 1, 3)


SHORT = TeamRoster("Short", frozenset({2, 3, 4}), frozenset({1}), captain=2)
NO_GOALKEEPER = TeamRoster("No goalkeeper", frozenset({2, 3, 4, 5}), frozenset(), captain=2)


@pytest.mark.parametrize("roster", [SHORT, NO_GOALKEEPER], ids=["three_floor_players", "no_goalkeeper"])
def test_a_team_that_cannot_start_is_refused_at_the_period_start_not_at_set_up(roster):
    """5.3 B is checked at the whistle that starts the game: the line-up itself is accepted."""
    short = Game(home=game().home, away=roster)
    with pytest.raises(InvalidEvent, match=r"Rule 5\.3 B / 8\.1 A: away \(") as info:
        replay(parse_log([ev("period_start", 1, id="start")]), short)
    assert (info.value.event_id, info.value.field) == ("start", "team")


@pytest.mark.parametrize("roster", [SHORT, NO_GOALKEEPER], ids=["three_floor_players", "no_goalkeeper"])
def test_the_forfeit_of_a_team_that_cannot_start_is_recorded_one_nil(roster):
    """8.1 A declares the forfeit; 8.1 B, R-41 record it 1-0, the goal to the other captain."""
    state = replay(parse_log([ev("forfeit", id="f", team="home")]), Game(home=roster, away=game().away))
    assert (state.status, state.result.decided_by, state.result.forfeited_by) == ("ended", "forfeit", "home")
    assert (state.result.home, state.result.away, state.result.winner) == (0, 1, "away")
    assert state.teams["away"].players[12].goals == 1


def test_the_starting_line_up_is_checked_against_the_rulesets_floor_players():
    three_a_side = Ruleset(floor_players=3, min_floor_players=2)
    state = replay(parse_log([ev("period_start", 1)]), Game(home=SHORT, away=SHORT), three_a_side)
    assert state.status == "in_progress"


def test_an_ejected_players_misconduct_leaves_the_box_and_a_substitute_serves_his_minor():
    entries = [
        ev("period_start", 1),
        ev("penalty", 1, "1:00", team="home", player=3, penalty="misconduct"),
        ev("clock_start", 1, "1:00"),
        ev("penalty", 1, "4:00", team="home", player=3, penalty="minor", infraction="hooking"),
        ev("penalty", 1, "4:00", team="home", player=3, penalty="game_misconduct", infraction="inciting_opponent"),
        ev("clock_start", 1, "4:00"),
    ]
    state = run_to(entries, 1, 2500)
    assert [(e["player"], e["penalty"], e["remaining"]) for e in state.box_entries("home")] == [(None, "minor", "1:50")]
    assert state.teams["home"].players[3].out_of_game == "6.4.9 E"
    assert state.strength("home") == 3


def test_a_correction_of_a_correction_restores_the_event():
    entries = [
        ev("period_start", 1),
        ev("goal", 1, "3:00", id="g1", team="home", player=5),
        ev("clock_start", 1, "3:00"),
        ev("correction", id="c1", voids="g1"),
        ev("correction", id="c2", voids="c1"),
    ]
    assert run(entries).teams["home"].score == 1


def test_a_correction_of_an_unknown_event_is_refused():
    with pytest.raises(EventFormatError, match="R-10: correction c1 voids 'nope'"):
        run([ev("period_start", 1), ev("correction", id="c1", voids="nope")])


def test_the_officials_choose_which_penalty_is_the_differential():
    def box_at_3_30(flagged: str):
        entries = [
            ev("period_start", 1),
            ev("penalty", 1, "3:00", id="h", team="home", player=3, penalty="minor"),
            ev("penalty", 1, "3:00", id="a1", team="away", player=14, penalty="minor", coincidental=flagged != "a1"),
            ev("penalty", 1, "3:00", id="a2", team="away", player=15, penalty="minor", coincidental=flagged != "a2"),
            ev("clock_start", 1, "3:00"),
        ]
        state = run_to(entries, 1, 2100)
        return {e["penalty_id"]: e["affects_strength"] for e in state.box_entries("away")}, state.strength("away")

    # 6.1.3 D, R-25: the extra penalty is served as an ordinary one; by default the one entered last
    assert box_at_3_30("none") == ({"a1": False, "a2": True}, 3)
    assert box_at_3_30("a1") == ({"a1": True, "a2": False}, 3)


def test_an_awarded_goal_may_be_entered_at_the_stoppage():
    entries = [
        ev("period_start", 1),
        ev("goalkeeper_pulled", 1, "19:00", team="away"),
        ev("clock_stop", 1, "19:20"),
        ev("goal", 1, "19:20", team="home", awarded=True),
    ]
    state = run(entries)
    assert state.teams["home"].score == 1
    assert (state.goals[0].scorer, state.goals[0].empty_net) == (None, True)


# -- 6.1.5 B, 6.1.6 B: the goalkeeper sent off ------------------------------------------------------------------


def test_a_goalkeepers_major_proposes_the_substitute_goalkeeper_and_a_substitute_serves_the_time():
    """6.1.3 A-B, 6.1.5 B: the major's automatic game misconduct sends the goalkeeper off; 30 is proposed."""
    entries = [ev("period_start", 1), ev("penalty", 1, "3:00", team="home", player=1, penalty="major")]
    state = run(entries)
    home = state.teams["home"]
    assert (home.goalkeeper, home.replacement.proposed, home.replacement.confirmed) == (30, 30, False)
    assert home.replacement.article == "6.1.5 B"
    assert [(e["player"], e["penalty"]) for e in state.box_entries("home")] == [(None, "major")]


def test_a_listed_goalkeepers_return_ends_the_temporary_goalkeeper():
    """Glossary (Temporary Goalkeeper): the team member in goal becomes a player again and may serve."""
    entries = [
        ev("period_start", 1),
        ev("penalty", 1, "2:00", team="home", player=1, penalty="game_misconduct"),
        ev("goalkeeper_replaced", 1, "2:00", team="home", player=7),
        ev("clock_start", 1, "2:00"),
        ev("shot", 1, "4:00", team="away"),
        ev("clock_stop", 1, "6:00"),
        ev("goalkeeper_returned", 1, "6:00", team="home", player=30),
        ev("penalty", 1, "6:00", id="b", team="home", penalty="bench_minor", served_by=7),
        ev("clock_start", 1, "6:00"),
        ev("shot", 1, "7:00", team="away"),
    ]
    state = run(entries)
    home = state.teams["home"]
    assert (home.goalkeeper, home.replacement.player, home.replacement.confirmed) == (30, 30, True)
    assert (home.players[7].saves, home.players[30].saves) == (1, 1)
    assert [e["player"] for e in state.box_entries("home")] == [7]


def test_a_temporary_goalkeeper_does_not_shoot_in_the_shootout():
    """R-40, 6.1.5 B: the team member in goal at the end of overtime has a goalkeeper's place."""
    events = regulation_tied(
        [
            ev("period_start", 3),
            ev("penalty", 3, "2:00", team="home", player=1, penalty="game_misconduct"),
            ev("goalkeeper_replaced", 3, "2:00", team="home", player=7),
            ev("clock_start", 3, "2:00"),
            ev("period_end", 3, "10:00"),
        ]
    )
    state = run(events, "elimination")
    assert 7 not in state.shootout.eligible["home"]
    assert 8 in state.shootout.eligible["home"]


def test_a_goalkeeper_sent_off_on_the_bench_leaves_the_goalkeeper_in_goal():
    state = run([ev("period_start", 1), ev("penalty", 1, "2:00", team="home", player=30, penalty="game_misconduct")])
    assert (state.teams["home"].goalkeeper, state.teams["home"].replacement) == (1, None)


# -- a server sent off does not serve ---------------------------------------------------------------------


def test_a_designated_server_sent_off_later_leaves_the_penalty_sheet_and_the_box():
    entries = [
        ev("period_start", 1),
        ev("penalty", 1, "2:00", id="b", team="home", penalty="bench_minor", served_by=5),
        ev("clock_start", 1, "2:00"),
        ev("clock_stop", 1, "3:00"),
        ev("penalty", 1, "3:00", team="home", player=5, penalty="game_misconduct"),
        ev("clock_start", 1, "3:00"),
    ]
    state = run_to(entries, 1, 2000)
    bench_minor = next(p for p in state.penalties if p.id == "b")
    assert bench_minor.served_by is None
    assert [(e["player"], e["remaining"]) for e in state.box_entries("home")] == [(None, "0:40")]
    assert state.strength("home") == 3


# -- 8.1 B, R-41: the forfeit's records ---------------------------------------------------------------------------


def test_a_forfeit_leaves_no_shots_or_saves_and_keeps_the_penalty_minutes():
    """R-41: recorded 1-0, no goalkeeper statistics; penalties stay on the sheet (6.1.5 C, R-21)."""
    entries = [
        ev("period_start", 1),
        ev("shot", 1, "1:00", team="home", player=5),
        ev("shot", 1, "1:30", team="away", player=14),
        ev("goal", 1, "2:00", team="away", player=14, assist=15),
        ev("penalty", 1, "2:00", team="home", player=6, penalty="minor"),
        ev("clock_start", 1, "2:00"),
        ev("forfeit", 1, "5:00", team="home"),
    ]
    state = run(entries)
    home, away = state.teams["home"], state.teams["away"]
    assert (home.shots, away.shots, home.score, away.score) == (0, 0, 0, 1)
    assert all(p.saves == 0 for team in (home, away) for p in team.players.values())
    assert (away.players[12].goals, away.players[14].goals, away.players[15].assists) == (1, 0, 0)
    assert home.players[6].minutes == 2


# -- 6.1.8 F: the period ends after the penalty shot awarded as its time ran out -----------------------------------


def test_a_log_that_moves_on_without_the_awarded_shot_ends_the_period_first():
    """6.1.8 F: the next period's start closes the period whose shot was not entered (nothing is lost)."""
    entries = [
        ev("period_start", 1),
        ev("penalty", 1, "19:58", team="home", player=6, penalty="penalty_shot", delayed=True),
        ev("period_end", 1, "20:00"),
        ev("period_start", 2),
    ]
    state = run(entries)
    assert (state.status, state.period, state.teams["away"].pending_shots) == ("in_progress", 2, [])


def test_a_penalty_shot_after_overtime_ran_out_that_misses_leads_to_the_shootout():
    events = regulation_tied(
        [
            ev("period_start", 3),
            ev("penalty", 3, "9:58", team="away", player=13, penalty="penalty_shot", delayed=True),
            ev("period_end", 3, "10:00"),
        ]
    )
    waiting = run(events, "elimination")
    assert (waiting.status, waiting.result) == ("in_progress", None)
    state = run([*events, ev("penalty_shot", 3, "10:00", team="home", player=5, scored=False)], "elimination")
    assert state.status == "shootout"
    scored = run([*events, ev("penalty_shot", 3, "10:00", team="home", player=5, scored=True)], "elimination")
    assert (scored.result.winner, scored.result.decided_by) == ("home", "overtime")


def test_a_penalty_shot_taken_before_the_period_end_is_entered_gives_the_same_state():
    """R-10: the shot entered before or after the period_end of the same moment replays to the same state."""
    before = [
        ev("period_start", 1),
        ev("penalty", 1, "19:58", id="ps", team="home", player=6, penalty="penalty_shot", delayed=True),
        ev("penalty_shot", 1, "20:00", id="s", team="away", player=14, scored=True),
        ev("period_end", 1, "20:00", id="end"),
    ]
    after = [before[0], before[1], before[3], before[2]]
    first, second = run(before), run(after)
    assert (first.status, first.teams["away"].score) == ("intermission", 1)
    assert (second.status, second.teams["away"].score) == ("intermission", 1)
    assert [g.to_dict() for g in first.goals] == [g.to_dict() for g in second.goals]
