"""REST API of the end of the game: signatures (4.2 O, 4.3 A), amendments of a final sheet, rescue import.

Thin views over ``games.finalize`` and ``games.rescue``; the services check who may.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from federation.models import Person
from games import finalize, rescue
from games.devices import ConsoleConflict
from games.models import SheetAmendment, SignatureMethod, SignerRole
from games.sheet import MAX_BATCH, SheetRefused, check_can_enter_game_events
from games.sheet_api import DEVICE_FORBIDDEN, TAKEN_OVER, SheetRefusalSerializer, _conflict, _game
from portal.i18n import said
from portal.serializers import IntegerField

_NOT_FOUND = OpenApiResponse(description="No such game.")
_FORBIDDEN = OpenApiResponse(description="Not one of the game's officials, nor staff who direct its championship.")
_DIRECTORS = OpenApiResponse(description="Not staff who direct the game's championship.")


def _refusal(refused: SheetRefused) -> Response:
    detail = {"event_id": refused.event_id, "rule": refused.rule, "field": refused.field, "stored": refused.stored}
    return Response({"events": [refused.said_message()], "refused": detail}, status=status.HTTP_400_BAD_REQUEST)


# --- signatures -------------------------------------------------------------------------------------------------


class SaidField(serializers.CharField):
    """A sentence made in code (``common.text``), said in the reader's language (Accept-Language)."""

    def to_representation(self, value):
        return said(value)


class SignerSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=SignerRole.choices)
    person = IntegerField(source="person.pk")
    label = SaidField(help_text="Who signs, as the form shows it.")
    has_login = serializers.SerializerMethodField(
        help_text="The signer has a login of their own: without one they cannot sign (issue 23)."
    )
    has_pin = serializers.BooleanField(help_text="The signer has set a signing PIN (else they type their password).")

    def get_has_login(self, signer) -> bool:
        return signer.login is not None


class SignatureSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=SignerRole.choices)
    person = IntegerField(source="person_id")
    name = serializers.CharField(help_text="The name as signed.")
    signer = serializers.CharField(
        source="signer.username",
        allow_null=True,
        default=None,
        help_text="The signer's own login, which proved who signed (null on unverified signatures of before).",
    )
    method = serializers.ChoiceField(
        choices=SignatureMethod.choices,
        help_text="How the signer proved it: logged in as themselves, their PIN or their password on the device; "
        "unverified for signatures recorded before signers authenticated.",
    )
    recorded_by = serializers.CharField(source="recorded_by.username", help_text="The login that took it.")
    device = serializers.CharField()
    signed_at = serializers.DateTimeField()
    sequence = IntegerField(help_text="The sheet's sequence signed.")


class SignaturesSerializer(serializers.Serializer):
    game = IntegerField(source="game.pk")
    status = serializers.CharField(help_text="The sheet's: open, final; not_opened before the first entry.")
    sequence = IntegerField(help_text="The sheet's last sequence: the log the signatures are of.")
    complete = serializers.BooleanField(help_text="Every signature is there: the sheet is (or becomes) final.")
    signers = SignerSerializer(many=True, help_text="Who may sign, in which role (4.2 O, 4.3 A).")
    signed = SignatureSerializer(many=True, help_text="The signatures of the current log.")
    stale = SignatureSerializer(many=True, help_text="Signatures made before a later entry: to be made again.")
    missing = serializers.ListField(child=SaidField(), help_text="The signatures still needed.")
    problems = serializers.ListField(
        child=SaidField(), help_text="What keeps the sheet from being signed (the rule named)."
    )


class SignInputSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=SignerRole.choices)
    person = IntegerField(help_text="The person signing: one of `signers` in that role.")
    pin = serializers.CharField(
        max_length=12,
        required=False,
        allow_blank=True,
        write_only=True,
        style={"input_type": "password"},
        help_text="The signer's own signing PIN, typed by them on the device. Not needed when the caller is the "
        "signer's own login.",
    )
    password = serializers.CharField(
        max_length=128,
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        write_only=True,
        style={"input_type": "password"},
        help_text="The signer's own password, instead of the PIN.",
    )
    name = serializers.CharField(
        max_length=120, required=False, allow_blank=True, help_text="The name as signed (default: the person's)."
    )
    device = serializers.CharField(max_length=64, help_text="The device the signature is made on.")


class SignAnswerSerializer(SignaturesSerializer):
    final = serializers.BooleanField(help_text="This signature made the sheet final (the records follow).")


class SignaturesView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Where the signing of the game report stands: who signs, who signed, what is missing",
        description="4.2 O: after the game the referees sign the official game report and secure the signatures "
        "of both team captains; 4.3 A: the official scorer signs it, and the team captain and/or the team coach. "
        "The game's officials and the staff who direct its championship.",
        responses={
            200: SignaturesSerializer,
            400: OpenApiResponse(description="R-10: the game's teams are not known yet; nobody signs its report."),
            403: _FORBIDDEN,
            404: _NOT_FOUND,
        },
    )
    def get(self, request, game_id: int):
        game = _game(game_id, request.user)
        return Response(SignaturesSerializer(finalize.signatures_state(game, user=request.user)).data)

    @extend_schema(
        summary="Sign the game report on the device; the last signature makes the sheet final",
        description="One signature (4.2 O, 4.3 A) of the log as it stands, taken on a console signed in to the "
        "game (the directing staff's from any device); a later entry calls for it again. Each signer signs in "
        "person: on the device they type their own `pin` (or `password`); a signer calling with their own login "
        "(a captain or coach from their own device) needs neither. No login signs for another: a wrong or missing "
        "PIN or password (locked after repeated failures), a person who does not sign this game, or a role not "
        "theirs is refused (400, the field and rule 4.2 O / 4.3 A named). When "
        "every assigned referee, the assigned scorer and each team's captain or coach have signed, the sheet is "
        "final (it takes no entry) and the game's result, summary, standings, statistics, the discipline "
        "hand-over and the report request follow in the same transaction. Refused (400, the rule named, nothing "
        "stored) before the game has ended, for someone who does not sign in that role, or when the summary "
        "cannot be recorded.",
        request=SignInputSerializer,
        responses={
            201: SignAnswerSerializer,
            400: OpenApiResponse(description="The field and the rule it breaks; nothing stored."),
            403: DEVICE_FORBIDDEN,
            404: _NOT_FOUND,
            409: TAKEN_OVER,
        },
    )
    def post(self, request, game_id: int):
        game = _game(game_id, request.user)
        finalize.check_can_sign(request.user, game)
        serializer = SignInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        person = Person.objects.filter(pk=data["person"]).first()
        if person is None:
            raise serializers.ValidationError({"person": ["Rule 4.2 O / 4.3 A: no such person signs this report."]})
        try:
            _, finalized = finalize.sheet_sign(
                game=game,
                by=request.user,
                role=data["role"],
                person=person,
                device=data["device"],
                pin=data.get("pin", ""),
                password=data.get("password", ""),
                name=data.get("name", ""),
            )
        except ConsoleConflict as conflict:
            return _conflict(conflict)
        state = finalize.signatures_state(game, user=request.user)
        body = {**SignaturesSerializer(state).data, "final": finalized is not None}
        return Response(body, status=status.HTTP_201_CREATED)


# --- amendments ---------------------------------------------------------------------------------------------------


class AmendmentSerializer(serializers.ModelSerializer):
    amended_by = serializers.CharField(source="amended_by.username")
    event_ids = serializers.ListField(child=serializers.UUIDField(), help_text="The entries the amendment appended.")
    before = serializers.JSONField(help_text="The summary the log gave before (games.finalize.SheetSummary).")
    after = serializers.JSONField(help_text="The summary it gives after.")
    result_amendment = IntegerField(
        source="result_amendment_id", allow_null=True, help_text="The result's own audited amendment, if any."
    )

    class Meta:
        model = SheetAmendment
        fields = ["id", "amended_by", "amended_at", "reason", "event_ids", "before", "after", "result_amendment"]


class AmendInputSerializer(serializers.Serializer):
    reason = serializers.CharField(help_text="Why the final sheet is amended (required).")
    device = serializers.CharField(max_length=64, required=False, default="staff-amendment")
    events = serializers.ListField(
        child=serializers.DictField(),
        allow_empty=False,
        max_length=MAX_BATCH,
        help_text="The amending entries in the batch format of POST /sheet/events/: corrections naming the id "
        "they void, and new events.",
    )


class AmendmentsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="The amendments of the game's final sheet: who, when, why, what changed",
        description="Every audited amendment of the signed sheet (4.2 O), oldest first: who amended it, when, the "
        "reason, the entries appended to the log and the summary before and after. The game's officials and the "
        "staff who direct its championship.",
        responses={200: AmendmentSerializer(many=True), 403: _FORBIDDEN, 404: _NOT_FOUND},
    )
    def get(self, request, game_id: int):
        game = _game(game_id, request.user)
        check_can_enter_game_events(request.user, game)
        rows = SheetAmendment.objects.filter(sheet__game=game).select_related("amended_by").order_by("amended_at")
        return Response(AmendmentSerializer(rows, many=True).data)

    @extend_schema(
        summary="Amend the final sheet (directing staff): the entries are appended, the records follow",
        description="4.2 O: the signed report stands; only the staff who direct the championship amend it, with a "
        "reason. The entries are replayed with the log (an event the engine refuses refuses the amendment, the "
        "rule named, nothing stored); the game's result (through its own audited amendment), summary, standings, "
        "statistics, the discipline hand-over and a new report request follow. An amendment that changes "
        "nothing in the summary, or that turns a played game into a forfeit or back (8.1 B-C), is refused.",
        request=AmendInputSerializer,
        responses={
            201: AmendmentSerializer,
            400: OpenApiResponse(SheetRefusalSerializer),
            403: _DIRECTORS,
            404: _NOT_FOUND,
        },
    )
    def post(self, request, game_id: int):
        game = _game(game_id, request.user)
        finalize.check_can_amend_sheet(request.user, game)
        serializer = AmendInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            amendment, _ = finalize.sheet_amend(game=game, by=request.user, **serializer.validated_data)
        except SheetRefused as refused:
            return _refusal(refused)
        return Response(AmendmentSerializer(amendment).data, status=status.HTTP_201_CREATED)


# --- rescue import -------------------------------------------------------------------------------------------------


class RescueInputSerializer(serializers.Serializer):
    device = serializers.CharField(max_length=64, help_text="The device that made the entries.")
    events = serializers.ListField(
        child=serializers.DictField(), allow_empty=False, max_length=MAX_BATCH, help_text="The unsent entries."
    )
    game = IntegerField(required=False, help_text="The game the file was exported from, if it says.")
    exported_at = serializers.DateTimeField(required=False, help_text="When the console exported it.")


class RescueAnswerSerializer(serializers.Serializer):
    device = serializers.CharField()
    stored = IntegerField(help_text="Entries stored now.")
    already_there = IntegerField(help_text="Entries the server held already (same id): not doubled.")
    sequence = IntegerField(source="answer.sequence")
    status = serializers.CharField(source="answer.status")


class RescueView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Import a console's rescue file (directing staff): its entries stored once each",
        description="The body is the rescue file a console exported (the batch format of POST /sheet/events/). "
        "The entries keep the device's ids: those the server holds are acknowledged, never doubled. The "
        "importer is the staff member, not the device. An entry the engine refuses refuses the file (the rule "
        "and the event named, nothing stored).",
        request=RescueInputSerializer,
        responses={
            200: RescueAnswerSerializer,
            400: OpenApiResponse(SheetRefusalSerializer),
            403: _DIRECTORS,
            404: _NOT_FOUND,
        },
    )
    def post(self, request, game_id: int):
        game = _game(game_id, request.user)
        rescue.check_can_import_rescue(request.user, game)
        serializer = RescueInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = rescue.check_rescue_data(dict(request.data))
        try:
            result = rescue.rescue_import(game=game, by=request.user, data=data)
        except SheetRefused as refused:
            return _refusal(refused)
        return Response(RescueAnswerSerializer(result).data)
