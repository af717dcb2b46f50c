"""REST API of the official game report: its state (queued, rendering, done, failed) and its PDF.

Reading is like the page's (``reports.services.access_game_report``): a published championship's final game
report is public; a draft championship's is its directors'. Asking for the state of the current data's version
queues its render when it has none yet, once per version.
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
from tournaments.views import can_direct

from . import services
from .models import Document, DocumentKind, DocumentStatus

_NOT_FOUND = OpenApiResponse(
    description="No such game, a game that is not final (its report is made once it is, 4.2 O), or a draft "
    "championship's game and you are not one of its directors."
)


class PublicRead(permissions.BasePermission):
    """A published championship's final game report is read by anyone (the access check decides the rest)."""

    def allows_anonymous(self, view, method: str) -> bool:
        return method in permissions.SAFE_METHODS

    def has_permission(self, request, view):
        return self.allows_anonymous(view, request.method)


class DocumentSerializer(serializers.ModelSerializer):
    game = serializers.IntegerField(source="object_id", help_text="The game the report is about.")
    version = serializers.CharField(help_text="SHA-256 of the data the report shows; new data, new version.")
    version_label = serializers.CharField(help_text="What the report shows, as its version line says it.")
    download = serializers.SerializerMethodField(help_text="The PDF, once rendered (null before).")
    error = serializers.SerializerMethodField(
        help_text="Why the render failed, for the championship's directors (empty for anyone else, and unless failed)."
    )

    class Meta:
        model = Document
        fields = [
            "id", "kind", "game", "version", "version_label", "status", "error", "size", "pages", "render_ms",
            "attempts", "requested_at", "started_at", "finished_at", "download",
        ]  # fmt: skip
        read_only_fields = fields

    def get_error(self, document) -> str:
        return document.error if self.context.get("director") else ""

    def get_download(self, document) -> str | None:
        if document.status != DocumentStatus.DONE:
            return None
        return reverse("reports-api:game-report-pdf", args=[document.object_id], request=self.context.get("request"))


class NotRendered(APIException):
    status_code = 409
    default_detail = "The report of the current version is not rendered yet."


class JSONRefusals(BaseContentNegotiation):
    """The PDF answers as a file whatever the client accepts; a refusal (404, 409) is JSON."""

    def select_parser(self, request, parsers):
        return parsers[0] if parsers else None

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


class GameReportView(APIView):
    permission_classes = [PublicRead]

    @extend_schema(
        summary="The official game report of a final game: its current version and state (4.2 O, 4.3 A)",
        description="Public for a published championship's final game (the report is an official document like "
        "the result); a draft championship's is read by its directors only. The report shows one version of the "
        "game's record (`version`: SHA-256 of its data; `version_label`: the sheet version it shows, or the "
        "staff-entered result). Asking for it queues the render of the current version when none exists yet "
        "(once per version, by a background worker); `status` goes queued -> rendering -> done (then `download` "
        "is the PDF) or failed (`error` says why). After an audited amendment the version changes and an older "
        "file is never answered as current.",
        responses={200: DocumentSerializer, 404: _NOT_FOUND},
    )
    def get(self, request, game_id: int):
        game = services.access_game_report(request.user, game_id)
        document = services.document_current(DocumentKind.GAME_REPORT, game)
        context = {"request": request, "director": can_direct(request.user, game.championship)}
        return Response(DocumentSerializer(document, context=context).data)


class GameReportPDFView(APIView):
    permission_classes = [PublicRead]
    renderer_classes = [JSONRenderer]
    content_negotiation_class = JSONRefusals

    @extend_schema(
        summary="The official game report's PDF, current version only (4.2 O, 4.3 A)",
        description="The PDF of the current version of a final game's report (A4), once rendered: who may read "
        "it as for the report's state. While the current version is queued or rendering (or failed) the answer "
        "is 409 and the report's state tells its progress; an older version's file is never served.",
        responses={
            (200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY, description="The PDF (attachment)."),
            (404, "application/json"): _NOT_FOUND,
            (409, "application/json"): OpenApiResponse(
                description="The current version is not rendered yet (queued, rendering) or failed."
            ),
        },
    )
    def get(self, request, game_id: int):
        game = services.access_game_report(request.user, game_id)
        document = services.document_current(DocumentKind.GAME_REPORT, game)
        if document.status != DocumentStatus.DONE:
            raise NotRendered(f"The report of the current version is {document.get_status_display().lower()}.")
        return private_file_response(
            document.file, content_type="application/pdf", filename_stem=services.KINDS[document.kind].filename(game)
        )
