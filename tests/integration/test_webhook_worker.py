"""Webhooks with a real worker (the embedded filesystem broker): an event recorded by the portal is posted by the
worker to a receiving server on loopback, which checks the signature and answers 500 once; the worker's retry,
queued with its countdown, delivers it."""

from __future__ import annotations

import json
import sqlite3
import time

import pytest

from tests.webhooks.receiver import start_receiver
from webhooks.signing import verify

from .conftest import child_env, manage, wait_until, worker

pytestmark = pytest.mark.integration

_EMIT = """
from tests.factories import FederationFactory, federation_staff
from webhooks import services
from webhooks.models import EventType
federation, other = FederationFactory(), FederationFactory()
mine = services.endpoint_create(by=federation_staff(federation), federation=federation, url={url!r},
                                event_types=[EventType.GAME_FINAL])
services.endpoint_create(by=federation_staff(other), federation=other, url={other_url!r},
                         event_types=[EventType.GAME_FINAL])
# Recorded and queued (autocommit: at once) through the broker to the worker.
services.emit(EventType.GAME_FINAL, federation_ids=[federation.pk], subject="game:1", data={{"game": 1}})
print("ENDPOINT", mine.pk)
"""


@pytest.fixture
def receivers():
    started = [start_receiver("/mine"), start_receiver("/other")]
    yield [receiver for receiver, _ in started]
    for _, server in started:
        server.shutdown()
        server.server_close()


def test_a_real_worker_retries_after_a_500_and_delivers_signed(tmp_path, worker_name, receivers):
    mine, other = receivers
    mine.answers = [500]
    env = child_env(PORTAL_DATA_DIR=tmp_path / "data", WEBHOOKS_RETRY_BASE_SECONDS="1")
    manage("migrate", "--noinput", "-v", "0", env=env)
    database = tmp_path / "data" / "portal.sqlite3"
    with worker(env=env, name=worker_name) as w:
        w.wait_ready()
        out = manage("shell", "-c", _EMIT.format(url=mine.url, other_url=other.url), env=env)
        endpoint_id = int(out.split("ENDPOINT")[-1].split()[0])
        wait_until(lambda: len(mine.requests) >= 2, timeout=60, what="the retry after the 500", output=lambda: w.output)
        with sqlite3.connect(database) as db:

            def status():
                return db.execute(
                    "SELECT status, attempts, response_code FROM webhooks_delivery WHERE endpoint_id = ?",
                    (endpoint_id,),
                ).fetchone()

            wait_until(
                lambda: status()[0] == "delivered", timeout=30, what="the delivery recorded", output=lambda: w.output
            )
            assert status() == ("delivered", 2, 200)
            [secret] = db.execute("SELECT secret FROM webhooks_endpoint WHERE id = ?", (endpoint_id,)).fetchone()
    first, second = mine.requests
    for request in (first, second):
        verify(secret, request.headers["X-Portal-Signature"], request.body, now=time.time())
        assert json.loads(request.body)["data"] == {"game": 1}
    assert first.headers["X-Portal-Delivery"] == second.headers["X-Portal-Delivery"]
    assert other.requests == []  # nothing to another federation
