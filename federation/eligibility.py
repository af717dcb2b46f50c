"""Player eligibility for a championship category (Rule 1.1 B-G, R-01, R-02, R-03).

A pure core: plain dataclasses in, plain dataclasses out. No Django import and
no wall-clock read; every date is an argument. Models, screens, the API and the
admin build the facts from their records and call ``check_eligibility``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from common.text import Text, _

# Reason codes. A result lists every reason that applies, never only the first.
TOO_YOUNG = "too_young"
TOO_OLD = "too_old"
WRONG_GENDER = "wrong_gender"
NO_PASSPORT = "no_passport"
PASSPORT_EXPIRED = "passport_expired"
WRONG_NATIONALITY = "wrong_nationality"

REASON_CODES = (TOO_YOUNG, TOO_OLD, WRONG_GENDER, NO_PASSPORT, PASSPORT_EXPIRED, WRONG_NATIONALITY)

# the word "normally" in 1.1 B is what allows an IHTC waiver, so only the
# 1.1 B conditions (nationality and passport) can be waived. The age limits of
# 1.1 C-G and the gender of a category have no such word: a waiver for
# them is never applied.
WAIVABLE_CODES = frozenset({NO_PASSPORT, PASSPORT_EXPIRED, WRONG_NATIONALITY})

MALE = "M"
FEMALE = "F"

AGE_REFERENCE_JANUARY_1 = "january_1"
AGE_REFERENCE_FIRST_DAY = "first_day"
PASSPORT_VALID_ON_LAST_DAY = "last_day"
PASSPORT_VALID_ON_FIRST_DAY = "first_day"


class Category(enum.StrEnum):
    JUNIOR_MEN = "junior_men"
    JUNIOR_WOMEN = "junior_women"
    SENIOR_MEN = "senior_men"
    SENIOR_WOMEN = "senior_women"
    MASTERS_MEN = "masters_men"
    MASTERS_WOMEN = "masters_women"

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def article(self) -> str:
        """Return the article of 1.1 that sets this category's age limits."""
        return _ARTICLES[self]

    @property
    def is_women(self) -> bool:
        return self in (Category.JUNIOR_WOMEN, Category.SENIOR_WOMEN, Category.MASTERS_WOMEN)

    @property
    def is_junior(self) -> bool:
        return self in (Category.JUNIOR_MEN, Category.JUNIOR_WOMEN)

    @property
    def is_senior(self) -> bool:
        return self in (Category.SENIOR_MEN, Category.SENIOR_WOMEN)

    @property
    def is_masters(self) -> bool:
        return self in (Category.MASTERS_MEN, Category.MASTERS_WOMEN)

    def min_age(self, rules: EligibilityRules | None = None) -> int:
        """Return the minimum age on the reference date (1.1 C-G, R-01)."""
        rules = rules or DEFAULT_RULES
        if self.is_junior:
            return rules.junior_min_age
        if self.is_senior:
            return rules.senior_min_age
        return rules.masters_min_age

    def max_age(self, rules: EligibilityRules | None = None) -> int | None:
        """Return the highest age allowed on the reference date, or None when there is no maximum."""
        rules = rules or DEFAULT_RULES
        # 1.1 C-D: "not yet 20"; Seniors and Masters (1.1 E-G) have no maximum.
        return rules.junior_max_age if self.is_junior else None

    def age_band(self, rules: EligibilityRules | None = None) -> tuple[int, int | None]:
        """Return (minimum age, maximum age or None), both inclusive."""
        return self.min_age(rules), self.max_age(rules)

    @classmethod
    def choices(cls) -> list[tuple[str, str]]:
        return [(c.value, c.label) for c in cls]


_LABELS = {
    Category.JUNIOR_MEN: _("Junior Men"),
    Category.JUNIOR_WOMEN: _("Junior Women"),
    Category.SENIOR_MEN: _("Senior Men"),
    Category.SENIOR_WOMEN: _("Senior Women"),
    Category.MASTERS_MEN: _("Masters Men"),
    Category.MASTERS_WOMEN: _("Masters Women"),
}

_ARTICLES = {
    Category.JUNIOR_MEN: "1.1 C",
    Category.JUNIOR_WOMEN: "1.1 D",
    Category.SENIOR_WOMEN: "1.1 E",
    Category.SENIOR_MEN: "1.1 F",
    Category.MASTERS_MEN: "1.1 G",
    Category.MASTERS_WOMEN: "1.1 G",
}


@dataclass(frozen=True)
class EligibilityRules:
    """Ruleset parameters of eligibility; the defaults are R-01, R-02 and R-03."""

    # ages on 1 January of the championship year; "first_day" = the championship's first day.
    age_reference: str = AGE_REFERENCE_JANUARY_1
    # Junior 14 <= age < 20, i.e. at most 19.
    junior_min_age: int = 14
    junior_max_age: int = 19
    senior_min_age: int = 15
    masters_min_age: int = 38
    # men's categories admit male players only unless the ruleset says otherwise.
    men_categories_admit_women: bool = False
    # the passport must still be valid on the championship's last day.
    passport_valid_on: str = PASSPORT_VALID_ON_LAST_DAY

    def __post_init__(self) -> None:
        if self.age_reference not in (AGE_REFERENCE_JANUARY_1, AGE_REFERENCE_FIRST_DAY):
            raise ValueError(f"R-01: age_reference must be 'january_1' or 'first_day', not {self.age_reference!r}")
        if self.passport_valid_on not in (PASSPORT_VALID_ON_LAST_DAY, PASSPORT_VALID_ON_FIRST_DAY):
            raise ValueError(
                f"R-03: passport_valid_on must be 'last_day' or 'first_day', not {self.passport_valid_on!r}"
            )
        if self.junior_min_age > self.junior_max_age:
            raise ValueError("R-01: junior_min_age must not exceed junior_max_age")


DEFAULT_RULES = EligibilityRules()


@dataclass(frozen=True)
class PassportFacts:
    issuing_country: str  # ISO 3166-1 alpha-2
    expiry_date: date


@dataclass(frozen=True)
class PersonFacts:
    date_of_birth: date
    gender: str  # "M" / "F"
    nationality: str  # ISO 3166-1 alpha-2
    passports: tuple[PassportFacts, ...] = ()


@dataclass(frozen=True)
class ChampionshipFacts:
    category: Category
    start_date: date
    end_date: date
    team_country: str  # ISO 3166-1 alpha-2 of the entering federation

    def __post_init__(self) -> None:
        if self.end_date < self.start_date:
            raise ValueError("a championship cannot end before it starts")


@dataclass(frozen=True)
class WaiverFacts:
    """An IHTC waiver (R-03): waives the reason with this code, recorded with why and by whom."""

    code: str
    reason: str
    approved_by: str

    def __post_init__(self) -> None:
        if self.code not in REASON_CODES:
            raise ValueError(f"unknown eligibility reason code {self.code!r}")
        # a waiver is recorded with its reason and who granted it.
        if not self.reason.strip():
            raise ValueError("R-03: a waiver needs its reason")
        if not self.approved_by.strip():
            raise ValueError("R-03: a waiver needs who granted it")


@dataclass(frozen=True)
class Reason:
    """Why a person cannot play in a category; ``field`` names the person's fact at fault."""

    code: str
    article: str
    message: str
    field: str = ""


@dataclass(frozen=True)
class EligibilityResult:
    reasons: tuple[Reason, ...]  # reasons not waived
    waived: tuple[tuple[Reason, WaiverFacts], ...] = ()

    @property
    def eligible(self) -> bool:
        return not self.reasons

    @property
    def codes(self) -> frozenset[str]:
        """Return the codes of the reasons not waived."""
        return frozenset(r.code for r in self.reasons)


def age_on(date_of_birth: date, on: date) -> int:
    """Return the age in whole years on the given date.

    A person born on 29 February has their birthday on 1 March in a non-leap
    year: they are still a year younger on 28 February.
    """
    if on < date_of_birth:
        raise ValueError("the date is before the date of birth")
    years = on.year - date_of_birth.year
    # Comparing (month, day) makes 29 February fall after 28 February and
    # before 1 March, so the birthday of a leap-day child is 1 March.
    if (on.month, on.day) < (date_of_birth.month, date_of_birth.day):
        years -= 1
    return years


def reference_date(championship: ChampionshipFacts, rules: EligibilityRules = DEFAULT_RULES) -> date:
    """Return the date on which ages are computed (R-01).

    By default 1 January of the championship year, the year of its first day
    (1.1 E-G, applied to C-D too); with ``age_reference="first_day"`` the
    championship's first day.
    """
    if rules.age_reference == AGE_REFERENCE_FIRST_DAY:
        return championship.start_date
    return date(championship.start_date.year, 1, 1)


def passport_date(championship: ChampionshipFacts, rules: EligibilityRules = DEFAULT_RULES) -> date:
    """Return the date on which the passport must still be valid (R-03: the championship's last day)."""
    if rules.passport_valid_on == PASSPORT_VALID_ON_FIRST_DAY:
        return championship.start_date
    return championship.end_date


_MONTHS = (
    _("January"),
    _("February"),
    _("March"),
    _("April"),
    _("May"),
    _("June"),
    _("July"),
    _("August"),
    _("September"),
    _("October"),
    _("November"),
    _("December"),
)


def _format_date(d: date) -> Text:
    # Not strftime("%B"): the month name must not depend on the process locale.
    return _("%(day)s %(month)s %(year)s", day=d.day, month=_MONTHS[d.month - 1], year=d.year)


def _reference_label(championship: ChampionshipFacts, rules: EligibilityRules) -> Text:
    ref = reference_date(championship, rules)
    if rules.age_reference == AGE_REFERENCE_FIRST_DAY:
        return _("%(date)s, the championship's first day", date=_format_date(ref))
    return _format_date(ref)


def _age_reasons(person: PersonFacts, championship: ChampionshipFacts, rules: EligibilityRules) -> list[Reason]:
    category = championship.category
    ref = reference_date(championship, rules)
    on = _reference_label(championship, rules)
    born = person.date_of_birth.isoformat()
    cite = _("Rule %(article)s / R-01", article=category.article)
    if person.date_of_birth > ref:
        return [
            Reason(
                TOO_YOUNG,
                category.article,
                _(
                    "%(cite)s: %(category)s players must be at least %(age)s on %(on)s; born %(born)s, the player "
                    "is not yet born on that date.",
                    cite=cite,
                    category=category.label,
                    age=category.min_age(rules),
                    on=on,
                    born=born,
                ),
                "date_of_birth",
            )
        ]
    age = age_on(person.date_of_birth, ref)
    low, high = category.age_band(rules)
    if age < low:
        return [
            Reason(
                TOO_YOUNG,
                category.article,
                _(
                    "%(cite)s: %(category)s players must be at least %(low)s on %(on)s; born %(born)s, the player "
                    "is %(age)s.",
                    cite=cite,
                    category=category.label,
                    low=low,
                    on=on,
                    born=born,
                    age=age,
                ),
                "date_of_birth",
            )
        ]
    if high is not None and age > high:
        return [
            Reason(
                TOO_OLD,
                category.article,
                _(
                    "%(cite)s: %(category)s players must not yet be %(limit)s on %(on)s; born %(born)s, the player "
                    "is %(age)s.",
                    cite=cite,
                    category=category.label,
                    limit=high + 1,
                    on=on,
                    born=born,
                    age=age,
                ),
                "date_of_birth",
            )
        ]
    return []


def _gender_reasons(person: PersonFacts, championship: ChampionshipFacts, rules: EligibilityRules) -> list[Reason]:
    category = championship.category
    cite = _("Rule %(article)s / R-02", article=category.article)
    if category.is_women:
        if person.gender != FEMALE:
            return [
                Reason(
                    WRONG_GENDER,
                    category.article,
                    _(
                        "%(cite)s: %(category)s admits female players only; the player is recorded as %(gender)s.",
                        cite=cite,
                        category=category.label,
                        gender=_gender_word(person.gender),
                    ),
                    "gender",
                )
            ]
        return []
    allowed = {MALE, FEMALE} if rules.men_categories_admit_women else {MALE}
    if person.gender not in allowed:
        who = _("male and female players") if rules.men_categories_admit_women else _("male players only")
        return [
            Reason(
                WRONG_GENDER,
                category.article,
                _(
                    "%(cite)s: under this ruleset %(category)s admits %(who)s; the player is recorded as %(gender)s.",
                    cite=cite,
                    category=category.label,
                    who=who,
                    gender=_gender_word(person.gender),
                ),
                "gender",
            )
        ]
    return []


def _gender_word(gender: str) -> str:
    return {MALE: _("male"), FEMALE: _("female")}.get(gender, f"{gender!r}")


def _nationality_and_passport_reasons(
    person: PersonFacts, championship: ChampionshipFacts, rules: EligibilityRules
) -> list[Reason]:
    reasons = []
    team = championship.team_country.upper()
    if person.nationality.upper() != team:
        reasons.append(
            Reason(
                WRONG_NATIONALITY,
                "1.1 B",
                _(
                    "Rule 1.1 B / R-03: players should be of the nationality of their team; the player's "
                    "nationality %(nationality)s differs from %(team)s, the country the team represents.",
                    nationality=person.nationality.upper(),
                    team=team,
                ),
                "nationality",
            )
        )
    valid_on = passport_date(championship, rules)
    of_team = [p for p in person.passports if p.issuing_country.upper() == team]
    last_day = rules.passport_valid_on == PASSPORT_VALID_ON_LAST_DAY
    if not of_team:
        held = sorted({p.issuing_country.upper() for p in person.passports})
        held_text = _(" (passports held: %(held)s)", held=", ".join(held)) if held else ""
        reasons.append(
            Reason(
                NO_PASSPORT,
                "1.1 B",
                _(
                    "Rule 1.1 B / R-03: a player needs a passport of %(team)s, the country the team represents; "
                    "the player has none%(held)s.",
                    team=team,
                    held=held_text,
                ),
                "passports",
            )
        )
    # valid means not expired on the championship's last day; an expiry
    # date on that very day is still valid.
    elif all(p.expiry_date < valid_on for p in of_team):
        latest = max(p.expiry_date for p in of_team)
        reasons.append(
            Reason(
                PASSPORT_EXPIRED,
                "1.1 B",
                _(
                    "Rule 1.1 B / R-03: the player's passport of %(team)s expires on %(expiry)s, before %(day)s, "
                    "the championship's last day, on which it must still be valid.",
                    team=team,
                    expiry=latest.isoformat(),
                    day=valid_on.isoformat(),
                )
                if last_day
                else _(
                    "Rule 1.1 B / R-03: the player's passport of %(team)s expires on %(expiry)s, before %(day)s, "
                    "the championship's first day, on which it must still be valid.",
                    team=team,
                    expiry=latest.isoformat(),
                    day=valid_on.isoformat(),
                ),
                "passports",
            )
        )
    return reasons


def check_eligibility(
    person: PersonFacts,
    championship: ChampionshipFacts,
    *,
    rules: EligibilityRules = DEFAULT_RULES,
    waivers: Iterable[WaiverFacts] = (),
) -> EligibilityResult:
    """Return every reason the person cannot play in the championship's category, and the waived ones.

    How 1.1 B is read: "Players should normally be of the same nationality as
    the team for which they are playing and have a valid passport from the
    country represented." Two separate conditions, each reported on its own:

    - ``wrong_nationality``: the person's recorded nationality is not the
      country of the team's federation. A dual national is recorded with the
      nationality under which they play, or needs a waiver.
    - the passport must be issued by the country the *team* represents, not by
      the player's own country: a valid passport of another country does not
      count. ``no_passport`` when the person holds no passport of that country
      at all; ``passport_expired`` when every passport of that country has
      expired before the day it must be valid on (R-03: the championship's
      last day; expiring on that day is still valid). One valid passport of
      the team's country is enough, whatever other passports the person holds.

    "Normally" allows exceptions (R-03): a waiver moves a reason of 1.1 B with
    its code to ``waived``. Age (1.1 C-G, R-01) and gender (R-02) reasons are
    never waived.
    """
    reasons = [
        *_age_reasons(person, championship, rules),
        *_gender_reasons(person, championship, rules),
        *_nationality_and_passport_reasons(person, championship, rules),
    ]
    by_code: dict[str, WaiverFacts] = {}
    for waiver in waivers:
        if waiver.code in WAIVABLE_CODES:
            by_code.setdefault(waiver.code, waiver)
    kept = tuple(r for r in reasons if r.code not in by_code)
    waived = tuple((r, by_code[r.code]) for r in reasons if r.code in by_code)
    return EligibilityResult(reasons=kept, waived=waived)


def check_eligibility_all_categories(
    person: PersonFacts,
    *,
    start_date: date,
    end_date: date,
    team_country: str,
    rules: EligibilityRules = DEFAULT_RULES,
    waivers: Iterable[WaiverFacts] = (),
) -> dict[Category, EligibilityResult]:
    """Return the person's eligibility in every category for a championship with these dates."""
    waivers = tuple(waivers)
    return {
        category: check_eligibility(
            person,
            ChampionshipFacts(category=category, start_date=start_date, end_date=end_date, team_country=team_country),
            rules=rules,
            waivers=waivers,
        )
        for category in Category
    }
