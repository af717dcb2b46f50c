"""Operational Celery tasks of the portal itself (domain tasks live in their apps)."""

from datetime import timedelta
from importlib import import_module

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from .models import WorkerHeartbeat

# The notification e-mails' tasks are defined beside ``notify`` (portal.notifications), which queues them; they
# are named here for Celery's autodiscovery and their callers.
from .notifications import (  # noqa: F401
    NOTIFICATION_SWEEP_GRACE,
    send_notification_email,
    send_pending_notifications,
)

# A worker that has not beaten for a week is gone (renamed host, scaled down).
HEARTBEAT_RETENTION = timedelta(days=7)


def record_heartbeat(*, worker, now):
    """Record that ``worker`` is alive at ``now``; forget workers silent past the retention."""
    with transaction.atomic():
        # get_or_create survives two heartbeats of one worker racing to create its row.
        _, created = WorkerHeartbeat.objects.get_or_create(
            worker=worker, defaults={"first_seen": now, "last_seen": now, "beats": 1}
        )
        if not created:
            WorkerHeartbeat.objects.filter(worker=worker).update(last_seen=now, beats=F("beats") + 1)
        WorkerHeartbeat.objects.filter(last_seen__lt=now - HEARTBEAT_RETENTION).delete()
    return WorkerHeartbeat.objects.get(worker=worker)


@shared_task(bind=True, name="portal.tasks.heartbeat")
def heartbeat(self):
    """Run by beat every minute: the admin's "Worker heartbeats" list shows when each worker was last seen."""
    beat = record_heartbeat(worker=self.request.hostname, now=timezone.now())
    return {"worker": beat.worker, "last_seen": beat.last_seen.isoformat(), "beats": beat.beats}


@shared_task(name="portal.tasks.clear_expired_sessions")
def clear_expired_sessions():
    """Run by beat daily: delete expired login sessions, as `manage.py clearsessions` does."""
    engine = import_module(settings.SESSION_ENGINE)
    engine.SessionStore.clear_expired()
