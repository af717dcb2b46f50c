import socket
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.urls import reverse

from portal.models import HEARTBEAT_STALE_AFTER, WorkerHeartbeat
from portal.tasks import HEARTBEAT_RETENTION, clear_expired_sessions, heartbeat, record_heartbeat
from tests.factories import SuperuserFactory

NOON = datetime(2026, 7, 1, 12, 0, tzinfo=UTC)


@pytest.mark.django_db
def test_it_creates_a_row_on_a_workers_first_heartbeat():
    beat = record_heartbeat(worker="celery@rink", now=NOON)
    assert (beat.worker, beat.first_seen, beat.last_seen, beat.beats) == ("celery@rink", NOON, NOON, 1)


@pytest.mark.django_db
def test_it_updates_the_same_row_on_later_heartbeats():
    record_heartbeat(worker="celery@rink", now=NOON)
    beat = record_heartbeat(worker="celery@rink", now=NOON + timedelta(minutes=1))
    assert WorkerHeartbeat.objects.count() == 1
    assert (beat.first_seen, beat.last_seen, beat.beats) == (NOON, NOON + timedelta(minutes=1), 2)


@pytest.mark.django_db
def test_it_forgets_workers_silent_past_the_retention():
    record_heartbeat(worker="celery@old", now=NOON)
    record_heartbeat(worker="celery@new", now=NOON + HEARTBEAT_RETENTION + timedelta(seconds=1))
    assert list(WorkerHeartbeat.objects.values_list("worker", flat=True)) == ["celery@new"]


@pytest.mark.django_db
def test_it_keeps_workers_seen_within_the_retention():
    record_heartbeat(worker="celery@old", now=NOON)
    record_heartbeat(worker="celery@new", now=NOON + HEARTBEAT_RETENTION)
    assert WorkerHeartbeat.objects.count() == 2


def test_a_worker_is_alive_up_to_the_stale_limit_and_not_after():
    beat = WorkerHeartbeat(worker="celery@rink", first_seen=NOON, last_seen=NOON)
    assert beat.is_alive(now=NOON + HEARTBEAT_STALE_AFTER)
    assert not beat.is_alive(now=NOON + HEARTBEAT_STALE_AFTER + timedelta(seconds=1))


@pytest.mark.django_db
def test_the_heartbeat_task_records_the_calling_worker():
    # Unit tests run tasks eagerly (tests/conftest.py): the node name is this host's.
    payload = heartbeat.delay().get()
    assert payload["worker"] == socket.gethostname()
    assert WorkerHeartbeat.objects.get(worker=payload["worker"]).beats == 1


@pytest.mark.django_db
def test_beat_schedules_the_heartbeat_every_minute_by_default(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["heartbeat"]
    assert entry == {"task": "portal.tasks.heartbeat", "schedule": 60.0}


@pytest.mark.django_db
def test_the_session_sweep_deletes_expired_sessions_only():
    expired, current = SessionStore(), SessionStore()
    expired.set_expiry(-60)
    expired.create()
    current.create()
    clear_expired_sessions.delay()
    assert list(Session.objects.values_list("session_key", flat=True)) == [current.session_key]


@pytest.mark.django_db
def test_the_admin_lists_worker_heartbeats_read_only(client):
    record_heartbeat(worker="celery@rink", now=NOON)
    client.force_login(SuperuserFactory())
    listing = client.get(reverse("admin:portal_workerheartbeat_changelist"))
    assert listing.status_code == 200
    assert b"celery@rink" in listing.content
    assert client.get(reverse("admin:portal_workerheartbeat_add")).status_code == 403
