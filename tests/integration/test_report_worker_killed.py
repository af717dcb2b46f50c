"""A real worker killed (SIGKILL) in the middle of a render, then another worker and beat: the report is done once.

The embedded default (SQLite, kombu's filesystem transport) is the hard case: that transport deletes a message
when a worker takes it, so ``acks_late`` gives nothing back after a kill. The render left the document
"rendering" and no file; beat's ``requeue_stuck_documents`` (every 2 s here, ``REPORTS_REQUEUE_SECONDS``) queues it
again once it has been stuck for ``REPORTS_STUCK_SECONDS``, and the next worker renders it: one file, under its
final name, nothing half-written.

The same on production's stores (PostgreSQL, Redis): there the killed worker's message stays "unacked" in Redis
until the broker's visibility timeout gives it back, so two deliveries may reach the render (beat's requeue and,
later, the redelivered message); the render locks the document and renders only one that is not done.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from reports.models import Document

from .conftest import beat, child_env, manage, worker
from .test_celery_postgres_redis import services  # noqa: F401 - the fixture

pytestmark = pytest.mark.integration

# A staff-entered final game with 500 penalty lines: a render of several seconds, long enough to kill it halfway.
_BUILD = """
from django.db import transaction
from django.utils import timezone
from reports import services
from reports.models import DocumentKind
from tests.factories import GameFactory, PersonFactory, RosterEntryFactory
from tournaments.models import GameStatus, PenaltyRecord

game = GameFactory(status=GameStatus.FINAL, home_goals=1, away_goals=0, decided_in="regulation",
                   finalized_at=timezone.now())
player = PersonFactory(federation=game.home.federation)
RosterEntryFactory(entry=game.home, person=player, number="9")
PenaltyRecord.objects.bulk_create(
    PenaltyRecord(game=game, entry=game.home, person=player, infraction_code="tripping", minutes=2,
                  period=1 + n % 2, time_tenths=(n * 20) % 12000)
    for n in range(500)
)
with transaction.atomic():  # the render is queued after the commit, through the broker
    document = services.document_current(DocumentKind.GAME_REPORT, game)
print("DOCUMENT", document.pk)
"""


def _sqlite_row(database: str):
    def row(pk: int) -> dict:
        with sqlite3.connect(database) as db:
            db.row_factory = sqlite3.Row
            return dict(db.execute("SELECT * FROM reports_document WHERE id = ?", (pk,)).fetchone())

    return row


def _postgres_row(pk: int) -> dict:
    return Document.objects.values().get(pk=pk)


def _wait_for(row, pk: int, status: str, timeout: float, worker_process=None) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = row(pk)
        if found["status"] == status:
            return found
        time.sleep(0.05)
    output = worker_process.output if worker_process else ""
    pytest.fail(f"document {pk} never became {status}: {row(pk)}\n{output}")


def _kill_mid_render_then_recover(env: dict, data: Path, row, worker_name: str) -> None:
    pk = int(manage("shell", "-c", _BUILD, env=env).split("DOCUMENT")[-1].split()[0])
    folder = data / "private" / "documents" / "game_report"

    with worker(env=env, name=worker_name) as first:
        first.wait_ready()
        rendering = _wait_for(row, pk, "rendering", timeout=60, worker_process=first)
        time.sleep(1.0)  # well inside the render of 500 lines
        assert row(pk)["status"] == "rendering", "the render ended before the kill: make it longer"
        first.process.kill()  # SIGKILL: no warm shutdown, no cleanup
        first.process.wait(timeout=10)
    assert rendering["attempts"] == 1
    time.sleep(1.0)  # the orphaned render child dies on its broken pipe
    killed = row(pk)
    assert (killed["status"], killed["file"]) == ("rendering", "")
    assert not any(p.is_file() for p in folder.rglob("*")) if folder.exists() else True

    with worker(env=env, name=f"second-{worker_name}") as second, beat(env=env):
        second.wait_ready()
        done = _wait_for(row, pk, "done", timeout=120, worker_process=second)
        time.sleep(4)  # beat's later sweeps find nothing stuck: no second render
    finished = row(pk)
    assert finished["attempts"] == 2 and finished["status"] == "done"
    files = [p for p in folder.rglob("*") if p.is_file()]
    assert [p.relative_to(data / "private").as_posix() for p in files] == [done["file"]]
    pdf = Path(files[0]).read_bytes()
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(files[0]), "-"], capture_output=True, text=True, check=True).stdout
        assert "OFFICIAL GAME REPORT" in text and text.count("Tripping") == 500


def test_a_worker_killed_mid_render_leaves_no_file_and_the_report_is_rendered_once(tmp_path, worker_name):
    data = tmp_path / "data"
    env = child_env(PORTAL_DATA_DIR=data, REPORTS_STUCK_SECONDS=3, REPORTS_REQUEUE_SECONDS=2)
    manage("migrate", "--noinput", "-v", "0", env=env)
    _kill_mid_render_then_recover(env, data, _sqlite_row(str(data / "portal.sqlite3")), worker_name)


@pytest.mark.django_db(transaction=True)
def test_on_postgresql_and_redis_a_worker_killed_mid_render_leaves_no_file_and_the_report_is_rendered_once(
    services,  # noqa: F811
    tmp_path,
    worker_name,
):
    data = tmp_path / "data"
    env = {**services, "PORTAL_DATA_DIR": str(data), "REPORTS_STUCK_SECONDS": "3", "REPORTS_REQUEUE_SECONDS": "2"}
    _kill_mid_render_then_recover(env, data, _postgres_row, worker_name)
