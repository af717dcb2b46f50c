"""Benchmark of the roster import (run with `pytest tests/bench/test_roster_import_bench.py -m bench -s`).

Issue 8: three 10,000-row imports at once held SQLite's write lock for 11 s. Now
such a file is refused by the roster limit (3.1.1 A, R-04: 16 players) after its
17th data row, before any row is checked, and a file that fits is checked
outside any transaction. Figures (median of the runs, wall clock):

- a 10,000-row CSV and a 10,000-row XLSX refused by the service, and the CSV
  refused through the API (``POST /api/entries/{id}/roster-import/``, 400);
  the XLSX is written without its dimensions (openpyxl's write-only mode), the
  costlier case: openpyxl scans such a sheet once while it opens it (a sheet
  that states them, as Excel writes it, is timed beside it);
- a 16-row import (14 floor players and 2 goalkeepers, by name and date of
  birth) as CSV and as XLSX: the check, then the one transaction that writes;
  and that transaction alone (what holds SQLite's write lock).

Budgets are generous (the test machine is shared): a refusal within 1 s (CSV
within 0.25 s), a 16-row import within 1.5 s.
"""

import gc
import io
import statistics
import time

import openpyxl
import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from accounts.models import Role
from tests.factories import ChampionshipFactory, TeamEntryFactory, client_for, with_role
from tests.tournaments.conftest import BEFORE_START, eligible_person, xlsx_bytes
from tournaments.models import RosterEntry
from tournaments.services import roster_import, roster_import_check, roster_import_save

pytestmark = [pytest.mark.bench, pytest.mark.django_db]

RUNS = 15
BIG = 10_000
CSV_REFUSAL_BUDGET = 0.25
REFUSAL_BUDGET = 1.0
IMPORT_BUDGET = 1.5


def median(label: str, run, *, before=None, runs: int = RUNS) -> float:
    """Time ``run()`` ``runs`` times after one warm-up, ``before()`` untimed ahead of each; print and return the
    median seconds."""
    times = []
    for i in range(runs + 1):
        if before is not None:
            before()
        gc.collect()
        start = time.perf_counter()
        run()
        if i:  # the first run warms up
            times.append(time.perf_counter() - start)
    figure = statistics.median(times)
    print(f"{label:<48} median {figure * 1000:8.1f} ms   best {min(times) * 1000:8.1f} ms   ({runs} runs)")
    return figure


@pytest.fixture
def setting():
    entry = TeamEntryFactory(championship=ChampionshipFactory())
    manager = with_role(Role.TEAM_MANAGER, entry.federation)
    entry.managers.add(manager)
    return entry, manager


def big_rows(entry) -> list[list]:
    person = eligible_person(entry.federation)
    return [["person_id", "number", "position"], *([person.pk, str(i % 99 + 1), "player"] for i in range(BIG))]


def refuse(
    entry, manager, data: bytes, name: str, *, says: str = "has more rows than the roster can take: Rule 3.1.1 A"
):
    with pytest.raises(ValidationError) as exc:
        roster_import(entry=entry, file=SimpleUploadedFile(name, data), by=manager, now=BEFORE_START)
    assert says in exc.value.message_dict["file"][0]


def test_a_10000_row_file_is_refused_at_once(setting):
    entry, manager = setting
    rows = big_rows(entry)
    csv_data = "".join(f"{a},{b},{c}\n" for a, b, c in rows).encode()
    xlsx_data = xlsx_bytes(rows)
    with_dimensions = openpyxl.Workbook()  # the normal mode writes the sheet's dimensions first, as Excel does
    for row in rows:
        with_dimensions.active.append(row)
    out = io.BytesIO()
    with_dimensions.save(out)
    client = client_for(manager)

    def api_refusal():
        upload = SimpleUploadedFile("big.csv", csv_data, content_type="text/csv")
        response = client.post(f"/api/entries/{entry.pk}/roster-import/", {"file": upload}, format="multipart")
        assert response.status_code == 400

    print(f"\n10,000 rows: CSV {len(csv_data) // 1024} KB, XLSX {len(xlsx_data) // 1024} KB")
    csv_figure = median("10,000-row CSV refused (service)", lambda: refuse(entry, manager, csv_data, "big.csv"))
    xlsx_figure = median("10,000-row XLSX refused (service)", lambda: refuse(entry, manager, xlsx_data, "big.xlsx"))
    # A sheet that states its 10,001 rows is refused by its dimension, before a row is read (roster_files.MAX_FILE_ROWS).
    median(
        "  the same, the sheet stating its dimensions",
        lambda: refuse(entry, manager, out.getvalue(), "big.xlsx", says="reaches row 10,001 (its dimension)"),
    )
    api_figure = median("10,000-row CSV refused (API, 400)", api_refusal)
    assert not RosterEntry.objects.exists()
    assert csv_figure <= CSV_REFUSAL_BUDGET
    assert max(xlsx_figure, api_figure) <= REFUSAL_BUDGET


def full_rows(entry) -> list[list[str]]:
    header = ["last_name", "first_name", "date_of_birth", "number", "position", "captain", "alternate"]
    rows = [header]
    for i in range(16):
        keeper = i >= 14
        person = eligible_person(entry.federation, is_goalkeeper=keeper)
        rows.append(
            [
                person.last_name,
                person.first_name,
                f"{person.date_of_birth:%Y-%m-%d}",
                str(i + 1),
                "goalkeeper" if keeper else "player",
                "yes" if i == 0 else "",
                "yes" if i in (1, 2, 3) else "",
            ]
        )
    return rows


def test_a_16_row_import(setting):
    entry, manager = setting
    rows = full_rows(entry)
    files = {
        "csv": "\n".join(",".join(row) for row in rows).encode(),
        "xlsx": xlsx_bytes(rows),
    }
    figures = {}
    for kind, data in files.items():

        def run(data=data):
            created = roster_import(entry=entry, file=io.BytesIO(data), by=manager, now=BEFORE_START)
            assert len(created) == 16

        def empty_the_roster():
            RosterEntry.objects.filter(entry=entry).delete()

        figures[kind] = median(f"16-row {kind.upper()} imported (check + transaction)", run, before=empty_the_roster)
    checked = []

    def check_and_empty():
        RosterEntry.objects.filter(entry=entry).delete()
        checked[:] = [roster_import_check(entry=entry, file=io.BytesIO(files["csv"]), by=manager, now=BEFORE_START)]

    # What holds the write lock: the transaction of roster_import_save (locks, re-check, two inserts).
    figures["transaction"] = median(
        "16-row import: its transaction alone",
        lambda: roster_import_save(checked[0], by=manager),
        before=check_and_empty,
    )
    assert entry.roster.count() == 16
    assert max(figures.values()) <= IMPORT_BUDGET
