"""API serializers of championships.

Input serializers check the shape and types of a request (a 400 naming the
field); the rules are checked by the services they feed. Output serializers
read models, or the dataclasses the selectors and pure cores return.
"""

from __future__ import annotations

import datetime

from django_countries.serializer_fields import CountryField
from drf_spectacular.plumbing import build_basic_type
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from federation.models import Federation, Person
from federation.serializers import COUNTRY_NAME_HELP
from portal.currencies import check_portal_currency
from portal.filters import MAX_ID
from portal.i18n import said
from portal.serializers import DecimalField, FloatField, IntegerField, ModelSerializer, StrictPrimaryKeyRelatedField

from . import roster_files, selectors, services
from .models import (
    Championship,
    DecidedIn,
    Game,
    GoalRecord,
    NumberChangeApproval,
    OfficialRole,
    PenaltyRecord,
    Pool,
    Position,
    ResultAmendment,
    Rink,
    RosterEntry,
    StandingsPreset,
    Surface,
    TeamEntry,
    Venue,
)

# --- venues and rinks --------------------------------------------------------------------------------------------


# A rink's measurements are stored in metres (tournaments.rinks); what 2.1 says of each.
RINK_MEASUREMENTS_HELP = {
    "length_m": "Length in metres (m). Rule 2.1 B: 40 to 60 m; 2.1 C: at least 50 m for a World Championship "
    "or an international event, 44 m for a continental event.",
    "width_m": "Width in metres (m). Rule 2.1 B: 20 to 30 m; 2.1 C: at least 25 m for a World Championship "
    "or an international event, 22 m for a continental event.",
    "board_height_m": "Height of the boards in metres (m). Rule 2.1 E: 1.01 to 1.22 m (101 to 122 cm); null if not measured.",
    "corner_radius_m": "Radius of the rounded corners in metres (m). Rule 2.1 E: about 5 m (advice, not refused); null if not measured.",
    "surface_approved_by_ihtc": "Rule 2.1 A: the IHTC approved this other surface; recorded by international staff.",
}


class RinkSerializer(ModelSerializer):
    class Meta:
        model = Rink
        fields = ["id", *services.RINK_FIELDS]
        extra_kwargs = {name: {"help_text": text} for name, text in RINK_MEASUREMENTS_HELP.items()}


class VenueSerializer(ModelSerializer):
    country = CountryField(country_dict=False)
    country_name = serializers.CharField(source="country.name", read_only=True, help_text=COUNTRY_NAME_HELP)
    rinks = RinkSerializer(many=True, read_only=True)

    class Meta:
        model = Venue
        fields = ["id", "name", "city", "country", "country_name", "time_zone", "rinks"]


class RinkViolationSerializer(serializers.Serializer):
    field = serializers.CharField()
    article = serializers.CharField()
    message = serializers.CharField()

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["message"] = said(instance.message)  # in the reader's language (Accept-Language)
        return data


class PublishedRinkSerializer(RinkSerializer):
    """A rink with what keeps it from hosting the championship's level (2.1 A-E); dimensions published (2.1 F)."""

    violations = serializers.SerializerMethodField()

    class Meta(RinkSerializer.Meta):
        fields = [*RinkSerializer.Meta.fields, "violations"]

    @extend_schema_field(RinkViolationSerializer(many=True))
    def get_violations(self, rink):
        level = self.context["level"]
        return RinkViolationSerializer(services.rink_violations(rink, level=level), many=True).data


# --- championships -----------------------------------------------------------------------------------------------


class ChampionshipSerializer(ModelSerializer):
    entry_fee = DecimalField(source="entry_fee.amount", max_digits=10, decimal_places=2, read_only=True)
    entry_fee_currency = serializers.CharField(read_only=True)
    venue = VenueSerializer(read_only=True)
    rinks = serializers.SerializerMethodField(help_text="The venue's rinks, checked against the level (2.1).")

    class Meta:
        model = Championship
        fields = ["id", *services.CHAMPIONSHIP_FIELDS, "entry_fee_currency", "published", "rinks"]
        read_only_fields = ["published"]

    @extend_schema_field(PublishedRinkSerializer(many=True))
    def get_rinks(self, championship):
        context = {**self.context, "level": championship.level}
        return PublishedRinkSerializer(championship.venue.rinks.all(), many=True, context=context).data


class ChampionshipInputSerializer(ModelSerializer):
    """What ``championship_create`` / ``championship_update`` take; the fee's amount and currency become one Money."""

    entry_fee = DecimalField(max_digits=10, decimal_places=2, min_value=0)
    entry_fee_currency = serializers.RegexField(
        r"^[A-Za-z]{3}$",
        help_text="ISO 4217 code, one of the portal's currencies (the setting PORTAL_CURRENCIES; by default USD, EUR, "
        "CHF, GBP, CZK, ARS, CAD, AUD); a championship's stored currency outside it may be kept.",
    )
    ruleset = serializers.JSONField(required=False)
    standings_preset = serializers.ChoiceField(choices=StandingsPreset.choices, required=False)

    class Meta:
        model = Championship
        fields = [*services.CHAMPIONSHIP_FIELDS, "entry_fee_currency"]

    def validate(self, attrs):
        if "entry_fee" in attrs or "entry_fee_currency" in attrs:
            # A partial change may name one of the two; the other is the stored one.
            current = self.instance.entry_fee if self.instance is not None else None
            amount = attrs.pop("entry_fee", current.amount if current is not None else None)
            stored = str(current.currency) if current is not None else ""
            currency = attrs.pop("entry_fee_currency", stored)
            # Issue 26: a new fee is in a currency of PORTAL_CURRENCIES; a stored one outside it may stay.
            currency = check_portal_currency(currency, field="entry_fee_currency", keep=stored)
            attrs["entry_fee"] = services.money(amount, currency, field="entry_fee_currency")
        return attrs


# --- entries -----------------------------------------------------------------------------------------------------


@extend_schema_field(OpenApiTypes.INT)
class VisibleChampionshipField(StrictPrimaryKeyRelatedField):
    """A championship the requesting user may see: a draft is no such championship to anyone but its directors."""

    def get_queryset(self):
        request = self.context.get("request")
        return selectors.visible_championships(getattr(request, "user", None)).select_related("venue")


# Issue 26: a national team's name as the reader reads it (``TeamEntry.display_name``); ``name`` stays as stored.
DISPLAY_NAME_HELP = (
    "The team's name in the language the request asks for (Accept-Language: en, fr or es): its country's name "
    'when the team is entered under it ("Italia" for "Italy" in Spanish), else the stored name.'
)


class EntrySerializer(ModelSerializer):
    federation_name = serializers.CharField(source="federation.name", read_only=True)
    display_name = serializers.CharField(read_only=True, help_text=DISPLAY_NAME_HELP)
    fee_due = DecimalField(source="fee_due.amount", max_digits=10, decimal_places=2, read_only=True)
    fee_due_currency = serializers.CharField(read_only=True)
    pool = serializers.SerializerMethodField()

    class Meta:
        model = TeamEntry
        fields = [
            "id",
            "championship",
            "federation",
            "federation_name",
            "name",
            "display_name",
            "status",
            "fee_due",
            "fee_due_currency",
            "fee_paid",
            "fee_paid_at",
            "pool",
        ]

    @extend_schema_field({**build_basic_type(OpenApiTypes.INT), "nullable": True})
    def get_pool(self, entry) -> int | None:
        membership = getattr(entry, "pool_membership", None)
        return membership.pool_id if membership else None


class EntryInputSerializer(serializers.Serializer):
    # A draft is no such championship to outsiders; its directors are told that it takes no entry yet (1.1 A,
    # services.check_entries_open).
    championship = VisibleChampionshipField()
    federation = StrictPrimaryKeyRelatedField(queryset=Federation.objects.all())
    name = serializers.CharField(max_length=200, required=False, allow_blank=True)


class FeePaidInputSerializer(serializers.Serializer):
    amount = DecimalField(max_digits=10, decimal_places=2, min_value=0)
    currency = serializers.RegexField(r"^[A-Za-z]{3}$")
    paid_at = serializers.DateTimeField(required=False)


class ManagersInputSerializer(serializers.Serializer):
    """Deprecated (issue 29): replace the managers by login ids; name them by e-mail instead."""

    managers = serializers.ListField(
        child=IntegerField(min_value=1, max_value=MAX_ID),
        allow_empty=True,
        help_text="Deprecated: the ids of active logins (as GET /api/entries/{id}/managers/ lists them) that "
        "replace the team's managers; an empty list removes them all.",
    )


class EntryInviteInputSerializer(serializers.Serializer):
    email = serializers.EmailField(
        max_length=254, help_text="The invitee's e-mail address: the link goes there, valid 7 days, once."
    )
    duty = serializers.ChoiceField(
        choices=services.INVITE_DUTIES,
        default=OfficialRole.MANAGER.value,
        help_text="What the invitee does for the team; every one manages the entry in the portal.",
    )


class InvitationSerializer(serializers.Serializer):
    email = serializers.EmailField()
    duty = serializers.CharField(help_text="What the invitee was invited to do for the team (a duty's value).")
    invited_at = serializers.DateTimeField(source="created_at")
    expires_at = serializers.DateTimeField(help_text="The link works until then, once.")


class EntryManagerSerializer(serializers.Serializer):
    id = IntegerField(help_text="The login's id.")
    name = serializers.CharField(help_text="The login's full name (else its username).")
    email = serializers.CharField(help_text="The login's e-mail address (blank if it has none).")
    duty = serializers.CharField(allow_null=True, help_text="The duty it was invited to; null when named otherwise.")


class EntryManagersSerializer(serializers.Serializer):
    managers = EntryManagerSerializer(many=True, help_text="The team's managers and officials with a login.")
    invitations = InvitationSerializer(
        source="waiting", many=True, help_text="The invitations still waiting for their invitee."
    )


class NumberChangeApprovalInputSerializer(serializers.Serializer):
    new_number = serializers.CharField(max_length=3, help_text="Rule 3.2.9 C: 1-99 without a leading zero.")
    reason = serializers.CharField(help_text="Rule 3.2.9 D: the written approval states its reason.")


class NumberChangeApprovalSerializer(ModelSerializer):
    approved_by = serializers.CharField(source="approved_by.username", read_only=True)

    class Meta:
        model = NumberChangeApproval
        fields = [
            "id", "roster_entry", "old_number", "new_number", "reason", "approved_by", "approved_at", "applied_at",
        ]  # fmt: skip
        read_only_fields = fields
        extra_kwargs = {"applied_at": {"help_text": "When the team changed the number with it; null until then."}}


# --- rosters -----------------------------------------------------------------------------------------------------


class RosterEntrySerializer(ModelSerializer):
    name = serializers.StringRelatedField(source="person", read_only=True)

    class Meta:
        model = RosterEntry
        fields = ["id", "entry", "person", "name", "number", "position", "captain", "alternate", "confirmed"]


class ReasonSerializer(serializers.Serializer):
    code = serializers.CharField()
    article = serializers.CharField()
    message = serializers.CharField()
    field = serializers.CharField()


class EligibilitySerializer(serializers.Serializer):
    eligible = serializers.BooleanField()
    reasons = ReasonSerializer(many=True)
    waived = serializers.SerializerMethodField()

    @extend_schema_field(ReasonSerializer(many=True))
    def get_waived(self, result):
        return ReasonSerializer([reason for reason, _ in result.waived], many=True).data


class RosterLineEligibilitySerializer(RosterEntrySerializer):
    """A roster line with every eligibility reason and its article (1.1 B-G, R-01..R-03)."""

    eligibility = serializers.SerializerMethodField()

    class Meta(RosterEntrySerializer.Meta):
        fields = [*RosterEntrySerializer.Meta.fields, "eligibility"]

    @extend_schema_field(EligibilitySerializer)
    def get_eligibility(self, line):
        return EligibilitySerializer(self.context["eligibility"][line.pk]).data


class RosterEntryInputSerializer(serializers.Serializer):
    entry = StrictPrimaryKeyRelatedField(queryset=TeamEntry.objects.all())
    person = IntegerField(min_value=1, max_value=MAX_ID)
    # Text, as printed: "07" reaches the 3.2.9 C check instead of becoming 7.
    number = serializers.CharField(max_length=3, allow_blank=True)
    position = serializers.ChoiceField(choices=Position.choices, default=Position.PLAYER)
    captain = serializers.BooleanField(default=False)
    alternate = serializers.BooleanField(default=False)


class RosterEntryUpdateSerializer(serializers.Serializer):
    number = serializers.CharField(max_length=3, required=False, allow_blank=True)
    position = serializers.ChoiceField(choices=Position.choices, required=False)
    captain = serializers.BooleanField(required=False)
    alternate = serializers.BooleanField(required=False)


class RosterImportSerializer(serializers.Serializer):
    file = serializers.FileField(
        help_text=(
            f"A CSV file (UTF-8) or an XLSX workbook, at most {roster_files.MAX_BYTES // 1024} KB: a header row, "
            "then one player a row "
            "(person_id, or last_name, first_name, date_of_birth; number; position; captain; alternate)."
        )
    )


class TeamOfficialInputSerializer(serializers.Serializer):
    person = IntegerField(min_value=1, max_value=MAX_ID)
    role = serializers.ChoiceField(choices=OfficialRole.choices)


# --- pools and standings -----------------------------------------------------------------------------------------


class PoolTeamSerializer(serializers.Serializer):
    entry = IntegerField(source="entry_id")
    name = serializers.CharField(source="entry.name")
    display_name = serializers.CharField(source="entry.display_name", help_text=DISPLAY_NAME_HELP)
    seed = IntegerField()


class PoolSerializer(ModelSerializer):
    teams = PoolTeamSerializer(source="members", many=True, read_only=True)

    class Meta:
        model = Pool
        fields = ["id", "championship", "name", "teams"]


class StandingRowSerializer(serializers.Serializer):
    position = IntegerField()
    team = serializers.CharField()
    entry = serializers.SerializerMethodField()
    played = IntegerField()
    wins = IntegerField()
    ties = IntegerField()
    losses = IntegerField()
    forfeits = IntegerField()
    overtime_wins = IntegerField()
    overtime_losses = IntegerField()
    goals_for = IntegerField()
    goals_against = IntegerField()
    goal_difference = IntegerField()
    points = IntegerField()
    decided_by = serializers.CharField(allow_null=True, help_text="The criterion that broke this team's tie (9.3).")
    needs_shootout = serializers.BooleanField(help_text="9.3 G: only a shoot-out can place this team.")
    disqualified = serializers.BooleanField(help_text="8.1 D: kept, marked, its games erased.")

    @extend_schema_field(OpenApiTypes.INT)
    def get_entry(self, row):
        return self.context["entries"][row.team].pk


class PoolStandingsSerializer(serializers.Serializer):
    """A pool's table with how each tie was broken (9.3; R-41..R-43)."""

    pool = IntegerField(source="pool.pk")
    name = serializers.CharField(source="pool.name")
    rows = serializers.SerializerMethodField()
    unresolved = serializers.ListField(
        source="standings.unresolved",
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Groups still tied that need a shoot-out (9.3 G).",
    )
    explanations = serializers.ListField(source="standings.explanations", child=serializers.CharField())
    complete = serializers.BooleanField(source="standings.complete")

    @extend_schema_field(StandingRowSerializer(many=True))
    def get_rows(self, table):
        return StandingRowSerializer(table.standings.rows, many=True, context={"entries": table.entries}).data


class ShootoutInputSerializer(serializers.Serializer):
    entries = serializers.ListField(
        child=IntegerField(min_value=1, max_value=MAX_ID),
        min_length=2,
        help_text="Entry ids, best first (9.3 G).",
    )


# --- games -------------------------------------------------------------------------------------------------------


class GameSerializer(ModelSerializer):
    phase = serializers.CharField(source="phase.kind", read_only=True)
    home_name = serializers.CharField(source="home.name", read_only=True, default=None, allow_null=True)
    away_name = serializers.CharField(source="away.name", read_only=True, default=None, allow_null=True)
    home_display_name = serializers.CharField(
        source="home.display_name", read_only=True, default=None, allow_null=True, help_text=DISPLAY_NAME_HELP
    )
    away_display_name = serializers.CharField(
        source="away.display_name", read_only=True, default=None, allow_null=True, help_text=DISPLAY_NAME_HELP
    )
    rink_name = serializers.CharField(source="rink.name", read_only=True, default=None, allow_null=True)
    local_start = serializers.SerializerMethodField(help_text="The start in the venue's time zone.")

    class Meta:
        model = Game
        fields = [
            "id",
            "championship",
            "number",
            "phase",
            "pool",
            "bracket_slot",
            "home",
            "home_name",
            "home_display_name",
            "home_source",
            "away",
            "away_name",
            "away_display_name",
            "away_source",
            "rink",
            "rink_name",
            "start_at",
            "local_start",
            "status",
            "home_goals",
            "away_goals",
            "decided_in",
            "forfeited_by",
            "shootout_home_goals",
            "shootout_away_goals",
        ]

    @extend_schema_field({**build_basic_type(OpenApiTypes.DATETIME), "nullable": True})
    def get_local_start(self, game) -> str | None:
        if game.start_at is None:
            return None
        local = game.start_at.astimezone(game.championship.venue.zone)
        if local.utcoffset().seconds % 60:
            # A zone's local mean time before standard time (Rome in 1600: +00:49:56) has no RFC 3339 offset: the
            # same instant in UTC, so the answer stays a valid date-time.
            local = game.start_at.astimezone(datetime.UTC)
        return local.isoformat()


class GameResultInputSerializer(serializers.Serializer):
    home_goals = IntegerField(min_value=0, max_value=99, required=False, allow_null=True)
    away_goals = IntegerField(min_value=0, max_value=99, required=False, allow_null=True)
    decided_in = serializers.ChoiceField(choices=DecidedIn.choices, default=DecidedIn.REGULATION)
    forfeited_by = StrictPrimaryKeyRelatedField(queryset=TeamEntry.objects.all(), required=False, allow_null=True)
    shootout_home_goals = IntegerField(min_value=0, max_value=99, required=False, allow_null=True)
    shootout_away_goals = IntegerField(min_value=0, max_value=99, required=False, allow_null=True)


class GameMoveInputSerializer(serializers.Serializer):
    start_at = serializers.DateTimeField(required=False, help_text="With its UTC offset, e.g. 2027-07-02T15:00+02:00.")
    rink = StrictPrimaryKeyRelatedField(queryset=Rink.objects.select_related("venue"), required=False)


class GoalSerializer(ModelSerializer):
    scorer_name = serializers.StringRelatedField(source="scorer", read_only=True)
    assist_name = serializers.StringRelatedField(source="assist", read_only=True, allow_null=True)

    class Meta:
        model = GoalRecord
        fields = [
            "id",
            "game",
            "entry",
            "scorer",
            "scorer_name",
            "assist",
            "assist_name",
            "period",
            "time_tenths",
            "own_goal",
            "empty_net",
            "power_play",
            "shorthanded",
            "penalty_shot",
            "forfeit_award",
        ]


class GoalInputSerializer(serializers.Serializer):
    game = StrictPrimaryKeyRelatedField(queryset=Game.objects.all())
    entry = StrictPrimaryKeyRelatedField(queryset=TeamEntry.objects.all())
    scorer = StrictPrimaryKeyRelatedField(queryset=Person.objects.all())
    assist = StrictPrimaryKeyRelatedField(queryset=Person.objects.all(), required=False, allow_null=True)
    period = IntegerField(min_value=1, max_value=9)
    time_tenths = IntegerField(
        min_value=0, max_value=36000, help_text="Elapsed tenths of a second in the period (R-10)."
    )
    own_goal = serializers.BooleanField(default=False)
    empty_net = serializers.BooleanField(default=False)
    power_play = serializers.BooleanField(default=False)
    shorthanded = serializers.BooleanField(default=False)
    penalty_shot = serializers.BooleanField(default=False)


class PenaltySerializer(ModelSerializer):
    person_name = serializers.StringRelatedField(source="person", read_only=True, allow_null=True)

    class Meta:
        model = PenaltyRecord
        fields = [
            "id",
            "game",
            "entry",
            "person",
            "person_name",
            "infraction_code",
            "minutes",
            "gives_power_play",
            "period",
            "time_tenths",
        ]


class PenaltyInputSerializer(serializers.Serializer):
    game = StrictPrimaryKeyRelatedField(queryset=Game.objects.all())
    entry = StrictPrimaryKeyRelatedField(queryset=TeamEntry.objects.all())
    person = StrictPrimaryKeyRelatedField(queryset=Person.objects.all(), required=False, allow_null=True)
    infraction_code = serializers.CharField(max_length=60)
    minutes = IntegerField(min_value=0, max_value=99)
    gives_power_play = serializers.BooleanField(default=False)
    period = IntegerField(min_value=1, max_value=9)
    time_tenths = IntegerField(min_value=0, max_value=36000)


class GoalkeeperLineInputSerializer(serializers.Serializer):
    entry = StrictPrimaryKeyRelatedField(queryset=TeamEntry.objects.all())
    goalkeeper = StrictPrimaryKeyRelatedField(queryset=Person.objects.all())
    shots_against = IntegerField(min_value=0, max_value=999)
    saves = IntegerField(min_value=0, max_value=999)
    goals_against = IntegerField(min_value=0, max_value=999)


class GoalkeeperLineSerializer(serializers.Serializer):
    id = IntegerField()
    game = IntegerField(source="game_id")
    entry = IntegerField(source="entry_id")
    goalkeeper = IntegerField(source="goalkeeper_id")
    shots_against = IntegerField()
    saves = IntegerField()
    goals_against = IntegerField()


# --- schedule ----------------------------------------------------------------------------------------------------


class ScheduleGenerateInputSerializer(serializers.Serializer):
    days = serializers.ListField(child=serializers.DateField(), min_length=1, help_text="Dates at the venue.")
    slot_times = serializers.ListField(child=serializers.TimeField(), min_length=1, help_text="Venue times.")
    rinks = StrictPrimaryKeyRelatedField(queryset=Rink.objects.select_related("venue"), many=True)
    rest_slots = IntegerField(min_value=0, max_value=10, default=1)


class BracketGenerateInputSerializer(serializers.Serializer):
    qualifiers = IntegerField(min_value=1, max_value=16, default=2)
    placement = serializers.ChoiceField(choices=["all", "bronze", "none"], default="all")


# --- bracket and statistics ----------------------------------------------------------------------------------------


class BracketGameSerializer(serializers.Serializer):
    code = serializers.CharField()
    stage = serializers.CharField()
    round = IntegerField()
    places = serializers.ListField(child=IntegerField())
    home_source = serializers.CharField()
    away_source = serializers.CharField()
    home = serializers.CharField(allow_null=True)
    away = serializers.CharField(allow_null=True)
    winner = serializers.CharField(allow_null=True)


class RankingSerializer(serializers.Serializer):
    place = IntegerField()
    team = serializers.CharField()


class BracketSerializer(serializers.Serializer):
    games = BracketGameSerializer(many=True)
    ranking = serializers.SerializerMethodField()
    complete = serializers.BooleanField()

    @extend_schema_field(RankingSerializer(many=True))
    def get_ranking(self, bracket):
        return [{"place": place, "team": team} for place, team in sorted(bracket.ranking.items())]


class _PersonNameMixin:
    def person_name(self, person_id) -> str:
        person = self.context["people"].get(person_id)
        return str(person) if person is not None else ""


class PlayerStatisticsSerializer(_PersonNameMixin, serializers.Serializer):
    person = IntegerField()
    name = serializers.SerializerMethodField()
    team = serializers.CharField()
    games = IntegerField()
    goals = IntegerField()
    assists = IntegerField()
    points = IntegerField()
    penalty_minutes = IntegerField()
    power_play_goals = IntegerField()
    shorthanded_goals = IntegerField()

    def get_name(self, row) -> str:
        return self.person_name(row.person)


class GoalkeeperStatisticsSerializer(_PersonNameMixin, serializers.Serializer):
    goalkeeper = IntegerField()
    name = serializers.SerializerMethodField()
    team = serializers.CharField()
    games = IntegerField()
    shots_against = IntegerField()
    saves = IntegerField()
    goals_against = IntegerField()
    save_percentage = FloatField(allow_null=True, help_text="Saves / shots against x 100 (4.6 note).")

    def get_name(self, row) -> str:
        return self.person_name(row.goalkeeper)


class TeamStatisticsSerializer(serializers.Serializer):
    team = serializers.CharField()
    power_plays = IntegerField()
    power_play_goals = IntegerField()
    power_play_percentage = FloatField(allow_null=True)
    times_shorthanded = IntegerField()
    power_play_goals_against = IntegerField()
    penalty_kill_percentage = FloatField(allow_null=True)
    shorthanded_goals = IntegerField()
    penalty_minutes = IntegerField()


class StatisticsSerializer(serializers.Serializer):
    """The official tables (4.3, 4.6 note; 8.1 B-D): forfeits 1-0 without assists or goalkeeper lines."""

    players = serializers.SerializerMethodField()
    goalkeepers = serializers.SerializerMethodField()
    teams = TeamStatisticsSerializer(many=True)
    roster_games = IntegerField(
        help_text="Team games without a line-up (results entered by staff): they count for the team's whole "
        "roster; every other game counts for the players on its line-up (5.1 A)."
    )

    # In the statistics core's order, as the leaders page shows them.
    @extend_schema_field(PlayerStatisticsSerializer(many=True))
    def get_players(self, stats):
        return PlayerStatisticsSerializer(stats.players, many=True, context={"people": stats.people}).data

    @extend_schema_field(GoalkeeperStatisticsSerializer(many=True))
    def get_goalkeepers(self, stats):
        return GoalkeeperStatisticsSerializer(stats.goalkeepers, many=True, context={"people": stats.people}).data


class AmendedGoalInputSerializer(GoalInputSerializer):
    """A goal line an amendment adds: a goal's fields, in the game being amended."""

    game = None


class ResultAmendmentInputSerializer(serializers.Serializer):
    """A correction of a final result: the goal lines change, and the score follows them (5.5.11 B)."""

    reason = serializers.CharField(
        allow_blank=True, help_text="Why the result is corrected; recorded with who and when (required)."
    )
    remove_goals = serializers.ListField(
        child=IntegerField(min_value=1, max_value=MAX_ID),
        required=False,
        default=list,
        help_text="Ids of goal lines of this game to remove.",
    )
    add_goals = AmendedGoalInputSerializer(many=True, required=False, default=list)
    decided_in = serializers.ChoiceField(
        choices=DecidedIn.choices, required=False, help_text="How the game was decided; left out, it stays (1.3)."
    )
    shootout_home_goals = IntegerField(min_value=0, max_value=99, required=False, allow_null=True)
    shootout_away_goals = IntegerField(min_value=0, max_value=99, required=False, allow_null=True)


class ResultAmendmentSerializer(ModelSerializer):
    amended_by = serializers.StringRelatedField()

    class Meta:
        model = ResultAmendment
        fields = ["id", "game", "amended_by", "amended_at", "reason", "before", "after"]


# --- setting up venues, rinks and pools ------------------------------------------------------------------------------


class VenueInputSerializer(serializers.Serializer):
    """What ``venue_create`` / ``venue_update`` take."""

    name = serializers.CharField(max_length=200)
    city = serializers.CharField(max_length=100)
    country = CountryField(help_text="ISO 3166 code; the national federation of this country keeps the venue.")
    time_zone = serializers.CharField(
        max_length=64, help_text="IANA name, e.g. Europe/Rome. Times are stored in UTC and shown in this zone."
    )


class RinkDetailSerializer(RinkSerializer):
    """A rink with its venue."""

    class Meta(RinkSerializer.Meta):
        fields = ["id", "venue", *RinkSerializer.Meta.fields[1:]]


def _measurement(name: str, **kwargs) -> DecimalField:
    """A rink's measurement in metres, with the digits its column holds and what 2.1 says of it."""
    column = Rink._meta.get_field(name)
    return DecimalField(
        max_digits=column.max_digits,
        decimal_places=column.decimal_places,
        help_text=RINK_MEASUREMENTS_HELP[name],
        **kwargs,
    )


class RinkInputSerializer(serializers.Serializer):
    """What ``rink_create`` / ``rink_update`` take; the service checks the measurements against 2.1."""

    venue = StrictPrimaryKeyRelatedField(queryset=Venue.objects.all(), help_text="Only when adding a rink.")
    name = serializers.CharField(max_length=100)
    surface = serializers.ChoiceField(choices=Surface.choices, help_text="Rule 2.1 A.")
    surface_approved_by_ihtc = serializers.BooleanField(
        required=False, help_text=RINK_MEASUREMENTS_HELP["surface_approved_by_ihtc"]
    )
    length_m = _measurement("length_m")
    width_m = _measurement("width_m")
    board_height_m = _measurement("board_height_m", required=False, allow_null=True)
    corner_radius_m = _measurement("corner_radius_m", required=False, allow_null=True)


class RinkUpdateSerializer(RinkInputSerializer):
    """A rink stays at its venue: every other field may change."""

    venue = None


class PoolUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=20, help_text='E.g. "A": the bracket names teams by pool ("1A", 1.3 B).')


class PoolInputSerializer(PoolUpdateSerializer):
    championship = VisibleChampionshipField()


class PoolTeamInputSerializer(serializers.Serializer):
    entry = IntegerField(min_value=1, max_value=MAX_ID, help_text="A confirmed entry of the championship.")
    seed = IntegerField(min_value=0, max_value=32767, default=0, help_text="Its seed in the pool.")
