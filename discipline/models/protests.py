"""Protests with their fee, deadlines and audited workflow (9.1; R-50 to R-52).

A ``Protest`` is filed by a team manager of the protesting entry about one game and one incident as the game's
records hold it; its ``Deadline`` rows (the written protest with its fee, the opposing team's answer) are
anchored on recorded server times and swept by Celery (``discipline.tasks``). Every change of status is one
``ProtestTransition`` row (who, when, from, to, why) besides the simple-history rows of the protest itself.
The rules are enforced by ``discipline.protests``; these are the records.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from djmoney.models.fields import MoneyField
from simple_history.models import HistoricalRecords

from federation.models import private_storage
from portal.choices import ChoiceLabels


class ProtestKind(models.TextChoices):
    ADMINISTRATIVE = "administrative", _("Administrative: rink, equipment, unqualified players (9.1 B)")
    RULING = "ruling", _("Against a referee's ruling (9.1 A, D)")
    FEDERATION = "federation", _("A federation's protest about an incident (9.1 C)")


class ProtestStatus(models.TextChoices):
    FILED = "filed", _("Filed")
    UNDER_REVIEW = "under_review", _("Under review")
    UPHELD = "upheld", _("Upheld")
    REJECTED = "rejected", _("Rejected")
    LAPSED = "lapsed", _("Lapsed")
    WITHDRAWN = "withdrawn", _("Withdrawn")


CLOSED_STATUSES = (ProtestStatus.UPHELD, ProtestStatus.REJECTED, ProtestStatus.LAPSED, ProtestStatus.WITHDRAWN)


class FeeMethod(models.TextChoices):
    CASH = "cash", _("Cash at the venue")
    TRANSFER = "transfer", _("Bank transfer")


class FeeOutcome(models.TextChoices):
    NONE = "", _("Not decided")
    RETURNED = "returned", _("Returned (protest upheld, 9.1 A)")
    FORFEITED = "forfeited", _("Forfeited (protest unjustified, 9.1 A)")


class Protest(ChoiceLabels):
    """One written protest about one game (9.1)."""

    kind = models.CharField(max_length=16, choices=ProtestKind.choices)
    game = models.ForeignKey("tournaments.Game", on_delete=models.PROTECT, related_name="protests")
    entry = models.ForeignKey(
        "tournaments.TeamEntry", on_delete=models.PROTECT, related_name="protests", help_text="The protesting team."
    )
    # The incident as the game's records hold it: the protest mark made before the start (administrative, 9.1 B)
    # or the sheet event (the on-rink protest for a ruling, R-50; the incident for a federation's protest).
    protest_mark = models.ForeignKey(
        "games.GameProtestMark", null=True, blank=True, on_delete=models.PROTECT, related_name="protests"
    )
    incident_event_id = models.UUIDField(null=True, blank=True, help_text="The sheet event of the incident.")
    incident = models.CharField(max_length=300, help_text="The incident as recorded (period, time, what).")
    # Issue 26: the incident in every language (``portal.i18n.in_every_language``), shown in the reader's
    # (``shown_incident``); ``incident`` keeps it in English. Empty for a protest filed before.
    incident_message = models.JSONField(null=True, blank=True, editable=False)
    incident_at = models.DateTimeField(help_text="Server time of the anchoring event (game end or incident).")
    statement = models.TextField(blank=True, help_text="The written protest (9.1: it must be written).")
    filed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    filed_at = models.DateTimeField()
    status = models.CharField(max_length=16, choices=ProtestStatus.choices, default=ProtestStatus.FILED)
    # The fee (9.1 A, R-52): US$200 or the equivalent; none for a federation's protest (9.1 C).
    fee_due = MoneyField(max_digits=10, decimal_places=2, default_currency="USD", null=True, blank=True)
    fee_received = MoneyField(max_digits=10, decimal_places=2, default_currency="USD", null=True, blank=True)
    fee_method = models.CharField(max_length=8, choices=FeeMethod.choices, blank=True)
    fee_received_at = models.DateTimeField(null=True, blank=True)
    fee_received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    fee_outcome = models.CharField(max_length=10, choices=FeeOutcome.choices, blank=True, default="")
    # The opposing team's written answer.
    answer = models.TextField(blank=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True)
    # The committee's case that gathers it, if any: a protest can be what a case is about (9.1 C).
    case = models.ForeignKey(
        "discipline.Case", null=True, blank=True, on_delete=models.SET_NULL, related_name="protests"
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["-filed_at", "-pk"]
        indexes = [models.Index(fields=["status", "filed_at"])]

    def __str__(self):
        return f"Protest #{self.pk} ({self.get_kind_display().split(':')[0].split(' (')[0]}) of {self.entry}"

    @property
    def shown_incident(self) -> str:
        """The incident in the active language (``portal.i18n.stored``); as recorded for an older protest."""
        from portal.i18n import stored

        return stored(self.incident_message, self.incident)

    @property
    def opponent(self):
        """The other team of the game."""
        return self.game.away if self.entry_id == self.game.home_id else self.game.home

    @property
    def fee_is_in(self) -> bool:
        return self.fee_due is None or self.fee_received is not None


class ProtestTransition(models.Model):
    """One change of a protest's status: who (none: the system, at a deadline), when, from, to, why."""

    protest = models.ForeignKey(Protest, on_delete=models.CASCADE, related_name="transitions")
    from_status = models.CharField(max_length=16, choices=ProtestStatus.choices, blank=True)
    to_status = models.CharField(max_length=16, choices=ProtestStatus.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    reason = models.TextField(blank=True)
    # Issue 26: a reason the portal wrote (a lapse's) as its message, said in the reader's language
    # (``shown_reason``); a person's reason is kept as written (empty here).
    reason_message = models.JSONField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["protest", "at", "pk"]

    def __str__(self):
        return f"{self.protest}: {self.from_status or '-'} -> {self.to_status}"

    @property
    def shown_reason(self) -> str:
        from portal.i18n import stored

        return stored(self.reason_message, self.reason)


def attachment_path(instance: ProtestAttachment, filename: str) -> str:
    return f"protests/{instance.protest_id or 'new'}/{uuid.uuid4().hex}"


class ProtestAttachment(models.Model):
    """A file supporting a protest or its answer: JPEG, PNG or PDF by content, at most 5 MB, stored privately."""

    protest = models.ForeignKey(Protest, on_delete=models.CASCADE, related_name="attachments")
    file = models.FileField(upload_to=attachment_path, storage=private_storage)
    content_type = models.CharField(max_length=40)
    name = models.CharField(max_length=120, help_text="The uploaded file's name, shown only.")
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    uploaded_at = models.DateTimeField()
    history = HistoricalRecords()

    class Meta:
        ordering = ["protest", "uploaded_at", "pk"]

    def __str__(self):
        return f"{self.protest}: {self.name}"


class DeadlineKind(models.TextChoices):
    PROTEST = "protest", _("Written protest (with its fee)")
    ANSWER = "answer", _("Opposing team's answer")


class DeadlineStatus(models.TextChoices):
    OPEN = "open", _("Open")
    MET = "met", _("Met")
    LAPSED = "lapsed", _("Lapsed")
    PASSED = "passed", _("Passed")
    CANCELLED = "cancelled", _("Cancelled")


class Deadline(models.Model):
    """One deadline of a protest, in the database so the beat sweep finds it whatever happened to the workers.

    ``anchor_at`` is a recorded server time (the game's end or the incident as the sheet received it, or the
    filing); ``due_at`` = anchor + the ruleset's window, both UTC. The sweep compares ``due_at`` with the
    database's clock. ``reminder_sent_at`` records the reminder sent before the due time (once).
    """

    protest = models.ForeignKey(Protest, on_delete=models.CASCADE, related_name="deadlines")
    kind = models.CharField(max_length=8, choices=DeadlineKind.choices)
    article = models.CharField(max_length=80)
    anchor_at = models.DateTimeField()
    due_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=DeadlineStatus.choices, default=DeadlineStatus.OPEN)
    closed_at = models.DateTimeField(null=True, blank=True)
    reminder_sent_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["due_at", "pk"]
        indexes = [models.Index(fields=["status", "due_at"])]
        constraints = [models.UniqueConstraint(fields=["protest", "kind"], name="one_deadline_per_protest_and_kind")]

    def __str__(self):
        return f"{self.protest}: {self.get_kind_display()} by {self.due_at:%Y-%m-%d %H:%M} UTC ({self.article})"

    @property
    def article_said(self) -> str:
        """The article as the reader reads it: an article ("9.1 B") is the same in every language; the answer's
        ("9.1 A (the opposing team is informed); R-51 answer time", ``deadlines.ANSWER_ARTICLE``) says why."""
        return gettext(self.article) if self.article else ""
