"""What the services and the selectors both derive from the stored championship.

A championship's ruleset and standings rules, its roster limits, whether it has
begun, and the eligibility of its roster lines: reads, with no writes, so that
``tournaments.selectors`` and ``tournaments.services`` can both use them
without importing each other. Also the small helpers of the services' errors.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db.models import Count, Min, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.eligibility import Category, ChampionshipFacts, EligibilityResult, check_eligibility
from federation.selectors import person_facts, waiver_facts
from tournaments import rosters as roster_rules
from tournaments.errors import CoreInputError
from tournaments.models import (
    Championship,
    Game,
    GameStatus,
    RosterEntry,
    TeamEntry,
)
from tournaments.ruleset import ChampionshipRuleset, RulesetError
from tournaments.standings import PRESETS, StandingsRules


def resolve_now(now: datetime.datetime | None) -> datetime.datetime:
    """Return ``now``, or the current time when the caller passed none."""
    return now if now is not None else timezone.now()


def field_error(field: str, message: str | list[str]) -> ValidationError:
    """Return the services' error: a ``ValidationError`` naming the field (the API's 400, the form's field)."""
    return ValidationError({field: message})


def core_error(exc: CoreInputError) -> ValidationError:
    """A pure core's refusal as the services' error, naming the same field."""
    return field_error(exc.field, exc.message)


def venue_today(championship: Championship, now: datetime.datetime) -> datetime.date:
    """Return the calendar date at the venue at ``now`` (dates of a championship are the venue's dates)."""
    return now.astimezone(championship.venue.zone).date()


def check_ruleset(data) -> ChampionshipRuleset:
    """Return the ruleset the parameters describe; refuse unknown keys and bad values naming them."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise field_error("ruleset", _("the ruleset is an object of parameters (rules-interpretation.md)"))
    try:
        return ChampionshipRuleset.from_dict(data)
    except RulesetError as exc:
        raise field_error(
            "ruleset", _("%(field)s: %(message)s") % {"field": exc.field, "message": exc.message}
        ) from None


def championship_ruleset(championship: Championship) -> ChampionshipRuleset:
    """Return the championship's ruleset (stored parameters over the defaults)."""
    return check_ruleset(championship.ruleset)


def championship_standings_rules(championship: Championship) -> StandingsRules:
    """Return how the championship's pool tables are ordered (9.3 by default).

    The preset chooses the points and tie-breakers; a ``standings`` section in
    the stored ruleset, when there is one, overrides it.
    """
    if isinstance(championship.ruleset, dict) and "standings" in championship.ruleset:
        return championship_ruleset(championship).standings
    return PRESETS[championship.standings_preset]


def roster_limits(championship: Championship) -> roster_rules.RosterLimits:
    """Return the roster limits of the championship's ruleset (R-04, R-06, R-07)."""
    return championship_ruleset(championship).roster


def championship_first_game_start(championship: Championship) -> datetime.datetime | None:
    """Return when the championship's first game starts, or None before the schedule exists."""
    first = (
        Game.objects.filter(championship=championship, start_at__isnull=False)
        .order_by("start_at")
        .values_list("start_at", flat=True)
        .first()
    )
    return first


def championship_has_begun(championship: Championship, *, now: datetime.datetime | None = None) -> bool:
    """Return True once the championship's first game has started (3.1.1 B, R-05).

    A game recorded as final counts as started whatever its scheduled time.
    Without a schedule, the championship begins on its first day at the venue.
    """
    return championship.pk in championships_begun([championship], now=now)


def championships_begun(championships: Sequence[Championship], *, now: datetime.datetime | None = None) -> set[int]:
    """Return the ids of those of ``championships`` that have begun (``championship_has_begun``, 3.1.1 B, R-05),
    in one query whatever their number (lists: the home's rosters). Reads ``championship.venue``."""
    now = resolve_now(now)
    if not championships:
        return set()
    games = {
        row["championship_id"]: row
        for row in Game.objects.filter(championship__in=[c.pk for c in championships])
        .values("championship_id")
        .annotate(
            first=Min("start_at"),
            finals=Count("pk", filter=Q(status=GameStatus.FINAL)),
        )
    }
    begun = set()
    for championship in championships:
        row = games.get(championship.pk)
        if row is not None and row["first"] is not None:
            if row["first"] <= now or row["finals"]:
                begun.add(championship.pk)
        elif venue_today(championship, now) >= championship.start_date:
            begun.add(championship.pk)
    return begun


def championship_facts(entry: TeamEntry) -> ChampionshipFacts:
    championship = entry.championship
    return ChampionshipFacts(
        category=Category(championship.category),
        start_date=championship.start_date,
        end_date=championship.end_date,
        team_country=str(entry.federation.country.code if entry.federation.country else ""),
    )


def roster_eligibility(entry: TeamEntry, roster: Sequence[RosterEntry]) -> dict[int, EligibilityResult]:
    """Return every roster line's eligibility (1.1 B-G, R-01..R-03) with its waivers applied.

    Reads ``person.passports`` and ``person.eligibility_waivers`` of each line:
    prefetch them (see ``selectors.roster_for_entry``).
    """
    facts = championship_facts(entry)
    rules = championship_ruleset(entry.championship).eligibility
    year = entry.championship.start_date.year
    return {
        line.pk: check_eligibility(
            person_facts(line.person),
            facts,
            rules=rules,
            waivers=waiver_facts(line.person, category=entry.championship.category, year=year),
        )
        for line in roster
    }
