"""What the live sheet answers (an entry batch, a resume, the scoreboard's read) and its serializers.

Below both ``games.sheet`` (which makes the answers) and ``games.live`` (which pushes them to the viewers): the
push and ``GET /api/v1/games/{id}/sheet/`` serialize a state with the same ``SheetStateSerializer``.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from rest_framework import serializers


@dataclass(frozen=True)
class Ack:
    id: str
    sequence: int
    duplicate: bool


@dataclass
class SheetAnswer:
    """What an entry, or a resume, gets back: the state, the sheet's sequence and the entries acknowledged."""

    game_id: int
    status: str  # the sheet's: open, final; "not_opened" before the first entry
    sequence: int
    state: dict[str, Any]
    clock: dict[str, Any]
    server_time: datetime.datetime
    acknowledged: list[Ack] = field(default_factory=list)


class ClockSerializer(serializers.Serializer):
    period = serializers.IntegerField()
    elapsed_tenths = serializers.IntegerField(help_text="R-10: tenths elapsed in the period at `anchor`.")
    period_length_tenths = serializers.IntegerField()
    running = serializers.BooleanField()
    anchor = serializers.DateTimeField(
        allow_null=True, help_text="Server time at which the clock read `elapsed_tenths`; a running clock runs on."
    )


class AckSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    sequence = serializers.IntegerField()
    duplicate = serializers.BooleanField(help_text="Stored before: acknowledged again, not stored twice.")


class SheetStateSerializer(serializers.Serializer):
    game = serializers.IntegerField(source="game_id")
    status = serializers.CharField(help_text="open, final, or not_opened before the first entry.")
    sequence = serializers.IntegerField(help_text="The last sequence number stored; the state includes it.")
    server_time = serializers.DateTimeField()
    clock = ClockSerializer()
    state = serializers.JSONField(help_text="The engine's state (docs/game-scripts.md, 'key | value in the state').")
