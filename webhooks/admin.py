"""The webhooks' admin: endpoints (read, and removed through the services) and the delivery log (read, and sent
again through the services). Endpoints are made on the webhooks page or through the API, where their secret is
shown once; it is never shown here. Who sees which rows is the federation's access rule (``webhooks/rules.py``)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext_lazy, ngettext

from portal.admin import AccessAdmin, ReadOnlyAdmin

from . import access, services
from .models import Delivery, Endpoint


@admin.register(Endpoint)
class EndpointAdmin(AccessAdmin):
    list_display = ["url", "federation", "active", "created_at"]
    list_filter = ["active", "federation"]
    search_fields = ["url", "description"]
    fields = ["federation", "url", "description", "event_types", "active", "created_at", "created_by"]
    readonly_fields = fields

    def get_queryset(self, request):
        return access.endpoints_visible_to(request.user)

    def has_add_permission(self, request, *args):
        return False  # made on the webhooks page or through the API, which show the secret once

    def has_change_permission(self, request, obj=None):
        return False

    def revert_disabled(self, request, obj=None):
        return True

    def delete_model(self, request, obj):
        services.endpoint_delete(endpoint=obj, by=request.user)

    def delete_queryset(self, request, queryset):
        for endpoint in queryset:
            services.endpoint_delete(endpoint=endpoint, by=request.user)


@admin.register(Delivery)
class DeliveryAdmin(ReadOnlyAdmin):
    list_display = ["event_type", "endpoint", "status", "attempts", "response_code", "created_at", "last_attempt_at"]
    list_filter = ["status", "event_type"]
    search_fields = ["=event_id", "subject"]
    date_hierarchy = "created_at"
    fields = [
        "endpoint", "event_id", "event_type", "subject", "payload", "status", "attempts", "response_code", "error",
        "created_at", "last_attempt_at", "next_attempt_at", "delivered_at",
    ]  # fmt: skip
    readonly_fields = fields
    actions = ["send_again"]

    def get_queryset(self, request):
        return access.deliveries_visible_to(request.user)

    def revert_disabled(self, request, obj=None):
        return True

    @admin.action(description=gettext_lazy("Send the selected deliveries again"))
    def send_again(self, request, queryset):
        sent = 0
        for delivery in queryset:
            try:
                services.delivery_resend(delivery=delivery, by=request.user)
            except PermissionDenied:
                continue
            sent += 1
        self.message_user(
            request,
            ngettext("%(count)s delivery queued again.", "%(count)s deliveries queued again.", sent) % {"count": sent},
            messages.SUCCESS,
        )
