"""Roster import from a CSV file: every row checked by the roster services, all or nothing.

Columns (header row, any order, case-insensitive; comma, semicolon or tab):

- ``person_id`` — the person's id in the register, or
- ``last_name``, ``first_name``, ``date_of_birth`` (YYYY-MM-DD) — a person of
  the entering federation;
- ``number`` — jersey number as printed (3.2.9 C: 1-99, no leading zero);
- ``position`` — ``player`` or ``goalkeeper`` (``P``/``G``/``GK`` accepted);
- ``captain``, ``alternate`` — yes/no (``y``, ``x``, ``1``, ``true`` count as yes).

Each error names its row (the header is row 1), the column and the rule. If
any row fails, nothing is saved.
"""

from __future__ import annotations

import csv
import datetime
import io

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from simple_history.utils import bulk_create_with_history

from accounts.models import User
from federation.models import Person

from . import services
from .models import Position, RosterEntry, TeamEntry

MAX_BYTES = 512 * 1024
IDENTITY_COLUMNS = ("last_name", "first_name", "date_of_birth")
COLUMNS = ("person_id", *IDENTITY_COLUMNS, "number", "position", "captain", "alternate")
POSITIONS = {
    "player": Position.PLAYER,
    "p": Position.PLAYER,
    "skater": Position.PLAYER,
    "floor player": Position.PLAYER,
    "goalkeeper": Position.GOALKEEPER,
    "goalie": Position.GOALKEEPER,
    "g": Position.GOALKEEPER,
    "gk": Position.GOALKEEPER,
}
YES = {"y", "yes", "x", "1", "true"}
NO = {"", "n", "no", "0", "false"}


class RowError(Exception):
    def __init__(self, column: str, message: str):
        super().__init__(message)
        self.column = column
        self.message = message


def _read(file) -> list[dict[str, str]]:
    """Return the rows as dicts keyed by normalized column names; refuse what is not a readable CSV."""
    raw = file.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        raise ValidationError({"file": f"the file is larger than {MAX_BYTES // 1024} KB"})
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValidationError({"file": "the file is not UTF-8 text (save the spreadsheet as CSV UTF-8)"}) from None
    try:
        dialect = csv.Sniffer().sniff(raw.split("\n", 1)[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(raw), dialect)
    try:
        rows = list(reader)
    except csv.Error as exc:
        raise ValidationError({"file": f"the file is not a readable CSV ({exc})"}) from None
    if not rows:
        raise ValidationError({"file": "the file is empty"})
    header = [h.strip().lower().replace(" ", "_") for h in rows[0]]
    unknown = [h for h in header if h and h not in COLUMNS]
    if unknown:
        raise ValidationError({"file": f"unknown column {unknown[0]!r}; the columns are {', '.join(COLUMNS)}"})
    if "number" not in header:
        raise ValidationError({"file": "the number column is required (3.2.9 C)"})
    if "person_id" not in header and not all(c in header for c in IDENTITY_COLUMNS):
        raise ValidationError({"file": "give person_id, or last_name, first_name and date_of_birth"})
    return [
        {column: (row[i].strip() if i < len(row) else "") for i, column in enumerate(header) if column}
        for row in rows[1:]
        if any(cell.strip() for cell in row)
    ]


def _flag(row: dict[str, str], column: str) -> bool:
    value = row.get(column, "").strip().lower()
    if value in YES:
        return True
    if value in NO:
        return False
    raise RowError(column, f"yes or no, not {value!r}")


def _person(row: dict[str, str], entry: TeamEntry) -> Person:
    if row.get("person_id"):
        try:
            person_id = int(row["person_id"])
            # Only the entering federation's register (1.1 A): the row names the id, never another federation's person.
            return Person.objects.get(pk=person_id, federation_id=entry.federation_id)
        except (ValueError, OverflowError, Person.DoesNotExist):
            raise RowError(
                "person_id", f"Rule 1.1 A: no person with id {row['person_id']!r} in {entry.federation}"
            ) from None
    missing = [c for c in IDENTITY_COLUMNS if not row.get(c)]
    if missing:
        raise RowError(missing[0], "required when there is no person_id")
    try:
        born = datetime.date.fromisoformat(row["date_of_birth"])
    except ValueError:
        raise RowError("date_of_birth", f"a date as YYYY-MM-DD, not {row['date_of_birth']!r}") from None
    matches = list(
        Person.objects.filter(
            federation=entry.federation,
            last_name__iexact=row["last_name"],
            first_name__iexact=row["first_name"],
            date_of_birth=born,
        )[:2]
    )
    if not matches:
        raise RowError(
            "last_name", f"no person of {entry.federation} named {row['first_name']} {row['last_name']}, born {born}"
        )
    if len(matches) > 1:
        raise RowError("last_name", "two people of the federation match; give person_id")
    return matches[0]


def roster_import_csv(entry: TeamEntry, file, *, by: User, now: datetime.datetime | None = None) -> list[RosterEntry]:
    """Add the file's players to the entry's roster, or nothing if any row fails.

    Every row goes through ``services.check_roster_add``, the same checks as a
    player added by hand (3.1.1 A-B, 3.1.2, 3.2.9 C-E; R-04..R-06), with the
    rows before it already counted.
    """
    now = now or timezone.now()
    services.check_can_manage_entry(by, entry)
    rows = _read(file)
    if not rows:
        raise ValidationError({"file": "the file has a header but no players"})
    with transaction.atomic():
        entry = (
            TeamEntry.objects.select_for_update(of=("self",))
            .select_related("championship__venue", "federation")
            .get(pk=entry.pk)
        )
        roster = list(entry.roster.all())
        new: list[RosterEntry] = []
        errors: list[str] = []
        for number, row in enumerate(rows, start=2):
            try:
                position = POSITIONS.get(row.get("position", "player").strip().lower() or "player")
                if position is None:
                    raise RowError("position", f"Rule 3.1.1 A: player or goalkeeper, not {row['position']!r}")
                line = services.check_roster_add(
                    entry=entry,
                    roster=[*roster, *new],
                    person=_person(row, entry),
                    number=row.get("number", ""),
                    position=position,
                    captain=_flag(row, "captain"),
                    alternate=_flag(row, "alternate"),
                    now=now,
                )
            except RowError as exc:
                errors.append(f"Row {number}, {exc.column}: {exc.message}")
            except ValidationError as exc:
                errors.extend(
                    f"Row {number}, {field}: {message}"
                    for field, messages in exc.message_dict.items()
                    for message in messages
                )
            else:
                new.append(line)
        if errors:
            raise ValidationError({"file": errors})
        bulk_create_with_history(new, RosterEntry, default_user=by)
    return new
