"""What the state tells the console it may offer: only what the engine accepts (R-67, R-71, 5.5.2)."""

import pytest

from games.engine import InvalidEvent

from .helpers import ev, regulation_tied, run, run_to


def timeout_refused(entries, period=None, time=None, side="home"):
    state = run(entries) if period is None else run_to(entries, period, time)
    return state.to_dict()["teams"][side]["timeout_refused"]


def test_a_timeout_is_offered_at_a_stoppage_of_a_period_in_progress():
    assert timeout_refused([ev("period_start", 1), ev("clock_stop", 1, "5:00")]) is None


@pytest.mark.parametrize(
    ("entries", "reason"),
    [
        ([ev("period_start", 1)], "R-71"),  # before the opening face-off is played
        ([ev("period_start", 1), ev("clock_stop", 1, "20:00")], "R-71"),  # the buzzer
        ([ev("period_start", 1), ev("period_end", 1, "20:00")], "R-71"),  # the intermission
        ([], "R-71"),  # before the game
        ([ev("period_start", 1), ev("clock_stop", 1, "5:00"), ev("timeout", 1, "5:00", team="home")], "R-12"),
    ],
)
def test_a_timeout_is_not_offered_where_the_engine_refuses_it(entries, reason):
    refused = timeout_refused(entries)
    assert refused is not None and reason in refused


def test_the_offer_matches_the_engines_answer_at_every_moment():
    """For each moment the console may show, a time-out is offered exactly when the engine accepts it."""
    moments = [
        [ev("period_start", 1)],
        [ev("period_start", 1), ev("clock_stop", 1, "5:00")],
        [ev("period_start", 1), ev("clock_stop", 1, "20:00")],
        [ev("period_start", 1), ev("period_end", 1, "20:00")],
        [ev("period_start", 1), ev("period_end", 1, "20:00"), ev("period_start", 2)],
    ]
    for entries in moments:
        state = run(entries)
        period, elapsed = max(state.period, 1), state.elapsed
        offered = state.to_dict()["teams"]["home"]["timeout_refused"] is None
        try:
            run([*entries, ev("timeout", period, elapsed, team="home")])
            accepted = True
        except InvalidEvent:
            accepted = False
        assert offered == accepted, entries


def test_the_shootout_names_who_may_not_shoot_and_why():
    events = regulation_tied(
        [
            ev("period_start", 3),
            ev("penalty", 3, "9:00", team="away", player=13, penalty="minor", infraction="tripping"),
            ev("clock_start", 3, "9:00"),
            ev("period_end", 3, "10:00"),
            ev("shootout_attempt", team="home", player=2, scored=False),
        ]
    )
    shootout = run(events, "elimination").to_dict()["shootout"]
    assert "R-40" in shootout["barred"]["away"]["13"]  # penalty time left at the end of overtime
    assert "R-40" in shootout["barred"]["home"]["1"]  # a goalkeeper
    assert "already shot" in shootout["barred"]["home"]["2"]  # every team-mate first
    assert "3" not in shootout["barred"]["home"]
    assert 13 not in shootout["eligible"]["away"]
