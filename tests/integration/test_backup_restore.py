"""Backup and restore (issue 13, "Faults survived"): `manage.py backup` of the demo world, then `manage.py restore`
into a NEW, empty database and empty media and private folders; every game event, protest, suspension and passport
scan (the file's bytes) is there, and every other row too. On PostgreSQL (production) and on SQLite (the embedded
default: the rink's laptop).

The PostgreSQL databases are copies of the test database pytest-django migrated (``CREATE DATABASE ... TEMPLATE``):
migrated and empty, like a new database after ``manage.py migrate``, without paying for migrations twice more. The
SQLite target is a copy of the source's file, taken once migrated and before the demo is built.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import psycopg
import pytest
from django.db import connection

from .conftest import ROOT, child_env, manage, require

pytestmark = pytest.mark.integration

# What the test compares: ids of the records the issue names, the scans' digests, and every model's row count.
_SUMMARY = """
import hashlib, json
from discipline.models import Protest, Suspension
from federation.models import Passport
from games.models import SheetEvent
from portal.backups import user_rows
scans = {}
for passport in Passport.objects.exclude(scan="").order_by("pk"):
    with passport.scan.open("rb") as f:
        scans[passport.pk] = [passport.scan.name, hashlib.sha256(f.read()).hexdigest()]
print("SUMMARY", json.dumps({
    "events": list(SheetEvent.objects.order_by("pk").values_list("pk", "event_id", "sequence")),
    "protests": list(Protest.objects.order_by("pk").values_list("pk", "status", "statement")),
    "suspensions": list(Suspension.objects.order_by("pk").values_list("pk", "person_id", "status", "games_required")),
    "scans": scans,
    "rows": user_rows(),
}, default=str))
"""


def _summary(env) -> dict:
    return json.loads(manage("shell", "-c", _SUMMARY, env=env).split("SUMMARY", 1)[1])


def _url(name: str) -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"


def _admin(statements) -> None:
    with psycopg.connect(_url("postgres"), autocommit=True) as admin:
        for statement in statements:
            admin.execute(statement)


@pytest.fixture
def empty_databases(transactional_db, django_db_blocker):
    """Two new databases, migrated and empty (copies of the test database), dropped afterwards."""
    require(connection.vendor == "postgresql", "DATABASE_URL must point at PostgreSQL for this test")
    template = connection.settings_dict["NAME"]  # the test database, which pytest-django migrated
    names = [f"{template}_backup_source", f"{template}_backup_target"]
    with django_db_blocker.unblock():
        connection.close()  # a template may have no other connection while it is copied
        _admin([f'DROP DATABASE IF EXISTS "{n}"' for n in names])
        _admin([f'CREATE DATABASE "{n}" TEMPLATE "{template}"' for n in names])
    yield names
    _admin([f'DROP DATABASE IF EXISTS "{n}" WITH (FORCE)' for n in names])


def _back_up_and_restore(source: dict, target: dict, tmp_path) -> None:
    manage("demo", env=source, timeout=300)
    archive = tmp_path / "backups" / "portal.tar.gz"
    made = manage("backup", str(archive), env=source)
    before = _summary(source)
    assert _summary(target)["rows"] == {}  # the target is empty
    restored = manage("restore", str(archive), env=target)
    after = _summary(target)

    # The demo's world: game events, protests, suspensions and passport scans, all back.
    assert len(before["events"]) >= 30 and len(before["protests"]) >= 2
    assert len(before["suspensions"]) >= 3 and len(before["scans"]) >= 3
    for what in ("events", "protests", "suspensions", "scans", "rows"):
        assert after[what] == before[what], what
    # The scans' files are under the target's private folder, byte for byte (the digests above).
    for name, _ in before["scans"].values():
        assert (tmp_path / "target" / "private" / name).is_file()
    # A second restore is refused: the database is no longer empty.
    again = manage_fails("restore", str(archive), env=target)
    assert "refused: the database is not empty" in again
    print(f"\n{made.strip()}\n{restored.strip()}\narchive {archive.stat().st_size} bytes")


def test_a_backup_restores_into_an_empty_database_with_every_event_protest_suspension_and_scan(
    empty_databases, tmp_path
):
    source_db, target_db = empty_databases
    source = child_env(DATABASE_URL=_url(source_db), PORTAL_DATA_DIR=tmp_path / "source")
    target = child_env(DATABASE_URL=_url(target_db), PORTAL_DATA_DIR=tmp_path / "target")
    _back_up_and_restore(source, target, tmp_path)


def test_on_sqlite_a_backup_restores_into_an_empty_database_with_every_event_protest_suspension_and_scan(tmp_path):
    source = child_env(PORTAL_DATA_DIR=tmp_path / "source")
    target = child_env(PORTAL_DATA_DIR=tmp_path / "target")
    manage("migrate", "--noinput", "-v", "0", env=source, timeout=300)
    (tmp_path / "target").mkdir()
    shutil.copyfile(tmp_path / "source" / "portal.sqlite3", tmp_path / "target" / "portal.sqlite3")
    _back_up_and_restore(source, target, tmp_path)


def manage_fails(*args, env) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode != 0
    return done.stderr
