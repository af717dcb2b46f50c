"""``manage.py api_release [--check]``: write the released API schema, docs/api/openapi-v1.json (issue 29)."""

import tempfile
from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from common.api_compat import breaking_changes, named_breaks
from portal.api_versions import CHANGELOG, RELEASED_SCHEMA, current_schema, released_schema


class Command(BaseCommand):
    help = (
        "Compare the code's OpenAPI schema with the released one (docs/api/openapi-v1.json) and, when every breaking "
        "change is named in docs/api-changelog.md ('Breaking: <METHOD> <path> <what>'), write it as the release."
    )

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="Only compare; write nothing.")

    def handle(self, *args, check=False, **options):
        breaks = breaking_changes(released_schema(), current_schema()) if RELEASED_SCHEMA.exists() else []
        named = named_breaks(CHANGELOG.read_text(encoding="utf-8"))
        unnamed = [change for change in breaks if str(change) not in named]
        if unnamed:
            lines = "\n".join(f"Breaking: {change}" for change in unnamed)
            raise CommandError(f"Breaking changes the changelog ({CHANGELOG.name}) does not name:\n{lines}")
        self.stdout.write(f"{len(breaks)} breaking change(s) since the release, each named in {CHANGELOG.name}.")
        if check:
            return
        # Written by drf-spectacular's own command (validated, no warning allowed), then moved into place.
        with tempfile.TemporaryDirectory() as folder:
            target = Path(folder) / RELEASED_SCHEMA.name
            call_command(
                "spectacular", "--format", "openapi-json", "--validate", "--fail-on-warn", "--file", str(target)
            )
            RELEASED_SCHEMA.parent.mkdir(parents=True, exist_ok=True)
            RELEASED_SCHEMA.write_text(target.read_text(encoding="utf-8"), encoding="utf-8")
        self.stdout.write(f"Wrote {RELEASED_SCHEMA}.")
