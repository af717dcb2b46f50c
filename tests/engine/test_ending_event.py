"""``ending_event``: the entry that ended the game on the sheet (Rule 1.2 A, 1.3), the protest deadline's anchor
when no ``game_end`` confirms it (9.1 B). Database-free."""

from games.engine import ending_event, parse_log

from .helpers import ev, game, regulation_tied


def ending(entries: list[dict], game_type: str = "round_robin") -> str | None:
    entries = [{"id": f"e{n}", **entry} for n, entry in enumerate(entries)]
    event = ending_event(parse_log(entries), game(game_type))
    return None if event is None else event.id


def test_period_2s_end_with_a_winner_ends_the_game_1_2_a():
    log = regulation_tied()
    log[1] = ev("goal", 1, "3:00", team="away", player=15)  # away 2-0
    assert ending(log, "elimination") == "e7"  # the period_end of period 2
    assert ending([*log, ev("game_end")], "elimination") == "e7"  # a game_end only confirms it


def test_a_round_robin_tie_ends_at_period_2s_end_and_an_elimination_tie_goes_on_1_3_a_b():
    assert ending(regulation_tied()) == "e7"
    assert ending(regulation_tied(), "elimination") is None
    assert ending(regulation_tied()[:-1]) is None  # period 2 still played


def test_overtimes_sudden_death_goal_ends_the_game_1_3_b():
    log = regulation_tied([ev("period_start", 3), ev("goal", 3, "4:00", team="home", player=6)])
    assert ending(log, "elimination") == "e9"


def test_the_shootouts_deciding_attempt_ends_the_game_1_3_e_r_40():
    log = regulation_tied(
        [
            ev("period_start", 3),
            ev("period_end", 3, "10:00"),
            ev("shootout_attempt", team="home", player=2, scored=True),
            ev("shootout_attempt", team="away", player=12, scored=False),
            ev("shootout_attempt", team="home", player=3, scored=True),
            ev("shootout_attempt", team="away", player=13, scored=False),
        ]
    )
    assert ending(log, "elimination") == "e13"
    assert ending(log[:-1], "elimination") is None
