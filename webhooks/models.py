"""Webhook endpoints a federation registers and the deliveries of events to them (docs/webhooks.md)."""

from __future__ import annotations

import secrets

from django.db import models
from django.utils.translation import gettext_lazy as _

from portal.choices import ChoiceLabels


class EventType(models.TextChoices):
    ELIGIBILITY_CHANGED = "person.eligibility_changed", _("A person's eligibility changed")
    ROSTER_FROZEN = "roster.frozen", _("A roster is frozen (the championship began)")
    GAME_FINAL = "game.final", _("A game is final (or its result amended)")
    PROTEST_FILED = "protest.filed", _("A protest is filed")
    PROTEST_DECIDED = "protest.decided", _("A protest is decided")
    SUSPENSION_IMPOSED = "suspension.imposed", _("A suspension is imposed (or its terms change)")
    SUSPENSION_ENDED = "suspension.ended", _("A suspension ends")


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", _("Waiting to be sent")
    RETRYING = "retrying", _("Failed, will be tried again")
    DELIVERED = "delivered", _("Delivered")
    FAILED = "failed", _("Failed")


def new_secret() -> str:
    """A signing secret: 32 random bytes, URL-safe text, prefixed so it is recognized when leaked."""
    return "whsec_" + secrets.token_urlsafe(32)


class Endpoint(models.Model):
    """A URL of a federation's own system that receives the events concerning the federation, signed with
    ``secret`` (generated here, shown once when the endpoint is made)."""

    federation = models.ForeignKey("federation.Federation", on_delete=models.CASCADE, related_name="webhook_endpoints")
    url = models.URLField(_("URL"), max_length=500)
    secret = models.CharField(max_length=80, default=new_secret, editable=False)
    event_types = models.JSONField(default=list, help_text="The EventType values sent to this URL.")
    description = models.CharField(_("description"), max_length=200, blank=True)
    active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey("accounts.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["federation__name", "pk"]
        verbose_name = _("webhook endpoint")

    def __str__(self):
        return f"{self.federation}: {self.url}"

    def wants(self, event_type: str) -> bool:
        return self.active and event_type in self.event_types


class Delivery(ChoiceLabels):
    """One event sent (or to be sent) to one endpoint; its log: attempts, the last answer, when."""

    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="deliveries")
    event_id = models.UUIDField(help_text="The event's id: the same in every endpoint's delivery of one event.")
    event_type = models.CharField(max_length=40, choices=EventType.choices)
    # What the event is about ("person:12", "entry:3"...): finds the last delivery of a subject (the eligibility
    # last told, the roster already told frozen).
    subject = models.CharField(max_length=40, db_index=True)
    payload = models.JSONField()
    status = models.CharField(max_length=12, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    response_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        constraints = [models.UniqueConstraint(fields=["endpoint", "event_id"], name="webhook_delivery_once")]
        indexes = [models.Index(fields=["endpoint", "event_type", "subject"])]

    def __str__(self):
        return f"{self.event_type} → {self.endpoint.url} ({self.status})"
