from datetime import timedelta

from django.db import models
from django.utils.translation import gettext_lazy as _

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


class EmailStatus(models.TextChoices):
    PENDING = "pending", _("Waiting to be sent")
    SENT = "sent", _("Sent")
    NO_ADDRESS = "no_address", _("Not sent: the login has no e-mail address")
    FAILED = "failed", _("Not sent: the mail server refused it after every attempt")


class Notification(models.Model):
    """One message to one person about one occasion (a protest filed, a decision, a suspension, a reminder).

    Written only by ``portal.notifications.notify``. ``key`` names the occasion: one notification per person and
    occasion (the constraint), so a task that runs twice tells nobody twice. The person reads it on
    /notifications/; the e-mail is sent by ``portal.tasks.send_notification_email``.
    """

    user = models.ForeignKey("accounts.User", on_delete=models.CASCADE, related_name="notifications")
    key = models.CharField(max_length=200, help_text='The occasion, e.g. "protest:12:filed".')
    subject = models.CharField(max_length=300)
    body = models.TextField()
    # Issue 26: the words as their message and values (``common.text.to_data``), said in the reader's language
    # when shown or e-mailed (``shown_subject``, ``shown_body``); ``subject`` and ``body`` keep them in English.
    # Empty for a text that is the words as written (a team's answer) or an older row that could not be read back.
    subject_message = models.JSONField(null=True, blank=True, editable=False)
    body_message = models.JSONField(null=True, blank=True, editable=False)
    url = models.CharField(max_length=300, blank=True, help_text="The portal page it is about.")
    created_at = models.DateTimeField()
    read_at = models.DateTimeField(null=True, blank=True)
    email_status = models.CharField(max_length=12, choices=EmailStatus.choices, default=EmailStatus.PENDING)
    emailed_at = models.DateTimeField(null=True, blank=True)
    email_attempts = models.PositiveSmallIntegerField(default=0)
    email_error = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="one_notification_per_occasion")]
        indexes = [
            models.Index(fields=["user", "read_at"]),
            models.Index(fields=["email_status", "created_at"]),
        ]

    def __str__(self):
        return f"{self.user}: {self.subject}"

    @property
    def shown_subject(self) -> str:
        """The subject in the active language (``portal.i18n.stored``)."""
        from portal.i18n import stored

        return stored(self.subject_message, self.subject)

    @property
    def shown_body(self) -> str:
        from portal.i18n import stored

        return stored(self.body_message, self.body)

    @property
    def shown_body_html(self) -> str:
        """The body for a page: in the active language, the people's own words in it marked as theirs."""
        from portal.i18n import stored_html

        return stored_html(self.body_message, self.body)
