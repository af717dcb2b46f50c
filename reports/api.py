"""REST API of the documents: for each kind, its state (queued, rendering, done, failed) and its PDF.

Reading is like the page's (the kind's ``access``: a published championship's final game report is public; a
draft championship's is its directors'). Asking for the state of the current data's version queues its render
when it has none yet, once per version. ``document_api_views`` makes the two endpoints of a kind.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.exceptions import APIException
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from federation.files import private_file_response

from . import services
from .models import Document, DocumentKind, DocumentStatus


class DocumentRead(permissions.BasePermission):
    """A public kind (a published championship's documents) is read by anyone; another needs credentials first.

    The kind's access check decides the rest (``reports.services.Kind.access``).
    """

    def allows_anonymous(self, view, method: str) -> bool:
        return method in permissions.SAFE_METHODS and services.kind_of(view.kind).public

    def has_permission(self, request, view):
        return self.allows_anonymous(view, request.method) or bool(request.user and request.user.is_authenticated)


class DocumentSerializer(serializers.ModelSerializer):
    object_id = serializers.IntegerField(help_text="The id of the object the document is about (the path's id).")
    version = serializers.CharField(help_text="SHA-256 of the data the document shows; new data, new version.")
    version_label = serializers.CharField(help_text="What the document shows, as its version line says it.")
    download = serializers.SerializerMethodField(help_text="The PDF, once rendered (null before).")
    error = serializers.SerializerMethodField(
        help_text="Why the render failed, for those who may render it again (empty for anyone else, and unless failed)."
    )

    class Meta:
        model = Document
        fields = [
            "id", "kind", "object_id", "version", "version_label", "status", "error", "size", "pages", "render_ms",
            "attempts", "requested_at", "started_at", "finished_at", "download",
        ]  # fmt: skip
        read_only_fields = fields

    def get_error(self, document) -> str:
        return document.error if self.context.get("can_retry") else ""

    def get_download(self, document) -> str | None:
        if document.status != DocumentStatus.DONE:
            return None
        route = services.kind_of(document.kind).route
        return reverse(f"reports-api:{route}-pdf", args=[document.object_id], request=self.context.get("request"))


class GameReportSerializer(DocumentSerializer):
    game = serializers.IntegerField(source="object_id", help_text="The game the report is about.")

    class Meta(DocumentSerializer.Meta):
        fields = ["id", "kind", "game", *DocumentSerializer.Meta.fields[2:]]
        read_only_fields = fields


class ChampionshipDocumentSerializer(DocumentSerializer):
    championship = serializers.IntegerField(source="object_id", help_text="The championship the document is about.")

    class Meta(DocumentSerializer.Meta):
        fields = ["id", "kind", "championship", *DocumentSerializer.Meta.fields[2:]]
        read_only_fields = fields


class RosterSheetSerializer(DocumentSerializer):
    entry = serializers.IntegerField(source="object_id", help_text="The team entry whose roster the sheet shows.")

    class Meta(DocumentSerializer.Meta):
        fields = ["id", "kind", "entry", *DocumentSerializer.Meta.fields[2:]]
        read_only_fields = fields


class NotRendered(APIException):
    status_code = 409
    default_detail = "The document of the current version is not rendered yet."


class JSONRefusals(BaseContentNegotiation):
    """The PDF answers as a file whatever the client accepts; a refusal (404, 409) is JSON."""

    def select_parser(self, request, parsers):
        return parsers[0] if parsers else None

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


_NOT_RENDERED = OpenApiResponse(description="The current version is not rendered yet (queued, rendering) or failed.")
_NO_CREDENTIALS = OpenApiResponse(description="No credentials: this document is not public.")


def _object_id(kwargs: dict) -> int:
    (value,) = kwargs.values()
    return value


def document_api_views(kind: str, *, summary: str, description: str, not_found: str, serializer=DocumentSerializer):
    """The state and the PDF endpoints of one kind of document (their OpenAPI texts by the kind)."""
    spec = services.kind_of(kind)
    refusals = {404: OpenApiResponse(description=not_found)}
    if not spec.public:
        refusals = {401: _NO_CREDENTIALS, 403: OpenApiResponse(description="Not yours to read."), **refusals}

    class StateView(APIView):
        permission_classes = [DocumentRead]

        @extend_schema(
            summary=summary,
            description=f"{description} Asking for it queues the render of the current version when none exists "
            "yet (once per version, by a background worker); `status` goes queued -> rendering -> done (then "
            "`download` is the PDF) or failed (`error` says why, to those who may render it again). When the data "
            "changes the version changes, and an older file is never answered as current.",
            responses={200: serializer, **refusals},
        )
        def get(self, request, **kwargs):
            obj = spec.access(request.user, _object_id(kwargs))
            document = services.document_current(kind, obj)
            context = {"request": request, "can_retry": spec.can_retry(request.user, obj)}
            return Response(serializer(document, context=context).data)

    class PDFView(APIView):
        permission_classes = [DocumentRead]
        renderer_classes = [JSONRenderer]
        content_negotiation_class = JSONRefusals

        @extend_schema(
            summary=f"{summary}: the PDF, current version only",
            description="The PDF (A4) of the current version, once rendered; who may read it as for its state. "
            "While the current version is queued or rendering (or failed) the answer is 409 and the state tells "
            "its progress; an older version's file is never served.",
            responses={
                (200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY, description="The PDF (attachment)."),
                **{(code, "application/json"): answer for code, answer in refusals.items()},
                (409, "application/json"): _NOT_RENDERED,
            },
        )
        def get(self, request, **kwargs):
            obj = spec.access(request.user, _object_id(kwargs))
            document = services.document_current(kind, obj)
            if document.status != DocumentStatus.DONE:
                raise NotRendered(
                    f"The {spec.label.lower()} of the current version is {document.get_status_display().lower()}."
                )
            return private_file_response(
                document.file, content_type="application/pdf", filename_stem=spec.filename(obj)
            )

    for view in (StateView, PDFView):
        view.kind = kind
        view.__name__ = view.__qualname__ = f"{spec.route.title().replace('-', '')}{view.__name__}"
    return StateView, PDFView


GameReportView, GameReportPDFView = document_api_views(
    DocumentKind.GAME_REPORT,
    summary="The official game report of a final game (4.2 O, 4.3 A)",
    description="Public for a published championship's final game (the report is an official document like the "
    "result); a draft championship's is read by its directors only. The report shows one version of the game's "
    "record (`version`: SHA-256 of its data; `version_label`: the sheet version it shows, or the staff-entered "
    "result).",
    not_found="No such game, a game that is not final (its report is made once it is, 4.2 O), or a draft "
    "championship's game and you are not one of its directors.",
    serializer=GameReportSerializer,
)

_CHAMPIONSHIP_NOT_FOUND = "No such championship, or a draft championship and you are not one of its directors."
_CHAMPIONSHIP_DOCUMENT = (
    "Public for a published championship (like its pages); a draft championship's is read by its directors only."
)

StandingsReportView, StandingsReportPDFView = document_api_views(
    DocumentKind.STANDINGS,
    summary="The pool standings of a championship, with how the ties were broken (9.3)",
    description=f"{_CHAMPIONSHIP_DOCUMENT} Every pool's table as the standings show it (a disqualified team's row "
    "marked, 8.1 D), each pool final or provisional, and the lines explaining every tie-break (9.3 B-G). "
    "`version_label` says how many pool games it counts and the last final one.",
    not_found=_CHAMPIONSHIP_NOT_FOUND,
    serializer=ChampionshipDocumentSerializer,
)
StatisticsReportView, StatisticsReportPDFView = document_api_views(
    DocumentKind.STATISTICS,
    summary="The statistics of a championship (4.3 A, 4.6 note, 8.1 B-D)",
    description=f"{_CHAMPIONSHIP_DOCUMENT} The leaders' tables (points, goals, assists, penalty minutes), the "
    "goalkeepers and the teams' special teams, as the leaders show them. `version_label` says how many games it "
    "counts and the last final one.",
    not_found=_CHAMPIONSHIP_NOT_FOUND,
    serializer=ChampionshipDocumentSerializer,
)
RosterSheetView, RosterSheetPDFView = document_api_views(
    DocumentKind.ROSTER,
    summary="A team's roster sheet with every player's eligibility (1.1, 3.1.1, 3.1.2; R-03, R-04)",
    description="Read by whoever reads the entry's roster: its team managers, its federation's staff and "
    "international staff (the championship's directors of an international body among them); 403 for anyone "
    "else. The sheet lists each player with number, position, captain's mark, birth date, nationality, passport "
    "(country, masked number, expiry) and eligibility for the championship's category on its dates, with the "
    "reasons and their articles and any IHTC waiver (R-03); the team officials; the roster limits and whether the "
    "roster meets them (R-04). `version_label` says the roster's counts and state.",
    not_found="No such entry, or its championship is a draft you do not see.",
    serializer=RosterSheetSerializer,
)
ProtestDecisionView, ProtestDecisionPDFView = document_api_views(
    DocumentKind.PROTEST_DECISION,
    summary="The decision letter of a decided protest (9.1 A, R-52)",
    description="The letter to the protesting team: the game, the protest, the IHTC's decision and its reasons, "
    "the fee's outcome (returned when upheld, forfeited when found unjustified) and the right of appeal (9.2 A, "
    "R-54). Read by whoever may read the protest (the committee, international staff, the sanctioning body's "
    "staff, the managers of the game's teams).",
    not_found="No such protest, not yours to read, or not decided yet (the letter is made once the IHTC upholds "
    "or rejects it, 9.1 A).",
)
CaseDecisionView, CaseDecisionPDFView = document_api_views(
    DocumentKind.CASE_DECISION,
    summary="The committee's decision letter of a decided case (R-53, 8.2)",
    description="The case (its reports, protests, hearing), the outcome, the suspensions the decision imposed and "
    "the provisional ones it replaced, the reasons, the appeal route and deadline (9.2 A, R-54). Read by the "
    "committee and the executive, and by the parties who may appeal the decision (the federation's staff of a "
    "person of the case, international staff, that person's team managers). Confidential reports are never in it.",
    not_found="No such case, not yours to read, or not decided yet (the letter is made once the committee decides).",
)
SuspensionListView, SuspensionListPDFView = document_api_views(
    DocumentKind.SUSPENSIONS,
    summary="The suspension list of a championship (8.2, 7.1; R-53)",
    description="Every suspension imposed in the championship: person, team, number, article, games to serve and "
    "served, until when, status. Read by whoever sees the championship's whole list (its sanctioning body's "
    "staff, international staff, the committee, the executive); a team manager sees his people's suspensions in "
    "the list of his own, not this document.",
    not_found="No such championship.",
)
