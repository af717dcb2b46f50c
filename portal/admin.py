from django.contrib import admin
from django.utils import timezone

from .models import WorkerHeartbeat


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(admin.ModelAdmin):
    """Read-only: rows are written by the heartbeat task, never by hand."""

    list_display = ["worker", "last_seen", "alive", "beats", "first_seen"]
    search_fields = ["worker"]

    @admin.display(boolean=True, description="Alive")
    def alive(self, obj):
        return obj.is_alive(now=timezone.now())

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
