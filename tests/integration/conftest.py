"""Helpers for integration tests: real Celery processes started from the test."""

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Variables that would point a child process at another store than the test chose.
_SERVICE_VARIABLES = (
    "DATABASE_URL",
    "REDIS_URL",
    "REDIS_KEY_PREFIX",
    "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND",
    "PORTAL_DATA_DIR",
)


def require(condition, reason):
    """Skip when a service is missing on a developer's machine; fail under `make test` (PORTAL_TESTS_STRICT=1)."""
    if condition:
        return
    if os.environ.get("PORTAL_TESTS_STRICT") == "1":
        pytest.fail(reason)
    pytest.skip(reason)


def redis_pattern(prefix: str) -> str:
    """Return the SCAN pattern of every key that starts with ``prefix`` (its glob characters escaped)."""
    return "".join(f"\\{c}" if c in "*?[]\\" else c for c in prefix) + "*"


def delete_own_keys(client, prefix: str) -> int:
    """Delete the Redis keys of this checkout's runs (they start with ``prefix``); never another run's.

    Two `make test` runs on one machine share the Redis database but not the prefix (the Makefile derives
    it from the checkout, like the database names), so neither flushes what the other is using.
    """
    if not prefix:
        raise ValueError("without a key prefix every key of the database would be someone else's too")
    keys = list(client.scan_iter(match=redis_pattern(prefix), count=1000))
    if keys:
        client.delete(*keys)
    return len(keys)


def wait_until(condition, *, timeout, what, output=lambda: ""):
    """Check ``condition`` every 0.2 s until it holds; fail saying ``what`` did not happen (and ``output()``, a
    process's log) after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"not done in {timeout} s: {what}\n{output()}")
        time.sleep(0.2)


def child_env(**overrides):
    """Return the environment for a portal child process: the service variables only as given."""
    env = {k: v for k, v in os.environ.items() if k not in _SERVICE_VARIABLES}
    # A browser test's process allows sync ORM calls beside Playwright's loop; a portal process never does.
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.update({k: str(v) for k, v in overrides.items() if v is not None})
    env["PYTHONUNBUFFERED"] = "1"
    return env


def manage(*args, env, timeout=120):
    """Run `manage.py` with ``args`` in ``env``; return its stdout, failing the test with its output otherwise."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


class CeleryProcess:
    """A `celery -A portal ...` child process whose output is collected while it runs."""

    def __init__(self, args, *, env, ready_text):
        self.args = args
        self.env = env
        self.ready_text = ready_text
        self.lines = []
        self._ready = threading.Event()
        self.process = None

    def __enter__(self):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "portal", *self.args],
            cwd=ROOT,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()
        return self

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line)
            if self.ready_text in line:
                self._ready.set()

    @property
    def output(self):
        return "".join(self.lines)

    def wait_ready(self, timeout=60):
        """Block until the process printed its ready text; fail with its output if it died or took too long."""
        deadline = time.monotonic() + timeout
        while not self._ready.wait(0.2):
            if self.process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"celery {self.args[0]} did not become ready:\n{self.output}")
        return self

    def __exit__(self, *exc):
        # SIGTERM is Celery's warm shutdown: finish the current task, then exit.
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        return False


def worker(*, env, name):
    """A real worker as `make run` starts it: one process, default queue, no broadcast."""
    return CeleryProcess(
        [
            "worker",
            "--pool=solo",
            "--concurrency=1",
            "-Q",
            "celery",
            "--without-mingle",
            "--without-gossip",
            "--without-heartbeat",
            "-n",
            name,
            "-l",
            "info",
        ],
        env=env,
        ready_text=f"{name} ready.",
    )


def beat(*, env):
    return CeleryProcess(["beat", "-l", "info"], env=env, ready_text="beat: Starting...")


@pytest.fixture
def worker_name():
    return f"it-{uuid.uuid4().hex[:8]}@localhost"
