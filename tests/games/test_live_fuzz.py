"""Fuzzing the scoreboard's pushes (portal/asgi.py): the live JSON outside the OpenAPI schema (issue 13).

The scoreboard reads ``GET /api/games/{id}/sheet/`` (in the schema, fuzzed by tests/test_api_conformance.py) and
then listens on a WebSocket or a Server-Sent Events stream. What a viewer can send is fuzzed here:
- WebSocket frames: generated text (any string, any JSON value, pings with any token), binary frames, a frame
  nested too deep for the decoder, an oversized one. After each, a real ping must be answered with its own
  pong and nothing else: the junk frame got no answer and the connection is still open. A valid ping among the
  generated frames gets its pong first.
- Opening a push: generated methods and ids (beyond the database's integers too), on both transports. The
  answer is the snapshot for the published game, 404 (the handshake closed with 4404) for any other id, 405
  for a method other than GET or HEAD; never an error.

Generation is derandomized (hypothesis), so every run sends the same inputs. The figures are printed (``-s``).
"""

from __future__ import annotations

import json

import hypothesis
import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from channels.layers import channel_layers
from hypothesis import strategies as st

from games.consumers import MAX_FRAME_CHARS, MAX_TOKEN_CHARS
from portal.asgi import application

from .live_helpers import Viewer, keep_test_connection
from .sheet_helpers import sheet_game

pytestmark = pytest.mark.django_db

FRAMES = 60
OPENINGS = 30


@pytest.fixture(autouse=True)
def _fresh_layer(settings, monkeypatch):
    keep_test_connection(monkeypatch)
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


def _examples(strategy, count: int) -> list:
    found = []

    @hypothesis.settings(
        max_examples=count,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[hypothesis.Phase.generate],
        suppress_health_check=list(hypothesis.HealthCheck),
    )
    @hypothesis.given(strategy)
    def collect(value):
        found.append(value)

    collect()
    return found


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=10,
)
TOKENS = JSON | st.text(max_size=2 * MAX_TOKEN_CHARS) | st.integers()
FRAME = st.one_of(
    st.text(max_size=300).map(lambda text: {"text": text}),
    JSON.map(lambda value: {"text": json.dumps(value)}),
    TOKENS.map(lambda token: {"text": json.dumps({"kind": "ping", "token": token})}),
    st.binary(max_size=64).map(lambda data: {"bytes": data}),
)
NASTY = [
    {"text": "[" * 100_000},  # deeper than the decoder's recursion limit
    {"text": json.dumps({"kind": "ping", "token": [[[[1]]]]})},
    {"text": json.dumps({"kind": "ping", "token": "x" * 100_000})},
    {"text": "1e999999"},
    {"text": ""},
    {"bytes": b"\xff\xfe"},
    {"text": json.dumps({"kind": "ping", "token": True})},
]


def _answered(frame: dict) -> object | None:
    """The token a frame's pong carries, or None when the frame must get no answer."""
    text = frame.get("text")
    if not text or len(text) > MAX_FRAME_CHARS:
        return None
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict) or message.get("kind") != "ping":
        return None
    token = message.get("token")
    if isinstance(token, bool) or not isinstance(token, int | str) or len(str(token)) > MAX_TOKEN_CHARS:
        return None
    return token


async def _next_message(viewer: Viewer) -> dict:
    """The next message that is not a heartbeat."""
    while True:
        message = await viewer.receive(timeout=2)
        if message["kind"] != "heartbeat":
            return message


def test_no_frame_a_viewer_sends_breaks_the_websocket():
    game = sheet_game()
    frames = NASTY + _examples(FRAME, FRAMES)

    async def scenario():
        viewer = Viewer(f"/live/games/{game.pk}/")
        accepted, _ = await viewer.connect()
        assert accepted
        assert (await viewer.receive())["kind"] == "snapshot"
        pongs = 0
        for turn, frame in enumerate(frames):
            await viewer.send_input({"type": "websocket.receive", **frame})
            expected = _answered(frame)
            if expected is not None:
                pong = await _next_message(viewer)
                assert pong["kind"] == "pong" and pong["token"] == expected, (frame, pong)
                pongs += 1
            await viewer.send({"kind": "ping", "token": f"probe-{turn}"})
            probe = await _next_message(viewer)
            assert probe == {**probe, "kind": "pong", "token": f"probe-{turn}"}, (frame, probe)
        await viewer.close()
        return pongs

    pongs = async_to_sync(scenario)()
    print(f"\nlive fuzz: {len(frames)} WebSocket frames sent, {pongs} answered as pings, the rest ignored")
    assert 0 < pongs < len(frames)


async def _open(kind: str, method: str, path: str) -> int:
    if kind == "websocket":
        viewer = Viewer(path)
        accepted, _ = await viewer.connect()
        if not accepted:
            return 404
        assert (await viewer.receive())["kind"] == "snapshot"
        await viewer.close()
        return 200
    scope = {"type": "http", "method": method, "path": path, "query_string": b"", "headers": [], "scheme": "http",
             "server": ("testserver", 80), "client": ("127.0.0.1", 1)}  # fmt: skip
    stream = ApplicationCommunicator(application, scope)
    await stream.send_input({"type": "http.request", "body": b""})
    start = await stream.receive_output(timeout=2)
    body = await stream.receive_output(timeout=2)
    await stream.send_input({"type": "http.disconnect"})
    await stream.wait(timeout=2)
    if start["status"] == 200:
        assert json.loads(body["body"].removeprefix(b"data: "))["kind"] == "snapshot"
    return start["status"]


def test_opening_a_push_with_any_method_and_id_answers_as_documented():
    game = sheet_game()
    methods = st.sampled_from(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
    ids = st.just(game.pk) | st.integers(min_value=1, max_value=10**30)
    openings = _examples(st.tuples(st.sampled_from(["websocket", "stream"]), methods, ids), OPENINGS)
    openings += [("websocket", "GET", game.pk), ("stream", "GET", game.pk), ("stream", "POST", game.pk)]

    async def scenario():
        answers = []
        for kind, method, number in openings:
            status = await _open(kind, method, f"/live/games/{number}/" + ("stream/" if kind == "stream" else ""))
            refused_method = kind == "stream" and method not in ("GET", "HEAD")
            expected = 405 if refused_method else (200 if number == game.pk else 404)
            assert status == expected, (kind, method, number, status)
            answers.append(status)
        return answers

    answers = async_to_sync(scenario)()
    print(f"\nlive fuzz: {len(openings)} openings, statuses {sorted(set(answers))}")
    assert {200, 404, 405} <= set(answers)
