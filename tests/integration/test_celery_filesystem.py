"""The embedded default: a real worker and beat on kombu's filesystem transport, no broker server."""

import json
import sqlite3
import time

import pytest
from celery import Celery

from .conftest import beat, child_env, manage, worker

pytestmark = pytest.mark.integration

_READ_CELERY_SETTINGS = (
    "import json; from django.conf import settings; print(json.dumps({"
    "'broker_url': settings.CELERY_BROKER_URL, "
    "'broker_transport_options': settings.CELERY_BROKER_TRANSPORT_OPTIONS, "
    "'result_backend': settings.CELERY_RESULT_BACKEND, "
    "'remote_control': settings.CELERY_WORKER_ENABLE_REMOTE_CONTROL, "
    "'database': str(settings.DATABASES['default']['NAME'])}))"
)


@pytest.fixture(scope="module")
def embedded(tmp_path_factory):
    """A fresh data folder with a migrated SQLite database and no service variable set.

    Shared by this module's tests (migrating takes seconds); each test starts
    its own worker under its own name and looks only at that worker's rows.
    """
    env = child_env(PORTAL_DATA_DIR=tmp_path_factory.mktemp("embedded") / "data")
    manage("migrate", "--noinput", "-v", "0", env=env)
    conf = json.loads(manage("shell", "-c", _READ_CELERY_SETTINGS, env=env).strip().splitlines()[-1])
    return env, conf


def _client(conf):
    """A Celery client configured exactly as the portal's settings say, outside this test process's settings."""
    client = Celery("portal-test-client", set_as_current=False)
    client.conf.update(
        broker_url=conf["broker_url"],
        broker_transport_options=conf["broker_transport_options"],
        result_backend=conf["result_backend"],
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
    )
    return client


def _heartbeats(database):
    with sqlite3.connect(database) as db:
        return dict(db.execute("SELECT worker, beats FROM portal_workerheartbeat").fetchall())


def test_the_default_needs_no_broker_server(embedded):
    env, conf = embedded
    assert conf["broker_url"] == "filesystem://"
    assert conf["result_backend"].startswith("file://")
    # The filesystem transport has no fanout exchange: broadcast must be off.
    assert conf["remote_control"] is False


def test_a_real_worker_runs_a_task_sent_through_the_filesystem_broker(embedded, worker_name):
    env, conf = embedded
    client = _client(conf)
    try:
        with worker(env=env, name=worker_name) as w:
            w.wait_ready()
            result = client.send_task("portal.tasks.heartbeat")
            payload = result.get(timeout=60)
        assert payload["worker"] == worker_name, w.output
        assert payload["beats"] == 1
        # The worker wrote to the portal's database in the data folder.
        assert _heartbeats(conf["database"])[worker_name] == 1
    finally:
        client.close()


def test_beat_dispatches_the_heartbeat_and_the_worker_consumes_it(embedded, worker_name):
    env, conf = embedded
    env = {**env, "PORTAL_HEARTBEAT_SECONDS": "1"}
    with worker(env=env, name=worker_name) as w, beat(env=env) as b:
        w.wait_ready()
        b.wait_ready()
        deadline = time.monotonic() + 60
        while _heartbeats(conf["database"]).get(worker_name, 0) < 2:
            assert time.monotonic() < deadline, f"no heartbeat from beat:\n{b.output}\n{w.output}"
            time.sleep(0.5)
    assert "Scheduler: Sending due task heartbeat (portal.tasks.heartbeat)" in b.output
