"""The demo world (``python manage.py demo``) built once for a class of read-only tests, rolled back afterwards.

``built_demo`` builds it inside a transaction that is rolled back at the end, with the private files (passport
scans, prescriptions, stored documents) in a temporary folder and fast password hashing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.storage import FileSystemStorage
from django.core.management import call_command
from django.db import transaction
from django.test.utils import override_settings

# Fast hashing in tests: the demo hashes its one password once, logins check it many times.
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def private_storages(monkeypatch, root: Path) -> None:
    """Point the private file fields at ``root``: their storage is built once, when the models load."""
    from federation.models import Passport, ProtectiveDeviceRequest
    from reports.models import Document

    fields = (
        Passport._meta.get_field("scan"),
        ProtectiveDeviceRequest._meta.get_field("prescription"),
        Document._meta.get_field("file"),
    )
    for field in fields:
        monkeypatch.setattr(field, "storage", FileSystemStorage(location=str(root), base_url=None))


def run_demo(*args: str, logins_file: Path) -> str:
    out = StringIO()
    call_command("demo", *args, logins_file=str(logins_file), stdout=out)
    return out.getvalue()


@contextlib.contextmanager
def built_demo(django_db_blocker, root: Path) -> Iterator[dict]:
    """The demo, built in ``root``'s private folder, for the ``with`` block; everything is rolled back after."""
    with (
        pytest.MonkeyPatch.context() as monkeypatch,
        override_settings(PASSWORD_HASHERS=FAST_HASHERS),
        django_db_blocker.unblock(),
        transaction.atomic(),
    ):
        private_storages(monkeypatch, root / "private")
        output = run_demo(logins_file=root / "demo-logins.txt")
        yield {"output": output, "logins_file": root / "demo-logins.txt", "private": root / "private"}
        transaction.set_rollback(True)
