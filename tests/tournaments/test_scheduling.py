"""Schedule: round-robin pairings, placement on rinks and times, the elimination bracket."""

from collections import Counter
from datetime import date, time, timedelta
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.scheduling import (
    SchedulingError,
    crossover_pairings,
    elimination_bracket,
    provisional_seeds,
    round_robin_pairings,
    schedule_round_robin,
    seeds_from_standings,
)
from tournaments.standings import GameResult, compute_standings

DAY = date(2026, 7, 1)
TIMES = [time(9), time(11), time(13), time(15), time(17), time(19)]


@pytest.mark.parametrize("n", range(2, 11))
def test_every_pair_meets_once_and_no_team_plays_twice_a_round(n):
    teams = [f"T{i}" for i in range(n)]
    rounds = round_robin_pairings(teams)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    pairs = [frozenset(p) for r in rounds for p in r]
    assert Counter(pairs) == Counter(frozenset(p) for p in combinations(teams, 2))
    for r in rounds:
        playing = [t for p in r for t in p]
        assert len(playing) == len(set(playing))


@pytest.mark.parametrize("n", range(2, 11))
def test_home_and_away_are_balanced(n):
    """5.4 D, 3.2.10 A: the home team is named first; each team hosts half its games, within one."""
    teams = [f"T{i}" for i in range(n)]
    home = Counter(h for r in round_robin_pairings(teams) for h, _ in r)
    games = n - 1
    assert {home[t] for t in teams} <= {games // 2, (games + 1) // 2}


def test_it_refuses_a_team_listed_twice():
    with pytest.raises(SchedulingError):
        round_robin_pairings(["A", "B", "A"])


def check_schedule(pools, games, days, rinks, times):
    slots = {(g.day, g.time) for g in games}
    assert slots <= {(d, t) for d in days for t in times}
    assert {g.rink for g in games} <= set(rinks)
    by_slot_team = Counter((g.slot, team) for g in games for team in (g.home, g.away))
    assert max(by_slot_team.values(), default=1) == 1, "a team plays twice at the same time"
    by_slot_rink = Counter((g.slot, g.rink) for g in games)
    assert max(by_slot_rink.values(), default=1) == 1, "a rink holds two games at once"
    for pool, teams in pools.items():
        met = Counter(frozenset((g.home, g.away)) for g in games if g.pool == pool)
        assert met == Counter(frozenset(p) for p in combinations(teams, 2))
        for team in teams:
            rounds = [g.round for g in sorted(games, key=lambda g: g.slot) if team in (g.home, g.away)]
            assert rounds == sorted(rounds), "rounds are played in order"


@settings(max_examples=150, deadline=None)
@given(
    sizes=st.lists(st.integers(2, 6), min_size=1, max_size=4),
    day_count=st.integers(1, 3),
    rink_count=st.integers(1, 3),
    time_count=st.integers(1, 6),
    rest=st.integers(0, 2),
)
def test_no_team_or_rink_is_double_booked(sizes, day_count, rink_count, time_count, rest):
    """Property: whatever the inputs, either a valid schedule or a SchedulingError that says what is missing."""
    pools = {chr(65 + p): [f"{chr(65 + p)}{i}" for i in range(size)] for p, size in enumerate(sizes)}
    days = [DAY + timedelta(days=d) for d in range(day_count)]
    rinks = [f"Rink {r}" for r in range(rink_count)]
    times = TIMES[:time_count]
    try:
        games = schedule_round_robin(pools, days=days, rinks=rinks, slot_times=times, rest_slots=rest)
    except SchedulingError as error:
        assert error.field == "slot_times"
        assert "add days" in error.message
        return
    check_schedule(pools, games, days, rinks, times)


def test_teams_rest_between_games_when_there_is_room():
    pools = {"A": ["A1", "A2", "A3", "A4"], "B": ["B1", "B2", "B3", "B4"]}
    days = [DAY, DAY + timedelta(days=1)]
    games = schedule_round_robin(pools, days=days, rinks=["1", "2"], slot_times=TIMES, rest_slots=1)
    check_schedule(pools, games, days, ["1", "2"], TIMES)
    for team in [t for teams in pools.values() for t in teams]:
        mine = sorted((g for g in games if team in (g.home, g.away)), key=lambda g: g.slot)
        same_day_gaps = [b.slot - a.slot for a, b in zip(mine, mine[1:], strict=False) if a.day == b.day]
        assert all(gap >= 2 for gap in same_day_gaps), (team, [(g.day, g.time) for g in mine])


def test_it_drops_the_rest_rather_than_a_game():
    pools = {"A": ["A1", "A2", "A3", "A4"]}
    games = schedule_round_robin(pools, days=[DAY], rinks=["1", "2"], slot_times=TIMES[:3], rest_slots=1)
    check_schedule(pools, games, [DAY], ["1", "2"], TIMES[:3])
    assert len(games) == 6


def test_it_says_what_is_missing_when_the_games_do_not_fit():
    pools = {"A": ["A1", "A2", "A3", "A4"], "B": ["B1", "B2", "B3", "B4"]}
    with pytest.raises(SchedulingError) as error:
        schedule_round_robin(pools, days=[DAY], rinks=["1"], slot_times=TIMES[:4])
    assert error.value.field == "slot_times"
    assert error.value.message == (
        "12 games need 12 rink slots; 1 days x 4 start times x 1 rinks give 4: add days, rinks or start times"
    )


def test_it_needs_as_many_start_times_as_a_team_has_games():
    with pytest.raises(SchedulingError, match="a team plays 3 games but there are only 2 start times"):
        schedule_round_robin({"A": ["A1", "A2", "A3", "A4"]}, days=[DAY], rinks=["1", "2", "3"], slot_times=TIMES[:2])


@pytest.mark.parametrize("missing", ["days", "rinks", "slot_times"])
def test_it_names_an_empty_input(missing):
    kwargs = {"days": [DAY], "rinks": ["1"], "slot_times": TIMES}
    kwargs[missing] = []
    with pytest.raises(SchedulingError) as error:
        schedule_round_robin({"A": ["A1", "A2"]}, **kwargs)
    assert error.value.field == missing


def test_it_refuses_a_team_in_two_pools():
    with pytest.raises(SchedulingError, match="A1 is in pool A and pool B"):
        schedule_round_robin({"A": ["A1", "A2"], "B": ["A1", "B2"]}, days=[DAY], rinks=["1"], slot_times=TIMES)


def test_crossover_pairs_pool_winners_with_runners_up():
    assert crossover_pairings(["A", "B"]) == [("1A", "2B"), ("1B", "2A")]
    assert crossover_pairings(["A", "B"], qualifiers=4) == [("1A", "4B"), ("2B", "3A"), ("1B", "4A"), ("2A", "3B")]
    eight = crossover_pairings(list("ABCDEFGH"))
    assert len(eight) == 8
    top, bottom = eight[:4], eight[4:]
    assert ("1A", "2B") in top and ("1B", "2A") in bottom


def test_a_quarter_final_bracket_has_every_placement_game():
    """1.3 B: single elimination from the quarter-finals; losers play on for places 5-8, 3-4, 7-8."""
    bracket = elimination_bracket(crossover_pairings(["A", "B"], qualifiers=4))
    codes = [g.code for g in bracket.games]
    assert codes == ["QF1", "QF2", "QF3", "QF4", "SF1", "SF2", "P5-8 SF1", "P5-8 SF2", "F", "P3", "P5", "P7"]
    final = bracket.game("F")
    assert (final.stage, final.places, final.home_source, final.away_source) == ("final", (1, 2), "W SF1", "W SF2")
    assert bracket.game("P3").home_source == "L SF1"


def test_the_bronze_option_adds_only_the_third_place_game():
    bracket = elimination_bracket([("1A", "2B"), ("1B", "2A"), ("1C", "2D"), ("1D", "2C")], placement="bronze")
    assert [g.code for g in bracket.games] == ["QF1", "QF2", "QF3", "QF4", "SF1", "SF2", "F", "P3"]


def test_a_sixteen_team_bracket_starts_with_pre_quarter_finals():
    bracket = elimination_bracket(crossover_pairings(list("ABCDEFGH")))
    assert len(bracket.games) == 32  # 8 games in each of 4 rounds: every place 1-16 is played for
    assert [g.code for g in bracket.games[:8]] == [f"PQF{i}" for i in range(1, 9)]
    assert {g.places for g in bracket.games if g.places[1] - g.places[0] == 1} == {(p, p + 1) for p in range(1, 17, 2)}


def test_winners_and_losers_propagate():
    seeds = {"1A": "ITA", "2A": "GER", "1B": "USA", "2B": "CZE"}
    bracket = elimination_bracket(crossover_pairings(["A", "B"]), seeds=seeds, winners={"SF1": "CZE", "SF2": "USA"})
    assert bracket.game("SF1").label == "SF1: ITA v CZE"
    final = bracket.game("F")
    assert (final.home, final.away, final.winner) == ("CZE", "USA", None)
    assert (bracket.game("P3").home, bracket.game("P3").away) == ("ITA", "GER")
    assert not bracket.complete

    done = elimination_bracket(
        crossover_pairings(["A", "B"]), seeds=seeds, winners={"SF1": "CZE", "SF2": "USA", "F": "USA", "P3": "GER"}
    )
    assert dict(done.ranking) == {1: "USA", 2: "CZE", 3: "GER", 4: "ITA"}
    assert done.complete


def test_it_refuses_a_winner_who_does_not_play_the_game():
    seeds = {"1A": "ITA", "2A": "GER", "1B": "USA", "2B": "CZE"}
    with pytest.raises(SchedulingError) as error:
        elimination_bracket(crossover_pairings(["A", "B"]), seeds=seeds, winners={"SF1": "USA"})
    assert error.value.field == "winners.SF1"


def test_it_refuses_a_winner_before_the_teams_are_known():
    with pytest.raises(SchedulingError, match="not known yet"):
        elimination_bracket(crossover_pairings(["A", "B"]), winners={"F": "USA"})


@pytest.mark.parametrize("pairs", [[], [("1A", "2B"), ("1B", "2A"), ("1C", "2C")]])
def test_it_needs_a_power_of_two_of_first_round_games(pairs):
    with pytest.raises(SchedulingError) as error:
        elimination_bracket(pairs)
    assert error.value.field == "first_round"


def test_seeds_come_from_the_standings_and_a_pending_shootout_is_not_guessed():
    """9.3 G: B and C of pool A still need a shoot-out, so 2A and 3A stay unknown."""
    pool_a = compute_standings(
        ["A1", "A2", "A3", "A4"],
        [
            GameResult(1, "A2", "A3", 1, 1),
            GameResult(2, "A2", "A4", 2, 0),
            GameResult(3, "A3", "A4", 2, 0),
            GameResult(4, "A1", "A2", 3, 0),
            GameResult(5, "A1", "A3", 3, 0),
            GameResult(6, "A1", "A4", 1, 0),
        ],
    )
    pool_b = compute_standings(["B1", "B2"], [GameResult(7, "B1", "B2", 2, 1)])
    seeds = seeds_from_standings({"A": pool_a, "B": pool_b})
    assert seeds == {"1A": "A1", "2A": None, "3A": None, "4A": "A4", "1B": "B1", "2B": "B2"}
    bracket = elimination_bracket(crossover_pairings(["A", "B"]), seeds=seeds)
    assert (bracket.game("SF1").home, bracket.game("SF1").away) == ("A1", "B2")
    assert (bracket.game("SF2").home, bracket.game("SF2").away) == ("B1", None)


def test_a_pairing_with_a_team_of_a_pool_still_playing_is_provisional():
    seeds = {"1A": "ITA", "2A": "GER", "1B": "USA", "2B": "CZE"}
    pairs = crossover_pairings(["A", "B"])  # SF1: 1A v 2B, SF2: 1B v 2A
    bracket = elimination_bracket(pairs, seeds=seeds, provisional={"1B", "2B"})
    assert bracket.game("SF1").provisional and bracket.game("SF2").provisional  # each has a team of pool B
    assert not bracket.game("F").provisional  # no team shown yet: "W SF1" v "W SF2"
    settled = elimination_bracket(pairs, seeds=seeds)
    assert not any(game.provisional for game in settled.games)
    # A seed with no team shown (a pending shoot-out) marks nothing; a game already won is no longer provisional.
    open_seed = elimination_bracket(pairs, seeds={**seeds, "2B": None}, provisional={"2B"})
    assert not open_seed.game("SF1").provisional
    won = elimination_bracket(pairs, seeds=seeds, winners={"SF1": "ITA"}, provisional={"1A"})
    assert not won.game("SF1").provisional


def test_provisional_seeds_are_every_place_of_the_pools_not_finished():
    table = compute_standings(["ITA", "GER", "FRA"], [])
    assert provisional_seeds({"A": table, "B": table}, finished={"A"}) == {"1B", "2B", "3B"}
    assert provisional_seeds({"A": table}, finished={"A"}) == frozenset()
