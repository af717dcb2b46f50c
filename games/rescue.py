"""Rescue import: a console's rescue file, uploaded on the server by the staff who direct the championship.

A console that cannot reach the server downloads its unsent log as a file (the "rescue export": JSON
``{"device": "...", "events": [...]}``, the batch format of ``POST /api/v1/games/{id}/sheet/events/``). Staff upload
it here; the entries keep the device's ids, so what the server already holds is acknowledged as a duplicate and
nothing is stored twice (``games.sheet.record_events``, the one way in, on its staff path ``rescue_import``: the
importer is the staff member, not the device). A file the engine refuses is refused whole, naming the rule and
the event (nothing stored).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from accounts.models import User
from games.access import can_direct_game
from games.sheet import MAX_BATCH, record_events
from games.sheet_answer import SheetAnswer
from tournaments.models import Game

# A whole game's outbox is a few hundred entries of a few hundred bytes.
MAX_RESCUE_BYTES = 2 * 1024 * 1024


@dataclass(frozen=True)
class RescueResult:
    device: str
    stored: int
    already_there: int
    answer: SheetAnswer


def read_rescue_file(content: bytes | str) -> dict:
    """Return the rescue file's ``device`` and ``events``; refuse a file that is not one (R-10)."""
    if isinstance(content, bytes):
        if len(content) > MAX_RESCUE_BYTES:
            raise ValidationError(
                {"file": _("R-10: a rescue file has at most %(size)s KiB.") % {"size": MAX_RESCUE_BYTES // 1024}}
            )
        try:
            content = content.decode("utf-8")
        except UnicodeDecodeError:
            raise ValidationError({"file": _("R-10: a rescue file is JSON text (UTF-8).")}) from None
    try:
        data = json.loads(content)
    except ValueError as error:
        raise ValidationError(
            {"file": _("R-10: the rescue file is not JSON (%(error)s).") % {"error": error}}
        ) from None
    return check_rescue_data(data)


def check_rescue_data(data: object) -> dict:
    """Return ``{"device", "events"}`` of a rescue file's data; refuse other shapes, naming the field (R-10)."""
    if not isinstance(data, dict):
        raise ValidationError({"file": _('R-10: a rescue file is {"device": "...", "events": [...]}.')})
    # The console's file also carries ``log``: this device's entries with their fate, for the people reading it.
    unknown = sorted(set(data) - {"device", "events", "game", "exported_at", "log"})
    if unknown:
        raise ValidationError({"file": _("R-10: a rescue file has no field %(field)s.") % {"field": repr(unknown[0])}})
    device = data.get("device")
    if not isinstance(device, str) or not device.strip():
        raise ValidationError({"device": _("R-10: the rescue file names the device that made its entries.")})
    events = data.get("events")
    if not isinstance(events, list) or not events:
        raise ValidationError({"events": _("R-10: the rescue file's events are a non-empty list of entries.")})
    if len(events) > MAX_BATCH:
        raise ValidationError({"events": _("At most %(count)s entries per rescue file.") % {"count": MAX_BATCH}})
    return {"device": device.strip(), "events": events, "game": data.get("game")}


def check_can_import_rescue(user: User, game: Game) -> None:
    """Only the staff who direct the game's championship import a rescue file (the entries become theirs)."""
    if not can_direct_game(user, game):
        raise PermissionDenied(_("Only the staff who direct the championship import a console's rescue file."))


def rescue_import(*, game: Game, by: User, data: dict) -> RescueResult:
    """Store a rescue file's entries on the game's sheet (staff who direct the championship): each id once.

    ``data`` is ``check_rescue_data``'s. A file made for another game (its ``game``) is refused.
    """
    check_can_import_rescue(by, game)
    if data.get("game") is not None and data["game"] != game.pk:
        raise ValidationError(
            {
                "game": _("R-10: this rescue file is of game %(file_game)s, not of game %(game)s.")
                % {"file_game": data["game"], "game": game.pk}
            }
        )
    answer = record_events(game=game, by=by, device=data["device"], events=data["events"], rescue_import=True)
    duplicates = sum(1 for ack in answer.acknowledged if ack.duplicate)
    return RescueResult(data["device"], len(answer.acknowledged) - duplicates, duplicates, answer)
