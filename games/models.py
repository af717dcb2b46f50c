"""Models of the games app."""

from __future__ import annotations

from django.conf import settings
from django.db import models

# --- The live game sheet (issue 9: one game, one truth) -----------------------------------------------------------
# The sheet's truth is its event log (architecture principle 3): ``SheetEvent`` rows in the engine's format,
# replayed by ``games.engine``. ``SheetSnapshot`` keeps the replayed state so reads never replay.
# Written only by ``games.sheet.record_events``.


class SheetStatus(models.TextChoices):
    OPEN = "open", "Open (the game is being entered)"
    FINAL = "final", "Final (signed, 4.2 O, 4.3)"


class GameSheet(models.Model):
    """The live sheet of one scheduled game: its event log's header, locked by every entry."""

    game = models.OneToOneField("tournaments.Game", on_delete=models.PROTECT, related_name="sheet")
    status = models.CharField(max_length=8, choices=SheetStatus.choices, default=SheetStatus.OPEN)
    # The last sequence number given to an event of this sheet (0: none yet); it orders the log as entered.
    sequence = models.PositiveIntegerField(default=0)
    # What the engine must know before the first event (games.engine.Game), frozen when the sheet opens so a
    # replay of the same log always gives the same state: teams in the game-script format, game type, ruleset.
    teams = models.JSONField(help_text="Line-ups as the engine reads them (docs/game-scripts.md 'teams').")
    game_type = models.CharField(max_length=16)
    ruleset = models.JSONField(default=dict, blank=True, help_text="The engine's ruleset parameters.")
    opened_at = models.DateTimeField()
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["game"]

    def __str__(self):
        return f"Sheet of {self.game}"


class SheetEvent(models.Model):
    """One entry of a sheet's log, exactly as the device sent it, with who, where and when.

    ``event_id`` is made on the device (a UUID): a resend of the same entry finds it (the constraint), so an
    outbox may resend as often as it likes. Rows are never changed or deleted: a ``correction`` voids an entry.
    """

    sheet = models.ForeignKey(GameSheet, on_delete=models.PROTECT, related_name="events")
    event_id = models.UUIDField(help_text="Made on the device; the engine's event id.")
    sequence = models.PositiveIntegerField(help_text="Given by the server in the order entries are stored.")
    payload = models.JSONField(help_text="The event in the engine's format (docs/game-scripts.md), without id/seq.")
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    device = models.CharField(max_length=64, help_text="The id the entering device gives itself.")
    received_at = models.DateTimeField(help_text="Server time when it was stored.")
    device_time = models.DateTimeField(help_text="The device's clock when the entry was made.")
    clock_offset_ms = models.IntegerField(
        null=True, blank=True, help_text="Device clock minus server clock, as the device measured it (null: unknown)."
    )

    class Meta:
        ordering = ["sheet", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "event_id"], name="sheet_event_id_once"),
            models.UniqueConstraint(fields=["sheet", "sequence"], name="sheet_event_sequence_once"),
        ]

    def __str__(self):
        return f"{self.sheet} #{self.sequence} {self.payload.get('type', '?')}"


class SheetSnapshot(models.Model):
    """The replayed state after the last entry made in a period (one row per period of the sheet).

    The row with the highest ``sequence`` is the sheet's current state: the scoreboard and a console resuming
    after a crash read it instead of replaying the log; the earlier rows keep each period's state as it closed.
    """

    sheet = models.ForeignKey(GameSheet, on_delete=models.CASCADE, related_name="snapshots")
    period = models.PositiveSmallIntegerField(help_text="The game's period in the state (0: not started).")
    sequence = models.PositiveIntegerField(help_text="The sheet's sequence the state includes.")
    state = models.JSONField(help_text="games.engine GameState.to_dict(), with the clock's anchor.")
    taken_at = models.DateTimeField()

    class Meta:
        ordering = ["sheet", "period"]
        constraints = [models.UniqueConstraint(fields=["sheet", "period"], name="one_snapshot_per_period")]
        indexes = [models.Index(fields=["sheet", "-sequence"])]

    def __str__(self):
        return f"{self.sheet}: period {self.period} at #{self.sequence}"
