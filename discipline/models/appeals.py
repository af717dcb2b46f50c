"""Appeals (9.2 A; R-54, R-56): against a decision of the committee or the executive, or against the IHTC's
decision on a protest (9.1), to the IHTC General Assembly, then to the FIRS Congress, whose decision is final.
Each step: filer, grounds, fee if any, deadline (a ruleset parameter with no default: none when unset), decision.
An appeal is against exactly one of the two (``appeal_against_a_decision_or_a_protest``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from djmoney.models.fields import MoneyField
from simple_history.models import HistoricalRecords


class AppealLevel(models.TextChoices):
    GENERAL_ASSEMBLY = "general_assembly", _("IHTC General Assembly (9.2 A)")
    FIRS_CONGRESS = "firs_congress", _("FIRS Congress (9.2 A, final)")


class AppealStatus(models.TextChoices):
    FILED = "filed", _("Filed")
    UPHELD = "upheld", _("Upheld")
    DISMISSED = "dismissed", _("Dismissed")


class Appeal(models.Model):
    decision = models.ForeignKey(
        "discipline.Decision", null=True, blank=True, on_delete=models.PROTECT, related_name="appeals",
        help_text="The committee's decision appealed (R-54); empty for an appeal against a protest's decision.",
    )  # fmt: skip
    protest = models.ForeignKey(
        "discipline.Protest", null=True, blank=True, on_delete=models.PROTECT, related_name="appeals",
        help_text="The protest whose decision (9.1 A) is appealed (R-56); empty for an appeal against a case's.",
    )  # fmt: skip
    level = models.CharField(max_length=20, choices=AppealLevel.choices)
    previous = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="next_step",
        help_text="The General Assembly's appeal a Congress appeal follows.",
    )  # fmt: skip
    filer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    grounds = models.TextField()
    fee = MoneyField(max_digits=10, decimal_places=2, default_currency="USD", null=True, blank=True)
    filed_at = models.DateTimeField()
    deadline = models.DateTimeField(null=True, blank=True, help_text="None when the ruleset sets none (R-54).")
    status = models.CharField(max_length=10, choices=AppealStatus.choices, default=AppealStatus.FILED)
    reasons = models.TextField(blank=True, help_text="The decision's reasons.")
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["filed_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["decision", "level"], name="one_appeal_per_decision_and_level"),
            models.UniqueConstraint(fields=["protest", "level"], name="one_appeal_per_protest_and_level"),
            # a case's decision or a protest's decision, never both, never neither.
            models.CheckConstraint(
                condition=models.Q(decision__isnull=False, protest__isnull=True)
                | models.Q(decision__isnull=True, protest__isnull=False),
                name="appeal_against_a_decision_or_a_protest",
            ),
        ]

    def __str__(self):
        return f"{self.get_level_display()}: {self.appealed}"

    @property
    def appealed(self):
        """The decision appealed: the committee's ``Decision`` (R-54) or the decided ``Protest`` (R-56)."""
        return self.decision if self.decision_id is not None else self.protest

    @property
    def championship(self):
        """The championship of the decision appealed: its ruleset sets the deadlines, its venue the clock."""
        if self.decision_id is not None:
            return self.decision.case.championship
        return self.protest.game.championship
