"""Rosters (3.1.1, 3.1.2, 3.2.9, R-04..R-07): lines, numbers, registration, the import of a file, team officials."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Callable, Iterable, Sequence

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.text import slugify
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from accounts.models import User
from accounts.roles import is_international_staff
from common.numbers import NotANumber, whole_number
from common.text import _
from federation.models import Person
from portal.filters import MAX_ID
from portal.services import audited_create, audited_delete, audited_save
from tournaments import roster_files
from tournaments import rosters as roster_rules
from tournaments.errors import CoreInputError
from tournaments.facts import (
    championship_has_begun,
    core_error,
    field_error,
    resolve_now,
    roster_eligibility,
    roster_limits,
)
from tournaments.models import (
    NumberChangeApproval,
    OfficialRole,
    Position,
    RosterEntry,
    TeamEntry,
    TeamOfficial,
)
from tournaments.selectors import NUMBER_ORDER, roster_for_entry
from tournaments.services.entries import check_can_manage_entry, check_entry_open
from tournaments.versions import championship_changed


def roster_lines(
    roster: Sequence[RosterEntry], *, label: Callable[[RosterEntry], str] | None = None
) -> list[roster_rules.RosterLine]:
    """Return the roster as the pure core checks it (``tournaments.rosters.check_roster``); ``label(line)``
    names a line in the messages (default: its place in the list)."""
    return [
        roster_rules.RosterLine(
            person_id=r.person_id,
            number=r.number,
            position=r.position,
            captain=r.captain,
            alternate=r.alternate,
            label=label(r) if label else "",
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


def check_jersey_number(number: str, *, field: str = "number") -> str:
    """3.2.9 C: 1-99 without a leading zero; return the number as typed, stripped (a refusal names ``field``)."""
    number = (number or "").strip()
    problem = roster_rules.check_jersey_number(number)
    if problem is not None:
        raise field_error(field, problem.message)
    return number


def check_position(position: str) -> None:
    """3.1.1 A: a roster names players and goalkeepers."""
    if position not in Position.values:
        raise field_error("position", _("Rule 3.1.1 A: one of %(positions)s", positions=", ".join(Position.values)))


def _check_not_on_other_roster(entry: TeamEntry, person: Person) -> None:
    other = (
        RosterEntry.objects.filter(entry__championship_id=entry.championship_id, person=person)
        .exclude(entry=entry)
        .select_related("entry")
        .order_by("pk")  # any one of them; not the model's ordering, which joins the championship
        .first()
    )
    if other is not None:
        raise field_error(
            "person",
            _(
                "Rule 3.1.1 A: %(person)s is already on the roster of %(team)s in this championship.",
                person=person,
                team=other.entry,
            ),
        )


def check_person_of_entry(entry: TeamEntry, person: Person, *, field: str = "person") -> None:
    """1.1 A: a national team is made of people registered with the entering federation.

    The refusal names the id only, never the person: another federation's
    register is not the team's to read (the same answer for an id that does not exist).
    """
    if person.federation_id != entry.federation_id:
        raise field_error(
            field,
            _("Rule 1.1 A: no person with id %(id)s in %(federation)s.", id=person.pk, federation=entry.federation),
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
    label: Callable[[RosterEntry], str] | None = None,
) -> RosterEntry:
    """Return the new roster line, unsaved, once every rule allows it (3.1.1 A-B, 3.1.2, 3.2.9 C-E);
    ``label`` names the lines of ``roster`` in the messages (``roster_lines``)."""
    number = check_jersey_number(number)
    check_position(position)
    check_entry_open(entry)
    check_person_of_entry(entry, person)
    check_roster_change(entry, kind=roster_rules.ADD, now=now)
    if any(r.person_id == person.pk for r in roster):
        raise field_error("person", _("Rule 3.1.1 A: %(person)s is already on this roster.", person=person))
    _check_not_on_other_roster(entry, person)
    new = RosterEntry(
        entry=entry, person=person, number=number, position=position, captain=captain, alternate=alternate
    )
    check_roster_lines(
        roster_lines([*roster, new], label=label), limits=roster_limits(entry.championship), complete=False
    )
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
    now = resolve_now(now)
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
        championship_changed(entry.championship_id)  # the team's page shows its roster
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
    check_entry_open(entry)
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
        check_roster_lines(roster_lines(roster), limits=roster_limits(entry.championship), complete=False)
    return change


def _locked_entry(entry_id: int) -> TeamEntry:
    """Return the entry with its row locked: two changes of one roster at once are serialized."""
    return TeamEntry.objects.select_for_update(of=("self",)).select_related("championship__venue").get(pk=entry_id)


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
    now = resolve_now(now)
    check_can_manage_entry(by, roster_entry.entry)
    with transaction.atomic():
        entry = _locked_entry(roster_entry.entry_id)
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
        championship_changed(entry.championship_id)
    return line


def roster_remove(*, roster_entry: RosterEntry, by: User, now: datetime.datetime | None = None) -> None:
    """Take a player off the roster before the championship begins; refused after (3.1.1 B, R-05: the roster is
    frozen once the first game has started)."""
    now = resolve_now(now)
    check_can_manage_entry(by, roster_entry.entry)
    with transaction.atomic():
        entry = _locked_entry(roster_entry.entry_id)
        check_entry_open(entry)
        check_roster_change(entry, kind=roster_rules.REMOVE, now=now)
        # The audit trail names who removed the player.
        audited_delete(RosterEntry.objects.get(pk=roster_entry.pk), by)
        championship_changed(entry.championship_id)


def check_can_approve_number_change(user: User) -> None:
    """Only the IHTC (its executive, international staff) approves a number change after registration (3.2.9 D)."""
    if not is_international_staff(user):
        raise PermissionDenied(_("Rule 3.2.9 D: only the IHTC approves a number change."))


def number_change_approve(
    *,
    roster_entry: RosterEntry,
    new_number: str,
    reason: str,
    by: User,
    now: datetime.datetime | None = None,
) -> NumberChangeApproval:
    """Record the IHTC's written approval of a jersey number change (3.2.9 D)."""
    check_can_approve_number_change(by)
    new_number = check_jersey_number(new_number, field="new_number")
    if not (reason or "").strip():
        raise field_error("reason", _("Rule 3.2.9 D: the written approval states its reason."))
    if new_number == roster_entry.number:
        raise field_error("new_number", _("the player already wears this number"))
    return audited_create(
        NumberChangeApproval,
        by,
        roster_entry=roster_entry,
        old_number=roster_entry.number,
        new_number=new_number,
        reason=reason.strip(),
        approved_by=by,
        approved_at=resolve_now(now),
    )


def roster_confirm(*, entry: TeamEntry, by: User, now: datetime.datetime | None = None) -> TeamEntry:
    """Register the roster: complete within the limits (R-04..R-06) and every player eligible or waived (1.1)."""
    now = resolve_now(now)
    check_can_manage_entry(by, entry)
    with transaction.atomic():
        entry = (
            TeamEntry.objects.select_for_update(of=("self",))
            .select_related("championship__venue", "federation")
            .get(pk=entry.pk)
        )
        check_entry_open(entry)
        roster = roster_for_entry(entry)
        check_roster_lines(roster_lines(roster), limits=roster_limits(entry.championship), complete=True)
        eligibility = roster_eligibility(entry, roster)
        refusals = [
            _("#%(number)s %(person)s: %(reason)s", number=line.number, person=line.person, reason=reason.message)
            for line in roster
            for reason in eligibility[line.pk].reasons
            if not eligibility[line.pk].eligible
        ]
        if refusals:
            raise field_error("roster", refusals)
        unconfirmed = [line for line in roster if not line.confirmed]
        for line in unconfirmed:
            line.confirmed, line.confirmed_at, line.confirmed_by = True, now, by
        bulk_update_with_history(
            unconfirmed, RosterEntry, ["confirmed", "confirmed_at", "confirmed_by"], default_user=by
        )
        championship_changed(entry.championship_id)
    return entry


# --- the roster import: a CSV or XLSX file of players (tournaments.roster_files reads it) ---------------------------

# What the file's position column may say.
IMPORT_POSITIONS = {
    "player": Position.PLAYER,
    "p": Position.PLAYER,
    "skater": Position.PLAYER,
    "floor player": Position.PLAYER,
    "goalkeeper": Position.GOALKEEPER,
    "goalie": Position.GOALKEEPER,
    "g": Position.GOALKEEPER,
    "gk": Position.GOALKEEPER,
}
_YES = {"y", "yes", "x", "1", "true"}
_NO = {"", "n", "no", "0", "false"}


@dataclasses.dataclass(frozen=True)
class ImportLine:
    """A row of a roster file as the roster line it asks for; ``row`` as the spreadsheet shows it."""

    row: int
    person: Person
    number: str
    position: str
    captain: bool
    alternate: bool


@dataclasses.dataclass(frozen=True)
class RosterImport:
    """A roster file read and checked, every row, against the roster as it was then; nothing saved yet."""

    entry: TeamEntry
    name: str
    lines: tuple[ImportLine, ...]
    now: datetime.datetime


class _RowError(Exception):
    def __init__(self, column: str, message: str):
        super().__init__(message)
        self.column = column
        self.message = message


def _import_flag(cells: dict[str, str], column: str) -> bool:
    value = cells.get(column, "").lower()
    if value in _YES:
        return True
    if value in _NO:
        return False
    raise _RowError(column, f"yes or no, not {value!r}")


def _import_person(entry: TeamEntry, cells: dict[str, str]) -> Person:
    """The row's person in the entering federation's register: by ``person_id`` (the "Person id" its pages show),
    or by name and date of birth; when two people match these, the row must give the id (its error lists them)."""
    if cells.get("person_id"):
        try:
            # Only the entering federation's register (1.1 A): the row names the id, never another federation's person.
            pk = whole_number(cells["person_id"], minimum=1, maximum=MAX_ID)
            person = Person.objects.get(pk=pk, federation_id=entry.federation_id)
        except (NotANumber, Person.DoesNotExist):
            raise _RowError(
                "person_id", f"Rule 1.1 A: no person with id {cells['person_id']!r} in {entry.federation}"
            ) from None
        _check_id_agrees(person, cells)
        return person
    missing = [column for column in roster_files.IDENTITY_COLUMNS if not cells.get(column)]
    if missing:
        raise _RowError(missing[0], "required when there is no person_id")
    try:
        born = roster_files.read_date(cells["date_of_birth"])
    except ValueError as exc:
        raise _RowError("date_of_birth", f"a date of birth as {exc}") from None
    matches = list(
        Person.objects.filter(
            federation=entry.federation,
            last_name__iexact=cells["last_name"],
            first_name__iexact=cells["first_name"],
            date_of_birth=born,
        ).order_by("pk")[:5]
    )
    if not matches:
        raise _RowError(
            "last_name",
            f"Rule 1.1 A: no person of {entry.federation} named {cells['first_name']} {cells['last_name']}, "
            f"born {born:%d/%m/%Y}",
        )
    if len(matches) > 1:
        ids = ", ".join(str(person.pk) for person in matches)
        raise _RowError(
            "person_id",
            f"{len(matches)} people of {entry.federation} are named {cells['first_name']} {cells['last_name']}, "
            f"born {born:%d/%m/%Y} (person ids {ids}): give the one you mean in the person_id column, "
            "the Person id their pages show",
        )
    return matches[0]


def _check_id_agrees(person: Person, cells: dict[str, str]) -> None:
    """A row that gives the id and a name or date of birth too: they must be that person's (a mistyped id must not
    put another player on the roster)."""
    for column, value in (("last_name", person.last_name), ("first_name", person.first_name)):
        if cells.get(column) and cells[column].casefold() != value.casefold():
            raise _RowError(column, f"person id {person.pk} is {person}, not {cells[column]!r}")
    if cells.get("date_of_birth"):
        try:
            born = roster_files.read_date(cells["date_of_birth"])
        except ValueError as exc:
            raise _RowError("date_of_birth", f"a date of birth as {exc}") from None
        if born != person.date_of_birth:
            raise _RowError(
                "date_of_birth", f"person id {person.pk} ({person}) was born on {person.date_of_birth:%d/%m/%Y}"
            )


def _import_line(entry: TeamEntry, row: roster_files.RosterRow) -> ImportLine:
    """The roster line a row asks for, its person found in the entering federation's register."""
    cells = row.cells
    position = IMPORT_POSITIONS.get(cells.get("position", "").lower() or "player")
    if position is None:
        raise _RowError("position", f"Rule 3.1.1 A: player or goalkeeper, not {cells['position']!r}")
    return ImportLine(
        row=row.number,
        person=_import_person(entry, cells),
        number=cells.get("number", ""),
        position=position,
        captain=_import_flag(cells, "captain"),
        alternate=_import_flag(cells, "alternate"),
    )


def _check_import_lines(
    entry: TeamEntry, roster: Sequence[RosterEntry], lines: Iterable[ImportLine], *, now: datetime.datetime
) -> tuple[list[RosterEntry], list[tuple[int, str]]]:
    """Each line through ``check_roster_add``, the rows before it counted: the new lines, unsaved, and the
    refusals as (row, "Row n, field: message"). A clash names the file's row, or the player already on the
    roster (``roster`` with its people loaded), never a place in a list the manager does not see."""
    new: list[RosterEntry] = []
    errors: list[tuple[int, str]] = []
    rows: dict[int, int] = {}  # id() of a new line -> its row in the file

    def label(line: RosterEntry) -> str:
        return f"row {rows[id(line)]}" if id(line) in rows else f"{line.person} (on the roster)"

    for line in lines:
        try:
            new.append(
                check_roster_add(
                    entry=entry,
                    roster=[*roster, *new],
                    person=line.person,
                    number=line.number,
                    position=line.position,
                    captain=line.captain,
                    alternate=line.alternate,
                    now=now,
                    label=label,
                )
            )
            rows[id(new[-1])] = line.row
        except ValidationError as exc:
            errors.extend(
                (line.row, _("Row %(row)s, %(column)s: %(problem)s", row=line.row, column=field, problem=message))
                for field, field_errors in exc.error_dict.items()
                for message in (e.message % e.params if e.params else e.message for e in field_errors)
            )
    return new, errors


def _error_list(exc: ValidationError) -> list[ValidationError]:
    """Each message of ``exc`` as its own error, its sentence kept (said in the reader's language where shown)."""
    if hasattr(exc, "error_dict"):
        return [error for errors in exc.error_dict.values() for error in errors]
    return exc.error_list


def roster_import_check(
    *, entry: TeamEntry, file, by: User, name: str | None = None, now: datetime.datetime | None = None
) -> RosterImport:
    """Read a roster file (CSV or XLSX) and check every row as a player added by hand; write and lock nothing.

    Refused at once, before the rows are read one by one: a closed entry, a
    frozen roster (3.1.1 B), a file that is not CSV or XLSX or is too large, and
    a file with more rows than the roster can take (3.1.1 A, R-04). Then every
    row goes through ``check_roster_add`` (3.1.1 A-B, 3.1.2, 3.2.9 C-E; R-04..R-06;
    1.1 A for the person), the rows before it counted; the errors name each row
    as the spreadsheet shows it, its column and the rule.
    """
    now = resolve_now(now)
    check_can_manage_entry(by, entry)
    entry = TeamEntry.objects.select_related("championship__venue", "federation").get(pk=entry.pk)
    try:
        check_entry_open(entry)
        check_roster_change(entry, kind=roster_rules.ADD, now=now)
    except ValidationError as exc:  # once, for the whole file, beside the file
        raise field_error(roster_files.FIELD, _error_list(exc)) from None
    roster = list(entry.roster.select_related("person"))
    limits = roster_limits(entry.championship)
    try:
        content = roster_files.read_roster_file(
            file, max_rows=roster_rules.roster_room(on_roster=len(roster), limits=limits), name=name
        )
    except CoreInputError as exc:
        raise core_error(exc) from None
    problem = roster_rules.check_roster_room(len(content.rows), on_roster=len(roster), limits=limits)
    if problem is not None:
        raise field_error(
            roster_files.FIELD,
            _(
                "%(file)s has more rows than the roster can take: %(problem)s.",
                file=content.name,
                problem=problem.message,
            ),
        )
    lines: list[ImportLine] = []
    errors: list[tuple[int, str]] = []
    for row in content.rows:
        try:
            lines.append(_import_line(entry, row))
        except _RowError as exc:
            errors.append(
                (
                    row.number,
                    _("Row %(row)s, %(column)s: %(problem)s", row=row.number, column=exc.column, problem=exc.message),
                )
            )
    errors += _check_import_lines(entry, roster, lines, now=now)[1]
    if errors:
        raise field_error(roster_files.FIELD, [message for _, message in sorted(errors, key=lambda error: error[0])])
    return RosterImport(entry=entry, name=content.name, lines=tuple(lines), now=now)


def roster_import_save(checked: RosterImport, *, by: User) -> list[RosterEntry]:
    """Save a checked roster file in one short transaction: the entry and the people locked, the rows checked
    again against the roster as it is now (another change may have come in between), all or nothing."""
    check_can_manage_entry(by, checked.entry)
    with transaction.atomic():
        entry = _locked_entry(checked.entry.pk)
        # Lock the people too, in one order: two teams taking the same player at once must not both succeed.
        people = sorted({line.person.pk for line in checked.lines})
        list(Person.objects.select_for_update().filter(pk__in=people).order_by("pk").values_list("pk", flat=True))
        new, errors = _check_import_lines(
            entry, list(entry.roster.select_related("person")), checked.lines, now=checked.now
        )
        if errors:
            raise field_error(roster_files.FIELD, [message for _, message in errors])
        bulk_create_with_history(new, RosterEntry, default_user=by)
        championship_changed(entry.championship_id)
    return new


def roster_import(
    *, entry: TeamEntry, file, by: User, name: str | None = None, now: datetime.datetime | None = None
) -> list[RosterEntry]:
    """Add a file's players to the entry's roster, or nothing if any row fails: ``roster_import_check``
    (no transaction, no lock), then ``roster_import_save`` (one short transaction)."""
    return roster_import_save(roster_import_check(entry=entry, file=file, by=by, name=name, now=now), by=by)


def team_official_add(*, entry: TeamEntry, person: Person, role: str, by: User):
    """Name a team official (Terminology: Team Official)."""
    check_can_manage_entry(by, entry)
    check_entry_open(entry)
    if role not in OfficialRole.values:
        raise field_error("role", _("one of %(roles)s", roles=", ".join(OfficialRole.values)))
    if TeamOfficial.objects.filter(entry=entry, person=person, role=role).exists():
        raise field_error("person", _("%(person)s is already named as %(role)s", person=person, role=role))
    with transaction.atomic():
        championship_changed(entry.championship_id)
        return audited_create(TeamOfficial, by, entry=entry, person=person, role=role)


# --- roster files out: the import's template and a roster's export (read back by the import) -----------------------

TEMPLATE_NOTES = (
    "One row per player; the header row names the columns (any order, upper or lower case).",
    "person_id: the Person id shown on the person's page. Give it, or last_name, first_name and date_of_birth.",
    "When two people of the federation have the same name and date of birth, give person_id as well.",
    "date_of_birth: a date cell, DD/MM/YYYY, YYYY-MM-DD, or the number Excel stores for a date.",
    "number: the jersey number, 1 to 99, no leading zero (Rule 3.2.9 C), unique in the team (3.2.9 D).",
    "position: player or goalkeeper (P, G, GK). 14 floor players and 2 goalkeepers at most (Rule 3.1.1 A, R-04).",
    "captain, alternate: yes or leave empty. One captain, at most three alternates, no goalkeeper (Rule 3.1.2).",
    "If any row is refused, nothing is saved: each error names the row, the column and the rule.",
)


@dataclasses.dataclass(frozen=True)
class RosterDocument:
    filename: str
    content_type: str
    content: bytes


def _document(stem: str, kind: str, rows: list[list], *, notes: Sequence[str] = (), blank_rows: int = 0):
    header = roster_files.COLUMNS
    if kind == roster_files.XLSX:
        content = roster_files.write_xlsx(header, rows, notes=notes, blank_rows=blank_rows)
    elif kind == roster_files.CSV:
        content = roster_files.write_csv(header, rows)
    else:
        raise ValueError(f"kind must be {roster_files.CSV} or {roster_files.XLSX}, not {kind!r}")
    return RosterDocument(f"{stem}.{kind}", roster_files.CONTENT_TYPES[kind], content)


def roster_import_template(kind: str) -> RosterDocument:
    """The file to fill for a roster import: the header of every column, the help on a second sheet (XLSX)."""
    return _document("roster-template", kind, [], notes=TEMPLATE_NOTES, blank_rows=20)


def roster_export(*, entry: TeamEntry, kind: str, by: User) -> RosterDocument:
    """The entry's roster as CSV or XLSX, in the import's columns (a roster exported reads back as an import),
    for those who may read the entry's page (its managers, its federation's staff, international staff)."""
    check_can_manage_entry(by, entry)
    rows = [
        [
            line.person_id,
            line.person.last_name,
            line.person.first_name,
            line.person.date_of_birth,
            line.number,
            line.position,
            "yes" if line.captain else "",
            "yes" if line.alternate else "",
        ]
        for line in RosterEntry.objects.filter(entry=entry).select_related("person").order_by("position", *NUMBER_ORDER)
    ]
    stem = "-".join(part for part in slugify(f"{entry.name} {entry.championship.name}").split("-") if part)
    return _document(f"roster-{stem or entry.pk}", kind, rows)
