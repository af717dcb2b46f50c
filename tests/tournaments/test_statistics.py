"""Statistics from game summaries (4.3, 4.6 note, 5.5.11, 8.1 B and D; R-32, R-41, R-43)."""

import pytest

from tournaments.standings import GameResult
from tournaments.statistics import (
    Appearance,
    GoalkeeperGame,
    GoalSummary,
    PenaltySummary,
    StatisticsError,
    goalkeeper_counts_problem,
    goalkeeper_statistics,
    player_statistics,
    team_special_teams,
)

GAMES = [
    GameResult(1, "ITA", "GER", 3, 1),
    GameResult(2, "GER", "USA", 2, 2),
]


def by_person(rows):
    return {row.person: row for row in rows}


def test_it_counts_games_goals_assists_points_and_penalty_minutes():
    appearances = [Appearance(1, "ITA", p) for p in ("rossi", "bianchi")] + [
        Appearance(1, "GER", "muller"),
        Appearance(2, "GER", "muller"),
    ]
    goals = [
        GoalSummary(1, "ITA", "rossi", "bianchi"),
        GoalSummary(1, "ITA", "rossi", None, power_play=True),
        GoalSummary(1, "ITA", "bianchi", "rossi"),
        GoalSummary(1, "GER", "muller"),
        GoalSummary(2, "GER", "muller", None, shorthanded=True),
    ]
    penalties = [
        PenaltySummary(1, "ITA", "rossi", 2),
        PenaltySummary(1, "ITA", "rossi", 10),
        PenaltySummary(1, "ITA", None, 2),  # bench minor: no player's minutes
    ]
    rows = player_statistics(games=GAMES, appearances=appearances, goals=goals, penalties=penalties)
    stats = by_person(rows)
    rossi = stats["rossi"]
    assert (rossi.games, rossi.goals, rossi.assists, rossi.points, rossi.penalty_minutes) == (1, 2, 1, 3, 12)
    assert rossi.power_play_goals == 1
    muller = stats["muller"]
    assert (muller.games, muller.goals, muller.points, muller.shorthanded_goals) == (2, 2, 2, 1)
    # equal on 2 points: more goals first
    assert [r.person for r in rows] == ["rossi", "muller", "bianchi"]


def test_a_person_appears_once_per_game():
    rows = player_statistics(games=GAMES, appearances=[Appearance(1, "ITA", "rossi")] * 2)
    assert rows[0].games == 1


def test_an_own_goal_has_no_assist():
    """5.5.11 D / R-32."""
    with pytest.raises(StatisticsError, match="R-32") as error:
        player_statistics(games=GAMES, goals=[GoalSummary(1, "ITA", "rossi", "bianchi", own_goal=True)])
    assert error.value.field == "goals[0].assist"


def test_an_own_goal_counts_for_the_attacker_who_last_played_the_puck():
    rows = player_statistics(games=GAMES, goals=[GoalSummary(1, "ITA", "rossi", own_goal=True)])
    assert (rows[0].person, rows[0].goals, rows[0].assists) == ("rossi", 1, 0)


def test_a_scorer_cannot_assist_himself():
    with pytest.raises(StatisticsError, match="5.5.11 C"):
        player_statistics(games=GAMES, goals=[GoalSummary(1, "ITA", "rossi", "rossi")])


def test_it_refuses_a_summary_of_an_unknown_game_or_team():
    with pytest.raises(StatisticsError) as error:
        player_statistics(games=GAMES, goals=[GoalSummary(9, "ITA", "rossi")])
    assert error.value.field == "goals[0].game_id"
    with pytest.raises(StatisticsError) as error:
        player_statistics(games=GAMES, penalties=[PenaltySummary(1, "USA", "smith", 2)])
    assert error.value.field == "penalties[0].team"


FORFEIT = [GameResult(3, "ITA", "USA", 1, 0, decided_in="forfeit", forfeited_by="USA")]


def test_a_forfeit_gives_one_goal_to_the_winners_captain_and_no_assist():
    """8.1 B / R-41: recorded 1-0; the goals actually scored before the forfeit do not count."""
    rows = player_statistics(
        games=FORFEIT,
        goals=[GoalSummary(3, "USA", "smith", "jones"), GoalSummary(3, "ITA", "bianchi", "verdi")],
        penalties=[PenaltySummary(3, "USA", "smith", 2)],
        captains={"ITA": "rossi", "USA": "smith"},
    )
    stats = by_person(rows)
    assert (stats["rossi"].goals, stats["rossi"].assists) == (1, 0)
    assert set(stats) == {"rossi", "smith"}
    assert (stats["smith"].goals, stats["smith"].penalty_minutes) == (0, 2)


def test_a_forfeit_needs_the_winners_captain():
    with pytest.raises(StatisticsError, match="8.1 B") as error:
        player_statistics(games=FORFEIT, captains={"USA": "smith"})
    assert error.value.field == "captains"


DQ_GAMES = [
    GameResult(1, "ITA", "GER", 3, 1),
    GameResult(2, "GER", "USA", 2, 2),
    GameResult(3, "ITA", "USA", 5, 0),
]


def test_a_disqualified_teams_games_are_erased_for_everyone():
    """8.1 D / R-43: USA's statistics go, and so do its opponents' in the games against it."""
    goals = [GoalSummary(1, "ITA", "rossi"), GoalSummary(2, "GER", "muller"), GoalSummary(3, "ITA", "rossi")]
    penalties = [PenaltySummary(2, "USA", "smith", 10), PenaltySummary(3, "ITA", "rossi", 2)]
    appearances = [Appearance(g, "ITA", "rossi") for g in (1, 3)]
    rows = player_statistics(
        games=DQ_GAMES, goals=goals, penalties=penalties, appearances=appearances, disqualified={"USA"}
    )
    stats = by_person(rows)
    assert set(stats) == {"rossi"}
    assert (stats["rossi"].games, stats["rossi"].goals, stats["rossi"].penalty_minutes) == (1, 1, 0)


def test_goalkeepers_get_shots_saves_goals_against_and_save_percentage():
    """4.3, 4.6 D: saves as reported by the goal judges; save % = saves / shots against."""
    lines = [
        GoalkeeperGame(1, "ITA", "zoff", shots_against=20, saves=19, goals_against=1, seconds_played=2400),
        GoalkeeperGame(1, "GER", "kahn", shots_against=30, saves=27, goals_against=3, seconds_played=1200),
        GoalkeeperGame(2, "GER", "kahn", shots_against=10, saves=8, goals_against=2, seconds_played=2400),
    ]
    rows = goalkeeper_statistics(games=GAMES, goalkeepers=lines)
    assert [r.goalkeeper for r in rows] == ["zoff", "kahn"]
    kahn = rows[1]
    assert (kahn.games, kahn.shots_against, kahn.saves, kahn.goals_against) == (2, 40, 35, 5)
    assert kahn.save_percentage == pytest.approx(87.5)
    assert kahn.goals_against_average == pytest.approx(5 * 2400 / 3600)
    assert rows[0].save_percentage == pytest.approx(95.0)


def test_a_save_is_a_shot_that_would_have_entered():
    """4.6 note: shots against are saves plus goals against; a shot wide of the goal is no save."""
    with pytest.raises(StatisticsError, match="4.6 note") as error:
        goalkeeper_statistics(games=GAMES, goalkeepers=[GoalkeeperGame(1, "ITA", "zoff", 25, 19, 1)])
    assert error.value.field == "goalkeepers[0].shots_against"


def test_goalkeeper_counts_add_up_or_name_the_count_4_6_note():
    """The one check of a goalkeeper's counts, used by the statistics core and the goalkeeper-line service."""
    assert goalkeeper_counts_problem(shots_against=20, saves=18, goals_against=2) is None
    field, message = goalkeeper_counts_problem(shots_against=20, saves=17, goals_against=2)
    assert field == "shots_against" and message.startswith("Rule 4.6 note")
    assert goalkeeper_counts_problem(shots_against=1, saves=-1, goals_against=2)[0] == "saves"
    assert goalkeeper_counts_problem(shots_against=1, saves=True, goals_against=0)[0] == "saves"
    assert goalkeeper_counts_problem(shots_against=1, saves=0, goals_against=None)[0] == "goals_against"


def test_a_goalkeeper_without_shots_has_no_save_percentage():
    rows = goalkeeper_statistics(games=GAMES, goalkeepers=[GoalkeeperGame(1, "ITA", "zoff", 0, 0, 0)])
    assert rows[0].save_percentage is None
    assert rows[0].goals_against_average is None


def test_forfeits_and_erased_games_give_goalkeepers_nothing():
    """8.1 B: no shot, save or goal against in a forfeit; 8.1 D: erased games count for no one."""
    games = [*FORFEIT, GameResult(4, "ITA", "GER", 1, 0)]
    lines = [GoalkeeperGame(3, "ITA", "zoff", 5, 5, 0), GoalkeeperGame(4, "ITA", "zoff", 7, 7, 0)]
    assert goalkeeper_statistics(games=games, goalkeepers=lines[:1]) == ()
    assert goalkeeper_statistics(games=games, goalkeepers=lines[1:], disqualified={"GER"}) == ()
    assert goalkeeper_statistics(games=games, goalkeepers=lines)[0].shots_against == 7


def test_special_teams_give_power_play_and_penalty_kill_percentages():
    penalties = [
        PenaltySummary(1, "GER", "muller", 2, gives_power_play=True),
        PenaltySummary(1, "GER", "klose", 2, gives_power_play=True),
        PenaltySummary(1, "GER", "lahm", 2, gives_power_play=True),
        PenaltySummary(1, "GER", "boateng", 2, gives_power_play=True),
        PenaltySummary(1, "ITA", "rossi", 2, gives_power_play=True),
        PenaltySummary(1, "ITA", "verdi", 2),  # coincidental: no power play
    ]
    goals = [
        GoalSummary(1, "ITA", "rossi", power_play=True),
        GoalSummary(1, "GER", "muller", shorthanded=True),
    ]
    rows = {r.team: r for r in team_special_teams(games=GAMES, goals=goals, penalties=penalties)}
    ita, ger = rows["ITA"], rows["GER"]
    assert (ita.power_plays, ita.power_play_goals, ita.power_play_percentage) == (4, 1, 25.0)
    assert (ger.times_shorthanded, ger.power_play_goals_against, ger.penalty_kill_percentage) == (4, 1, 75.0)
    assert (ita.times_shorthanded, ita.penalty_kill_percentage, ita.penalty_minutes) == (1, 100.0, 4)
    assert ger.shorthanded_goals == 1
    assert rows["USA"].power_play_percentage is None


def test_special_teams_leave_out_forfeits_and_erased_games():
    games = [*FORFEIT, *GAMES]
    penalties = [PenaltySummary(3, "USA", "smith", 2, gives_power_play=True)]
    rows = {r.team: r for r in team_special_teams(games=games, penalties=penalties, disqualified={"GER"})}
    assert set(rows) == {"ITA", "USA"}
    assert rows["ITA"].power_plays == 0
