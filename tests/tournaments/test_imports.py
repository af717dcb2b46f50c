"""Roster import from CSV and XLSX: per-row errors naming row, column and rule; nothing saved if any row fails;
a file longer than the roster can take refused at once; the rows checked before the one short transaction."""

import datetime
import io

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import FederationFactory, GameFactory, RosterEntryFactory, UserFactory
from tournaments import roster_files
from tournaments.models import Position, RosterEntry
from tournaments.services import roster_add_player, roster_import, roster_import_check, roster_import_save

from .conftest import BEFORE_START, DURING, eligible_person, full_roster, xlsx_bytes

pytestmark = pytest.mark.django_db

WRITES = ("INSERT", "UPDATE", "DELETE", "SAVEPOINT", "BEGIN")
HEADER = ["last_name", "first_name", "date_of_birth", "number", "position", "captain", "alternate"]


def csv_file(text: str) -> io.BytesIO:
    return io.BytesIO(text.encode("utf-8"))


def roster_rows(entry, *, bad_number_on: int | None = None) -> list[list[str]]:
    """Eight players (six floor players, two goalkeepers) by name and date of birth, as text."""
    rows = []
    for i in range(8):
        person = eligible_person(entry.federation, is_goalkeeper=i >= 6)
        number = "07" if i == bad_number_on else str(i + 2)
        position = "goalkeeper" if i >= 6 else "player"
        captain = "yes" if i == 0 else ""
        alternate = "x" if i in (1, 2) else "no"
        rows.append(
            [
                person.last_name,
                person.first_name,
                f"{person.date_of_birth:%Y-%m-%d}",
                number,
                position,
                captain,
                alternate,
            ]
        )
    return rows


def roster_csv(entry, *, bad_number_on: int | None = None) -> str:
    return "\n".join(",".join(row) for row in [HEADER, *roster_rows(entry, bad_number_on=bad_number_on)]) + "\n"


def errors(exc) -> list[str]:
    return exc.value.message_dict["file"]


def import_file(entry, by, file, **kwargs):
    return roster_import(entry=entry, file=file, by=by, now=BEFORE_START, **kwargs)


def only_error(entry, by, file) -> str:
    """The one error of a file refused with a single row error; nothing is stored."""
    with pytest.raises(ValidationError) as exc:
        import_file(entry, by, file)
    (message,) = errors(exc)
    assert not RosterEntry.objects.exists()
    return message


def writes(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(WRITES)]


def test_it_imports_a_complete_roster(entry, director):
    created = import_file(entry, director, csv_file(roster_csv(entry)))
    assert len(created) == 8
    assert entry.roster.count() == 8
    assert entry.roster.filter(position=Position.GOALKEEPER).count() == 2
    assert entry.roster.get(captain=True).number == "2"
    assert entry.roster.filter(alternate=True).count() == 2


def test_one_bad_row_saves_nothing_and_names_its_row_column_and_rule(entry, director):
    message = only_error(entry, director, csv_file(roster_csv(entry, bad_number_on=3)))
    assert message.startswith("Row 5, number: Rule 3.2.9 C")


def test_it_reports_every_bad_row(entry, director):
    text = roster_csv(entry)
    text += "Nobody,Known,1990-01-01,50,player,,\n"
    text += f"{entry.federation.people.first().last_name},x,1990-13-01,51,player,,\n"
    with pytest.raises(ValidationError) as exc:
        import_file(entry, director, csv_file(text))
    assert errors(exc)[0].startswith("Row 10, last_name: Rule 1.1 A: no person")
    assert errors(exc)[1].startswith("Row 11, date_of_birth")
    assert not RosterEntry.objects.exists()


def test_a_duplicate_number_within_the_file_is_refused_3_2_9_d(entry, director):
    a, b = eligible_person(entry.federation), eligible_person(entry.federation)
    text = f"person_id;number;position\n{a.pk};9;player\n{b.pk};9;player\n"
    assert (
        only_error(entry, director, csv_file(text)) == "Row 3, number: Rule 3.2.9 D: number 9 is already worn by row 2"
    )


def test_a_number_already_on_the_roster_names_the_player_who_wears_it_3_2_9_d(entry, director):
    worn = RosterEntryFactory(entry=entry, person=eligible_person(entry.federation), number="9")
    newcomer = eligible_person(entry.federation)
    text = f"person_id,number\n{newcomer.pk},9\n"
    with pytest.raises(ValidationError) as exc:
        import_file(entry, director, csv_file(text))
    assert errors(exc) == [f"Row 2, number: Rule 3.2.9 D: number 9 is already worn by {worn.person} (on the roster)"]
    assert list(entry.roster.all()) == [worn]


def test_a_fifteenth_floor_player_in_the_file_is_refused_r_04(entry, director):
    people = [eligible_person(entry.federation) for _ in range(15)]
    text = "person_id,number\n" + "".join(f"{p.pk},{i + 1}\n" for i, p in enumerate(people))
    with pytest.raises(ValidationError) as exc:
        import_file(entry, director, csv_file(text))
    assert errors(exc)[0].startswith("Row 16, roster: Rule 3.1.1 A: at most 14 floor players")
    assert not RosterEntry.objects.exists()


def test_the_import_is_refused_once_the_championship_has_begun_3_1_1_b(entry, director):
    GameFactory(championship=entry.championship, home=entry)
    with pytest.raises(ValidationError) as exc:
        roster_import(entry=entry, file=csv_file(roster_csv(entry)), by=director, now=DURING)
    assert errors(exc) == [
        "Rule 3.1.1 B: once the championship has begun, no player can be added or substituted (R-05)"
    ]
    assert not RosterEntry.objects.exists()


def test_it_refuses_unknown_columns_and_strangers(entry, director):
    with pytest.raises(ValidationError) as exc:
        import_file(entry, director, csv_file("name,number\nX,1\n"))
    assert "unknown column 'name' (row 1)" in errors(exc)[0]
    with pytest.raises(PermissionDenied):
        import_file(entry, UserFactory(), csv_file(roster_csv(entry)))


def test_it_reads_semicolons_and_a_spreadsheet_bom(entry, director):
    person = eligible_person(entry.federation)
    text = "\ufeffperson_id;number;position;captain\n" + f"{person.pk};12;P;y\n"
    created = import_file(entry, director, csv_file(text))
    assert [(line.person, line.number, line.captain) for line in created] == [(person, "12", True)]


def test_another_federations_person_id_is_refused_like_a_hand_made_add_1_1_a(entry, director):
    """The import runs the single add's checks: another federation's register is not the team's to pick from."""
    stranger = eligible_person(FederationFactory())
    text = f"person_id,number,position\n{stranger.pk},9,player\n"
    with pytest.raises(ValidationError) as exc:
        import_file(entry, director, csv_file(text))
    assert errors(exc) == [f"Row 2, person_id: Rule 1.1 A: no person with id '{stranger.pk}' in {entry.federation}"]
    assert stranger.last_name not in errors(exc)[0]
    assert not RosterEntry.objects.exists()


def test_an_out_of_range_person_id_is_a_row_error_not_a_crash(entry, director):
    text = "person_id,number,position\n99999999999999999999999,9,player\n"
    with pytest.raises(ValidationError) as exc:
        import_file(entry, director, csv_file(text))
    assert errors(exc)[0].startswith("Row 2, person_id: Rule 1.1 A: no person with id")
    assert not RosterEntry.objects.exists()


# --- row numbers as the spreadsheet shows them ------------------------------------------------------------------------


def test_a_blank_csv_row_is_skipped_and_keeps_its_number(entry, director):
    a, b = eligible_person(entry.federation), eligible_person(entry.federation)
    text = f"person_id,number\n{a.pk},9\n\n,\n{b.pk},07\n"
    assert only_error(entry, director, csv_file(text)).startswith("Row 5, number: Rule 3.2.9 C")


def test_a_quoted_line_break_is_one_row_as_the_spreadsheet_shows_it(entry, director):
    a = eligible_person(entry.federation)
    text = f'person_id,number,position\n"{a.pk}",9,"player\nand more"\n{a.pk},10,player\n'
    with pytest.raises(ValidationError) as exc:
        import_file(entry, director, csv_file(text))
    assert errors(exc)[0].startswith("Row 2, position: Rule 3.1.1 A: player or goalkeeper")
    assert errors(exc)[1:] == []  # row 3 is the same person, but row 2 failed: it is not counted


# --- XLSX ---------------------------------------------------------------------------------------------------------------


def xlsx(rows, *, name="roster.xlsx", at=1) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, xlsx_bytes(rows, at=at), content_type=roster_files.XLSX_MIME)


def test_an_xlsx_workbook_is_imported_like_a_csv_file(entry, director):
    created = import_file(entry, director, xlsx([HEADER, *roster_rows(entry)]))
    assert len(created) == 8
    assert entry.roster.get(captain=True).number == "2"
    assert entry.roster.filter(alternate=True).count() == 2
    assert entry.roster.filter(position=Position.GOALKEEPER).count() == 2


def test_xlsx_cells_typed_as_numbers_dates_and_booleans_read_as_the_sheet_shows_them(entry, director):
    born = datetime.date(1995, 4, 2)
    rossi = eligible_person(entry.federation, last_name="Rossi", first_name="Marco", date_of_birth=born)
    keeper = eligible_person(entry.federation, is_goalkeeper=True)
    rows = [
        ["Last name", "First name", "Date of birth", "Person ID", "Number", "Position", "Captain"],
        ["Rossi", "Marco", datetime.datetime(1995, 4, 2), None, 9, "P", True],
        [None, None, None, keeper.pk, 1.0, "GK", False],
    ]
    created = import_file(entry, director, xlsx(rows))
    assert [(line.person, line.number, line.position, line.captain) for line in created] == [
        (rossi, "9", Position.PLAYER, True),
        (keeper, "1", Position.GOALKEEPER, False),
    ]


def test_xlsx_errors_name_the_row_the_sheet_shows_blank_rows_included(entry, director):
    a, b, c = (eligible_person(entry.federation) for _ in range(3))
    rows = [["person_id", "number"], [a.pk, 9], None, None, [b.pk, "07"], [c.pk, 9.5]]
    with pytest.raises(ValidationError) as exc:
        import_file(entry, director, xlsx(rows))
    assert [e.split(":")[0] for e in errors(exc)] == ["Row 5, number", "Row 6, number"]
    assert all("Rule 3.2.9 C" in e for e in errors(exc))
    assert not RosterEntry.objects.exists()


def test_an_xlsx_header_below_blank_rows_keeps_the_sheets_numbers(entry, director):
    a = eligible_person(entry.federation)
    stranger = eligible_person(FederationFactory())
    rows = [["person_id", "number"], [a.pk, 9], [stranger.pk, 10]]
    with pytest.raises(ValidationError) as exc:
        import_file(entry, director, xlsx(rows, at=3))
    assert errors(exc) == [f"Row 5, person_id: Rule 1.1 A: no person with id '{stranger.pk}' in {entry.federation}"]


# --- refused before the rows are read: type, size, the roster's room -----------------------------------------------------


@pytest.mark.parametrize(
    ("name", "content", "says"),
    [
        ("roster.pdf", b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n", "is a PDF file"),
        ("roster.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600), "is an Excel 97-2003 workbook (.xls)"),
        ("roster.xlsx", b"person_id,number\n1,9\n", "is named .xlsx but its content is text"),
        ("roster.csv", None, "is named .csv but its content is an XLSX workbook"),
        ("roster.ods", b"person_id,number\n1,9\n", "is a .ods file"),
        (
            "roster.xlsx",
            b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + b"\x00" * 20 + b"xl/worksheets/sheet1.xml" + bytes(64),
            "is not a readable XLSX workbook",
        ),
        ("roster.csv", "person_id,number\n1,9\n".encode("utf-16"), "is neither UTF-8 text nor an XLSX workbook"),
        ("roster.csv", b"", "is empty"),
        ("roster.csv", b"\n\n,,\n", "is empty"),
        ("roster.csv", b"person_id,number\n\n", "has a header (row 1) but no players"),
        ("roster.csv", b"person_id,number,number\n1,2,3\n", "has the column 'number' twice"),
        ("roster.csv", b"person_id,position\n1,player\n", "has no number column (row 1)"),
    ],
)
def test_a_corrupt_or_unsupported_file_is_refused_naming_the_file(entry, director, name, content, says):
    if content is None:
        content = xlsx_bytes([["person_id", "number"], [1, 9]])
    with pytest.raises(ValidationError) as exc:
        import_file(entry, director, SimpleUploadedFile(name, content))
    assert list(exc.value.message_dict) == ["file"]
    assert errors(exc)[0].startswith(f"{name} ")
    assert says in errors(exc)[0]
    assert not RosterEntry.objects.exists()


def test_a_file_larger_than_the_byte_limit_is_refused_unread(entry, director):
    big = SimpleUploadedFile("roster.csv", b"person_id,number\n" + b"1,9\n" * (roster_files.MAX_BYTES // 4))
    with CaptureQueriesContext(connection) as queries, pytest.raises(ValidationError) as exc:
        import_file(entry, director, big)
    assert errors(exc) == [f"roster.csv is {big.size:,} bytes; a roster file is at most 512 KB."]
    assert not writes(queries)
    unnamed = io.BytesIO(b"person_id,number\n" + b"1,9\n" * (roster_files.MAX_BYTES // 4))
    with pytest.raises(ValidationError) as exc:
        import_file(entry, director, unnamed)
    assert errors(exc)[0].startswith("the file is larger than 512 KB")


def many_rows(entry, rows: int) -> list[list]:
    person = eligible_person(entry.federation)
    return [["person_id", "number", "position"], *([person.pk, str(i % 99 + 1), "player"] for i in range(rows))]


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_a_10000_row_file_is_refused_at_once_by_the_roster_limit_r_04(entry, director, kind):
    rows = many_rows(entry, 10_000)
    if kind == "csv":
        upload = SimpleUploadedFile("big.csv", "".join(f"{a},{b},{c}\n" for a, b, c in rows).encode())
    else:
        upload = xlsx(rows, name="big.xlsx")
    with CaptureQueriesContext(connection) as queries, pytest.raises(ValidationError) as exc:
        import_file(entry, director, upload)
    assert errors(exc) == [
        f"big.{kind} has more rows than the roster can take: Rule 3.1.1 A: a roster holds at most 16 players "
        "(14 floor players and 2 goalkeepers, R-04); it has 0, so at most 16 can be added."
    ]
    # No row was looked up: the queries are the access check, the entry, its freeze and its roster, not 10,000 rows.
    assert len(queries) < 12, [q["sql"] for q in queries]
    assert not writes(queries)


def test_the_limit_counts_the_lines_already_on_the_roster(entry, director):
    full_roster(entry, skaters=10, goalkeepers=0)
    people = [eligible_person(entry.federation) for _ in range(7)]
    text = "person_id,number\n" + "".join(f"{p.pk},{i + 30}\n" for i, p in enumerate(people))
    with pytest.raises(ValidationError) as exc:
        import_file(entry, director, csv_file(text))
    assert "it has 10, so at most 6 can be added" in errors(exc)[0]
    keepers = [eligible_person(entry.federation, is_goalkeeper=True) for _ in range(2)]
    text = "person_id,number,position\n" + "".join(f"{p.pk},{i + 1},G\n" for i, p in enumerate(keepers))
    text += "".join(f"{p.pk},{i + 30},P\n" for i, p in enumerate(people[:4]))
    assert len(import_file(entry, director, csv_file(text))) == 6
    assert entry.roster.count() == 16


def test_the_limit_follows_the_championships_ruleset(entry, director):
    championship = entry.championship
    championship.ruleset = {"roster": {"max_skaters": 4, "min_skaters": 2}}
    championship.save()
    people = [eligible_person(entry.federation) for _ in range(7)]
    text = "person_id,number\n" + "".join(f"{p.pk},{i + 1}\n" for i, p in enumerate(people))
    with pytest.raises(ValidationError) as exc:
        import_file(entry, director, csv_file(text))
    assert "at most 6 players (4 floor players and 2 goalkeepers, R-04)" in errors(exc)[0]


# --- check first, then one short transaction -----------------------------------------------------------------------------


def test_checking_the_file_writes_nothing_and_opens_no_transaction(entry, director):
    file = csv_file(roster_csv(entry))
    with CaptureQueriesContext(connection) as queries:
        checked = roster_import_check(entry=entry, file=file, by=director, now=BEFORE_START)
    assert [line.row for line in checked.lines] == list(range(2, 10))
    assert queries, "the check reads the register"
    assert not writes(queries)
    assert all(q["sql"].lstrip().upper().startswith("SELECT") for q in queries)
    assert not RosterEntry.objects.exists()


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_a_file_with_a_bad_row_writes_nothing_and_opens_no_transaction(entry, director, kind):
    rows = [HEADER, *roster_rows(entry, bad_number_on=7)]
    upload = csv_file("\n".join(",".join(row) for row in rows)) if kind == "csv" else xlsx(rows, name="roster.xlsx")
    with CaptureQueriesContext(connection) as queries, pytest.raises(ValidationError) as exc:
        import_file(entry, director, upload)
    assert errors(exc)[0].startswith("Row 9, number: Rule 3.2.9 C")
    assert not writes(queries)
    assert not RosterEntry.objects.exists()


def test_the_transaction_holds_only_the_recheck_and_the_writes(entry, director):
    """The people are looked up by name before the transaction; inside it, the locks, the re-check and the insert."""
    file = csv_file(roster_csv(entry))
    with CaptureQueriesContext(connection) as queries:
        created = import_file(entry, director, file)
    assert len(created) == 8
    sql = [q["sql"] for q in queries]
    opened = [i for i, q in enumerate(sql) if q.upper().startswith("SAVEPOINT")]
    assert len(opened) == 1, "one transaction"
    before, inside = sql[: opened[0]], sql[opened[0] :]
    assert all(q.lstrip().upper().startswith("SELECT") for q in before)
    assert sum("first_name" in q and "date_of_birth" in q for q in before) >= 8  # the rows' people, read before
    assert not any("LIKE" in q.upper() or 'first_name" =' in q for q in inside)  # no lookup by name inside
    inserts = [q for q in inside if q.upper().startswith("INSERT")]
    assert len(inserts) == 2  # the lines and their history, each in one statement
    # Bounded by the roster's size, never by the file: the locks, then a few reads a line (freeze, other rosters).
    assert len(inside) <= 6 + 4 * len(created), len(inside)


def test_a_change_between_the_check_and_the_save_is_caught_by_the_recheck(entry, director):
    """Another add of the same number comes in after the file was checked: the save re-checks and refuses."""
    checked = roster_import_check(entry=entry, file=csv_file(roster_csv(entry)), by=director, now=BEFORE_START)
    roster_add_player(entry=entry, person=eligible_person(entry.federation), number="4", by=director, now=BEFORE_START)
    with pytest.raises(ValidationError) as exc:
        roster_import_save(checked, by=director)
    assert errors(exc) == [errors(exc)[0]]
    assert errors(exc)[0].startswith("Row 4, number: Rule 3.2.9 D")
    assert entry.roster.count() == 1


def test_a_player_taken_by_another_team_meanwhile_is_caught_by_the_recheck(entry, director):
    person = eligible_person(entry.federation)
    checked = roster_import_check(
        entry=entry, file=csv_file(f"person_id,number\n{person.pk},9\n"), by=director, now=BEFORE_START
    )
    RosterEntryFactory(entry__championship=entry.championship, person=person)
    with pytest.raises(ValidationError) as exc:
        roster_import_save(checked, by=director)
    assert errors(exc)[0].startswith("Row 2, person: Rule 3.1.1 A")
    assert not entry.roster.exists()
