"""scripts/topology: two public web nodes and the officials' node behind nginx (with nchan), two Celery workers and
beat, on PostgreSQL and Redis.

The script is run as an operator runs it (start, status, stop), on the test's PostgreSQL database and this
checkout's Redis key prefix, in a folder and on ports of the test's own. Through the proxy the test reads a page,
the API and the live scoreboard's WebSockets (the Channels consumers, and nchan's subscribers), enters an event as
a signed-in console, and sees each public request served by both public nodes and the entry by the officials'
node (nginx's access log names the node), and the entry's delta on nchan's WebSocket and event stream; a task
runs on the workers, which both answer a ping; stop leaves no process.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import shutil
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import redis
import websockets
from django.conf import settings
from django.db import connection
from django.test import override_settings

from portal.celery import app
from portal.tasks import heartbeat
from tests.factories import international_staff
from tests.games.sheet_helpers import entry, sheet_game, sign_in
from tests.live_servers import DEVICE, Session, database_url, post_entries

from .conftest import ROOT, child_env, delete_own_keys, require, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

SCRIPT = ROOT / "scripts" / "topology"


def _free_ports(count: int) -> int:
    """The first of ``count`` consecutive free ports on 127.0.0.1 (the proxy's, then one per web node)."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            base = probe.getsockname()[1]
        if base + count > 65535:
            continue
        try:
            sockets = []
            for port in range(base, base + count):
                held = socket.socket()
                sockets.append(held)
                held.bind(("127.0.0.1", port))
        except OSError:
            continue
        finally:
            for held in sockets:
                held.close()
        return base
    raise RuntimeError("no run of free ports")


def _answers(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _alive(pid: int) -> bool:
    """A process that runs (a zombie waiting for its parent to read its exit status does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


class Topology:
    def __init__(self, folder: Path, port: int, secret_key: str):
        folder.mkdir()
        (folder / "secret-key").write_text(secret_key + "\n")
        self.folder = folder
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.env = child_env(
            PY=sys.executable,
            TOPOLOGY_DIR=folder,
            TOPOLOGY_PORT=port,
            TOPOLOGY_DATABASE_URL=database_url(),
            TOPOLOGY_REDIS_URL=settings.REDIS_URL,
            TOPOLOGY_REDIS_KEY_PREFIX=settings.REDIS_KEY_PREFIX,
        )

    def run(self, *args: str, timeout: float = 150) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(SCRIPT), *args], cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=timeout
        )

    def pids(self) -> dict[str, int]:
        return {path.stem: int(path.read_text()) for path in (self.folder / "pids").glob("*.pid")}

    def served_by(self) -> list[tuple[str, int, str]]:
        """(request line, status, node address) of each request in nginx's access log."""
        log = self.folder / "log" / "nginx-access.log"
        lines = log.read_text().splitlines() if log.exists() else []
        pattern = re.compile(r'"(\S+ \S+) HTTP/1\.1" (\d+) .* upstream=(\S+)')
        return [(m[1], int(m[2]), m[3]) for m in map(pattern.search, lines) if m]

    def log(self, name: str) -> str:
        path = self.folder / "log" / f"{name}.log"
        return path.read_text()[-3000:] if path.exists() else ""


@pytest.fixture
def topology(tmp_path):
    require(connection.vendor == "postgresql", "DATABASE_URL must point at PostgreSQL for this test")
    require(bool(settings.REDIS_URL), "REDIS_URL must be set for this test")
    require(bool(settings.REDIS_KEY_PREFIX), "REDIS_KEY_PREFIX must be set: the test deletes only its own keys")
    require(bool(shutil.which("nginx") or shutil.which("/usr/sbin/nginx")), "nginx is missing: run scripts/nginx")
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        client.ping()
    except redis.ConnectionError as error:
        require(False, f"Redis at {settings.REDIS_URL} does not answer: {error}")
    delete_own_keys(client, settings.REDIS_KEY_PREFIX)
    # The proxy, 2 public nodes, the officials' node, nchan's publisher.
    site = Topology(tmp_path / "topology", _free_ports(5), secrets.token_urlsafe(64))
    try:
        yield site
    finally:
        if (site.folder / "topology.env").exists():
            site.run("stop", timeout=60)


async def _next(socket, kind: str, timeout: float = 15) -> dict:
    async with asyncio.timeout(timeout):
        while True:
            message = json.loads(await socket.recv())
            if message["kind"] == kind:
                return message


def _get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.status, answer.read()


def test_the_topology_serves_pages_api_and_scoreboard_from_both_nodes_runs_tasks_and_stops_cleanly(topology):
    director = international_staff()
    game = sheet_game()
    sign_in(game, director, device=DEVICE)
    secret_key = (topology.folder / "secret-key").read_text().strip()
    with override_settings(SECRET_KEY=secret_key):  # the topology's key signs the console's session
        session = Session(director)

    started = topology.run("start", timeout=400)  # niced public nodes start slowly on a busy machine
    assert started.returncode == 0, started.stdout + started.stderr
    assert (
        f"running at {topology.url}/ (2 web node(s), 1 officials' node(s), 2 workers, beat, nginx; live fan-out: nchan)"
        in started.stdout
    )
    pids = topology.pids()
    assert sorted(pids) == ["beat", "nginx", "officials1", "web1", "web2", "worker1", "worker2"]
    status = topology.run("status")
    assert status.returncode == 0, status.stdout
    assert status.stdout.count(" running ") == 7

    # Pages and the API through the proxy: production settings (DEBUG off, secure headers) on every answer.
    # Five paths, twice: an odd count, so that the proxy's alternation gives each path to both nodes.
    championship = f"/tournaments/{game.championship_id}"
    paths = ["/", f"{championship}/standings/", f"{championship}/schedule/", "/api/championships/",
             f"/api/games/{game.pk}/sheet/"]  # fmt: skip
    for path in paths * 2:
        status_code, body = _get(topology.url + path)
        assert status_code == 200, path
    with urllib.request.urlopen(topology.url + "/", timeout=10) as answer:
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["X-Frame-Options"] == "DENY"
    sheet = json.loads(_get(f"{topology.url}/api/games/{game.pk}/sheet/")[1])
    assert sheet["game"] == game.pk and sheet["sequence"] == 0

    # Two Channels viewers through the proxy (what a draft's directors use): least_conn puts them on different
    # nodes, each gets its snapshot. An nchan subscriber (WebSocket) and an event stream on the same channel get
    # the delta of an entry posted through the proxy (the officials' node publishes it once to nchan).
    async def scoreboard():
        ws_url = f"ws://127.0.0.1:{topology.port}/live/games/{game.pk}/"
        nchan_url = f"ws://127.0.0.1:{topology.port}/live/nchan/games/{game.pk}/"
        async with (
            websockets.connect(ws_url, origin="http://127.0.0.1") as first,
            websockets.connect(ws_url, origin="http://127.0.0.1") as second,
            websockets.connect(nchan_url, origin="http://127.0.0.1") as subscriber,
        ):
            snapshots = [await _next(first, "snapshot"), await _next(second, "snapshot")]
            goal = entry("goal", period=1, time="2:00", team="away", player=19, seconds=120)
            posted = await asyncio.get_running_loop().run_in_executor(
                None,
                lambda: post_entries(topology.url, game.pk, [entry("period_start", period=1), goal], session=session),
            )
            deltas = [await _next(subscriber, "delta")]
            # A subscriber that comes later starts at the game's last message; then the heartbeat (beat, 5 s).
            async with websockets.connect(nchan_url, origin="http://127.0.0.1") as late:
                deltas.append(await _next(late, "delta"))
                heartbeat_message = await _next(late, "heartbeat", timeout=20)
            return snapshots, posted, deltas, heartbeat_message

    snapshots, posted, deltas, heartbeat_message = asyncio.run(scoreboard())
    assert [s["sequence"] for s in snapshots] == [0, 0]
    assert posted["sequence"] == 2
    for delta in deltas:
        assert delta["game"] == game.pk and delta["sequence"] == 2
        assert delta["sheet"]["state"]["score"] == {"home": 0, "away": 1}
    assert heartbeat_message["server_time"]

    # The same channel as an event stream (the browser's fallback): the last message first.
    request = urllib.request.Request(f"{topology.url}/live/nchan/games/{game.pk}/",
                                     headers={"Accept": "text/event-stream"})  # fmt: skip
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.headers["Content-Type"].startswith("text/event-stream")
        line = b""
        while not line.startswith(b"data: "):
            line = answer.readline()
    assert json.loads(line.removeprefix(b"data: "))["sequence"] == 2

    # nchan's publisher is on a port of its own: the proxy has no such path, and a subscriber cannot publish.
    for method in ("GET", "POST"):
        refused = urllib.request.Request(f"{topology.url}/pub/game.{game.pk}", data=b"{}" if method == "POST" else None,
                                         method=method)  # fmt: skip
        with pytest.raises(urllib.error.HTTPError) as error:
            urllib.request.urlopen(refused, timeout=10)
        assert error.value.code == 404
    subscribe_url = f"{topology.url}/live/nchan/games/{game.pk}/"
    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(urllib.request.Request(subscribe_url, data=b"{}", method="POST"), timeout=10)
    assert error.value.code in (403, 405)

    # nginx names the node of each request (the log is flushed every second).
    nodes = {f"127.0.0.1:{topology.port + 1}", f"127.0.0.1:{topology.port + 2}"}
    officials = f"127.0.0.1:{topology.port + 3}"

    def the_officials_node_took_the_entries():
        entries = [n for line, code, n in topology.served_by() if line.startswith("POST /api/") and code == 200]
        return bool(entries) and set(entries) == {officials}

    wait_until(the_officials_node_took_the_entries, timeout=10, what="the officials' node took the entries",
               output=lambda: "\n".join(map(str, topology.served_by())))  # fmt: skip

    def both_nodes_served_everything():
        served = topology.served_by()
        kinds = {
            "page": {n for line, code, n in served if line.startswith("GET /tournaments/") and code == 200},
            "api": {n for line, code, n in served if line.startswith("GET /api/") and code == 200},
            "websocket": {n for line, code, n in served if line.startswith("GET /live/games/") and code == 101},
        }
        return all(found == nodes for found in kinds.values())

    wait_until(both_nodes_served_everything, timeout=10, what="both nodes served pages, API and WebSockets",
               output=lambda: "\n".join(map(str, topology.served_by())))  # fmt: skip

    # The workers: both answer a ping (remote control on Redis), and tasks run on them.
    replies = app.control.ping(timeout=3)
    names = sorted(name for reply in replies for name in reply if name.startswith("topology-"))
    assert len(names) == 2 and names[0].split("@")[0].endswith("-1") and names[1].split("@")[0].endswith("-2"), replies
    results = [heartbeat.delay() for _ in range(4)]
    ran_on = {result.get(timeout=30)["worker"] for result in results}
    assert ran_on and ran_on <= set(names), (ran_on, names)

    stopped = topology.run("stop", timeout=60)
    assert stopped.returncode == 0, stopped.stdout + stopped.stderr
    wait_until(lambda: not any(_alive(pid) for pid in pids.values()), timeout=10, what="every process exited")
    assert not any(_answers(topology.port + n) for n in range(5))
    assert not list((topology.folder / "pids").glob("*.pid"))
    assert topology.run("status").returncode == 3
    # Each process stopped on TERM, in its own orderly way.
    assert "Shutting down" in topology.log("web1") and "Shutting down" in topology.log("web2")
    assert "Shutting down" in topology.log("officials1")
    assert "worker: Warm shutdown" in topology.log("worker1")
    assert "KILL" not in stopped.stderr
