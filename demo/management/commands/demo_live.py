"""``python manage.py demo_live``: play the demo's live game while the portal runs (``make run`` starts it).

Feeds the rest of the live game's script through the officials' console service (``games.sheet.record_events``)
at real pace, then has its officials and captains sign it (demo.live). Stop it with Ctrl-C or SIGTERM (``make run``
stops it with the portal); started again, it goes on from the sheet's last entry without entering one twice.
``--pace 0.02`` plays a whole game in under two minutes.
"""

from __future__ import annotations

import signal
import sys

from django.core.management.base import BaseCommand, CommandError

from demo import live


class Command(BaseCommand):
    help = "Play the demo's live game on its sheet at real pace (--pace scales every wait), then sign it."

    def add_arguments(self, parser):
        parser.add_argument(
            "--pace",
            type=float,
            default=1.0,
            help="Multiply every wait by this (1: real pace; 0.02: a game in under two minutes).",
        )

        parser.add_argument(
            "--url",
            default=None,
            help="The running portal's address (make run passes it): entries are posted to its API as the console "
            "posts them, so its scoreboard viewers hear each at once; without it, through the service here.",
        )

    def handle(self, *args, pace: float = 1.0, url: str | None = None, **options):
        if not 0 <= pace <= 10:
            raise CommandError("--pace is between 0 and 10 (1: real pace).")
        # SIGTERM (make run stopping, kill) ends the feeder like Ctrl-C: between two entries, nothing half-stored.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))

        def say(line: str) -> None:
            self.stdout.write(line)
            self.stdout.flush()

        try:
            live.play(pace=pace, say=say, url=url)
        except KeyboardInterrupt:
            say("Stopped; `python manage.py demo_live` goes on from the sheet's last entry.")
