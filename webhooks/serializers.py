"""The webhooks API's bodies: endpoints (the secret only in the answer that made one) and deliveries."""

from __future__ import annotations

from rest_framework import serializers

from portal.serializers import IntegerField, ModelSerializer

from .addresses import MAX_URL_LENGTH
from .models import Delivery, Endpoint, EventType


class EndpointSerializer(ModelSerializer):
    event_types = serializers.ListField(
        child=serializers.ChoiceField(choices=EventType.choices), help_text="The events sent to this URL."
    )

    class Meta:
        model = Endpoint
        fields = ["id", "federation", "url", "description", "event_types", "active", "created_at"]
        read_only_fields = fields


class EndpointCreatedSerializer(EndpointSerializer):
    secret = serializers.CharField(
        read_only=True,
        help_text="The signing secret (HMAC-SHA256, header X-Portal-Signature; docs/webhooks.md). Shown in this "
        "answer only: keep it now.",
    )

    class Meta(EndpointSerializer.Meta):
        fields = [*EndpointSerializer.Meta.fields, "secret"]
        read_only_fields = fields


class EndpointInputSerializer(serializers.Serializer):
    federation = IntegerField(min_value=1, help_text="The federation whose events are sent (one you are staff of).")
    url = serializers.CharField(
        max_length=MAX_URL_LENGTH,
        help_text="An https:// URL of a public address (plain http to a loopback address only outside production).",
    )
    event_types = serializers.ListField(
        child=serializers.ChoiceField(choices=EventType.choices), min_length=1, help_text="At least one event type."
    )
    description = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class DeliverySerializer(ModelSerializer):
    payload = serializers.JSONField(help_text='The body as sent (docs/webhooks.md, "Events").')

    class Meta:
        model = Delivery
        fields = [
            "id", "endpoint", "event_id", "event_type", "status", "attempts", "response_code", "error", "payload",
            "created_at", "last_attempt_at", "next_attempt_at", "delivered_at",
        ]  # fmt: skip
        read_only_fields = fields
