"""Benchmark: an official's entry -> every connected scoreboard viewer has it (issue 9, "Speed").

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/portal REDIS_URL=redis://127.0.0.1:6379/14 \
    REDIS_KEY_PREFIX=bench: .venv/bin/pytest tests/bench/test_scoreboard_bench.py -m bench -s

Targets: 1,000 viewers on one node, p99 at most 300 ms; 2 nodes sharing Redis, 2,000 viewers (1,000 on each),
the same. The web nodes are uvicorn processes (tests/live_servers.py) on the test's PostgreSQL database; the
viewers are asyncio clients in another process (tests/bench/scoreboard_viewers.py) on loopback. An entry is
posted to node A's API (the official's device) and timed from just before the request to each viewer's
receipt of the delta with its sequence (wall clock: one machine, one clock). The figure therefore includes
the entry itself (the replay and the commit), the channel layer (in-memory on one node, Redis across two),
and each viewer's message. The transport is chosen by the same benchmark run with SSE viewers
(README, "Live scoreboard transport").
"""

from __future__ import annotations

import json
import os
import queue
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection

from tests.factories import international_staff
from tests.games.sheet_helpers import entry, sheet_game, sign_in
from tests.integration.conftest import delete_own_keys
from tests.live_servers import DEVICE, Session, WebNode, node_env

pytestmark = [pytest.mark.bench, pytest.mark.django_db(transaction=True)]

P99_BUDGET = 0.300  # seconds
ENTRIES = int(os.environ.get("BENCH_ENTRIES", 30))  # timed entries per run
# Fewer viewers for a quick look (BENCH_VIEWERS=200); the targets are for the full count.
SCALE = float(os.environ.get("BENCH_VIEWERS", 1000)) / 1000
VIEWERS = Path(__file__).with_name("scoreboard_viewers.py")


def _require_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("the web nodes share the test's database: set DATABASE_URL to PostgreSQL")


def _redis_env():
    if not settings.REDIS_URL or not settings.REDIS_KEY_PREFIX:
        pytest.skip("2 nodes share Redis: set REDIS_URL and REDIS_KEY_PREFIX")
    delete_own_keys(redis.Redis.from_url(settings.REDIS_URL), settings.REDIS_KEY_PREFIX)
    return {"redis_url": settings.REDIS_URL, "redis_key_prefix": settings.REDIS_KEY_PREFIX}


class Viewers:
    """The viewers' process: started, waited for (READY), told when the run is over (DONE)."""

    def __init__(self, urls, *, count, transport, out):
        self.out = out
        self.count = count
        command = [sys.executable, str(VIEWERS), "--transport", transport, "--count", str(count),
                   "--out", str(out), *urls]  # fmt: skip
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put("")  # the process stopped

    def wait_for(self, prefix: str, timeout: float) -> str | None:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None
            if not line:
                raise RuntimeError("the viewers' process stopped")
            if line.startswith(prefix):
                return line.strip()
        return None

    def finish(self) -> dict:
        self.process.stdin.write("DONE\n")
        self.process.stdin.flush()
        self.process.wait(timeout=60)
        return json.loads(self.out.read_text())


def _run(tmp_path, nodes, *, viewers, transport):
    director = international_staff(username=f"bench-director-{transport}-{viewers}")
    session = Session(director)
    game = sheet_game()
    sign_in(game, director, device=DEVICE)
    paths = {"ws": f"/live/games/{game.pk}/", "sse": f"/live/games/{game.pk}/stream/"}
    urls = [(node.ws_url if transport == "ws" else lambda p, n=node: n.url + p)(paths[transport]) for node in nodes]
    first = nodes[0]
    first.post_entries(game.pk, [entry("period_start", period=1)], session=session)
    crowd = Viewers(urls, count=viewers, transport=transport, out=tmp_path / f"{transport}-{viewers}.json")
    try:
        ready = crowd.wait_for("READY", timeout=300)
    except RuntimeError:
        ready = None
    assert ready, "the viewers did not connect:\n" + "\n".join(node.output for node in nodes)
    sent: dict[int, float] = {}
    post_times = []
    for n in range(ENTRIES):
        event = entry("shot", period=1, time=f"{n // 60}:{n % 60:02d}", team="home", seconds=n)
        started = time.time()
        answer = first.post_entries(game.pk, [event], session=session)
        post_times.append(time.time() - started)
        sent[answer["sequence"]] = started
        crowd.wait_for(f"ALL {answer['sequence']}", timeout=10)
        time.sleep(0.2)  # entries come seconds apart at a rink; the next one is not queued behind this one
    result = crowd.finish()
    latencies, missing = [], 0
    for sequence, started in sent.items():
        times = result["received"].get(str(sequence), [])
        missing += viewers - len(times)
        latencies += [t - started for t in times]
    latencies.sort()
    figures = {
        "transport": transport,
        "nodes": len(nodes),
        "viewers": viewers,
        "entries": ENTRIES,
        "connect_s": float(ready.split()[1]),
        "entry_p50_ms": 1000 * statistics.median(post_times),
        "p50_ms": 1000 * statistics.median(latencies) if latencies else None,
        "p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))] if latencies else None,
        "max_ms": 1000 * latencies[-1] if latencies else None,
        "missing": missing,
    }
    print("\n" + json.dumps(figures))
    if missing:
        print("\n".join(node.output[-3000:] for node in nodes))
    return figures


@pytest.mark.parametrize("transport", ["ws", "sse"])
def test_one_node_1000_viewers(tmp_path, transport):
    _require_postgres()
    with WebNode(node_env()) as node:
        figures = _run(tmp_path, [node], viewers=int(1000 * SCALE), transport=transport)
    assert figures["missing"] == 0
    assert figures["p99_ms"] <= P99_BUDGET * 1000, figures


def test_two_nodes_with_redis_2000_viewers(tmp_path):
    _require_postgres()
    env = node_env(**_redis_env())
    with WebNode(env) as a, WebNode(env) as b:
        figures = _run(tmp_path, [a, b], viewers=int(2000 * SCALE), transport="ws")
    assert figures["missing"] == 0
    assert figures["p99_ms"] <= P99_BUDGET * 1000, figures
