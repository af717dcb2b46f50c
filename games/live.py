"""Pushes to the public scoreboard: hints that a sheet changed, never the record.

A channel layer delivers at most once and drops messages for slow clients, so a viewer is built to survive
losing any push: it gets a snapshot when it connects (the data of ``GET /api/v1/games/{id}/sheet/``: the stored
state, no replay), then deltas that carry the sheet's ``sequence`` and the whole new state, and a heartbeat
every ``HEARTBEAT_SECONDS``. A gap in the sequence, or a heartbeat that does not come, makes the viewer fetch
the snapshot again; a board that heard no heartbeat for ``STALE_SECONDS`` says it is stale.

Everything published goes through this module, after the entry's transaction has committed
(``transaction.on_commit``), to a channel-layer group per game and one per championship. The same code runs
on the embedded default (one process, ``InMemoryChannelLayer``) and on several web nodes sharing Redis
(``channels_redis``): a viewer on node B hears an entry made on node A. Who may watch and the snapshots a
viewer reads first are ``games.viewers``'s (above ``games.sheet``, which publishes through this module).

With ``LIVE_FANOUT = "nchan"`` (the production topology, docs/operations.md) the same message text is POSTed
once, on this process's pusher thread, to nginx's nchan publisher (``LIVE_NCHAN_PUBLISH_URL``, loopback only) for
the game's and the championship's channels at once; nchan hands it to every subscriber, so an entry costs the
web process one small request whatever the number of viewers. Only the games of published championships go to
nchan, whose channels anyone may subscribe to (as anyone may read those games' pages); a draft's pushes keep to
the channel layer, whose consumers let in only its directors (``games.live_views.feed_paths`` sends the draft's
pages there). A heartbeat is published every ``HEARTBEAT_SECONDS`` on one channel every viewer also subscribes
to (``games.tasks.live_heartbeat``, beat).
A publish that fails or takes longer than ``LIVE_NCHAN_TIMEOUT`` is logged, never the entry's error.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import timezone

from games.engine.state import ENDED
from games.sheet_answer import SheetAnswer, SheetStateSerializer

logger = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 5
PUSH_ATTEMPTS = 2  # per group and push; a failure after them is logged, never the entry's error
# The longest one push (every group, every attempt) holds the entry that made it: a Redis that hangs (stopped, not
# refused) answers nothing, and the official's answer must not wait for it. A push that runs out of time pauses
# the pushes of this process for ``PUSH_PAUSE_SECONDS`` (skipped, logged): an entry while Redis hangs costs
# ``PUSH_SECONDS`` once per pause, not at every push (a game's last entry pushes twice: its delta, then "final").
# Viewers catch up from the relay's snapshot once the layer answers (``games.consumers.Relay``).
PUSH_SECONDS = 0.25
PUSH_PAUSE_SECONDS = 3.0
STALE_SECONDS = 10

# Message kinds, as viewers read them (``kind`` of every message sent to a viewer).
SNAPSHOT, DELTA, HEARTBEAT, FINAL, PONG = "snapshot", "delta", "heartbeat", "final", "pong"


def game_group(game_id: int) -> str:
    return f"live.game.{game_id}"


def championship_group(championship_id: int) -> str:
    return f"live.championship.{championship_id}"


# nchan's channel for the heartbeat every viewer's subscription also listens to (the nginx configuration of
# scripts/topology multiplexes it with the game's or the championship's channel).
HEARTBEAT_CHANNEL = "heartbeat"


def nchan_channel(group: str) -> str:
    """The nchan channel of a channel-layer group: ``live.game.12`` is ``game.12``."""
    return group.removeprefix("live.")


def encode(message: dict[str, Any]) -> str:
    """A message's text as every viewer receives it (the same on every transport)."""
    return json.dumps(message, separators=(",", ":"))


# --- what a viewer reads ----------------------------------------------------------------------------------------


def sheet_data(answer: SheetAnswer) -> dict[str, Any]:
    """Return a sheet's answer as ``GET /api/v1/games/{id}/sheet/`` shows it (one serializer for both)."""
    return dict(SheetStateSerializer(answer).data)


def heartbeat() -> dict[str, Any]:
    return {"kind": HEARTBEAT, "server_time": timezone.now().isoformat()}


def pong(token: object) -> dict[str, Any]:
    """The answer to a viewer's ping: its token and the server's time, to measure the clock offset."""
    return {"kind": PONG, "token": token, "server_time": timezone.now().isoformat()}


# --- publishing -------------------------------------------------------------------------------------------------


# A push made on a thread whose event loop is running (sync code called from async code without
# ``sync_to_async``: Playwright's sync API drives a loop on the test's thread) cannot run ``async_to_sync`` there
# (asgiref refuses: "You cannot use AsyncToSync in the same thread as an async event loop"), and waiting on that
# loop would block it: such pushes go to this one thread, in the order they are made.
_PUSHER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-push")


def _loop_running() -> bool:
    """Whether an event loop runs on this thread (where ``async_to_sync`` refuses to run)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def uses_nchan(championship) -> bool:
    """Whether a championship's viewers follow it through nchan: the fan-out is nchan's and it is published.

    ``championship``: the object, or its id (one query, in nchan mode only).
    """
    if settings.LIVE_FANOUT != "nchan":
        return False
    if isinstance(championship, int):
        from tournaments.models import Championship

        return Championship.objects.filter(pk=championship, published=True).exists()
    return bool(championship.published)


def _send(groups: list[str], message: dict[str, Any], *, championship_id: int | None = None) -> None:
    """Send one message (encoded once for every viewer) to the groups; a push that fails is only logged.

    The entry is committed when this runs: a lost push costs a viewer one snapshot fetch, never the entry. On a
    thread that runs an event loop the push is handed to ``_PUSHER`` and this returns at once.
    """
    if championship_id is not None and uses_nchan(championship_id):
        # Always on the pusher thread: the official's answer never waits for nginx.
        _PUSHER.submit(publish_nchan, [nchan_channel(group) for group in groups], encode(message))
        return
    layer = get_channel_layer()
    if layer is None:
        return
    event = {"type": "live.push", "text": encode(message)}
    if _loop_running():
        _PUSHER.submit(_deliver, layer, groups, event)
    else:
        _deliver(layer, groups, event)


class _Pause:
    """Until when this process skips its pushes: the layer let the last one run out of ``PUSH_SECONDS``."""

    def __init__(self):
        self.until = 0.0
        self.lock = threading.Lock()

    def active(self) -> bool:
        return time.monotonic() < self.until

    def start(self) -> None:
        with self.lock:
            self.until = time.monotonic() + PUSH_PAUSE_SECONDS


_PAUSE = _Pause()


def _deliver(layer, groups: list[str], event: dict[str, Any]) -> None:
    """Send ``event`` to each group from a thread without a running event loop, within ``PUSH_SECONDS``; a failure
    is logged, and one that runs out of time pauses the pushes (``_PAUSE``)."""
    if _PAUSE.active():
        logger.info("live push to %s skipped: the channel layer did not answer a moment ago", ", ".join(groups))
        return
    try:
        async_to_sync(_deliver_within)(layer, groups, event)
    except TimeoutError:
        _PAUSE.start()
        logger.warning(
            "live push to %s: the channel layer did not answer within %s s (Redis hung?); pushes paused %s s",
            ", ".join(groups),
            PUSH_SECONDS,
            PUSH_PAUSE_SECONDS,
        )


async def _deliver_within(layer, groups: list[str], event: dict[str, Any]) -> None:
    async with asyncio.timeout(PUSH_SECONDS):
        for group in groups:
            # Twice: after a Redis restart the first try meets a pooled connection the old server closed.
            for attempt in range(PUSH_ATTEMPTS):
                try:
                    await layer.group_send(group, event)
                    break
                except Exception:  # the channel layer is down or full: viewers catch up from their next snapshot
                    if attempt == PUSH_ATTEMPTS - 1:
                        logger.warning("live push to %s failed", group, exc_info=True)


def publish_nchan(channels: list[str], text: str) -> bool:
    """POST ``text`` once to nchan's publisher for every channel (one request: ``.../pub/game.12,championship.3``).

    Returns whether nchan took it. A refusal, an error or no answer within ``LIVE_NCHAN_TIMEOUT`` is logged and
    returns False: the entry is stored, and a viewer that missed the message fetches the snapshot on the next
    sequence gap. Plain ``http.client``: no proxy from the environment stands between the process and nginx.
    """
    url = settings.LIVE_NCHAN_PUBLISH_URL.rstrip("/") + "/" + ",".join(channels)
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=settings.LIVE_NCHAN_TIMEOUT)
    try:
        connection.request("POST", parts.path, body=text.encode(), headers={"Content-Type": "application/json"})
        answer = connection.getresponse()
        answer.read()
    except (OSError, http.client.HTTPException):
        logger.warning("live publish to %s failed", url, exc_info=True)
        return False
    finally:
        connection.close()
    if answer.status >= 300:
        logger.warning("live publish to %s refused: %s %s", url, answer.status, answer.reason)
        return False
    return True


def publish_heartbeat() -> bool:
    """Publish one heartbeat to nchan's heartbeat channel (every viewer's), when nchan carries the pushes."""
    if settings.LIVE_FANOUT != "nchan":
        return False
    return publish_nchan([HEARTBEAT_CHANNEL], encode(heartbeat()))


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
    _send([game_group(answer.game_id), championship_group(championship_id)], delta, championship_id=championship_id)
    if answer.status != "final" and answer.state.get("status") == ENDED:
        publish_game_final(answer.game_id, championship_id=championship_id)


def publish_game_final(game_id: int, *, championship_id: int) -> None:
    """Tell the championship's pages that a game ended or its result was recorded: results and standings reload.

    The hook of the end-of-game pipeline (the sheet's sign-off and finalize) and of ``game_record_result``:
    call it after the commit (``transaction.on_commit``).
    """
    message = {"kind": FINAL, "game": game_id, "championship": championship_id}
    _send([game_group(game_id), championship_group(championship_id)], message, championship_id=championship_id)
