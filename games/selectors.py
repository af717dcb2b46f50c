"""Reads of the games app that other modules ask (discipline: protests; the sheet's readers: its marks)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from tournaments.models import Game, TeamEntry

from .models import GameProtestMark, SheetEvent, SheetSnapshot


def protest_marks(game: Game) -> list[GameProtestMark]:
    """The administrative protests made before the start (9.1 B): the game is played under protest if any."""
    return list(GameProtestMark.objects.filter(game=game).select_related("entry").order_by("made_at", "pk"))


@dataclass(frozen=True)
class OnRinkProtest:
    """A captain's protest made on the rink to the referee, as the game sheet records it (9.1 A, R-50)."""

    event_id: str
    team: str  # "home" or "away"
    entry: TeamEntry | None
    period: int
    time: str  # elapsed in the period
    recorded_at: datetime.datetime | None  # when the sheet stored it (server time)


def on_rink_protests(game: Game) -> list[OnRinkProtest]:
    """Return the on-rink protests on the game's sheet, in game-time order (R-50: a protest is valid only if the
    sheet records it). Read from the sheet's latest state (no replay): two queries."""
    snapshot = SheetSnapshot.objects.filter(sheet__game=game).order_by("-sequence").values_list("state", flat=True)
    state = snapshot.first()
    protests = (state or {}).get("state", {}).get("protests", [])
    if not protests:
        return []
    stored = dict(
        SheetEvent.objects.filter(sheet__game=game, event_id__in=[p["id"] for p in protests]).values_list(
            "event_id", "received_at"
        )
    )
    received = {str(event_id): at for event_id, at in stored.items()}
    entries = {"home": game.home, "away": game.away}
    return [
        OnRinkProtest(
            event_id=p["id"],
            team=p["team"],
            entry=entries.get(p["team"]),
            period=p["period"],
            time=p["time"],
            recorded_at=received.get(p["id"]),
        )
        for p in protests
    ]
