"""Production transports: a real worker on Redis writing to PostgreSQL.

`make test` runs this module with DATABASE_URL (PostgreSQL) and REDIS_URL set.
pytest-django creates the test database; the worker is pointed at that same
database, and `transaction=True` lets the worker's committed row be seen here.
"""

import pytest
import redis
from django.conf import settings
from django.db import connection

from portal.models import WorkerHeartbeat
from portal.tasks import heartbeat

from .conftest import child_env, delete_own_keys, require, worker

pytestmark = pytest.mark.integration


def _database_url():
    db = connection.settings_dict
    credentials = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{credentials}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def services():
    require(connection.vendor == "postgresql", "DATABASE_URL must point at PostgreSQL for this test")
    require(bool(settings.REDIS_URL), "REDIS_URL must be set for this test")
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        client.ping()
    except redis.ConnectionError as error:
        require(False, f"Redis at {settings.REDIS_URL} does not answer: {error}")
    # The Redis database may be shared with another checkout's run: only this checkout's keys (its prefix,
    # REDIS_KEY_PREFIX from the Makefile) are deleted, so no message of an earlier run reaches this worker
    # and nothing of another run is touched.
    require(bool(settings.REDIS_KEY_PREFIX), "REDIS_KEY_PREFIX must be set: the test deletes only its own keys")
    delete_own_keys(client, settings.REDIS_KEY_PREFIX)
    return child_env(
        DATABASE_URL=_database_url(), REDIS_URL=settings.REDIS_URL, REDIS_KEY_PREFIX=settings.REDIS_KEY_PREFIX
    )


def test_the_settings_select_postgresql_and_redis(services):
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"] == settings.REDIS_KEY_PREFIX
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    assert settings.CELERY_RESULT_BACKEND.startswith("redis://")
    assert settings.CACHES["default"]["BACKEND"] == "django_redis.cache.RedisCache"


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_on_redis_writes_a_row_the_test_reads_from_postgresql(services, worker_name):
    with worker(env=services, name=worker_name) as w:
        w.wait_ready()
        result = heartbeat.delay()
        payload = result.get(timeout=60)
        assert payload["worker"] == worker_name, w.output
        # A second round trip: the row is updated, not duplicated.
        assert heartbeat.delay().get(timeout=60)["beats"] == 2
    # Every key the run wrote to Redis (queue, bindings, results) carries the checkout's prefix.
    keys = [key.decode() for key in redis.Redis.from_url(settings.REDIS_URL).scan_iter(count=1000)]
    assert any(key.startswith(f"{settings.REDIS_KEY_PREFIX}celery-task-meta-") for key in keys), keys
    row = WorkerHeartbeat.objects.get(worker=worker_name)
    assert row.beats == 2
    assert row.last_seen >= row.first_seen
