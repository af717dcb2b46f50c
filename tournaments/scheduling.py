"""Championship schedule: round-robin pairings, their placement on rinks and times,
and the elimination bracket filled from the pool standings.

Pure Python (no Django, no clock): days, times and rinks are arguments. The
home team is named first in every pairing (5.4 D: it chooses the goal to
defend; 3.2.10 A: it changes jerseys on a colour conflict).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, time
from types import MappingProxyType
from typing import Literal, overload

from .errors import CoreInputError
from .standings import Standings


class SchedulingError(CoreInputError):
    """A schedule or bracket that cannot be made; `field` names what is missing or wrong."""


# --- round robin ---


def _home_first(teams: Sequence[str], a: int, b: int) -> tuple[str, str]:
    """Return the pair (home, away) so that every team is at home in half its games (within one).

    The first m teams (m odd) form a regular tournament: team i is at home
    against the (m - 1) / 2 teams that follow it around the circle. With an
    even number of teams the last one is at home against the odd-numbered.
    """
    n = len(teams)
    m = n if n % 2 else n - 1
    if a > b:
        a, b = b, a
    if b == m:  # the extra team of an even pool
        return (teams[b], teams[a]) if a % 2 else (teams[a], teams[b])
    return (teams[a], teams[b]) if 1 <= (b - a) % m <= (m - 1) // 2 else (teams[b], teams[a])


def round_robin_pairings(teams: Sequence[str]) -> list[list[tuple[str, str]]]:
    """Return the rounds of a single round robin, each a list of (home, away) pairs.

    Circle method: every team meets every other once, plays at most once a
    round, and (with an odd number of teams) rests one round.
    """
    teams = list(teams)
    if len(set(teams)) != len(teams):
        raise SchedulingError("teams", "a team is listed twice")
    if len(teams) < 2:
        return []
    index = list(range(len(teams)))
    if len(index) % 2:
        index.append(-1)  # the bye
    n = len(index)
    rounds = []
    for _ in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = index[i], index[n - 1 - i]
            if a >= 0 and b >= 0:
                pairs.append(_home_first(teams, a, b))
        rounds.append(pairs)
        index = [index[0], index[-1], *index[1:-1]]
    return rounds


@dataclass(frozen=True)
class ScheduledGame:
    pool: str
    round: int
    home: str
    away: str
    day: date
    time: time
    rink: str
    slot: int  # index of (day, time) in the schedule, 0-based


def schedule_round_robin(
    pools: Mapping[str, Sequence[str]],
    *,
    days: Sequence[date],
    rinks: Sequence[str],
    slot_times: Sequence[time],
    rest_slots: int = 1,
) -> list[ScheduledGame]:
    """Place every pool's round robin on the days, rinks and start times given.

    No team plays twice at the same time and no rink holds two games at once;
    rounds are played in order. When possible a team also rests `rest_slots`
    start times between two games on the same day; when that cannot fit the
    rest is dropped rather than the game. Raise SchedulingError naming what is
    missing when the games cannot fit at all.
    """
    for name, values in (("days", days), ("rinks", rinks), ("slot_times", slot_times)):
        if not values:
            raise SchedulingError(name, "at least one is needed to place games")
        if len(set(values)) != len(values):
            raise SchedulingError(name, "a value is listed twice")
    if rest_slots < 0:
        raise SchedulingError("rest_slots", "must be 0 or more")
    seen: dict[str, str] = {}
    for pool, teams in pools.items():
        for team in teams:
            if team in seen:
                raise SchedulingError("pools", f"{team} is in pool {seen[team]} and pool {pool}")
            seen[team] = pool

    slots = [(day, start) for day in sorted(days) for start in sorted(slot_times)]
    rounds_by_pool = {pool: round_robin_pairings(teams) for pool, teams in pools.items()}
    games = [
        (pool, number, home, away)
        for number in range(max((len(r) for r in rounds_by_pool.values()), default=0))
        for pool, rounds in rounds_by_pool.items()
        if number < len(rounds)
        for home, away in rounds[number]
    ]
    capacity = len(slots) * len(rinks)
    if len(games) > capacity:
        raise SchedulingError(
            "slot_times",
            f"{len(games)} games need {len(games)} rink slots; {len(days)} days x {len(slot_times)} start times x "
            f"{len(rinks)} rinks give {capacity}: add days, rinks or start times",
        )
    most_games = max((len(teams) - 1 for teams in pools.values()), default=0)
    if most_games > len(slots):
        raise SchedulingError(
            "slot_times",
            f"a team plays {most_games} games but there are only {len(slots)} start times: add days or start times",
        )

    placed = _place(games, slots, rinks, rest_slots) if rest_slots else None
    if placed is None:
        placed = _place(games, slots, rinks, 0)
    if isinstance(placed, tuple):
        pool, number, home, away = placed
        raise SchedulingError(
            "slot_times",
            f"pool {pool}, round {number + 1}: no start time is left for {home} v {away} after their earlier games; "
            "add days, rinks or start times",
        )
    return placed


# A game to place: (pool, round number from 0, home, away).
_Pairing = tuple[str, int, str, str]


@overload
def _place(
    games: Sequence[_Pairing], slots: Sequence[tuple[date, time]], rinks: Sequence[str], rest_slots: Literal[0]
) -> list[ScheduledGame] | _Pairing: ...


@overload
def _place(
    games: Sequence[_Pairing], slots: Sequence[tuple[date, time]], rinks: Sequence[str], rest_slots: int
) -> list[ScheduledGame] | _Pairing | None: ...


def _place(
    games: Sequence[_Pairing], slots: Sequence[tuple[date, time]], rinks: Sequence[str], rest_slots: int
) -> list[ScheduledGame] | _Pairing | None:
    """Greedy earliest fit; return the games placed, or the first game that did not fit.

    With `rest_slots` > 0, return None when a rest cannot be kept, so the caller can
    try again without it.
    """
    last: dict[str, int] = {}
    used: list[int] = [0] * len(slots)
    result: list[ScheduledGame] = []
    for pool, number, home, away in games:
        earliest = max(last.get(home, -1), last.get(away, -1)) + 1
        chosen = None
        for s in range(earliest, len(slots)):
            if used[s] >= len(rinks):
                continue
            if rest_slots and any(
                team in last and slots[last[team]][0] == slots[s][0] and s - last[team] <= rest_slots
                for team in (home, away)
            ):
                continue
            chosen = s
            break
        if chosen is None:
            return None if rest_slots else (pool, number, home, away)
        day, start = slots[chosen]
        result.append(ScheduledGame(pool, number + 1, home, away, day, start, rinks[used[chosen]], chosen))
        used[chosen] += 1
        last[home] = last[away] = chosen
    return sorted(result, key=lambda g: (g.slot, g.rink))


# --- elimination phase ---

_STAGES = {2: ("final", "F"), 4: ("semi_final", "SF"), 8: ("quarter_final", "QF"), 16: ("pre_quarter_final", "PQF")}
ALL = "all"
BRONZE = "bronze"
NONE = "none"


@dataclass(frozen=True)
class BracketGame:
    """One elimination game. Sources are seed labels ("1A") or "W QF1" / "L QF1"."""

    code: str
    stage: str
    round: int
    places: tuple[int, int]  # the places this game's range decides, e.g. (1, 8) for a quarter-final
    home_source: str
    away_source: str
    home: str | None = None
    away: str | None = None
    winner: str | None = None
    # A team of this pairing comes from a pool that still has games to play: the pairing may change.
    provisional: bool = False

    @property
    def loser(self) -> str | None:
        if self.winner is None:
            return None
        return self.away if self.winner == self.home else self.home

    @property
    def label(self) -> str:
        return f"{self.code}: {self.home or self.home_source} v {self.away or self.away_source}"


@dataclass(frozen=True)
class Bracket:
    games: tuple[BracketGame, ...]
    ranking: Mapping[int, str]  # final places decided so far

    def game(self, code: str) -> BracketGame:
        for game in self.games:
            if game.code == code:
                return game
        raise KeyError(code)

    @property
    def complete(self) -> bool:
        return all(game.winner is not None for game in self.games)


def _code(lo: int, size: int, i: int) -> tuple[str, str]:
    stage, prefix = _STAGES.get(size, ("round", f"R{size}-"))
    if lo == 1:
        return stage, prefix if size == 2 else f"{prefix}{i}"
    if size == 2:
        return "placement", f"P{lo}"
    return "placement", f"P{lo}-{lo + size - 1} {prefix}{i}"


def elimination_bracket(
    first_round: Sequence[tuple[str, str]],
    *,
    seeds: Mapping[str, str | None] = MappingProxyType({}),
    winners: Mapping[str, str] = MappingProxyType({}),
    placement: str = ALL,
    first_place: int = 1,
    provisional: Collection[str] = frozenset(),
) -> Bracket:
    """Return the elimination bracket (1.3 B) with the teams known so far.

    `first_round` pairs seed labels, home first ("1A", "2B"); its length is a
    power of two (8 pairs: pre-quarter-finals, 4: quarter-finals...). Winners of
    consecutive games meet in the next round. With ``placement="all"`` the
    losers play on for every place; ``"bronze"`` adds only the third-place
    game. `seeds` fills labels from the standings; `winners` maps a game's
    code to its winner, and winners and losers propagate. `provisional` names
    the seed labels whose pool is still playing (``provisional_seeds``): a game
    not yet won that shows a team from one of them is marked provisional.
    """
    pairs = list(first_round)
    size = 2 * len(pairs)
    if not pairs or size & (size - 1):
        raise SchedulingError("first_round", f"needs 1, 2, 4, 8... pairings, not {len(pairs)}")
    labels = [label for pair in pairs for label in pair]
    if len(set(labels)) != len(labels):
        raise SchedulingError("first_round", "a seed is paired twice")
    if placement not in (ALL, BRONZE, NONE):
        raise SchedulingError("placement", f"must be {ALL}, {BRONZE} or {NONE}, not {placement!r}")

    specs: list[BracketGame] = []

    def build(lo: int, entrants: list[str], depth: int) -> None:
        if len(entrants) < 2:
            return
        codes = []
        for i in range(len(entrants) // 2):
            stage, code = _code(lo, len(entrants), i + 1)
            codes.append(code)
            specs.append(
                BracketGame(code, stage, depth, (lo, lo + len(entrants) - 1), entrants[2 * i], entrants[2 * i + 1])
            )
        half = len(entrants) // 2
        build(lo, [f"W {code}" for code in codes], depth + 1)
        if placement == ALL or (placement == BRONZE and lo == 1 and len(entrants) == 4):
            build(lo + half, [f"L {code}" for code in codes], depth + 1)

    build(first_place, labels, 1)

    unknown = set(winners) - {spec.code for spec in specs}
    if unknown:
        raise SchedulingError(f"winners.{sorted(unknown)[0]}", "no such game in this bracket")
    resolved: dict[str, BracketGame] = {}

    def team(source: str) -> str | None:
        if source.startswith(("W ", "L ")):
            game = resolved[source[2:]]
            return game.winner if source[0] == "W" else game.loser
        return seeds.get(source)

    for spec in specs:
        home, away = team(spec.home_source), team(spec.away_source)
        winner = winners.get(spec.code)
        if winner is not None:
            if home is None or away is None:
                raise SchedulingError(f"winners.{spec.code}", f"{spec.label}: the teams are not known yet")
            if winner not in (home, away):
                raise SchedulingError(f"winners.{spec.code}", f"{winner} does not play {spec.code} ({home} v {away})")
        unsettled = (spec.home_source in provisional and home is not None) or (
            spec.away_source in provisional and away is not None
        )
        resolved[spec.code] = replace(
            spec, home=home, away=away, winner=winner, provisional=winner is None and unsettled
        )

    ranking: dict[int, str] = {}
    for game in resolved.values():
        lo, hi = game.places
        # A game with a winner has both teams (checked above), so it has a loser too.
        if hi - lo == 1 and game.winner is not None and game.loser is not None:
            ranking[lo], ranking[hi] = game.winner, game.loser
    games = sorted(resolved.values(), key=lambda g: (g.round, g.places[0]))
    return Bracket(games=tuple(games), ranking=MappingProxyType(dict(sorted(ranking.items()))))


def crossover_pairings(pools: Sequence[str], *, qualifiers: int = 2) -> list[tuple[str, str]]:
    """Return first-round pairings that cross pools two by two (A with B, C with D...).

    Within each pair of pools the seeds 1X, 1Y, 2X, 2Y... are placed as in a
    seeded bracket, so 1X meets the lowest qualifier of Y (1A v 2B, 1B v 2A).
    The pairs' games are then interleaved so that the two winners of a pair of
    pools are in opposite halves of the bracket (1A and 1B meet in the final
    at the earliest).
    """
    if len(pools) % 2 and len(pools) != 1:
        raise SchedulingError("pools", "crossing needs an even number of pools")
    if qualifiers < 1 or qualifiers & (qualifiers - 1):
        raise SchedulingError("qualifiers", f"must be 1, 2, 4, 8..., not {qualifiers}")
    groups = [tuple(pools[i : i + 2]) for i in range(0, len(pools), 2)]
    by_group = []
    for group in groups:
        seeded = [f"{rank}{pool}" for rank in range(1, qualifiers + 1) for pool in group]
        by_group.append([(seeded[a], seeded[b]) for a, b in _seeded_pairs(len(seeded))])
    return [pairs[j] for j in range(len(by_group[0])) for pairs in by_group]


def _seeded_pairs(n: int) -> list[tuple[int, int]]:
    """Return first-round index pairs of a seeded bracket of n (a power of two): 1 v n, then the halves."""
    order = [0]
    while len(order) < n:
        size = 2 * len(order)
        order = [x for seed in order for x in (seed, size - 1 - seed)]
    return [(order[i], order[i + 1]) for i in range(0, n, 2)]


def seeds_from_standings(standings: Mapping[str, Standings]) -> dict[str, str | None]:
    """Return the seed labels ("1A", "2A"...) of each pool's table.

    A place that a pending shoot-out still has to decide (9.3 G) stays None,
    so the bracket never guesses; a disqualified team fills no seed (8.1 C).
    """
    seeds: dict[str, str | None] = {}
    for pool, table in standings.items():
        for place, row in enumerate(table.rows, start=1):
            if row.disqualified:
                continue
            seeds[f"{place}{pool}"] = None if row.needs_shootout else row.team
    return seeds


def provisional_seeds(standings: Mapping[str, Standings], finished: Collection[str]) -> frozenset[str]:
    """Return the seed labels of the pools not in `finished`: their tables can still change, so can the pairings."""
    return frozenset(
        f"{place}{pool}"
        for pool, table in standings.items()
        if pool not in finished
        for place in range(1, len(table.rows) + 1)
    )
