"""Backups of the portal: the database's rows and the uploaded files of both storages in one archive (issue 13).

An archive (``.tar.gz``) holds ``database.json`` (every row of every model, as Django's ``dumpdata`` writes them,
the content types and permissions by natural key so they match those ``migrate`` creates), ``media/`` (the
"default" storage, MEDIA_ROOT) and ``private/`` (the "private" storage, PRIVATE_MEDIA_ROOT: passport scans,
prescriptions, confidential documents, stored reports). The format does not depend on the database engine: a
backup of PostgreSQL restores into SQLite and the other way round.

``restore`` refuses a database that holds rows already (a backup restores into an EMPTY, migrated database: a
new one, after ``manage.py migrate``), and restores in one transaction: a failure leaves the database empty.
"""

from __future__ import annotations

import datetime
import io
import json
import tarfile
import tempfile
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.db import transaction
from django.test.utils import override_settings

DATABASE_MEMBER = "database.json"
MANIFEST_MEMBER = "manifest.json"
# Archive folder -> the settings.STORAGES entry whose files it holds.
FOLDERS = {"media": "default", "private": "private"}
# Rows ``migrate`` creates itself: written by natural key, and not counted when checking that a database is empty.
MIGRATE_MADE = ("contenttypes.contenttype", "auth.permission")


def storage_root(alias: str) -> Path:
    """The folder of a file-system storage of settings.STORAGES."""
    if alias == "default":
        return Path(settings.MEDIA_ROOT)
    return Path(settings.STORAGES[alias]["OPTIONS"]["location"])


def user_rows() -> dict[str, int]:
    """Rows per model, leaving out what ``migrate`` makes (content types, permissions) and empty tables."""
    counts = {}
    for model in apps.get_models():
        label = model._meta.label_lower
        if label in MIGRATE_MADE or model._meta.proxy or not model._meta.managed:
            continue
        count = model._default_manager.count()
        if count:
            counts[label] = count
    return counts


def backup(destination: Path) -> dict:
    """Write one archive of the database and both storages to ``destination``; return its manifest."""
    destination = Path(destination)
    destination.parent.mkdir(parents=True, exist_ok=True)
    data = io.StringIO()
    # One repeatable view of the rows while dumping (PostgreSQL: a transaction sees one snapshot).
    with transaction.atomic():
        call_command(
            "dumpdata",
            natural_foreign=True,
            exclude=["sessions.session", "admin.logentry", *MIGRATE_MADE],
            stdout=data,
            verbosity=0,
        )
        rows = user_rows()
    dump = data.getvalue().encode()
    files = {}
    partial = destination.with_name(destination.name + ".partial")
    with tarfile.open(partial, "w:gz") as archive:
        _add_bytes(archive, DATABASE_MEMBER, dump)
        for folder, alias in FOLDERS.items():
            root = storage_root(alias)
            names = sorted(p for p in root.rglob("*") if p.is_file()) if root.exists() else []
            for path in names:
                archive.add(path, arcname=f"{folder}/{path.relative_to(root).as_posix()}", recursive=False)
            files[folder] = len(names)
        manifest = {
            "made_at": datetime.datetime.now(datetime.UTC).isoformat(),
            "engine": settings.DATABASES["default"]["ENGINE"],
            "rows": rows,
            "files": files,
        }
        _add_bytes(archive, MANIFEST_MEMBER, json.dumps(manifest, indent=1, sort_keys=True).encode())
    partial.replace(destination)  # a backup cut short never bears the final name
    return manifest


def _add_bytes(archive: tarfile.TarFile, name: str, content: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(content)
    info.mtime = int(datetime.datetime.now(datetime.UTC).timestamp())
    archive.addfile(info, io.BytesIO(content))


class NotEmpty(Exception):
    """The target database or storage holds data already."""


def restore(source: Path) -> dict:
    """Restore an archive into the empty, migrated database and the empty storages; return its manifest."""
    present = user_rows()
    if present:
        raise NotEmpty(f"the database is not empty ({sum(present.values())} rows, e.g. {sorted(present)[:3]})")
    roots = {folder: storage_root(alias) for folder, alias in FOLDERS.items()}
    for folder, root in roots.items():
        if root.exists() and any(p.is_file() for p in root.rglob("*")):
            raise NotEmpty(f"the {folder} folder {root} holds files already")
    with tarfile.open(source, "r:gz") as archive, tempfile.TemporaryDirectory() as work:
        manifest = json.loads(archive.extractfile(MANIFEST_MEMBER).read())
        dump = Path(work) / DATABASE_MEMBER
        dump.write_bytes(archive.extractfile(DATABASE_MEMBER).read())
        # The history rows are in the dump: django-simple-history must not write more while the rows load (its
        # many-to-many handler ignores loaddata's "raw" flag and would collide with the restored history ids).
        with override_settings(SIMPLE_HISTORY_ENABLED=False), transaction.atomic():
            call_command("loaddata", str(dump), verbosity=0)
        for member in archive.getmembers():
            folder, _, rest = member.name.partition("/")
            if folder not in roots or not member.isfile():
                continue
            # The "data" filter refuses absolute names, "..", links and devices: nothing lands outside the folder.
            member.name = rest
            archive.extract(member, roots[folder], filter="data")
    return manifest
