from django.urls import path

from . import game_page, views
from .models import DocumentKind

app_name = "reports"


def document_paths(prefix: str, kind: str, route: str) -> list:
    """The page, the download and the retry of one kind of document, under ``prefix`` (with ``<int:object_id>``)."""
    return [
        path(prefix, views.document_page, {"kind": kind}, name=route),
        path(f"{prefix}pdf/", views.document_pdf, {"kind": kind}, name=f"{route}-pdf"),
        path(f"{prefix}retry/", views.document_retry, {"kind": kind}, name=f"{route}-retry"),
    ]


urlpatterns = [
    path("games/<int:object_id>/box-score/", game_page.game_page, name="game-page"),
    *document_paths("games/<int:object_id>/", DocumentKind.GAME_REPORT, "game-report"),
    *document_paths("championships/<int:object_id>/standings/", DocumentKind.STANDINGS, "standings-report"),
    *document_paths("championships/<int:object_id>/statistics/", DocumentKind.STATISTICS, "statistics-report"),
    *document_paths("entries/<int:object_id>/roster/", DocumentKind.ROSTER, "roster-sheet"),
    *document_paths("protests/<int:object_id>/decision/", DocumentKind.PROTEST_DECISION, "protest-decision-letter"),
    *document_paths("cases/<int:object_id>/decision/", DocumentKind.CASE_DECISION, "case-decision-letter"),
    *document_paths("championships/<int:object_id>/suspensions/", DocumentKind.SUSPENSIONS, "suspensions-report"),
]
