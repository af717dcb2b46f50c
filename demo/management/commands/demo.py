"""``python manage.py demo``: build the demo world and print its logins.

Idempotent, as documented in the README's tour:

- on an empty database it builds the world;
- on a database that already holds the demo world built for today it builds
  nothing, changes nothing, prints the logins again and succeeds (so ``make run``
  can call it every time); a demo world built on another day is built again
  around today (every table emptied first, as ``--reset`` does): the demo
  happens today (``demo.timeline``);
- on a database that holds other data (users or federations) it refuses with
  an error and changes nothing;
- ``--reset`` first empties EVERY table (like ``manage.py flush``, non-demo
  data included) and the demo's private files, then builds the same world
  again.

``--now`` builds the world around another moment (the same moment, the same world).
Everything happens in one transaction: a failure leaves the database as it was.
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from accounts.models import User
from demo import data
from demo.timeline import Timeline
from demo.world import WorldSummary, build_world, demo_logins, happening_now, is_demo_world
from federation.models import Federation, Passport, ProtectiveDeviceRequest
from reports.models import Document
from tournaments.models import Championship


def portal_url() -> str:
    """The address the logins table names: ``PORTAL_URL`` (``make run`` sets it from HOST and PORT), else the default."""
    return os.environ.get("PORTAL_URL") or data.DEMO_URL


def logins_table(url: str) -> str:
    """Return the logins as a plain-text table: URL, password, then login, role, scope and what it sees."""
    rows = [("Login", "Role", "Scope", "What it sees")]
    rows += [(login.username, login.role, login.scope, login.sees) for login in demo_logins()]
    rows.append(
        (
            "(no login)",
            "The public",
            "",
            "/tournaments/: the championship's schedule, results, standings (with how ties were broken), bracket "
            "and leaders; the API docs (/api/v1/docs/).",
        )
    )
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = [
        f"Demo portal: {url}",
        f"Password of every demo login: {data.DEMO_PASSWORD}",
        f"Signing PIN of every demo login (game reports, 4.2 O / 4.3 A): {data.DEMO_PIN}",
        "",
    ]
    for i, row in enumerate(rows):
        lines.append("  ".join(cell.ljust(width) for cell, width in zip(row[:3], widths, strict=True)) + "  " + row[3])
        if i == 0:
            lines.append("  ".join("-" * width for width in widths) + "  " + "-" * 12)
    return "\n".join(lines) + "\n"


def _parse_now(text: str) -> datetime.datetime:
    moment = parse_datetime(text)
    if moment is None or timezone.is_naive(moment):
        raise CommandError(f"--now: {text!r} is not an ISO 8601 time with its UTC offset (2027-07-04T15:00+02:00).")
    return moment


def _built_for(now: datetime.datetime) -> bool:
    """Whether the demo world in the database was built for the day of ``now`` (its championship began yesterday)."""
    timeline = Timeline(now, data.VENUE.time_zone)
    return Championship.objects.filter(name__endswith=data.CHAMPIONSHIP_NAME_END, start_date=timeline.start).exists()


class Command(BaseCommand):
    help = (
        "Build the demo world (FIRS, continental bodies, 15 national federations, a Senior Men world championship "
        "with 8 teams) into an empty database. --reset empties the database first."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--reset",
            action="store_true",
            help="Empty EVERY table (like manage.py flush) and the demo's private files, then build the world again.",
        )
        parser.add_argument(
            "--url",
            default=None,
            help="The portal's address in the logins table (default: PORTAL_URL, else " + data.DEMO_URL + ").",
        )
        parser.add_argument(
            "--now",
            default=None,
            help="Build the world around this time (ISO 8601 with its offset; default: now). The same time always "
            "builds the same world.",
        )
        parser.add_argument(
            "--logins-file",
            default=None,
            help="Where to write the logins table (default: PORTAL_DATA_DIR/demo-logins.txt, i.e. var/demo-logins.txt).",
        )

    def handle(
        self,
        *args,
        reset: bool = False,
        logins_file: str | None = None,
        url: str | None = None,
        now: str | None = None,
        **options,
    ):
        summary: WorldSummary | None = None
        moment = _parse_now(now) if now else timezone.now().replace(second=0, microsecond=0)
        with transaction.atomic():
            stale = is_demo_world() and not _built_for(moment)
            if stale and not reset:
                self.stdout.write(
                    "The demo world in this database happened on another day: it is built again around today."
                )
                reset = True
            if reset:
                self._reset()
            if not reset and is_demo_world():
                self.stdout.write(
                    "The demo world is already in this database: nothing was built or changed "
                    "(`python manage.py demo --reset` rebuilds it from scratch)."
                )
            elif not reset and (User.objects.exists() or Federation.objects.exists()):
                raise CommandError(
                    f"The database already holds data that is not the demo world ({User.objects.count()} users, "
                    f"{Federation.objects.count()} federations); nothing was changed. The demo builds into an empty "
                    "database: `python manage.py demo --reset` empties EVERY table first, then builds it."
                )
            else:
                summary = build_world(moment)

        table = logins_table(url or portal_url())
        now_lines = happening_now(url or portal_url())
        if now_lines:
            table += "\n" + "\n".join(now_lines) + "\n"
        path = Path(logins_file) if logins_file else Path(settings.DATA_DIR) / "demo-logins.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(table, encoding="utf-8")

        out = self.stdout
        if summary is not None:
            out.write(self.style.SUCCESS("Demo world built."))
            out.write("  " + ", ".join(f"{count} {name}" for name, count in summary.counts.items()))
            if summary.refusals:
                out.write("\nWhat the rules refused while building it (on purpose):")
                for refusal in summary.refusals:
                    out.write(f"  - {refusal}")
        out.write("")
        out.write(table)
        out.write(f"(This table is also in {path}.)")
        if summary is not None:
            out.write(f"World digest: {summary.digest}")

    def _reset(self) -> None:
        """Empty the database; the stored scans, prescriptions and documents go once the new world is committed."""
        files = [(p.scan.storage, p.scan.name) for p in Passport.objects.exclude(scan="").only("scan")]
        files += [
            (r.prescription.storage, r.prescription.name)
            for r in ProtectiveDeviceRequest.objects.exclude(prescription="").only("prescription")
        ]
        files += [(d.file.storage, d.file.name) for d in Document.objects.exclude(file="").only("file")]
        if connection.vendor == "postgresql":
            # TRUNCATE refuses tables with deferred foreign-key checks still pending
            # in this transaction (a world built earlier in it): run them now.
            with connection.cursor() as cursor:
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        call_command("flush", interactive=False, verbosity=0)

        def delete_files():
            for storage, name in files:
                storage.delete(name)

        transaction.on_commit(delete_files)
