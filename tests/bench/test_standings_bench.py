"""Benchmark: a 32-team championship's tables, bracket and statistics (run with `pytest tests/bench -m bench -s`).

8 pools of 4 play a full round robin (48 games); the top two of each pool play a
16-team bracket with every place decided (32 games), the others one for places
17-32 (32 games). From synthetic goal, penalty, goalkeeper and line-up summaries
of those 112 games the benchmark computes every pool table, fills both
brackets round by round, and computes player, goalkeeper and special-teams
statistics. Budget: median <= 50 ms.
"""

import random
import statistics as stats
import time

import pytest

from tournaments.scheduling import crossover_pairings, elimination_bracket, round_robin_pairings, seeds_from_standings
from tournaments.standings import GameResult, compute_standings
from tournaments.statistics import (
    Appearance,
    GoalkeeperGame,
    GoalSummary,
    PenaltySummary,
    goalkeeper_statistics,
    player_statistics,
    team_special_teams,
)

pytestmark = pytest.mark.bench

POOLS = "ABCDEFGH"
BUDGET_SECONDS = 0.050
RUNS = 40


def championship(seed=2026):
    rng = random.Random(seed)
    pools = {p: [f"{p}{i}" for i in range(1, 5)] for p in POOLS}
    strength = {team: rng.random() for teams in pools.values() for team in teams}
    rosters = {team: [f"{team}-{n}" for n in range(1, 15)] for team in strength}
    keepers = {team: (f"{team}-G1", f"{team}-G2") for team in strength}
    results = []
    for pool, teams in pools.items():
        for number, pairs in enumerate(round_robin_pairings(teams)):
            for home, away in pairs:
                results.append(GameResult(f"{pool}-{number}-{home}", home, away, rng.randint(0, 6), rng.randint(0, 6)))
    return rng, pools, strength, rosters, keepers, results


def fill(first_round, seeds, strength, first_place):
    """Play a bracket round by round: the stronger team wins."""
    winners = {}
    while True:
        bracket = elimination_bracket(first_round, seeds=seeds, winners=winners, first_place=first_place)
        ready = [g for g in bracket.games if g.winner is None and g.home and g.away]
        if not ready:
            return bracket
        for game in ready:
            winners[game.code] = max((game.home, game.away), key=strength.__getitem__)


LOWER_BRACKET = [
    ("3A", "4B"),
    ("3C", "4D"),
    ("3E", "4F"),
    ("3G", "4H"),
    ("3B", "4A"),
    ("3D", "4C"),
    ("3F", "4E"),
    ("3H", "4G"),
]


def run(pools, strength, results, summaries):
    tables = {pool: compute_standings(teams, [r for r in results if r.home in teams]) for pool, teams in pools.items()}
    seeds = seeds_from_standings(tables)
    upper = fill(crossover_pairings(list(POOLS)), seeds, strength, 1)
    lower = fill(LOWER_BRACKET, seeds, strength, 17)
    elimination = [
        GameResult(f"E-{g.places[0]}-{g.code}", g.home, g.away, 3, 1, round_robin=False)
        if g.winner == g.home
        else GameResult(f"E-{g.places[0]}-{g.code}", g.home, g.away, 1, 3, round_robin=False)
        for g in (*upper.games, *lower.games)
    ]
    games = [*results, *elimination]
    appearances, goals, penalties, keepers = summaries(games)
    players = player_statistics(games=games, appearances=appearances, goals=goals, penalties=penalties)
    goalies = goalkeeper_statistics(games=games, goalkeepers=keepers)
    special = team_special_teams(games=games, goals=goals, penalties=penalties)
    return tables, upper, lower, players, goalies, special


def make_summaries(rng, rosters, keepers):
    cache = {}

    def summaries(games):
        key = tuple(g.game_id for g in games)
        if key in cache:
            return cache[key]
        appearances, goals, penalties, keeper_lines = [], [], [], []
        for game in games:
            for team, scored, conceded in (
                (game.home, game.home_goals, game.away_goals),
                (game.away, game.away_goals, game.home_goals),
            ):
                appearances += [Appearance(game.game_id, team, p) for p in (*rosters[team], keepers[team][0])]
                for _ in range(scored):
                    scorer, helper = rng.sample(rosters[team], 2)
                    goals.append(GoalSummary(game.game_id, team, scorer, helper, power_play=rng.random() < 0.2))
                for _ in range(rng.randint(2, 6)):
                    penalties.append(
                        PenaltySummary(
                            game.game_id, team, rng.choice(rosters[team]), 2, gives_power_play=rng.random() < 0.8
                        )
                    )
                saves = rng.randint(10, 30)
                keeper_lines.append(
                    GoalkeeperGame(game.game_id, team, keepers[team][0], saves + conceded, saves, conceded, 2400)
                )
        cache[key] = (appearances, goals, penalties, keeper_lines)
        return cache[key]

    return summaries


def test_a_32_team_championship_is_computed_within_50_ms():
    rng, pools, strength, rosters, keepers, results = championship()
    summaries = make_summaries(rng, rosters, keepers)
    tables, upper, lower, players, goalies, special = run(pools, strength, results, summaries)  # warm-up, builds data
    assert all(table.complete or table.unresolved for table in tables.values())
    assert len(results) == 48 and len(upper.games) == 32 and len(lower.games) == 32
    assert upper.complete and lower.complete
    assert sorted(upper.ranking) == list(range(1, 17)) and sorted(lower.ranking) == list(range(17, 33))
    assert len(players) == 32 * 15 and len(goalies) == 32 and len(special) == 32

    timings = []
    for _ in range(RUNS):
        start = time.perf_counter()
        run(pools, strength, results, summaries)
        timings.append(time.perf_counter() - start)
    median = stats.median(timings)
    table_timings = []
    for _ in range(RUNS):
        start = time.perf_counter()
        for teams in pools.values():
            compute_standings(teams, [r for r in results if r.home in teams])
        table_timings.append(time.perf_counter() - start)
    goals = sum(p.goals for p in players)
    print(
        f"\n32 teams, 112 games, {len(players)} players, {goals} goals: "
        f"median {median * 1000:.1f} ms, min {min(timings) * 1000:.1f} ms, max {max(timings) * 1000:.1f} ms "
        f"over {RUNS} runs (budget {BUDGET_SECONDS * 1000:.0f} ms); "
        f"the 8 pool tables alone: median {stats.median(table_timings) * 1000:.2f} ms"
    )
    assert median <= BUDGET_SECONDS
