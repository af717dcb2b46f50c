"""REST API of the committee's records (R-53): the incident report queue, a report, confidential reports (filed
by officials; read by the committee, the executive and the author), cases and their decision, suspensions (8.2).

Thin views over ``discipline.access``, ``discipline.selectors`` and ``discipline.cases``; the services re-check.
"""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import permissions, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.generics import get_object_or_404
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from discipline import access, appeals, cases, selectors
from discipline.appeal_forms import APPEAL_OUTCOMES
from discipline.models import (
    Appeal,
    AppealLevel,
    ConfidentialKind,
    ConfidentialReport,
    Decision,
    DecisionOutcome,
    IncidentReport,
    Suspension,
    SuspensionKind,
    SuspensionStatus,
)
from portal.api import ServiceAnswerMixin
from portal.filters import MAX_ID
from portal.serializers import DecimalField, IntegerField
from tournaments.models import Game
from tournaments.selectors import access_game

_REFUSED = OpenApiResponse(description="Bad input: the field and the rule it breaks.")
_FORBIDDEN = OpenApiResponse(description="Not logged in, or not allowed (R-53: the committee and the executive).")
_NOT_FOUND = OpenApiResponse(description="No such record, or not one this user may read (confidential).")


class IncidentReportSerializer(serializers.ModelSerializer):
    deadline = serializers.DateTimeField(
        read_only=True, allow_null=True, default=None, help_text="The start of the team's next game (queue only)."
    )
    game_number = IntegerField(source="game.number", read_only=True)

    class Meta:
        model = IncidentReport
        fields = [
            "id", "game", "game_number", "entry", "person", "kind", "period", "time_tenths", "infraction",
            "article", "officials", "status", "case", "created_at", "deadline",
        ]  # fmt: skip
        read_only_fields = fields


class AttachmentSerializer(serializers.Serializer):
    id = IntegerField()
    content_type = serializers.CharField()
    url = serializers.CharField(help_text="The download, through the same permission check.")


class ConfidentialReportSerializer(serializers.ModelSerializer):
    author = serializers.CharField(source="author.username", read_only=True)
    attachments = serializers.SerializerMethodField()

    class Meta:
        model = ConfidentialReport
        fields = ["id", "game", "incident_report", "kind", "author", "text", "filed_at", "attachments"]
        read_only_fields = fields

    @extend_schema_field(AttachmentSerializer(many=True))
    def get_attachments(self, obj) -> list[dict]:
        from django.urls import reverse

        return [
            {"id": a.pk, "content_type": a.content_type, "url": reverse("discipline:attachment", args=[a.pk])}
            for a in obj.attachments.all()
        ]


class ConfidentialReportInput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ConfidentialKind.choices)
    text = serializers.CharField()
    incident_report = IntegerField(required=False, allow_null=True)
    attachments = serializers.ListField(child=serializers.FileField(), required=False, default=list)


class SuspensionSerializer(serializers.ModelSerializer):
    description = serializers.CharField(source="describe", read_only=True)
    games_served = IntegerField(read_only=True)
    reasons = serializers.CharField(
        source="shown_reasons",
        read_only=True,
        help_text="The reasons; the portal's own words in the language of Accept-Language, the committee's as written.",
    )

    class Meta:
        model = Suspension
        fields = [
            "id", "person", "championship", "entry", "offence_game", "provisional", "kind", "games_required",
            "games_served", "ends_at", "article", "reasons", "status", "imposed_at", "closed_at", "description",
        ]  # fmt: skip
        read_only_fields = fields


class DecisionSerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=DecisionOutcome.choices)
    reasons = serializers.CharField()
    decided_by = serializers.CharField()
    decided_at = serializers.DateTimeField()
    suspensions = SuspensionSerializer(many=True)


class CaseSerializer(serializers.Serializer):
    id = IntegerField()
    title = serializers.CharField(source="shown_title")
    championship = IntegerField(source="championship_id")
    status = serializers.CharField()
    hearing_at = serializers.DateTimeField(allow_null=True)
    reports = IncidentReportSerializer(source="incident_reports.all", many=True)
    protests = serializers.ListField(
        child=IntegerField(),
        source="protest_ids",
        read_only=True,
        help_text="The ids of the protests the case gathers (9.1; R-53).",
    )
    decision = serializers.SerializerMethodField()

    @extend_schema_field(DecisionSerializer(allow_null=True))
    def get_decision(self, obj) -> dict | None:
        decision = getattr(obj, "decision", None)
        if decision is None:
            return None
        return {
            "outcome": decision.outcome,
            "reasons": decision.reasons,
            "decided_by": decision.decided_by.username,
            "decided_at": decision.decided_at,
            "suspensions": SuspensionSerializer(decision.suspensions.all(), many=True).data,
        }


# What the committee decides (8.2): N games, a period of time, the rest of the tournament.
SANCTION_KINDS = [
    (k, SuspensionKind(k).label)
    for k in (SuspensionKind.GAMES, SuspensionKind.PERIOD, SuspensionKind.REST_OF_TOURNAMENT)
]


class SanctionInput(serializers.Serializer):
    person = IntegerField()
    kind = serializers.ChoiceField(choices=SANCTION_KINDS)
    article = serializers.CharField(default="8.2")
    games = IntegerField(required=False, allow_null=True, min_value=1)
    until = serializers.DateTimeField(required=False, allow_null=True)


class DecisionInput(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=DecisionOutcome.choices)
    reasons = serializers.CharField()
    sanctions = SanctionInput(many=True, required=False, default=list)


class _View(ServiceAnswerMixin, APIView):
    permission_classes = [permissions.IsAuthenticated]

    def get_serializer_context(self):
        return {"request": self.request}


class ReportQueueView(_View):
    @extend_schema(
        summary="The committee's queue: open incident reports, oldest first, with their deadlines (R-53).",
        responses={200: IncidentReportSerializer(many=True), 403: _FORBIDDEN},
    )
    def get(self, request):
        access.check_committee(request.user)
        return Response(IncidentReportSerializer(selectors.report_queue(request.user), many=True).data)


class ReportView(_View):
    @extend_schema(
        summary="An incident report (4.2 P, 6.1.5 A).",
        responses={200: IncidentReportSerializer, 403: _FORBIDDEN, 404: _NOT_FOUND},
    )
    def get(self, request, id: int):
        return Response(IncidentReportSerializer(access.access_incident_report(request.user, id)).data)


class GameConfidentialReportsView(_View):
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        summary="File a confidential report: the referee's (4.2 P) or a 6.4.29 one; attachments JPEG/PNG/PDF.",
        request={"multipart/form-data": ConfidentialReportInput},
        responses={201: ConfidentialReportSerializer, 400: _REFUSED, 403: _FORBIDDEN, 404: _NOT_FOUND},
    )
    def post(self, request, game_id: int):
        game = access_game(request.user, game_id, queryset=Game.objects.select_related("championship"))
        data = self.input(ConfidentialReportInput)
        incident = None
        if data.get("incident_report"):
            incident = get_object_or_404(IncidentReport, pk=data["incident_report"], game=game)
        report = cases.file_confidential_report(
            game=game, kind=data["kind"], text=data["text"], by=request.user,
            attachments=request.FILES.getlist("attachments"), incident_report=incident,
        )  # fmt: skip
        return self.answer(report, serializer_class=ConfidentialReportSerializer, created=True)


class ConfidentialReportView(_View):
    @extend_schema(
        summary="CONFIDENTIAL: a report, read by the committee, the executive and its author only.",
        responses={200: ConfidentialReportSerializer, 403: _FORBIDDEN, 404: _NOT_FOUND},
    )
    def get(self, request, id: int):
        return Response(ConfidentialReportSerializer(access.access_confidential_report(request.user, id)).data)


class CaseView(_View):
    @extend_schema(
        summary="A case: its reports, status, hearing and decision (R-53).",
        responses={200: CaseSerializer, 403: _FORBIDDEN, 404: _NOT_FOUND},
    )
    def get(self, request, id: int):
        return Response(CaseSerializer(access.access_case(request.user, id)).data)


class CaseOpenInput(serializers.Serializer):
    title = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=cases.TITLE_MAX_LENGTH,
        help_text="The case's title; blank: named after its first report or protest.",
    )
    reports = serializers.ListField(
        child=IntegerField(min_value=1, max_value=MAX_ID),
        required=False,
        default=list,
        help_text="Ids of open incident reports (GET /api/incident-reports/), all of one championship.",
    )
    protests = serializers.ListField(
        child=IntegerField(min_value=1, max_value=MAX_ID),
        required=False,
        default=list,
        help_text="Ids of protests in no case yet (GET /api/protests/), of the same championship (9.1 C).",
    )


def _named(field: str, ids: list[int], access_one) -> list:
    """The records ``ids`` names in the request's ``field``, each read through its access check; an id this user
    may not read is refused as unknown (a 400 naming the field), as the page's list never offers it."""
    found = []
    for record_id in dict.fromkeys(ids):
        try:
            found.append(access_one(record_id))
        except Http404:
            raise ValidationError({field: [f"No such record with id {record_id}."]}) from None
    return found


_CASE_EXAMPLES = [
    OpenApiExample(
        "From an incident report",
        value={"title": "Match penalty, game 12", "reports": [41]},
        request_only=True,
    ),
    OpenApiExample("From a protest (9.1 C)", value={"protests": [7]}, request_only=True),
    OpenApiExample(
        "Opened",
        value={
            "id": 3,
            "title": "Match penalty, game 12",
            "championship": 2,
            "status": "open",
            "hearing_at": None,
            "reports": [],
            "protests": [7],
            "decision": None,
        },  # fmt: skip
        response_only=True,
        status_codes=["201"],
    ),
    OpenApiExample(
        "Refused: a report already in a case",
        value={"reports": ["R-53: only open reports can be gathered into a new case."]},
        response_only=True,
        status_codes=["400"],
    ),
    OpenApiExample(
        "Refused: not the committee",
        value={"detail": "R-53: only the discipline committee and the IHTC executive may do this."},
        response_only=True,
        status_codes=["403"],
    ),
]


class CasesView(_View):
    @extend_schema(
        summary="Open a case from incident reports or protests (R-53; a protest about an incident, 9.1 C).",
        description="The discipline committee and the IHTC executive (403 for anyone else, before any record is "
        "looked up), through the same service as the report's and the protest's pages (discipline.cases.open_case). "
        "At least one report or protest; all of one championship; reports still open; protests in no other case. "
        "A refusal is a 400 naming the field (reports, protests, title) and the rule; nothing is stored. The case "
        "then gathers more, schedules its hearing and is decided (POST /api/cases/{id}/decision/).",
        request=CaseOpenInput,
        responses={201: CaseSerializer, 400: _REFUSED, 403: _FORBIDDEN},
        examples=_CASE_EXAMPLES,
    )
    def post(self, request):
        access.check_committee(request.user)
        data = self.input(CaseOpenInput)
        reports = _named("reports", data["reports"], lambda pk: access.access_incident_report(request.user, pk))
        protests = _named("protests", data["protests"], lambda pk: access.access_protest(request.user, pk))
        case = cases.open_case(reports=reports, protests=protests, title=data["title"], by=request.user)
        return self.answer(access.access_case(request.user, case.pk), serializer_class=CaseSerializer, created=True)


class CaseDecisionView(_View):
    @extend_schema(
        summary="Record the committee's decision: no action, or sanctions (suspensions, 8.2), with reasons.",
        request=DecisionInput,
        responses={201: CaseSerializer, 400: _REFUSED, 403: _FORBIDDEN, 404: _NOT_FOUND},
    )
    def post(self, request, id: int):
        case = access.access_case(request.user, id)
        data = self.input(DecisionInput)
        sanctions = [
            cases.Sanction(
                person_id=s["person"], kind=s["kind"], article=s["article"], games=s.get("games"), until=s.get("until")
            )
            for s in data["sanctions"]
        ]
        cases.decide_case(
            case=case, outcome=data["outcome"], reasons=data["reasons"], by=request.user, sanctions=sanctions
        )
        return self.answer(access.access_case(request.user, id), serializer_class=CaseSerializer, created=True)


_FILTERS = [
    OpenApiParameter("status", enum=SuspensionStatus.values, required=False),
    OpenApiParameter("kind", enum=SuspensionKind.values, required=False),
    OpenApiParameter("provisional", bool, required=False),
]


class ChampionshipSuspensionsView(_View):
    @extend_schema(
        summary="A championship's suspensions (8.2), for its staff and the committee.",
        parameters=_FILTERS,
        responses={200: SuspensionSerializer(many=True), 403: _FORBIDDEN, 404: _NOT_FOUND},
    )
    def get(self, request, id: int):
        championship = access.access_suspension_list(request.user, id)
        rows, errors = selectors.suspension_list(request.user, championship=championship, filters=request.query_params)
        if errors:
            raise ValidationError(errors)
        return Response(SuspensionSerializer(rows, many=True).data)


class SuspensionsView(_View):
    @extend_schema(
        summary="The suspensions this login may read: a team manager those of his teams' people.",
        parameters=_FILTERS,
        responses={200: SuspensionSerializer(many=True), 403: _FORBIDDEN},
    )
    def get(self, request):
        rows, errors = selectors.suspension_list(request.user, filters=request.query_params)
        if errors:
            raise ValidationError(errors)
        return Response(SuspensionSerializer(rows, many=True).data)


# --- appeals (9.2 A; R-54) ----------------------------------------------------------------------------------------


class AppealSerializer(serializers.ModelSerializer):
    filer = serializers.CharField(source="filer.username", read_only=True)
    fee = serializers.CharField(allow_null=True, read_only=True, help_text="Amount and currency, e.g. 'US$200.00'.")

    class Meta:
        model = Appeal
        fields = [
            "id", "decision", "protest", "level", "previous", "filer", "grounds", "fee", "filed_at", "deadline",
            "status", "reasons", "decided_at",
        ]  # fmt: skip
        read_only_fields = fields
        extra_kwargs = {
            "decision": {"help_text": "The committee's decision appealed (R-54); null for a protest's (R-56)."},
            "protest": {"help_text": "The protest whose decision is appealed (R-56); null for a committee's."},
        }


class AppealInput(serializers.Serializer):
    level = serializers.ChoiceField(choices=AppealLevel.choices)
    grounds = serializers.CharField()
    fee_amount = DecimalField(max_digits=10, decimal_places=2, required=False, allow_null=True, min_value=0)
    fee_currency = serializers.CharField(max_length=3, required=False, default="USD")


class AppealDecisionInput(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=APPEAL_OUTCOMES)
    reasons = serializers.CharField()


class _LodgeAppealView(_View):
    """Lodge an appeal against what the URL names, through ``appeals.file_appeal``: the same steps, deadlines and
    parties for a committee's decision (R-54) and a protest's (R-56)."""

    def lodge(self, **against):
        data = self.input(AppealInput)
        fee = None
        if data.get("fee_amount") is not None:
            from djmoney.money import Money

            fee = Money(data["fee_amount"], data.get("fee_currency") or "USD")
        appeal = appeals.file_appeal(
            level=data["level"], grounds=data["grounds"], by=self.request.user, fee=fee, **against
        )
        return self.answer(appeal, serializer_class=AppealSerializer, created=True)


class DecisionAppealsView(_LodgeAppealView):
    @extend_schema(
        summary="Lodge an appeal against a decision (9.2 A): the IHTC General Assembly, then the FIRS Congress.",
        request=AppealInput,
        responses={201: AppealSerializer, 400: _REFUSED, 403: _FORBIDDEN, 404: _NOT_FOUND},
    )
    def post(self, request, id: int):
        decision = get_object_or_404(Decision.objects.select_related("case__championship"), pk=id)
        if not access.can_file_appeal(request.user, decision):
            raise Http404(gettext("No such decision."))
        return self.lodge(decision=decision)


class ProtestAppealsView(_LodgeAppealView):
    @extend_schema(
        summary="Lodge an appeal against the IHTC's decision on a protest (9.2 A; R-56): the IHTC General Assembly, "
        "then the FIRS Congress.",
        description="As an appeal against a committee's decision (R-54): the same steps, the same deadlines (the "
        "ruleset's appeals.general_assembly_days after the protest's decision, congress_days after the Assembly's; "
        "none when unset) and the same parties: the managers of the game's two teams, the staff of their "
        "federations, international staff, the committee and the executive. 403 for a reader of the protest who "
        "is no party; 404 for anyone else; 400 (naming the field and the rule) for a protest not yet upheld "
        "or rejected (9.1 A), a late appeal, a step already taken. The decision on the appeal: "
        "appeals/{id}/decision/.",
        request=AppealInput,
        responses={201: AppealSerializer, 400: _REFUSED, 403: _FORBIDDEN, 404: _NOT_FOUND},
    )
    def post(self, request, id: int):
        return self.lodge(protest=access.access_protest_appeal(request.user, id))


class AppealDecisionView(_View):
    @extend_schema(
        summary="Record the General Assembly's or the FIRS Congress's decision on an appeal (9.2 A; final at Congress).",
        description="The same step for an appeal against a committee's decision (R-54) and a protest's (R-56): the "
        "IHTC executive records it; an upheld appeal against a committee's decision annuls its suspensions; an "
        "appeal of a protest's decision is told to both teams.",
        request=AppealDecisionInput,
        responses={200: AppealSerializer, 400: _REFUSED, 403: _FORBIDDEN, 404: _NOT_FOUND},
    )
    def post(self, request, id: int):
        if not access.is_committee(request.user):
            raise Http404(gettext("No such appeal."))
        appeal = get_object_or_404(Appeal, pk=id)
        appeals.check_can_decide_appeal(request.user)
        data = self.input(AppealDecisionInput)
        appeal = appeals.decide_appeal(appeal=appeal, outcome=data["outcome"], reasons=data["reasons"], by=request.user)
        return self.answer(appeal, serializer_class=AppealSerializer)
