"""``python manage.py game_replay FILE``: the same as ``python -m games.engine FILE``."""

from django.core.management.base import BaseCommand, CommandError

from games.engine.__main__ import main


class Command(BaseCommand):
    help = "Replay game scripts, print each final state as JSON and check the expectations (exit 1 on a mismatch)."

    def add_arguments(self, parser):
        parser.add_argument("scripts", nargs="+", help="game script JSON files (docs/game-scripts.md)")

    def handle(self, *args, **options):
        status = main(options["scripts"], stdout=self.stdout, stderr=self.stderr)
        if status:
            raise CommandError("game script expectations failed", returncode=status)
