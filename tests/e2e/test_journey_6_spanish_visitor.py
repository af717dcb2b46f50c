"""Journey 6 (issue 12): a visitor on a phone reads the standings, with how the ties were broken, and a game's
official report (PDF), in Spanish.

English is the rules' authoritative language; the pages, the tie-break explanations and the PDF are said in the
reader's language, and every rule citation keeps its article number (9.3 B, 9.3 D, 4.2 O).
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from reports import services
from reports.models import Document, DocumentKind
from tests.e2e.live_helpers import fits_the_screen, open_menu
from tests.factories import international_staff
from tests.reports.helpers import flat, pdf_text, staff_result_game
from tests.tournaments.conftest import circle_of_wins

PHONE = {"width": 375, "height": 740}


def test_a_visitor_on_a_phone_reads_standings_and_a_game_report_in_spanish(
    page, screenshot, outside_requests, accessible, monkeypatch, tmp_path
):
    held: list[int] = []
    monkeypatch.setattr(services, "queue_render", held.append)
    game = staff_result_game(international_staff())  # pool A: a final game 2-1, its English report queued
    championship = game.championship
    # A circle of wins: all on 2 points (9.3 B), level head to head (9.3 C); goals allowed decide (9.3 D).
    circle_of_wins(championship, name="B")

    page.set_viewport_size(PHONE)
    page.goto("/")
    # The language switch, with the keyboard: choose Español, then press the button.
    open_menu(page)
    page.get_by_label("Language").select_option("es")
    page.get_by_role("button", name="Change").focus()
    page.keyboard.press("Enter")
    page.wait_for_load_state()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.get_by_role("link", name="Campeonatos").first).to_be_visible()
    screenshot(page, "home-in-spanish")

    page.get_by_role("link", name="Campeonatos").first.click()
    page.get_by_role("link", name=championship.name).click()
    page.get_by_role("link", name="Clasificación").first.click()
    expect(page).to_have_url(re.compile(rf"/tournaments/{championship.pk}/standings/$"))
    expect(page.get_by_text("Cómo se deshicieron los empates").first).to_be_visible()
    explanations = page.locator("details li")
    expect(explanations.filter(has_text=re.compile(r"^9\.3 B: .+ están empatados a 2 puntos$"))).to_have_count(1)
    expect(explanations.filter(has_text="9.3 D: goles recibidos en la fase")).to_have_count(1)
    # Each team's row says which criterion placed it, in Spanish with its article.
    expect(
        page.locator("table.standings .narrow").filter(has_text="9.3 D: goles recibidos en la fase")
    ).not_to_have_count(0)
    fits_the_screen(page)
    accessible(page, "the standings in Spanish on a phone")
    screenshot(page, "standings-tie-breaks-in-spanish")

    page.get_by_role("link", name="Resultados").first.click()
    # The score opens the game's page (issue 25); the official report's PDF is beside the box score.
    page.get_by_title("Página del partido: estadísticas y acta oficial").first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Partido n.º {game.number}")
    page.get_by_role("link", name="Acta oficial del partido (PDF, 4.2 O)").click()
    expect(page).to_have_url(re.compile(rf"/reports/games/{game.pk}/$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Acta oficial del partido")
    state = page.locator(".report-state")
    expect(state).to_contain_text("en cola")
    fits_the_screen(page)
    accessible(page, "the game report page in Spanish, queued")
    screenshot(page, "game-report-queued-in-spanish")

    spanish = Document.objects.get(kind=DocumentKind.GAME_REPORT, object_id=game.pk, language="es")
    assert spanish.pk in held and len(held) == 2  # the English report (made final) and the Spanish one (asked)
    assert services.document_render(spanish.pk) == "done"  # the worker
    download = page.get_by_role("link", name=re.compile(r"^Descargar .*acta oficial del partido» \(PDF, 1 página"))
    expect(download).to_be_visible(timeout=10_000)  # the page looked again by itself
    accessible(page, "the game report page in Spanish, ready")
    screenshot(page, "game-report-ready-in-spanish")

    with page.expect_download() as downloaded:
        download.click()
    saved = tmp_path / downloaded.value.suggested_filename
    downloaded.value.save_as(saved)
    pdf = saved.read_bytes()
    spanish.refresh_from_db()
    assert pdf == spanish.file.open("rb").read()
    text = flat(pdf_text(pdf, tmp_path))
    assert "ACTA OFICIAL DEL PARTIDO" in text and game.home.name in text, text[:300]
    assert "4.2 O" in text  # the article keeps its number in Spanish
    assert "OFFICIAL GAME REPORT" not in text
    assert outside_requests == []
