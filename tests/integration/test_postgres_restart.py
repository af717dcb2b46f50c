"""PostgreSQL restarted under load (issue 13, "Faults survived"): requests in flight fail with a clear 503, no
record is half-written, and the same web process serves again by itself once the database is back.

The test runs a PRIVATE PostgreSQL cluster (initdb into a temporary folder, its own port; never the shared one),
migrates it, and starts a real web process (uvicorn, ASGI, DEBUG off) and a Celery worker on it. Two clients
send requests without pause: one registers people through the API (a person and its audit-history row, in one
transaction), one reads the people list. Meanwhile the cluster is restarted (``pg_ctl restart -m fast``, which
ends every open connection). Every answer must be a success or a 503 naming the unavailable database (no 500);
every person in the database has its history row; every 201 is there; and requests and a worker task succeed
after the restart without restarting the web process or the worker (``CONN_HEALTH_CHECKS``).
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import threading
import time
from contextlib import contextmanager

import pytest
import requests

from tests.live_servers import WebNode, free_port

from .conftest import child_env, manage, require, worker

pytestmark = pytest.mark.integration

# The clients authenticate as API clients do, with a per-user token (accounts.ApiToken, django-rest-knox).
_SETUP = """
from accounts.models import ApiToken
from tests.factories import FederationFactory, international_staff
user = international_staff(username="restart-staff")
_, token = ApiToken.objects.create(user=user, name="restart test")
print("FEDERATION", FederationFactory().pk, "TOKEN", token)
"""

_CHECK = """
from simple_history.utils import get_history_model_for_model
from federation.models import Person
history = get_history_model_for_model(Person)
people = list(Person.objects.filter(last_name__startswith="Restart").values_list("pk", "last_name"))
with_history = set(history.objects.filter(history_type="+", id__in=[pk for pk, _ in people]).values_list("id", flat=True))
print("PEOPLE", ",".join(name for _, name in people) or "-")
print("WITHOUT_HISTORY", len([pk for pk, _ in people if pk not in with_history]))
"""


def _as_postgres(*command: str, **kwargs):
    """PostgreSQL refuses to run as root: as root, run ``command`` as the ``postgres`` user."""
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    return subprocess.run([*prefix, *command], capture_output=True, text=True, timeout=60, check=True, **kwargs)


@contextmanager
def private_cluster():
    """A PostgreSQL cluster of the test's own (a temporary folder, a free port, trust auth); removed afterwards."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    require(bool(found), "PostgreSQL's server binaries (/usr/lib/postgresql/*/bin) are needed for this test")
    binaries = os.path.dirname(found[-1])
    folder = tempfile.mkdtemp(prefix="portal-pg-restart-")
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    data, port = os.path.join(folder, "data"), free_port()
    ctl = os.path.join(binaries, "pg_ctl")
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
    try:
        _as_postgres(os.path.join(binaries, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "--no-sync")
        _as_postgres(ctl, "-D", data, "-l", os.path.join(folder, "log"), "-o", options, "-w", "start")
        _as_postgres(os.path.join(binaries, "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "portal")

        def restart():
            _as_postgres(ctl, "-D", data, "-l", os.path.join(folder, "log"), "-m", "fast", "-w", "restart")

        yield f"postgres://postgres@127.0.0.1:{port}/portal", restart
    finally:
        subprocess.run(
            [
                *(["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []),
                ctl,
                "-D",
                data,
                "-m",
                "immediate",
                "stop",
            ],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(folder, ignore_errors=True)


class Load:
    """Two clients in threads: API writes of people and reads of the people list, each answer recorded."""

    def __init__(self, base, federation, token):
        self.base, self.federation, self.token = base, federation, token
        self.answers: list[tuple[float, str, int, str, str]] = []  # (time, kind, status, name, code)
        self.stop = threading.Event()
        self.count = 0
        self._lock = threading.Lock()

    def _record(self, kind, status, name="", code=""):
        with self._lock:
            self.answers.append((time.monotonic(), kind, status, name, code))

    def _writer(self):
        session = requests.Session()
        session.headers["Authorization"] = f"Token {self.token}"
        while not self.stop.is_set():
            with self._lock:
                self.count += 1
                name = f"Restart{self.count:04d}"
            body = {
                "federation": self.federation,
                "first_name": "Ann",
                "last_name": name,
                "date_of_birth": "2000-01-02",
                "gender": "F",
                "nationality": "FR",
            }
            try:
                response = session.post(f"{self.base}/api/people/", json=body, timeout=20)
            except requests.RequestException as error:
                self._record("write", 0, name, type(error).__name__)
                continue
            code = response.json().get("code", "") if response.status_code == 503 else ""
            self._record("write", response.status_code, name, code)

    def _reader(self):
        session = requests.Session()
        session.headers["Authorization"] = f"Token {self.token}"
        while not self.stop.is_set():
            try:
                response = session.get(f"{self.base}/api/people/", timeout=20)
            except requests.RequestException as error:
                self._record("read", 0, code=type(error).__name__)
                continue
            code = response.json().get("code", "") if response.status_code == 503 else ""
            self._record("read", response.status_code, code=code)

    @contextmanager
    def running(self):
        threads = [threading.Thread(target=self._writer), threading.Thread(target=self._reader)]
        for thread in threads:
            thread.start()
        try:
            yield self
        finally:
            self.stop.set()
            for thread in threads:
                thread.join(timeout=30)


def test_a_postgresql_restart_fails_requests_in_flight_with_a_503_and_service_resumes_by_itself(tmp_path, worker_name):
    started = time.monotonic()
    with private_cluster() as (database_url, restart):
        env = child_env(DATABASE_URL=database_url, PORTAL_DATA_DIR=tmp_path, DJANGO_DEBUG=0)
        manage("migrate", "--noinput", "-v", "0", env=env, timeout=300)
        federation, _, token = manage("shell", "-c", _SETUP, env=env).split("FEDERATION")[-1].split()[:3]
        migrated = time.monotonic() - started
        # uvicorn as scripts/production serves; its output is read as it comes (a full pipe would stall it).
        with WebNode(env) as web, worker(env=env, name=worker_name) as celery:
            base = web.url
            celery.wait_ready()
            load = Load(base, int(federation), token)
            with load.running():
                time.sleep(2)
                restart_began = time.monotonic()
                restart()
                restarted = time.monotonic()
                time.sleep(3)
            after = [a for a in load.answers if a[0] > restarted + 1]
            # The worker, not restarted either, runs a task that writes to the database.
            beat_row = manage(
                "shell",
                "-c",
                "from portal.tasks import heartbeat; print('BEATS', heartbeat.delay().get(timeout=60)['beats'])",
                env=env,
            )
        checked = manage("shell", "-c", _CHECK, env=env)
    answers = load.answers
    statuses = {}
    for _, kind, status, _, code in answers:
        statuses[(kind, status, code)] = statuses.get((kind, status, code), 0) + 1
    failed = [a for a in answers if a[2] != 503 and a[2] >= 400 or a[2] == 0]
    unavailable = [a for a in answers if a[2] == 503]
    assert failed == [], f"{statuses}\n{web.output[-3000:]}"
    assert unavailable, f"no request met the restart: {statuses}"
    assert all(a[4] == "database_unavailable" for a in unavailable)
    first_ok = min(a[0] for a in answers if a[0] > restart_began and a[2] in (200, 201))
    assert after and all(a[2] in (200, 201) for a in after), statuses
    people = set(checked.split("PEOPLE")[-1].split()[0].split(","))
    assert int(checked.split("WITHOUT_HISTORY")[-1].split()[0]) == 0  # no person without its history row
    created = {a[3] for a in answers if a[1] == "write" and a[2] == 201}
    assert created <= people
    refused_but_saved = {a[3] for a in unavailable if a[1] == "write"} & people
    assert int(beat_row.split("BEATS")[-1].split()[0]) >= 1
    print(
        f"\n{len(answers)} requests: {statuses}; restart took {restarted - restart_began:.1f} s; first success "
        f"{first_ok - restart_began:.1f} s after it began; {len(created)} people created, "
        f"{len(refused_but_saved)} answered 503 yet saved; migrate {migrated:.0f} s; total {time.monotonic() - started:.0f} s"
    )
