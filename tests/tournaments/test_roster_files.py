"""Reading a roster file (CSV or XLSX): row numbers as the spreadsheet shows them, the type by content and name,
the limits before the rows are read. Database-free: ``tournaments.roster_files`` is a pure core."""

import datetime
import io
import random
import time
import zipfile

import pytest

from tournaments import roster_files
from tournaments.errors import CoreInputError
from tournaments.roster_files import read_roster_file

from .conftest import LAST_COLUMN, LAST_ROW, far_cell_xlsx, xlsx_bytes


class Named(io.BytesIO):
    """An upload as Django hands it over: bytes with a name and a size."""

    def __init__(self, data: bytes, name: str):
        super().__init__(data)
        self.name = name
        self.size = len(data)


def read(data: bytes, name: str | None = None, *, max_rows: int = 16):
    return read_roster_file(Named(data, name) if name else io.BytesIO(data), max_rows=max_rows)


def refusal(data: bytes, name: str | None = None, **kwargs) -> str:
    with pytest.raises(CoreInputError) as exc:
        read(data, name, **kwargs)
    assert exc.value.field == "file"
    return exc.value.message


def numbers(result) -> list[int]:
    return [row.number for row in result.rows]


def test_csv_rows_are_numbered_as_the_spreadsheet_shows_them_blank_rows_included():
    result = read(b"person_id,number\n1,9\n\n , \n,\n2,10\r\n3,11", "roster.csv")
    assert result.kind == roster_files.CSV
    assert result.name == "roster.csv"
    assert numbers(result) == [2, 6, 7]
    assert [row.cells for row in result.rows][1] == {"person_id": "2", "number": "10"}


def test_the_header_is_the_first_row_that_is_not_blank():
    result = read(b"\n\nPerson ID;Number;Position\n7;9;G\n")
    assert numbers(result) == [4]
    assert result.rows[0].cells == {"person_id": "7", "number": "9", "position": "G"}


def test_missing_cells_are_blank_and_cells_beyond_the_header_are_ignored():
    result = read(b"person_id,number,,captain\n1\n2,3,x,y,z\n")
    assert [row.cells for row in result.rows] == [
        {"person_id": "1", "number": "", "captain": ""},
        {"person_id": "2", "number": "3", "captain": "y"},
    ]


def test_xlsx_rows_keep_the_sheets_numbers_and_cells_read_as_shown():
    rows = [
        None,
        ["Last name", "First name", "Date of birth", "Number", "Captain", "Person ID"],
        ["Rossi", "Marco", datetime.datetime(1995, 4, 2), 9, True, None],
        None,
        [None, None, datetime.date(2001, 1, 31), 10.0, False, 123456789012],
        [None, None, None, "07", None, 12.5],
    ]
    result = read(xlsx_bytes(rows, at=2), "Roster.XLSX")
    assert result.kind == roster_files.XLSX
    assert numbers(result) == [4, 6, 7]
    assert [row.cells for row in result.rows] == [
        {
            "last_name": "Rossi",
            "first_name": "Marco",
            "date_of_birth": "1995-04-02",
            "number": "9",
            "captain": "yes",
            "person_id": "",
        },
        {
            "last_name": "",
            "first_name": "",
            "date_of_birth": "2001-01-31",
            "number": "10",
            "captain": "no",
            "person_id": "123456789012",
        },
        {"last_name": "", "first_name": "", "date_of_birth": "", "number": "07", "captain": "", "person_id": "12.5"},
    ]


def test_an_xlsx_without_a_name_is_recognised_by_its_content():
    assert read(xlsx_bytes([["person_id", "number"], [1, 2]])).kind == roster_files.XLSX


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_reading_stops_after_one_row_more_than_the_roster_can_take(kind):
    rows = [["person_id", "number"], *([i, 9] for i in range(1, 10_001))]
    data = xlsx_bytes(rows) if kind == "xlsx" else "".join(f"{a},{b}\n" for a, b in rows).encode()
    result = read(data, f"big.{kind}", max_rows=16)
    assert len(result.rows) == 17
    assert numbers(result) == list(range(2, 19))


# --- the rows and columns of a file, blank ones included (a 5 KB workbook reaching row 1,048,576) -----------------

ROW_RULE = "a roster file has at most 1,000 rows, blank ones included (portal limit: a roster of 3.1.1 A / R-04"
# Far under the second a million blank rows took (1.2 s an upload on the probe's machine, 0.9 s here).
QUICK = 0.3


def timed_refusal(data: bytes, name: str) -> tuple[str, float]:
    start = time.perf_counter()
    message = refusal(data, name)
    return message, time.perf_counter() - start


def test_a_sheet_whose_dimension_reaches_the_last_row_is_refused_before_a_row_is_read():
    data = far_cell_xlsx(row=LAST_ROW)
    assert len(data) < 8 * 1024
    message, seconds = timed_refusal(data, "far.xlsx")
    assert message == f"far.xlsx reaches row 1,048,576 (its dimension); {ROW_RULE} needs a few dozen)."
    assert seconds < QUICK


@pytest.mark.parametrize("dimension", ["A1:B2", None], ids=["lying", "missing"])
def test_a_sheet_that_hides_its_last_row_is_refused_after_the_limit_not_a_million_blank_rows(dimension):
    message, seconds = timed_refusal(far_cell_xlsx(row=LAST_ROW, dimension=dimension), "far.xlsx")
    assert message == f"far.xlsx has more than 1,000 rows; {ROW_RULE} needs a few dozen)."
    assert seconds < QUICK


def test_reading_stops_at_the_row_after_the_limit(monkeypatch):
    """At most ``MAX_FILE_ROWS + 1`` rows are read, blank ones included, whatever the sheet says of its size."""
    seen = []
    text = roster_files._text
    monkeypatch.setattr(roster_files, "_text", lambda value: seen.append(value) or text(value))
    refusal(far_cell_xlsx(row=LAST_ROW, dimension="A1:B2"), "far.xlsx")
    # Rows 1 to 1,001, each as wide as the column limit; not the 1,048,576 rows up to the far cell.
    assert len(seen) == (roster_files.MAX_FILE_ROWS + 1) * roster_files.MAX_FILE_COLUMNS


def test_a_csv_file_of_blank_lines_is_refused_after_the_limit():
    data = b"person_id,number\n" + b"\n" * (roster_files.MAX_BYTES - 100)
    message, seconds = timed_refusal(data, "blank.csv")
    assert message == f"blank.csv has more than 1,000 rows; {ROW_RULE} needs a few dozen)."
    assert seconds < QUICK


def test_a_player_in_the_last_row_the_limit_allows_is_read():
    rows = [["person_id", "number"], *([None] * (roster_files.MAX_FILE_ROWS - 2)), [7, 9]]
    for data, name in [(xlsx_bytes(rows), "edge.xlsx"), (b"person_id,number\n" + b"\n" * 998 + b"7,9\n", "edge.csv")]:
        result = read(data, name)
        assert numbers(result) == [1000]
        assert result.rows[0].cells == {"person_id": "7", "number": "9"}
    one_more = [rows[0], None, *rows[1:]]
    assert (
        refusal(xlsx_bytes(one_more), "over.xlsx")
        == f"over.xlsx has more than 1,000 rows; {ROW_RULE} needs a few dozen)."
    )


def test_a_sheet_whose_dimension_reaches_column_xfd_is_refused_unread():
    message, seconds = timed_refusal(far_cell_xlsx(row=2, column=LAST_COLUMN), "wide.xlsx")
    assert message == (
        "wide.xlsx reaches column 16,384 (its dimension); a roster sheet has at most 50 columns "
        "(portal limit: the header names eight)."
    )
    assert seconds < QUICK


def test_cells_beyond_the_column_limit_of_a_sheet_hiding_them_are_not_read(monkeypatch):
    seen = []
    text = roster_files._text
    monkeypatch.setattr(roster_files, "_text", lambda value: seen.append(value) or text(value))
    data = far_cell_xlsx(row=2, column=LAST_COLUMN, dimension="A1:B2", rows=[["person_id", "number"], [7, 9]])
    result = read(data, "wide.xlsx")
    assert [row.cells for row in result.rows] == [{"person_id": "7", "number": "9"}]
    assert len(seen) == 2 * roster_files.MAX_FILE_COLUMNS  # not the 16,384 cells up to column XFD


def test_a_file_larger_than_the_limit_is_refused_by_its_size_before_it_is_read():
    class Unreadable(Named):
        def read(self, *args):
            raise AssertionError("read although its size says it is too large")

    data = b"person_id,number\n" + b"1,9\n" * (roster_files.MAX_BYTES // 4)
    with pytest.raises(CoreInputError) as exc:
        read_roster_file(Unreadable(data, "big.csv"), max_rows=16)
    assert exc.value.message == f"big.csv is {len(data):,} bytes; a roster file is at most 512 KB."
    assert refusal(data) == "the file is larger than 512 KB, the most a roster file may be."


def test_an_xlsx_that_unpacks_beyond_the_limit_is_refused_before_it_is_opened():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"<row/>" * (roster_files.MAX_UNPACKED_BYTES // 6 + 1))
        archive.writestr("[Content_Types].xml", b"<Types/>")
    assert len(out.getvalue()) < roster_files.MAX_BYTES
    assert refusal(out.getvalue(), "bomb.xlsx") == "bomb.xlsx unpacks to more than 4 MB; no roster needs that."


@pytest.mark.parametrize(
    ("data", "name", "says"),
    [
        (b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "roster.pdf", "roster.pdf is a PDF file (application/pdf)"),
        (b"\x89PNG\r\n\x1a\n" + bytes(32), None, "the file is a PNG file"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600), "old.xls", "is an Excel 97-2003 workbook (.xls)"),
        (b"person_id,number\n1,9\n", "roster.xlsx", "is named .xlsx but its content is text, not an XLSX workbook"),
        (b"person_id,number\n1,9\n", "roster.txt", "roster.txt is a .txt file"),
        (b"PK\x03\x04" + bytes(26) + b"xl/worksheets/sheet1.xml" + bytes(40), "x.xlsx", "x.xlsx is not a readable"),
        (b"person_id,number\n1,\xe9\n", "latin.csv", "latin.csv is neither UTF-8 text nor an XLSX workbook"),
        (b'person_id,number\n1,"' + b"9" * 140_000 + b'"\n', "long.csv", "long.csv is not a readable CSV file (row 2"),
        (b"", "empty.csv", "empty.csv is empty"),
        (b"person_id,number\n", "header.csv", "header.csv has a header (row 1) but no players"),
        (b"name,number\n", None, "the file has an unknown column 'name' (row 1)"),
        (b"\nperson_id,person_id,number\n", None, "the file has the column 'person_id' twice (row 2)"),
        (b"person_id\n1\n", None, "the file has no number column (row 1); it is required (3.2.9 C)"),
        (b"last_name,number\nX,1\n", None, "the file names no person: give person_id"),
    ],
)
def test_what_is_not_a_roster_file_is_refused_naming_the_file(data, name, says):
    assert says in refusal(data, name)


def test_a_workbook_named_csv_is_refused():
    data = xlsx_bytes([["person_id", "number"], [1, 9]])
    assert refusal(data, "roster.csv") == (
        "roster.csv is named .csv but its content is an XLSX workbook; send a CSV file (UTF-8) or an XLSX workbook."
    )


def test_a_truncated_workbook_is_refused_as_unreadable():
    data = xlsx_bytes([["person_id", "number"], *([i, 9] for i in range(200))])
    assert refusal(data[: len(data) // 2], "cut.xlsx") == "cut.xlsx is not a readable XLSX workbook."


def test_a_damaged_workbook_is_refused_or_read_never_a_crash():
    """Bytes of a good workbook changed at random places: each reading gives rows or the file's refusal."""
    good = xlsx_bytes([["person_id", "number", "position"], *([i, i % 99 + 1, "player"] for i in range(1, 30))])
    rng = random.Random(8)
    outcomes = set()
    for _ in range(300):
        data = bytearray(good)
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        try:
            result = read(bytes(data), "damaged.xlsx")
        except CoreInputError as exc:
            assert exc.field == "file"
            assert exc.message.startswith("damaged.xlsx ")
            outcomes.add("refused")
        else:
            assert all(row.number >= 2 for row in result.rows)
            outcomes.add("read")
    assert "refused" in outcomes
