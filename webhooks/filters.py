"""django-filter FilterSet of the webhooks' delivery log (the API's list)."""

from __future__ import annotations

import django_filters

from portal.filters import id_filter

from .models import Delivery, DeliveryStatus, EventType


class DeliveryFilter(django_filters.FilterSet):
    endpoint = id_filter(field_name="endpoint_id")
    status = django_filters.ChoiceFilter(choices=DeliveryStatus.choices)
    event_type = django_filters.ChoiceFilter(choices=EventType.choices)

    class Meta:
        model = Delivery
        fields = ["endpoint", "status", "event_type"]
