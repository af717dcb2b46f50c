"""The games app's records. The schedule's ``tournaments.Game`` is the game; everything here belongs to it.

State changes go through ``games.services``; the rules live there and in the pure cores they call
(``tournaments.rosters`` for line-ups, ``games.engine`` for the start of play).
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from tournaments.models import Position

# --- Officials of a game (4.1-4.6) ----------------------------------------------------------------------------------


class OfficialDuty(models.TextChoices):
    """What an official does in one game (4.1 A-B, 4.3-4.6)."""

    REFEREE = "referee", _("Referee (4.2)")
    TIMEKEEPER = "timekeeper", _("Game timekeeper (4.4)")
    PENALTY_TIMEKEEPER = "penalty_timekeeper", _("Penalty timekeeper (4.5)")
    SCORER = "scorer", _("Official scorer (4.3)")
    GOAL_JUDGE = "goal_judge", _("Goal judge (4.6)")


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


# --- The live game sheet (issue 9: one game, one truth) -----------------------------------------------------------
# The sheet's truth is its event log (architecture principle 3): ``SheetEvent`` rows in the engine's format,
# replayed by ``games.engine``. ``SheetSnapshot`` keeps the replayed state so reads never replay.
# Written only by ``games.sheet.record_events``.


class SheetStatus(models.TextChoices):
    OPEN = "open", _("Open (the game is being entered)")
    FINAL = "final", _("Final (signed, 4.2 O, 4.3)")


class GameSheet(models.Model):
    """The live sheet of one scheduled game: its event log's header, locked by every entry."""

    game = models.OneToOneField("tournaments.Game", on_delete=models.PROTECT, related_name="sheet")
    status = models.CharField(max_length=8, choices=SheetStatus.choices, default=SheetStatus.OPEN)
    # The last sequence number given to an event of this sheet (0: none yet); it orders the log as entered.
    sequence = models.PositiveIntegerField(default=0)
    # What the engine must know before the first event (games.engine.Game), frozen when the sheet opens so a
    # replay of the same log always gives the same state: teams in the game-script format, game type, ruleset.
    teams = models.JSONField(help_text="Line-ups as the engine reads them (docs/game-scripts.md 'teams').")
    game_type = models.CharField(max_length=16)
    ruleset = models.JSONField(default=dict, blank=True, help_text="The engine's ruleset parameters.")
    opened_at = models.DateTimeField()
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    # Made when the sheet opens, never changed: with the id, it names this sheet's parsed log in a process's cache
    # (``games.sheet.PARSED_LOGS``); SQLite gives the id of a rolled-back or deleted row to the next row.
    log_key = models.UUIDField(default=uuid.uuid4, editable=False)

    class Meta:
        ordering = ["game"]

    def __str__(self):
        return f"Sheet of {self.game}"


class SheetEvent(models.Model):
    """One entry of a sheet's log, exactly as the device sent it, with who, where and when.

    ``event_id`` is made on the device (a UUID): a resend of the same entry finds it (the constraint), so an
    outbox may resend as often as it likes. Rows are never changed or deleted: a ``correction`` voids an entry.
    """

    sheet = models.ForeignKey(GameSheet, on_delete=models.PROTECT, related_name="events")
    event_id = models.UUIDField(help_text="Made on the device; the engine's event id.")
    sequence = models.PositiveIntegerField(help_text="Given by the server in the order entries are stored.")
    payload = models.JSONField(help_text="The event in the engine's format (docs/game-scripts.md), without id/seq.")
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    device = models.CharField(max_length=64, help_text="The id the entering device gives itself.")
    received_at = models.DateTimeField(help_text="Server time when it was stored.")
    device_time = models.DateTimeField(help_text="The device's clock when the entry was made.")
    clock_offset_ms = models.IntegerField(
        null=True, blank=True, help_text="Device clock minus server clock, as the device measured it (null: unknown)."
    )

    class Meta:
        ordering = ["sheet", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "event_id"], name="sheet_event_id_once"),
            models.UniqueConstraint(fields=["sheet", "sequence"], name="sheet_event_sequence_once"),
        ]

    def __str__(self):
        return f"{self.sheet} #{self.sequence} {self.payload.get('type', '?')}"


class SheetSnapshot(models.Model):
    """The replayed state after the last entry made in a period (one row per period of the sheet).

    The row with the highest ``sequence`` is the sheet's current state: the scoreboard and a console resuming
    after a crash read it instead of replaying the log; the earlier rows keep each period's state as it closed.
    """

    sheet = models.ForeignKey(GameSheet, on_delete=models.CASCADE, related_name="snapshots")
    period = models.PositiveSmallIntegerField(help_text="The game's period in the state (0: not started).")
    sequence = models.PositiveIntegerField(help_text="The sheet's sequence the state includes.")
    state = models.JSONField(help_text="games.engine GameState.to_dict(), with the clock's anchor.")
    taken_at = models.DateTimeField()

    class Meta:
        ordering = ["sheet", "period"]
        constraints = [models.UniqueConstraint(fields=["sheet", "period"], name="one_snapshot_per_period")]
        indexes = [models.Index(fields=["sheet", "-sequence"])]

    def __str__(self):
        return f"{self.sheet}: period {self.period} at #{self.sequence}"


class ConsoleSignIn(models.Model):
    """A device signed in to a game's sheet as one duty of the officials' table (4.3-4.5).

    Who enters is explicit: ``games.devices.console_sign_in`` makes these rows and is the one way in. At most one
    device holds a duty at a time (the constraint); taking a duty over from another device ends that device's row
    and names the row that took it over: one logged action, never silent. Rows are never deleted.
    """

    game = models.ForeignKey("tournaments.Game", on_delete=models.CASCADE, related_name="console_sign_ins")
    duty = models.CharField(max_length=24, choices=OfficialDuty.choices)
    device = models.CharField(max_length=64, help_text="The id the device gives itself.")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    signed_in_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True, help_text="When the device stopped holding the duty.")
    taken_over_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="took_over",
        help_text="The sign-in of the device that took the duty over (empty: signed out).",
    )  # fmt: skip

    class Meta:
        ordering = ["game", "signed_in_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "duty"], condition=models.Q(ended_at__isnull=True), name="one_device_per_console_duty"
            ),
        ]
        indexes = [models.Index(fields=["game", "device"])]

    def __str__(self):
        return f"{self.game}: {self.get_duty_display()} on {self.device} ({self.user})"


# --- Before the game: administrative protests (9.1 B, R-51) ------------------------------------------------------


class ProtestSubject(models.TextChoices):
    """What an administrative protest is about (9.1 B, R-51)."""

    RINK = "rink", _("Bad condition of the rink")
    EQUIPMENT = "equipment", _("A player's equipment")
    PLAYERS = "players", _("Unqualified players")


class GameProtestMark(models.Model):
    """An administrative protest a team made to the referee before the start: the game is "played under protest".

    9.1 B: only a protest made before the start is valid, and the referee then tells both captains. The mark is
    the sheet's record of it (``games.services.protest_mark_record``); the written protest with its fee within
    1 h 30 min of the game's end (R-51, R-52) is the discipline module's, which reads this mark.
    """

    game = models.ForeignKey("tournaments.Game", on_delete=models.CASCADE, related_name="protest_marks")
    entry = models.ForeignKey(
        "tournaments.TeamEntry", on_delete=models.PROTECT, related_name="+", help_text="The protesting team."
    )
    subject = models.CharField(max_length=12, choices=ProtestSubject.choices)
    details = models.CharField(max_length=300, blank=True, help_text="What the captain protests, in a few words.")
    made_at = models.DateTimeField(help_text="When the referee was told (before the start, 9.1 B).")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    history = HistoricalRecords()

    class Meta:
        ordering = ["game", "made_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "entry", "subject"], name="one_protest_mark_per_team_and_subject")
        ]

    def __str__(self):
        return f"{self.game}: {self.entry} protests ({self.get_subject_display().lower()})"


# --- The end of the game (issue 9: signatures, finalizing, amendments) -----------------------------------------------
# Written only by ``games.finalize`` (sheet_sign, finalize_game, sheet_amend).


class SignerRole(models.TextChoices):
    """Who signs the official game report at the end of the game (4.2 O, 4.3 A)."""

    REFEREE = "referee", _("Referee (4.2 O)")
    SCORER = "scorer", _("Official scorer (4.3 A)")
    HOME_CAPTAIN = "home_captain", _("Home captain (4.2 O, 4.3 A)")
    AWAY_CAPTAIN = "away_captain", _("Away captain (4.2 O, 4.3 A)")
    HOME_COACH = "home_coach", _("Home coach (4.3 A)")
    AWAY_COACH = "away_coach", _("Away coach (4.3 A)")


class SignatureMethod(models.TextChoices):
    """How the signer proved who they are (issue 23: a signature is authenticated by its signer)."""

    SESSION = "session", _("Logged in as themselves")
    PIN = "pin", _("Personal PIN on the device")
    PASSWORD = "password", _("Password on the device")  # pragma: allowlist secret
    UNVERIFIED = "unverified", _("Not verified (recorded before signers authenticated)")


class SheetSignature(models.Model):
    """One signature of the official game report, made on the device at the end of the game (4.2 O, 4.3 A).

    ``person`` is who signs (the assigned referee or scorer, the team's captain or coach) and ``signer`` their
    login, which proved it is them (``method``: logged in as themselves, or their PIN or password typed on the
    device); ``name`` is the name as signed; ``recorded_by`` the login of the device that took it. Signatures made
    before issue 23 are ``unverified``: one login recorded them all.
    """

    sheet = models.ForeignKey(GameSheet, on_delete=models.PROTECT, related_name="signatures")
    role = models.CharField(max_length=16, choices=SignerRole.choices)
    person = models.ForeignKey("federation.Person", on_delete=models.PROTECT, related_name="+")
    name = models.CharField(max_length=120, help_text="The name as signed.")
    signer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The signer's own login, which proved who signed (empty only on unverified old signatures).",
    )
    method = models.CharField(max_length=12, choices=SignatureMethod.choices, default=SignatureMethod.UNVERIFIED)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    device = models.CharField(max_length=64, help_text="The device the signature was made on.")
    signed_at = models.DateTimeField()
    sequence = models.PositiveIntegerField(help_text="The sheet's sequence the signer saw: the log signed.")

    class Meta:
        ordering = ["sheet", "signed_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["sheet", "role", "person", "sequence"], name="one_signature_per_signer_role_and_log"
            ),
            models.CheckConstraint(
                condition=models.Q(method="unverified") | models.Q(signer__isnull=False),
                name="verified_signature_has_its_signer",
            ),
        ]

    def __str__(self):
        return f"{self.sheet}: {self.get_role_display()} {self.name}"


class SheetAmendment(models.Model):
    """An audited staff amendment of a final sheet: who, when, why, the entries it added, the summary before/after.

    The entries (corrections and new events) are appended to the log like any other (``SheetEvent``), listed
    here by id; ``before`` and ``after`` are the summaries derived from the log (games.finalize.SheetSummary).
    """

    sheet = models.ForeignKey(GameSheet, on_delete=models.PROTECT, related_name="amendments")
    amended_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    amended_at = models.DateTimeField()
    reason = models.TextField(help_text="Why the final sheet is amended (required).")
    event_ids = models.JSONField(help_text="The ids of the entries the amendment appended to the log.")
    before = models.JSONField()
    after = models.JSONField()
    result_amendment = models.OneToOneField(
        "tournaments.ResultAmendment", null=True, blank=True, on_delete=models.PROTECT, related_name="sheet_amendment",
        help_text="The result's own audited amendment, when the goals or how the game was decided changed.",
    )  # fmt: skip

    class Meta:
        ordering = ["sheet", "amended_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(reason=""),
                name="sheet_amendment_has_reason",
                violation_error_message="An amendment of a final sheet gives its reason.",
            )
        ]

    def __str__(self):
        return f"{self.sheet}: amended {self.amended_at:%Y-%m-%d %H:%M}"


class ReportStatus(models.TextChoices):
    PENDING = "pending", _("Pending (waits for the report module)")
    RENDERED = "rendered", _("Rendered")


class GameReportRequest(models.Model):
    """The hand-over to the official game report (4.3 A: the scorer forwards it): one row per final version.

    Created by ``games.finalize`` when a sheet becomes final and after each amendment that changed its summary;
    the report module (a later issue) renders the pending rows from the sheet at ``sequence``.
    """

    game = models.ForeignKey("tournaments.Game", on_delete=models.CASCADE, related_name="report_requests")
    sequence = models.PositiveIntegerField(help_text="The sheet's sequence the report shows.")
    amendment = models.ForeignKey(SheetAmendment, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField()
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=10, choices=ReportStatus.choices, default=ReportStatus.PENDING)

    class Meta:
        ordering = ["game", "requested_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["game", "sequence"], name="one_report_per_sheet_version")]

    def __str__(self):
        return f"Report of {self.game} at #{self.sequence} ({self.status})"
