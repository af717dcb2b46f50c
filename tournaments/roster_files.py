"""Reading a roster file, CSV or XLSX: its header and its data rows, numbered as the spreadsheet shows them.

Pure Python (no Django, no database): ``services.roster_import`` checks what
the rows say. Columns (a header row, any order, case-insensitive):

- ``person_id`` — the person's id in the register, or
- ``last_name``, ``first_name``, ``date_of_birth`` (a date cell, DD/MM/YYYY,
  YYYY-MM-DD or an Excel date number: ``read_date``) — a person of the entering
  federation; when two people match, the row gives ``person_id`` too;
- ``number`` — jersey number as printed (3.2.9 C: 1-99, no leading zero);
- ``position`` — ``player`` or ``goalkeeper`` (``P``/``G``/``GK`` accepted);
- ``captain``, ``alternate`` — yes/no (``y``, ``x``, ``1``, ``true`` count as yes).

A CSV file is UTF-8 text (a spreadsheet's BOM is fine), separated by commas,
semicolons or tabs; of an XLSX workbook the active sheet is read. The file's
type is recognised by its content (``filetype``, as the uploads of scans are)
and its name, when it has one, must agree: ``.csv`` for text, ``.xlsx`` for a
workbook. The header is the first row that is not blank; a blank row is
skipped but keeps its number, so ``rows[i].number`` is the row the
spreadsheet shows (the header usually row 1, the first player row 2).

Reading stops after ``max_rows + 1`` data rows: a file longer than the roster
can take is refused without reading the rest (R-04), and a file larger than
``MAX_BYTES`` (or an XLSX unpacking to more than ``MAX_UNPACKED_BYTES``, or a
sheet whose dimension reaches past ``MAX_FILE_ROWS``) is refused before any row
is read. Reading also stops at row ``MAX_FILE_ROWS + 1``, blank rows counted:
a sheet may say less than it holds.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import zipfile
from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import IO, Any

import filetype  # type: ignore[import-untyped]  # no stubs; guess() reads magic bytes
import openpyxl
import openpyxl.utils
from openpyxl.worksheet._read_only import ReadOnlyWorksheet

from tournaments.errors import CoreInputError

FIELD = "file"
# A roster of 16 players is a few kilobytes, as CSV or XLSX; a logo or formatting in a workbook stays far below.
MAX_BYTES = 512 * 1024
# What an XLSX may unpack to. A roster sheet's XML is a few kilobytes; openpyxl scans a whole sheet that does not
# state its dimensions while it opens it (about 0.3 s a megabyte), so this bounds the work of a small file that
# inflates (a zip bomb, or 25,000 rows of a sheet without its dimensions) before any row is read.
MAX_UNPACKED_BYTES = 4 * 1024 * 1024
# The rows of a roster file, blank ones included. A roster is a few dozen rows at most (16 players, 3.1.1 A /
# R-04, a header, notes); bounding the players alone is not enough: a 1.5 KB workbook whose one cell sits in
# row 1,048,576 made the reader walk a million blank rows (a second of a web worker for each upload).
MAX_FILE_ROWS = 1000
ROW_LIMIT_RULE = (
    f"a roster file has at most {MAX_FILE_ROWS:,} rows, blank ones included "
    "(portal limit: a roster of 3.1.1 A / R-04 needs a few dozen)"
)
# The same for the columns of a workbook: a row is read as wide as its last cell, so one cell in column XFD
# makes a row of 16,384 cells. The header names at most eight; cells beyond the header are ignored anyway.
MAX_FILE_COLUMNS = 50
COLUMN_LIMIT_RULE = f"a roster sheet has at most {MAX_FILE_COLUMNS} columns (portal limit: the header names eight)"

CSV = "csv"
XLSX = "xlsx"
XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
# The accepted types: extension -> content type (the form's ``accept``, the API schema's encoding).
CONTENT_TYPES = {CSV: "text/csv", XLSX: XLSX_MIME}
ACCEPT = ",".join([*(f".{kind}" for kind in CONTENT_TYPES), *CONTENT_TYPES.values()])
ACCEPTED = "a CSV file (UTF-8) or an XLSX workbook"

IDENTITY_COLUMNS = ("last_name", "first_name", "date_of_birth")
COLUMNS = ("person_id", *IDENTITY_COLUMNS, "number", "position", "captain", "alternate")

# filetype needs at most this many leading bytes to recognise a format.
_SNIFF_BYTES = 8192
_SEPARATORS = ",;\t"
_SNIFF_CHARS = 1024
# An OLE2 compound file: Excel 97-2003 (.xls), and the other Office formats of its time.
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


# A file's records: (row number as the spreadsheet shows it, its cells as text).
Records = Generator[tuple[int, Sequence[str]], None, None]


@dataclass(frozen=True)
class RosterRow:
    """A data row: its number as the spreadsheet shows it and its cells as text, by column."""

    number: int
    cells: dict[str, str]


@dataclass(frozen=True)
class RosterFile:
    name: str  # the file's name as uploaded, or "the file"
    kind: str  # CSV or XLSX
    rows: tuple[RosterRow, ...]  # at most max_rows + 1: more than max_rows means the file has more


def read_roster_file(file: IO[bytes] | IO[str], *, max_rows: int, name: str | None = None) -> RosterFile:
    """Return the file's data rows (at most ``max_rows + 1``), or raise ``CoreInputError`` naming ``file``.

    Refused, each naming the file: a file larger than ``MAX_BYTES``, a type
    other than CSV or XLSX (by content, and by name when there is one), a
    corrupt workbook, text that is not UTF-8, a header without the number
    column or without a way to find the person, unknown or repeated columns.
    """
    name = PurePath(name or getattr(file, "name", None) or "").name or "the file"
    size = getattr(file, "size", None)
    if isinstance(size, int) and size > MAX_BYTES:
        raise _refused(name, f"is {size:,} bytes; a roster file is at most {_kb(MAX_BYTES)}")
    raw = file.read(MAX_BYTES + 1)
    data = raw.encode("utf-8") if isinstance(raw, str) else raw
    if len(data) > MAX_BYTES:
        raise _refused(name, f"is larger than {_kb(MAX_BYTES)}, the most a roster file may be")
    if not data:
        raise _refused(name, "is empty")
    kind = _kind(data, name)
    records = _bounded(_xlsx_records(data, name) if kind == XLSX else _csv_records(data, name), name)
    rows: list[RosterRow] = []
    try:
        header_number, header = _header(records, name)
        for number, values in records:
            cells = _cells(header, values)
            if any(cells.values()):
                rows.append(RosterRow(number=number, cells=cells))
                if len(rows) > max_rows:
                    break
    finally:
        records.close()  # an XLSX workbook closes its archive
    if not rows:
        raise _refused(name, f"has a header (row {header_number}) but no players")
    return RosterFile(name=name, kind=kind, rows=tuple(rows))


# --- dates as a spreadsheet stores them ------------------------------------------------------------------------------

# Excel's 1900 date system counts days from 30 December 1899 (its serial 60 is the 29 February 1900 that never was:
# the serials a date of birth can have, from 1 March 1900, are right from this day).
EXCEL_EPOCH = datetime.date(1899, 12, 30)
_EXCEL_FIRST_SERIAL = 61  # 1 March 1900
_EXCEL_LAST_SERIAL = 2958465  # 31 December 9999
_DAY_MONTH_YEAR = re.compile(r"(\d{1,2})[./-](\d{1,2})[./-](\d{4})")
_YEAR_MONTH_DAY = re.compile(r"(\d{4})[./-](\d{1,2})[./-](\d{1,2})(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?")
_SERIAL = re.compile(r"\d{2,7}(?:\.\d+)?")
DATE_FORMATS = "a date cell, DD/MM/YYYY, YYYY-MM-DD or an Excel date number"


def read_date(text: str) -> datetime.date:
    """A date as a roster file gives it, or ``ValueError`` saying which forms are read.

    Read: a workbook's date cell (``_text`` gives it as YYYY-MM-DD, with its time if it has one), ISO text
    (YYYY-MM-DD), day/month/year text (DD/MM/YYYY, with "/", "." or "-"; the year in four digits: "03/04/05" says
    no century) and an Excel date serial (a date cell that lost its format, or saved as a number: 36892 is
    1 January 2001).
    """
    value = (text or "").strip()
    try:
        if found := _YEAR_MONTH_DAY.fullmatch(value):
            year, month, day = found.groups()
            return datetime.date(int(year), int(month), int(day))
        if found := _DAY_MONTH_YEAR.fullmatch(value):
            day, month, year = found.groups()
            return datetime.date(int(year), int(month), int(day))
    except ValueError:
        raise ValueError(f"{value!r} is no day of the calendar (read as {DATE_FORMATS})") from None
    if _SERIAL.fullmatch(value):
        serial = int(float(value))
        if _EXCEL_FIRST_SERIAL <= serial <= _EXCEL_LAST_SERIAL:
            return EXCEL_EPOCH + datetime.timedelta(days=serial)
    raise ValueError(f"{DATE_FORMATS}, not {value!r}")


# --- writing a roster file: the import's template and a roster's export ----------------------------------------------


def write_csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> bytes:
    """A CSV file as a spreadsheet opens it: UTF-8 with a BOM (Excel reads the accents), commas, CRLF."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    for row in rows:
        writer.writerow(["" if value is None else _csv_cell(value) for value in row])
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def _csv_cell(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, datetime.date):
        return value.isoformat()
    text = str(value)
    # A cell a spreadsheet would run as a formula (CSV injection): quoted as text.
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text


def write_xlsx(
    header: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    title: str = "Roster",
    notes: Sequence[str] = (),
    blank_rows: int = 0,
) -> bytes:
    """An XLSX workbook: the active sheet ``title`` with the header and the rows (dates as date cells, DD/MM/YYYY;
    jersey numbers as text, so that a leading zero stays visible to the 3.2.9 C check), then ``notes`` on a
    second sheet. ``blank_rows`` rows below the data get the same cell formats (a template to fill)."""
    workbook = openpyxl.Workbook()
    sheet = workbook.worksheets[0]  # the active sheet of a new workbook
    sheet.title = title[:31]
    sheet.append(list(header))
    count = 0
    for count, row in enumerate(rows, start=1):  # noqa: B007 (the count is read after the loop)
        sheet.append(["" if value is None else value for value in row])
    formats = {"date_of_birth": "DD/MM/YYYY", "number": "@", "person_id": "0"}
    for index, column in enumerate(header, start=1):
        letter = openpyxl.utils.get_column_letter(index)
        sheet.column_dimensions[letter].width = max(12, len(column) + 4)
        if column in formats:
            for (cell,) in sheet.iter_rows(min_row=2, max_row=count + 1 + blank_rows, min_col=index, max_col=index):
                cell.number_format = formats[column]
    sheet.freeze_panes = "A2"
    if notes:
        help_sheet = workbook.create_sheet("Help")
        for line in notes:
            help_sheet.append([line])
        help_sheet.column_dimensions["A"].width = 100
    workbook.active = 0
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def _refused(name: str, message: str) -> CoreInputError:
    return CoreInputError(FIELD, f"{name} {message}.")


def _kb(size: int) -> str:
    return f"{size // 1024} KB"


def _kind(data: bytes, name: str) -> str:
    """CSV or XLSX by the content, and by the name's extension when there is one: both must agree."""
    guess = filetype.guess(data[:_SNIFF_BYTES])
    if data.startswith(_OLE_MAGIC):
        raise _refused(name, "is an Excel 97-2003 workbook (.xls) or another old Office file; save it as .xlsx or CSV")
    if guess is None:
        kind = CSV  # text, or bytes of no known format (refused below if they are not UTF-8 text)
    elif guess.mime == XLSX_MIME:
        kind = XLSX
    elif guess.mime == "application/zip" and PurePath(name).suffix.lower() == f".{XLSX}":
        raise _refused(name, "is not a readable XLSX workbook")  # a zip without a workbook's parts
    else:
        raise _refused(name, f"is a {guess.extension.upper()} file ({guess.mime}); send {ACCEPTED}")
    suffix = PurePath(name).suffix.lower().lstrip(".")
    if suffix and suffix != kind:
        if suffix in CONTENT_TYPES:
            found = "an XLSX workbook" if kind == XLSX else "text, not an XLSX workbook"
            raise _refused(name, f"is named .{suffix} but its content is {found}; send {ACCEPTED}")
        raise _refused(name, f"is a .{suffix} file; send {ACCEPTED} (.csv or .xlsx)")
    return kind


def _bounded(records: Records, name: str) -> Records:
    """The records up to row ``MAX_FILE_ROWS``; a file that has a row beyond is refused once that row is read
    (at most ``MAX_FILE_ROWS + 1`` rows are ever read, whatever the file says of its size)."""
    try:
        for number, values in records:
            if number > MAX_FILE_ROWS:
                raise _refused(name, f"has more than {MAX_FILE_ROWS:,} rows; {ROW_LIMIT_RULE}")
            yield number, values
    finally:
        records.close()  # an XLSX workbook closes its archive


def _csv_records(data: bytes, name: str) -> Records:
    """The CSV records numbered from 1, blank ones included (a quoted cell may hold a line break)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _refused(
            name, "is neither UTF-8 text nor an XLSX workbook (save the spreadsheet as CSV UTF-8 or XLSX)"
        ) from None
    # The separator is the header's: its first line that is not blank (a header is short; the sniffer's
    # regular expressions are not made for a line of half a megabyte).
    first = next((line for line in text.splitlines() if line.strip()), "")[:_SNIFF_CHARS]
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(first, delimiters=_SEPARATORS)
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text, newline=""), dialect)
    number = 0
    try:
        for number, record in enumerate(reader, start=1):  # noqa: B007 (the number is read after an error)
            yield number, record
    except csv.Error as exc:
        raise _refused(name, f"is not a readable CSV file (row {number + 1}: {exc})") from None


def _xlsx_records(data: bytes, name: str) -> Records:
    """The active sheet's rows numbered as the sheet shows them (missing rows come as blank rows)."""
    # A damaged workbook makes zipfile and openpyxl raise more than BadZipFile, InvalidFileException or an XML
    # ParseError on a part that is not what they expect (seen: KeyError, TypeError, ValueError,
    # NotImplementedError for a zip version, OverflowError for a date). The file is the user's, not the
    # program's: any of them is "not readable", never a 500.
    corrupt = _refused(name, "is not a readable XLSX workbook")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except Exception:
        raise corrupt from None
    if unpacked > MAX_UNPACKED_BYTES:
        raise _refused(name, f"unpacks to more than {MAX_UNPACKED_BYTES // 1024 // 1024} MB; no roster needs that")
    try:
        workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception:
        raise corrupt from None
    try:
        sheet = workbook.active
        if not isinstance(sheet, ReadOnlyWorksheet):
            raise _refused(name, "has no worksheet to read (its active sheet is a chart)")
        # The sheet's dimension record, read as it opened: a sheet that says it reaches past the limits is refused
        # unread.
        if sheet.max_row is not None and sheet.max_row > MAX_FILE_ROWS:
            raise _refused(name, f"reaches row {sheet.max_row:,} (its dimension); {ROW_LIMIT_RULE}")
        if sheet.max_column is not None and sheet.max_column > MAX_FILE_COLUMNS:
            raise _refused(name, f"reaches column {sheet.max_column:,} (its dimension); {COLUMN_LIMIT_RULE}")
        # The stored dimensions may be wrong (some tools write "A1"); read every row there is, up to the row limit
        # (``_bounded``), and no cell beyond the column limit.
        sheet.reset_dimensions()
        try:
            for number, values in enumerate(sheet.iter_rows(max_col=MAX_FILE_COLUMNS, values_only=True), start=1):
                yield number, [_text(value) for value in values]
        except Exception:  # as above, while the rows are read
            raise corrupt from None
    finally:
        workbook.close()


def _text(value: Any) -> str:
    """A cell's value as text as the sheet shows it: a whole number without ``.0``, a date as YYYY-MM-DD."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, datetime.datetime):
        return value.date().isoformat() if value.time() == datetime.time() else value.isoformat(sep=" ")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _header(records: Records, name: str) -> tuple[int, list[str]]:
    """Return the header's row number and its columns (normalized; "" for a column without a name)."""
    for number, values in records:
        if not any(value.strip() for value in values):
            continue
        header = [value.strip().lower().replace(" ", "_") for value in values]
        _check_columns(header, number, name)
        return number, header
    raise _refused(name, "is empty")


def _check_columns(header: Iterable[str], number: int, name: str) -> None:
    seen: set[str] = set()
    for column in header:
        if not column:
            continue
        if column not in COLUMNS:
            raise _refused(
                name, f"has an unknown column {column!r} (row {number}); the columns are {', '.join(COLUMNS)}"
            )
        if column in seen:
            raise _refused(name, f"has the column {column!r} twice (row {number})")
        seen.add(column)
    if "number" not in seen:
        raise _refused(name, f"has no number column (row {number}); it is required (3.2.9 C)")
    if "person_id" not in seen and not all(column in seen for column in IDENTITY_COLUMNS):
        raise _refused(name, "names no person: give person_id, or last_name, first_name and date_of_birth")


def _cells(header: Sequence[str], values: Sequence[str]) -> dict[str, str]:
    return {column: (values[i].strip() if i < len(values) else "") for i, column in enumerate(header) if column}
