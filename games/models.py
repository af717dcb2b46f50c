"""The games app's records. The schedule's ``tournaments.Game`` is the game; everything here belongs to it.

State changes go through ``games.services``; the rules live there and in the pure cores they call
(``tournaments.rosters`` for line-ups, ``games.engine`` for the start of play).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from simple_history.models import HistoricalRecords

from tournaments.models import Position

# --- Officials of a game (4.1-4.6) ----------------------------------------------------------------------------------


class OfficialDuty(models.TextChoices):
    """What an official does in one game (4.1 A-B, 4.3-4.6)."""

    REFEREE = "referee", "Referee (4.2)"
    TIMEKEEPER = "timekeeper", "Game timekeeper (4.4)"
    PENALTY_TIMEKEEPER = "penalty_timekeeper", "Penalty timekeeper (4.5)"
    SCORER = "scorer", "Official scorer (4.3)"
    GOAL_JUDGE = "goal_judge", "Goal judge (4.6)"


# How many officials of each duty a game has (4.1 A: two referees; 4.1 B: one timekeeper, scorer and penalty
# timekeeper; 4.6 C: a goal judge behind each goal). Checked by games.services.check_official_assignment.
DUTY_LIMITS: dict[str, int] = {
    OfficialDuty.REFEREE: 2,
    OfficialDuty.TIMEKEEPER: 1,
    OfficialDuty.PENALTY_TIMEKEEPER: 1,
    OfficialDuty.SCORER: 1,
    OfficialDuty.GOAL_JUDGE: 2,
}


class GameOfficial(models.Model):
    """One official's duty in one game. Referees are listed in order: the first is the lead (4.2 C)."""

    game = models.ForeignKey("tournaments.Game", on_delete=models.CASCADE, related_name="officials")
    person = models.ForeignKey("federation.Person", on_delete=models.PROTECT, related_name="game_assignments")
    duty = models.CharField(max_length=24, choices=OfficialDuty.choices)
    position = models.PositiveSmallIntegerField(default=1, help_text="Order within the duty; referee 1 is the lead.")
    assigned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    assigned_at = models.DateTimeField()
    history = HistoricalRecords()

    class Meta:
        ordering = ["game", "duty", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "duty", "position"], name="one_official_per_duty_position"),
            models.UniqueConstraint(fields=["game", "duty", "person"], name="one_duty_per_official"),
            models.CheckConstraint(condition=models.Q(position__gte=1), name="official_position_from_one"),
        ]
        indexes = [models.Index(fields=["person", "game"])]

    def __str__(self):
        lead = " (lead)" if self.is_lead else ""
        return f"{self.game}: {self.get_duty_display()}{lead} {self.person}"

    @property
    def is_lead(self) -> bool:
        """4.2 C: the first referee listed is the Lead Referee."""
        return self.duty == OfficialDuty.REFEREE and self.position == 1


class OfficialAccount(models.Model):
    """The portal login of a registered game official: their "My games" page shows their assignments.

    A person and a login are otherwise unrelated in the portal; this link is made by those who keep the
    accounts (games.services.official_account_link).
    """

    person = models.OneToOneField("federation.Person", on_delete=models.CASCADE, related_name="official_account")
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="official_account")
    history = HistoricalRecords()

    class Meta:
        ordering = ["person"]

    def __str__(self):
        return f"{self.person} → {self.user}"


# --- Line-ups (5.1, 5.3, 5.4 F; R-07) -----------------------------------------------------------------------------


class Lineup(models.Model):
    """A team's list for one game (5.1 A), given to the official scorer before the start (4.3)."""

    game = models.ForeignKey("tournaments.Game", on_delete=models.CASCADE, related_name="lineups")
    entry = models.ForeignKey("tournaments.TeamEntry", on_delete=models.PROTECT, related_name="lineups")
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_at = models.DateTimeField()
    history = HistoricalRecords()

    class Meta:
        ordering = ["game", "entry"]
        constraints = [models.UniqueConstraint(fields=["game", "entry"], name="one_lineup_per_team_and_game")]

    def __str__(self):
        return f"{self.game}: {self.entry}"


class LineupPlayer(models.Model):
    """A player or goalkeeper on a line-up, with the number and position of the registered roster (5.1 B)."""

    lineup = models.ForeignKey(Lineup, on_delete=models.CASCADE, related_name="players")
    person = models.ForeignKey("federation.Person", on_delete=models.PROTECT, related_name="lineup_lines")
    number = models.CharField(max_length=3)
    position = models.CharField(max_length=10, choices=Position.choices)
    captain = models.BooleanField(default=False)
    alternate = models.BooleanField("alternate captain", default=False)
    starting = models.BooleanField(default=False, help_text="On the starting line-up (5.3 A).")
    # 5.1 C: an injured or ill goalkeeper replaced after the start by a player already on the list.
    injured_at = models.DateTimeField(null=True, blank=True, help_text="5.1 C: when this goalkeeper was replaced.")
    replaces = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="replaced_by",
        help_text="5.1 C: the injured or ill goalkeeper this player replaced in goal.",
    )  # fmt: skip
    history = HistoricalRecords()

    class Meta:
        ordering = ["lineup", "position", "number"]
        constraints = [
            models.UniqueConstraint(fields=["lineup", "person"], name="unique_person_per_lineup"),
            models.UniqueConstraint(fields=["lineup", "number"], name="unique_number_per_lineup"),
            models.CheckConstraint(
                condition=~models.Q(captain=True, alternate=True), name="lineup_captain_or_alternate"
            ),
        ]

    def __str__(self):
        return f"#{self.number} {self.person}"


class LineupOfficial(models.Model):
    """A non-playing team official on the bench (5.4 F: at most five)."""

    lineup = models.ForeignKey(Lineup, on_delete=models.CASCADE, related_name="bench_officials")
    team_official = models.ForeignKey("tournaments.TeamOfficial", on_delete=models.PROTECT, related_name="+")
    person = models.ForeignKey("federation.Person", on_delete=models.PROTECT, related_name="+")
    history = HistoricalRecords()

    class Meta:
        ordering = ["lineup", "team_official__role"]
        constraints = [models.UniqueConstraint(fields=["lineup", "person"], name="unique_bench_official")]

    def __str__(self):
        return f"{self.team_official}"
