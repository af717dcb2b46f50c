"""Two web nodes sharing PostgreSQL and Redis: a viewer on node B sees an entry posted on node A.

`make test` runs this with DATABASE_URL (PostgreSQL), REDIS_URL and REDIS_KEY_PREFIX set. The nodes are uvicorn
processes as `make production` starts them (tests/live_servers.py); the viewers are WebSocket clients of this
process; the entry is posted to node A's API from a signed-in console device.
"""

from __future__ import annotations

import asyncio
import datetime
import json

import pytest
import redis
import websockets
from django.conf import settings
from django.db import connection

from tests.factories import international_staff
from tests.games.sheet_helpers import entry, sheet_game, sign_in
from tests.live_servers import DEVICE, Session, WebNode, node_env
from tournaments.models import DecidedIn
from tournaments.services.results import game_record_result

from .conftest import delete_own_keys, require

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def shared_env():
    require(connection.vendor == "postgresql", "DATABASE_URL must point at PostgreSQL for this test")
    require(bool(settings.REDIS_URL), "REDIS_URL must be set for this test")
    require(bool(settings.REDIS_KEY_PREFIX), "REDIS_KEY_PREFIX must be set: the test deletes only its own keys")
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        client.ping()
    except redis.ConnectionError as error:
        require(False, f"Redis at {settings.REDIS_URL} does not answer: {error}")
    delete_own_keys(client, settings.REDIS_KEY_PREFIX)
    return node_env(redis_url=settings.REDIS_URL, redis_key_prefix=settings.REDIS_KEY_PREFIX)


async def _next(socket, kind: str, timeout: float = 10) -> dict:
    """The next message of ``kind`` (heartbeats may come between)."""
    async with asyncio.timeout(timeout):
        while True:
            message = json.loads(await socket.recv())
            if message["kind"] == kind:
                return message


def test_a_viewer_on_node_b_sees_the_entry_posted_on_node_a_and_the_result_recorded_elsewhere(shared_env):
    director = international_staff()
    game = sheet_game()
    sign_in(game, director, device=DEVICE)
    session = Session(director)
    other = sheet_game(championship=game.championship)  # played without a sheet: its result is entered by staff
    goal = entry("goal", period=1, time="2:00", team="away", player=19, seconds=120)

    def record_result():
        try:
            after = other.start_at + datetime.timedelta(hours=2)
            game_record_result(game=other, home_goals=0, away_goals=0, decided_in=DecidedIn.REGULATION, by=director,
                               now=after)  # fmt: skip
        finally:
            connection.close()  # this thread's own connection, so the test database can be dropped

    with WebNode(shared_env) as a, WebNode(shared_env) as b:

        async def scenario():
            origin = "http://127.0.0.1"
            async with (
                websockets.connect(b.ws_url(f"/live/games/{game.pk}/"), origin=origin) as on_b,
                websockets.connect(b.ws_url(f"/live/championships/{game.championship_id}/"), origin=origin) as pages,
                websockets.connect(a.ws_url(f"/live/games/{game.pk}/"), origin=origin) as on_a,
            ):
                snapshots = [await _next(s, "snapshot") for s in (on_b, pages, on_a)]
                loop = asyncio.get_running_loop()
                posted = await loop.run_in_executor(
                    None, lambda: a.post_entries(game.pk, [entry("period_start", period=1), goal], session=session)
                )
                deltas = [await _next(on_b, "delta"), await _next(on_a, "delta"), await _next(pages, "delta")]
                # A third process (this one) records the result of a game played without a sheet (0-0: it has no
                # goal lines): its push reaches B's championship viewers too.
                await loop.run_in_executor(None, record_result)
                final = await _next(pages, "final")
                return snapshots, posted, deltas, final

        snapshots, posted, deltas, final = asyncio.run(scenario())

    assert [s["kind"] for s in snapshots] == ["snapshot"] * 3
    assert snapshots[0]["sequence"] == 0
    assert posted["sequence"] == 2
    for delta in deltas:
        assert delta["game"] == game.pk and delta["sequence"] == 2
        assert delta["sheet"]["state"]["score"] == {"home": 0, "away": 1}
    assert final == {"kind": "final", "game": other.pk, "championship": game.championship_id}
