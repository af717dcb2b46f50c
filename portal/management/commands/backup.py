"""``manage.py backup [PATH]``: the database and the uploaded files of both storages in one archive."""

import datetime
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from portal.backups import backup


class Command(BaseCommand):
    help = (
        "Write one .tar.gz archive with every database row (database.json) and the files of the default "
        "(MEDIA_ROOT) and private (PRIVATE_MEDIA_ROOT) storages. Default: PORTAL_DATA_DIR/backups/portal-<UTC time>.tar.gz."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", nargs="?", help="The archive to write.")

    def handle(self, *args, path=None, **options):
        if path is None:
            stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
            path = Path(settings.DATA_DIR) / "backups" / f"portal-{stamp}.tar.gz"
        manifest = backup(Path(path))
        rows = sum(manifest["rows"].values())
        files = ", ".join(f"{n} {folder}" for folder, n in manifest["files"].items())
        self.stdout.write(f"{path}: {rows} rows, files: {files}")
