"""Tournament administration. Forms check through the services' check functions and saves go
through the services, so the admin enforces the same rules as the pages and the API. Who may open
which page (history and revert included) is asked of accounts/rules.py by ``portal.admin.AccessAdmin``."""

from __future__ import annotations

import copy

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Prefetch
from django.forms.models import construct_instance
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from federation.models import EligibilityWaiver
from portal.admin import AccessAdmin, ActingFormMixin, ReadOnlyAdmin
from portal.forms import apply_errors
from portal.i18n import said

from . import rinks as rink_rules
from . import services
from .forms import (
    ChampionshipForm,
    GameForm,
    GoalkeeperRecordForm,
    GoalRecordForm,
    NumberChangeApprovalForm,
    PenaltyRecordForm,
    RosterEntryForm,
    TeamEntryForm,
)
from .models import (
    Championship,
    Disqualification,
    Game,
    GameStatus,
    GoalkeeperRecord,
    GoalRecord,
    Level,
    NumberChangeApproval,
    PenaltyRecord,
    Pool,
    PoolTeam,
    ResultAmendment,
    Rink,
    RosterEntry,
    StandingsShootout,
    StandingsShootoutPlace,
    TeamEntry,
    TeamOfficial,
    Venue,
)


def _report(modeladmin, request, exc: Exception) -> None:
    if isinstance(exc, ValidationError):
        text = "; ".join(m for ms in exc.message_dict.values() for m in ms) if hasattr(exc, "error_dict") else exc
        modeladmin.message_user(request, text, messages.ERROR)
    else:
        modeladmin.message_user(request, str(exc), messages.ERROR)


def rink_conformity(rink: Rink) -> str:
    """Render, per level, what 2.1 says about the rink (errors refuse it, advice does not)."""
    if rink.pk is None or rink.length_m is None or rink.width_m is None:
        return "–"
    rows = []
    for level in Level:
        try:
            found = rink_rules.check_rink(services.rink_dimensions(rink), level=level.value)
        except rink_rules.RinkError as exc:
            found = [rink_rules.Violation(exc.field, "2.1", exc.message)]
        errors = [said(v.message) for v in found if v.severity == rink_rules.ERROR]
        advice = [said(v.message) for v in found if v.severity != rink_rules.ERROR]
        verdict = "cannot host" if errors else "fit"
        rows.append((level.label, verdict, " ".join(errors + advice) or "–"))
    return format_html("<table>{}</table>", format_html_join("", "<tr><th>{}</th><td>{}</td><td>{}</td></tr>", rows))


class RinkForm(forms.ModelForm):
    """A rink of the venue admin, checked by ``services.check_rink`` as the API's rink services check it (2.1)."""

    class Meta:
        model = Rink
        fields = services.RINK_FIELDS

    def __init__(self, *args, by=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.by = by

    def clean(self):
        cleaned = super().clean()
        if self.errors or not self.has_changed():
            return cleaned
        # The model form puts its values on the instance only after ``clean``: check a copy that has them.
        candidate = construct_instance(self, copy.copy(self.instance))
        approved = self.initial.get("surface_approved_by_ihtc", False)
        try:
            services.check_rink(
                candidate,
                approval_changed=bool(cleaned.get("surface_approved_by_ihtc")) != bool(approved),
                by=self.by,
            )
        except ValidationError as exc:
            apply_errors(self, exc)
        return cleaned


class RinkInline(admin.TabularInline):
    """The venue's rinks, changed by those who may change the venue (``services.can_change_venue``); the
    venue admin saves them through the rink services."""

    model = Rink
    form = RinkForm
    extra = 0
    readonly_fields = ["conformity"]

    @admin.display(description=gettext_lazy("Rule 2.1 by level"))
    def conformity(self, obj):
        return rink_conformity(obj)

    # ``obj``: the venue of the page (None on the add page: a new venue is no championship's yet).
    def has_add_permission(self, request, obj=None):
        return super().has_add_permission(request, obj) and (
            obj is None or services.can_change_venue(request.user, obj)
        )

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and (
            obj is None or services.can_change_venue(request.user, obj)
        )

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and (
            obj is None or services.can_change_venue(request.user, obj)
        )


class VenueForm(forms.ModelForm):
    """A venue of the admin: its time zone checked by ``services.check_time_zone_change`` as the API's is."""

    class Meta:
        model = Venue
        fields = services.VENUE_FIELDS

    def clean(self):
        cleaned = super().clean()
        if self.instance.pk and "time_zone" in self.changed_data and "time_zone" in cleaned:
            try:
                services.check_time_zone_change(self.instance, cleaned["time_zone"])
            except ValidationError as exc:
                apply_errors(self, exc)
        return cleaned


@admin.register(Venue)
class VenueAdmin(AccessAdmin):
    form = VenueForm
    list_display = ["name", "city", "country", "time_zone"]
    search_fields = ["name", "city"]
    list_filter = ["country"]
    inlines = [RinkInline]

    # A venue a championship uses is changed by its directors and international staff (services.can_change_venue).
    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and (
            obj is None or services.can_change_venue(request.user, obj)
        )

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and (
            obj is None or services.can_change_venue(request.user, obj)
        )

    def get_formset_kwargs(self, request, obj, inline, prefix):
        kwargs = super().get_formset_kwargs(request, obj, inline, prefix)
        if isinstance(inline, RinkInline):
            # The rink check needs who acts (only the IHTC's staff record an approved surface, 2.1 A).
            kwargs["form_kwargs"] = {"by": request.user}
        return kwargs

    def save_model(self, request, obj, form, change):
        # Through the services, as from the API (who may, the time zone frozen once a game there has started).
        if change:
            changes = {name: form.cleaned_data[name] for name in services.VENUE_FIELDS if name in form.changed_data}
            saved = services.venue_update(venue=obj, **changes, by=request.user)
        else:
            values = {name: form.cleaned_data[name] for name in services.VENUE_FIELDS}
            saved = services.venue_create(**values, by=request.user)
        obj.pk = saved.pk
        obj.refresh_from_db()
        obj._state.adding = False

    def save_formset(self, request, form, formset, change):
        if formset.model is not Rink:
            return super().save_formset(request, form, formset, change)
        # The rinks through the rink services (who may, 2.1): removed first, so a freed name can be taken.
        formset.save(commit=False)
        for rink in formset.deleted_objects:
            services.rink_delete(rink=rink, by=request.user)
        for rink, changed in formset.changed_objects:
            changes = {name: getattr(rink, name) for name in services.RINK_FIELDS if name in changed}
            services.rink_update(rink=rink, **changes, by=request.user)
        for rink in formset.new_objects:
            values = {name: getattr(rink, name) for name in services.RINK_FIELDS}
            rink.pk = services.rink_create(venue=form.instance, **values, by=request.user).pk
        return None


class PoolInline(admin.TabularInline):
    model = Pool
    extra = 0
    show_change_link = True


class TeamEntryInline(admin.TabularInline):
    model = TeamEntry
    extra = 0
    fields = ["name", "federation", "status", "fee_paid"]
    readonly_fields = fields
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False  # entries are made through the entry form (1.1 A checks)


@admin.register(Championship)
class ChampionshipAdmin(ActingFormMixin, AccessAdmin):  # the set-up check needs who acts (directors)
    form = ChampionshipForm
    list_display = ["name", "category", "level", "start_date", "end_date", "venue", "sanctioning_body", "published"]
    list_filter = ["published", "level", "category", "start_date"]
    search_fields = ["name", "venue__name", "venue__city"]
    list_select_related = ["venue", "sanctioning_body"]
    date_hierarchy = "start_date"
    inlines = [PoolInline, TeamEntryInline]
    readonly_fields = ["published", "published_rinks"]
    actions = ["publish"]
    # The money field's currency column is set with the amount; ``entry_fee_currency`` is the form's own field.
    exclude = ["entry_fee_currency"]

    def save_model(self, request, obj, form, change):
        # Through the services, as from the page and the API (directors, the lock, the ruleset frozen once begun).
        values = form.service_values()
        if change:
            saved = services.championship_update(championship=obj, **values, by=request.user)
        else:
            saved = services.championship_create(**values, by=request.user)
        obj.pk = saved.pk
        obj.refresh_from_db()
        obj._state.adding = False

    @admin.action(description=gettext_lazy("Publish the selected draft championships (seen by everyone from then on)"))
    def publish(self, request, queryset):
        for championship in queryset.select_related("sanctioning_body"):
            try:
                services.championship_publish(championship=championship, by=request.user)
                self.message_user(request, _("%(championship)s: published.") % {"championship": championship})
            except (ValidationError, PermissionDenied) as exc:
                _report(self, request, exc)

    @admin.display(description=gettext_lazy("Rinks (published with the championship, 2.1 F)"))
    def published_rinks(self, obj):
        if obj.pk is None:
            return "–"
        rows = [
            (r.name, r.get_surface_display(), r.length_m, r.width_m, r.board_height_m or "–", r.corner_radius_m or "–")
            for r in obj.venue.rinks.all()
        ]
        return format_html(
            "<table><tr><th>Rink</th><th>Surface</th><th>Length m</th><th>Width m</th><th>Boards m</th>"
            "<th>Corners m</th></tr>{}</table>",
            format_html_join("", "<tr>" + "<td>{}</td>" * 6 + "</tr>", rows),
        )


class RosterInline(admin.TabularInline):
    """The roster with every player's eligibility; lines change through the roster admin (services)."""

    model = RosterEntry
    extra = 0
    fields = ["number", "person", "position", "captain", "alternate", "confirmed", "eligibility"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related("person", "entry__championship", "entry__federation")
            .prefetch_related(
                "person__passports",
                Prefetch(
                    "person__eligibility_waivers", queryset=EligibilityWaiver.objects.select_related("approved_by")
                ),
            )
        )

    @admin.display(description=gettext_lazy("Eligibility (1.1)"))
    def eligibility(self, obj):
        return eligibility_html(obj)


def eligibility_html(line: RosterEntry) -> str:
    result = services.roster_eligibility(line.entry, [line])[line.pk]
    waived = [f"{reason.message} (waived: {waiver.reason})" for reason, waiver in result.waived]
    if result.eligible:
        return format_html("eligible{}", format_html_join("", "<br>{}", ((w,) for w in waived)))
    return format_html(
        "<strong>not eligible</strong>{}", format_html_join("", "<br>{}", ((r.message,) for r in result.reasons))
    )


class TeamOfficialInline(admin.TabularInline):
    model = TeamOfficial
    extra = 0
    raw_id_fields = ["person"]


@admin.register(TeamEntry)
class TeamEntryAdmin(AccessAdmin):
    form = TeamEntryForm
    list_display = ["name", "championship", "federation", "status", "fee_paid", "fee_due"]
    list_filter = ["status", "fee_paid", "championship"]
    search_fields = ["name", "federation__name"]
    list_select_related = ["championship", "federation"]
    readonly_fields = ["status", "fee_due", "fee_paid", "fee_paid_amount", "fee_paid_at", "entered_at", "entered_by"]
    filter_horizontal = ["managers"]
    inlines = [RosterInline, TeamOfficialInline]
    actions = ["record_fee_paid", "confirm_roster"]

    def save_model(self, request, obj, form, change):
        if not change:
            entry = services.entry_create(
                championship=obj.championship, federation=obj.federation, name=obj.name, by=request.user
            )
            obj.pk = entry.pk
            obj.refresh_from_db()
            obj._state.adding = False
            return
        obj.save(update_fields=["name"])

    def save_related(self, request, form, formsets, change):
        for formset in formsets:
            self.save_formset(request, form, formset, change=change)
        services.entry_set_managers(entry=form.instance, managers=form.cleaned_data["managers"], by=request.user)

    @admin.action(description=gettext_lazy("Record the entry fee as paid (the full fee due, 1.1 A)"))
    def record_fee_paid(self, request, queryset):
        for entry in queryset:
            try:
                services.entry_record_fee_paid(entry=entry, amount=entry.fee_due, by=request.user)
            except (ValidationError, PermissionDenied) as exc:
                _report(self, request, exc)

    @admin.action(description=gettext_lazy("Confirm the roster (R-04..R-06, eligibility 1.1)"))
    def confirm_roster(self, request, queryset):
        for entry in queryset:
            try:
                services.roster_confirm(entry=entry, by=request.user)
                self.message_user(request, _("%(team)s: roster confirmed.") % {"team": entry})
            except (ValidationError, PermissionDenied) as exc:
                _report(self, request, exc)


@admin.register(RosterEntry)
class RosterEntryAdmin(AccessAdmin):
    form = RosterEntryForm
    list_display = ["entry", "number", "person", "position", "captain", "alternate", "confirmed"]
    list_filter = ["entry__championship", "position", "confirmed"]
    search_fields = ["person__last_name", "person__first_name", "entry__name", "number"]
    list_select_related = ["entry", "person"]
    raw_id_fields = ["person"]
    readonly_fields = ["confirmed", "confirmed_at", "confirmed_by"]

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        changes = {name: data[name] for name in services.ROSTER_LINE_FIELDS}
        if not change:
            line = services.roster_add_player(entry=data["entry"], person=data["person"], **changes, by=request.user)
            obj.pk = line.pk
            return
        services.roster_update(roster_entry=obj, **changes, by=request.user)

    def has_delete_permission(self, request, obj=None):
        # 3.1.1 B: once the championship has begun, no removal is offered (roster_remove refuses it too).
        if obj is not None and services.championship_has_begun(obj.entry.championship):
            return False
        return super().has_delete_permission(request, obj)

    def delete_model(self, request, obj):
        services.roster_remove(roster_entry=obj, by=request.user)

    def delete_queryset(self, request, queryset):
        for line in queryset:
            try:
                services.roster_remove(roster_entry=line, by=request.user)
            except (ValidationError, PermissionDenied) as exc:
                _report(self, request, exc)


@admin.register(NumberChangeApproval)
class NumberChangeApprovalAdmin(AccessAdmin):
    form = NumberChangeApprovalForm
    list_display = ["roster_entry", "old_number", "new_number", "approved_by", "approved_at", "applied_at"]
    list_select_related = ["roster_entry__person", "approved_by"]
    raw_id_fields = ["roster_entry"]

    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request, obj)

    def save_model(self, request, obj, form, change):
        approval = services.number_change_approve(
            roster_entry=form.cleaned_data["roster_entry"],
            new_number=form.cleaned_data["new_number"],
            reason=form.cleaned_data["reason"],
            by=request.user,
        )
        obj.pk = approval.pk


class PoolTeamInline(admin.TabularInline):
    model = PoolTeam
    extra = 0

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)

        class CheckedForm(formset.form):
            def clean(self):
                cleaned = super().clean()
                if cleaned.get("DELETE") and obj is not None and obj.games.exists():
                    # The pool's games name its teams: removing one would orphan its results (9.3).
                    raise ValidationError(_("the pool's games are scheduled; its teams stay"))
                if cleaned.get("entry") and obj is not None and self.has_changed() and not cleaned.get("DELETE"):
                    try:
                        services.check_pool_entry(obj, cleaned["entry"])
                    except ValidationError as exc:
                        apply_errors(self, exc)
                return cleaned

        formset.form = CheckedForm
        return formset


@admin.register(Pool)
class PoolAdmin(AccessAdmin):
    list_display = ["name", "championship"]
    list_filter = ["championship"]
    list_select_related = ["championship"]
    inlines = [PoolTeamInline]


class GoalRecordInline(admin.TabularInline):
    model = GoalRecord
    form = GoalRecordForm
    extra = 0
    raw_id_fields = ["scorer", "assist"]

    def has_delete_permission(self, request, obj=None):
        # 5.5.11 B: a final score is its goal lines; they are corrected by an amendment (services.result_amend).
        return super().has_delete_permission(request, obj) and not (obj is not None and obj.is_final)


class PenaltyRecordInline(admin.TabularInline):
    model = PenaltyRecord
    form = PenaltyRecordForm
    extra = 0
    raw_id_fields = ["person"]


class GoalkeeperRecordInline(admin.TabularInline):
    model = GoalkeeperRecord
    form = GoalkeeperRecordForm
    extra = 0
    raw_id_fields = ["goalkeeper"]


@admin.register(Game)
class GameAdmin(AccessAdmin):
    form = GameForm
    list_display = ["number", "championship", "phase", "pool", "home", "away", "start_at", "rink", "status", "score"]
    list_filter = ["championship", "phase__kind", "pool", "status"]
    search_fields = ["home__name", "away__name", "bracket_slot", "number"]
    list_select_related = ["championship", "phase", "pool", "home", "away", "rink"]
    readonly_fields = ["championship", "phase", "pool", "number", "bracket_slot", "home", "away", "status"]
    fields = [*readonly_fields, *GameForm.Meta.fields]
    inlines = [GoalRecordInline, PenaltyRecordInline, GoalkeeperRecordInline]

    def has_add_permission(self, request):
        return False  # games come from the schedule and the bracket (services)

    @admin.display(description=gettext_lazy("Score"))
    def score(self, obj):
        if obj.home_goals is None:
            return "–"
        extra = f" ({obj.get_decided_in_display()})" if obj.decided_in and obj.decided_in != "regulation" else ""
        return f"{obj.home_goals}-{obj.away_goals}{extra}"

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        stored = Game.objects.get(pk=obj.pk)
        if {"start_at", "rink"} & set(form.changed_data) and stored.status == GameStatus.SCHEDULED:
            services.game_move(game=stored, start_at=data.get("start_at"), rink=data.get("rink"), by=request.user)
        if form.has_result() and stored.status == GameStatus.SCHEDULED:
            services.game_record_result(
                game=stored,
                home_goals=data.get("home_goals"),
                away_goals=data.get("away_goals"),
                decided_in=data.get("decided_in") or "regulation",
                forfeited_by=data.get("forfeited_by"),
                shootout_home_goals=data.get("shootout_home_goals"),
                shootout_away_goals=data.get("shootout_away_goals"),
                by=request.user,
            )
        obj.refresh_from_db()


@admin.register(ResultAmendment)
class ResultAmendmentAdmin(ReadOnlyAdmin):
    """Corrections of final results (who, when, why): made on the game's page or the API (services.result_amend)."""

    list_display = ["game", "amended_by", "amended_at", "reason"]
    list_select_related = ["game__home", "game__away", "amended_by"]
    list_filter = ["game__championship"]


@admin.register(Disqualification)
class DisqualificationAdmin(ReadOnlyAdmin):
    """8.1 C-D: recorded by the result service; the games and records stay, marked."""

    list_display = ["entry", "reason", "game", "at", "recorded_by"]
    list_select_related = ["entry", "game__home", "game__away", "recorded_by"]


class ShootoutPlaceInline(admin.TabularInline):
    model = StandingsShootoutPlace
    extra = 0
    can_delete = False
    readonly_fields = ["place", "entry"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(StandingsShootout)
class StandingsShootoutAdmin(ReadOnlyAdmin):
    """9.3 G: entered by staff through the standings service."""

    list_display = ["pool", "entered_by", "entered_at"]
    list_select_related = ["pool", "entered_by"]
    inlines = [ShootoutPlaceInline]
