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
