"""State changes of championships, entries, rosters, schedule and results.

Every function has the same shape: check (the rules live in the pure cores
``rosters``, ``rinks``, ``scheduling``, ``standings``, ``ruleset`` and
``federation.eligibility``), then ``transaction.atomic()`` with the row that
two people could change locked, then write. Errors are Django
``ValidationError({field: "Rule …: …"})``; the API turns them into a 400
naming the field, the admin and forms show them beside the field.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Iterable, Sequence

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from djmoney.money import Money
from moneyed import CurrencyDoesNotExist
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from accounts.access import can_edit_federation, is_international_staff
from accounts.models import Role, RoleAssignment, User
from federation.eligibility import Category, ChampionshipFacts, EligibilityResult, check_eligibility
from federation.models import Federation, FederationLevel, Person
from federation.selectors import person_facts, waiver_facts
from portal.services import audited_create, audited_delete, audited_save, check_transition

from . import rinks as rink_rules
from . import rosters as roster_rules
from . import scheduling
from . import statistics as stats_rules
from .errors import CoreInputError
from .models import (
    ENTRY_TRANSITIONS,
    GAME_TRANSITIONS,
    Championship,
    DecidedIn,
    Disqualification,
    EntryStatus,
    Game,
    GameStatus,
    GoalkeeperRecord,
    GoalRecord,
    NumberChangeApproval,
    PenaltyRecord,
    Phase,
    PhaseKind,
    Pool,
    PoolTeam,
    Position,
    Rink,
    RosterEntry,
    StandingsPreset,
    StandingsShootout,
    StandingsShootoutPlace,
    TeamEntry,
    Venue,
)
from .ruleset import ChampionshipRuleset, RulesetError
from .scheduling import SchedulingError, schedule_round_robin
from .standings import PRESETS, StandingsRules, forfeit_disqualifies

# A game blocks its teams and its rink for this long: two 20-minute periods
# (1.2 A) with their stoppages and the 5-minute half-time, and the change-over between games.
GAME_SLOT = datetime.timedelta(minutes=90)

# the minutes a penalty can charge in the records.
PENALTY_MINUTES = frozenset({0, 2, 4, 5, 10})


# --- small helpers ------------------------------------------------------------------------------------------------


def _now(now: datetime.datetime | None) -> datetime.datetime:
    return now if now is not None else timezone.now()


def _error(field: str, message: str | list[str]) -> ValidationError:
    return ValidationError({field: message})


def _core_error(exc: CoreInputError) -> ValidationError:
    """A pure core's refusal as the services' error, naming the same field."""
    return _error(exc.field, exc.message)


def _venue_today(championship: Championship, now: datetime.datetime) -> datetime.date:
    """Return the calendar date at the venue at ``now`` (dates of a championship are the venue's dates)."""
    return now.astimezone(championship.venue.zone).date()


# --- rulesets -----------------------------------------------------------------------------------------------------


def check_ruleset(data) -> ChampionshipRuleset:
    """Return the ruleset the parameters describe; refuse unknown keys and bad values naming them."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise _error("ruleset", "the ruleset is an object of parameters (rules-interpretation.md)")
    try:
        return ChampionshipRuleset.from_dict(data)
    except RulesetError as exc:
        raise _error("ruleset", f"{exc.field}: {exc.message}") from None


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
    now = _now(now)
    first = championship_first_game_start(championship)
    if first is not None:
        return first <= now or Game.objects.filter(championship=championship, status=GameStatus.FINAL).exists()
    return _venue_today(championship, now) >= championship.start_date


def check_ruleset_editable(championship: Championship, *, now: datetime.datetime | None = None) -> None:
    """Refuse a ruleset change once the championship has begun: the parameters it is played under stay fixed."""
    if championship.pk and championship_has_begun(championship, now=now):
        raise _error(
            "ruleset",
            "Rules interpretation (ruleset parameters): the ruleset is frozen once the championship has begun "
            "(its first game has started, 3.1.1 B).",
        )


def check_standings_preset(preset: str) -> None:
    """Refuse a standings preset the standings do not know (9.3 and the presets of rules-interpretation.md)."""
    if preset not in PRESETS:
        raise _error("standings_preset", f"unknown preset {preset!r}; one of {', '.join(PRESETS)}")


def championship_update_ruleset(
    *,
    championship: Championship,
    ruleset: dict,
    standings_preset: str | None = None,
    by: User,
    now: datetime.datetime | None = None,
) -> Championship:
    """Change the championship's ruleset parameters and standings preset before it begins."""
    check_can_direct(by, championship)
    check_ruleset(ruleset)
    if standings_preset is not None:
        check_standings_preset(standings_preset)
    with transaction.atomic():
        championship = (
            Championship.objects.select_for_update(of=("self",)).select_related("venue").get(pk=championship.pk)
        )
        check_ruleset_editable(championship, now=now)
        championship.ruleset = ruleset
        fields = ["ruleset"]
        if standings_preset is not None:
            championship.standings_preset = standings_preset
            fields.append("standings_preset")
        audited_save(championship, by, update_fields=fields)
    return championship


# --- championship set-up ------------------------------------------------------------------------------------------

# What a championship's set-up is made of; the ruleset and its preset change through ``championship_update_ruleset``.
CHAMPIONSHIP_SETUP_FIELDS = (
    "name",
    "category",
    "level",
    "start_date",
    "end_date",
    "venue",
    "entry_closing_date",
    "entry_fee",
    "sanctioning_body",
)
CHAMPIONSHIP_FIELDS = (*CHAMPIONSHIP_SETUP_FIELDS, "standings_preset", "ruleset")


def money(amount, currency: str, *, field: str = "currency") -> Money:
    """Return the amount in the currency named by its ISO 4217 code (any case); refuse a code that names none."""
    code = (currency or "").strip().upper()
    try:
        return Money(amount, code)
    except CurrencyDoesNotExist:
        raise _error(field, f"{currency!r} is not an ISO 4217 currency code (e.g. USD, EUR).") from None


def check_championship_setup(
    *,
    championship: Championship | None,
    changes: dict,
    by: User,
    now: datetime.datetime | None = None,
) -> None:
    """Refuse a set-up (``championship`` None: a new one) that ``by`` may not make or the rules do not allow.

    The championship's directors change it, and only to a sanctioning body
    they direct; the ruleset parameters must be valid; the ruleset and its
    standings preset are frozen once the championship has begun (3.1.1 B).
    The model's own validation (dates, 1.1 A closing date) is the caller's
    ``full_clean``, which a form runs itself.
    """
    unknown = sorted(set(changes) - set(CHAMPIONSHIP_FIELDS))
    if unknown:
        raise ValidationError(dict.fromkeys(unknown, "This field is not part of a championship's set-up."))
    if championship is not None:
        check_can_direct(by, championship)
    body = changes.get("sanctioning_body") or (championship.sanctioning_body if championship else None)
    if body is None:
        raise _error("sanctioning_body", "name the federation that sanctions the championship")
    # The (new) sanctioning body's staff or international staff direct the championship.
    check_can_sanction(by, body)
    if "ruleset" in changes:
        check_ruleset(changes["ruleset"])
    if "standings_preset" in changes:
        check_standings_preset(changes["standings_preset"])
    if championship is not None and _ruleset_changes(championship, changes):
        check_ruleset_editable(championship, now=now)


def _ruleset_changes(championship: Championship, changes: dict) -> dict:
    """The ruleset parameters and preset among ``changes`` that differ from the championship's."""
    return {
        name: changes[name]
        for name in ("ruleset", "standings_preset")
        if name in changes and changes[name] != getattr(championship, name)
    }


def championship_create(
    *,
    name: str,
    category: str,
    level: str,
    start_date: datetime.date,
    end_date: datetime.date,
    venue: Venue,
    entry_closing_date: datetime.date,
    entry_fee: Money,
    sanctioning_body: Federation,
    standings_preset: str = StandingsPreset.FIRS_2017,
    ruleset: dict | None = None,
    by: User,
) -> Championship:
    """Set up a championship, for staff of its sanctioning body or international staff."""
    fields = {
        "name": name,
        "category": category,
        "level": level,
        "start_date": start_date,
        "end_date": end_date,
        "venue": venue,
        "entry_closing_date": entry_closing_date,
        "entry_fee": entry_fee,
        "sanctioning_body": sanctioning_body,
        "standings_preset": standings_preset,
        "ruleset": ruleset or {},
    }
    check_championship_setup(championship=None, changes=fields, by=by)
    championship = Championship(**fields)
    championship.full_clean()
    with transaction.atomic():
        audited_save(championship, by)
    return championship


def championship_update(
    *,
    championship: Championship,
    by: User,
    now: datetime.datetime | None = None,
    **changes,
) -> Championship:
    """Change a championship's set-up (``changes``: any of CHAMPIONSHIP_FIELDS), for its directors.

    A changed ruleset or standings preset goes through ``championship_update_ruleset``,
    which refuses it once the championship has begun; nothing is saved then.
    """
    check_can_direct(by, championship)
    with transaction.atomic():
        # Two directors editing at once: the second works on the first's result.
        stored = Championship.objects.select_for_update(of=("self",)).select_related("venue").get(pk=championship.pk)
        check_championship_setup(championship=stored, changes=changes, by=by, now=now)
        ruleset_changes = _ruleset_changes(stored, changes)
        setup = [name for name in CHAMPIONSHIP_SETUP_FIELDS if name in changes]
        for name in setup:
            setattr(stored, name, changes[name])
        stored.full_clean(exclude=["ruleset", "standings_preset"])
        if setup:
            # The money field is stored as two columns: amount and currency.
            columns = [*setup, "entry_fee_currency"] if "entry_fee" in setup else setup
            audited_save(stored, by, update_fields=columns)
        if ruleset_changes:
            stored = championship_update_ruleset(
                championship=stored,
                ruleset=ruleset_changes.get("ruleset", stored.ruleset),
                standings_preset=ruleset_changes.get("standings_preset"),
                by=by,
                now=now,
            )
    return stored


# --- permissions ---------------------------------------------------------------------------------------------------


def check_can_sanction(user: User, federation: Federation) -> None:
    """Tournament direction: staff of the sanctioning body, or international staff."""
    if not (is_international_staff(user) or can_edit_federation(user, federation)):
        raise PermissionDenied("Only staff of the sanctioning body or international staff may do this.")


def check_can_direct(user: User, championship: Championship) -> None:
    """Tournament direction: staff of the championship's sanctioning body, or international staff."""
    check_can_sanction(user, championship.sanctioning_body)


def can_manage_entry(user: User, entry: TeamEntry) -> bool:
    """Return True for the entry's team managers, staff of its federation and international staff."""
    if not getattr(user, "is_authenticated", False):
        return False
    if can_edit_federation(user, entry.federation):
        return True
    return entry.managers.filter(pk=user.pk).exists()


def check_can_manage_entry(user: User, entry: TeamEntry) -> None:
    if not can_manage_entry(user, entry):
        raise PermissionDenied("Only the team's managers or staff of its federation may change this entry.")


# --- entries -------------------------------------------------------------------------------------------------------


def check_federation_may_enter(federation: Federation) -> None:
    """1.1 A: the competitions are open to the national teams of national federations affiliated with FIRS."""
    if federation.level != FederationLevel.NATIONAL:
        raise _error("federation", "Rule 1.1 A: only a national federation enters a national team.")
    if not federation.firs_affiliated:
        raise _error("federation", f"Rule 1.1 A: {federation} is not affiliated with FIRS.")
    if not federation.good_standing:
        raise _error("federation", f"Rule 1.1 A: {federation} is not in good standing.")


def check_entries_open(championship: Championship, *, now: datetime.datetime) -> None:
    """1.1 A: an entry is confirmed prior to the closing date set by the IHTC (dates at the venue)."""
    today = _venue_today(championship, now)
    if today >= championship.entry_closing_date:
        raise _error(
            "championship",
            f"Rule 1.1 A: entries closed on {championship.entry_closing_date:%Y-%m-%d}; "
            "an entry must be made prior to the closing date.",
        )


def entry_create(
    *,
    championship: Championship,
    federation: Federation,
    name: str = "",
    by: User,
    now: datetime.datetime | None = None,
) -> TeamEntry:
    """Enter the federation's national team; the fee due is the championship's entry fee (1.1 A)."""
    now = _now(now)
    if not can_edit_federation(by, federation):
        raise PermissionDenied("Only staff of the federation or international staff may enter its team.")
    check_federation_may_enter(federation)
    check_entries_open(championship, now=now)
    name = (name or federation.short_name or federation.name).strip()
    with transaction.atomic():
        # Two staff entering at once must not both find the name free.
        Championship.objects.select_for_update().filter(pk=championship.pk).exists()
        if TeamEntry.objects.filter(championship=championship, federation=federation).exists():
            raise _error("federation", f"Rule 1.1 A: {federation} has already entered its national team.")
        if TeamEntry.objects.filter(championship=championship, name=name).exists():
            raise _error("name", f"another team is already entered as {name!r}")
        return audited_create(
            TeamEntry,
            by,
            championship=championship,
            federation=federation,
            name=name,
            fee_due=championship.entry_fee,
            entered_at=now,
            entered_by=by,
        )


def entry_record_fee_paid(
    *,
    entry: TeamEntry,
    amount: Money,
    paid_at: datetime.datetime | None = None,
    by: User,
) -> TeamEntry:
    """Record the entry fee as paid, which confirms the entry (1.1 A)."""
    check_can_direct(by, entry.championship)
    paid_at = _now(paid_at)
    with transaction.atomic():
        entry = TeamEntry.objects.select_for_update().get(pk=entry.pk)
        if entry.fee_paid:
            raise _error("amount", "Rule 1.1 A: the entry fee is already recorded as paid.")
        if amount.currency != entry.fee_due.currency:
            raise _error(
                "amount", f"Rule 1.1 A: the entry fee is due in {entry.fee_due.currency}, not {amount.currency}."
            )
        if amount < entry.fee_due:
            raise _error("amount", f"Rule 1.1 A: the entry fee is {entry.fee_due}; {amount} does not cover it.")
        # 1.1 A: paying the fee confirms an entry that is still only entered.
        check_transition(
            ENTRY_TRANSITIONS, entry.status, EntryStatus.CONFIRMED, subject="an entry", article="Rule 1.1 A"
        )
        entry.fee_paid = True
        entry.fee_paid_amount = amount
        entry.fee_paid_at = paid_at
        entry.status = EntryStatus.CONFIRMED
        audited_save(entry, by, update_fields=["fee_paid", "fee_paid_amount", "fee_paid_at", "status"])
    return entry


def entry_set_managers(*, entry: TeamEntry, managers: Iterable[User], by: User) -> TeamEntry:
    """Name the team's managers; only staff of the entering federation (or international staff) may."""
    if not can_edit_federation(by, entry.federation):
        raise PermissionDenied("Only staff of the team's federation or international staff name its managers.")
    managers = list(managers)
    with transaction.atomic():
        entry = TeamEntry.objects.select_for_update().get(pk=entry.pk)
        _check_entry_open(entry, field="managers")
        entry.managers.set(managers)
        # The team manager role of the access layer, scoped to the federation.
        for user in managers:
            RoleAssignment.objects.get_or_create(user=user, role=Role.TEAM_MANAGER, federation=entry.federation)
    return entry


def entry_withdraw(*, entry: TeamEntry, by: User) -> TeamEntry:
    """Withdraw the entry before it plays."""
    if not can_edit_federation(by, entry.federation):
        raise PermissionDenied("Only staff of the team's federation or international staff withdraw its entry.")
    with transaction.atomic():
        entry = TeamEntry.objects.select_for_update().get(pk=entry.pk)
        check_transition(ENTRY_TRANSITIONS, entry.status, EntryStatus.WITHDRAWN, subject="an entry")
        if Game.objects.filter(Q(home=entry) | Q(away=entry), status=GameStatus.FINAL).exists():
            raise _error("status", "the team has played: a team that stops playing forfeits its games (8.1).")
        entry.status = EntryStatus.WITHDRAWN
        audited_save(entry, by, update_fields=["status"])
    return entry


# --- rosters -------------------------------------------------------------------------------------------------------


def _lines(roster: Sequence[RosterEntry]) -> list[roster_rules.RosterLine]:
    return [
        roster_rules.RosterLine(
            person_id=r.person_id, number=r.number, position=r.position, captain=r.captain, alternate=r.alternate
        )
        for r in roster
    ]


# The pure core names the fields of its RosterLine; the forms and the API name theirs.
_PROBLEM_FIELDS = {"person_id": "person", "lines": "roster"}


def _problems_error(
    problems: Iterable[roster_rules.RosterProblem], *, default_field: str = "roster"
) -> ValidationError:
    errors: dict[str, list[str]] = {}
    for problem in problems:
        field = _PROBLEM_FIELDS.get(problem.field, problem.field) or default_field
        errors.setdefault(field, []).append(problem.message)
    return ValidationError(errors)


def check_roster_lines(
    lines: Sequence[roster_rules.RosterLine], *, limits: roster_rules.RosterLimits, complete: bool
) -> None:
    """Refuse a roster that breaks R-04..R-06; before registration (``complete=False``) only the maxima apply."""
    problems = roster_rules.check_roster(lines, limits=limits, complete=complete)
    if problems:
        raise _problems_error(problems)


def check_roster_change(
    entry: TeamEntry, *, kind: str, approved: bool = False, registered: bool = True, now: datetime.datetime
) -> None:
    """R-05: no addition or substitution once the first game has started (3.1.1 B); a number change
    after registration only with the IHTC's written approval (3.2.9 D)."""
    problem = roster_rules.check_roster_change(
        first_game_started=championship_has_begun(entry.championship, now=now),
        kind=kind,
        number_change_approved=approved,
        registered=registered,
    )
    if problem is not None:
        raise _problems_error([problem], default_field="number" if kind == "number_change" else "roster")


def check_jersey_number(number: str) -> str:
    """3.2.9 C: 1-99 without a leading zero; return the number as typed, stripped."""
    number = (number or "").strip()
    problem = roster_rules.check_jersey_number(number)
    if problem is not None:
        raise _error("number", problem.message)
    return number


def check_position(position: str) -> None:
    """3.1.1 A: a roster names players and goalkeepers."""
    if position not in Position.values:
        raise _error("position", f"Rule 3.1.1 A: one of {', '.join(Position.values)}")


def _check_entry_open(entry: TeamEntry, *, field: str = "entry") -> None:
    """A withdrawn or disqualified entry (8.1 C) changes no more."""
    if entry.status in (EntryStatus.WITHDRAWN, EntryStatus.DISQUALIFIED):
        raise _error(field, f"the entry is {entry.get_status_display().lower()}")


def _check_not_on_other_roster(entry: TeamEntry, person: Person) -> None:
    other = (
        RosterEntry.objects.filter(entry__championship_id=entry.championship_id, person=person)
        .exclude(entry=entry)
        .select_related("entry")
        .first()
    )
    if other is not None:
        raise _error(
            "person", f"Rule 3.1.1 A: {person} is already on the roster of {other.entry} in this championship."
        )


def check_roster_add(
    *,
    entry: TeamEntry,
    roster: Sequence[RosterEntry],
    person: Person,
    number: str,
    position: str,
    captain: bool,
    alternate: bool,
    now: datetime.datetime,
) -> RosterEntry:
    """Return the new roster line, unsaved, once every rule allows it (3.1.1 A-B, 3.1.2, 3.2.9 C-E)."""
    number = check_jersey_number(number)
    check_position(position)
    _check_entry_open(entry)
    check_roster_change(entry, kind=roster_rules.ADD, now=now)
    if any(r.person_id == person.pk for r in roster):
        raise _error("person", f"Rule 3.1.1 A: {person} is already on this roster.")
    _check_not_on_other_roster(entry, person)
    new = RosterEntry(
        entry=entry, person=person, number=number, position=position, captain=captain, alternate=alternate
    )
    check_roster_lines(_lines([*roster, new]), limits=roster_limits(entry.championship), complete=False)
    return new


def roster_add_player(
    *,
    entry: TeamEntry,
    person: Person,
    number: str,
    position: str = Position.PLAYER,
    captain: bool = False,
    alternate: bool = False,
    by: User,
    now: datetime.datetime | None = None,
) -> RosterEntry:
    """Add a player or goalkeeper to the team's roster (3.1.1 A-B, 3.1.2, 3.2.9 C-E)."""
    now = _now(now)
    check_can_manage_entry(by, entry)
    with transaction.atomic():
        entry = TeamEntry.objects.select_for_update(of=("self",)).select_related("championship__venue").get(pk=entry.pk)
        # Lock the person too: two teams adding the same player at once must not both succeed.
        Person.objects.select_for_update().filter(pk=person.pk).exists()
        new = check_roster_add(
            entry=entry,
            roster=list(entry.roster.all()),
            person=person,
            number=number,
            position=position,
            captain=captain,
            alternate=alternate,
            now=now,
        )
        audited_save(new, by)
    return new


# What ``roster_update`` changes on a roster line.
ROSTER_LINE_FIELDS = ("number", "position", "captain", "alternate")


@dataclasses.dataclass
class RosterChange:
    line: RosterEntry
    fields: list[str]
    approval: NumberChangeApproval | None = None


def check_roster_update(
    *,
    entry: TeamEntry,
    roster: Sequence[RosterEntry],
    line: RosterEntry,
    number: str | None = None,
    position: str | None = None,
    captain: bool | None = None,
    alternate: bool | None = None,
    now: datetime.datetime,
) -> RosterChange:
    """Apply the changes to ``line`` (one of ``roster``) in memory once every rule allows them.

    After registration a new number needs a recorded IHTC approval (3.2.9 D,
    R-05); turning a player into a goalkeeper or back after the start is a
    substitution (3.1.1 B).
    """
    _check_entry_open(entry)
    change = RosterChange(line=line, fields=[])
    if number is not None:
        number = check_jersey_number(number)
        if number != line.number:
            if line.confirmed:
                change.approval = (
                    NumberChangeApproval.objects.filter(
                        roster_entry=line, old_number=line.number, new_number=number, applied_at__isnull=True
                    )
                    .order_by("approved_at")
                    .first()
                )
            check_roster_change(
                entry,
                kind=roster_rules.NUMBER_CHANGE,
                approved=change.approval is not None,
                registered=line.confirmed,
                now=now,
            )
            line.number = number
            change.fields.append("number")
    if position is not None and position != line.position:
        check_position(position)
        check_roster_change(entry, kind=roster_rules.SUBSTITUTE, now=now)
        line.position = position
        change.fields.append("position")
    for field, value in (("captain", captain), ("alternate", alternate)):
        if value is not None and value != getattr(line, field):
            setattr(line, field, value)
            change.fields.append(field)
    if change.fields:
        # Maxima only: moving the captaincy takes two changes (the line-up marks the captain per game, R-07).
        check_roster_lines(_lines(roster), limits=roster_limits(entry.championship), complete=False)
    return change


def roster_update(
    *,
    roster_entry: RosterEntry,
    number: str | None = None,
    position: str | None = None,
    captain: bool | None = None,
    alternate: bool | None = None,
    by: User,
    now: datetime.datetime | None = None,
) -> RosterEntry:
    """Change a roster line (number, position, captain's marks) under 3.1.1 B, 3.1.2 and 3.2.9 C-E."""
    now = _now(now)
    check_can_manage_entry(by, roster_entry.entry)
    with transaction.atomic():
        entry = (
            TeamEntry.objects.select_for_update(of=("self",))
            .select_related("championship__venue")
            .get(pk=roster_entry.entry_id)
        )
        roster = list(entry.roster.all())
        line = next(r for r in roster if r.pk == roster_entry.pk)
        change = check_roster_update(
            entry=entry,
            roster=roster,
            line=line,
            number=number,
            position=position,
            captain=captain,
            alternate=alternate,
            now=now,
        )
        if change.fields:
            audited_save(line, by, update_fields=change.fields)
        if change.approval is not None:
            change.approval.applied_at = now
            audited_save(change.approval, by, update_fields=["applied_at"])
    return line


def roster_remove(*, roster_entry: RosterEntry, by: User, now: datetime.datetime | None = None) -> None:
    """Take a player off the roster. 3.1.1 B forbids additions and substitutions once the championship
    has begun, not a removal; a removed player cannot be replaced then."""
    now = _now(now)
    check_can_manage_entry(by, roster_entry.entry)
    with transaction.atomic():
        entry = (
            TeamEntry.objects.select_for_update(of=("self",))
            .select_related("championship__venue")
            .get(pk=roster_entry.entry_id)
        )
        _check_entry_open(entry)
        check_roster_change(entry, kind=roster_rules.REMOVE, now=now)
        # The audit trail names who removed the player.
        audited_delete(RosterEntry.objects.get(pk=roster_entry.pk), by)


def number_change_approve(
    *,
    roster_entry: RosterEntry,
    new_number: str,
    reason: str,
    by: User,
    now: datetime.datetime | None = None,
) -> NumberChangeApproval:
    """Record the IHTC's written approval of a jersey number change (3.2.9 D)."""
    if not is_international_staff(by):
        raise PermissionDenied("Rule 3.2.9 D: only the IHTC approves a number change.")
    new_number = check_jersey_number(new_number)
    if not (reason or "").strip():
        raise _error("reason", "Rule 3.2.9 D: the written approval states its reason.")
    if new_number == roster_entry.number:
        raise _error("new_number", "the player already wears this number")
    return audited_create(
        NumberChangeApproval,
        by,
        roster_entry=roster_entry,
        old_number=roster_entry.number,
        new_number=new_number,
        reason=reason.strip(),
        approved_by=by,
        approved_at=_now(now),
    )


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


def roster_confirm(*, entry: TeamEntry, by: User, now: datetime.datetime | None = None) -> TeamEntry:
    """Register the roster: complete within the limits (R-04..R-06) and every player eligible or waived (1.1)."""
    from .selectors import roster_for_entry

    now = _now(now)
    check_can_manage_entry(by, entry)
    with transaction.atomic():
        entry = (
            TeamEntry.objects.select_for_update(of=("self",))
            .select_related("championship__venue", "federation")
            .get(pk=entry.pk)
        )
        _check_entry_open(entry)
        roster = roster_for_entry(entry)
        check_roster_lines(_lines(roster), limits=roster_limits(entry.championship), complete=True)
        eligibility = roster_eligibility(entry, roster)
        refusals = [
            f"#{line.number} {line.person}: {reason.message}"
            for line in roster
            for reason in eligibility[line.pk].reasons
            if not eligibility[line.pk].eligible
        ]
        if refusals:
            raise _error("roster", refusals)
        unconfirmed = [line for line in roster if not line.confirmed]
        for line in unconfirmed:
            line.confirmed, line.confirmed_at, line.confirmed_by = True, now, by
        bulk_update_with_history(
            unconfirmed, RosterEntry, ["confirmed", "confirmed_at", "confirmed_by"], default_user=by
        )
    return entry


def team_official_add(*, entry: TeamEntry, person: Person, role: str, by: User):
    """Name a team official (Terminology: Team Official)."""
    from .models import OfficialRole, TeamOfficial

    check_can_manage_entry(by, entry)
    _check_entry_open(entry)
    if role not in OfficialRole.values:
        raise _error("role", f"one of {', '.join(OfficialRole.values)}")
    if TeamOfficial.objects.filter(entry=entry, person=person, role=role).exists():
        raise _error("person", f"{person} is already named as {role}")
    return audited_create(TeamOfficial, by, entry=entry, person=person, role=role)


# --- pools and schedule --------------------------------------------------------------------------------------------


def pool_create(*, championship: Championship, name: str, by: User) -> Pool:
    check_can_direct(by, championship)
    name = (name or "").strip()
    if not name:
        raise _error("name", "a pool needs a name")
    if Pool.objects.filter(championship=championship, name=name).exists():
        raise _error("name", f"pool {name} exists already")
    return audited_create(Pool, by, championship=championship, name=name)


def check_pool_entry(pool: Pool, entry: TeamEntry) -> None:
    """Only a confirmed team of the championship plays in a pool (1.1 A: entry fee paid), in one pool."""
    if entry.championship_id != pool.championship_id:
        raise _error("entry", "the team is entered in another championship")
    if entry.status != EntryStatus.CONFIRMED:
        raise _error("entry", f"Rule 1.1 A: {entry} is not confirmed (entry fee not recorded as paid).")
    if PoolTeam.objects.filter(entry=entry).exclude(pool=pool).exists():
        raise _error("entry", f"{entry} is already in another pool")
    if Game.objects.filter(pool=pool).exists():
        raise _error("pool", "the pool's schedule exists already")


def pool_add_entry(*, pool: Pool, entry: TeamEntry, seed: int = 0, by: User) -> PoolTeam:
    """Put a confirmed team in a pool (1.1 A)."""
    check_can_direct(by, pool.championship)
    with transaction.atomic():
        pool = Pool.objects.select_for_update().get(pk=pool.pk)
        check_pool_entry(pool, entry)
        if PoolTeam.objects.filter(entry=entry).exists():
            raise _error("entry", f"{entry} is already in this pool")
        return audited_create(PoolTeam, by, pool=pool, entry=entry, seed=seed)


def rink_dimensions(rink: Rink) -> rink_rules.RinkDimensions:
    return rink_rules.RinkDimensions(
        length_m=rink.length_m,
        width_m=rink.width_m,
        board_height_m=rink.board_height_m,
        corner_radius_m=rink.corner_radius_m,
        surface=rink.surface,
        surface_approved_by_ihtc=rink.surface_approved_by_ihtc,
    )


def rink_violations(rink: Rink, *, level: str) -> tuple[rink_rules.Violation, ...]:
    """Return what keeps the rink from hosting games of this level (2.1 A-E), each naming its article."""
    return rink_rules.rink_errors(rink_dimensions(rink), level=level)


def check_rink_for(rink: Rink, championship: Championship, *, field: str = "rink") -> None:
    """2.1 C: a rink that does not meet the championship's level cannot host its games."""
    violations = rink_violations(rink, level=championship.level)
    if violations:
        raise _error(field, [f"{rink}: {v.message}" for v in violations])


def _last_game_number(championship: Championship) -> int:
    numbers = Game.objects.filter(championship=championship).order_by("-number").values_list("number", flat=True)
    return numbers.first() or 0


def _aware(day: datetime.date, at: datetime.time, championship: Championship) -> datetime.datetime:
    local = datetime.datetime.combine(day, at, tzinfo=championship.venue.zone)
    return local.astimezone(datetime.UTC)


def schedule_generate(
    *,
    championship: Championship,
    days: Sequence[datetime.date],
    slot_times: Sequence[datetime.time],
    rinks: Sequence[Rink],
    rest_slots: int = 1,
    by: User,
) -> list[Game]:
    """Create the round-robin games of every pool across days, rinks and slots (venue time).

    No team plays twice at the same time; the home team is the first named
    (5.4 D, 3.2.10). Rinks that do not meet the level are refused (2.1 C).
    """
    check_can_direct(by, championship)
    if not rinks:
        raise _error("rinks", "choose at least one rink")
    errors: list[str] = []
    for rink in rinks:
        errors.extend(f"{rink}: {v.message}" for v in rink_violations(rink, level=championship.level))
    if errors:
        raise _error("rinks", errors)
    if any(day < championship.start_date or day > championship.end_date for day in days):
        raise _error("days", "every day must fall within the championship's dates")
    members = PoolTeam.objects.filter(pool__championship=championship).select_related("pool", "entry")
    pools: dict[str, list[str]] = {}
    pool_by_name: dict[str, Pool] = {}
    entry_by_name: dict[str, TeamEntry] = {}
    for member in members.order_by("pool__name", "seed", "entry__name"):
        pools.setdefault(member.pool.name, []).append(member.entry.name)
        pool_by_name[member.pool.name] = member.pool
        entry_by_name[member.entry.name] = member.entry
    if not pools:
        raise _error("pools", "no pool has teams yet")
    rink_by_name = {rink.name: rink for rink in rinks}
    try:
        planned = schedule_round_robin(
            pools, days=list(days), rinks=list(rink_by_name), slot_times=list(slot_times), rest_slots=rest_slots
        )
    except SchedulingError as exc:
        raise _core_error(exc) from None
    with transaction.atomic():
        championship = (
            Championship.objects.select_for_update(of=("self",)).select_related("venue").get(pk=championship.pk)
        )
        if Game.objects.filter(championship=championship, phase__kind=PhaseKind.ROUND_ROBIN).exists():
            raise _error("championship", "the round-robin schedule exists already; move games instead")
        phase, _ = Phase.objects.get_or_create(
            championship=championship,
            kind=PhaseKind.ROUND_ROBIN,
            defaults={"name": "Round robin", "order": 1},
        )
        number = _last_game_number(championship)
        games = []
        for item in sorted(planned, key=lambda g: (g.slot, g.rink)):
            number += 1
            games.append(
                Game(
                    championship=championship,
                    phase=phase,
                    pool=pool_by_name[item.pool],
                    number=number,
                    home=entry_by_name[item.home],
                    away=entry_by_name[item.away],
                    rink=rink_by_name[item.rink],
                    start_at=_aware(item.day, item.time, championship),
                )
            )
        bulk_create_with_history(games, Game, default_user=by)
    return games


def bracket_generate(
    *,
    championship: Championship,
    qualifiers: int = 2,
    placement: str = scheduling.ALL,
    by: User,
) -> list[Game]:
    """Create the elimination games (pre-quarter-finals to final, 1.3 B) and the placement games.

    The first round crosses the pools two by two (1A v 2B, 1B v 2A...); the
    teams the standings and results already decide are put in at once, the
    others as they are decided (``bracket_fill``). Times and rinks are set by
    moving the games.
    """
    check_can_direct(by, championship)
    pool_names = list(Pool.objects.filter(championship=championship).order_by("name").values_list("name", flat=True))
    if not pool_names:
        raise _error("pools", "the championship has no pools yet")
    try:
        first_round = scheduling.crossover_pairings(pool_names, qualifiers=qualifiers)
        bracket = scheduling.elimination_bracket(first_round, placement=placement)
    except scheduling.SchedulingError as exc:
        raise _core_error(exc) from None
    with transaction.atomic():
        championship = Championship.objects.select_for_update().get(pk=championship.pk)
        if Game.objects.filter(championship=championship).exclude(bracket_slot="").exists():
            raise _error("championship", "the elimination games exist already")
        elimination, _ = Phase.objects.get_or_create(
            championship=championship, kind=PhaseKind.ELIMINATION, defaults={"name": "Elimination", "order": 2}
        )
        placement_phase = None
        number = _last_game_number(championship)
        games = []
        for item in bracket.games:
            if item.stage == "placement" and placement_phase is None:
                placement_phase, _ = Phase.objects.get_or_create(
                    championship=championship,
                    kind=PhaseKind.PLACEMENT,
                    defaults={"name": "Placement games", "order": 3},
                )
            number += 1
            games.append(
                Game(
                    championship=championship,
                    phase=placement_phase if item.stage == "placement" else elimination,
                    number=number,
                    bracket_slot=item.code,
                    home_source=item.home_source,
                    away_source=item.away_source,
                )
            )
        bulk_create_with_history(games, Game, default_user=by)
        bracket_fill(championship=championship, by=by)
    return games


def bracket_fill(*, championship: Championship, by: User) -> list[Game]:
    """Put the teams the standings and results decide into the elimination games still to play."""
    from .selectors import bracket_for

    check_can_direct(by, championship)
    bracket = bracket_for(championship)
    if bracket is None:
        return []
    entries = {e.name: e for e in TeamEntry.objects.filter(championship=championship)}
    changed = []
    with transaction.atomic():
        games = {
            g.bracket_slot: g
            for g in Game.objects.select_for_update()
            .filter(championship=championship, status=GameStatus.SCHEDULED)
            .exclude(bracket_slot="")
        }
        for item in bracket.games:
            game = games.get(item.code)
            if game is None:
                continue
            home = entries.get(item.home) if item.home else None
            away = entries.get(item.away) if item.away else None
            if (game.home_id, game.away_id) != (home and home.pk, away and away.pk):
                game.home, game.away = home, away
                audited_save(game, by, update_fields=["home", "away"])
                changed.append(game)
    return changed


def game_conflicts(game: Game, *, start_at: datetime.datetime, rink: Rink | None) -> list[str]:
    window = Q(start_at__gt=start_at - GAME_SLOT, start_at__lt=start_at + GAME_SLOT)
    others = Game.objects.filter(window, championship_id=game.championship_id).exclude(pk=game.pk)
    problems = []
    teams = [t for t in (game.home_id, game.away_id) if t]
    for other in others.filter(Q(home_id__in=teams) | Q(away_id__in=teams)).select_related("home", "away"):
        problems.append(f"a team of this game also plays game #{other.number} at {other.start_at:%Y-%m-%d %H:%M} UTC")
    if rink is not None:
        for other in others.filter(rink=rink):
            problems.append(f"{rink} hosts game #{other.number} at {other.start_at:%Y-%m-%d %H:%M} UTC")
    return problems


def check_game_move(game: Game, *, start_at: datetime.datetime | None, rink: Rink | None) -> None:
    """Refuse to move the game to ``start_at`` on ``rink``: only a scheduled game moves, to a rink that meets
    the championship's level (2.1 C), with no team and no rink twice at the same time."""
    if game.status != GameStatus.SCHEDULED:
        raise _error("start_at", "a final game cannot be moved")
    if rink is not None and rink.pk != game.rink_id:
        check_rink_for(rink, game.championship)
    if start_at is not None:
        problems = game_conflicts(game, start_at=start_at, rink=rink)
        if problems:
            raise _error("start_at", problems)


def game_move(
    *,
    game: Game,
    start_at: datetime.datetime | None = None,
    rink: Rink | None = None,
    by: User,
) -> Game:
    """Move a scheduled game to another time and/or rink; no team (and no rink) twice at the same time."""
    check_can_direct(by, game.championship)
    if start_at is not None and timezone.is_naive(start_at):
        raise _error("start_at", "give the time with its time zone")
    with transaction.atomic():
        # Lock the championship: two moves at once must not both see the slot free.
        championship = Championship.objects.select_for_update().get(pk=game.championship_id)
        game = Game.objects.select_for_update().get(pk=game.pk)
        game.championship = championship
        new_start = start_at or game.start_at
        new_rink = rink or game.rink
        check_game_move(game, start_at=new_start, rink=new_rink)
        game.start_at = new_start
        game.rink = new_rink
        audited_save(game, by, update_fields=["start_at", "rink"])
    return game


# --- results -------------------------------------------------------------------------------------------------------


def _winner_captain(entry: TeamEntry) -> Person:
    captain = RosterEntry.objects.filter(entry=entry, captain=True).select_related("person").first()
    if captain is None:
        raise _error("forfeited_by", f"Rule 8.1 B: the goal goes to the winner's captain; {entry} has no captain.")
    return captain.person


def check_result(
    game: Game,
    *,
    home_goals: int | None,
    away_goals: int | None,
    decided_in: str,
    forfeited_by: TeamEntry | None,
    shootout_home_goals: int | None,
    shootout_away_goals: int | None,
    rules: StandingsRules,
) -> None:
    """Refuse a final result the game cannot have (1.3 A-E, 8.1 B, R-40).

    Round-robin games may end tied and take no overtime (1.3 A, D) unless the
    championship's points scheme counts overtime or shoot-out results (IIHF
    preset); elimination and placement games end with a winner: by one goal
    in the sudden-death overtime, or in a shoot-out with the tied score kept.
    """
    round_robin = game.phase.kind == PhaseKind.ROUND_ROBIN
    if decided_in not in DecidedIn.values:
        raise _error("decided_in", f"one of {', '.join(DecidedIn.values)}")
    if decided_in == DecidedIn.FORFEIT:
        if forfeited_by is None or forfeited_by.pk not in (game.home_id, game.away_id):
            raise _error("forfeited_by", "Rule 8.1 B: name the team of this game that forfeits.")
        return
    if forfeited_by is not None:
        raise _error("forfeited_by", "Rule 8.1 B: only a forfeit names a forfeiting team.")
    for field, value in (("home_goals", home_goals), ("away_goals", away_goals)):
        if value is None or value < 0:
            raise _error(field, "the final score is required")
    tied = home_goals == away_goals
    extra_time_counts = any(
        v is not None for v in (rules.points.overtime_win, rules.points.shootout_win, rules.points.overtime_loss)
    )
    if round_robin and decided_in != DecidedIn.REGULATION and not extra_time_counts:
        raise _error("decided_in", "Rule 1.3 D: round-robin games tied after regulation stay tied.")
    if decided_in == DecidedIn.REGULATION and tied and not round_robin:
        raise _error("decided_in", "Rule 1.3 B: an elimination game tied after regulation goes to overtime.")
    if decided_in == DecidedIn.OVERTIME and abs(home_goals - away_goals) != 1:
        raise _error("home_goals", "Rule 1.3 B: the overtime is sudden death; it is won by one goal.")
    if decided_in == DecidedIn.SHOOTOUT:
        if not tied:
            raise _error("home_goals", "Rule 1.3 B / R-40: a game won in a shoot-out keeps the tied score.")
        if shootout_home_goals is None or shootout_away_goals is None or shootout_home_goals == shootout_away_goals:
            raise _error("shootout_home_goals", "Rule 1.3 E / R-40: record the shoot-out score; it names a winner.")
    elif shootout_home_goals is not None or shootout_away_goals is not None:
        raise _error("shootout_home_goals", "only a game decided in a shoot-out has a shoot-out score")


def _disqualify_if_forfeits(
    entry: TeamEntry, *, game: Game, by: User, now: datetime.datetime
) -> Disqualification | None:
    """8.1 C / R-43: a second forfeit in the round robin, or any forfeit after it, disqualifies the team."""
    forfeits = Game.objects.filter(forfeited_by=entry, status=GameStatus.FINAL)
    in_round_robin = forfeits.filter(phase__kind=PhaseKind.ROUND_ROBIN).count()
    after = forfeits.exclude(phase__kind=PhaseKind.ROUND_ROBIN).exists()
    if not forfeit_disqualifies(forfeits_in_round_robin=in_round_robin, forfeit_after_round_robin=after):
        return None
    entry = TeamEntry.objects.select_for_update().get(pk=entry.pk)
    if entry.status == EntryStatus.DISQUALIFIED:
        return None
    check_transition(
        ENTRY_TRANSITIONS,
        entry.status,
        EntryStatus.DISQUALIFIED,
        field="forfeited_by",
        subject="an entry",
        article="Rule 8.1 C",
    )
    entry.status = EntryStatus.DISQUALIFIED
    audited_save(entry, by, update_fields=["status"])
    reason = (
        "Rule 8.1 C: a second forfeit in the round robin"
        if not after
        else "Rule 8.1 C: a forfeit after the round robin"
    )
    return audited_create(Disqualification, by, entry=entry, reason=reason, game=game, at=now, recorded_by=by)


def game_record_result(
    *,
    game: Game,
    home_goals: int | None = None,
    away_goals: int | None = None,
    decided_in: str = DecidedIn.REGULATION,
    forfeited_by: TeamEntry | None = None,
    shootout_home_goals: int | None = None,
    shootout_away_goals: int | None = None,
    by: User,
    now: datetime.datetime | None = None,
) -> Game:
    """Record the final result.

    A forfeit is recorded 1-0 with the goal to the winner's captain, no assist
    and no goalkeeper statistics (8.1 B); it may disqualify the forfeiting
    team (8.1 C), whose games then leave the official tables (8.1 D).
    """
    now = _now(now)
    check_can_direct(by, game.championship)
    rules = championship_standings_rules(game.championship)
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).select_related("phase", "home", "away").get(pk=game.pk)
        if game.home_id is None or game.away_id is None:
            raise _error("home", "both teams must be known before a result is recorded")
        for field, team in (("home", game.home), ("away", game.away)):
            if team.status == EntryStatus.DISQUALIFIED:
                raise _error(field, f"Rule 8.1 C: {team} is disqualified for the remainder of the tournament.")
        if game.status == GameStatus.FINAL:
            raise _error("status", f"game #{game.number} is final; its result is recorded once")
        check_transition(GAME_TRANSITIONS, game.status, GameStatus.FINAL, subject="a game")
        check_result(
            game,
            home_goals=home_goals,
            away_goals=away_goals,
            decided_in=decided_in,
            forfeited_by=forfeited_by,
            shootout_home_goals=shootout_home_goals,
            shootout_away_goals=shootout_away_goals,
            rules=rules,
        )
        if decided_in == DecidedIn.FORFEIT:
            winner = game.away if forfeited_by.pk == game.home_id else game.home
            captain = _winner_captain(winner)
            home_goals, away_goals = (1, 0) if winner.pk == game.home_id else (0, 1)
            # 8.1 B: the captain's goal; it may not go to any other player, and there is no assist.
            audited_create(
                GoalRecord, by, game=game, entry=winner, scorer=captain, period=1, time_tenths=0, forfeit_award=True
            )
        game.home_goals = home_goals
        game.away_goals = away_goals
        game.decided_in = decided_in
        game.forfeited_by = forfeited_by
        game.shootout_home_goals = shootout_home_goals
        game.shootout_away_goals = shootout_away_goals
        game.status = GameStatus.FINAL
        game.finalized_at = now
        game.finalized_by = by
        audited_save(game, by)
        if forfeited_by is not None:
            _disqualify_if_forfeits(forfeited_by, game=game, by=by, now=now)
    return game


def _check_game_time(game: Game, *, period: int, time_tenths: int) -> None:
    """R-10/R-11: game time is elapsed tenths within a period of 20 minutes; period 3 is the 10-minute overtime."""
    game_rules = championship_ruleset(game.championship).game
    regulation = game_rules.periods
    overtime_allowed = game.phase.kind != PhaseKind.ROUND_ROBIN or game.decided_in == DecidedIn.OVERTIME
    last = regulation + (1 if overtime_allowed else 0)
    if not 1 <= period <= last:
        raise _error("period", f"Rule 1.2 A / 1.3: period is 1-{last} in this game (R-11).")
    length = (game_rules.overtime_minutes if period > regulation else game_rules.period_minutes) * 600
    if not 0 <= time_tenths <= length:
        raise _error("time_tenths", f"R-10: the time is elapsed tenths of a second within the period, 0-{length}.")


def _check_team_of_game(game: Game, entry: TeamEntry) -> None:
    if entry.pk not in (game.home_id, game.away_id):
        raise _error("entry", f"{entry} does not play game #{game.number}")


def _roster_person_ids(entry: TeamEntry) -> set[int]:
    return set(RosterEntry.objects.filter(entry=entry).values_list("person_id", flat=True))


def _summary_line_add(model, check, *, game: Game, by: User, **fields):
    """Enter a line of the game summary: with the game locked, ``check`` (the line's rules) passes, then it is saved."""
    check_can_direct(by, game.championship)
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).select_related("phase", "championship").get(pk=game.pk)
        record = model(game=game, **fields)
        check(record)
        audited_save(record, by)
    return record


def check_goal(record: GoalRecord) -> None:
    """Refuse a goal the summary cannot hold (5.5.11 B-D, R-32, 8.1 B); ``record.game`` has its phase loaded."""
    game, entry = record.game, record.entry
    _check_team_of_game(game, entry)
    if game.decided_in == DecidedIn.FORFEIT and not record.forfeit_award:
        raise _error("game", "Rule 8.1 B: a forfeit's only goal is the one awarded to the winner's captain.")
    _check_game_time(game, period=record.period, time_tenths=record.time_tenths)
    roster = _roster_person_ids(entry)
    # 5.5.11 D: an own goal is credited to the attacking player who last played the puck.
    if record.scorer_id not in roster:
        raise _error("scorer", f"Rule 5.5.11 B: the scorer must be on the roster of {entry} (5.1 B).")
    if record.assist_id is not None:
        if record.own_goal:
            raise _error("assist", "Rule 5.5.11 D / R-32: an own goal has no assist.")
        if record.penalty_shot:
            raise _error("assist", "Rule 6.1.8: a penalty shot is taken alone; it has no assist.")
        if record.assist_id == record.scorer_id:
            raise _error("assist", "Rule 5.5.11 C: the assist goes to the player who made the pass, not the scorer.")
        if record.assist_id not in roster:
            raise _error("assist", f"Rule 5.5.11 C: the assist must go to a player of {entry}.")
    if record.power_play and record.shorthanded:
        raise _error("power_play", "a goal is scored on a power play or shorthanded, not both")


def goal_add(
    *,
    game: Game,
    entry: TeamEntry,
    scorer: Person,
    assist: Person | None = None,
    period: int,
    time_tenths: int,
    own_goal: bool = False,
    empty_net: bool = False,
    power_play: bool = False,
    shorthanded: bool = False,
    penalty_shot: bool = False,
    by: User,
) -> GoalRecord:
    """Enter a goal of the game summary (5.5.11); one scorer and at most one assist (R-32)."""
    return _summary_line_add(
        GoalRecord,
        check_goal,
        game=game,
        by=by,
        entry=entry,
        scorer=scorer,
        assist=assist,
        period=period,
        time_tenths=time_tenths,
        own_goal=own_goal,
        empty_net=empty_net,
        power_play=power_play,
        shorthanded=shorthanded,
        penalty_shot=penalty_shot,
    )


def check_infraction(code: str) -> None:
    """Annex C: the infraction is a line of the penalty index (when the game engine's index is installed)."""
    try:
        from games.engine.penalty_index import get_infraction
    except ImportError:  # the index ships with the game engine
        return
    try:
        get_infraction(code)
    except KeyError:
        raise _error("infraction_code", f"Annex C: {code!r} is not in the penalty index.") from None


def check_penalty(record: PenaltyRecord) -> None:
    """Refuse a penalty the summary cannot hold (R-20, R-21): a person of the team or its bench, or the bench."""
    check_infraction(record.infraction_code)
    if record.minutes not in PENALTY_MINUTES:
        raise _error("minutes", f"R-21: a penalty charges {', '.join(map(str, sorted(PENALTY_MINUTES)))} minutes.")
    game, entry = record.game, record.entry
    _check_team_of_game(game, entry)
    _check_game_time(game, period=record.period, time_tenths=record.time_tenths)
    if record.person_id is not None:
        on_team = (
            record.person_id in _roster_person_ids(entry) or entry.officials.filter(person_id=record.person_id).exists()
        )
        if not on_team:
            raise _error("person", f"R-20: {record.person} is not on the roster or bench of {entry}.")


def penalty_add(
    *,
    game: Game,
    entry: TeamEntry,
    person: Person | None = None,
    infraction_code: str,
    minutes: int,
    period: int,
    time_tenths: int,
    gives_power_play: bool = False,
    by: User,
) -> PenaltyRecord:
    """Enter a penalty of the game summary (R-20): a person of the team, or the bench (no person)."""
    return _summary_line_add(
        PenaltyRecord,
        check_penalty,
        game=game,
        by=by,
        entry=entry,
        person=person,
        infraction_code=infraction_code,
        minutes=minutes,
        gives_power_play=gives_power_play,
        period=period,
        time_tenths=time_tenths,
    )


def check_goalkeeper_line(record: GoalkeeperRecord) -> None:
    """Refuse a goalkeeper line that does not add up (4.6 note) or belongs to a forfeit (8.1 B)."""
    problem = stats_rules.goalkeeper_counts_problem(
        shots_against=record.shots_against, saves=record.saves, goals_against=record.goals_against
    )
    if problem is not None:
        raise _error(*problem)
    game, entry = record.game, record.entry
    _check_team_of_game(game, entry)
    if game.decided_in == DecidedIn.FORFEIT:
        raise _error("game", "Rule 8.1 B: no goalkeeper is credited with a shot, save or goal against in a forfeit.")
    if not RosterEntry.objects.filter(
        entry=entry, person_id=record.goalkeeper_id, position=Position.GOALKEEPER
    ).exists():
        raise _error("goalkeeper", f"{record.goalkeeper} is not a goalkeeper on the roster of {entry} (3.1.1 A).")


def goalkeeper_record_set(
    *,
    game: Game,
    entry: TeamEntry,
    goalkeeper: Person,
    shots_against: int,
    saves: int,
    goals_against: int,
    by: User,
) -> GoalkeeperRecord:
    """Set a goalkeeper's line for a game: a save is a shot that would have entered (4.6 note)."""
    check_can_direct(by, game.championship)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        record = GoalkeeperRecord.objects.filter(game=game, goalkeeper=goalkeeper).first() or GoalkeeperRecord(
            game=game, goalkeeper=goalkeeper
        )
        record.entry = entry
        record.shots_against, record.saves, record.goals_against = shots_against, saves, goals_against
        check_goalkeeper_line(record)
        audited_save(record, by)
    return record


def standings_shootout_enter(*, pool: Pool, ordered_entries: Sequence[TeamEntry], by: User) -> StandingsShootout:
    """Enter the result of the shoot-out between teams still tied after 9.3 C-F (9.3 G, R-42), best first."""
    from .selectors import standings_for_pool

    check_can_direct(by, pool.championship)
    names = [e.name for e in ordered_entries]
    if len(set(names)) != len(names):
        raise _error("ordered_entries", "a team is listed twice")
    with transaction.atomic():
        pool = Pool.objects.select_for_update(of=("self",)).select_related("championship").get(pk=pool.pk)
        standings = standings_for_pool(pool)
        if frozenset(names) not in {frozenset(group) for group in standings.unresolved}:
            pending = "; ".join(", ".join(group) for group in standings.unresolved) or "none"
            raise _error(
                "ordered_entries",
                f"Rule 9.3 G / R-42: a shoot-out decides only teams still tied after 9.3 C-F (pending: {pending}).",
            )
        shootout = audited_create(StandingsShootout, by, pool=pool, entered_by=by, entered_at=timezone.now())
        StandingsShootoutPlace.objects.bulk_create(
            StandingsShootoutPlace(shootout=shootout, entry=entry, place=place)
            for place, entry in enumerate(ordered_entries, start=1)
        )
    return shootout
