"""The games admin: officials' assignments (made and withdrawn through the services), line-ups (read only),
the live sheet's log (read only). Every ModelAdmin derives from ``portal.admin.AccessAdmin``."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy

from portal.admin import AccessAdmin, ActingFormMixin, ReadOnlyAdmin
from portal.forms import apply_errors
from tournaments.models import GameStatus

from . import services
from .models import (
    ConsoleSignIn,
    GameOfficial,
    GameProtestMark,
    GameSheet,
    Lineup,
    LineupOfficial,
    LineupPlayer,
    OfficialAccount,
    SheetEvent,
    SheetSnapshot,
)


class GameOfficialForm(forms.ModelForm):
    """The assignment, checked by the service's rules (4.1, 4.2 C, 4.2 I / R-08, 4.6 B) before it is saved."""

    class Meta:
        model = GameOfficial
        fields = ["game", "person", "duty", "position"]

    def __init__(self, *args, by=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.by = by
        if "position" in self.fields:  # not on the read-only view of an assignment
            self.fields["position"].required = False
            self.fields["position"].help_text = "Empty: the next free place. Referee 1 is the lead (4.2 C)."

    def clean(self):
        data = super().clean()
        game, person, duty = data.get("game"), data.get("person"), data.get("duty")
        if game is None or person is None or not duty:
            return data
        try:
            services.check_can_assign_officials(self.by, game)
            data["position"] = services.check_official_assignment(
                game=game, person=person, duty=duty, position=data.get("position")
            )
        except PermissionDenied as exc:
            raise ValidationError({"game": str(exc)}) from None
        except ValidationError as exc:
            apply_errors(self, exc)
        return data

    def validate_unique(self):
        # The service names the rule (4.1) where the database would only say "already exists".
        pass


@admin.register(GameOfficial)
class GameOfficialAdmin(ActingFormMixin, AccessAdmin):
    form = GameOfficialForm
    list_display = ["game", "duty", "position", "person", "assigned_by", "assigned_at"]
    list_filter = ["duty"]
    search_fields = ["person__last_name", "person__first_name", "game__championship__name"]
    list_select_related = ["game__home", "game__away", "person", "assigned_by"]
    raw_id_fields = ["game", "person"]

    def get_queryset(self, request):
        return services.assignments_visible_to(request.user).select_related(
            "game__home", "game__away", "game__championship__sanctioning_body", "person", "assigned_by"
        )

    def has_change_permission(self, request, obj=None):
        return False  # withdraw and assign again: an assignment is never edited in place

    def has_delete_permission(self, request, obj=None):
        # 4.2 O: a final game's officials are on the signed report.
        final = obj is not None and obj.game.status == GameStatus.FINAL
        return super().has_delete_permission(request, obj) and not final

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        saved = services.official_assign(
            game=data["game"], person=data["person"], duty=data["duty"], position=data["position"], by=request.user
        )
        obj.pk = saved.pk
        obj.refresh_from_db()
        obj._state.adding = False

    def delete_model(self, request, obj):
        services.official_unassign(assignment=obj, by=request.user)

    def delete_queryset(self, request, queryset):
        for assignment in queryset:
            services.official_unassign(assignment=assignment, by=request.user)


class LineupPlayerInline(admin.TabularInline):
    model = LineupPlayer
    extra = 0
    fields = ["number", "person", "position", "captain", "alternate", "starting", "injured_at", "replaces"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class LineupOfficialInline(admin.TabularInline):
    model = LineupOfficial
    extra = 0
    fields = ["team_official", "person"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Lineup)
class LineupAdmin(AccessAdmin):
    """Read only: a team gives its line-up itself (5.1 A), through the page or the API."""

    list_display = ["game", "entry", "submitted_by", "submitted_at"]
    list_select_related = ["game__home", "game__away", "entry", "submitted_by"]
    readonly_fields = ["game", "entry", "submitted_by", "submitted_at"]
    inlines = [LineupPlayerInline, LineupOfficialInline]

    def get_queryset(self, request):
        return services.lineups_visible_to(request.user).select_related(
            "game__home", "game__away", "game__championship", "entry", "submitted_by"
        )

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class OfficialAccountForm(forms.ModelForm):
    class Meta:
        model = OfficialAccount
        fields = ["person", "user"]

    def __init__(self, *args, by=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.by = by

    def clean(self):
        data = super().clean()
        if data.get("person") is not None and data.get("user") is not None:
            try:
                services.check_official_account_link(person=data["person"], user=data["user"], by=self.by)
            except PermissionDenied as exc:
                raise ValidationError(str(exc)) from None
            except ValidationError as exc:
                apply_errors(self, exc)
        return data

    def validate_unique(self):
        pass  # the service says which side is already linked


@admin.register(OfficialAccount)
class OfficialAccountAdmin(ActingFormMixin, AccessAdmin):
    form = OfficialAccountForm
    list_display = ["person", "user"]
    list_select_related = ["person", "user"]
    raw_id_fields = ["person", "user"]
    search_fields = ["person__last_name", "user__username"]

    def has_change_permission(self, request, obj=None):
        return False  # unlink and link again

    def save_model(self, request, obj, form, change):
        saved = services.official_account_link(person=obj.person, user=obj.user, by=request.user)
        obj.pk = saved.pk
        obj._state.adding = False


# --- The live game sheet (issue 9): a read-only view of the log; entries go through games.sheet.record_events ---


class LogAdmin(ReadOnlyAdmin):
    """The sheet's rows keep no simple-history: an entry is never changed (a correction is a new entry), so the
    log is its own history; AccessAdmin shows Django's own list of admin actions (none: nothing is edited)."""


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

    @admin.display(description=gettext_lazy("Type"))
    def event_type(self, obj):
        return obj.payload.get("type")


@admin.register(SheetSnapshot)
class SheetSnapshotAdmin(LogAdmin):
    list_display = ["sheet", "period", "sequence", "taken_at"]
    list_select_related = ["sheet__game__home", "sheet__game__away"]


@admin.register(ConsoleSignIn)
class ConsoleSignInAdmin(LogAdmin):
    """Which device kept which duty of the officials' table, since when, and who took it over (4.3-4.5)."""

    list_display = ["game", "duty", "device", "user", "signed_in_at", "ended_at", "taken_over_by"]
    list_filter = ["duty"]
    search_fields = ["device", "user__username"]
    list_select_related = ["game__home", "game__away", "user", "taken_over_by"]


# --- Before the game: administrative protests (9.1 B), recorded through games.services.protest_mark_record --------


class GameProtestMarkForm(forms.ModelForm):
    """The protest mark, checked by the service's rules (9.1 B, R-51) before it is saved."""

    class Meta:
        model = GameProtestMark
        fields = ["game", "entry", "subject", "details"]

    def __init__(self, *args, by=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.by = by

    def clean(self):
        data = super().clean()
        game, entry, subject = data.get("game"), data.get("entry"), data.get("subject")
        if game is None or entry is None or not subject:
            return data
        try:
            services.check_can_record_protest_mark(self.by, game)
            services.check_protest_mark(game=game, entry=entry, subject=subject, now=timezone.now())
        except PermissionDenied as exc:
            raise ValidationError({"game": str(exc)}) from None
        except ValidationError as exc:
            apply_errors(self, exc)
        return data

    def validate_unique(self):
        pass  # the service names the rule (9.1 B)


@admin.register(GameProtestMark)
class GameProtestMarkAdmin(ActingFormMixin, AccessAdmin):
    """A game played under protest (9.1 B): recorded before the start, never edited or deleted afterwards."""

    form = GameProtestMarkForm
    list_display = ["game", "entry", "subject", "made_at", "recorded_by"]
    list_filter = ["subject"]
    list_select_related = ["game__home", "game__away", "entry", "recorded_by"]
    raw_id_fields = ["game", "entry"]

    def get_queryset(self, request):
        return services.protest_marks_visible_to(request.user).select_related(
            "game__home", "game__away", "game__championship__sanctioning_body", "entry", "recorded_by"
        )

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        saved = services.protest_mark_record(
            game=data["game"], entry=data["entry"], subject=data["subject"], details=data["details"], by=request.user
        )
        obj.pk = saved.pk
        obj.refresh_from_db()
        obj._state.adding = False
