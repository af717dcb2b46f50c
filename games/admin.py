"""Admin of the games app: every ModelAdmin derives from ``portal.admin.AccessAdmin`` (here through ReadOnlyAdmin)."""

from django.contrib import admin

from tournaments.admin import ReadOnlyAdmin  # AccessAdmin with nothing added, changed or deleted

from .models import GameSheet, SheetEvent, SheetSnapshot

# --- The live game sheet (issue 9): a read-only view of the log; entries go through games.sheet.record_events ---


class LogAdmin(ReadOnlyAdmin):
    """The sheet's rows keep no simple-history: an entry is never changed (a correction is a new entry), so the
    log is its own history; the history page is Django's own list of admin actions (none: nothing is edited)."""

    def history_view(self, request, object_id, extra_context=None):
        if self._visible_object(request, object_id) is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        return admin.ModelAdmin.history_view(self, request, object_id, extra_context)


@admin.register(GameSheet)
class GameSheetAdmin(LogAdmin):
    list_display = ["game", "status", "sequence", "opened_at", "opened_by"]
    list_filter = ["status"]
    list_select_related = ["game__home", "game__away", "opened_by"]


@admin.register(SheetEvent)
class SheetEventAdmin(LogAdmin):
    list_display = ["sheet", "sequence", "event_type", "event_id", "entered_by", "device", "received_at"]
    list_filter = ["device"]
    search_fields = ["event_id", "device"]
    list_select_related = ["sheet__game__home", "sheet__game__away", "entered_by"]

    @admin.display(description="Type")
    def event_type(self, obj):
        return obj.payload.get("type")


@admin.register(SheetSnapshot)
class SheetSnapshotAdmin(LogAdmin):
    list_display = ["sheet", "period", "sequence", "taken_at"]
    list_select_related = ["sheet__game__home", "sheet__game__away"]
