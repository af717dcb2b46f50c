"""The scoreboard's push transports: a WebSocket per viewer (the pages use it) and a Server-Sent Events stream.

Both speak ``games.live``'s protocol: a snapshot first (the data of ``GET /api/v1/games/{id}/sheet/``), then the
pushes of the game's (or the championship's) channel-layer group as they come, each already encoded once by
the publisher, and a heartbeat every ``live.HEARTBEAT_SECONDS``. Who may watch is the sheet's public rule: the
games of published championships, and a draft's games for the staff who direct it; anyone else is refused
before any data is sent (the WebSocket handshake is closed, the stream answers 404).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import weakref
from functools import partial

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.contrib.auth.models import AnonymousUser

from games import live, viewers
from tournaments.models import Championship, Game

logger = logging.getLogger(__name__)


def _encode(message: dict) -> str:
    return json.dumps(message, separators=(",", ":"))


@database_sync_to_async
def _game_snapshot(game_id: int, user) -> dict | None:
    game = viewers.visible_game(game_id, user)
    return None if game is None else viewers.game_snapshot(game)


@database_sync_to_async
def _championship_snapshot(championship_id: int, user) -> dict | None:
    championship = viewers.visible_championship(championship_id, user)
    return None if championship is None else viewers.championship_snapshot(championship)


@database_sync_to_async
def _may_watch_game(game_id: int, user) -> bool:
    return viewers.visible_game(game_id, user) is not None


@database_sync_to_async
def _may_watch_championship(championship_id: int, user) -> bool:
    return viewers.visible_championship(championship_id, user) is not None


@database_sync_to_async
def _game_resync(game_id: int) -> dict | None:
    """The snapshot a game's relay sends its viewers (each was let in by ``_may_watch_game``) after a layer failure."""
    game = Game.objects.select_related("championship", "phase", "home", "away").filter(pk=game_id).first()
    return None if game is None else viewers.game_snapshot(game)


@database_sync_to_async
def _championship_resync(championship_id: int) -> dict | None:
    championship = Championship.objects.filter(pk=championship_id).first()
    return None if championship is None else viewers.championship_snapshot(championship)


# What each kind of viewer watches: (URL keyword, group, may watch, snapshot, the relay's snapshot after a failure).
WATCHED = {
    "game": ("game_id", live.game_group, _may_watch_game, _game_snapshot, _game_resync),
    "championship": (
        "championship_id",
        live.championship_group,
        _may_watch_championship,
        _championship_snapshot,
        _championship_resync,
    ),  # fmt: skip
}

# What a viewer may send: a ping of a few dozen characters; anything longer is not one.
MAX_FRAME_CHARS = 256
MAX_TOKEN_CHARS = 64

REJOIN_SECONDS = 600  # a relay re-joins its group well within channels_redis' group expiry (a day)


class Watch:
    """One viewer's pushes, queued for its writer; when the viewer lags, the oldest is dropped.

    A dropped push is a gap in the sequence the viewer sees: it fetches the snapshot again.
    """

    def __init__(self, size: int = 32):
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=size)

    def push(self, text: str) -> None:
        if self.queue.full():
            self.queue.get_nowait()
        self.queue.put_nowait(text)

    async def next(self) -> str:
        return await self.queue.get()


class Relay:
    """This process's member of one group: a single channel of the layer, fanned out to the local viewers.

    The channel layer then carries one message per web node, not one per viewer (the in-memory layer's work
    per message grows with its channels; Redis's with the keys it writes), and a push is encoded once.

    When the layer fails (Redis stopped or unreachable) the relay keeps its viewers (their heartbeats go on) and
    re-joins the group every ``RETRY_SECONDS``; once it is back in, it sends its viewers a fresh snapshot
    (``resync``, read from the database), so the entries stored while the pushes were failing reach them
    without waiting for the next entry. Joining before reading keeps the consumer's order: no entry falls
    between the two.
    """

    RETRY_SECONDS = 0.5
    # A join that a hung Redis does not answer gives up after this: the first viewer's connection (under the hub's
    # lock) waits no longer, and the relay goes on re-joining every ``RETRY_SECONDS`` until Redis answers. The
    # receive's own limit is the layer's read timeout (settings.CHANNEL_LAYER_READ_TIMEOUT).
    JOIN_SECONDS = 1.0

    def __init__(self, hub: Hub, group: str, resync=None):
        self.hub = hub
        self.group = group
        self.resync = resync
        self.watches: set[Watch] = set()
        self.channel: str | None = None
        self.tasks: list[asyncio.Task] = []
        self.joined = False

    async def start(self, layer) -> None:
        self.channel = await layer.new_channel()
        if not await self._join(layer):  # the viewer still gets its snapshot (the database) and its heartbeats
            logger.warning("live relay of %s: the channel layer does not answer; retrying", self.group)
        self.tasks = [asyncio.ensure_future(self._relay(layer)), asyncio.ensure_future(self._heartbeats(layer))]

    async def _join(self, layer) -> bool:
        """Join the group; a failing layer is logged and the relay tries again later (never the viewer's error)."""
        try:
            async with asyncio.timeout(self.JOIN_SECONDS):
                await layer.group_add(self.group, self.channel)
        except Exception:
            if self.joined:
                logger.warning("live relay of %s: the channel layer failed; retrying", self.group, exc_info=True)
            self.joined = False
            return False
        self.joined = True
        return True

    def _push(self, text: str) -> None:
        for watch in list(self.watches):
            watch.push(text)

    async def _rejoin(self, layer) -> None:
        """Re-join the group until the layer answers, then send the viewers the stored state."""
        while not await self._join(layer):
            await asyncio.sleep(self.RETRY_SECONDS)
        logger.info("live relay of %s: the channel layer answers again; viewers get a new snapshot", self.group)
        if self.resync is not None:
            try:
                snapshot = await self.resync()
            except Exception:
                logger.warning("live relay of %s: no snapshot after the layer came back", self.group, exc_info=True)
                return
            if snapshot is not None:
                self._push(_encode(snapshot))

    async def _relay(self, layer) -> None:
        while True:
            if not self.joined:
                await self._rejoin(layer)
            try:
                message = await layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis went away or timed out: re-join, then viewers get the state they missed
                logger.warning("live relay of %s: the channel layer failed; retrying", self.group, exc_info=True)
                self.joined = False
                await asyncio.sleep(self.RETRY_SECONDS)
                continue
            self._push(message["text"])

    async def _heartbeats(self, layer) -> None:
        """Beat for every viewer of the group at once; now and then re-join the group (its expiry)."""
        beats = 0
        while True:
            await asyncio.sleep(live.HEARTBEAT_SECONDS)
            self._push(_encode(live.heartbeat()))
            beats += 1
            if self.joined and beats % max(1, int(REJOIN_SECONDS / live.HEARTBEAT_SECONDS)) == 0:
                await self._join(layer)

    async def stop(self, layer) -> None:
        for task in self.tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        with contextlib.suppress(Exception):  # a layer that is down forgets the channel by its expiry
            await layer.group_discard(self.group, self.channel)


class Hub:
    """The relays of one event loop (a web node's process), by group; a relay lives while someone watches."""

    def __init__(self):
        self.relays: dict[str, Relay] = {}
        self.lock = asyncio.Lock()

    async def join(self, group: str, resync=None) -> Watch:
        """Add a viewer to the group's relay (started on the first); ``resync()`` is the group's snapshot."""
        watch = Watch()
        async with self.lock:
            relay = self.relays.get(group)
            if relay is None:
                relay = self.relays[group] = Relay(self, group, resync)
                await relay.start(get_channel_layer())
            relay.watches.add(watch)
        return watch

    async def leave(self, group: str, watch: Watch) -> None:
        async with self.lock:
            relay = self.relays.get(group)
            if relay is None:
                return
            relay.watches.discard(watch)
            if not relay.watches:
                del self.relays[group]
                await relay.stop(get_channel_layer())


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """Return the hub of the running event loop."""
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        _hubs[loop] = Hub()
    return _hubs[loop]


async def _pushes(watch: Watch, send_text) -> None:
    """Send a viewer its pushes (deltas, heartbeats) as they come."""
    while True:
        await send_text(await watch.next())


class ScoreboardConsumer(AsyncWebsocketConsumer):
    """A viewer's WebSocket: snapshot on connect, then deltas and heartbeats; answers ``ping`` with ``pong``.

    It joins the group before it reads the snapshot, so no entry falls between the two: a delta the snapshot
    already includes arrives after it, and the viewer drops it by its sequence.
    """

    watched = "game"
    # No channel of its own: the process's Relay reads the layer for every viewer of the group (a name that is
    # no configured layer gives the consumer none, as channels documents).
    channel_layer_alias = "no-layer-per-viewer"

    async def connect(self):
        keyword, group_of, may_watch, snapshot_of, resync_of = WATCHED[self.watched]
        watched_id = int(self.scope["url_route"]["kwargs"][keyword])
        user = self.scope.get("user") or AnonymousUser()
        self.writer = self.watch = None
        if not await may_watch(watched_id, user):
            await self.close(code=4404)  # before accept: the handshake is refused, nothing is sent
            return
        self.group = group_of(watched_id)
        self.watch = await hub().join(self.group, resync=partial(resync_of, watched_id))
        snapshot = await snapshot_of(watched_id, user)
        await self.accept()
        await self.send(text_data=_encode(snapshot))
        self.writer = asyncio.ensure_future(_pushes(self.watch, self._send_text))

    async def _send_text(self, text: str) -> None:
        await self.send(text_data=text)

    async def disconnect(self, code):
        if self.writer is not None:
            self.writer.cancel()
        if self.watch is not None:
            await hub().leave(self.group, self.watch)

    async def receive(self, text_data=None, bytes_data=None):
        """A viewer may ask the server's time (``{"kind": "ping", "token": ...}``) to measure its clock offset.

        Anything else is ignored, the connection kept: a binary or oversized frame, text that is not JSON (or is
        nested too deep for the decoder, which raises RecursionError), a token that is not a short string or an
        integer (the scoreboard's are a dozen characters).
        """
        if not text_data or len(text_data) > MAX_FRAME_CHARS:
            return
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):
            return
        if not isinstance(message, dict) or message.get("kind") != "ping":
            return
        token = message.get("token")
        if isinstance(token, bool) or not isinstance(token, int | str) or len(str(token)) > MAX_TOKEN_CHARS:
            return
        await self.send(text_data=_encode(live.pong(token)))


class ChampionshipScoreboardConsumer(ScoreboardConsumer):
    """The championship's viewers: its live games page, and its results and standings pages."""

    watched = "championship"


class ScoreboardStream:
    """The same protocol as Server-Sent Events (``text/event-stream``), one ``data:`` line per message.

    A plain ASGI application rather than a consumer: it writes its pushes while it watches the connection
    for the viewer's disconnect.
    """

    def __init__(self, watched: str):
        self.watched = watched

    async def __call__(self, scope, receive, send):
        keyword, group_of, may_watch, snapshot_of, resync_of = WATCHED[self.watched]
        watched_id = int(scope["url_route"]["kwargs"][keyword])
        user = scope.get("user") or AnonymousUser()
        message = await receive()
        while message["type"] == "http.request" and message.get("more_body"):
            message = await receive()
        if message["type"] == "http.disconnect":
            return
        if scope["method"] not in ("GET", "HEAD") or not await may_watch(watched_id, user):
            status, body = (404, b"No such game.") if scope["method"] in ("GET", "HEAD") else (405, b"GET only.")
            await send({"type": "http.response.start", "status": status,
                        "headers": [(b"content-type", b"text/plain; charset=utf-8")]})  # fmt: skip
            await send({"type": "http.response.body", "body": body})
            return
        group = group_of(watched_id)
        watch = await hub().join(group, resync=partial(resync_of, watched_id))
        try:
            snapshot = await snapshot_of(watched_id, user)
            headers = [(b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache"),
                       (b"x-accel-buffering", b"no")]  # fmt: skip
            await send({"type": "http.response.start", "status": 200, "headers": headers})

            async def send_text(text: str) -> None:
                await send({"type": "http.response.body", "body": _event(text), "more_body": True})

            await send_text(_encode(snapshot))
            disconnected = asyncio.ensure_future(self._disconnect(receive))
            writer = asyncio.ensure_future(_pushes(watch, send_text))
            try:
                await asyncio.wait({disconnected, writer}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                disconnected.cancel()
                writer.cancel()
        finally:
            await hub().leave(group, watch)

    @staticmethod
    async def _disconnect(receive):
        while (await receive())["type"] != "http.disconnect":
            pass


def _event(text: str) -> bytes:
    return f"data: {text}\n\n".encode()
