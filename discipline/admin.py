"""The discipline admin: protests (9.1), the committee's records (R-53), CONFIDENTIAL reports (4.2 P, 6.4.29),
suspensions (8.2) and appeals (9.2 A; R-54), read here only.

Every state change goes through the services (``discipline.protests``, ``cases``, ``suspensions``, ``appeals``)
from the portal's pages, which each record links to; nothing is added, changed, deleted or reverted here (a
revert would write around the services). Each list is scoped by the discipline access layer, as the rules
permissions of ``discipline/rules.py`` are: a record outside it is "no such object", its history included.
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy

from portal.admin import ReadOnlyAdmin

from . import access, suspensions
from .models import (
    Appeal,
    Attachment,
    Case,
    CaseStatement,
    CaseTransition,
    ConfidentialReport,
    Deadline,
    Decision,
    GameConsequence,
    IncidentReport,
    Protest,
    ProtestAttachment,
    ProtestTransition,
    ServedGame,
    Suspension,
)

PERSON_SEARCH = ["person__last_name", "person__first_name"]
GAME_TEAMS = ["game__home", "game__away"]


class DisciplineAdmin(ReadOnlyAdmin):
    """A read-only record of the discipline module, scoped by ``visible_to`` and linked to its portal page."""

    portal_route: str = ""
    portal_label: str = "Open on the portal"

    def visible_to(self, user) -> QuerySet:
        """Who may read which records: each admin below names it; by default nobody reads anything."""
        return self.model.objects.none()

    def portal_args(self, obj) -> list:
        return [obj.pk]

    def get_queryset(self, request):
        return self.visible_to(request.user).select_related(*self.list_select_related)

    def get_readonly_fields(self, request, obj=None):
        return [*super().get_readonly_fields(request, obj), "on_the_portal"]

    def revert_disabled(self, request, obj=None):
        return True  # a version restored here would bypass the services and their rules

    @admin.display(description=gettext_lazy("Portal page"))
    def on_the_portal(self, obj):
        args = self.portal_args(obj)
        if obj is None or obj.pk is None or None in args:
            return "–"
        return format_html('<a href="{}">{}</a>', reverse(self.portal_route, args=args), self.portal_label)


def _committee_only(model):
    """The committee's records (R-53): the committee, the executive, superusers."""
    return lambda user: model.objects.all() if access.is_committee(user) else model.objects.none()


def _of_visible_protests(model):
    return lambda user: model.objects.filter(protest__in=access.protests_visible_to(user).values("pk"))


# --- Protests (9.1; ): changed through discipline.protests on the protest's page ----------------------


class ProtestRecordAdmin(DisciplineAdmin):
    portal_route = "discipline:protest-detail"
    portal_label = "The protest's page (fee, review, decision)"

    def portal_args(self, obj):
        return [obj.protest_id]


@admin.register(Protest)
class ProtestAdmin(DisciplineAdmin):
    list_display = ["__str__", "game", "kind", "status", "filed_at", "fee_due", "fee_received", "fee_outcome"]
    list_filter = ["status", "kind", "game__championship"]
    search_fields = ["entry__name", "game__home__name", "game__away__name", "filed_by__username", "incident"]
    list_select_related = ["entry", *GAME_TEAMS, "game__championship"]
    date_hierarchy = "filed_at"
    portal_route = "discipline:protest-detail"
    portal_label = "The protest's page (fee, review, decision)"

    def visible_to(self, user):
        return access.protests_visible_to(user)

    def get_readonly_fields(self, request, obj=None):
        return [*super().get_readonly_fields(request, obj), "incident_said"]

    @admin.display(description=gettext_lazy("Incident (in your language)"))
    def incident_said(self, obj):
        """Issue 26: the stored incident said in the admin's language (``incident`` keeps the English)."""
        return obj.shown_incident if obj else "–"


@admin.register(ProtestTransition)
class ProtestTransitionAdmin(ProtestRecordAdmin):
    list_display = ["protest", "from_status", "to_status", "by", "at", "reason"]
    list_filter = ["to_status", "protest__game__championship"]
    search_fields = ["protest__entry__name", "by__username", "reason"]
    list_select_related = ["protest__entry", "by"]
    date_hierarchy = "at"
    visible_to = staticmethod(_of_visible_protests(ProtestTransition))


@admin.register(ProtestAttachment)
class ProtestAttachmentAdmin(ProtestRecordAdmin):
    list_display = ["protest", "name", "content_type", "uploaded_by", "uploaded_at"]
    list_filter = ["content_type", "protest__game__championship"]
    search_fields = ["protest__entry__name", "name", "uploaded_by__username"]
    list_select_related = ["protest__entry", "uploaded_by"]
    exclude = ["file"]  # downloaded from the protest's page, through its permission check
    visible_to = staticmethod(_of_visible_protests(ProtestAttachment))


@admin.register(Deadline)
class DeadlineAdmin(ProtestRecordAdmin):
    list_display = ["protest", "kind", "article", "anchor_at", "due_at", "status", "closed_at", "reminder_sent_at"]
    list_filter = ["status", "kind", "protest__game__championship"]
    search_fields = ["protest__entry__name", "article"]
    list_select_related = ["protest__entry"]
    date_hierarchy = "due_at"
    visible_to = staticmethod(_of_visible_protests(Deadline))


# --- The committee's records: changed through discipline.cases on the case's and the report's pages ---------


@admin.register(GameConsequence)
class GameConsequenceAdmin(DisciplineAdmin):
    """What a final game handed over (4.2 P, 6.1.5-6.1.7); its incident report is the committee's page."""

    list_display = ["game", "kind", "person", "entry", "number", "article", "received_at", "withdrawn_at"]
    list_filter = ["kind", "game__championship"]
    search_fields = [*PERSON_SEARCH, "entry__name"]
    list_select_related = [*GAME_TEAMS, "person", "entry", "incident_report"]
    date_hierarchy = "received_at"
    portal_route = "discipline:report"
    portal_label = "Its incident report"
    visible_to = staticmethod(_committee_only(GameConsequence))

    def portal_args(self, obj):
        report = getattr(obj, "incident_report", None)
        return [report.pk if report else None]


@admin.register(IncidentReport)
class IncidentReportAdmin(DisciplineAdmin):
    list_display = ["game", "entry", "person", "kind", "article", "status", "case", "created_at"]
    list_filter = ["status", "kind", "game__championship"]
    search_fields = [*PERSON_SEARCH, "entry__name", "article"]
    list_select_related = [*GAME_TEAMS, "entry", "person", "case"]
    date_hierarchy = "created_at"
    portal_route = "discipline:report"
    portal_label = "The report's page (open a case)"
    visible_to = staticmethod(_committee_only(IncidentReport))


@admin.register(Case)
class CaseAdmin(DisciplineAdmin):
    list_display = ["title", "championship", "status", "hearing_at", "opened_at", "opened_by"]
    list_filter = ["status", "championship"]
    search_fields = ["title", "incident_reports__person__last_name", "incident_reports__entry__name"]
    list_select_related = ["championship", "opened_by"]
    date_hierarchy = "opened_at"
    portal_route = "discipline:case"
    portal_label = "The case's page (hearing, statements, decision)"
    visible_to = staticmethod(_committee_only(Case))


class CaseRecordAdmin(DisciplineAdmin):
    portal_route = "discipline:case"
    portal_label = "The case's page"

    def portal_args(self, obj):
        return [obj.case_id]


@admin.register(CaseTransition)
class CaseTransitionAdmin(CaseRecordAdmin):
    list_display = ["case", "from_status", "to_status", "by", "at", "why"]
    list_filter = ["to_status", "case__championship"]
    search_fields = ["case__title", "by__username", "why"]
    list_select_related = ["case", "by"]
    date_hierarchy = "at"
    visible_to = staticmethod(_committee_only(CaseTransition))


@admin.register(CaseStatement)
class CaseStatementAdmin(CaseRecordAdmin):
    list_display = ["case", "author", "made_at"]
    list_filter = ["case__championship"]
    search_fields = ["case__title", "author__username", "text"]
    list_select_related = ["case", "author"]
    date_hierarchy = "made_at"
    visible_to = staticmethod(_committee_only(CaseStatement))


@admin.register(Decision)
class DecisionAdmin(CaseRecordAdmin):
    list_display = ["case", "outcome", "decided_by", "decided_at"]
    list_filter = ["outcome", "case__championship"]
    search_fields = ["case__title", "reasons", "case__incident_reports__person__last_name"]
    list_select_related = ["case", "decided_by"]
    date_hierarchy = "decided_at"
    portal_label = "The case's page (its appeals)"
    visible_to = staticmethod(_committee_only(Decision))


# --- CONFIDENTIAL (4.2 P, 6.4.29 note): the committee, the executive and the author (if admin staff) ------------


@admin.register(ConfidentialReport)
class ConfidentialReportAdmin(DisciplineAdmin):
    list_display = ["game", "kind", "author", "filed_at"]
    list_filter = ["kind", "game__championship"]
    search_fields = ["author__username", "game__home__name", "game__away__name"]
    list_select_related = [*GAME_TEAMS, "author"]
    date_hierarchy = "filed_at"
    portal_route = "discipline:confidential"
    portal_label = "The report's page"

    def visible_to(self, user):
        return access.confidential_reports_visible_to(user)


@admin.register(Attachment)
class AttachmentAdmin(DisciplineAdmin):
    """A file of a confidential report or of a case: downloaded through ``discipline:attachment`` (its audience)."""

    list_display = ["__str__", "report", "case", "content_type", "uploaded_by", "uploaded_at"]
    list_filter = ["content_type"]
    search_fields = ["uploaded_by__username", "case__title"]
    list_select_related = ["report__game__home", "report__game__away", "case", "uploaded_by"]
    exclude = ["file"]
    portal_route = "discipline:attachment"
    portal_label = "Download (checked again)"

    def visible_to(self, user):
        return access.attachments_visible_to(user)


# --- Suspensions (8.2): imposed and closed by discipline.suspensions and discipline.cases -----------------------


@admin.register(Suspension)
class SuspensionAdmin(DisciplineAdmin):
    list_display = [
        "person", "kind", "games_required", "games_served", "ends_at", "status", "provisional", "championship",
        "entry", "article", "imposed_at",
    ]  # fmt: skip
    list_filter = ["status", "kind", "provisional", "championship"]
    search_fields = [*PERSON_SEARCH, "entry__name", "article"]
    list_select_related = ["person", "championship", "entry"]
    date_hierarchy = "imposed_at"
    portal_route = "discipline:championship-suspensions"
    portal_label = "The championship's suspensions"

    def visible_to(self, user):
        return suspensions.suspensions_visible_to(user).annotate(served_count=Count("served_games"))

    def portal_args(self, obj):
        return [obj.championship_id]

    @admin.display(description=gettext_lazy("Games served"))
    def games_served(self, obj):
        return obj.games_served

    def get_readonly_fields(self, request, obj=None):
        return [*super().get_readonly_fields(request, obj), "reasons_said"]

    @admin.display(description=gettext_lazy("Reasons (in your language)"))
    def reasons_said(self, obj):
        """Issue 26: the reasons the portal wrote said in the admin's language; the committee's as written."""
        return obj.shown_reasons if obj else "–"


@admin.register(ServedGame)
class ServedGameAdmin(DisciplineAdmin):
    list_display = ["person", "suspension_id", "game", "entry", "counted_at"]
    list_filter = ["suspension__championship"]
    search_fields = ["suspension__person__last_name", "suspension__person__first_name", "entry__name"]
    list_select_related = ["suspension__person", *GAME_TEAMS, "entry"]
    date_hierarchy = "counted_at"
    portal_route = "discipline:championship-suspensions"
    portal_label = "The championship's suspensions"

    def visible_to(self, user):
        return ServedGame.objects.filter(suspension__in=suspensions.suspensions_visible_to(user).values("pk"))

    def portal_args(self, obj):
        return [obj.suspension.championship_id]

    @admin.display(description=gettext_lazy("Person"), ordering="suspension__person__last_name")
    def person(self, obj):
        return obj.suspension.person


# --- Appeals (9.2 A; ): lodged and decided through discipline.appeals on the appeal pages ---------------------


@admin.register(Appeal)
class AppealAdmin(DisciplineAdmin):
    list_display = ["decision", "protest", "level", "status", "filer", "fee", "filed_at", "deadline", "decided_at"]
    list_filter = ["level", "status", "decision__case__championship", "protest__game__championship"]
    search_fields = [
        "decision__case__title",
        "filer__username",
        "grounds",
        "decision__case__incident_reports__person__last_name",
        "protest__entry__name",
    ]
    list_select_related = ["decision__case", "protest__entry", "filer"]
    date_hierarchy = "filed_at"
    portal_route = "discipline:appeal"
    portal_label = "The appeal's page (its decision)"

    def visible_to(self, user):
        return access.appeals_visible_to(user)
