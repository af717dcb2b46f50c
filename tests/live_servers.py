"""Real web nodes for the scoreboard's cross-process tests and benchmarks: uvicorn child processes.

Each node is ``python -m uvicorn portal.asgi:application`` as ``scripts/production`` starts it, pointed at
the test's database (and Redis, when the test shares one between nodes). ``post_entries`` enters events
through a node's API as an official's logged-in device does (a session and its CSRF token).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.middleware.csrf import _get_new_csrf_string
from django.test import Client

ROOT = Path(__file__).resolve().parent.parent

# Variables that would point a child at another store than the test chose.
_SERVICE_VARIABLES = ("DATABASE_URL", "REDIS_URL", "REDIS_KEY_PREFIX", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND")


# As scripts/production serves (README, "Live scoreboard transport"), with a short graceful shutdown.
SERVER_OPTIONS = ["--no-access-log", "--ws-per-message-deflate", os.environ.get("BENCH_DEFLATE", "false"), "--ws", os.environ.get("BENCH_WS", "auto"),
                  "--timeout-graceful-shutdown", "2"]  # fmt: skip


# What asgiref answers sync code that calls ``async_to_sync`` on a thread whose event loop runs: a push attempted
# that way is lost (``games.live`` hands such pushes to a thread of its own). A live server's log never shows it:
# the nodes below and the browser tests' servers (tests/e2e/conftest.py) fail on it.
ASYNC_TO_SYNC_IN_A_LOOP = "You cannot use AsyncToSync in the same thread as an async event loop"


def check_no_async_to_sync_in_a_loop(log: str, server: str) -> None:
    """Fail when ``log`` shows a push (or anything) refused by asgiref on a thread running an event loop."""
    assert ASYNC_TO_SYNC_IN_A_LOOP not in log, f"{server} called async_to_sync on a thread running a loop:\n{log}"


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__()
        self.texts: list[str] = []

    def emit(self, record):
        self.texts.append(logging.Formatter().format(record))


@contextlib.contextmanager
def failing_on_async_to_sync_in_a_loop(server: str = "the live server"):
    """Within: every log record of this process is read; on leaving, fail if one says asgiref refused
    ``async_to_sync`` on a thread running an event loop (``ASYNC_TO_SYNC_IN_A_LOOP``)."""
    collect = _Collect()
    root = logging.getLogger()
    root.addHandler(collect)
    try:
        yield
    finally:
        root.removeHandler(collect)
    check_no_async_to_sync_in_a_loop("\n".join(collect.texts), server)


DEVICE = "table-1"  # the console device the tests sign in (tests.games.sheet_helpers.sign_in) and post from


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url() -> str:
    """The URL of the database the test runs on (pytest-django's test database), for a child process."""
    db = connection.settings_dict
    credentials = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{credentials}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def node_env(*, redis_url: str | None = None, redis_key_prefix: str | None = None) -> dict[str, str]:
    """The environment of a web node on the test's PostgreSQL database (and Redis when given)."""
    env = {k: v for k, v in os.environ.items() if k not in _SERVICE_VARIABLES and not k.startswith("DJANGO_")}
    env.update(DATABASE_URL=database_url(), DJANGO_DEBUG="0", PYTHONUNBUFFERED="1", DATABASE_CONN_MAX_AGE="60")
    if redis_url:
        env.update(REDIS_URL=redis_url, REDIS_KEY_PREFIX=redis_key_prefix or "")
    return env


class WebNode:
    """A uvicorn process serving the portal on a port of its own; its output is kept for failure messages."""

    def __init__(self, env: dict[str, str], *, port: int | None = None):
        self.env = env
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.lines: list[str] = []
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> WebNode:
        profile = ["-m", "cProfile", "-o", os.environ["BENCH_PROFILE"]] if os.environ.get("BENCH_PROFILE") else []
        command = [sys.executable, *profile, "-m", "uvicorn", "portal.asgi:application", "--host", "127.0.0.1",
                   "--port", str(self.port), *SERVER_OPTIONS]  # fmt: skip
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        threading.Thread(target=self._read, daemon=True).start()
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the web node on port {self.port} stopped:\n{self.output}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/", timeout=2):
                    return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.3)
        self.__exit__()
        raise RuntimeError(f"the web node on port {self.port} did not answer:\n{self.output}")

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line)

    @property
    def output(self) -> str:
        return "".join(self.lines[-200:])

    def __exit__(self, *exc):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if not exc or exc[0] is None:  # the test's own failure first
            check_no_async_to_sync_in_a_loop("".join(self.lines), f"the web node on port {self.port}")
        return False

    def ws_url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"

    def post_entries(self, game_id: int, events: list[dict], *, session: Session) -> dict:
        return post_entries(self.url, game_id, events, session=session)


def post_entries(base_url: str, game_id: int, events: list[dict], *, session: Session) -> dict:
    """Enter events through a server's API as a logged-in device; return its answer (the new state)."""
    body = json.dumps({"device": DEVICE, "events": events}).encode()
    request = urllib.request.Request(
        f"{base_url}/api/games/{game_id}/sheet/events/",
        data=body,
        headers={"Content-Type": "application/json", **session.headers},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


class Session:
    """A logged-in browser's cookies for ``user`` (a session row in the test's database) and its CSRF token.

    Logging in once, as a console does, keeps the password hash (PBKDF2, by design slow) out of every entry.
    """

    def __init__(self, user):
        client = Client()
        client.force_login(user)
        csrf = _get_new_csrf_string()
        self.cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
        self.headers = {"Cookie": f"{self.cookie}; {settings.CSRF_COOKIE_NAME}={csrf}", "X-CSRFToken": csrf}
