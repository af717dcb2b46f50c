"""Ruleset: every parameter a federation might set differently (rules-interpretation.md)."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from .errors import ScriptError

# Penalty kinds an event may carry (6.1.1, R-20).
MINOR = "minor"
BENCH_MINOR = "bench_minor"
DOUBLE_MINOR = "double_minor"
MAJOR = "major"
MISCONDUCT = "misconduct"
GAME_MISCONDUCT = "game_misconduct"
MATCH = "match"
GAME_EJECTION = "game_ejection"
GROSS_MISCONDUCT = "gross_misconduct"
PENALTY_SHOT = "penalty_shot"

PENALTY_KINDS = (
    MINOR,
    BENCH_MINOR,
    DOUBLE_MINOR,
    MAJOR,
    MISCONDUCT,
    GAME_MISCONDUCT,
    MATCH,
    GAME_EJECTION,
    GROSS_MISCONDUCT,
    PENALTY_SHOT,
)

ROUND_ROBIN = "round_robin"
ELIMINATION = "elimination"
GAME_TYPES = (ROUND_ROBIN, ELIMINATION)
DIFFERENTIAL_CRITERIA = frozenset({"captain", "fewest_short", "last_entered"})


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Parameters of the game; defaults are the decisions of rules-interpretation.md.

    Times are tenths of a second (R-10).
    """

    period_length: int = 12000  # 1.2 A, R-11: 20 min
    periods: int = 2  # 1.2 A
    overtime_length: int = 6000  # 1.3 B, R-11: 10 min sudden death
    shootout_shooters: int = 3  # 1.3 E, R-40
    timeouts_per_period: int = 1  # 1.2 B, 5.5.2 B, R-12
    two_minute_mark: int = 1200  # 4.4, R-13: announced with 2:00 left (18:00 / 8:00 elapsed)
    floor_players: int = 4  # 4 floor players + goalkeeper
    min_floor_players: int = 2  # 6.2.1 A: never below 2 floor players + goalkeeper
    # 6.2.1 B ends the first minor on a goal; other rule sets end the one with the least time left.
    goal_ends_penalty: str = "first"
    minor_length: int = 1200  # 6.1.2 A
    major_length: int = 3000  # 6.1.3 A
    misconduct_length: int = 6000  # 6.1.4 A
    match_length: int = 3000  # 6.1.6 A
    # R-21 minutes charged in the records.
    minutes_minor: int = 2
    minutes_bench_minor: int = 2
    minutes_double_minor: int = 4
    minutes_major: int = 5
    minutes_misconduct: int = 10
    minutes_game_misconduct: int = 10  # 6.1.5 C
    minutes_match: int = 5  # 6.1.6 C
    # 6.1.7 A-C, R-29
    calls_for_misconduct: int = 3
    stick_infractions_for_ejection: int = 3
    # 6.4.6 C, 6.4.8 B: in the last two minutes of regulation or overtime these become a penalty shot.
    penalty_shot_in_last_two_minutes: frozenset[str] = frozenset({"illegal_substitution", "displacing_goal_post"})
    # which penalties are left as the differential when whole penalties cancel one for one: the captain's
    # choice where the sheet records one, else those that leave the team fewest players short, then the last entered.
    differential_order: tuple[str, ...] = ("captain", "fewest_short", "last_entered")

    def __post_init__(self) -> None:
        if self.goal_ends_penalty not in ("first", "least_time_left"):
            raise ScriptError(
                "R-23: goal_ends_penalty is 'first' (6.2.1 B) or 'least_time_left'", field="goal_ends_penalty"
            )
        if not set(self.differential_order) <= DIFFERENTIAL_CRITERIA:
            raise ScriptError(
                f"R-61: differential_order lists {', '.join(sorted(DIFFERENTIAL_CRITERIA))}", field="differential_order"
            )
        if not 0 < self.min_floor_players <= self.floor_players:
            raise ScriptError("R-22: min_floor_players must be between 1 and floor_players", field="min_floor_players")

    @property
    def max_running(self) -> int:
        """Return how many time penalties may run at once before the next one is stacked (6.2.2 A)."""
        return self.floor_players - self.min_floor_players

    def minutes_for(self, kind: str) -> int:
        """Return the minutes a penalty of this kind charges in the records (R-21)."""
        charged = _MINUTES.get(kind)
        return 0 if charged is None else charged(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> "Ruleset":
        """Build a ruleset from a script's ``ruleset`` mapping, refusing unknown keys.

        The values are JSON, passed on as the fields' values unchecked (hence ``Any``).
        """
        if not data:
            return cls()
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ScriptError(f"R-10: unknown ruleset parameter(s) {', '.join(unknown)}", field="ruleset")
        values = dict(data)
        if "penalty_shot_in_last_two_minutes" in values:
            values["penalty_shot_in_last_two_minutes"] = frozenset(values["penalty_shot_in_last_two_minutes"])
        if "differential_order" in values:
            values["differential_order"] = tuple(values["differential_order"])
        return cls(**values)


_MINUTES: dict[str, Callable[[Ruleset], int]] = {
    MINOR: lambda r: r.minutes_minor,
    BENCH_MINOR: lambda r: r.minutes_bench_minor,
    DOUBLE_MINOR: lambda r: r.minutes_double_minor,
    MAJOR: lambda r: r.minutes_major,
    MISCONDUCT: lambda r: r.minutes_misconduct,
    GAME_MISCONDUCT: lambda r: r.minutes_game_misconduct,
    MATCH: lambda r: r.minutes_match,
}

DEFAULT_RULESET = Ruleset()
