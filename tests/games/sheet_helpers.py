"""Helpers of the live sheet's tests: a scheduled game whose rosters match the engine's generated games."""

from __future__ import annotations

import datetime
import uuid

from games.access import SHEET_DUTIES
from tests.engine.generators import AWAY, HOME
from tests.factories import GameFactory, PersonFactory, RosterEntryFactory
from tournaments.models import Position

DEVICE_TIME = datetime.datetime(2027, 7, 1, 8, 0, tzinfo=datetime.UTC)


def _roster(entry, roster) -> None:
    for number in sorted(roster.skaters):
        RosterEntryFactory(
            entry=entry,
            person=PersonFactory(federation=entry.federation),
            number=str(number),
            captain=number == roster.captain,
        )
    for number in sorted(roster.goalkeepers):
        RosterEntryFactory(
            entry=entry,
            person=PersonFactory(federation=entry.federation),
            number=str(number),
            position=Position.GOALKEEPER,
        )


def sheet_game(**kwargs):
    """A round-robin game whose rosters are tests.engine.generators' HOME (2-11, 1 and 30) and AWAY (12-21, 31, 35)."""
    game = GameFactory(**kwargs)
    _roster(game.home, HOME)
    _roster(game.away, AWAY)
    return game


def entry(type_: str, *, offset_ms: int | None = 0, seconds: float = 0, **fields) -> dict:
    """An entry as a console sends it: the engine event with a new UUID, the device's time and clock offset."""
    when = DEVICE_TIME + datetime.timedelta(seconds=seconds)
    return {
        "id": str(uuid.uuid4()),
        "type": type_,
        "device_time": when.isoformat(),
        "clock_offset_ms": offset_ms,
        **fields,
    }


def with_uuids(entries: list[dict]) -> list[dict]:
    """A generated log (ids e0, e1...; seq) as a console's entries: UUIDs, references rewritten, no seq."""
    ids = {e["id"]: str(uuid.uuid4()) for e in entries}
    out = []
    for n, e in enumerate(entries):
        e = {k: v for k, v in e.items() if k != "seq"}
        e["id"] = ids[e["id"]]
        if e["type"] == "correction":
            e["voids"] = ids[e["voids"]]
        if e["type"] == "serve" and e.get("penalty") in ids:
            e["penalty"] = ids[e["penalty"]]
        e["device_time"] = (DEVICE_TIME + datetime.timedelta(seconds=n)).isoformat()
        e["clock_offset_ms"] = 0
        out.append(e)
    return out


def devices_url(game) -> str:
    return f"/api/games/{game.pk}/sheet/devices/"


def sign_in_through_api(client, game, device: str = "table-1") -> list[str]:
    """Sign the client's device in as a console does; return the duties it keeps.

    A device named after a duty ("scorer") keeps that duty; another keeps each duty the client's user may. When
    other devices keep them all, it takes them over (the explicit, logged take-over).
    """
    duties = [device] if device in SHEET_DUTIES else list(SHEET_DUTIES)
    kept, held = [], []
    for duty in duties:
        answer = client.post(devices_url(game), {"device": device, "duties": [duty]}, format="json")
        if answer.status_code == 201:
            kept.append(duty)
        elif answer.status_code == 409:
            held.append(duty)
    if not kept and held:
        body = {"device": device, "duties": held, "take_over": True}
        assert client.post(devices_url(game), body, format="json").status_code == 201
        kept = held
    return kept


def sheet_url(game) -> str:
    return f"/api/games/{game.pk}/sheet/"


def events_url(game) -> str:
    return f"/api/games/{game.pk}/sheet/events/"


def sign_in(game, user, device: str = "table-1", duties=SHEET_DUTIES):
    """Sign a console device in to the game's sheet (games.devices: entries come only from a signed-in device)."""
    from games.devices import console_sign_in

    return console_sign_in(game=game, by=user, device=device, duties=list(duties))
