"""Standings presets: each reproduces a small table built the way its rules publish it."""

from tournaments.standings import PRESETS, GameResult, compute_standings


def game(game_id, home, away, home_goals, away_goals, **kwargs):
    return GameResult(game_id, home, away, home_goals, away_goals, **kwargs)


def test_the_firs_preset_is_the_rulebook_default():
    rules = PRESETS["firs-2017"]
    assert (rules.points.win, rules.points.tie, rules.points.loss, rules.points.forfeit_loss) == (2, 1, 0, -2)
    assert rules.tiebreakers[0] == "head_to_head_points"
    assert rules.tiebreakers[-1] == "shootout"
    assert rules.restart_after_partial_split


IIHF_POOL = [
    game(1, "CAN", "FIN", 3, 2, decided_in="overtime"),
    game(2, "CAN", "SUI", 4, 1),
    game(3, "SWE", "CAN", 2, 1),
    game(4, "FIN", "SWE", 3, 1),
    game(5, "FIN", "SUI", 2, 0),
    # IIHF habit: the shoot-out winner is credited one goal in the final score.
    game(6, "SWE", "SUI", 3, 2, decided_in="shootout"),
]


def test_the_iihf_preset_gives_three_two_one_zero_points():
    """IIHF table:

        Team  GP  W  OTW  OTL  L  GF:GA  Pts
        FIN    3  2   0    1   0   7:4    7
        SWE    3  1   1    0   1   6:6    5
        CAN    3  1   1    0   1   8:5    5
        SUI    3  0   0    1   2   3:9    1

    SWE and CAN are equal on 5 points; SWE won their game, so SWE is second. Under 9.3 the same
    results give every team but SUI 4 points (an overtime win is a win), a different table.
    """
    table = compute_standings(["CAN", "FIN", "SWE", "SUI"], IIHF_POOL, rules=PRESETS["iihf"])
    assert [(r.team, r.points) for r in table.rows] == [("FIN", 7), ("SWE", 5), ("CAN", 5), ("SUI", 1)]
    assert (table.row("CAN").overtime_wins, table.row("FIN").overtime_losses) == (1, 1)
    assert (table.row("SWE").overtime_wins, table.row("SUI").overtime_losses) == (1, 1)
    assert table.row("SWE").decided_by == "9.3 C: head-to-head points 3 vs 0"

    firs = compute_standings(["CAN", "FIN", "SWE", "SUI"], IIHF_POOL)
    assert [r.points for r in firs.rows] == [4, 4, 4, 0]


def test_the_iihf_preset_uses_head_to_head_goal_difference_within_the_tied_teams():
    """IIHF: A, B, C each won one game among themselves (3 points each); head-to-head goal
    difference A +3, C 0, B -3 orders all three at once, so B stays below C although B beat C."""
    results = [
        game(1, "A", "B", 4, 0),
        game(2, "B", "C", 2, 1),
        game(3, "C", "A", 2, 1),
        game(4, "A", "D", 1, 0),
        game(5, "B", "D", 1, 0),
        game(6, "C", "D", 9, 0),
    ]
    table = compute_standings(["A", "B", "C", "D"], results, rules=PRESETS["iihf"])
    assert table.order == ("A", "C", "B", "D")
    assert table.row("C").decided_by == "head-to-head goal difference +0 vs +3, -3"
    assert table.row("A").decided_by == "head-to-head goal difference +3 vs +0, -3"


def test_the_historic_preset_orders_by_goal_difference_first():
    """Older rules: A and B have 4 points; A beat B (9.3 C puts A first) but B's goal difference is
    +14 against A's +1, so the historic table puts B first.

        historic:  B 4 (+14), A 4 (+1), D 2 (-5), C 2 (-10)
        9.3:       A 4, B 4, D 2, C 2   (head-to-head decides both ties)
    """
    results = [
        game(1, "A", "B", 1, 0),
        game(2, "C", "A", 1, 0),
        game(3, "A", "D", 1, 0),
        game(4, "B", "C", 10, 0),
        game(5, "B", "D", 5, 0),
        game(6, "D", "C", 1, 0),
    ]
    historic = compute_standings(["A", "B", "C", "D"], results, rules=PRESETS["historic-goal-difference"])
    assert historic.order == ("B", "A", "D", "C")
    assert historic.row("B").decided_by == "goal difference +14 vs +1"
    assert [r.goal_difference for r in historic.rows] == [14, 1, -5, -10]

    firs = compute_standings(["A", "B", "C", "D"], results, rules=PRESETS["firs-2017"])
    assert firs.order == ("A", "B", "D", "C")
