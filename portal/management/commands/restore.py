"""``manage.py restore PATH``: an archive of ``manage.py backup`` into an empty, migrated database."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from portal.backups import NotEmpty, restore


class Command(BaseCommand):
    help = (
        "Restore an archive of `manage.py backup` into an EMPTY database (run `manage.py migrate` on a new "
        "database first) and empty media and private folders. Refuses a database or folder that holds data."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="The archive written by `manage.py backup`.")

    def handle(self, *args, path, **options):
        if not Path(path).is_file():
            raise CommandError(f"path: no archive at {path}")
        try:
            manifest = restore(Path(path))
        except NotEmpty as error:
            raise CommandError(f"refused: {error}") from error
        rows = sum(manifest["rows"].values())
        files = ", ".join(f"{n} {folder}" for folder, n in manifest["files"].items())
        self.stdout.write(f"restored {path} (made {manifest['made_at']}): {rows} rows, files: {files}")
