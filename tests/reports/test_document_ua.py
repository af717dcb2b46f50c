"""The documents' own user-agent stylesheet (``reports/document-ua.css``) draws every document exactly as
WeasyPrint's full one does: each page rasterized (pdftoppm) is the same, pixel for pixel, either way."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from weasyprint import HTML

from reports import services
from reports.models import DocumentKind
from reports.rendering import DocumentHTML, StaticFilesFetcher, static_file_url

from .helpers import page_images, signed_sheet_game, staff_result_game

pytestmark = pytest.mark.django_db


def _pixels(html: str, renderer, tmp_path) -> list[bytes]:
    """Every page of the document as a 50 dpi greyscale image (PGM bytes)."""
    pdf = renderer(string=html, base_url=None, url_fetcher=StaticFilesFetcher()).render().write_pdf()
    return page_images(pdf, tmp_path / renderer.__name__)


def _html(kind: str, obj) -> str:
    data = services.KINDS[kind].data(obj)
    return render_to_string(
        services.KINDS[kind].template,
        {**data, "version": "0" * 64, "stylesheet": static_file_url("reports/documents.css")},
    )


def _same_pixels(html: str, tmp_path) -> None:
    full = _pixels(html, HTML, tmp_path)
    own = _pixels(html, DocumentHTML, tmp_path)
    assert full and len(own) == len(full)
    assert own == full


def test_a_signed_sheet_games_report_looks_the_same_with_the_documents_own_ua_stylesheet(director, tmp_path):
    game, _ = signed_sheet_game(director)
    _same_pixels(_html(DocumentKind.GAME_REPORT, game), tmp_path)


def test_a_staff_entered_games_report_looks_the_same_with_the_documents_own_ua_stylesheet(director, tmp_path):
    game = staff_result_game(director)
    _same_pixels(_html(DocumentKind.GAME_REPORT, game), tmp_path)


def _demo_objects() -> dict[str, object]:
    """One object of the demo for each kind of document (the richest: the main championship, a roster with a
    waiver, the rejected protest, the decided case, the final game with the most penalties)."""
    from django.db.models import Count

    from discipline.models import Case, CaseStatus, Protest
    from federation.models import EligibilityWaiver
    from tournaments.models import Game, GameStatus, RosterEntry

    championship = Game.objects.filter(status=GameStatus.FINAL).first().championship
    waived = EligibilityWaiver.objects.values_list("person_id", flat=True)
    return {
        DocumentKind.GAME_REPORT: Game.objects.filter(status=GameStatus.FINAL)
        .annotate(lines=Count("penalties"))
        .order_by("-lines", "pk")
        .first(),
        DocumentKind.STANDINGS: championship,
        DocumentKind.STATISTICS: championship,
        DocumentKind.SUSPENSIONS: championship,
        DocumentKind.ROSTER: RosterEntry.objects.filter(person_id__in=waived).first().entry,
        DocumentKind.PROTEST_DECISION: Protest.objects.filter(status="rejected").first(),
        DocumentKind.CASE_DECISION: Case.objects.filter(status=CaseStatus.DECIDED).first(),
    }


@pytest.mark.django_db
class TestEveryDemoDocument:
    def test_each_kind_looks_the_same_with_the_documents_own_ua_stylesheet(self, demo, tmp_path):
        objects = _demo_objects()
        assert set(objects) == set(services.KINDS) and all(objects.values())
        for kind, obj in objects.items():
            _same_pixels(_html(kind, obj), tmp_path / kind)
