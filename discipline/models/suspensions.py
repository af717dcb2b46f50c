"""Suspensions (8.2, 7.1; R-53): provisional ones from the consequences of final games, decided ones from the
discipline committee; the games served towards them. The arithmetic is ``discipline.suspension_rules``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from simple_history.models import HistoricalRecords

from discipline import suspension_rules as sr
from portal.choices import ChoiceLabels
from tournaments.venue_time import venue_stamp


class SuspensionKind(models.TextChoices):
    GAMES = sr.GAMES, pgettext_lazy("suspension kind", "Games")
    PERIOD = sr.PERIOD, _("Period of time")
    REST_OF_TOURNAMENT = sr.REST_OF_TOURNAMENT, _("Rest of the tournament")
    UNTIL_DECISION = sr.UNTIL_DECISION, _("Rest of the tournament until the committee decides")


class SuspensionStatus(models.TextChoices):
    ACTIVE = "active", _("In force")
    SERVED = "served", _("Served")
    ENDED = "ended", _("Ended (with the championship or its period)")
    REPLACED = "replaced", _("Replaced by the committee's decision")
    WITHDRAWN = "withdrawn", _("Withdrawn (the sheet's amendment removed its penalty)")
    ANNULLED = "annulled", _("Annulled on appeal (9.2 A)")


class Suspension(ChoiceLabels):
    """A person's suspension. It follows the person across teams and championships of ``sanctioning_body``."""

    person = models.ForeignKey("federation.Person", on_delete=models.PROTECT, related_name="suspensions")
    sanctioning_body = models.ForeignKey("federation.Federation", on_delete=models.PROTECT, related_name="+")
    championship = models.ForeignKey(
        "tournaments.Championship", on_delete=models.PROTECT, related_name="suspensions",
        help_text="Where it was imposed (the rest of the tournament is this championship's).",
    )  # fmt: skip
    entry = models.ForeignKey(
        "tournaments.TeamEntry", null=True, blank=True, on_delete=models.PROTECT, related_name="suspensions"
    )
    offence_game = models.ForeignKey(
        "tournaments.Game", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    consequence = models.ForeignKey(
        "discipline.GameConsequence", null=True, blank=True, on_delete=models.PROTECT, related_name="suspensions",
        help_text="The consequence that brought a provisional suspension.",
    )  # fmt: skip
    decision = models.ForeignKey(
        "discipline.Decision", null=True, blank=True, on_delete=models.PROTECT, related_name="suspensions"
    )
    provisional = models.BooleanField(default=False)
    kind = models.CharField(max_length=20, choices=SuspensionKind.choices)
    games_required = models.PositiveSmallIntegerField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True, help_text="A period's end.")
    article = models.CharField(max_length=20)
    reasons = models.TextField(blank=True)
    # Issue 26: reasons the portal wrote (a provisional suspension's, R-53) as their message and values, said in the
    # reader's language (``shown_reasons``); ``reasons`` keeps them in English. Empty for the committee's reasons
    # (its own words, never translated) and for older rows that could not be read back.
    reasons_message = models.JSONField(null=True, blank=True, editable=False)
    status = models.CharField(max_length=12, choices=SuspensionStatus.choices, default=SuspensionStatus.ACTIVE)
    imposed_at = models.DateTimeField()
    imposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-imposed_at", "pk"]
        indexes = [models.Index(fields=["person", "sanctioning_body", "status"])]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(kind="games") | models.Q(games_required__gte=1), name="suspension_games_count"
            ),
            models.CheckConstraint(
                condition=~models.Q(kind="period") | models.Q(ends_at__isnull=False), name="suspension_period_end"
            ),
        ]

    def __str__(self):
        return f"{self.person}: {self.describe()}"

    def describe(self) -> str:
        """The suspension as a refusal names it: "Rule 8.2 A: suspended for 1 game (0 served) since ..."."""
        if self.kind == SuspensionKind.GAMES:
            what = f"{self.games_required} game(s), {self.games_served} served"
        elif self.kind == SuspensionKind.PERIOD:
            what = f"until {venue_stamp(self.ends_at, self.championship)}"  # the venue's clock, as every page
        else:
            what = f"{self.get_kind_display().lower()} of {self.championship}"
        state = "provisional" if self.provisional else "decided"
        return f"Rule {self.article}: suspended ({state}) for {what}"

    @property
    def reasons_said(self) -> object:
        """The reasons as a ``common.text.Text`` when the portal wrote them, else the committee's words as written
        (``common.text.Words``: never translated, marked as theirs on a page)."""
        from common.text import Words, from_data

        return from_data(self.reasons_message) if self.reasons_message else Words(self.reasons)

    @property
    def shown_reasons(self) -> str:
        """The reasons in the active language (``portal.i18n.stored``)."""
        from portal.i18n import stored

        return stored(self.reasons_message, self.reasons)

    @property
    def games_served(self) -> int:
        annotated = getattr(self, "served_count", None)
        return annotated if annotated is not None else self.served_games.count()

    @property
    def offence_start(self):
        if hasattr(self, "offence_start_at"):  # annotated by the queries of discipline.suspensions
            return self.offence_start_at
        return self.offence_game.start_at if self.offence_game_id else None

    def terms(self) -> sr.Terms:
        return sr.Terms(
            kind=self.kind,
            championship_id=self.championship_id,
            offence_game_id=self.offence_game_id,
            offence_start_at=self.offence_start,
            games_required=self.games_required,
            ends_at=self.ends_at,
            games_served=self.games_served,
        )


class ServedGame(models.Model):
    """A final game the suspended person's team played, counted towards the suspension once."""

    suspension = models.ForeignKey(Suspension, on_delete=models.CASCADE, related_name="served_games")
    game = models.ForeignKey("tournaments.Game", on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey("tournaments.TeamEntry", on_delete=models.PROTECT, related_name="+")
    counted_at = models.DateTimeField()
    history = HistoricalRecords()

    class Meta:
        ordering = ["suspension", "counted_at"]
        constraints = [models.UniqueConstraint(fields=["suspension", "game"], name="one_served_game_per_suspension")]

    def __str__(self):
        return f"{self.suspension_id}: {self.game}"
