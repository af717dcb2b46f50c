"""A championship's ruleset: every parameter a federation might set differently.

The defaults are the decisions of rules-interpretation.md (R-nn). Pure Python:
a championship stores ``ruleset.to_dict()`` (JSON) and rebuilds it with
``ChampionshipRuleset.from_dict(data)``, which refuses unknown keys and bad
values with a `RulesetError` naming the key (``"roster.max_skaters"``).
Missing keys take their defaults.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from common.text import Text, _
from federation.eligibility import (
    AGE_REFERENCE_FIRST_DAY,
    AGE_REFERENCE_JANUARY_1,
    PASSPORT_VALID_ON_FIRST_DAY,
    PASSPORT_VALID_ON_LAST_DAY,
    EligibilityRules,
)

from .errors import CoreInputError
from .rosters import RosterLimits
from .standings import PRESETS, SHOOTOUT, TIEBREAKER_NAMES, PointsScheme, StandingsRules


class RulesetError(CoreInputError):
    """A ruleset value that cannot be used; `field` is the dotted key."""


@dataclass(frozen=True)
class GameRules:
    """Game time parameters (1.2, 1.3; R-10 to R-13, R-23, R-40)."""

    period_minutes: int = 20  # 1.2 A, R-11
    periods: int = 2  # 1.2 A
    halftime_minutes: int = 5  # 1.2 A
    overtime_minutes: int = 10  # 1.3 B: sudden death, elimination games only
    overtime_rest_minutes: int = 3  # 1.3 B
    shootout_shooters: int = 3  # 1.3 E, R-40
    timeouts_per_period: int = 1  # 1.2 B, R-12
    goal_ends_penalty: str = "first"  # 6.2.1 B, R-23; other rule sets: "least_time_left"
    # which penalties are left as the differential: the captain's choice, fewest players short, last entered.
    differential_order: tuple[str, ...] = ("captain", "fewest_short", "last_entered")
    report_clock: str = "elapsed"  # the official report shows elapsed time; or "countdown"

    def expected_minutes(self, *, elimination: bool) -> int:
        """Return the least real time a game takes: its periods and half-time rests (1.2 A), and for a game
        played to a winner the rest and the overtime period (1.3 B).

        Time is stopped at every stoppage (R-10), so a game takes longer; two games starting closer than this
        surely overlap (an official cannot do both, ``games.services.check_official_free``).
        """
        minutes = self.periods * self.period_minutes + (self.periods - 1) * self.halftime_minutes
        if elimination:
            minutes += self.overtime_rest_minutes + self.overtime_minutes
        return minutes

    def engine_parameters(self) -> dict[str, Any]:
        """Return the game engine's ruleset parameters (tenths of a second, R-10)."""
        return {
            "period_length": self.period_minutes * 600,
            "periods": self.periods,
            "overtime_length": self.overtime_minutes * 600,
            "shootout_shooters": self.shootout_shooters,
            "timeouts_per_period": self.timeouts_per_period,
            "goal_ends_penalty": self.goal_ends_penalty,
            "differential_order": list(self.differential_order),
        }


@dataclass(frozen=True)
class ProtestRules:
    """Protest deadlines and fee (9.1; R-51, R-52)."""

    administrative_confirm_minutes: int = 90  # 9.1 B: within 1 h 30 min of the game's end
    ruling_minutes: int = 180  # 9.1 A, D: within 3 h of the incident
    federation_minutes: int = 180  # 9.1 C: within 3 h of the incident
    # The opposing team's written answer, from the filing (9.1 A: it is informed). The rules set no time; 3 h,
    # the time 9.1 A, C, D give the protesting side to write, lets the opponent answer on the same footing.
    answer_minutes: int = 180
    fee_amount: Decimal = Decimal("200")  # 9.1 A, R-52
    fee_currency: str = "USD"

    @property
    def administrative_confirm_window(self) -> timedelta:
        """Return the time after the game's end to confirm an administrative protest (9.1 B)."""
        return timedelta(minutes=self.administrative_confirm_minutes)

    @property
    def ruling_window(self) -> timedelta:
        """Return the time after the incident to protest a referee's ruling (9.1 A, D)."""
        return timedelta(minutes=self.ruling_minutes)

    @property
    def federation_window(self) -> timedelta:
        """Return the time after the incident for a federation's protest (9.1 C)."""
        return timedelta(minutes=self.federation_minutes)

    @property
    def answer_window(self) -> timedelta:
        """Return the time after the filing for the opposing team's written answer (9.1 A; R-51 parameter)."""
        return timedelta(minutes=self.answer_minutes)


@dataclass(frozen=True)
class AppealRules:
    """Appeal deadlines (9.2, R-54): parameters with no default."""

    general_assembly_days: int | None = None
    congress_days: int | None = None


@dataclass(frozen=True)
class ChampionshipRuleset:
    roster: RosterLimits = field(default_factory=RosterLimits)
    standings: StandingsRules = field(default_factory=StandingsRules)
    eligibility: EligibilityRules = field(default_factory=EligibilityRules)
    game: GameRules = field(default_factory=GameRules)
    protests: ProtestRules = field(default_factory=ProtestRules)
    appeals: AppealRules = field(default_factory=AppealRules)

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """Return the ruleset as JSON-ready data, every parameter spelled out."""
        data: dict[str, dict[str, Any]] = {}
        for name in _SECTIONS:
            section = getattr(self, name)
            if name == "standings":
                data[name] = {
                    "points": {f.name: getattr(section.points, f.name) for f in dataclasses.fields(PointsScheme)},
                    "tiebreakers": list(section.tiebreakers),
                    "restart_after_partial_split": section.restart_after_partial_split,
                }
                continue
            data[name] = {f.name: _dump(getattr(section, f.name)) for f in dataclasses.fields(section)}
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> ChampionshipRuleset:
        """Build a ruleset from stored data, refusing unknown keys and bad values."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RulesetError("ruleset", _("must be a mapping of sections"))
        _refuse_unknown("", data, _SECTIONS)
        values: dict[str, Any] = {}
        for name, (section_cls, refs) in _SECTIONS.items():
            section = data.get(name, {})
            if name == "standings":
                values[name] = _standings(section)
                continue
            if not isinstance(section, Mapping):
                raise RulesetError(name, _("must be a mapping of parameters"))
            values[name] = _section(name, section_cls, refs, section)
        return cls(**values)


def _dump(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, tuple | frozenset):
        return list(value)
    return value


def _refuse_unknown(prefix: str, data: Mapping[str, Any], known: Collection[str]) -> None:
    unknown = sorted(str(k) for k in data if k not in known)
    if unknown:
        raise RulesetError(f"{prefix}{unknown[0]}", _("unknown parameter; known are %(known)s", known=", ".join(known)))


# --- value checks: each returns the clean value or raises RulesetError ---

Check = Callable[[str, str, Any], Any]


def _count(key: str, ref: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RulesetError(key, _("%(ref)s: must be a whole number >= 0, not %(value)s", ref=ref, value=repr(value)))
    return value


def _positive(key: str, ref: str, value: Any) -> int:
    count = _count(key, ref, value)
    if count == 0:
        raise RulesetError(key, _("%(ref)s: must be at least 1, not 0", ref=ref))
    return count


def _points(key: str, ref: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesetError(key, _("%(ref)s: points are a whole number, not %(value)s", ref=ref, value=repr(value)))
    return value


def _optional(check: Check) -> Check:
    def optional(key: str, ref: str, value: Any) -> Any:
        return None if value is None else check(key, ref, value)

    return optional


def _flag(key: str, ref: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise RulesetError(key, _("%(ref)s: must be true or false, not %(value)s", ref=ref, value=repr(value)))
    return value


def _choice(*options: str) -> Check:
    def choice(key: str, ref: str, value: Any) -> str:
        if not isinstance(value, str) or value not in options:
            raise RulesetError(
                key,
                _(
                    "%(ref)s: must be one of %(options)s, not %(value)s",
                    ref=ref,
                    options=", ".join(options),
                    value=repr(value),
                ),
            )
        return value

    return choice


def _order(*options: str) -> Check:
    def order(key: str, ref: str, value: Any) -> tuple[str, ...]:
        if (
            not isinstance(value, list | tuple)
            or not value
            or any(item not in options for item in value)
            or len(set(value)) != len(value)
        ):
            raise RulesetError(
                key,
                _(
                    "%(ref)s: must list some of %(options)s once each, not %(value)s",
                    ref=ref,
                    options=", ".join(options),
                    value=repr(value),
                ),
            )
        return tuple(value)

    return order


def _amount_message(ref: str, value: Any) -> Text:
    return _('%(ref)s: must be an amount such as "200" or "200.00", not %(value)s', ref=ref, value=repr(value))


def _amount(key: str, ref: str, value: Any) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | str | Decimal):
        raise RulesetError(key, _amount_message(ref, value))
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        raise RulesetError(key, _amount_message(ref, value)) from None
    if not amount.is_finite() or amount < 0:
        raise RulesetError(key, _("%(ref)s: must be an amount >= 0, not %(value)s", ref=ref, value=repr(value)))
    return amount


def _currency(key: str, ref: str, value: Any) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[A-Z]{3}", value):
        raise RulesetError(
            key,
            _("%(ref)s: must be a three-letter ISO 4217 currency code, not %(value)s", ref=ref, value=repr(value)),
        )
    return value


def _by_default(default: Any) -> Check:
    if isinstance(default, bool):
        return _flag
    if isinstance(default, int):
        return _count
    if isinstance(default, Decimal):
        return _amount
    if default is None:
        return _optional(_count)
    if isinstance(default, str):
        return _choice(default)
    raise TypeError(f"no check for {default!r}")


# Section -> (dataclass, {parameter: (reference cited in errors, check)}). A parameter without an
# entry is checked by the type of its default and cites the section's reference ("*").
_SECTIONS: dict[str, tuple[type, dict[str, tuple[str, Check]]]] = {
    "roster": (
        RosterLimits,
        {
            "*": ("R-04", _count),
            "max_alternates": ("R-06", _count),
            "max_lineup_skaters": ("R-07", _count),
            "max_lineup_goalkeepers": ("R-07", _count),
            "max_bench_officials": ("R-07", _count),
        },
    ),
    "standings": (StandingsRules, {}),
    "eligibility": (
        EligibilityRules,
        {
            "*": ("R-01", _count),
            "age_reference": ("R-01", _choice(AGE_REFERENCE_JANUARY_1, AGE_REFERENCE_FIRST_DAY)),
            "men_categories_admit_women": ("R-02", _flag),
            "passport_valid_on": ("R-03", _choice(PASSPORT_VALID_ON_LAST_DAY, PASSPORT_VALID_ON_FIRST_DAY)),
        },
    ),
    "game": (
        GameRules,
        {
            "*": ("R-11", _positive),
            "halftime_minutes": ("R-11", _count),
            "overtime_minutes": ("R-11", _count),
            "overtime_rest_minutes": ("R-11", _count),
            "shootout_shooters": ("R-40", _positive),
            "timeouts_per_period": ("R-12", _count),
            "goal_ends_penalty": ("R-23", _choice("first", "least_time_left")),
            "differential_order": ("R-61", _order("captain", "fewest_short", "last_entered")),
            "report_clock": ("R-10", _choice("elapsed", "countdown")),
        },
    ),
    "protests": (
        ProtestRules,
        {
            "*": ("R-51", _positive),
            "fee_amount": ("R-52", _amount),
            "fee_currency": ("R-52", _currency),
        },
    ),
    "appeals": (AppealRules, {"*": ("R-54", _optional(_positive))}),
}


def _section(name: str, section_cls: type, refs: dict[str, tuple[str, Check]], data: Mapping[str, Any]) -> Any:
    _refuse_unknown(f"{name}.", data, [f.name for f in dataclasses.fields(section_cls)])
    defaults = section_cls()
    section_ref, section_check = refs.get("*", ("", None))
    values = {}
    for f in dataclasses.fields(section_cls):
        default = getattr(defaults, f.name)
        if f.name not in data:
            values[f.name] = default
            continue
        if f.name in refs:
            ref, check = refs[f.name]
        elif section_check is not None and (default is None or type(default) is int):
            ref, check = section_ref, section_check
        else:
            ref, check = section_ref, _by_default(default)
        values[f.name] = check(f"{name}.{f.name}", ref, data[f.name])
    _check_consistency(name, values)
    try:
        return section_cls(**values)
    except ValueError as error:
        raise RulesetError(name, str(error)) from None


def _check_consistency(name: str, values: Mapping[str, Any]) -> None:
    pairs = {
        "roster": [("min_skaters", "max_skaters", "R-04"), ("min_goalkeepers", "max_goalkeepers", "R-04")],
        "eligibility": [("junior_min_age", "junior_max_age", "R-01")],
    }
    for low, high, ref in pairs.get(name, []):
        if values[low] > values[high]:
            raise RulesetError(
                f"{name}.{low}",
                _(
                    "%(ref)s: %(low)s (%(low_value)s) must not exceed %(high)s (%(high_value)s)",
                    ref=ref,
                    low=low,
                    low_value=values[low],
                    high=high,
                    high_value=values[high],
                ),
            )


_POINTS_REF = "9.3 A / R-41"


def _standings(data: Any) -> StandingsRules:
    if isinstance(data, str):
        data = {"preset": data}
    if not isinstance(data, Mapping):
        raise RulesetError("standings", _("must be a mapping of parameters or a preset name"))
    _refuse_unknown("standings.", data, ("preset", "points", "tiebreakers", "restart_after_partial_split"))
    base = StandingsRules()
    if "preset" in data:
        if data["preset"] not in PRESETS:
            raise RulesetError(
                "standings.preset",
                _(
                    "must be one of %(options)s, not %(value)s",
                    options=", ".join(PRESETS),
                    value=repr(data["preset"]),
                ),
            )
        base = PRESETS[data["preset"]]
    points = base.points
    if "points" in data:
        raw = data["points"]
        if not isinstance(raw, Mapping):
            raise RulesetError("standings.points", _("%(ref)s: must be a mapping of points", ref=_POINTS_REF))
        known = [f.name for f in dataclasses.fields(PointsScheme)]
        _refuse_unknown("standings.points.", raw, known)
        values = {}
        for key, value in raw.items():
            check = _optional(_points) if getattr(PointsScheme(), key) is None else _points
            values[key] = check(f"standings.points.{key}", _POINTS_REF, value)
        points = dataclasses.replace(points, **values)
    tiebreakers = base.tiebreakers
    if "tiebreakers" in data:
        tiebreakers = _tiebreakers(data["tiebreakers"])
    restart = base.restart_after_partial_split
    if "restart_after_partial_split" in data:
        restart = _flag("standings.restart_after_partial_split", "R-42", data["restart_after_partial_split"])
    return StandingsRules(points=points, tiebreakers=tiebreakers, restart_after_partial_split=restart)


def _tiebreakers(value: Any) -> tuple[str, ...]:
    key = "standings.tiebreakers"
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise RulesetError(key, _("R-42: must be a list of tie-breakers, not %(value)s", value=repr(value)))
    for name in value:
        if name not in TIEBREAKER_NAMES:
            raise RulesetError(
                key,
                _(
                    "R-42: unknown tie-breaker %(name)s; known are %(known)s",
                    name=repr(name),
                    known=", ".join(TIEBREAKER_NAMES),
                ),
            )
    if len(set(value)) != len(value):
        raise RulesetError(key, _("R-42: a tie-breaker is listed twice"))
    if SHOOTOUT in value and value[-1] != SHOOTOUT:
        raise RulesetError(key, _("9.3 G: the shoot-out comes after every other tie-breaker"))
    return tuple(value)


DEFAULT_RULESET = ChampionshipRuleset()
