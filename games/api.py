"""The games API: officials' assignments (4.1-4.6, R-08), line-ups (5.1, 5.3, 5.4 F; R-07), whether a game can
start (5.3 B). Thin: input serializer -> service -> output serializer; the services check who may and the rule."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, permissions, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from federation.models import Person
from portal.api import ServiceAnswerMixin
from portal.i18n import said
from tournaments.models import Game, TeamEntry
from tournaments.selectors import championship_visibility_q

from . import services
from .models import GameProtestMark, Lineup, LineupOfficial, LineupPlayer
from .serializers import (
    GameOfficialInputSerializer,
    GameOfficialSerializer,
    GameReadinessSerializer,
    GoalkeeperReplacementInputSerializer,
    LineupInputSerializer,
    LineupSerializer,
    ProtestMarkInputSerializer,
    ProtestMarkSerializer,
)

_REFUSED = {
    400: OpenApiResponse(description="Bad input: the field and the rule it breaks."),
    403: OpenApiResponse(description="Not allowed for this user."),
}


def _named(model, pk: int, field: str, queryset=None):
    """The row a request body names by id, or a 400 on that field."""
    row = (queryset if queryset is not None else model.objects).filter(pk=pk).first()
    if row is None:
        raise ValidationError(
            {field: gettext("No %(model)s with id %(id)s.") % {"model": model._meta.verbose_name, "id": pk}}
        )
    return row


_GAMES = Game.objects.select_related("championship__sanctioning_body", "home__federation", "away__federation")


@extend_schema_view(
    list=extend_schema(
        summary="Officials' assignments: of the championships you direct and of the games you officiate",
        description="4.1-4.6: two referees (the first listed, position 1, is the lead, 4.2 C), a timekeeper, a "
        "penalty timekeeper, an official scorer and up to two goal judges per game.",
    ),
    retrieve=extend_schema(summary="One assignment (4.1-4.6)"),
)
class GameOfficialViewSet(
    ServiceAnswerMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = GameOfficialSerializer
    permission_classes = [permissions.IsAuthenticated]
    filterset_fields = ["game", "person", "duty"]
    ordering = ["game", "duty", "position"]

    def get_queryset(self):
        return services.assignments_visible_to(self.request.user).select_related("person", "game")

    @extend_schema(
        summary="Assign an official to a game (championship directors)",
        description="Refused, naming the rule: a referee of either team's federation (4.2 I, R-08), a goal judge "
        "who is a member of either team (4.6 B), a person not registered as referee (4.2 A) or official (4.1 B), "
        "more than two referees or one timekeeper, penalty timekeeper or scorer (4.1), a final game (4.2 O). "
        "Without a position, the official takes the next free one: the first referee is the lead (4.2 C).",
        request=GameOfficialInputSerializer,
        responses={201: GameOfficialSerializer, **_REFUSED},
    )
    def create(self, request, *args, **kwargs):
        data = self.input(GameOfficialInputSerializer)
        game = _named(Game, data["game"], "game", _GAMES)
        person = _named(Person, data["person"], "person")
        assignment = services.official_assign(
            game=game, person=person, duty=data["duty"], position=data.get("position"), by=request.user
        )
        return self.answer(assignment, created=True)

    @extend_schema(
        summary="Withdraw an assignment (championship directors)",
        description="4.2 B: another official is appointed instead; refused once the game is final (4.2 O).",
        responses={204: None, **_REFUSED},
    )
    def destroy(self, request, *args, **kwargs):
        assignment = self.get_object()
        services.official_unassign(assignment=assignment, by=request.user)
        return Response(status=204)


def _lineups(queryset):
    return queryset.select_related("game", "entry").prefetch_related(
        Prefetch("players", queryset=LineupPlayer.objects.select_related("person")),
        Prefetch("bench_officials", queryset=LineupOfficial.objects.select_related("person", "team_official")),
    )


class PublicReadPermission(permissions.BasePermission):
    """Reads are open (the queryset decides what is shown); a write needs a login and the service decides."""

    def allows_anonymous(self, view, method: str) -> bool:
        """Whether an anonymous caller may ``method`` (the schema's ``security`` says so: portal.openapi)."""
        return method in permissions.SAFE_METHODS

    def has_permission(self, request, view):
        return self.allows_anonymous(view, request.method) or bool(request.user and request.user.is_authenticated)


@extend_schema_view(
    list=extend_schema(
        summary="Line-ups: public once the game has started; before, the team's own, its officials' and directors'",
        description="5.1 A, 4.3: each team's list of players, goalkeepers, captain and alternates, starting "
        "line-up (5.3 A) and bench officials (5.4 F). Before the start a team sees only its own.",
    ),
    retrieve=extend_schema(summary="One line-up (5.1 A)"),
)
class LineupViewSet(ServiceAnswerMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = LineupSerializer
    permission_classes = [PublicReadPermission]
    filterset_fields = ["game", "entry"]
    ordering = ["game", "entry"]

    def get_queryset(self):
        return _lineups(services.lineups_visible_to(self.request.user))

    @extend_schema(
        summary="Give the team's line-up for a game (the team's managers), replacing any earlier one",
        description="R-07: at most 14 floor players and 2 goalkeepers (5.1 A), all from the registered roster "
        "(5.1 B), none suspended (8.2 A, R-53: the suspension is named), captain or alternates marked "
        "(3.1.2, 4.3), at most 5 team officials on the bench (5.4 F), a starting line-up of at most 4 floor "
        "players and a goalkeeper (5.3 A). No change once the game has started (5.1 C).",
        request=LineupInputSerializer,
        responses={201: LineupSerializer, **_REFUSED},
    )
    def create(self, request, *args, **kwargs):
        data = self.input(LineupInputSerializer)
        game = _named(Game, data["game"], "game", _GAMES)
        entry = _named(TeamEntry, data["entry"], "entry")
        lineup = services.lineup_submit(
            game=game,
            entry=entry,
            players=[
                services.LineupChoice(
                    person_id=p["person"], captain=p["captain"], alternate=p["alternate"], starting=p["starting"]
                )
                for p in data["players"]
            ],
            bench_officials=data["bench_officials"],
            by=request.user,
        )
        return self.answer(_lineups(Lineup.objects).get(pk=lineup.pk), created=True)

    @extend_schema(
        summary="Replace an injured or ill goalkeeper by a player already on the list (5.1 C)",
        description="5.1 C: the one change after the start; the replacement must already be on the line-up. "
        "The team's managers, the game's officials or its directors record it.",
        request=GoalkeeperReplacementInputSerializer,
        responses={200: LineupSerializer, **_REFUSED},
    )
    @action(detail=True, methods=["post"], url_path="replace-goalkeeper")
    def replace_goalkeeper(self, request, pk=None):
        lineup = self.get_object()
        data = self.input(GoalkeeperReplacementInputSerializer)
        services.lineup_replace_injured_goalkeeper(
            lineup=lineup, goalkeeper_id=data["goalkeeper"], replacement_id=data["replacement"], by=request.user
        )
        return self.answer(_lineups(Lineup.objects).get(pk=lineup.pk))


@extend_schema_view(
    retrieve=extend_schema(
        summary="Whether the game can start: four floor players and a goalkeeper on each line-up (5.3 B)",
        description="5.3 B / 8.1 A: the same count as the engine's at the first period's start; a team that "
        "cannot start forfeits. For the game's officials and the championship's directors.",
        responses={200: GameReadinessSerializer, 403: _REFUSED[403]},
    ),
)
class GameReadinessViewSet(viewsets.GenericViewSet):
    permission_classes = [permissions.IsAuthenticated]
    serializer_class = GameReadinessSerializer
    queryset = _GAMES

    def retrieve(self, request, pk=None):
        # Through the viewset's own lookup: an id that is no number, or beyond the database's range, is a 404.
        game = self.get_object()
        services.check_can_see_game_readiness(request.user, game)
        problems = {side: said(problem) for side, problem in services.game_start_problems(game).items()}
        return Response(
            GameReadinessSerializer({"game": game.pk, "can_start": not problems, "problems": problems}).data
        )


@extend_schema_view(
    list=extend_schema(
        summary="Games played under protest: the administrative protests made before the start (9.1 B)",
        description="9.1 B, R-51: a protest about the rink, a player's equipment or unqualified players is valid "
        "only if made to the referee before the start; the referee then tells both captains the game is played "
        "under protest. Public, for the championships you may see; filter by `game`.",
    ),
)
class ProtestMarkViewSet(ServiceAnswerMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    serializer_class = ProtestMarkSerializer
    permission_classes = [PublicReadPermission]
    filterset_fields = ["game", "entry", "subject"]
    ordering = ["game", "made_at"]

    def get_queryset(self):
        visible = championship_visibility_q(self.request.user, "game__championship")
        return GameProtestMark.objects.filter(visible).select_related("entry")

    @extend_schema(
        summary="Record an administrative protest made before the start: the game is played under protest (9.1 B)",
        description="The game's lead referee (4.2 C) or the championship's directors. Refused, naming the field "
        "and the rule: after the start, its scheduled time or the sheet's opening (9.1 B / R-51: a protest during "
        "the game is the captain's on the rink, the sheet's `protest` event, 9.1 A); a team not in the game; a "
        "subject other than the rink, equipment or players (R-51); the same team and subject twice.",
        request=ProtestMarkInputSerializer,
        responses={201: ProtestMarkSerializer, **_REFUSED},
    )
    def create(self, request, *args, **kwargs):
        data = self.input(ProtestMarkInputSerializer)
        game = _named(Game, data["game"], "game", _GAMES)
        entry = _named(TeamEntry, data["entry"], "entry")
        mark = services.protest_mark_record(
            game=game, entry=entry, subject=data["subject"], details=data["details"], by=request.user
        )
        return self.answer(GameProtestMark.objects.select_related("entry").get(pk=mark.pk), created=True)
