"""Incident reports, confidential reports and their attachments, the committee's cases and decisions
(4.2 P, 6.1.5 A, 6.4.29 note, 7.1; R-53).

CONFIDENTIAL: the referee's report and the 6.4.29 reports are read by the discipline committee, the IHTC
executive and their author only (``discipline.access``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from federation.models import private_storage
from games.labels import period_clock
from portal.choices import ChoiceLabels

from .consequences import ConsequenceKind


class ReportStatus(models.TextChoices):
    OPEN = "open", _("Open")
    IN_CASE = "in_case", _("Gathered in a case")
    CLOSED = "closed", _("Closed by a decision")
    WITHDRAWN = "withdrawn", _("Withdrawn (the sheet's amendment removed its penalty)")


class IncidentReport(ChoiceLabels):
    """The report of a game consequence, made when the game becomes final (4.2 P, 6.1.5 A, R-53)."""

    consequence = models.OneToOneField(
        "discipline.GameConsequence", on_delete=models.PROTECT, related_name="incident_report"
    )
    game = models.ForeignKey("tournaments.Game", on_delete=models.PROTECT, related_name="incident_reports")
    entry = models.ForeignKey("tournaments.TeamEntry", on_delete=models.PROTECT, related_name="+")
    person = models.ForeignKey(
        "federation.Person", null=True, blank=True, on_delete=models.PROTECT, related_name="incident_reports"
    )
    kind = models.CharField(max_length=20, choices=ConsequenceKind.choices)
    period = models.PositiveSmallIntegerField()
    time_tenths = models.PositiveIntegerField()
    infraction = models.CharField(max_length=60, blank=True)
    article = models.CharField(max_length=40, blank=True)
    officials = models.TextField(blank=True, help_text="The game's officials when the report was made.")
    status = models.CharField(max_length=12, choices=ReportStatus.choices, default=ReportStatus.OPEN)
    case = models.ForeignKey(
        "discipline.Case", null=True, blank=True, on_delete=models.SET_NULL, related_name="incident_reports"
    )
    created_at = models.DateTimeField()
    history = HistoricalRecords()

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["status", "created_at"])]

    def __str__(self):
        return f"{self.game}: {self.get_kind_display()} ({self.article})"

    @property
    def clock(self) -> str:
        return period_clock(self.period, self.time_tenths)


class ConfidentialKind(models.TextChoices):
    REFEREE = "referee", _("Referee's report (4.2 P)")
    RULE_6_4_29 = "6.4.29", _("Confidential report (6.4.29 note)")


class ConfidentialReport(models.Model):
    """A confidential written report on a game: the referee's, or a 6.4.29 one by a game or team official."""

    game = models.ForeignKey("tournaments.Game", on_delete=models.PROTECT, related_name="confidential_reports")
    incident_report = models.ForeignKey(
        IncidentReport, null=True, blank=True, on_delete=models.PROTECT, related_name="confidential_reports"
    )
    kind = models.CharField(max_length=10, choices=ConfidentialKind.choices)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    text = models.TextField()
    filed_at = models.DateTimeField()
    history = HistoricalRecords()

    class Meta:
        ordering = ["filed_at", "pk"]

    def __str__(self):
        return f"{self.get_kind_display()}: {self.game}"


def attachment_path(instance, filename):
    import uuid

    return f"discipline/{uuid.uuid4().hex}"


class Attachment(models.Model):
    """A file of a confidential report or a case, validated by content and size (``federation.files``)."""

    report = models.ForeignKey(
        ConfidentialReport, null=True, blank=True, on_delete=models.CASCADE, related_name="attachments"
    )
    case = models.ForeignKey(
        "discipline.Case", null=True, blank=True, on_delete=models.CASCADE, related_name="attachments"
    )
    file = models.FileField(upload_to=attachment_path, storage=private_storage)
    content_type = models.CharField(max_length=40)
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    uploaded_at = models.DateTimeField()
    history = HistoricalRecords()

    class Meta:
        ordering = ["uploaded_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(report__isnull=False) | models.Q(case__isnull=False), name="attachment_has_owner"
            )
        ]

    def __str__(self):
        return f"Attachment {self.pk}"


class CaseStatus(models.TextChoices):
    OPEN = "open", _("Open")
    HEARING = "hearing", _("Hearing scheduled")
    DECIDED = "decided", _("Decided")


CASE_TRANSITIONS: dict[str, frozenset[str]] = {
    CaseStatus.OPEN: frozenset({CaseStatus.HEARING, CaseStatus.DECIDED}),
    CaseStatus.HEARING: frozenset({CaseStatus.HEARING, CaseStatus.DECIDED}),
    CaseStatus.DECIDED: frozenset(),
}


class Case(ChoiceLabels):
    """The committee's case: it gathers incident reports, statements and attachments, and ends in a decision."""

    title = models.CharField(max_length=200)
    # Issue 26: the default title the portal wrote ("Case: Protest #3 (Administrative) of Italy") as its message and
    # values, said in the reader's language (``shown_title``); ``title`` keeps it in English. Empty for a title the
    # committee typed.
    title_message = models.JSONField(null=True, blank=True, editable=False)
    championship = models.ForeignKey("tournaments.Championship", on_delete=models.PROTECT, related_name="cases")
    status = models.CharField(max_length=10, choices=CaseStatus.choices, default=CaseStatus.OPEN)
    hearing_at = models.DateTimeField(null=True, blank=True)
    opened_at = models.DateTimeField()
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    history = HistoricalRecords()

    class Meta:
        ordering = ["-opened_at", "pk"]

    def __str__(self):
        return self.shown_title

    @property
    def shown_title(self) -> str:
        """The title in the active language when the portal wrote it (``portal.i18n.stored``), else as typed. A
        message whose English is no longer the title (the title was changed since) is not said."""
        from common.text import from_data
        from portal.i18n import stored

        if self.title_message and str(from_data(self.title_message)) == self.title:
            return stored(self.title_message, self.title)
        return self.title

    @property
    def protest_ids(self) -> list[int]:
        """The ids of the protests the case gathers (9.1; R-53)."""
        return sorted(p.pk for p in self.protests.all())


class CaseTransition(models.Model):
    """Who moved a case from what to what, when and why."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="transitions")
    from_status = models.CharField(max_length=10, blank=True)
    to_status = models.CharField(max_length=10)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    why = models.TextField()
    # Issue 26: a reason the portal wrote (a hearing's default "hearing on ...") as its message and values, said in
    # the reader's language (``shown_why``); ``why`` keeps it in English. Empty for the committee's own words.
    why_message = models.JSONField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self):
        return f"{self.case_id}: {self.from_status or '-'} -> {self.to_status}"

    @property
    def from_label(self) -> str:
        """The status it left, as the case page names it ("Open"); empty for the case's opening."""
        return str(CaseStatus(self.from_status).label) if self.from_status in CaseStatus.values else self.from_status

    @property
    def to_label(self) -> str:
        """The status it entered, as the case page names it ("Hearing scheduled")."""
        return str(CaseStatus(self.to_status).label) if self.to_status in CaseStatus.values else self.to_status

    @property
    def shown_why(self) -> str:
        """The reason in the active language when the portal wrote it (``portal.i18n.stored``), else as written."""
        from portal.i18n import stored

        return stored(self.why_message, self.why)


class CaseStatement(models.Model):
    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="statements")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    text = models.TextField()
    made_at = models.DateTimeField()
    history = HistoricalRecords()

    class Meta:
        ordering = ["made_at", "pk"]

    def __str__(self):
        return f"Statement {self.pk} on case {self.case_id}"


class DecisionOutcome(models.TextChoices):
    NO_ACTION = "no_action", _("No action")
    SANCTIONS = "sanctions", _("Sanctions")


class Decision(ChoiceLabels):
    """The committee's decision on a case, with reasons; sanctions are its suspensions."""

    case = models.OneToOneField(Case, on_delete=models.PROTECT, related_name="decision")
    outcome = models.CharField(max_length=10, choices=DecisionOutcome.choices)
    reasons = models.TextField()
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    decided_at = models.DateTimeField()
    history = HistoricalRecords()

    def __str__(self):
        return f"{self.case}: {self.get_outcome_display()}"
