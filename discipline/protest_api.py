"""REST API of protests (9.1; R-50 to R-52): the protests a login may read, one with its deadlines, history and
files, what a team manager can protest in a game, filing, the statement, the fee, the committee's review and
decision, withdrawal and the opposing team's answer.

Thin views over ``discipline.access`` (who reads what: 404 for a protest the caller may not see) and
``discipline.protests`` (each service checks again who may act, 403, and the rule, a 400 naming the field and
citing the article); no rule is decided here.
"""

from __future__ import annotations

import django_filters
from django.db.models import Prefetch, prefetch_related_objects
from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import mixins, permissions, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from portal.api import ServiceAnswerMixin
from portal.filters import MAX_ID, id_filter
from portal.serializers import DecimalField, IntegerField, ModelSerializer, StrictPrimaryKeyRelatedField
from tournaments.models import Game, TeamEntry
from tournaments.selectors import access_game
from tournaments.services import money

from . import access
from . import protests as svc
from .models import (
    Deadline,
    FeeMethod,
    Protest,
    ProtestKind,
    ProtestStatus,
    ProtestTransition,
)

_FORBIDDEN = OpenApiResponse(description="Not logged in, or not allowed; the message cites the rule (9.1, R-52).")
_NOT_FOUND = OpenApiResponse(description="No such protest, or one this login may not read.")
_REFUSED = OpenApiResponse(
    description="Bad input, or the rules refuse it: the field and the article (9.1, R-51, R-52)."
)


# --- answers ---------------------------------------------------------------------------------------------------


class MoneyAmountField(DecimalField):
    """The amount of a Money value (null: none); its ISO 4217 currency is the ``<name>_currency`` field beside it."""

    def __init__(self, **kwargs):
        super().__init__(max_digits=10, decimal_places=2, read_only=True, allow_null=True, **kwargs)

    def to_representation(self, value):
        return super().to_representation(value.amount)


class MoneyCurrencyField(serializers.CharField):
    """The ISO 4217 code of a Money value (null: none)."""

    def __init__(self, **kwargs):
        super().__init__(read_only=True, allow_null=True, **kwargs)

    def to_representation(self, value):
        return str(value.currency)


class ProtestDeadlineSerializer(ModelSerializer):
    class Meta:
        model = Deadline
        fields = ["kind", "article", "anchor_at", "due_at", "status", "reminder_sent_at"]
        read_only_fields = fields


class ProtestTransitionSerializer(ModelSerializer):
    from_status = serializers.ChoiceField(
        choices=ProtestStatus.choices, allow_blank=True, read_only=True, help_text="Blank: the filing."
    )
    by = serializers.CharField(
        source="by.username", read_only=True, allow_null=True, help_text="Null: the system, at a deadline."
    )
    reason = serializers.CharField(
        source="shown_reason", read_only=True, help_text="The portal's reasons in the language of Accept-Language."
    )

    class Meta:
        model = ProtestTransition
        fields = ["from_status", "to_status", "by", "at", "reason"]
        read_only_fields = fields


class ProtestAttachmentSerializer(serializers.Serializer):
    id = IntegerField()
    name = serializers.CharField()
    content_type = serializers.CharField()
    url = serializers.CharField(help_text="The download, through the protest's own permission check.")


class ProtestSerializer(ModelSerializer):
    """A protest as the list shows it."""

    filed_by = serializers.CharField(source="filed_by.username", read_only=True)
    fee_due = MoneyAmountField(help_text="R-52: US$200 or the equivalent; null: none due (9.1 C).")
    fee_due_currency = MoneyCurrencyField(source="fee_due")
    fee_received = MoneyAmountField(help_text="Null: not received.")
    fee_received_currency = MoneyCurrencyField(source="fee_received")
    deadlines = ProtestDeadlineSerializer(many=True, read_only=True)
    incident = serializers.CharField(
        source="shown_incident",
        read_only=True,
        help_text="The incident as the game's records hold it, in the language of Accept-Language.",
    )

    class Meta:
        model = Protest
        fields = [
            "id", "kind", "game", "entry", "incident", "incident_at", "status", "filed_by", "filed_at",
            "fee_due", "fee_due_currency", "fee_received", "fee_received_currency", "deadlines",
        ]  # fmt: skip
        read_only_fields = fields


class ProtestDetailSerializer(ProtestSerializer):
    """A protest with its statement, fee, answer, decision, history and files."""

    fee_method = serializers.ChoiceField(
        choices=FeeMethod.choices, allow_blank=True, read_only=True, help_text="Blank: no fee received."
    )
    fee_received_by = serializers.CharField(source="fee_received_by.username", read_only=True, allow_null=True)
    answered_by = serializers.CharField(source="answered_by.username", read_only=True, allow_null=True)
    transitions = ProtestTransitionSerializer(many=True, read_only=True)
    attachments = serializers.SerializerMethodField()

    class Meta(ProtestSerializer.Meta):
        fields = [
            *ProtestSerializer.Meta.fields, "statement", "fee_method", "fee_received_at", "fee_received_by",
            "fee_outcome", "answer", "answered_at", "answered_by", "decided_at", "decision_reason", "transitions",
            "attachments",
        ]  # fmt: skip
        read_only_fields = fields

    @extend_schema_field(ProtestAttachmentSerializer(many=True))
    def get_attachments(self, protest) -> list[dict]:
        request = self.context.get("request")
        rows = []
        for attachment in protest.attachments.all():
            url = reverse("discipline:protest-attachment", args=[protest.pk, attachment.pk])
            rows.append(
                {
                    "id": attachment.pk,
                    "name": attachment.name,
                    "content_type": attachment.content_type,
                    "url": request.build_absolute_uri(url) if request else url,
                }
            )
        return rows


_INCIDENT_KEY_HELP = (
    "``mark:<id>`` for an administrative protest made before the start (9.1 B), ``event:<uuid>`` for an on-rink "
    "protest (9.1 A) or an incident on the sheet (9.1 C), exactly as games/{id}/protest-incidents/ lists it."
)
_INCIDENT_KEY_SCHEMA = {
    "type": "string",
    "pattern": svc.INCIDENT_KEY_PATTERN,
    "maxLength": 80,
    "example": "event:5d2c9a47-8e11-4f0b-b6a3-7c4e1d9f0a52",
}


@extend_schema_field(_INCIDENT_KEY_SCHEMA)
class IncidentKeyField(serializers.RegexField):
    """An incident's key (``protests.Incident.key``): ``mark:<id>`` or ``event:<uuid>``."""

    default_error_messages = {
        "invalid": "Rule 9.1: an incident is named by its key, mark:<id> or event:<uuid>, as the game's "
        "protest incidents list it."
    }

    def __init__(self, **kwargs):
        super().__init__(svc.INCIDENT_KEY_PATTERN, max_length=80, **kwargs)


class IncidentSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ProtestKind.choices)
    key = IncidentKeyField(help_text=f"What ``incident`` names when filing: {_INCIDENT_KEY_HELP}")
    label = serializers.CharField()
    at = serializers.DateTimeField(
        allow_null=True, help_text="The server time anchoring the deadline (R-51); null: the game has not ended."
    )
    entry = IntegerField(source="entry_id", allow_null=True, help_text="The team it belongs to; null: either team's.")


# --- requests --------------------------------------------------------------------------------------------------


class ProtestFileInput(serializers.Serializer):
    game = StrictPrimaryKeyRelatedField(queryset=Game.objects.select_related("championship__venue", "home", "away"))
    entry = StrictPrimaryKeyRelatedField(
        queryset=TeamEntry.objects.all(),
        required=False,
        help_text="The protesting team; optional when you manage only one of the game's teams.",
    )
    kind = serializers.ChoiceField(choices=ProtestKind.choices)
    incident = IncidentKeyField(help_text=f"The incident's ``key``: {_INCIDENT_KEY_HELP}")
    statement = serializers.CharField(required=False, allow_blank=True, default="", help_text="The written protest.")
    attachments = serializers.ListField(child=serializers.FileField(), required=False, default=list)


class ProtestStatementInput(serializers.Serializer):
    statement = serializers.CharField(allow_blank=True, help_text="The written protest (9.1).")
    attachments = serializers.ListField(child=serializers.FileField(), required=False, default=list)


class ProtestAnswerInput(serializers.Serializer):
    answer = serializers.CharField(allow_blank=True, help_text="The opposing team's written answer (9.1 A).")
    attachments = serializers.ListField(child=serializers.FileField(), required=False, default=list)


class ProtestFeeInput(serializers.Serializer):
    amount = DecimalField(max_digits=10, decimal_places=2, help_text="R-52: US$200 or the equivalent.")
    currency = serializers.RegexField(r"^[A-Za-z]{3}$", default="USD", help_text="ISO 4217 code, e.g. USD")
    method = serializers.ChoiceField(choices=FeeMethod.choices)
    received_at = serializers.DateTimeField(
        required=False, help_text="When it was received (ISO 8601; no offset: UTC); default now, never later (R-52)."
    )


class ProtestReasonInput(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="")


DECISIONS = {"uphold": svc.protest_uphold, "reject": svc.protest_reject}
PROTEST_OUTCOMES = [("uphold", "Uphold (fee returned)"), ("reject", "Reject (fee forfeited)")]


class ProtestDecisionInput(ProtestReasonInput):
    outcome = serializers.ChoiceField(
        choices=PROTEST_OUTCOMES,
        error_messages={"invalid_choice": 'Rule 9.1 A: uphold or reject the protest, not "{input}".'},
    )


class ProtestIncidentsQuery(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ProtestKind.choices, required=False)
    entry = StrictPrimaryKeyRelatedField(queryset=TeamEntry.objects.all(), required=False)


class ProtestFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=ProtestStatus.choices)
    kind = django_filters.ChoiceFilter(choices=ProtestKind.choices)
    championship = id_filter(field_name="game__championship")
    game = id_filter(field_name="game")

    class Meta:
        model = Protest
        fields = ["status", "kind", "championship", "game"]


# --- views -----------------------------------------------------------------------------------------------------


_DETAIL_PREFETCH = (
    "deadlines",
    "attachments",
    "fee_received_by",
    "answered_by",
    Prefetch("transitions", queryset=ProtestTransition.objects.select_related("by")),
)
_ACTION_RESPONSES = {200: ProtestDetailSerializer, 400: _REFUSED, 403: _FORBIDDEN, 404: _NOT_FOUND}


def _action_schema(summary: str, description: str, request) -> extend_schema:
    return extend_schema(summary=summary, description=description, request=request, responses=_ACTION_RESPONSES)


_MULTIPART = "multipart/form-data"


def _files(request) -> list:
    """The uploaded attachments (JPEG, PNG or PDF by content, checked by the service)."""
    return request.FILES.getlist("attachments")


class ProtestViewSet(ServiceAnswerMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    permission_classes = [permissions.IsAuthenticated]
    serializer_class = ProtestSerializer
    queryset = Protest.objects.all()  # the schema's model; get_queryset narrows it to the caller's
    filterset_class = ProtestFilter
    ordering_fields = ["filed_at", "status"]
    ordering = ["-filed_at", "-pk"]

    def get_queryset(self):
        return (
            access.protests_visible_to(self.request.user)
            .select_related("filed_by")
            .prefetch_related("deadlines")
            .order_by("-filed_at", "-pk")
        )

    def _protest(self, pk) -> Protest:
        """The protest if the caller may read it (``access.access_protest``: 404 otherwise), with its answer's rows."""
        protest = access.access_protest(self.request.user, pk)
        prefetch_related_objects([protest], *_DETAIL_PREFETCH)
        return protest

    def _answer(self, pk, *, created: bool = False) -> Response:
        return self.answer(self._protest(pk), serializer_class=ProtestDetailSerializer, created=created)

    def _act(self, pk, input_class, call) -> Response:
        """One step of the workflow, as the page's: the protest if the caller may read it (404), the body's shape
        (400), the service (403 for who, 400 naming the field and the rule), then the protest as it now is."""
        protest = access.access_protest(self.request.user, pk)
        call(protest, self.input(input_class))
        return self._answer(pk)

    @extend_schema(
        summary="The protests this login may read (9.1)",
        description="The discipline committee, the IHTC executive and international staff read every protest; "
        "staff of a sanctioning body those of its championships (they record the fee, R-52); a team manager "
        "those of his teams' games, filed by or against them. Anyone else: 403. Filters: status, kind, "
        "championship, game; newest first.",
    )
    def list(self, request, *args, **kwargs):
        access.require(
            access.can_see_protests(request.user), gettext("Rule 9.1: protests are not listed for this login.")
        )
        return super().list(request, *args, **kwargs)

    @extend_schema(
        summary="A protest with its deadlines, history and files (9.1; R-51, R-52)",
        description="For those who may read it (404 otherwise, not even its existence is told). The deadlines are "
        "anchored on recorded server times (R-51); the fee is its amount and ISO 4217 currency (R-52); each "
        "file's url downloads it through the same permission check.",
        responses={200: ProtestDetailSerializer, 403: _FORBIDDEN, 404: _NOT_FOUND},
    )
    def retrieve(self, request, pk=None):
        return self._answer(pk)

    @extend_schema(
        summary="File a protest (9.1): a team manager, within the deadline (R-51)",
        description="A team manager of the protesting team names the game, the kind and the incident as the game's "
        "records hold it (games/{id}/protest-incidents/): an administrative protest made before the start "
        "(9.1 B), a referee's ruling protested on the rink (9.1 A, D; R-50) or an incident (a federation's "
        "protest, 9.1 C). Refused, naming the field and the article: after the deadline (1 h 30 min after the "
        "game's end, 9.1 B; 3 h after the incident, 9.1 A, C, D), an incident not recorded, the same incident "
        "twice. The fee (US$200 or the equivalent, R-52; none for 9.1 C) is due by the same deadline. "
        "Attachments: JPEG, PNG or PDF, at most 5.",
        request={_MULTIPART: ProtestFileInput},
        responses={201: ProtestDetailSerializer, 400: _REFUSED, 403: _FORBIDDEN},
    )
    def create(self, request, *args, **kwargs):
        access.require(
            access.manages_entries(request.user), gettext("Rule 9.1: a team manager files his team's protests.")
        )
        data = self.input(ProtestFileInput)
        game = data["game"]
        protest = svc.protest_file(
            by=request.user,
            game=game,
            entry=svc.protesting_entry(request.user, game, data.get("entry")),
            kind=data["kind"],
            incident=data["incident"],
            statement=data["statement"],
            attachments=_files(request),
        )
        return self._answer(protest.pk, created=True)

    @_action_schema(
        "Write the protest's statement (9.1): the protesting team's manager, within the deadline (R-51)",
        "9.1: a protest must be written; the statement (and files) may follow the filing until the protest's "
        "deadline. Refused, naming the field and the article: blank, after the deadline, once the protest is no "
        "longer filed.",
        {_MULTIPART: ProtestStatementInput},
    )
    @action(detail=True, methods=["post"])
    def statement(self, request, pk=None):
        return self._act(
            pk,
            ProtestStatementInput,
            lambda protest, data: svc.protest_add_statement(
                by=request.user, protest=protest, statement=data["statement"], attachments=_files(request)
            ),
        )

    @_action_schema(
        "Record the protest fee as received (9.1 A, R-52): the sanctioning body's staff or the IHTC executive",
        "R-52: US$200 or the equivalent. In the fee's own currency the amount must be at least the fee; in "
        "another, the equivalent the staff accepted. received_at defaults to now and cannot be in the future. "
        "Refused, naming the field and the rule: below the fee, a federation's protest (no fee, 9.1 C), a fee "
        "recorded already, a protest no longer filed.",
        ProtestFeeInput,
    )
    @action(detail=True, methods=["post"])
    def fee(self, request, pk=None):
        return self._act(
            pk,
            ProtestFeeInput,
            lambda protest, data: svc.protest_record_fee(
                by=request.user,
                protest=protest,
                amount=money(data["amount"], data["currency"]),
                method=data["method"],
                received_at=data.get("received_at"),
            ),
        )

    @_action_schema(
        "Start the committee's review (9.1 A: the IHTC will then investigate the protest)",
        "The discipline committee or the IHTC executive. Refused (400, naming the rule) while the fee (R-52) or "
        "the written statement (9.1) is missing, or once the protest is no longer filed.",
        ProtestReasonInput,
    )
    @action(detail=True, methods=["post"])
    def review(self, request, pk=None):
        return self._act(
            pk,
            ProtestReasonInput,
            lambda protest, data: svc.protest_start_review(by=request.user, protest=protest, reason=data["reason"]),
        )

    @_action_schema(
        "Decide a protest under review (9.1 A): upheld, the fee returned; rejected, the fee forfeited",
        "The discipline committee or the IHTC executive, with the reasons (Rule 9.1 A), once the review has "
        "started. Refused, naming the field and the rule: no reasons, a protest not under review.",
        ProtestDecisionInput,
    )
    @action(detail=True, methods=["post"])
    def decision(self, request, pk=None):
        return self._act(
            pk,
            ProtestDecisionInput,
            lambda protest, data: DECISIONS[data["outcome"]](by=request.user, protest=protest, reason=data["reason"]),
        )

    @_action_schema(
        "Withdraw a protest (9.1): the protesting team's manager; a fee received is returned",
        "While the protest is filed or under review; the deadlines are cancelled and both teams told.",
        ProtestReasonInput,
    )
    @action(detail=True, methods=["post"])
    def withdraw(self, request, pk=None):
        return self._act(
            pk,
            ProtestReasonInput,
            lambda protest, data: svc.protest_withdraw(by=request.user, protest=protest, reason=data["reason"]),
        )

    @_action_schema(
        "Answer a protest in writing (9.1 A): the opposing team's manager, within the answer time (R-51)",
        "Once, while the protest is filed or under review, before the answer deadline. Refused, naming the field "
        "and the rule: blank, late, answered already, a closed protest.",
        {_MULTIPART: ProtestAnswerInput},
    )
    @action(detail=True, methods=["post"], url_path="answer", url_name="answer")
    def answer_protest(self, request, pk=None):  # not ``answer``: ServiceAnswerMixin.answer serializes
        return self._act(
            pk,
            ProtestAnswerInput,
            lambda protest, data: svc.protest_answer(
                by=request.user, protest=protest, answer=data["answer"], attachments=_files(request)
            ),
        )


class GameProtestIncidentsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="What a team manager can protest in a game (9.1; R-50): the incidents as its records hold them",
        description="A team manager of one of the game's teams (403 otherwise): the administrative protests his "
        "team made before the start (9.1 B), the on-rink protests of his captain (9.1 A, D; R-50) and the "
        "incidents recorded on the sheet (9.1 C), each with the server time that anchors its deadline (R-51). "
        "``kind`` narrows the list; ``entry`` names the team when you manage both.",
        parameters=[
            OpenApiParameter("kind", enum=ProtestKind.values, required=False),
            OpenApiParameter(
                "entry",
                {"type": "integer", "minimum": 1, "maximum": MAX_ID},
                required=False,
                description="The protesting team's entry id.",
            ),
        ],
        responses={200: IncidentSerializer(many=True), 400: _REFUSED, 403: _FORBIDDEN, 404: _NOT_FOUND},
    )
    def get(self, request, game_id: int):
        game = access_game(request.user, game_id, queryset=Game.objects.select_related("championship", "home", "away"))
        query = ProtestIncidentsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        entry = svc.protesting_entry(request.user, game, query.validated_data.get("entry"))
        incidents = svc.incidents_for(game, entry, query.validated_data.get("kind"))
        return Response(IncidentSerializer(incidents, many=True).data)
