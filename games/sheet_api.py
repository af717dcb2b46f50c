"""REST API of the live game sheet: thin views over ``games.sheet``.

The state is public (the scoreboard reads it); the log and the entries are the game's officials' and the staff's
who direct its championship. An entry batch is idempotent: the console's outbox may resend it until acknowledged.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from common.numbers import NotANumber, whole_number
from portal.api import ServiceAnswerMixin
from portal.filters import MAX_ID
from tournaments.models import Game
from tournaments.selectors import of_visible_championships

from . import devices
from . import sheet as services
from .selectors import protest_marks
from .serializers import ProtestMarkSerializer
from .sheet_answer import AckSerializer, SheetStateSerializer

_NOT_FOUND = OpenApiResponse(description="No such game.")
_FORBIDDEN = OpenApiResponse(description="Not one of the game's officials, nor staff who direct its championship.")


# One entry of a batch as ``services.check_entries`` reads it: an engine event plus the device's envelope.
# The schema says what the checks refuse: ``device_time`` is required and never null, ``clock_offset_ms`` may be.
_EXAMPLE_ENTRIES = [
    {
        "id": "0b6f1f6e-3c57-4c1e-9a8e-2f0a6f3e8d21",
        "type": "period_start",
        "period": 1,
        "device_time": "2026-12-07T18:30:00.120+01:00",
        "clock_offset_ms": -350,
    },
    {
        "id": "5d2c9a47-8e11-4f0b-b6a3-7c4e1d9f0a52",
        "type": "goal",
        "period": 1,
        "time": "3:12",
        "team": "home",
        "player": 5,
        "assists": [6],
        "device_time": "2026-12-07T18:35:41.900+01:00",
        "clock_offset_ms": None,
    },
]
SHEET_ENTRY_SCHEMA = {
    "type": "object",
    "description": "An engine event (docs/game-scripts.md, 'Events': its `type` and that type's fields) with the "
    "device's envelope: `id`, `device_time` and `clock_offset_ms`. No `seq`: the server gives the sequence.",
    "properties": {
        "id": {
            "type": "string",
            "format": "uuid",
            "description": "R-10: made on the device, once per entry; an id already stored is acknowledged as a "
            "duplicate, never stored twice.",
        },
        "type": {
            "type": "string",
            "description": "The event's type (docs/game-scripts.md): period_start, clock_start, clock_stop, goal, "
            "penalty, timeout, correction...",
        },
        "device_time": {
            "type": "string",
            "format": "date-time",
            "description": "R-10: the device's clock when the entry was made, ISO 8601 with its UTC offset. Required "
            "and never null: an entry without it, with null or without an offset is refused (400, R-10).",
        },
        "clock_offset_ms": {
            "type": "integer",
            "nullable": True,
            "description": "The device's clock minus the server's, in whole milliseconds, as the device measured "
            "it against the sheet's `server_time`. Null, or left out, when unknown: the "
            "server then takes the time it received the entry. A fraction is refused (R-10).",
        },
    },
    "required": ["id", "type", "device_time"],
    "example": _EXAMPLE_ENTRIES[0],
}


@extend_schema_field(
    {
        "type": "array",
        "items": SHEET_ENTRY_SCHEMA,
        "minItems": 1,
        "maxItems": services.MAX_BATCH,
        "example": _EXAMPLE_ENTRIES,
    }
)
class SheetEntriesField(serializers.ListField):
    """The batch's entries, each checked by ``services.check_entries`` (R-10) and then by the engine."""

    child = serializers.DictField()


class SheetEventsInputSerializer(serializers.Serializer):
    device = serializers.CharField(
        max_length=64, help_text="The id the entering device gives itself (the one it signed in with)."
    )
    events = SheetEntriesField(
        allow_empty=False,
        max_length=services.MAX_BATCH,
        help_text="Entries in the order made, at most 500: each an engine event (docs/game-scripts.md) with `id` "
        "(a UUID made on the device), `device_time` (ISO 8601 with its offset; never null, R-10) and "
        "`clock_offset_ms` (device minus server in whole milliseconds; null when unknown). No `seq`: the server "
        "gives the sequence.",
    )


class SheetReadSerializer(SheetStateSerializer):
    """The state as read (a resume, the scoreboard), with the administrative protests made before the start."""

    under_protest = serializers.SerializerMethodField(
        help_text="9.1 B: the administrative protests made before the start; the game is played under protest "
        "when there is one. The captains' on-rink protests (9.1 A) are the state's `protests`."
    )

    @extend_schema_field(ProtestMarkSerializer(many=True))
    def get_under_protest(self, answer):
        return ProtestMarkSerializer(self.context["under_protest"], many=True).data


class SheetEntryAnswerSerializer(SheetStateSerializer):
    acknowledged = AckSerializer(many=True, help_text="Every entry of the batch, in its order.")


class RefusalDetailSerializer(serializers.Serializer):
    event_id = serializers.CharField(
        allow_null=True, help_text="The refused event's `id` (a UUID); null when no one event is at fault."
    )
    rule = serializers.CharField(help_text="The article or R-id the refused event breaks.")
    field = serializers.CharField(allow_null=True)
    stored = serializers.BooleanField(help_text="The event named is a stored one the batch conflicts with.")
    message = serializers.CharField(
        required=False, help_text="The reason as a person reads it: the rule's words, citing the article or R-id."
    )


class SheetRefusalSerializer(serializers.Serializer):
    """A refused batch: ``events`` (or the field at fault) with the messages; ``refused`` when the engine refused."""

    events = serializers.JSONField(
        required=False,
        help_text="The messages: a list, or by position of the entry at fault (its field -> messages).",
    )
    refused = RefusalDetailSerializer(required=False, help_text="Present when the rules refused an event.")


class SheetLogLineSerializer(serializers.Serializer):
    sequence = serializers.IntegerField(source="event.sequence")
    id = serializers.UUIDField(source="event.event_id")
    event = serializers.JSONField(source="event.payload")
    entered_by = serializers.CharField(source="event.entered_by.username")
    device = serializers.CharField(source="event.device")
    received_at = serializers.DateTimeField(source="event.received_at")
    device_time = serializers.DateTimeField(
        source="event.device_time", help_text="R-10: the entering device's clock when the entry was made."
    )
    clock_offset_ms = serializers.IntegerField(
        source="event.clock_offset_ms",
        allow_null=True,
        help_text="The device's clock minus the server's in milliseconds, as sent; null: unknown (the entry is "
        "anchored at `received_at`).",
    )
    voided_by = serializers.UUIDField(allow_null=True, help_text="The correction that voids it (null: it counts).")


class SignInSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    duty = serializers.ChoiceField(choices=devices.SHEET_DUTY_CHOICES)
    device = serializers.CharField()
    user = serializers.CharField(source="user.username")
    signed_in_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True, help_text="When the device stopped keeping the duty.")
    taken_over_by = serializers.IntegerField(
        source="taken_over_by_id", allow_null=True, help_text="The sign-in that took the duty over (null: not)."
    )


class SignInInputSerializer(serializers.Serializer):
    device = serializers.CharField(max_length=64, help_text="The id the device gives itself (made once, kept).")
    duties = serializers.ListField(
        child=serializers.ChoiceField(choices=devices.SHEET_DUTY_CHOICES),
        allow_empty=False,
        max_length=len(devices.SHEET_DUTIES),
        help_text="The duties this device keeps (4.3-4.5): one person may keep all three at a small event.",
    )
    take_over = serializers.BooleanField(
        default=False, help_text="Take over duties another device keeps (logged: that device enters nothing more)."
    )


class ConsoleConflictSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="Which device keeps the duty, whose login, since when (4.3-4.5).")
    held_by = SignInSerializer(many=True, help_text="The other device's sign-ins.")


# The refusals of a write made from a console device (entries, signatures).
DEVICE_FORBIDDEN = OpenApiResponse(
    description="Not one of the game's officials, nor directing staff; or (for an official) a device not signed in "
    "to the game's sheet (4.3-4.5)."
)
TAKEN_OVER = OpenApiResponse(
    ConsoleConflictSerializer, description="Another device took this device's duties over (4.3-4.5)."
)


def _conflict(conflict: devices.ConsoleConflict) -> Response:
    body = {"detail": conflict.message, "held_by": SignInSerializer(conflict.holders, many=True).data}
    return Response(body, status=status.HTTP_409_CONFLICT)


def _game(game_id: int, user) -> Game:
    """The game, if its championship is one ``user`` may see (a draft's games are no such games to outsiders)."""
    games = Game.objects.select_related("championship__sanctioning_body", "phase", "home", "away")
    return get_object_or_404(of_visible_championships(games, user), pk=game_id)


class SheetView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="The live sheet's state: period, clock, score, box (public; for a resume and the scoreboard)",
        description="The state the engine replayed from the game's event log (architecture principle 3), as "
        "stored with the last entry: no replay on read. The clock runs on from `clock.anchor` while "
        "`clock.running` (R-10: tenths elapsed in the period). `sequence` is the last entry included; a console "
        "that lost everything resumes here, then sends its outbox. Before the first entry the state is the "
        "game's not-started state with sequence 0. `under_protest` lists the administrative protests made before "
        "the start (9.1 B): the game is played under protest; the captains' on-rink protests are `state.protests` "
        "(9.1 A, R-50).",
        responses={
            200: SheetReadSerializer,
            400: OpenApiResponse(
                description="R-10: the game's teams are not known yet (a bracket game waiting "
                "for the winners of earlier games); its sheet opens once they are."
            ),
            404: _NOT_FOUND,
        },
    )
    def get(self, request, game_id: int):
        game = _game(game_id, request.user)
        answer = services.sheet_state(game)
        return Response(SheetReadSerializer(answer, context={"under_protest": protest_marks(game)}).data)


class SheetEventsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Enter events: a batch from a device's outbox, stored once per event id (idempotent)",
        description="The game's officials and the staff who direct its championship enter the events of the "
        "sheet (4.3-4.5). Each entry is an engine event with a device-made UUID: one already stored is "
        "acknowledged as a duplicate, never stored twice. The whole log is replayed in game-time order "
        "(period, time, then the order stored; R-10), so late entries and a second device's merge. An event "
        "the engine refuses refuses the batch: nothing is stored and the 400 names the rule (e.g. 5.5.2 A, "
        "6.2.2 B, R-11) and the event. Corrections are `correction` events naming the id they void; the voided "
        "entry stays in the log. A final sheet (4.2 O, 4.3) takes no new entry.",
        request=SheetEventsInputSerializer,
        responses={
            200: SheetEntryAnswerSerializer,
            400: OpenApiResponse(
                SheetRefusalSerializer, description="Bad input, or an event the rules refuse (rule and event named)."
            ),
            403: DEVICE_FORBIDDEN,
            404: _NOT_FOUND,
            409: TAKEN_OVER,
        },
    )
    def post(self, request, game_id: int):
        game = _game(game_id, request.user)
        services.check_can_enter_game_events(request.user, game)
        serializer = SheetEventsInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            answer = services.record_events(game=game, by=request.user, **serializer.validated_data)
        except devices.ConsoleConflict as conflict:
            return _conflict(conflict)
        except services.SheetRefused as refused:
            detail = {
                "event_id": refused.event_id,
                "rule": refused.rule,
                "field": refused.field,
                "message": refused.said_reason(),
            }
            return Response(
                {"events": [refused.said_message()], "refused": {**detail, "stored": refused.stored}},
                status=status.HTTP_400_BAD_REQUEST,
            )
        return Response(SheetEntryAnswerSerializer(answer).data)

    @extend_schema(
        summary="The sheet's event log: who entered what, when and from which device, voided entries included",
        description="Every stored entry in the order stored (architecture principle 3: corrections are new "
        "events, nothing is edited in place), with `voided_by` naming the correction that voids it. "
        "`after` gives only the entries after that sequence number. The game's officials and the staff who "
        "direct its championship.",
        parameters=[
            OpenApiParameter(
                "after",
                {"type": "integer", "minimum": 0, "maximum": MAX_ID},
                description="Only entries with a greater sequence number (digits 0-9).",
            )
        ],
        responses={200: SheetLogLineSerializer(many=True), 403: _FORBIDDEN, 404: _NOT_FOUND},
    )
    def get(self, request, game_id: int):
        game = _game(game_id, request.user)
        try:
            after = whole_number(request.query_params.get("after", "0"), minimum=0, maximum=MAX_ID)
        except NotANumber:
            raise ValidationError(
                {"after": gettext("A sequence number (a whole number, 0 or more, in the digits 0-9).")}
            ) from None
        lines = services.sheet_log(game, user=request.user, after=after)
        return Response(SheetLogLineSerializer(lines, many=True).data)


class SheetDevicesView(ServiceAnswerMixin, APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Sign a console device in to the game's sheet as duties of the officials' table (4.3-4.5)",
        description="Who enters is explicit: a device signs in as the duties it keeps (timekeeper, penalty "
        "timekeeper, scorer) before it enters events. A duty another device keeps is a 409 naming that device, "
        "unless `take_over`: that is one logged action, and the other device's next entry is a 409 naming this "
        "one. Signing in again for duties the device keeps changes nothing. Answers the duties the device keeps.",
        request=SignInInputSerializer,
        responses={
            201: SignInSerializer(many=True),
            403: OpenApiResponse(description="Not the game's official of that duty, nor directing staff (4.3-4.5)."),
            404: _NOT_FOUND,
            409: OpenApiResponse(ConsoleConflictSerializer, description="Another device keeps a duty (4.3-4.5)."),
        },
    )
    def post(self, request, game_id: int):
        game = _game(game_id, request.user)
        data = self.input(SignInInputSerializer)
        try:
            held = devices.console_sign_in(game=game, by=request.user, **data)
        except devices.ConsoleConflict as conflict:
            return _conflict(conflict)
        return Response(SignInSerializer(held, many=True).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="The console sign-ins of the game: which device kept which duty, since when, taken over by whom",
        responses={200: SignInSerializer(many=True), 403: _FORBIDDEN, 404: _NOT_FOUND},
    )
    def get(self, request, game_id: int):
        game = _game(game_id, request.user)
        services.check_can_enter_game_events(request.user, game)
        return Response(SignInSerializer(devices.sign_ins_visible(game), many=True).data)


class ServerClockSerializer(serializers.Serializer):
    server_time = serializers.DateTimeField(help_text="The server's clock when it answered (UTC, milliseconds).")


class ServerClockView(APIView):
    """The server's time, for a console to measure its clock offset (median of several round trips)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="The server's time (public): a console measures its clock offset from several samples",
        description="A console sends a few of these and takes the median of (device time at the middle of the "
        "round trip minus `server_time`) as its clock offset; each entry then carries `device_time` and "
        "`clock_offset_ms`, and the sheet's clock anchor is the device time less the offset (R-10).",
        responses={200: ServerClockSerializer},
    )
    def get(self, request):
        response = Response(ServerClockSerializer({"server_time": timezone.now()}).data)
        response["Cache-Control"] = "no-store"
        return response
