"""Pool standings (9.3, 8.1, R-41..R-43): database-free."""

import pytest

from tournaments.standings import (
    GameResult,
    StandingsError,
    StandingsRules,
    compute_standings,
    disqualified_by_forfeits,
    forfeit_disqualifies,
)


def game(game_id, home, away, home_goals, away_goals, **kwargs):
    return GameResult(game_id, home, away, home_goals, away_goals, **kwargs)


def test_it_awards_two_one_zero_points():
    """9.3 A / R-41: win 2, tie 1, loss 0."""
    table = compute_standings(
        ["A", "B", "C"],
        [game(1, "A", "B", 3, 1), game(2, "A", "C", 2, 2), game(3, "B", "C", 1, 0)],
    )
    assert table.order == ("A", "B", "C")
    assert [r.points for r in table.rows] == [3, 2, 1]
    a = table.row("A")
    assert (a.played, a.wins, a.ties, a.losses, a.goals_for, a.goals_against) == (2, 1, 1, 0, 5, 3)
    assert [r.position for r in table.rows] == [1, 2, 3]
    assert all(r.decided_by is None for r in table.rows)
    assert table.complete


def test_it_penalizes_a_forfeit_with_minus_two_points():
    """9.3 A, 8.1 B / R-41: the forfeiting team gets -2, the other a 1-0 win."""
    table = compute_standings(
        ["A", "B", "C"],
        [
            game(1, "A", "B", 0, 1, decided_in="forfeit", forfeited_by="A"),
            game(2, "A", "C", 2, 0),
            game(3, "B", "C", 1, 1),
        ],
    )
    assert table.order == ("B", "C", "A")
    a = table.row("A")
    assert (a.points, a.losses, a.forfeits, a.wins) == (0, 1, 1, 1)
    assert table.row("B").points == 3


def test_it_refuses_a_forfeit_not_recorded_for_the_other_team():
    with pytest.raises(StandingsError, match="8.1 B") as error:
        compute_standings(["A", "B"], [game(1, "A", "B", 1, 0, decided_in="forfeit", forfeited_by="A")])
    assert error.value.field == "results[1].home_goals"


def test_it_refuses_a_game_against_a_team_outside_the_pool():
    with pytest.raises(StandingsError, match="not in this pool"):
        compute_standings(["A", "B"], [game(1, "A", "Z", 1, 0)])


def test_it_ignores_games_outside_the_round_robin():
    """9.3 B: placement counts points of round-robin play only."""
    table = compute_standings(["A", "B"], [game(1, "A", "B", 1, 0), game(2, "B", "A", 5, 0, round_robin=False)])
    assert table.order == ("A", "B")
    assert table.row("B").played == 1


def test_head_to_head_decides_between_two_teams():
    """9.3 C: A and B are equal on 3 points; A beat B, although B allowed fewer goals (D)."""
    table = compute_standings(
        ["A", "B", "C", "D"],
        [
            game(1, "A", "B", 1, 0),
            game(2, "A", "C", 5, 5),
            game(3, "B", "C", 0, 0),
            game(4, "D", "A", 4, 0),
            game(5, "B", "D", 1, 0),
            game(6, "C", "D", 1, 0),
        ],
    )
    assert table.order == ("C", "A", "B", "D")
    assert table.row("A").points == table.row("B").points == 3
    assert table.row("A").decided_by == "9.3 C: head-to-head points 2 vs 0"
    assert table.row("B").decided_by == "9.3 C: head-to-head points 0 vs 2"
    assert "9.3 B: A and B are equal on 3 points" in table.explanations


def test_fewest_goals_against_decides_when_head_to_head_is_tied():
    """9.3 D: A and B tied their game; B allowed 3 goals in the round, A 5."""
    table = compute_standings(
        ["A", "B", "C", "D"],
        [
            game(1, "A", "B", 2, 2),
            game(2, "A", "C", 1, 0),
            game(3, "D", "A", 3, 0),
            game(4, "C", "B", 1, 0),
            game(5, "B", "D", 2, 0),
            game(6, "C", "D", 1, 0),
        ],
    )
    assert table.order == ("C", "B", "A", "D")
    assert table.row("B").decided_by == "9.3 D: goals allowed in the round 3 vs 5"


def test_fewest_goals_against_in_wins_over_common_opponents_decides_next():
    """9.3 E: equal points, a tied game, 4 goals allowed each; B allowed 0 in its win over C, A allowed 2."""
    table = compute_standings(
        ["A", "B", "C", "D"],
        [
            game(1, "A", "B", 1, 1),
            game(2, "A", "C", 3, 2),
            game(3, "D", "A", 1, 0),
            game(4, "B", "C", 3, 0),
            game(5, "D", "B", 3, 0),
            game(6, "D", "C", 1, 0),
        ],
    )
    assert table.row("A").goals_against == table.row("B").goals_against == 4
    assert table.order == ("D", "B", "A", "C")
    assert table.row("B").decided_by == "9.3 E: goals allowed in wins against common opponents 0 vs 2"


def test_most_goals_for_in_losses_against_common_opponents_decides_next():
    """9.3 F: everything above equal; A scored 2 in its loss to D, B none."""
    table = compute_standings(
        ["A", "B", "C", "D"],
        [
            game(1, "A", "B", 1, 1),
            game(2, "A", "C", 2, 0),
            game(3, "D", "A", 3, 2),
            game(4, "B", "C", 2, 0),
            game(5, "D", "B", 3, 0),
            game(6, "D", "C", 1, 0),
        ],
    )
    assert table.order == ("D", "A", "B", "C")
    assert table.row("A").decided_by == "9.3 F: goals scored in losses against common opponents 2 vs 0"


IDENTICAL_PAIR = [
    game(1, "A", "B", 1, 1),
    game(2, "A", "C", 2, 0),
    game(3, "B", "C", 2, 0),
    game(4, "D", "A", 3, 0),
    game(5, "D", "B", 3, 0),
    game(6, "D", "C", 1, 0),
]


def test_a_tie_only_a_shootout_can_break_is_reported_not_guessed():
    """9.3 G / R-42: A and B have identical records; the table says a shoot-out is needed."""
    table = compute_standings(["A", "B", "C", "D"], IDENTICAL_PAIR)
    assert table.unresolved == (("A", "B"),)
    assert not table.complete
    assert [(r.team, r.position, r.needs_shootout) for r in table.rows] == [
        ("D", 1, False),
        ("A", 2, True),
        ("B", 2, True),
        ("C", 4, False),
    ]
    assert any(e.startswith("9.3 G: A and B need a shoot-out") for e in table.explanations)


def test_an_entered_shootout_resolves_the_tie():
    """9.3 G: staff enter the shoot-out's order, best first."""
    table = compute_standings(
        ["A", "B", "C", "D"], IDENTICAL_PAIR, shootout_results={frozenset({"A", "B"}): ["B", "A"]}
    )
    assert table.unresolved == ()
    assert table.order == ("D", "B", "A", "C")
    assert [r.position for r in table.rows] == [1, 2, 3, 4]
    assert table.row("B").decided_by == "9.3 G: shoot-out, place 1 of 2"
    assert not any(r.needs_shootout for r in table.rows)


def test_it_refuses_a_shootout_result_that_names_other_teams():
    with pytest.raises(StandingsError, match="9.3 G") as error:
        compute_standings(["A", "B", "C", "D"], IDENTICAL_PAIR, shootout_results={frozenset({"A", "B"}): ["A", "C"]})
    assert error.value.field == "shootout_results"


def test_a_three_team_tie_is_resolved_by_head_to_head_points():
    """9.3 C: A, B and C have 4 points; among themselves A has 4, B 2, C 0."""
    table = compute_standings(
        ["A", "B", "C", "D", "E"],
        [
            game(1, "A", "B", 2, 1),
            game(2, "A", "C", 2, 1),
            game(3, "B", "C", 2, 1),
            game(4, "D", "A", 1, 0),
            game(5, "E", "A", 1, 0),
            game(6, "B", "D", 1, 0),
            game(7, "E", "B", 1, 0),
            game(8, "C", "D", 1, 0),
            game(9, "C", "E", 1, 0),
            game(10, "D", "E", 2, 2),
        ],
    )
    assert table.order == ("E", "A", "B", "C", "D")
    assert {table.row(t).points for t in "ABC"} == {4}
    assert table.row("A").decided_by == "9.3 C: head-to-head points 4 vs 2, 0"
    assert table.row("B").decided_by == "9.3 C: head-to-head points 2 vs 4, 0"
    assert "9.3 C: head-to-head points: A 4, B 2, C 0" in table.explanations


CYCLE = [
    # A beat B, B beat C, C beat A: head-to-head does not separate them (2 points each).
    game(1, "A", "B", 5, 1),
    game(2, "C", "A", 1, 0),
    game(3, "B", "C", 2, 1),
    game(4, "A", "D", 5, 4),
    game(5, "B", "D", 1, 0),
    game(6, "C", "D", 1, 0),
]


def test_teams_still_tied_after_a_partial_split_restart_from_head_to_head():
    """R-42: goals allowed (9.3 D) puts C first (2 against 6 and 6); A and B restart at 9.3 C, where A beat B.

    Going on to 9.3 E instead would have put B above A (D is the one opponent both beat: B allowed 0, A 4).
    """
    table = compute_standings(["A", "B", "C", "D"], CYCLE)
    assert table.order == ("C", "A", "B", "D")
    assert table.row("C").decided_by == "9.3 D: goals allowed in the round 2 vs 6"
    assert table.row("A").decided_by == "9.3 C: head-to-head points 2 vs 0"
    assert any(e.startswith("R-42: A and B remain tied") for e in table.explanations)


def test_without_restart_the_still_tied_teams_go_on_with_the_next_criterion():
    rules = StandingsRules(restart_after_partial_split=False)
    table = compute_standings(["A", "B", "C", "D"], CYCLE, rules=rules)
    assert table.order == ("C", "B", "A", "D")
    # D is the only opponent both A and B beat (B beat C too, A did not): B allowed 0 against it, A 4.
    assert table.row("B").decided_by == "9.3 E: goals allowed in wins against common opponents 0 vs 4"


def test_a_disqualified_teams_games_are_removed_from_every_table():
    """8.1 D / R-43: D's games are erased as if never played; D stays, marked, at the bottom."""
    results = [
        game(1, "D", "A", 3, 0),
        game(2, "B", "D", 1, 0),
        game(3, "A", "B", 1, 0),
        game(4, "C", "D", 0, 1),
        game(5, "A", "C", 2, 2),
        game(6, "B", "C", 0, 1),
    ]
    table = compute_standings(["A", "B", "C", "D"], results, disqualified={"D"})
    assert table.order == ("A", "C", "B", "D")
    a = table.row("A")
    assert (a.played, a.points, a.goals_against) == (2, 3, 2)
    assert table.row("B").played == 2
    d = table.row("D")
    assert d.disqualified and d.position == 4
    assert (d.played, d.points, d.goals_for) == (0, 0, 0)
    assert not any(r.disqualified for r in table.rows[:3])


def test_it_refuses_to_disqualify_a_team_outside_the_pool():
    with pytest.raises(StandingsError) as error:
        compute_standings(["A", "B"], [], disqualified={"Z"})
    assert error.value.field == "disqualified"


def test_it_refuses_an_unknown_tiebreaker():
    with pytest.raises(StandingsError, match="unknown tie-breaker"):
        compute_standings(["A", "B"], [game(1, "A", "B", 1, 1)], rules=StandingsRules(tiebreakers=("coin_toss",)))


def test_a_shootout_game_needs_its_winner_when_the_score_is_tied():
    with pytest.raises(StandingsError, match="R-40") as error:
        compute_standings(["A", "B"], [game(1, "A", "B", 2, 2, decided_in="shootout")])
    assert error.value.field == "results[1].shootout_winner"


@pytest.mark.parametrize(
    ("in_round_robin", "after", "expected"),
    [(0, False, False), (1, False, False), (2, False, True), (0, True, True), (1, True, True)],
)
def test_forfeits_disqualify_on_the_second_or_after_the_round_robin(in_round_robin, after, expected):
    """8.1 C / R-43: one round-robin forfeit is allowed; a second, or any later, disqualifies."""
    assert forfeit_disqualifies(forfeits_in_round_robin=in_round_robin, forfeit_after_round_robin=after) is expected


def test_it_finds_the_teams_disqualified_by_their_forfeits():
    results = [
        game(1, "A", "B", 0, 1, decided_in="forfeit", forfeited_by="A"),
        game(2, "C", "A", 1, 0, decided_in="forfeit", forfeited_by="A"),
        game(3, "B", "C", 1, 0, decided_in="forfeit", forfeited_by="C"),
        game(4, "B", "D", 0, 1, decided_in="forfeit", forfeited_by="B", round_robin=False),
    ]
    assert disqualified_by_forfeits(results) == frozenset({"A", "B"})
