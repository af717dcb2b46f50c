"""Championships, venues, entries, rosters, pools, games and their summaries.

Models persist; the rules live in the pure cores beside them (``rinks``,
``rosters``, ``standings``, ``scheduling``, ``statistics``, ``ruleset``) and
state changes go through ``tournaments.services``.
"""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField
from djmoney.models.fields import MoneyField
from simple_history.models import HistoricalRecords

from federation.eligibility import Category
from portal.choices import ChoiceLabels
from portal.countries import team_display_name


def validate_time_zone(value: str) -> None:
    """Accept only an IANA time zone name that zoneinfo knows (e.g. "Europe/Rome")."""
    if value not in zoneinfo.available_timezones():
        raise ValidationError(
            gettext("%(value)s is not an IANA time zone name (e.g. Europe/Rome).") % {"value": repr(value)},
            code="invalid",
        )


class Level(models.TextChoices):
    """The level of a championship; 2.1 C sets the minimum rink size for each."""

    WORLD = "world", _("World / international")
    CONTINENTAL = "continental", _("Continental")
    NATIONAL = "national", _("National")


CATEGORY_CHOICES = [(c.value, c.label) for c in Category]


class StandingsPreset(models.TextChoices):
    """Keys of ``tournaments.standings.PRESETS``."""

    FIRS_2017 = "firs-2017", _("FIRS 2017 (9.3)")
    HISTORIC_GOAL_DIFFERENCE = "historic-goal-difference", _("Historic: goal difference first")
    IIHF = "iihf", _("IIHF: 3/2/1/0 with overtime and shoot-out")


class Surface(models.TextChoices):
    """2.1 A: sport tile, wood, asphalt or cement, or a surface the IHTC approved."""

    SPORT_TILE = "sport_tile", _("Sport tile")
    WOOD = "wood", _("Wood")
    ASPHALT = "asphalt", _("Asphalt")
    CEMENT = "cement", _("Cement")
    OTHER = "other", _("Other (needs the IHTC's approval)")


class Venue(models.Model):
    name = models.CharField(max_length=200)
    city = models.CharField(max_length=100)
    country = CountryField()
    time_zone = models.CharField(
        max_length=64,
        validators=[validate_time_zone],
        help_text="IANA name, e.g. Europe/Rome. Times are stored in UTC and shown in this zone.",
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["name", "city"], name="unique_venue_name_city")]

    def __str__(self):
        return f"{self.name}, {self.city}"

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.time_zone)


class Rink(models.Model):
    """A playing surface of a venue (2.1); its dimensions are published with the championship (2.1 F)."""

    venue = models.ForeignKey(Venue, on_delete=models.CASCADE, related_name="rinks")
    name = models.CharField(max_length=100)
    surface = models.CharField(max_length=20, choices=Surface.choices)
    surface_approved_by_ihtc = models.BooleanField(default=False, help_text="Rule 2.1 A: for any other surface.")
    length_m = models.DecimalField(max_digits=5, decimal_places=2)
    width_m = models.DecimalField(max_digits=5, decimal_places=2)
    board_height_m = models.DecimalField(max_digits=4, decimal_places=3, null=True, blank=True)
    corner_radius_m = models.DecimalField(max_digits=4, decimal_places=2, null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["venue__name", "name"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "name"], name="unique_rink_name_per_venue"),
            models.CheckConstraint(condition=models.Q(length_m__gt=0, width_m__gt=0), name="rink_positive_size"),
        ]

    def __str__(self):
        return f"{self.venue.name} – {self.name}"


class Championship(ChoiceLabels):
    name = models.CharField(max_length=200)
    category = models.CharField(max_length=20, choices=CATEGORY_CHOICES)
    level = models.CharField(max_length=16, choices=Level.choices)
    start_date = models.DateField()
    end_date = models.DateField()
    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="championships")
    entry_closing_date = models.DateField(help_text=_("Rule 1.1 A: entries are confirmed before this date."))
    entry_fee = MoneyField(max_digits=10, decimal_places=2, default_currency="USD")
    sanctioning_body = models.ForeignKey(
        "federation.Federation", on_delete=models.PROTECT, related_name="sanctioned_championships"
    )
    ruleset = models.JSONField(
        default=dict,
        blank=True,
        help_text="Ruleset parameters (rules-interpretation.md); missing keys take the defaults. "
        "Frozen once the championship has begun.",
    )
    standings_preset = models.CharField(
        max_length=32, choices=StandingsPreset.choices, default=StandingsPreset.FIRS_2017
    )
    published = models.BooleanField(
        default=False,
        help_text="A draft (not published) is seen by its directors only; publishing shows it, its teams, "
        "rosters, schedule and results to everyone (services.championship_publish).",
    )
    # The version of what the public pages show (tournaments.versions): every service that changes a result, the
    # schedule, a roster, the pools or the set-up adds one in its transaction; the cached pages are keyed by it.
    data_version = models.PositiveIntegerField(default=0, editable=False)
    history = HistoricalRecords(excluded_fields=["data_version"])

    class Meta:
        ordering = ["-start_date", "name"]
        indexes = [models.Index(fields=["start_date"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(end_date__gte=models.F("start_date")),
                name="championship_dates",
                violation_error_message="The championship ends on or after its first day.",
            ),
            models.CheckConstraint(
                condition=models.Q(entry_closing_date__lte=models.F("start_date")),
                name="championship_entries_close_before_start",
                violation_error_message="Rule 1.1 A: entries close before the championship starts.",
            ),
        ]

    def __str__(self):
        return self.name


class EntryStatus(models.TextChoices):
    ENTERED = "entered", _("Entered (fee not yet paid)")
    CONFIRMED = "confirmed", _("Confirmed (fee paid)")
    WITHDRAWN = "withdrawn", _("Withdrawn")
    DISQUALIFIED = "disqualified", _("Disqualified")


# The allowed status changes of an entry, in one place (services check against it).
ENTRY_TRANSITIONS: dict[str, frozenset[str]] = {
    EntryStatus.ENTERED: frozenset({EntryStatus.CONFIRMED, EntryStatus.WITHDRAWN}),
    EntryStatus.CONFIRMED: frozenset({EntryStatus.WITHDRAWN, EntryStatus.DISQUALIFIED}),
    EntryStatus.WITHDRAWN: frozenset(),
    EntryStatus.DISQUALIFIED: frozenset(),
}


class TeamEntry(ChoiceLabels):
    """A national team entered by its federation (1.1 A)."""

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="entries")
    federation = models.ForeignKey("federation.Federation", on_delete=models.PROTECT, related_name="team_entries")
    name = models.CharField(max_length=200)
    status = models.CharField(max_length=16, choices=EntryStatus.choices, default=EntryStatus.ENTERED)
    fee_due = MoneyField(max_digits=10, decimal_places=2, default_currency="USD")
    fee_paid = models.BooleanField(default=False)
    fee_paid_amount = MoneyField(max_digits=10, decimal_places=2, default_currency="USD", null=True, blank=True)
    fee_paid_at = models.DateTimeField(null=True, blank=True)
    managers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="managed_entries")
    entered_at = models.DateTimeField()
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    history = HistoricalRecords(m2m_fields=[managers])

    class Meta:
        ordering = ["championship", "name"]
        verbose_name_plural = "team entries"
        constraints = [
            models.UniqueConstraint(fields=["championship", "federation"], name="one_entry_per_federation"),
            models.UniqueConstraint(fields=["championship", "name"], name="unique_entry_name"),
            models.CheckConstraint(
                condition=models.Q(fee_paid=False) | models.Q(fee_paid_at__isnull=False),
                name="entry_fee_paid_has_date",
            ),
        ]
        indexes = [models.Index(fields=["championship", "status"])]

    def __str__(self):
        return self.display_name

    @property
    def display_name(self) -> str:
        """The team's name as shown in the active language: its country's name when it is entered under one
        ("Italia" on a Spanish page), else the name it was entered under (``portal.countries``)."""
        return team_display_name(self.name)

    @property
    def is_disqualified(self) -> bool:
        return self.status == EntryStatus.DISQUALIFIED


class Position(models.TextChoices):
    PLAYER = "player", _("Floor player")
    GOALKEEPER = "goalkeeper", _("Goalkeeper")


class RosterEntry(ChoiceLabels):
    """A player or goalkeeper on a team's roster (3.1.1, 3.1.2, 3.2.9; R-04..R-06)."""

    entry = models.ForeignKey(TeamEntry, on_delete=models.CASCADE, related_name="roster")
    person = models.ForeignKey("federation.Person", on_delete=models.PROTECT, related_name="roster_entries")
    # Kept as typed, so that "07" can be refused (3.2.9 C) rather than silently becoming 7.
    number = models.CharField(max_length=3)
    position = models.CharField(max_length=10, choices=Position.choices, default=Position.PLAYER)
    captain = models.BooleanField(default=False)
    alternate = models.BooleanField("alternate captain", default=False)
    confirmed = models.BooleanField(default=False, help_text="Registered: number changes need IHTC approval (3.2.9 D).")
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["entry", "position", "number"]
        verbose_name_plural = "roster entries"
        constraints = [
            models.UniqueConstraint(fields=["entry", "person"], name="unique_person_per_roster"),
            models.UniqueConstraint(fields=["entry", "number"], name="unique_number_per_roster"),
            models.CheckConstraint(condition=~models.Q(captain=True, alternate=True), name="captain_or_alternate"),
        ]

    def __str__(self):
        return f"#{self.number} {self.person}"


class OfficialRole(models.TextChoices):
    MANAGER = "manager", _("Team manager")
    COACH = "coach", _("Coach")
    ASSISTANT_COACH = "assistant_coach", _("Assistant coach")
    TRAINER = "trainer", _("Trainer")
    OTHER = "other", _("Other")


# An invitation's target kind naming a team entry (``accounts.hooks.INVITATION_TARGETS``; issue 25).
TEAM_ENTRY_TARGET = "team_entry"


class TeamOfficial(models.Model):
    """A non-playing team official (Terminology: Team Official; 5.4 F limits the bench to five)."""

    entry = models.ForeignKey(TeamEntry, on_delete=models.CASCADE, related_name="officials")
    person = models.ForeignKey("federation.Person", on_delete=models.PROTECT, related_name="team_official_roles")
    role = models.CharField(max_length=20, choices=OfficialRole.choices)
    history = HistoricalRecords()

    class Meta:
        ordering = ["entry", "role"]
        constraints = [models.UniqueConstraint(fields=["entry", "person", "role"], name="unique_team_official")]

    def __str__(self):
        return f"{self.person} ({self.get_role_display()})"


class NumberChangeApproval(models.Model):
    """The IHTC's written approval of a jersey number change after registration (3.2.9 D, R-05)."""

    roster_entry = models.ForeignKey(RosterEntry, on_delete=models.CASCADE, related_name="number_change_approvals")
    old_number = models.CharField(max_length=3)
    new_number = models.CharField(max_length=3)
    reason = models.TextField()
    approved_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    approved_at = models.DateTimeField()
    applied_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-approved_at"]

    def __str__(self):
        return f"{self.roster_entry}: {self.old_number} → {self.new_number}"


class Pool(models.Model):
    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="pools")
    name = models.CharField(max_length=20)
    history = HistoricalRecords()

    class Meta:
        ordering = ["championship", "name"]
        constraints = [models.UniqueConstraint(fields=["championship", "name"], name="unique_pool_name")]

    def __str__(self):
        return f"Pool {self.name}"


class PoolTeam(models.Model):
    pool = models.ForeignKey(Pool, on_delete=models.CASCADE, related_name="members")
    # A team plays in one pool of its championship.
    entry = models.OneToOneField(TeamEntry, on_delete=models.CASCADE, related_name="pool_membership")
    seed = models.PositiveSmallIntegerField(default=0)
    history = HistoricalRecords()

    class Meta:
        ordering = ["pool", "seed", "entry__name"]

    def __str__(self):
        return f"{self.entry} in {self.pool}"


class PhaseKind(models.TextChoices):
    ROUND_ROBIN = "round_robin", _("Round robin (pools)")
    ELIMINATION = "elimination", _("Elimination")
    PLACEMENT = "placement", _("Placement games")


class Phase(models.Model):
    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="phases")
    kind = models.CharField(max_length=16, choices=PhaseKind.choices)
    name = models.CharField(max_length=100)
    order = models.PositiveSmallIntegerField(default=0)
    history = HistoricalRecords()

    class Meta:
        ordering = ["championship", "order"]
        constraints = [models.UniqueConstraint(fields=["championship", "name"], name="unique_phase_name")]

    def __str__(self):
        return self.name


class GameStatus(models.TextChoices):
    SCHEDULED = "scheduled", _("Scheduled")
    FINAL = "final", _("Final")


GAME_TRANSITIONS: dict[str, frozenset[str]] = {
    GameStatus.SCHEDULED: frozenset({GameStatus.FINAL}),
    GameStatus.FINAL: frozenset(),
}


class DecidedIn(models.TextChoices):
    REGULATION = "regulation", _("Regulation")
    OVERTIME = "overtime", _("Overtime")
    SHOOTOUT = "shootout", _("Shoot-out")
    FORFEIT = "forfeit", _("Forfeit")


class Game(ChoiceLabels):
    """One game. The home team is the first named (5.4 D, 3.2.10)."""

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="games")
    phase = models.ForeignKey(Phase, on_delete=models.PROTECT, related_name="games")
    pool = models.ForeignKey(Pool, null=True, blank=True, on_delete=models.PROTECT, related_name="games")
    number = models.PositiveIntegerField(help_text="Game number within the championship.")
    # Elimination: the slot in the bracket (e.g. "QF1") and where each team comes from ("1A", "W QF1").
    bracket_slot = models.CharField(max_length=20, blank=True)
    home_source = models.CharField(max_length=40, blank=True)
    away_source = models.CharField(max_length=40, blank=True)
    home = models.ForeignKey(TeamEntry, null=True, blank=True, on_delete=models.PROTECT, related_name="home_games")
    away = models.ForeignKey(TeamEntry, null=True, blank=True, on_delete=models.PROTECT, related_name="away_games")
    rink = models.ForeignKey(Rink, null=True, blank=True, on_delete=models.PROTECT, related_name="games")
    start_at = models.DateTimeField(null=True, blank=True, help_text="Aware, stored in UTC.")
    status = models.CharField(max_length=16, choices=GameStatus.choices, default=GameStatus.SCHEDULED)
    home_goals = models.PositiveSmallIntegerField(null=True, blank=True)
    away_goals = models.PositiveSmallIntegerField(null=True, blank=True)
    decided_in = models.CharField(max_length=16, choices=DecidedIn.choices, blank=True)
    forfeited_by = models.ForeignKey(
        TeamEntry, null=True, blank=True, on_delete=models.PROTECT, related_name="forfeited_games"
    )
    shootout_home_goals = models.PositiveSmallIntegerField(null=True, blank=True)
    shootout_away_goals = models.PositiveSmallIntegerField(null=True, blank=True)
    finalized_at = models.DateTimeField(null=True, blank=True)
    finalized_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["start_at", "number"]
        constraints = [
            models.UniqueConstraint(fields=["championship", "number"], name="unique_game_number"),
            models.UniqueConstraint(
                fields=["championship", "bracket_slot"],
                condition=~models.Q(bracket_slot=""),
                name="unique_bracket_slot",
            ),
            models.CheckConstraint(
                condition=models.Q(home__isnull=True) | ~models.Q(home=models.F("away")),
                name="game_two_different_teams",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="final") | models.Q(home_goals__isnull=False, away_goals__isnull=False),
                name="final_game_has_score",
            ),
        ]
        indexes = [
            models.Index(fields=["championship", "status"]),
            models.Index(fields=["pool", "status"]),
            models.Index(fields=["rink", "start_at"]),
        ]

    def __str__(self):
        home = self.home.display_name if self.home_id else self.home_source or "?"
        away = self.away.display_name if self.away_id else self.away_source or "?"
        return f"#{self.number} {home} – {away}"

    @property
    def is_final(self) -> bool:
        return self.status == GameStatus.FINAL

    @property
    def shootout_winner(self) -> TeamEntry | None:
        """Return the team that won the shoot-out (R-40: recorded beside the tied score), or None."""
        if self.decided_in != DecidedIn.SHOOTOUT or self.shootout_home_goals is None:
            return None
        return self.home if self.shootout_home_goals > (self.shootout_away_goals or 0) else self.away


class GoalRecord(models.Model):
    """A goal in the game summary (5.5.11). At most one assist (R-32)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="goals")
    entry = models.ForeignKey(TeamEntry, on_delete=models.PROTECT, related_name="+", help_text="The scoring team.")
    scorer = models.ForeignKey("federation.Person", on_delete=models.PROTECT, related_name="+")
    assist = models.ForeignKey("federation.Person", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    period = models.PositiveSmallIntegerField(help_text="1 and 2; 3 is overtime.")
    time_tenths = models.PositiveIntegerField(help_text="Elapsed time in the period, tenths of a second (R-10).")
    own_goal = models.BooleanField(default=False)
    empty_net = models.BooleanField(default=False)
    power_play = models.BooleanField(default=False)
    shorthanded = models.BooleanField(default=False)
    penalty_shot = models.BooleanField(default=False)
    forfeit_award = models.BooleanField(default=False, help_text="8.1 B: the goal awarded to the winner's captain.")
    history = HistoricalRecords()

    class Meta:
        ordering = ["game", "period", "time_tenths"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(assist=models.F("scorer")), name="assist_not_scorer"),
            models.CheckConstraint(condition=~models.Q(power_play=True, shorthanded=True), name="pp_or_sh"),
        ]

    def __str__(self):
        return f"{self.game}: goal {self.scorer}"


class PenaltyRecord(models.Model):
    """A penalty in the game summary (R-20, R-21): a person, or the bench."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="penalties")
    entry = models.ForeignKey(TeamEntry, on_delete=models.PROTECT, related_name="+")
    person = models.ForeignKey(
        "federation.Person", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text="Empty for a bench penalty.",
    )  # fmt: skip
    infraction_code = models.CharField(max_length=60, help_text="Annex C index code.")
    minutes = models.PositiveSmallIntegerField(help_text="R-21: minutes charged in the records.")
    gives_power_play = models.BooleanField(
        default=False, help_text="R-22: it left the team shorthanded (a timed, non-coincidental penalty)."
    )
    period = models.PositiveSmallIntegerField()
    time_tenths = models.PositiveIntegerField()
    history = HistoricalRecords()

    class Meta:
        ordering = ["game", "period", "time_tenths"]

    def __str__(self):
        return f"{self.game}: {self.infraction_code} {self.minutes}'"


class GoalkeeperRecord(models.Model):
    """A goalkeeper's line in a game (4.6 note: a save is a shot that would have entered)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="goalkeeper_records")
    entry = models.ForeignKey(TeamEntry, on_delete=models.PROTECT, related_name="+")
    goalkeeper = models.ForeignKey("federation.Person", on_delete=models.PROTECT, related_name="+")
    shots_against = models.PositiveSmallIntegerField()
    saves = models.PositiveSmallIntegerField()
    goals_against = models.PositiveSmallIntegerField()
    seconds_played = models.PositiveIntegerField(
        null=True, blank=True, help_text="Time in goal, when known (the live sheet gives it; empty: unknown)."
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["game", "entry"]
        constraints = [
            models.UniqueConstraint(fields=["game", "goalkeeper"], name="one_goalkeeper_line_per_game"),
            models.CheckConstraint(condition=models.Q(saves__lte=models.F("shots_against")), name="saves_le_shots"),
        ]

    def __str__(self):
        return f"{self.game}: {self.goalkeeper}"


class ResultAmendment(models.Model):
    """A correction of a final result by the championship's directors: who, when, why, and what changed.

    ``before`` and ``after`` hold the result (score, how it was decided,
    shoot-out) and the goal lines of the summary as they were and became;
    the goal lines' own history records each line removed or added.
    """

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="amendments")
    amended_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    amended_at = models.DateTimeField()
    reason = models.TextField(help_text="Why the result is corrected (required).")
    before = models.JSONField()
    after = models.JSONField()

    class Meta:
        ordering = ["game", "amended_at"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(reason=""),
                name="result_amendment_has_reason",
                violation_error_message="An amendment of a result gives its reason.",
            )
        ]

    def __str__(self):
        return f"{self.game}: amended {self.amended_at:%Y-%m-%d %H:%M}"


class StandingsShootout(models.Model):
    """The result of a shoot-out between tied teams of a pool (9.3 G, R-42), best first."""

    pool = models.ForeignKey(Pool, on_delete=models.CASCADE, related_name="shootouts")
    teams = models.ManyToManyField(TeamEntry, through="StandingsShootoutPlace", related_name="+")
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    entered_at = models.DateTimeField()
    history = HistoricalRecords()

    class Meta:
        ordering = ["pool", "entered_at"]

    def __str__(self):
        return f"Shoot-out in {self.pool}"


class StandingsShootoutPlace(models.Model):
    shootout = models.ForeignKey(StandingsShootout, on_delete=models.CASCADE, related_name="places")
    entry = models.ForeignKey(TeamEntry, on_delete=models.CASCADE, related_name="+")
    place = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["shootout", "place"]
        constraints = [
            models.UniqueConstraint(fields=["shootout", "entry"], name="unique_shootout_team"),
            models.UniqueConstraint(fields=["shootout", "place"], name="unique_shootout_place"),
        ]

    def __str__(self):
        return f"{self.place}. {self.entry_id}"


class Disqualification(models.Model):
    """8.1 C-D: the team is out; its games and statistics leave the official tables, the records stay."""

    entry = models.OneToOneField(TeamEntry, on_delete=models.CASCADE, related_name="disqualification")
    reason = models.TextField()
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text="The forfeit that caused it, if any.",
    )  # fmt: skip
    at = models.DateTimeField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    history = HistoricalRecords()

    def __str__(self):
        return f"{self.entry} disqualified"
