from datetime import timedelta

from django.db import models

# Beat sends a heartbeat every minute by default (CELERY_BEAT_SCHEDULE); a
# worker silent for three intervals is shown as not alive.
HEARTBEAT_STALE_AFTER = timedelta(minutes=3)


class WorkerHeartbeat(models.Model):
    """The last time a Celery worker ran the heartbeat task.

    Kept in the database because it is the one store the web process and
    every worker share in both set-ups (SQLite file, or PostgreSQL); the
    default cache is per process.
    """

    worker = models.CharField(max_length=255, unique=True, help_text="The worker's node name, e.g. celery@host.")
    first_seen = models.DateTimeField()
    last_seen = models.DateTimeField(db_index=True)
    beats = models.PositiveBigIntegerField(default=0, help_text="Heartbeats run by this worker.")

    class Meta:
        ordering = ["-last_seen"]

    def __str__(self):
        return f"{self.worker} (last seen {self.last_seen:%Y-%m-%d %H:%M:%S} UTC)"

    def is_alive(self, *, now):
        """Return True if the worker ran a heartbeat within HEARTBEAT_STALE_AFTER of ``now``."""
        return now - self.last_seen <= HEARTBEAT_STALE_AFTER
