"""The scoreboard's push transports: a WebSocket per viewer (the pages use it) and a Server-Sent Events stream.

Both speak ``games.live``'s protocol: a snapshot first (the data of ``GET /api/games/{id}/sheet/``), then the
pushes of the game's (or the championship's) channel-layer group as they come, each already encoded once by
the publisher, and a heartbeat every ``live.HEARTBEAT_SECONDS``. Who may watch is the sheet's public rule: the
games of published championships, and a draft's games for the staff who direct it; anyone else is refused
before any data is sent (the WebSocket handshake is closed, the stream answers 404).
"""

from __future__ import annotations

import asyncio
import contextlib
import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.contrib.auth.models import AnonymousUser

from games import live


def _encode(message: dict) -> str:
    return json.dumps(message, separators=(",", ":"))


@database_sync_to_async
def _game_snapshot(game_id: int, user) -> dict | None:
    game = live.visible_game(game_id, user)
    return None if game is None else live.game_snapshot(game)


@database_sync_to_async
def _championship_snapshot(championship_id: int, user) -> dict | None:
    championship = live.visible_championship(championship_id, user)
    return None if championship is None else live.championship_snapshot(championship)


@database_sync_to_async
def _may_watch_game(game_id: int, user) -> bool:
    return live.visible_game(game_id, user) is not None


@database_sync_to_async
def _may_watch_championship(championship_id: int, user) -> bool:
    return live.visible_championship(championship_id, user) is not None


# What each kind of viewer watches: (URL keyword, group, may watch, snapshot).
WATCHED = {
    "game": ("game_id", live.game_group, _may_watch_game, _game_snapshot),
    "championship": ("championship_id", live.championship_group, _may_watch_championship, _championship_snapshot),
}


class ScoreboardConsumer(AsyncWebsocketConsumer):
    """A viewer's WebSocket: snapshot on connect, then deltas and heartbeats; answers ``ping`` with ``pong``.

    It joins the group before it reads the snapshot, so no entry falls between the two: a delta the snapshot
    already includes arrives after it, and the viewer drops it by its sequence.
    """

    watched = "game"

    async def connect(self):
        keyword, group_of, may_watch, snapshot_of = WATCHED[self.watched]
        self.watched_id = int(self.scope["url_route"]["kwargs"][keyword])
        user = self.scope.get("user") or AnonymousUser()
        self.beat = None
        self.group = None
        if not await may_watch(self.watched_id, user):
            await self.close(code=4404)  # before accept: the handshake is refused, nothing is sent
            return
        self.group = group_of(self.watched_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        snapshot = await snapshot_of(self.watched_id, user)
        await self.accept()
        await self.send(text_data=_encode(snapshot))
        self.beat = asyncio.create_task(self._heartbeats())

    async def _heartbeats(self):
        while True:
            await asyncio.sleep(live.HEARTBEAT_SECONDS)
            await self.send(text_data=_encode(live.heartbeat()))

    async def disconnect(self, code):
        if self.beat is not None:
            self.beat.cancel()
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """A viewer may ask the server's time (``{"kind": "ping", "token": ...}``) to measure its clock offset."""
        try:
            message = json.loads(text_data or "")
        except ValueError:
            return
        if isinstance(message, dict) and message.get("kind") == "ping":
            await self.send(text_data=_encode(live.pong(message.get("token"))))

    async def live_push(self, event):
        await self.send(text_data=event["text"])


class ChampionshipScoreboardConsumer(ScoreboardConsumer):
    """The championship's viewers: its live games page, and its results and standings pages."""

    watched = "championship"


class ScoreboardStream:
    """The same protocol as Server-Sent Events (``text/event-stream``), one ``data:`` line per message.

    A plain ASGI application rather than a consumer: it reads its own channel of the layer while it watches
    the connection for the viewer's disconnect.
    """

    def __init__(self, watched: str):
        self.watched = watched

    async def __call__(self, scope, receive, send):
        keyword, group_of, may_watch, snapshot_of = WATCHED[self.watched]
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
        layer = get_channel_layer()
        channel = await layer.new_channel()
        group = group_of(watched_id)
        await layer.group_add(group, channel)
        try:
            snapshot = await snapshot_of(watched_id, user)
            headers = [(b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache"),
                       (b"x-accel-buffering", b"no")]  # fmt: skip
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": _event(_encode(snapshot)), "more_body": True})
            disconnected = asyncio.ensure_future(self._disconnect(receive))
            try:
                await self._relay(layer, channel, send, disconnected)
            finally:
                disconnected.cancel()
        finally:
            await layer.group_discard(group, channel)

    @staticmethod
    async def _disconnect(receive):
        while (await receive())["type"] != "http.disconnect":
            pass

    @staticmethod
    async def _relay(layer, channel, send, disconnected):
        loop = asyncio.get_running_loop()
        next_beat = loop.time() + live.HEARTBEAT_SECONDS
        while not disconnected.done():
            pushed = asyncio.ensure_future(layer.receive(channel))
            done, _ = await asyncio.wait(
                {pushed, disconnected}, timeout=max(0.0, next_beat - loop.time()), return_when=asyncio.FIRST_COMPLETED
            )
            if pushed in done:
                text = pushed.result()["text"]
            else:
                pushed.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await pushed
                if disconnected.done():
                    return
                text, next_beat = _encode(live.heartbeat()), loop.time() + live.HEARTBEAT_SECONDS
            await send({"type": "http.response.body", "body": _event(text), "more_body": True})


def _event(text: str) -> bytes:
    return f"data: {text}\n\n".encode()
