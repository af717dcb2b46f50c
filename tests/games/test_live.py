"""The scoreboard's pushes (games.live, games.consumers): snapshot on connect, deltas with the sequence,
heartbeats, who may watch, and the championship's "a game ended" push.

The tests are sync and drive the ASGI application through ``async_to_sync``: the consumers' database calls
then run on the test's thread, inside its transaction.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import logging
import time

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from channels.db import database_sync_to_async
from channels.layers import channel_layers

from games import live
from games.models import SheetEvent
from games.sheet import record_events
from portal.asgi import application
from tests.factories import ChampionshipFactory, UserFactory, client_for, international_staff
from tests.live_servers import ASYNC_TO_SYNC_IN_A_LOOP, WebNode, failing_on_async_to_sync_in_a_loop
from tournaments.models import DecidedIn
from tournaments.services.results import game_record_result

from .live_helpers import Viewer, keep_test_connection
from .sheet_helpers import entry, sheet_game, sign_in

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_layer(settings, monkeypatch):
    """An in-memory layer of this test's own (its queues belong to the test's event loop)."""
    keep_test_connection(monkeypatch)
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture
def director():
    return international_staff()


@pytest.fixture
def game():
    return sheet_game()


@pytest.fixture
def post(director, django_capture_on_commit_callbacks):
    """Enter events as the director, from the consumers' side of the test (its callbacks run as on a commit)."""

    signed_in = set()

    @database_sync_to_async
    def _post(game, *events):
        if game.pk not in signed_in:
            sign_in(game, director)
            signed_in.add(game.pk)
        with django_capture_on_commit_callbacks(execute=True):
            return record_events(game=game, by=director, device="table-1", events=list(events))

    return _post


def viewer(path, user=None):
    return Viewer(path, user=user)


async def receive(board, timeout=2):
    return await board.receive(timeout)


def test_a_viewer_gets_the_stored_state_on_connect_then_each_entry_as_a_delta_with_its_sequence(game, post):
    async def scenario():
        await post(game, entry("period_start", period=1))
        board = viewer(f"/live/games/{game.pk}/")
        connected, _ = await board.connect()
        assert connected
        snapshot = await receive(board)
        assert snapshot["kind"] == "snapshot" and snapshot["sequence"] == 1
        assert snapshot["sheet"]["state"]["status"] == "in_progress"
        assert snapshot["sheet"]["clock"]["running"] is True

        await post(game, entry("goal", period=1, time="3:00", team="home", player=8, seconds=180))
        delta = await receive(board)
        assert delta["kind"] == "delta" and delta["sequence"] == 2 and delta["game"] == game.pk
        assert delta["sheet"]["state"]["score"] == {"home": 1, "away": 0}
        await post(game, entry("penalty", period=1, time="3:00", team="away", player=14, penalty="minor",
                               infraction="hooking", seconds=181))  # fmt: skip
        delta = await receive(board)
        assert delta["sequence"] == 3
        assert [b["penalized"] for b in delta["sheet"]["state"]["box"]["away"]] == [14]
        await board.close()

    async_to_sync(scenario)()


def test_the_snapshot_is_the_data_of_the_public_sheet_endpoint(game, post):
    async def scenario():
        await post(game, entry("period_start", period=1), entry("shot", period=1, time="0:30", team="away"))
        board = viewer(f"/live/games/{game.pk}/")
        await board.connect()
        snapshot = await receive(board)
        await board.close()
        return snapshot

    snapshot = async_to_sync(scenario)()
    api = client_for(UserFactory()).get(f"/api/games/{game.pk}/sheet/").json()
    api.pop("server_time"), snapshot["sheet"].pop("server_time")
    assert snapshot["sheet"] == api


def test_a_viewer_gets_a_heartbeat_with_the_server_time_when_nothing_happens(game, monkeypatch):
    monkeypatch.setattr(live, "HEARTBEAT_SECONDS", 0.05)

    async def scenario():
        board = viewer(f"/live/games/{game.pk}/")
        await board.connect()
        assert (await receive(board))["kind"] == "snapshot"
        beats = [await receive(board), await receive(board)]
        await board.close()
        return beats

    beats = async_to_sync(scenario)()
    assert [b["kind"] for b in beats] == ["heartbeat", "heartbeat"]
    assert all(b["server_time"] for b in beats)


def test_a_ping_is_answered_with_its_token_and_the_server_time(game):
    async def scenario():
        board = viewer(f"/live/games/{game.pk}/")
        await board.connect()
        await receive(board)
        await board.send({"kind": "ping", "token": 7})
        answer = await receive(board)
        await board.close()
        return answer

    answer = async_to_sync(scenario)()
    assert answer["kind"] == "pong" and answer["token"] == 7 and answer["server_time"]


def test_a_draft_championships_game_is_not_streamed_to_the_public_but_to_its_directors(director):
    game = sheet_game(championship=ChampionshipFactory(published=False))

    async def connect(user):
        board = viewer(f"/live/games/{game.pk}/", user)
        connected, code = await board.connect()
        if connected:
            assert (await receive(board))["kind"] == "snapshot"
            await board.close()
        return connected, code

    assert async_to_sync(connect)(None) == (False, 4404)
    assert async_to_sync(connect)(UserFactory()) == (False, 4404)
    assert async_to_sync(connect)(director)[0] is True


def test_a_socket_from_another_sites_page_is_refused(game):
    async def scenario():
        board = Viewer(
            f"/live/games/{game.pk}/", headers=[(b"origin", b"http://evil.example"), (b"host", b"testserver")]
        )
        connected, _ = await board.connect()
        return connected

    assert async_to_sync(scenario)() is False


def test_the_championship_viewer_gets_its_live_games_then_their_deltas(game, post):
    other = sheet_game(championship=game.championship)

    async def scenario():
        await post(game, entry("period_start", period=1))
        board = viewer(f"/live/championships/{game.championship_id}/")
        connected, _ = await board.connect()
        assert connected
        snapshot = await receive(board)
        assert snapshot["kind"] == "snapshot"
        assert [g["game"] for g in snapshot["games"]] == [game.pk]  # the other has no sheet yet
        await post(other, entry("period_start", period=1))
        delta = await receive(board)
        await board.close()
        return delta

    delta = async_to_sync(scenario)()
    assert delta["kind"] == "delta" and delta["game"] == other.pk and delta["sequence"] == 1


def test_a_recorded_result_tells_the_championships_pages(game, director, django_capture_on_commit_callbacks):
    @database_sync_to_async
    def record():
        with django_capture_on_commit_callbacks(execute=True):
            after = game.start_at + datetime.timedelta(hours=2)
            game_record_result(game=game, home_goals=0, away_goals=0, decided_in=DecidedIn.REGULATION, by=director,
                               now=after)  # fmt: skip

    async def scenario():
        board = viewer(f"/live/championships/{game.championship_id}/")
        await board.connect()
        await receive(board)
        await record()
        message = await receive(board)
        await board.close()
        return message

    assert async_to_sync(scenario)() == {"kind": "final", "game": game.pk, "championship": game.championship_id}


def test_the_end_of_the_game_on_the_sheet_tells_the_championships_pages(game, post):
    game_over = [
        entry("period_start", period=1),
        entry("period_end", period=1, time="20:00"),
        entry("period_start", period=2),
        entry("goal", period=2, time="1:00", team="home", player=8),
        entry("clock_start", period=2, time="1:00"),
        entry("period_end", period=2, time="20:00"),
    ]

    async def scenario():
        board = viewer(f"/live/championships/{game.championship_id}/")
        await board.connect()
        await receive(board)
        answer = await post(game, *game_over)
        messages = [await receive(board), await receive(board)]
        await board.close()
        return answer, messages

    answer, messages = async_to_sync(scenario)()
    assert answer.state["status"] == "ended"
    assert [m["kind"] for m in messages] == ["delta", "final"]


def test_a_push_that_fails_leaves_the_entry_stored(
    game, director, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    class Broken:
        async def group_send(self, group, message):
            raise ConnectionError("redis is down")

    monkeypatch.setattr(live, "get_channel_layer", lambda: Broken())
    sign_in(game, director)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        answer = record_events(game=game, by=director, device="table-1", events=[entry("period_start", period=1)])
    assert len(callbacks) == 2  # the parsed log kept, the push tried
    assert answer.sequence == 1 and SheetEvent.objects.filter(sheet__game=game).count() == 1
    assert "live push" in caplog.text


def test_a_push_made_on_a_thread_running_an_event_loop_is_handed_to_a_thread_and_arrives(monkeypatch, caplog):
    """Sync code called from a running loop (Playwright's sync API drives one on the browser tests' thread) makes
    a push: asgiref refuses ``async_to_sync`` there, so the push goes to the pusher thread, in order, none lost."""
    sent = []

    class Layer:
        async def group_send(self, group, message):
            sent.append((group, json.loads(message["text"])))

    monkeypatch.setattr(live, "get_channel_layer", lambda: Layer())

    async def inside_a_running_loop():
        live.publish_game_final(7, championship_id=3)  # sync, as an on_commit callback calls it
        live.publish_game_final(8, championship_id=3)
        for _ in range(500):
            if len(sent) == 4:
                break
            await asyncio.sleep(0.01)

    asyncio.run(inside_a_running_loop())
    assert sent == [
        ("live.game.7", {"kind": "final", "game": 7, "championship": 3}),
        ("live.championship.3", {"kind": "final", "game": 7, "championship": 3}),
        ("live.game.8", {"kind": "final", "game": 8, "championship": 3}),
        ("live.championship.3", {"kind": "final", "game": 8, "championship": 3}),
    ]
    assert "live push" not in caplog.text and ASYNC_TO_SYNC_IN_A_LOOP not in caplog.text


def test_the_live_servers_fail_on_async_to_sync_refused_on_a_thread_running_a_loop(caplog):
    """The browser tests' servers (``failing_on_async_to_sync_in_a_loop``) and the web nodes (``WebNode``'s log)
    fail on asgiref's refusal, the line a push made the wrong way leaves; other warnings pass."""
    with failing_on_async_to_sync_in_a_loop():
        logging.getLogger("games.live").warning("live push to %s failed", "live.game.1")

    async def nothing():
        return None

    async def refused_in_a_running_loop():
        try:
            async_to_sync(nothing)()  # asgiref refuses it here, as it refused the pushes before
        except RuntimeError:
            logging.getLogger("games.live").warning("live push to %s failed", "live.game.1", exc_info=True)

    refusal = pytest.raises(AssertionError, match="called async_to_sync on a thread running a loop")
    with refusal, failing_on_async_to_sync_in_a_loop():
        asyncio.run(refused_in_a_running_loop())
    assert ASYNC_TO_SYNC_IN_A_LOOP in caplog.text  # the line the servers fail on is the one asgiref writes

    node = WebNode({}, port=1)
    node.lines = ["INFO:     Started server process\n", f"RuntimeError: {ASYNC_TO_SYNC_IN_A_LOOP}\n"]
    with pytest.raises(AssertionError, match="the web node on port 1"):
        node.__exit__(None, None, None)


# --- the same protocol as Server-Sent Events --------------------------------------------------------------------


async def _stream(path, user=None):
    scope = {"type": "http", "method": "GET", "path": path, "query_string": b"", "headers": [], "scheme": "http",
             "server": ("testserver", 80), "client": ("127.0.0.1", 1)}  # fmt: skip
    stream = ApplicationCommunicator(application, scope)
    await stream.send_input({"type": "http.request", "body": b""})
    start = await stream.receive_output(timeout=2)
    return stream, start


def _events(body: bytes) -> list[dict]:
    return [json.loads(chunk.removeprefix(b"data: ")) for chunk in body.split(b"\n\n") if chunk]


def test_the_stream_sends_the_snapshot_then_deltas_and_heartbeats(game, post, monkeypatch):
    monkeypatch.setattr(live, "HEARTBEAT_SECONDS", 0.2)

    async def scenario():
        stream, start = await _stream(f"/live/games/{game.pk}/stream/")
        assert start["status"] == 200
        assert (b"content-type", b"text/event-stream") in start["headers"]
        received = _events((await stream.receive_output(timeout=2))["body"])
        await post(game, entry("period_start", period=1))
        received += _events((await stream.receive_output(timeout=2))["body"])
        received += _events((await stream.receive_output(timeout=2))["body"])
        await stream.send_input({"type": "http.disconnect"})
        await asyncio.sleep(0.05)
        await stream.wait(timeout=2)
        return received

    received = async_to_sync(scenario)()
    kinds = [m["kind"] for m in received]
    # The heartbeat may come before the delta when the entry takes longer than a heartbeat (a loaded machine).
    assert kinds[0] == "snapshot" and sorted(kinds[1:]) == ["delta", "heartbeat"]
    assert next(m for m in received if m["kind"] == "delta")["sequence"] == 1


def test_the_stream_of_a_draft_championships_game_is_a_404_for_the_public():
    game = sheet_game(championship=ChampionshipFactory(published=False))

    async def scenario():
        stream, start = await _stream(f"/live/games/{game.pk}/stream/")
        body = await stream.receive_output(timeout=2)
        return start["status"], body["body"]

    assert async_to_sync(scenario)() == (404, b"No such game.")


SECURITY_HEADERS = (
    "content-security-policy",
    "x-content-type-options",
    "referrer-policy",
    "x-frame-options",
    "cross-origin-opener-policy",
)


def test_the_stream_carries_the_security_headers_of_every_page(game, client):
    """Issue 23: the stream is a plain ASGI application beside Django; its answers (the stream and its 404) carry
    the same security headers as a page's (portal.csp.SecurityHeadersASGI runs Django's header middleware)."""

    async def scenario():
        stream, start = await _stream(f"/live/games/{game.pk}/stream/")
        await stream.send_input({"type": "http.disconnect"})
        await asyncio.sleep(0.05)
        await stream.wait(timeout=2)
        missing, missing_start = await _stream("/live/games/999999/stream/")
        await missing.receive_output(timeout=2)
        return start, missing_start

    start, missing_start = async_to_sync(scenario)()
    page = client.get("/accounts/login/")
    for answer in (start, missing_start):
        headers = {name.decode(): value.decode() for name, value in answer["headers"]}
        for name in SECURITY_HEADERS:
            assert name in headers, name
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == page["X-Frame-Options"] == "DENY"
        assert headers["referrer-policy"] == page["Referrer-Policy"]
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert "script-src 'self'" in headers["content-security-policy"]
    assert (b"content-type", b"text/event-stream") in start["headers"]
    assert sum(name == b"content-type" for name, _ in start["headers"]) == 1


def test_a_push_is_tried_again_once_after_a_connection_the_restarted_redis_closed(monkeypatch, caplog):
    sent = []

    class Restarted:
        async def group_send(self, group, message):
            if not sent:
                sent.append(None)
                raise ConnectionError("Connection closed by server.")
            sent.append(group)

    monkeypatch.setattr(live, "get_channel_layer", lambda: Restarted())
    live._send(["live.game.1", "live.championship.1"], {"kind": "heartbeat"})
    assert sent == [None, "live.game.1", "live.championship.1"]
    assert "live push" not in caplog.text


def test_a_relay_rejoins_after_the_layer_failed_and_sends_its_viewers_a_new_snapshot(monkeypatch):
    """Redis stopped: the relay keeps its viewers, re-joins once the layer answers, then sends the stored state."""
    from games.consumers import Relay, Watch

    monkeypatch.setattr(Relay, "RETRY_SECONDS", 0.01)

    class Outage:
        """A layer down for its first ``down`` calls of group_add; receive fails once, then waits for pushes."""

        def __init__(self, down):
            self.down = down
            self.joins = []
            self.received = 0

        async def new_channel(self):
            return "relay!1"

        async def group_add(self, group, channel):
            if self.down:
                self.down -= 1
                raise ConnectionError("Connection refused")
            self.joins.append(group)

        async def group_discard(self, group, channel):
            raise ConnectionError("Connection refused")  # stopping a relay while the layer is down is no error

        async def receive(self, channel):
            self.received += 1
            if self.received == 1:
                raise ConnectionError("Connection closed by server.")
            await asyncio.sleep(3600)

    async def resync():
        return {"kind": "snapshot", "game": 7, "sequence": 12}

    async def scenario():
        layer = Outage(down=3)  # down when the relay starts, and for two retries after
        relay = Relay(None, "live.game.7", resync)
        watch = Watch()
        relay.watches.add(watch)
        await relay.start(layer)
        assert not relay.joined
        first = json.loads(await asyncio.wait_for(watch.next(), 5))
        joined_first = list(layer.joins)
        second = json.loads(await asyncio.wait_for(watch.next(), 5))  # the receive failed once: again
        await relay.stop(layer)
        return first, joined_first, second, layer

    first, joined_first, second, layer = asyncio.run(scenario())
    assert first == second == {"kind": "snapshot", "game": 7, "sequence": 12}
    assert joined_first == ["live.game.7"]
    assert layer.joins == ["live.game.7", "live.game.7"] and layer.down == 0


class _Hung:
    """A channel layer whose Redis hangs (SIGSTOP): every call waits, none answers, until ``back``."""

    def __init__(self):
        self.back = False
        self.sent: list[str] = []
        self.joins: list[str] = []

    async def _wait(self):
        while not self.back:
            await asyncio.sleep(0.01)

    async def group_send(self, group, message):
        self.sent.append(group)
        await self._wait()

    async def new_channel(self):
        return "relay!1"

    async def group_add(self, group, channel):
        await self._wait()
        self.joins.append(group)

    async def group_discard(self, group, channel):
        pass

    async def receive(self, channel):
        await asyncio.sleep(3600)


def test_a_push_the_layer_does_not_answer_holds_its_entry_push_seconds_then_the_pushes_pause(
    game, director, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    """Redis hung: the entry is stored and answered after ``PUSH_SECONDS``; the next pushes are skipped at once for
    ``PUSH_PAUSE_SECONDS`` (a game's last entry pushes twice); then they are tried again."""
    monkeypatch.setattr(live._PAUSE, "until", 0.0)
    caplog.set_level(logging.INFO, logger="games.live")
    layer = _Hung()
    monkeypatch.setattr(live, "get_channel_layer", lambda: layer)
    sign_in(game, director)
    started = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        answer = record_events(game=game, by=director, device="table-1", events=[entry("period_start", period=1)])
    took = time.monotonic() - started
    assert answer.sequence == 1 and SheetEvent.objects.filter(sheet__game=game).count() == 1
    assert live.PUSH_SECONDS <= took < live.PUSH_SECONDS + 0.5
    assert layer.sent == [live.game_group(game.pk)]  # the championship's group was not reached in time
    assert "did not answer within 0.25 s" in caplog.text

    started = time.monotonic()
    live.publish_game_final(game.pk, championship_id=game.championship_id)
    assert time.monotonic() - started < 0.1 and layer.sent == [live.game_group(game.pk)]
    assert "skipped" in caplog.text

    layer.back = True
    monkeypatch.setattr(live._PAUSE, "until", time.monotonic() - 1)  # the pause is over
    live.publish_game_final(game.pk, championship_id=game.championship_id)
    assert layer.sent[1:] == [live.game_group(game.pk), live.championship_group(game.championship_id)]


def test_a_relay_whose_join_is_not_answered_starts_at_once_and_resyncs_its_viewers_when_it_is(monkeypatch):
    """Redis hung when the first viewer connects: its connection (under the hub's lock) waits ``JOIN_SECONDS``, not
    the layer's read timeout; the relay re-joins until Redis answers, then sends the stored state."""
    from games.consumers import Relay, Watch

    monkeypatch.setattr(Relay, "JOIN_SECONDS", 0.05)
    monkeypatch.setattr(Relay, "RETRY_SECONDS", 0.01)

    async def resync():
        return {"kind": "snapshot", "game": 7, "sequence": 12}

    async def scenario():
        layer = _Hung()
        relay = Relay(None, "live.game.7", resync)
        watch = Watch()
        relay.watches.add(watch)
        started = time.monotonic()
        await relay.start(layer)
        start_took = time.monotonic() - started
        assert not relay.joined and layer.joins == []
        await asyncio.sleep(0.2)  # still hung: no snapshot yet
        assert watch.queue.empty()
        layer.back = True
        snapshot = json.loads(await asyncio.wait_for(watch.next(), 5))
        await relay.stop(layer)
        return start_took, snapshot, layer

    start_took, snapshot, layer = asyncio.run(scenario())
    assert start_took < 0.5
    assert snapshot == {"kind": "snapshot", "game": 7, "sequence": 12}
    assert layer.joins == ["live.game.7"]
