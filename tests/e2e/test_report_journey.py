"""The official game report in a browser: a visitor on a phone follows its render, then downloads the PDF.

The worker is the test: the render queued when the game became final is held (``reports.services.queue_render``
records it instead of sending it), so the page shows its progress; the test then renders it as a worker would
(``document_render``) and the page, looking again by itself, offers the download.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from reports import services
from reports.models import Document, DocumentKind
from tests.e2e.live_helpers import fits_the_screen
from tests.factories import international_staff
from tests.reports.helpers import flat, pdf_text, staff_result_game

PHONE = {"width": 375, "height": 740}


def test_a_visitor_on_a_phone_waits_for_the_game_report_then_downloads_it(
    page, screenshot, outside_requests, monkeypatch, tmp_path
):
    held: list[int] = []
    monkeypatch.setattr(services, "queue_render", held.append)
    game = staff_result_game(international_staff())
    game.refresh_from_db()
    assert game.is_final and len(held) == 1  # made final: its report was queued once

    page.set_viewport_size(PHONE)
    page.goto(f"/tournaments/{game.championship_id}/results/")
    # The score opens the game's page (issue 25); the report's PDF is beside the box score.
    page.get_by_title("Game page: box score and official report").first.click()
    page.get_by_role("link", name="Official game report (PDF, 4.2 O)").click()
    expect(page).to_have_url(re.compile(rf"/reports/games/{game.pk}/$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"{game.home.name} 2–1 {game.away.name}")
    state = page.locator(".report-state")
    expect(state).to_contain_text("The official game report is queued")
    expect(state.locator("progress")).to_be_visible()
    fits_the_screen(page)
    screenshot(page, "game-report-queued-phone")

    assert services.document_render(held[0]) == "done"  # the worker
    download_link = page.get_by_role("link", name=re.compile(r"Download the official game report \(PDF, 1 page"))
    expect(download_link).to_be_visible(timeout=10_000)  # the page looked again by itself (every 2 s)
    expect(state).to_contain_text("Result entered by staff")
    screenshot(page, "game-report-done-phone")

    with page.expect_download() as download:
        download_link.click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name == f"game-report-{game.championship_id}-{game.number}.pdf"
    pdf = saved.read_bytes()
    assert pdf.startswith(b"%PDF-")
    document = Document.objects.get(kind=DocumentKind.GAME_REPORT, object_id=game.pk)
    assert pdf == document.file.open("rb").read()
    text = flat(pdf_text(pdf, tmp_path))
    assert "OFFICIAL GAME REPORT" in text and game.home.name in text and game.away.name in text
    assert outside_requests == []
