import datetime
import io
import re
import zipfile

import openpyxl
import pytest

from tests.factories import (
    ChampionshipFactory,
    GameFactory,
    PassportFactory,
    PersonFactory,
    PhaseFactory,
    PoolFactory,
    PoolTeamFactory,
    RosterEntryFactory,
    SuperuserFactory,
    TeamEntryFactory,
)
from tournaments.models import PhaseKind, Position

# Before the championship (1-10 July 2027) and before its entries close (1 May 2027).
BEFORE_CLOSING = datetime.datetime(2027, 3, 1, 9, 0, tzinfo=datetime.UTC)
BEFORE_START = datetime.datetime(2027, 6, 20, 9, 0, tzinfo=datetime.UTC)
DURING = datetime.datetime(2027, 7, 2, 12, 0, tzinfo=datetime.UTC)


def eligible_person(federation, **kwargs):
    """A Senior Men player of the federation's country with a valid passport (1.1 B, F)."""
    person = PersonFactory(federation=federation, **kwargs)
    PassportFactory(person=person)
    return person


def full_roster(entry, *, skaters=6, goalkeepers=2, confirmed=False):
    """Build a roster within R-04: the first skater is captain, number 1 upwards."""
    lines = []
    for i in range(skaters):
        lines.append(
            RosterEntryFactory(
                entry=entry,
                person=eligible_person(entry.federation),
                number=str(i + 10),
                position=Position.PLAYER,
                captain=i == 0,
                confirmed=confirmed,
            )
        )
    for i in range(goalkeepers):
        lines.append(
            RosterEntryFactory(
                entry=entry,
                person=eligible_person(entry.federation, is_goalkeeper=True),
                number=str(i + 1),
                position=Position.GOALKEEPER,
                confirmed=confirmed,
            )
        )
    return lines


@pytest.fixture
def director(db):
    return SuperuserFactory()


@pytest.fixture
def championship(db):
    return ChampionshipFactory()


@pytest.fixture
def entry(championship):
    return TeamEntryFactory(championship=championship)


def make_pool(championship, teams: int, *, name: str | None = None):
    """A pool of ``teams`` confirmed entries."""
    pool = PoolFactory(championship=championship, **({"name": name} if name else {}))
    for seed in range(teams):
        PoolTeamFactory(pool=pool, seed=seed + 1)
    return pool


def round_robin_games(pool):
    """Every pair of the pool meets once, first named at home (5.4 D), two hours apart."""
    entries = [m.entry for m in pool.members.select_related("entry").order_by("seed")]
    phase = PhaseFactory(championship=pool.championship, kind=PhaseKind.ROUND_ROBIN)
    games = {}
    start = datetime.datetime.combine(pool.championship.start_date, datetime.time(8), tzinfo=datetime.UTC)
    for i, home in enumerate(entries):
        for away in entries[i + 1 :]:
            game = GameFactory(
                championship=pool.championship,
                phase=phase,
                pool=pool,
                home=home,
                away=away,
                start_at=start + datetime.timedelta(hours=2 * len(games)),
            )
            games[(home.name, away.name)] = game
    return entries, games


# After the championship's last day: every game of 1-10 July 2027 has started (results are refused before, 5.1 A).
AFTER = datetime.datetime(2027, 7, 11, 12, 0, tzinfo=datetime.UTC)


@pytest.fixture
def after_the_games(monkeypatch):
    """Set the clock to ``AFTER`` for code that reads it (pages and the API): the games have been played.

    Ask for it before a logged-in client, so that the session is made on the same clock.
    """
    from django.utils import timezone

    monkeypatch.setattr(timezone, "now", lambda: AFTER)
    return AFTER


def goal_lines(game, home: int, away: int) -> None:
    """Make the game's summary hold ``home`` and ``away`` goal lines, which the final score must equal (5.5.11 B).

    Test data for tests about results and tables: each team's goals go to one
    player of its federation; who may score is tested with the goal service.
    """
    from tournaments.models import GoalRecord

    for entry, wanted in ((game.home, home), (game.away, away)):
        lines = list(GoalRecord.objects.filter(game=game, entry=entry, forfeit_award=False).order_by("pk"))
        for surplus in lines[wanted:]:
            surplus.delete()
        if len(lines) < wanted:
            scorer = PersonFactory(federation=entry.federation)
            GoalRecord.objects.bulk_create(
                GoalRecord(game=game, entry=entry, scorer=scorer, period=1, time_tenths=100 * (n + 1))
                for n in range(wanted - len(lines))
            )


def xlsx_bytes(rows, *, at: int = 1) -> bytes:
    """An XLSX workbook (openpyxl) whose active sheet holds ``rows`` from row ``at``; ``None`` leaves a row blank."""
    workbook = openpyxl.Workbook(write_only=True)
    sheet = workbook.create_sheet()
    for _ in range(at - 1):
        sheet.append([])
    for row in rows:
        sheet.append(list(row or ()))
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


# The last row and column a sheet can have (Excel's 1,048,576 rows, column XFD).
LAST_ROW = 1_048_576
LAST_COLUMN = 16_384


def far_cell_xlsx(
    *, row: int = LAST_ROW, column: int = 1, dimension: str | None = "true", rows=(("person_id", "number"),)
) -> bytes:
    """A small workbook (a few KB): ``rows`` from row 1 (a header), and one cell "x" at ``row``, ``column``.

    ``dimension``: "true" keeps the dimension record openpyxl writes (it reaches the cell); another value
    replaces its range with that one (a file lying about its size, e.g. "A1:B2"); None removes the record.
    """
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    for values in rows:
        sheet.append(list(values))
    sheet.cell(row=row, column=column, value="x")
    out = io.BytesIO()
    workbook.save(out)
    if dimension == "true":
        return out.getvalue()
    patched = io.BytesIO()
    with zipfile.ZipFile(out) as source, zipfile.ZipFile(patched, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml":
                record = b"" if dimension is None else f'<dimension ref="{dimension}"/>'.encode()
                data, found = re.subn(rb"<dimension ref=\"[^\"]*\"\s*/>", record, data)
                assert found == 1, data[:300]
            target.writestr(info, data)
    return patched.getvalue()


def circle_of_wins(championship, *, name: str | None = None):
    """A final pool of three where each team beat one other (1-0, 3-0, 5-0): all on 2 points (9.3 B), level head to
    head (9.3 C); goals allowed in the round decide (9.3 D). Returns the pool."""
    from tests.tournaments.test_views import finish

    pool = make_pool(championship, 3, name=name)
    (a, b, c), games = round_robin_games(pool)
    finish(games[(a.name, b.name)], 1, 0)
    finish(games[(b.name, c.name)], 3, 0)
    finish(games[(a.name, c.name)], 0, 5)
    return pool


def open_championship(**kwargs):
    """A published championship whose entries are open today (closing in 30 days, starting in 60; 1.1 A)."""
    from django.utils import timezone

    today = timezone.localdate()
    values = {
        "start_date": today + datetime.timedelta(days=60),
        "end_date": today + datetime.timedelta(days=69),
        "entry_closing_date": today + datetime.timedelta(days=30),
    }
    return ChampionshipFactory(**{**values, **kwargs})
