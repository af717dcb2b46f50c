"""What final games hand over to the discipline module: their automatic consequences.

The discipline module proper (suspensions, 8.2) is a later issue; ``GameConsequence`` is what the finalized
games hand over to it (``discipline.services.receive_game_consequences``), kept so nothing is lost until then.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class ConsequenceKind(models.TextChoices):
    """Penalties that put a person out of the game and go to the discipline module (4.2 P, 6.1.5-6.1.7)."""

    GAME_MISCONDUCT = "game_misconduct", _("Game misconduct (6.1.5)")
    MATCH = "match", _("Match penalty (6.1.6)")
    GROSS_MISCONDUCT = "gross_misconduct", _("Gross misconduct (6.4.9 L)")
    GAME_EJECTION = "game_ejection", _("Game ejection (6.1.7)")


class GameConsequence(models.Model):
    """One automatic consequence of a final game, as the game sheet handed it over.

    ``penalty_id`` is the sheet's penalty (an automatic one: ``<id>/<article>``), so the same game finalized
    again (an amendment) hands the same consequence once; one the amendment removed is ``withdrawn_at``.
    """

    game = models.ForeignKey("tournaments.Game", on_delete=models.PROTECT, related_name="consequences")
    penalty_id = models.CharField(max_length=80, help_text="The penalty's id on the game sheet.")
    entry = models.ForeignKey("tournaments.TeamEntry", on_delete=models.PROTECT, related_name="+")
    person = models.ForeignKey(
        "federation.Person", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text="Empty for a bench penalty with no person identified.",
    )  # fmt: skip
    number = models.PositiveSmallIntegerField(null=True, blank=True, help_text="The jersey number on the sheet.")
    kind = models.CharField(max_length=20, choices=ConsequenceKind.choices)
    article = models.CharField(max_length=40, blank=True, help_text="The article that gave it.")
    infraction = models.CharField(max_length=60, blank=True, help_text="Annex C code, when one was given.")
    period = models.PositiveSmallIntegerField()
    time_tenths = models.PositiveIntegerField()
    received_at = models.DateTimeField()
    withdrawn_at = models.DateTimeField(null=True, blank=True, help_text="An amendment of the sheet removed it.")

    class Meta:
        ordering = ["game", "period", "time_tenths", "pk"]
        constraints = [models.UniqueConstraint(fields=["game", "penalty_id"], name="one_consequence_per_penalty")]

    def __str__(self):
        return f"{self.game}: {self.get_kind_display()} #{self.number}"
