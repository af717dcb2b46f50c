"""Rink measurements against rulebook 2.1: size by event level, boards, corners, surface.

Pure Python (no Django). Measurements are in metres; they are compared as
decimals so that 1.01 m typed in a form is 1.01 m, not the float just below.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from common.text import Text, _

from .errors import CoreInputError

WORLD = "world"
INTERNATIONAL = "international"
CONTINENTAL = "continental"
NATIONAL = "national"
LEVELS = (WORLD, INTERNATIONAL, CONTINENTAL, NATIONAL)

# 2.1 A: sport tile, wood, asphalt or cement; any other surface needs the IHTC's approval.
SURFACES = ("sport_tile", "wood", "asphalt", "cement")
OTHER_SURFACE = "other"

ERROR = "error"
ADVICE = "advice"


class RinkError(CoreInputError):
    """Input that cannot be checked; `field` names it."""


@dataclass(frozen=True)
class SizeLimits:
    min_length_m: Decimal
    max_length_m: Decimal
    min_width_m: Decimal
    max_width_m: Decimal
    article: str


# 2.1 B: every rink 40-60 m long and 20-30 m wide; 2.1 C raises the minimum for
# World Championships and international events (50 x 25 m) and continental events (44 x 22 m).
LEVEL_MINIMUMS: dict[str, SizeLimits] = {
    WORLD: SizeLimits(Decimal(50), Decimal(60), Decimal(25), Decimal(30), "2.1 C"),
    INTERNATIONAL: SizeLimits(Decimal(50), Decimal(60), Decimal(25), Decimal(30), "2.1 C"),
    CONTINENTAL: SizeLimits(Decimal(44), Decimal(60), Decimal(22), Decimal(30), "2.1 C"),
    NATIONAL: SizeLimits(Decimal(40), Decimal(60), Decimal(20), Decimal(30), "2.1 B"),
}
IDEAL_LENGTH_M = Decimal(50)  # 2.1 B
IDEAL_WIDTH_M = Decimal(25)
MIN_BOARD_HEIGHT_M = Decimal("1.01")  # 2.1 E: 101-122 cm
MAX_BOARD_HEIGHT_M = Decimal("1.22")
CORNER_RADIUS_M = Decimal(5)  # 2.1 E: "approximately 5 metres"
# Our reading of "approximately": within 1 m of 5 m; beyond that the check advises, it does not refuse.
CORNER_RADIUS_TOLERANCE_M = Decimal(1)
# 2.1 B: "as much as possible" width:length 1:2; we advise beyond 1:1.8 to 1:2.2.
RATIO_TOLERANCE = Decimal("0.2")


@dataclass(frozen=True)
class RinkDimensions:
    length_m: Decimal | float | int
    width_m: Decimal | float | int
    board_height_m: Decimal | float | int | None = None
    corner_radius_m: Decimal | float | int | None = None
    surface: str = "sport_tile"
    surface_approved_by_ihtc: bool = False


@dataclass(frozen=True)
class Violation:
    field: str
    article: str
    message: str
    severity: str = ERROR

    def __str__(self) -> str:
        return self.message


def _metres(field: str, value: Decimal | float | int) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, Decimal | float | int):
        raise RinkError(field, _("a measurement in metres is a number, not %(value)s", value=repr(value)))
    amount = value if isinstance(value, Decimal) else Decimal(str(value))
    if not amount.is_finite() or amount <= 0:
        raise RinkError(field, _("a measurement in metres is above 0, not %(value)s", value=repr(value)))
    return amount


def _m(value: Decimal) -> str:
    return f"{value.normalize():f} m"


def _cm(value: Decimal) -> str:
    return f"{(value * 100).normalize():f} cm"


def check_rink(dimensions: RinkDimensions, *, level: str) -> tuple[Violation, ...]:
    """Return what makes the rink unfit for an event of `level` (2.1 A-C, E, F).

    Errors refuse the rink; advice (the 1:2 ratio, a corner radius far from
    5 m, the notice of 2.1 F) is shown but does not refuse it.
    """
    if level not in LEVEL_MINIMUMS:
        raise RinkError(
            "level", _("must be one of %(choices)s, not %(value)s", choices=", ".join(LEVELS), value=repr(level))
        )
    limits = LEVEL_MINIMUMS[level]
    length = _metres("length_m", dimensions.length_m)
    width = _metres("width_m", dimensions.width_m)
    found: list[Violation] = []

    def error(field: str, article: str, message: Text) -> None:
        found.append(Violation(field, article, _("Rule %(article)s: %(message)s", article=article, message=message)))

    def advice(field: str, article: str, message: Text) -> None:
        said = _("Rule %(article)s: %(message)s", article=article, message=message)
        found.append(Violation(field, article, said, ADVICE))

    where = {
        WORLD: _("a World Championship"),
        INTERNATIONAL: _("an international event"),
        CONTINENTAL: _("a continental event"),
    }
    national = LEVEL_MINIMUMS[NATIONAL]
    sizes = (
        ("length_m", length, limits.min_length_m, limits.max_length_m, national.min_length_m, "long"),
        ("width_m", width, limits.min_width_m, limits.max_width_m, national.min_width_m, "wide"),
    )
    for field, value, low, high, national_low, word in sizes:
        # 2.1 B: 40-60 m by 20-30 m everywhere; 2.1 C: a higher minimum for the higher levels.
        if limits.article == "2.1 C" and national_low <= value < low:
            at_least = (
                _(
                    "%(where)s needs a rink at least %(low)s long, not %(value)s",
                    where=where[level],
                    low=_m(low),
                    value=_m(value),
                )
                if word == "long"
                else _(
                    "%(where)s needs a rink at least %(low)s wide, not %(value)s",
                    where=where[level],
                    low=_m(low),
                    value=_m(value),
                )
            )
            error(field, "2.1 C", at_least)
        elif not national_low <= value <= high:
            low_text = f"{national_low.normalize():f}"
            between = (
                _("a rink is %(low)s to %(high)s long, not %(value)s", low=low_text, high=_m(high), value=_m(value))
                if word == "long"
                else _(
                    "a rink is %(low)s to %(high)s wide, not %(value)s", low=low_text, high=_m(high), value=_m(value)
                )
            )
            error(field, "2.1 B", between)

    if abs(length / width - 2) > RATIO_TOLERANCE:
        advice(
            "width_m",
            "2.1 B",
            _("width to length should be about 1:2 (%(width)s x %(length)s)", width=_m(width), length=_m(length)),
        )

    if dimensions.board_height_m is not None:
        height = _metres("board_height_m", dimensions.board_height_m)
        if not MIN_BOARD_HEIGHT_M <= height <= MAX_BOARD_HEIGHT_M:
            error("board_height_m", "2.1 E", _("boards are 101 to 122 cm high, not %(height)s", height=_cm(height)))

    if dimensions.corner_radius_m is not None:
        radius = _metres("corner_radius_m", dimensions.corner_radius_m)
        if abs(radius - CORNER_RADIUS_M) > CORNER_RADIUS_TOLERANCE_M:
            advice(
                "corner_radius_m",
                "2.1 E",
                _("corners are rounded with a radius of about 5 m, not %(radius)s", radius=_m(radius)),
            )

    if dimensions.surface not in SURFACES:
        if dimensions.surface != OTHER_SURFACE:
            raise RinkError(
                "surface",
                _(
                    "must be one of %(choices)s, not %(value)s",
                    choices=", ".join((*SURFACES, OTHER_SURFACE)),
                    value=repr(dimensions.surface),
                ),
            )
        if not dimensions.surface_approved_by_ihtc:
            error(
                "surface",
                "2.1 A",
                _("a surface other than sport tile, wood, asphalt or cement needs the IHTC's approval"),
            )

    if level == CONTINENTAL and needs_dimension_notice(dimensions):
        advice(
            "length_m",
            "2.1 F",
            _(
                "a rink smaller than 50 x 25 m used for an international competition: "
                "its dimensions go with the information sent to the invited federations"
            ),
        )
    return tuple(found)


def needs_dimension_notice(dimensions: RinkDimensions) -> bool:
    """Return True when the rink is smaller than World Championship size (50 x 25 m).

    2.1 F: such a rink used for an international competition has its dimensions
    included in the information sent to the invited federations.
    """
    length = _metres("length_m", dimensions.length_m)
    width = _metres("width_m", dimensions.width_m)
    return length < IDEAL_LENGTH_M or width < IDEAL_WIDTH_M


def rink_errors(dimensions: RinkDimensions, *, level: str) -> tuple[Violation, ...]:
    """Return only the violations that refuse the rink."""
    return tuple(v for v in check_rink(dimensions, level=level) if v.severity == ERROR)
