"""Equipment checks (Rule 3.2.2, 3.2.4 D, 3.2.5, 3.2.6, 3.2.8, R-09).

A pure core: measurements and facts in, violations out. No Django import and
no wall-clock read. Each measured limit is data (a ``Limit``); the checks walk
the tables, so a limit is stated once, with its article.

Units: the rulebook gives every limit in metric with an inch figure in
brackets, and the two disagree (1.57 m is 61.8", not 63"; 9 cm is 3.54", not
3.5"). The metric figure comes first and is the one checked here; all
measurements are in millimetres.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, fields
from datetime import date

from common.text import Text, _

from .eligibility import age_on


@dataclass(frozen=True)
class Limit:
    """A measured limit: ``field`` of a measurements dataclass, inclusive bounds in millimetres."""

    field: str
    article: str
    label: Text  # what is measured, said in the reader's language
    min_mm: float | None = None
    max_mm: float | None = None


@dataclass(frozen=True)
class Violation:
    field: str
    article: str
    message: Text  # a sentence said in the reader's language (portal.i18n.say); its English as before
    limit_mm: float | None = None
    measured_mm: float | None = None


# 3.2.2 C: the length limits hold for every stick; the width limits are those
# of the floor players' stick. The curvature of the blade is not restricted,
# so it is not measured.
STICK_LIMITS = (
    Limit("length_mm", "3.2.2 C", _("stick length from the heel to the end of the shaft"), max_mm=1570),
    Limit("blade_length_mm", "3.2.2 C", _("blade length from the heel to the end of the blade"), max_mm=320),
    # "a minimum of 5 cm and may not exceed 9 cm in width at any point": the
    # narrowest point is held to the minimum, the widest to the maximum, and
    # the heel, being a point of the blade, to both.
    Limit("blade_min_width_mm", "3.2.2 C", _("blade width at its narrowest point"), min_mm=50),
    Limit("blade_max_width_mm", "3.2.2 C", _("blade width at its widest point"), max_mm=90),
    Limit("heel_width_mm", "3.2.2 C", _("blade width at the heel"), min_mm=50, max_mm=90),
)

# 3.2.2 D replaces the blade limits for the goalkeeper's stick; the shaft
# limit of C ("No stick shall exceed 1.57 m") still applies. D sets no
# minimum width.
GOALKEEPER_STICK_LIMITS = (
    Limit("length_mm", "3.2.2 C", _("stick length from the heel to the end of the shaft"), max_mm=1570),
    Limit(
        "blade_length_mm", "3.2.2 D", _("goalkeeper's blade length from the heel to the end of the blade"), max_mm=390
    ),
    Limit(
        "blade_max_width_mm", "3.2.2 D", _("goalkeeper's blade width at its widest point except the heel"), max_mm=130
    ),
    Limit("heel_width_mm", "3.2.2 D", _("goalkeeper's blade width at the heel"), max_mm=140),
)

GOALKEEPER_EQUIPMENT_LIMITS = (
    # 3.2.5 C: the padding on the back of either glove (the blocker, usually).
    Limit(
        "glove_padding_width_mm", "3.2.5 C", _("width of the padding on the back of the goalkeeper's glove"), max_mm=200
    ),
    Limit(
        "glove_padding_length_mm",
        "3.2.5 C",
        _("length of the padding on the back of the goalkeeper's glove"),
        max_mm=400,
    ),
    # 3.2.5 E: "when new ... as measured on the goalkeeper". The portal checks
    # the width measured on the goalkeeper; the pads must also be unaltered.
    Limit("leg_pad_width_mm", "3.2.5 E", _("extreme width of the goalkeeper's leg pad"), max_mm=300),
)

# 3.2.8 A note: a soft covering at least 12.5 mm thick, or the elbow pad is dangerous equipment.
ELBOW_PAD_LIMITS = (
    Limit("soft_covering_mm", "3.2.8 A", _("thickness of the elbow pad's soft protective covering"), min_mm=12.5),
)


def _positive_or_none(obj: Measurements) -> None:
    for f in fields(obj):
        value = getattr(obj, f.name)
        if f.name.endswith("_mm") and value is not None and value <= 0:
            raise ValueError(f"{f.name}: a measurement must be a positive number of millimetres, not {value}")


@dataclass(frozen=True)
class StickMeasurements:
    """A stick as measured, in millimetres; None = not measured.

    ``goalkeeper`` selects the limits: 3.2.2 D for a goalkeeper's stick, 3.2.2 C
    for a floor player's.
    """

    length_mm: float | None = None  # heel to the end of the shaft
    blade_length_mm: float | None = None  # heel to the end of the blade
    blade_min_width_mm: float | None = None  # narrowest point of the blade
    blade_max_width_mm: float | None = None  # widest point of the blade (goalkeeper: except the heel)
    heel_width_mm: float | None = None
    goalkeeper: bool = False

    def __post_init__(self) -> None:
        _positive_or_none(self)


@dataclass(frozen=True)
class GoalkeeperEquipmentMeasurements:
    """A goalkeeper's equipment as measured, in millimetres; None = not measured."""

    glove_padding_width_mm: float | None = None
    glove_padding_length_mm: float | None = None
    leg_pad_width_mm: float | None = None
    leg_pads_altered: bool = False  # 3.2.5 E: pads "shall not be altered in any way"
    abdominal_apron_down_thighs: bool = False  # 3.2.5 D

    def __post_init__(self) -> None:
        _positive_or_none(self)


@dataclass(frozen=True)
class ElbowPadMeasurements:
    soft_covering_mm: float | None = None

    def __post_init__(self) -> None:
        _positive_or_none(self)


# What `check_limits` reads a `Limit.field` from.
Measurements = StickMeasurements | GoalkeeperEquipmentMeasurements | ElbowPadMeasurements


def _mm(value: float) -> str:
    return f"{value:g}"


def check_limits(measurements: Measurements, limits: Iterable[Limit]) -> tuple[Violation, ...]:
    """Return a violation for every measured value outside its limit; unmeasured values pass."""
    violations = []
    for limit in limits:
        measured: float | None = getattr(measurements, limit.field)
        if measured is None:
            continue
        if limit.max_mm is not None and measured > limit.max_mm:
            violations.append(
                Violation(
                    limit.field,
                    limit.article,
                    _(
                        "Rule %(article)s: %(what)s %(measured)s mm exceeds the maximum of %(limit)s mm.",
                        article=limit.article,
                        what=limit.label,
                        measured=_mm(measured),
                        limit=_mm(limit.max_mm),
                    ),
                    limit_mm=limit.max_mm,
                    measured_mm=measured,
                )
            )
        elif limit.min_mm is not None and measured < limit.min_mm:
            violations.append(
                Violation(
                    limit.field,
                    limit.article,
                    _(
                        "Rule %(article)s: %(what)s %(measured)s mm is below the minimum of %(limit)s mm.",
                        article=limit.article,
                        what=limit.label,
                        measured=_mm(measured),
                        limit=_mm(limit.min_mm),
                    ),
                    limit_mm=limit.min_mm,
                    measured_mm=measured,
                )
            )
    return tuple(violations)


def check_stick(m: StickMeasurements) -> tuple[Violation, ...]:
    """Return every way the stick breaks 3.2.2 C (floor player) or 3.2.2 C-D (goalkeeper)."""
    return check_limits(m, GOALKEEPER_STICK_LIMITS if m.goalkeeper else STICK_LIMITS)


def check_goalkeeper_equipment(m: GoalkeeperEquipmentMeasurements) -> tuple[Violation, ...]:
    """Return every way the goalkeeper's equipment breaks 3.2.5 C-E."""
    violations = list(check_limits(m, GOALKEEPER_EQUIPMENT_LIMITS))
    if m.leg_pads_altered:
        violations.append(
            Violation("leg_pads_altered", "3.2.5 E", _("Rule 3.2.5 E: goalkeeper's leg pads shall not be altered."))
        )
    if m.abdominal_apron_down_thighs:
        violations.append(
            Violation(
                "abdominal_apron_down_thighs",
                "3.2.5 D",
                _(
                    "Rule 3.2.5 D: abdominal aprons extending down the thighs or the outside of the pants are "
                    "prohibited."
                ),
            )
        )
    return tuple(violations)


def check_elbow_pads(m: ElbowPadMeasurements) -> tuple[Violation, ...]:
    """Return a violation when the elbow pads' soft covering is thinner than 3.2.8 A allows."""
    return check_limits(m, ELBOW_PAD_LIMITS)


class FaceProtection(enum.StrEnum):
    FULL_FACE = "full_face"
    VISOR = "visor"
    NONE = "none"

    @property
    def label(self) -> Text:
        return {
            "full_face": _("full-face protection"),
            "visor": _("a visor"),
            "none": _("no face protection"),
        }[self.value]


# R-09 / 3.2.4 D: "under the age of nineteen" -> full face. The rule then says
# "over 19 years old" -> visor, leaving the 19th year unsaid; R-09 gives it the visor.
FULL_FACE_UNDER_AGE = 19


def required_face_protection(*, date_of_birth: date, game_date: date) -> FaceProtection:
    """Return the least face protection the player must wear in this game (3.2.4 D, R-09)."""
    if age_on(date_of_birth, game_date) < FULL_FACE_UNDER_AGE:
        return FaceProtection.FULL_FACE
    return FaceProtection.VISOR


def check_face_protection(*, date_of_birth: date, game_date: date, worn: FaceProtection) -> tuple[Violation, ...]:
    """Return a violation when the face protection worn is less than 3.2.4 D / R-09 requires.

    Full-face protection satisfies the visor requirement too.
    """
    worn = FaceProtection(worn)
    required = required_face_protection(date_of_birth=date_of_birth, game_date=game_date)
    if worn == FaceProtection.FULL_FACE or worn == required:
        return ()
    age = age_on(date_of_birth, game_date)
    if required == FaceProtection.FULL_FACE:
        message = _(
            "Rule 3.2.4 D / R-09: players under %(age_limit)s on the game date must wear full-face protection "
            "attached to the helmet; born %(born)s, the player is %(age)s on %(game_date)s and wears %(worn)s.",
            age_limit=FULL_FACE_UNDER_AGE,
            born=date_of_birth.isoformat(),
            age=age,
            game_date=game_date.isoformat(),
            worn=worn.label,
        )
    else:
        message = _(
            "Rule 3.2.4 D / R-09: players %(age_limit)s and over must wear at least a helmet with a visor; "
            "the player is %(age)s on %(game_date)s and wears %(worn)s.",
            age_limit=FULL_FACE_UNDER_AGE,
            age=age,
            game_date=game_date.isoformat(),
            worn=worn.label,
        )
    return (Violation("face_protection", "3.2.4 D", message),)


CERTIFICATION_BODIES = ("HECC", "CSA", "CE")

EQUIPMENT_KINDS = {
    "helmet": _("helmet"),
    "face_protection": _("face protection"),
    "goalkeeper_mask": _("goalkeeper's face mask"),
}


def _not_certified(kind: str, given: str) -> Text:
    """3.2.6 A's refusal for ``kind``, one sentence each (the item's gender agrees in French and Spanish)."""
    if kind == "helmet":
        return _(
            "Rule 3.2.6 A: a helmet must be HECC, CSA or CE approved; certifications given: %(given)s.", given=given
        )
    if kind == "face_protection":
        return _(
            "Rule 3.2.6 A: a face protection must be HECC, CSA or CE approved; certifications given: %(given)s.",
            given=given,
        )
    return _(
        "Rule 3.2.6 A: a goalkeeper's face mask must be HECC, CSA or CE approved; certifications given: %(given)s.",
        given=given,
    )


def check_certification(*, kind: str, certifications: Iterable[str]) -> tuple[Violation, ...]:
    """Return a violation unless the item carries an approval of one of HECC, CSA or CE (3.2.6 A).

    ``kind`` is "helmet", "face_protection" or "goalkeeper_mask"; certification
    names are compared without case or surrounding spaces.
    """
    if kind not in EQUIPMENT_KINDS:
        raise ValueError(f"unknown equipment kind {kind!r}; expected one of {', '.join(EQUIPMENT_KINDS)}")
    given = [c.strip() for c in certifications if c and c.strip()]
    if any(c.upper() in CERTIFICATION_BODIES for c in given):
        return ()
    given_text: str = ", ".join(given) if given else _("none")
    return (Violation("certifications", "3.2.6 A", _not_certified(kind, given_text)),)


def check_physician_device(*, ihtc_permission_date: date | None, game_date: date) -> tuple[Violation, ...]:
    """Return a violation unless a physician-prescribed protective device had IHTC permission before the game.

    3.2.8 C: "prior to playing". Dates carry no time, so a permission dated on
    the game day counts as given before the game.
    """
    if ihtc_permission_date is None:
        return (
            Violation(
                "ihtc_permission_date",
                "3.2.8 C",
                _(
                    "Rule 3.2.8 C: a protective device prescribed by a physician needs the permission of the IHTC "
                    "before playing; none is recorded."
                ),
            ),
        )
    if ihtc_permission_date > game_date:
        return (
            Violation(
                "ihtc_permission_date",
                "3.2.8 C",
                _(
                    "Rule 3.2.8 C: a protective device prescribed by a physician needs the permission of the IHTC "
                    "before playing; it was given on %(given_on)s, after the game on %(game_date)s.",
                    given_on=ihtc_permission_date.isoformat(),
                    game_date=game_date.isoformat(),
                ),
            ),
        )
    return ()
