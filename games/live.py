"""Pushes to the public scoreboard: hints that a sheet changed, never the record.

A channel layer delivers at most once and drops messages for slow clients, so a viewer is built to survive
losing any push: it gets a snapshot when it connects (the data of ``GET /api/games/{id}/sheet/``: the stored
state, no replay), then deltas that carry the sheet's ``sequence`` and the whole new state, and a heartbeat
every ``HEARTBEAT_SECONDS``. A gap in the sequence, or a heartbeat that does not come, makes the viewer fetch
the snapshot again; a board that heard no heartbeat for ``STALE_SECONDS`` says it is stale.

Everything published goes through this module, after the entry's transaction has committed
(``transaction.on_commit``), to a channel-layer group per game and one per championship. The same code runs
on the embedded default (one process, ``InMemoryChannelLayer``) and on several web nodes sharing Redis
(``channels_redis``): a viewer on node B hears an entry made on node A.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy

from games.engine.state import ENDED
from tournaments.models import Championship, Game, GameStatus
from tournaments.selectors import of_visible_championships

if TYPE_CHECKING:
    from games.sheet import SheetAnswer

logger = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 5
PUSH_ATTEMPTS = 2  # per group and push; a failure after them is logged, never the entry's error
STALE_SECONDS = 10

# Message kinds, as viewers read them (``kind`` of every message sent to a viewer).
SNAPSHOT, DELTA, HEARTBEAT, FINAL, PONG = "snapshot", "delta", "heartbeat", "final", "pong"


def game_group(game_id: int) -> str:
    return f"live.game.{game_id}"


def championship_group(championship_id: int) -> str:
    return f"live.championship.{championship_id}"


# --- what a viewer reads ----------------------------------------------------------------------------------------


def sheet_data(answer: SheetAnswer) -> dict[str, Any]:
    """Return a sheet's answer as ``GET /api/games/{id}/sheet/`` shows it (one serializer for both)."""
    from games.sheet_api import SheetStateSerializer  # the API module imports games.sheet, which imports this

    return dict(SheetStateSerializer(answer).data)


def visible_game(game_id: int, user) -> Game | None:
    """Return the game if ``user`` may watch it (its championship is published, or one they direct)."""
    games = Game.objects.select_related("championship", "phase", "home", "away")
    return of_visible_championships(games, user).filter(pk=game_id).first()


def visible_championship(championship_id: int, user) -> Championship | None:
    """Return the championship if ``user`` may see it (published, or one they direct)."""
    return of_visible_championships(Championship.objects.all(), user, through="").filter(pk=championship_id).first()


def game_snapshot(game: Game) -> dict[str, Any]:
    """Return a game's snapshot message: the stored sheet state (no replay), or why there is none yet."""
    from games.selectors import protest_marks
    from games.sheet import sheet_state
    from games.sheet_api import SheetReadSerializer

    try:
        answer = sheet_state(game)
    except ValidationError as error:  # a bracket game whose teams are not known yet
        return {"kind": SNAPSHOT, "game": game.pk, "sequence": 0, "sheet": None, "detail": error.messages}
    # As GET /sheet/ reads it: with the administrative protests made before the start (9.1 B).
    sheet = dict(SheetReadSerializer(answer, context={"under_protest": protest_marks(game)}).data)
    return {"kind": SNAPSHOT, "game": game.pk, "sequence": sheet["sequence"], "sheet": sheet}


# The engine's game statuses as the staff's pages name them.
STATUS_LABELS = {
    "not_started": gettext_lazy("Not started"),
    "in_progress": gettext_lazy("In progress"),
    "intermission": gettext_lazy("Intermission"),
    "shootout": gettext_lazy("Shoot-out"),
    "ended": gettext_lazy("Ended, awaiting the signatures"),
}


def live_board(game: Game) -> dict[str, Any] | None:
    """An open sheet's state as the live pages read it (``sheet_state``: the latest snapshot, no replay): its
    status, period and score and the live page's address; None when the game has no open sheet or is final."""
    from games.models import GameSheet, SheetStatus
    from games.sheet import sheet_state

    if game.status == GameStatus.FINAL or not GameSheet.objects.filter(game=game, status=SheetStatus.OPEN).exists():
        return None
    state = sheet_state(game).state
    return {
        "status": state["status"],
        "status_label": STATUS_LABELS.get(state["status"], state["status"]),
        "period": state["period"],
        "home": state["teams"]["home"]["score"],
        "away": state["teams"]["away"]["score"],
        "url": reverse("games:game-live", args=[game.pk]),
    }


def live_games(championship: Championship) -> list[dict[str, Any]]:
    """Return the sheets of a championship's games being played (open sheet, no result yet), in game order.

    Each is the stored state of its sheet (the latest snapshot row), so the page costs the same few queries
    however many games and entries there are.
    """
    from games.models import GameSheet, SheetSnapshot, SheetStatus
    from games.sheet import SheetAnswer

    sheets = list(
        GameSheet.objects.filter(game__championship=championship, status=SheetStatus.OPEN)
        .exclude(game__status=GameStatus.FINAL)
        .select_related("game")
        .order_by("game__start_at", "game__number")
    )
    latest: dict[int, SheetSnapshot] = {}
    for snapshot in SheetSnapshot.objects.filter(sheet__in=sheets).order_by("sheet_id", "-sequence"):
        latest.setdefault(snapshot.sheet_id, snapshot)
    now = timezone.now()
    answers = []
    for sheet in sheets:
        snapshot = latest.get(sheet.pk)
        if snapshot is None:  # opened by a refused batch: nothing entered yet
            continue
        state = snapshot.state
        answers.append(sheet_data(SheetAnswer(sheet.game_id, sheet.status, sheet.sequence, state["state"],
                                              state["clock"], now)))  # fmt: skip
    return answers


def championship_snapshot(championship: Championship) -> dict[str, Any]:
    return {"kind": SNAPSHOT, "championship": championship.pk, "games": live_games(championship)}


def heartbeat() -> dict[str, Any]:
    return {"kind": HEARTBEAT, "server_time": timezone.now().isoformat()}


def pong(token: object) -> dict[str, Any]:
    """The answer to a viewer's ping: its token and the server's time, to measure the clock offset."""
    return {"kind": PONG, "token": token, "server_time": timezone.now().isoformat()}


# --- publishing -------------------------------------------------------------------------------------------------


def _send(groups: list[str], message: dict[str, Any]) -> None:
    """Send one message (encoded once for every viewer) to the groups; a push that fails is only logged.

    The entry is committed when this runs: a lost push costs a viewer one snapshot fetch, never the entry.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    event = {"type": "live.push", "text": json.dumps(message, separators=(",", ":"))}
    for group in groups:
        # Twice: after a Redis restart the first try meets a pooled connection the old server closed.
        for attempt in range(PUSH_ATTEMPTS):
            try:
                async_to_sync(layer.group_send)(group, event)
                break
            except Exception:  # the channel layer is down or full: viewers catch up from their next snapshot
                if attempt == PUSH_ATTEMPTS - 1:
                    logger.warning("live push to %s failed", group, exc_info=True)


# What a scoreboard shows of the engine's state: a delta carries these (a snapshot the whole state), which
# keeps the message every viewer gets small (the per-player records are most of the state).
BOARD_KEYS = ("status", "period", "elapsed", "countdown", "running", "two_minute_mark", "score", "strength",
              "power_play", "box", "timeouts_used", "goals", "penalties", "shootout", "result")  # fmt: skip
BOARD_TEAM_KEYS = ("name", "score", "shots", "strength", "goalkeeper_pulled", "timeouts_used")


def board_state(state: dict[str, Any]) -> dict[str, Any]:
    """Return the scoreboard's part of an engine state (``BOARD_KEYS``; each team's ``BOARD_TEAM_KEYS``)."""
    board = {key: state[key] for key in BOARD_KEYS if key in state}
    board["teams"] = {side: {key: team[key] for key in BOARD_TEAM_KEYS} for side, team in state["teams"].items()}
    return board


def publish_sheet(answer: SheetAnswer, *, championship_id: int) -> None:
    """Tell the game's and the championship's viewers the sheet's new state (a delta with its sequence).

    When the game is over on an open sheet (the engine's state ``ended``), the championship's results and
    standings pages are told as well (``publish_game_final``); a final sheet's amendment tells them through
    ``games.finalize``, once its records are written.
    """
    data = sheet_data(answer)
    data["state"] = board_state(data["state"])
    delta = {"kind": DELTA, "game": answer.game_id, "sequence": answer.sequence, "sheet": data}
    _send([game_group(answer.game_id), championship_group(championship_id)], delta)
    if answer.status != "final" and answer.state.get("status") == ENDED:
        publish_game_final(answer.game_id, championship_id=championship_id)


def publish_game_final(game_id: int, *, championship_id: int) -> None:
    """Tell the championship's pages that a game ended or its result was recorded: results and standings reload.

    The hook of the end-of-game pipeline (the sheet's sign-off and finalize) and of ``game_record_result``:
    call it after the commit (``transaction.on_commit``).
    """
    message = {"kind": FINAL, "game": game_id, "championship": championship_id}
    _send([game_group(game_id), championship_group(championship_id)], message)
