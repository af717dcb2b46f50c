"""Admin of the games app: every ModelAdmin derives from ``portal.admin.AccessAdmin`` (here through ReadOnlyAdmin)."""

from django.contrib import admin

from tournaments.admin import ReadOnlyAdmin  # AccessAdmin with nothing added, changed or deleted

from .models import GameSheet, SheetEvent, SheetSnapshot

# --- The live game sheet (issue 9): a read-only view of the log; entries go through games.sheet.record_events ---


@admin.register(GameSheet)
class GameSheetAdmin(ReadOnlyAdmin):
    list_display = ["game", "status", "sequence", "opened_at", "opened_by"]
    list_filter = ["status"]
    list_select_related = ["game__home", "game__away", "opened_by"]


@admin.register(SheetEvent)
class SheetEventAdmin(ReadOnlyAdmin):
    list_display = ["sheet", "sequence", "event_type", "event_id", "entered_by", "device", "received_at"]
    list_filter = ["device"]
    search_fields = ["event_id", "device"]
    list_select_related = ["sheet__game__home", "sheet__game__away", "entered_by"]

    @admin.display(description="Type")
    def event_type(self, obj):
        return obj.payload.get("type")


@admin.register(SheetSnapshot)
class SheetSnapshotAdmin(ReadOnlyAdmin):
    list_display = ["sheet", "period", "sequence", "taken_at"]
    list_select_related = ["sheet__game__home", "sheet__game__away"]
