"""REST API of championships: thin views over the selectors and services.

Published data (championships, venues, entries, rosters, pools, the
schedule, results, summaries, standings, statistics and the bracket) is
read by anyone. Each write: an input serializer checks the shape of the
request (a 400 naming the field), a service of ``tournaments.services``
checks who may do it (403) and the rule (a 400 naming the field and the
rule), then writes; an output serializer answers.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiRequest,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from accounts.models import User
from federation.models import Person
from portal.api import ServiceAnswerMixin
from portal.filters import MAX_ID
from portal.page_cache import public_answer

from . import roster_files, selectors, services, versions
from .filters import (
    ChampionshipFilter,
    EntryFilter,
    GameFilter,
    GoalFilter,
    PenaltyFilter,
    PoolFilter,
    RinkFilter,
    RosterEntryFilter,
    VenueFilter,
)
from .models import Game, GoalRecord, PenaltyRecord, Pool, PoolTeam, Rink, RosterEntry, TeamEntry, Venue
from .serializers import (
    BracketGenerateInputSerializer,
    BracketSerializer,
    ChampionshipInputSerializer,
    ChampionshipSerializer,
    EntryInputSerializer,
    EntryInviteInputSerializer,
    EntryManagersSerializer,
    EntrySerializer,
    FeePaidInputSerializer,
    GameMoveInputSerializer,
    GameResultInputSerializer,
    GameSerializer,
    GoalInputSerializer,
    GoalkeeperLineInputSerializer,
    GoalkeeperLineSerializer,
    GoalSerializer,
    InvitationSerializer,
    ManagersInputSerializer,
    NumberChangeApprovalInputSerializer,
    NumberChangeApprovalSerializer,
    PenaltyInputSerializer,
    PenaltySerializer,
    PoolInputSerializer,
    PoolSerializer,
    PoolStandingsSerializer,
    PoolTeamInputSerializer,
    PoolUpdateSerializer,
    ResultAmendmentInputSerializer,
    ResultAmendmentSerializer,
    RinkDetailSerializer,
    RinkInputSerializer,
    RinkUpdateSerializer,
    RosterEntryInputSerializer,
    RosterEntrySerializer,
    RosterEntryUpdateSerializer,
    RosterImportSerializer,
    RosterLineEligibilitySerializer,
    ScheduleGenerateInputSerializer,
    ShootoutInputSerializer,
    StatisticsSerializer,
    VenueInputSerializer,
    VenueSerializer,
)

_REFUSED = {
    400: OpenApiResponse(description="Bad input: the field and the rule it breaks."),
    403: OpenApiResponse(description="Not allowed for this user."),
}
_NOT_FOUND = OpenApiResponse(description="No such record, or one of a championship this user may not see.")

MANAGERS_EXAMPLE = OpenApiExample(
    "Managers and waiting invitations",
    value={
        "managers": [{"id": 12, "name": "Ana Ruiz", "email": "ana.ruiz@example.org", "duty": "coach"}],
        "invitations": [
            {
                "email": "team@example.org",
                "duty": "manager",
                "invited_at": "2026-12-01T10:00:00Z",
                "expires_at": "2026-12-08T10:00:00Z",
            },
        ],
    },  # fmt: skip
    response_only=True,
    status_codes=["200"],
)
INVITE_EXAMPLES = [
    OpenApiExample("Invite a coach", value={"email": "coach@example.org", "duty": "coach"}, request_only=True),
    OpenApiExample("Deprecated: replace the managers by login ids", value={"managers": [12]}, request_only=True),
    OpenApiExample(
        "Invitation sent",
        value={
            "email": "coach@example.org",
            "duty": "coach",
            "invited_at": "2026-12-07T18:00:00Z",
            "expires_at": "2026-12-14T18:00:00Z",
        },  # fmt: skip
        response_only=True,
        status_codes=["201"],
    ),
    OpenApiExample(
        "Refused: not an e-mail address",
        value={"email": ["Enter a valid email address."]},
        response_only=True,
        status_codes=["400"],
    ),
    OpenApiExample(
        "Refused: not the federation's staff",
        value={"detail": "Only staff of the team's federation or international staff name its managers."},
        response_only=True,
        status_codes=["403"],
    ),
]
NUMBER_CHANGE_EXAMPLES = [
    OpenApiExample(
        "Approve 17 -> 71", value={"new_number": "71", "reason": "Torn jersey; letter of 3 May."}, request_only=True
    ),
    OpenApiExample(
        "Approved",
        value={
            "id": 4,
            "roster_entry": 88,
            "old_number": "17",
            "new_number": "71",
            "reason": "Torn jersey; letter of 3 May.",
            "approved_by": "ihtc.staff",
            "approved_at": "2026-12-07T18:00:00Z",
            "applied_at": None,
        },  # fmt: skip
        response_only=True,
        status_codes=["201"],
    ),
    OpenApiExample(
        "Refused: a leading zero",
        value={"new_number": ['Rule 3.2.9 C: numbers are 1-99 without a leading zero ("7", not "07")']},
        response_only=True,
        status_codes=["400"],
    ),
    OpenApiExample(
        "Refused: not the IHTC",
        value={"detail": "Rule 3.2.9 D: only the IHTC approves a number change."},
        response_only=True,
        status_codes=["403"],
    ),
]


class PublicReadPermission(permissions.BasePermission):
    """Published data is read by anyone; a write needs a login, and the service decides who may (403).

    Actions a view lists in ``private_actions`` (a roster's eligibility) need a login to read too.
    """

    def allows_anonymous(self, view, method: str) -> bool:
        """Whether anyone may call ``view`` with ``method`` (the schema says so: ``portal.openapi``)."""
        return method in permissions.SAFE_METHODS and view.action not in getattr(view, "private_actions", ())

    def has_permission(self, request, view):
        if self.allows_anonymous(view, request.method):
            return True
        return bool(request.user and request.user.is_authenticated)


class TournamentViewSet(ServiceAnswerMixin, viewsets.GenericViewSet):
    permission_classes = [PublicReadPermission]
    # How a row reaches its championship ("" for championships themselves); None: not a championship's row.
    # A draft championship's rows are seen by its directors only (selectors.championship_visibility_q): 404 otherwise.
    championship_through: str | None = None

    def get_queryset(self):
        queryset = super().get_queryset()
        if self.championship_through is None:
            return queryset
        return selectors.of_visible_championships(queryset, self.request.user, through=self.championship_through)

    def public_answer(self, data_version: int, produce) -> Response:
        """A public read of one championship's data: an anonymous reader's answer comes from the cache at the
        championship's data version (``portal.page_cache.public_answer``; ``tournaments.versions``)."""
        return public_answer(self.request, version=(data_version,), produce=produce)


def _entry_person(entry: TeamEntry, person_id: int, *, field: str = "person") -> Person:
    """The person a request names, among the people of the entering federation (what its managers may pick)."""
    person = Person.objects.filter(federation_id=entry.federation_id, pk=person_id).first()
    if person is None:
        raise ValidationError(
            {
                field: _("No person with id %(person_id)s in %(federation)s.")
                % {"person_id": person_id, "federation": entry.federation}
            }
        )
    return person


# --- venues and championships ------------------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        summary="Venues with their rinks",
        description="Anyone reads them. Each rink with its surface and its dimensions in metres (2.1 B-E). Filters: country, city; search in name and city.",
    ),
    retrieve=extend_schema(
        summary="A venue with its rinks",
        description="Anyone reads it. Dimensions in metres (2.1 B-E); 404 for an unknown venue.",
    ),
)
class VenueViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, TournamentViewSet):
    serializer_class = VenueSerializer
    queryset = Venue.objects.prefetch_related("rinks").order_by("name")
    filterset_class = VenueFilter
    search_fields = ["name", "city"]
    ordering_fields = ["name", "city"]

    # Setting up venues (a federation's own tools set up a championship without the admin).
    @extend_schema(
        summary="Set up a venue",
        description="For international staff and staff of the national federation of the venue's country "
        "(services.venue_create). One venue per name in a city; the time zone is an IANA name, in which the "
        "championship's times are shown. Its rinks are added through /api/v1/rinks/ and checked against Rule 2.1.",
        request=VenueInputSerializer,
        responses={201: VenueSerializer, **_REFUSED},
    )
    def create(self, request, *args, **kwargs):
        data = self.input(VenueInputSerializer)
        venue = services.venue_create(**data, by=request.user)
        return self.answer(venue, created=True)

    @extend_schema(
        summary="Change a venue",
        description="A venue a championship uses: for that championship's directors (staff of its sanctioning "
        "body) and international staff; a venue no championship uses: for those who keep the venues of its "
        "country (services.can_change_venue). Moving it to another country needs that right there too. The "
        "time zone stays once a game there has started (400 naming time_zone). Unknown fields are refused.",
        request=VenueInputSerializer,
        responses={200: VenueSerializer, **_REFUSED},
    )
    def partial_update(self, request, *args, **kwargs):
        venue = self.get_object()
        services.check_can_change_venue(request.user, venue)
        data = self.input(VenueInputSerializer, partial=True)
        return self.answer(services.venue_update(venue=venue, **data, by=request.user))


@extend_schema_view(
    list=extend_schema(
        summary="Championships (public)",
        description="Anyone reads them. Each with its venue, its entry fee (1.1 A) and its rinks checked against its level (2.1). Filters: category, level, venue, sanctioning body, start dates, year; search in name and city.",
    ),
    retrieve=extend_schema(
        summary="A championship with its rinks' dimensions, checked against its level (2.1 F)",
        description="Anyone reads it. 2.1 F: the rinks' dimensions are published; each rink lists what keeps it from hosting the championship's level (2.1 A-E), in metres.",
    ),
)
class ChampionshipViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, TournamentViewSet):
    serializer_class = ChampionshipSerializer
    filterset_class = ChampionshipFilter
    search_fields = ["name", "venue__city"]
    ordering_fields = ["start_date", "name"]
    ordering = ["-start_date", "name"]

    def get_queryset(self):
        championships = selectors.visible_championships(self.request.user).select_related("venue")
        if self.action in ("list", "retrieve", "create", "partial_update"):
            return championships.prefetch_related("venue__rinks")
        return championships

    def retrieve(self, request, *args, **kwargs):
        championship = self.get_object()
        return self.public_answer(championship.data_version, lambda: self.serialized(championship))

    @extend_schema(
        summary="Set up a championship (staff of the sanctioning body or international staff)",
        description="Staff of the sanctioning body, or international staff (403 otherwise). The dates, the venue, the entry fee and closing date (1.1 A) and the ruleset (standings preset for 9.3); the venue's rinks must suit the level (2.1).",
        request=ChampionshipInputSerializer,
        responses={201: ChampionshipSerializer, **_REFUSED},
    )
    def create(self, request, *args, **kwargs):
        data = self.input(ChampionshipInputSerializer)
        championship = services.championship_create(**data, by=request.user)
        return self.answer(championship, created=True, serializer_class=ChampionshipSerializer)

    @extend_schema(
        summary="Change the set-up; the ruleset is frozen once the championship has begun",
        description="The championship's directors (staff of its sanctioning body, or international staff); only the fields sent change. The ruleset and the standings preset (9.3) cannot change once the championship has begun.",
        request=ChampionshipInputSerializer,
        responses={200: ChampionshipSerializer, **_REFUSED},
    )
    def partial_update(self, request, *args, **kwargs):
        championship = self.get_object()
        services.check_can_direct(request.user, championship)
        data = self.input(ChampionshipInputSerializer, instance=championship, partial=True)
        championship = services.championship_update(championship=championship, **data, by=request.user)
        return self.answer(championship, serializer_class=ChampionshipSerializer)

    @extend_schema(
        summary="Publish a draft championship",
        description="For its directors: staff of the sanctioning body and international staff "
        "(services.championship_publish). Until then the championship, its entries, rosters, pools, games and "
        "tables are seen by its directors only (anyone else gets 404); entries open once it is published. "
        "Publishing one that is published already is refused.",
        request=None,
        responses={200: ChampionshipSerializer, **_REFUSED},
    )
    @action(detail=True, methods=["post"])
    def publish(self, request, pk=None):
        championship = services.championship_publish(championship=self.get_object(), by=request.user)
        return self.answer(championship, serializer_class=ChampionshipSerializer)

    @extend_schema(
        summary="Every pool's table with how each tie was broken (9.3)",
        description="Anyone reads it. One table per pool, as a bare list (no pages): points (win 2, tie 1, loss 0, forfeit -2), then the criteria 9.3 C-F among the tied teams (R-41..R-43); teams only a shoot-out can separate are marked (9.3 G).",
        responses=PoolStandingsSerializer(many=True),
    )
    @action(detail=True, methods=["get"])
    def standings(self, request, pk=None):
        championship = self.get_object()
        return self.public_answer(
            championship.data_version,
            lambda: self.serialized(
                selectors.championship_standings(championship), many=True, serializer_class=PoolStandingsSerializer
            ),
        )

    @extend_schema(
        summary="Players, goalkeepers and special teams (4.3, 4.6 note, 8.1 B-D)",
        description="Anyone reads it. Players' points (4.3), goalkeepers' saves and save percentage (4.6 note), power plays and penalty killing; a forfeit counts 1-0 without assists or goalkeeper lines (8.1 B-D). A player's games are the games whose line-up lists him (5.1 A); a team game without a line-up counts for the team's roster (`roster_games` says how many).",
        responses=StatisticsSerializer,
    )
    @action(detail=True, methods=["get"])
    def statistics(self, request, pk=None):
        championship = self.get_object()
        return self.public_answer(
            championship.data_version,
            lambda: self.serialized(
                selectors.championship_statistics(championship), serializer_class=StatisticsSerializer
            ),
        )

    @extend_schema(
        summary="The elimination bracket, filled in from the standings and results (1.3 B, 9.3)",
        description="Anyone reads it; 404 until the elimination phase is drawn. Seeds come from the pool tables (9.3), never guessed while a shoot-out is pending; a team not decided yet is null.",
        responses={200: BracketSerializer, 404: OpenApiResponse(description="No bracket yet.")},
    )
    @action(detail=True, methods=["get"])
    def bracket(self, request, pk=None):
        championship = self.get_object()

        def produce():
            the_bracket = selectors.bracket_for(championship)
            return None if the_bracket is None else self.serialized(the_bracket, serializer_class=BracketSerializer)

        answer = self.public_answer(championship.data_version, produce)
        if answer.data is None:
            return Response({"detail": "The elimination phase is not drawn yet."}, status=status.HTTP_404_NOT_FOUND)
        return answer

    @extend_schema(
        summary="Generate the round-robin schedule (no team twice at once; rinks meet the level, 2.1 C)",
        description="The championship's directors. Every pool's round robin on the given days, slot times (at the venue) and rinks: no team or rink twice at once, ``rest_slots`` free slots between a team's games, rinks that meet the championship's level (2.1 C). Answers the games created, as a bare list.",
        request=ScheduleGenerateInputSerializer,
        responses={201: GameSerializer(many=True), **_REFUSED},
    )
    @action(detail=True, methods=["post"], url_path="generate-schedule")
    def generate_schedule(self, request, pk=None):
        championship = self.get_object()
        services.check_can_direct(request.user, championship)
        data = self.input(ScheduleGenerateInputSerializer)
        games = services.schedule_generate(championship=championship, **data, by=request.user)
        return self.answer(
            selectors.games_shown().filter(pk__in=[g.pk for g in games]),
            many=True,
            created=True,
            serializer_class=GameSerializer,
        )

    @extend_schema(
        summary="Create the elimination and placement games (1.3 B)",
        description="The championship's directors. 1.3 B: the first round crosses the pools (1A v 2B, 1B v 2A...); placement games for every place, the bronze only, or none. Teams are filled in as the standings decide them. Answers the games created, as a bare list.",
        request=BracketGenerateInputSerializer,
        responses={201: GameSerializer(many=True), **_REFUSED},
    )
    @action(detail=True, methods=["post"], url_path="generate-bracket")
    def generate_bracket(self, request, pk=None):
        championship = self.get_object()
        services.check_can_direct(request.user, championship)
        data = self.input(BracketGenerateInputSerializer)
        games = services.bracket_generate(championship=championship, **data, by=request.user)
        return self.answer(
            selectors.games_shown().filter(pk__in=[g.pk for g in games]),
            many=True,
            created=True,
            serializer_class=GameSerializer,
        )


@extend_schema_view(
    list=extend_schema(
        summary="Rinks of the venues",
        description="Public (no login needed). Measurements in metres (Rule 2.1 B, C, E); filter by venue "
        "with ?venue=.",
    ),
    retrieve=extend_schema(
        summary="A rink", description="Public (no login needed). Measurements in metres (Rule 2.1 B, C, E)."
    ),
)
class RinkViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, TournamentViewSet):
    serializer_class = RinkDetailSerializer
    queryset = Rink.objects.select_related("venue").order_by("venue__name", "name")
    filterset_class = RinkFilter
    ordering_fields = ["name", "length_m", "width_m"]

    @extend_schema(
        summary="Add a rink to a venue, checked against Rule 2.1",
        description="For those who may change the venue (services.can_change_venue: a venue a championship "
        "uses is its directors' and international staff's, another the keepers of its country's venues). Measurements in "
        "metres: 2.1 B, 40-60 m long and 20-30 m wide; 2.1 E, boards 1.01-1.22 m high; 2.1 A, a surface other "
        "than sport tile, wood, asphalt or cement needs the IHTC's approval, which only international staff "
        "record. A refusal names the field and the article. Whether the rink meets a championship's level "
        "(2.1 C) shows with the championship and is checked when games are scheduled on it.",
        request=RinkInputSerializer,
        responses={201: RinkDetailSerializer, **_REFUSED},
    )
    def create(self, request, *args, **kwargs):
        data = self.input(RinkInputSerializer)
        rink = services.rink_create(**data, by=request.user)
        return self.answer(rink, created=True)

    @extend_schema(
        summary="Change a rink's name, surface or measurements, checked against Rule 2.1",
        description="For those who may change the venue (services.can_change_venue, as for adding a rink); the "
        "rink stays at its venue. The same "
        "checks as adding one (2.1 A, B, E, in metres), and a rink that hosts games of a championship keeps the "
        "minimum of its level (2.1 C). A refusal names the field and the article; nothing is saved.",
        request=RinkUpdateSerializer,
        responses={200: RinkDetailSerializer, **_REFUSED},
    )
    def partial_update(self, request, *args, **kwargs):
        rink = self.get_object()
        services.check_can_change_venue(request.user, rink.venue)
        data = self.input(RinkUpdateSerializer, partial=True)
        return self.answer(services.rink_update(rink=rink, **data, by=request.user))


# --- entries and rosters -----------------------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        summary="Team entries (public)",
        description="Anyone reads them. Filters: championship, federation, status, fee_paid; search in the name and the federation's name. ``pool`` is null before the draw.",
    ),
    retrieve=extend_schema(summary="A team entry", description="Anyone reads it; ``pool`` is null before the draw."),
)
class EntryViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, TournamentViewSet):
    serializer_class = EntrySerializer
    queryset = TeamEntry.objects.select_related("federation", "pool_membership")
    championship_through = "championship"
    filterset_class = EntryFilter
    search_fields = ["name", "federation__name"]
    ordering_fields = ["name", "status"]
    ordering = ["championship", "name"]
    private_actions = {"roster", "managers"}

    def managed_entry(self) -> TeamEntry:
        entry = self.get_object()
        services.check_can_manage_entry(self.request.user, entry)
        return entry

    @extend_schema(
        summary="Enter a federation's national team (1.1 A: affiliated, in good standing, before the closing date)",
        description="Staff of the entering federation, or international staff (403 otherwise). 1.1 A: a national federation affiliated with FIRS and in good standing enters before the closing date; the fee due is the championship's. A draft championship takes no entry until its directors publish it: those who may see the draft are told so (400 on ``championship``, 1.1 A); to everyone else it does not exist (400 on ``championship``, as an unknown id).",
        request=EntryInputSerializer,
        responses={201: EntrySerializer, **_REFUSED},
    )
    def create(self, request, *args, **kwargs):
        data = self.input(EntryInputSerializer, context=self.get_serializer_context())
        entry = services.entry_create(**data, by=request.user)
        return self.answer(entry, created=True, serializer_class=EntrySerializer)

    @extend_schema(
        summary="Record the entry fee as paid (1.1 A), which confirms the entry",
        description="The championship's directors. 1.1 A: an entry is confirmed when its fee is paid; the amount and its ISO 4217 currency, and when it was paid.",
        request=FeePaidInputSerializer,
        responses={200: EntrySerializer, **_REFUSED},
    )
    @action(detail=True, methods=["post"], url_path="fee-paid")
    def fee_paid(self, request, pk=None):
        entry = self.get_object()
        data = self.input(FeePaidInputSerializer)
        entry = services.entry_record_fee_paid(
            entry=entry,
            amount=services.money(data["amount"], data["currency"]),
            paid_at=data.get("paid_at"),
            by=request.user,
        )
        return self.answer(entry, serializer_class=EntrySerializer)

    @extend_schema(
        methods=["GET"],
        summary="The team's managers and officials, with their names and e-mails, and the invitations waiting",
        description="Staff of the entering federation and international staff: those who name the managers (the "
        'page "Managers and officials"). 404 for an entry of a championship this user may not see, 403 for '
        "anyone else (the team's own managers too).",
        responses={200: EntryManagersSerializer, 403: _REFUSED[403], 404: _NOT_FOUND},
        examples=[MANAGERS_EXAMPLE],
    )
    @extend_schema(
        methods=["POST"],
        summary="Name a team manager or official by e-mail: an invitation, valid 7 days, once",
        description="Staff of the entering federation and international staff (403 before anything else is "
        "read). The invitee receives a link by e-mail, makes a login (or accepts with the one of that address) "
        "and then keeps the team's entry, roster and line-ups, as the page \"Managers and officials: invite by "
        'e-mail" does (tournaments.services.entry_invite). Answers 201 with the invitation.\n\n'
        'Deprecated form: a body `{"managers": [login ids]}` replaces the managers by the logins named (the ids '
        "GET lists) and answers 200 with the entry; a removed manager loses every right that came from the entry.",
        request=PolymorphicProxySerializer(
            component_name="EntryManagersRequest",
            serializers=[EntryInviteInputSerializer, ManagersInputSerializer],
            resource_type_field_name=None,
        ),
        responses={201: InvitationSerializer, 200: EntrySerializer, **_REFUSED, 404: _NOT_FOUND},
        examples=INVITE_EXAMPLES,
    )
    @action(detail=True, methods=["get", "post"])
    def managers(self, request, pk=None):
        entry = self.get_object()
        # Refuse before reading anything more: a caller who may not name managers learns nothing about logins.
        services.check_can_name_managers(request.user, entry)
        if request.method == "GET":
            return self.answer(selectors.entry_staff(entry), serializer_class=EntryManagersSerializer)
        if "managers" not in request.data:
            data = self.input(EntryInviteInputSerializer)
            invitation = services.entry_invite(entry=entry, email=data["email"], duty=data["duty"], by=request.user)
            return self.answer(invitation, created=True, serializer_class=InvitationSerializer)
        ids = self.input(ManagersInputSerializer)["managers"]
        users = list(User.objects.filter(pk__in=ids, is_active=True))
        missing = sorted(set(ids) - {u.pk for u in users})
        if missing:
            raise ValidationError({"managers": _("No active user with id %(id)s.") % {"id": missing[0]}})
        entry = services.entry_set_managers(entry=entry, managers=users, by=request.user)
        return self.answer(entry, serializer_class=EntrySerializer)

    @extend_schema(
        summary="The roster with every player's eligibility and its articles (the team's managers and staff)",
        description="The team's managers and its federation's staff only (403 otherwise). Every roster line with its eligibility: the reasons and their articles (1.1 B-G, R-01..R-02) and those an IHTC waiver lifts (R-03). A bare list (no pages).",
        responses={200: RosterLineEligibilitySerializer(many=True), 403: _REFUSED[403]},
    )
    @action(detail=True, methods=["get"])
    def roster(self, request, pk=None):
        entry = self.managed_entry()
        lines = selectors.roster_with_eligibility(entry)
        context = {**self.get_serializer_context(), "eligibility": {line.pk: result for line, result in lines}}
        data = RosterLineEligibilitySerializer([line for line, _ in lines], many=True, context=context).data
        return Response(data)

    @extend_schema(
        summary="Register the roster: complete (R-04..R-06) and every player eligible or waived (1.1)",
        description="The team's managers or its federation's staff. The roster is registered when complete (R-04..R-06: players, goalkeepers, captain) and every player eligible or waived (1.1 B-G, R-03); the refusal names what is missing.",
        request=None,
        responses={200: EntrySerializer, **_REFUSED},
    )
    @action(detail=True, methods=["post"], url_path="confirm-roster")
    def confirm_roster(self, request, pk=None):
        entry = self.managed_entry()
        return self.answer(services.roster_confirm(entry=entry, by=request.user), serializer_class=EntrySerializer)

    @extend_schema(
        summary="Import players from a CSV or XLSX file: per-row errors, nothing saved if any row fails",
        description=(
            "The team's managers or its federation's staff. Answers the lines added, as a bare list. "
            "A multipart upload with one field, `file`: a CSV file (UTF-8; commas, semicolons or tabs) or an XLSX "
            "workbook (its active sheet), recognised by its content; a name ending in .csv or .xlsx must agree. "
            f"At most {roster_files.MAX_BYTES // 1024} KB, and no more data rows than the roster can take "
            "(3.1.1 A, R-04: 14 floor players and 2 goalkeepers), or it is refused before its rows are read. "
            "A header row names the columns: person_id, or last_name, first_name and date_of_birth (YYYY-MM-DD); "
            "number (3.2.9 C); position (player or goalkeeper); captain and alternate (yes/no). Every row is "
            "checked like a player added by hand (3.1.1 A-B, 3.1.2, 3.2.9 C-E, 1.1 A); a 400 lists under `file` "
            "each error as `Row n, column: rule`, n being the row the spreadsheet shows (the header is row 1, "
            "blank rows keep their numbers). Nothing is saved if any row fails."
        ),
        request=OpenApiRequest(
            RosterImportSerializer,
            encoding={"file": {"contentType": ", ".join(roster_files.CONTENT_TYPES.values())}},
        ),
        responses={201: RosterEntrySerializer(many=True), **_REFUSED},
    )
    @action(detail=True, methods=["post"], url_path="roster-import", parser_classes=[MultiPartParser, FormParser])
    def roster_import(self, request, pk=None):
        entry = self.managed_entry()
        data = self.input(RosterImportSerializer)
        added = services.roster_import(entry=entry, file=data["file"], by=request.user)
        lines = RosterEntry.objects.filter(pk__in=[line.pk for line in added]).select_related("person")
        return self.answer(lines, many=True, created=True, serializer_class=RosterEntrySerializer)


@extend_schema_view(
    list=extend_schema(
        summary="Roster lines (public: number, name, position, captaincy)",
        description="Anyone reads them (eligibility is the team's: see the entry's roster). Filters: entry, championship, position, confirmed.",
    ),
    retrieve=extend_schema(summary="A roster line", description="Anyone reads it; 404 for an unknown line."),
)
class RosterEntryViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, TournamentViewSet):
    serializer_class = RosterEntrySerializer
    queryset = RosterEntry.objects.select_related("person")
    championship_through = "entry__championship"
    filterset_class = RosterEntryFilter
    ordering_fields = ["number", "position"]
    ordering = ["entry", "position", "number"]

    @extend_schema(
        summary="Add a player or goalkeeper (3.1.1, 3.1.2, 3.2.9 C-E; R-04..R-06)",
        description="The team's managers or its federation's staff. The person must belong to the entering federation (400 otherwise). Checks: players added before the start (3.1.1), captain and alternates (3.1.2), numbers (3.2.9 C-E), roster sizes (R-04..R-06).",
        request=RosterEntryInputSerializer,
        responses={201: RosterEntrySerializer, **_REFUSED},
    )
    def create(self, request, *args, **kwargs):
        data = self.input(RosterEntryInputSerializer)
        entry = data.pop("entry")
        services.check_can_manage_entry(request.user, entry)
        data["person"] = _entry_person(entry, data["person"])
        line = services.roster_add_player(entry=entry, **data, by=request.user)
        return self.answer(line, created=True, serializer_class=RosterEntrySerializer)

    @extend_schema(
        summary="Change number, position or captaincy (a number after registration needs IHTC approval, 3.2.9 D)",
        description="The team's managers or its federation's staff; only the fields sent change. A number changed after the roster's registration needs the IHTC's approval (3.2.9 D); captaincy as 3.1.2 says.",
        request=RosterEntryUpdateSerializer,
        responses={200: RosterEntrySerializer, **_REFUSED},
    )
    def partial_update(self, request, *args, **kwargs):
        line = self.get_object()
        services.check_can_manage_entry(request.user, line.entry)
        data = self.input(RosterEntryUpdateSerializer)
        line = services.roster_update(roster_entry=line, **data, by=request.user)
        return self.answer(line, serializer_class=RosterEntrySerializer)

    @extend_schema(
        summary="Record the IHTC's written approval of a number change after registration (3.2.9 D)",
        description="The IHTC: its executive and international staff (403 for anyone else, before the body is "
        "read); 404 for a line of a championship this user may not see. The same service as the admin's "
        '"Number change approvals" (tournaments.services.number_change_approve): the new number is 1-99 '
        "without a leading zero (3.2.9 C) and not the one worn; the reason is required (3.2.9 D). The team then "
        "changes the number (PATCH /api/roster-entries/{id}/), which uses the approval up.",
        request=NumberChangeApprovalInputSerializer,
        responses={201: NumberChangeApprovalSerializer, **_REFUSED, 404: _NOT_FOUND},
        examples=NUMBER_CHANGE_EXAMPLES,
    )
    @action(detail=True, methods=["post"], url_path="number-change-approvals")
    def number_change_approvals(self, request, pk=None):
        line = self.get_object()
        services.check_can_approve_number_change(request.user)
        data = self.input(NumberChangeApprovalInputSerializer)
        approval = services.number_change_approve(roster_entry=line, **data, by=request.user)
        return self.answer(approval, created=True, serializer_class=NumberChangeApprovalSerializer)

    @extend_schema(
        summary="Take a player off the roster (none added after the start, 3.1.1 B)",
        description="The team's managers or its federation's staff; refused once the championship has started (3.1.1 B: the roster is then frozen). 204 without a body.",
        responses={204: None, **_REFUSED},
    )
    def destroy(self, request, *args, **kwargs):
        line = self.get_object()
        services.roster_remove(roster_entry=line, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- pools, games, summaries ---------------------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        summary="Pools with their teams",
        description="Anyone reads them: each pool with its teams and seeds. Filter: championship.",
    ),
    retrieve=extend_schema(summary="A pool", description="Anyone reads it; 404 for an unknown pool."),
)
class PoolViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, TournamentViewSet):
    serializer_class = PoolSerializer
    queryset = Pool.objects.prefetch_related(
        Prefetch("members", queryset=PoolTeam.objects.select_related("entry").order_by("seed", "entry__name"))
    )
    filterset_class = PoolFilter
    ordering = ["championship", "name"]
    championship_through = "championship"

    def directed_pool(self) -> Pool:
        pool = self.get_object()
        services.check_can_direct(self.request.user, pool.championship)
        return pool

    # Setting up pools.
    @extend_schema(
        summary="Add a pool to a championship",
        description="For the championship's directors (services.pool_create): the round robin is played in pools "
        "(1.3 B). A pool's name is unique in its championship; teams join it through POST /api/v1/pools/{id}/teams/ "
        "once their entry is confirmed (1.1 A).",
        request=PoolInputSerializer,
        responses={201: PoolSerializer, **_REFUSED},
    )
    def create(self, request, *args, **kwargs):
        data = self.input(PoolInputSerializer, context=self.get_serializer_context())
        pool = services.pool_create(championship=data["championship"], name=data["name"], by=request.user)
        return self.answer(pool, created=True)

    @extend_schema(
        summary="Rename a pool",
        description="For the championship's directors (services.pool_update), before the pool's games exist: "
        'the schedule and the bracket name its teams by pool ("1A", 1.3 B).',
        request=PoolUpdateSerializer,
        responses={200: PoolSerializer, **_REFUSED},
    )
    def partial_update(self, request, *args, **kwargs):
        pool = self.directed_pool()
        data = self.input(PoolUpdateSerializer)
        return self.answer(services.pool_update(pool=pool, name=data["name"], by=request.user))

    @extend_schema(
        summary="Put a confirmed team in the pool",
        description="For the championship's directors (services.pool_add_entry): a confirmed entry of the "
        "championship (1.1 A: entry fee paid), in one pool only, before the pool's schedule exists.",
        request=PoolTeamInputSerializer,
        responses={201: PoolSerializer, **_REFUSED},
    )
    @action(detail=True, methods=["post"])
    def teams(self, request, pk=None):
        pool = self.directed_pool()
        data = self.input(PoolTeamInputSerializer)
        entry = TeamEntry.objects.filter(championship_id=pool.championship_id, pk=data["entry"]).first()
        if entry is None:
            raise ValidationError(
                {
                    "entry": _("No entry %(entry)s in %(championship)s.")
                    % {"entry": data["entry"], "championship": pool.championship}
                }
            )
        services.pool_add_entry(pool=pool, entry=entry, seed=data["seed"], by=request.user)
        return self.answer(self.get_queryset().get(pk=pool.pk), created=True)

    @extend_schema(
        summary="The pool's table with how each tie was broken (9.3; R-41..R-43)",
        description="Anyone reads it. Points (win 2, tie 1, loss 0, forfeit -2), then 9.3 C-F among the tied teams (R-41..R-43); ``decided_by`` names the criterion that placed a team, ``needs_shootout`` marks teams only a shoot-out can separate (9.3 G).",
        responses=PoolStandingsSerializer,
    )
    @action(detail=True, methods=["get"])
    def standings(self, request, pk=None):
        pool = self.get_object()
        return self.public_answer(
            versions.data_version(pool.championship_id),
            lambda: self.serialized(selectors.pool_standings(pool), serializer_class=PoolStandingsSerializer),
        )

    @extend_schema(
        summary="Enter the shoot-out between teams still tied after 9.3 C-F (9.3 G, R-42), best first",
        description="The championship's directors. Only teams of the pool still tied after 9.3 C-F; the entries best first (9.3 G, R-42). Answers the table with the shoot-out applied.",
        request=ShootoutInputSerializer,
        responses={201: PoolStandingsSerializer, **_REFUSED},
    )
    @action(detail=True, methods=["post"])
    def shootout(self, request, pk=None):
        pool = self.directed_pool()
        ids = self.input(ShootoutInputSerializer)["entries"]
        members = {m.entry_id: m.entry for m in pool.members.all()}
        unknown = [i for i in ids if i not in members]
        if unknown:
            raise ValidationError(
                {
                    "entries": _("Entry %(entry)s does not play in pool %(pool)s.")
                    % {"entry": unknown[0], "pool": pool.name}
                }
            )
        services.standings_shootout_enter(pool=pool, ordered_entries=[members[i] for i in ids], by=request.user)
        return self.answer(selectors.pool_standings(pool), created=True, serializer_class=PoolStandingsSerializer)


@extend_schema_view(
    list=extend_schema(
        summary="The schedule and results (times in UTC and at the venue; home team first, 5.4 D)",
        description="Anyone reads it. ``start_at`` in UTC and ``local_start`` at the venue (null while unscheduled); the home team is named first (5.4 D); in the bracket ``home``/``away`` are null until decided. Filters: championship, pool, rink, status, phase, team, start range, bracket_slot.",
    ),
    retrieve=extend_schema(
        summary="A game",
        description="Anyone reads it. Times in UTC and at the venue; the home team first (5.4 D); teams not decided yet are null.",
    ),
)
class GameViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, TournamentViewSet):
    serializer_class = GameSerializer
    filterset_class = GameFilter
    ordering_fields = ["start_at", "number"]
    ordering = ["start_at", "number"]

    def get_queryset(self):
        return selectors.of_visible_championships(selectors.games_shown(), self.request.user)

    def retrieve(self, request, *args, **kwargs):
        game = self.get_object()
        return self.public_answer(game.championship.data_version, lambda: self.serialized(game))

    def list(self, request, *args, **kwargs):
        # One championship's games (its schedule and results) are cached at its data version; another list is not.
        championship = request.query_params.get("championship", "")
        if not (championship.isdigit() and int(championship) <= MAX_ID):
            return super().list(request, *args, **kwargs)
        return self.public_answer(
            versions.data_version(int(championship)),
            lambda: super(GameViewSet, self).list(request, *args, **kwargs).data,
        )

    def directed_game(self) -> Game:
        game = self.get_object()
        services.check_can_direct(self.request.user, game.championship)
        return game

    @extend_schema(
        summary="Record the final result of a game that has started: the score is its goal lines (5.5.11 B); "
        "a forfeit is 1-0 to the winner's captain (8.1 B) and may disqualify (8.1 C)",
        description="The championship's directors, once the game has started (its scheduled start has passed, 5.1 A). The final score equals the game's goal lines (5.5.11 B) and says how it was decided (regulation, overtime, shoot-out; 1.3); a forfeit is scored 1-0 (8.1 B) and may disqualify the team (8.1 C). Standings and bracket follow. A final result is corrected by an amendment (POST /api/v1/games/{id}/amend/).",
        request=GameResultInputSerializer,
        responses={200: GameSerializer, **_REFUSED},
    )
    @action(detail=True, methods=["post"])
    def result(self, request, pk=None):
        game = self.directed_game()
        data = self.input(GameResultInputSerializer)
        services.game_record_result(game=game, **data, by=request.user)
        return self.answer(selectors.games_shown().get(pk=game.pk), serializer_class=GameSerializer)

    @extend_schema(
        summary="Amend a final result (the championship's directors): correct its goal lines, the score follows",
        description="The score is derived from the corrected goal lines (5.5.11 B); who, when and the required "
        "reason are recorded. Added goals are checked as new ones (5.1 B, 1.1, 5.5.11); the corrected result as a "
        "new result (1.3, R-40). A forfeit is not amended here (8.1 B-C). Standings and statistics follow.",
        request=ResultAmendmentInputSerializer,
        responses={201: ResultAmendmentSerializer, **_REFUSED},
    )
    @action(detail=True, methods=["post"])
    def amend(self, request, pk=None):
        game = self.directed_game()
        data = self.input(ResultAmendmentInputSerializer)
        ids = data.pop("remove_goals")
        goals = list(GoalRecord.objects.filter(pk__in=ids))
        missing = sorted(set(ids) - {goal.pk for goal in goals})
        if missing:
            raise ValidationError({"remove_goals": _("No goal with id %(id)s.") % {"id": missing[0]}})
        amendment = services.result_amend(game=game, remove_goals=goals, **data, by=request.user)
        return self.answer(amendment, created=True, serializer_class=ResultAmendmentSerializer)

    @extend_schema(
        summary="Move a game to another time or rink (no team or rink twice at once; rinks meet the level, 2.1 C)",
        description="The championship's directors. ``start_at`` with its UTC offset; no team or rink twice at once; the rink must meet the championship's level (2.1 C). A final game, or one under way (its live sheet open, 4.3 A), is not moved: 400 naming ``start_at``.",
        request=GameMoveInputSerializer,
        responses={200: GameSerializer, **_REFUSED},
    )
    @action(detail=True, methods=["post"])
    def move(self, request, pk=None):
        game = self.directed_game()
        data = self.input(GameMoveInputSerializer)
        services.game_move(game=game, start_at=data.get("start_at"), rink=data.get("rink"), by=request.user)
        return self.answer(selectors.games_shown().get(pk=game.pk), serializer_class=GameSerializer)

    @extend_schema(
        summary="Set a goalkeeper's line: shots against = saves + goals against (4.6 note); none in a forfeit (8.1 B)",
        description="The championship's directors. A goalkeeper of the team's roster; shots against = saves + goals against (4.6 note); no line in a forfeited game (8.1 B).",
        request=GoalkeeperLineInputSerializer,
        responses={200: GoalkeeperLineSerializer, **_REFUSED},
    )
    @action(detail=True, methods=["post"], url_path="goalkeeper-line")
    def goalkeeper_line(self, request, pk=None):
        game = self.directed_game()
        data = self.input(GoalkeeperLineInputSerializer)
        line = services.goalkeeper_record_set(game=game, **data, by=request.user)
        return self.answer(line, serializer_class=GoalkeeperLineSerializer)


@extend_schema_view(
    list=extend_schema(
        summary="Goals of game summaries",
        description="Anyone reads them. ``assist`` and ``assist_name`` are null for a goal without an assist. Filters: game, championship, entry, scorer.",
    ),
    retrieve=extend_schema(summary="A goal", description="Anyone reads it; 404 for an unknown goal."),
)
class GoalViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, TournamentViewSet):
    serializer_class = GoalSerializer
    queryset = GoalRecord.objects.select_related("scorer", "assist")
    championship_through = "game__championship"
    filterset_class = GoalFilter
    ordering = ["game", "period", "time_tenths"]

    @extend_schema(
        summary="Add a goal to a game summary (5.5.11; at most one assist, R-32)",
        description="The championship's directors. 5.5.11: the scorer and at most one assist (R-32), of the scoring team; the period and the elapsed time in tenths of a second (R-10).",
        request=GoalInputSerializer,
        responses={201: GoalSerializer, **_REFUSED},
    )
    def create(self, request, *args, **kwargs):
        data = self.input(GoalInputSerializer)
        goal = services.goal_add(**data, by=request.user)
        return self.answer(goal, created=True, serializer_class=GoalSerializer)


@extend_schema_view(
    list=extend_schema(
        summary="Penalties of game summaries",
        description="Anyone reads them. ``person`` and ``person_name`` are null for a bench penalty. Filters: game, championship, entry, person.",
    ),
    retrieve=extend_schema(summary="A penalty", description="Anyone reads it; 404 for an unknown penalty."),
)
class PenaltyViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, TournamentViewSet):
    serializer_class = PenaltySerializer
    queryset = PenaltyRecord.objects.select_related("person")
    championship_through = "game__championship"
    filterset_class = PenaltyFilter
    ordering = ["game", "period", "time_tenths"]

    @extend_schema(
        summary="Add a penalty to a game summary (R-20, R-21; Annex C codes)",
        description="The championship's directors. ``infraction_code`` from the index of Annex C; the minutes charged in the records (R-21); no person for a bench penalty (R-20).",
        request=PenaltyInputSerializer,
        responses={201: PenaltySerializer, **_REFUSED},
    )
    def create(self, request, *args, **kwargs):
        data = self.input(PenaltyInputSerializer)
        data.setdefault("person", None)  # a bench penalty names no one
        penalty = services.penalty_add(**data, by=request.user)
        return self.answer(penalty, created=True, serializer_class=PenaltySerializer)
