"""The scripts speak the reader's language (issue 26): a Spanish official gets the console in Spanish, offline
included; a French viewer's scoreboard says its own words in French.

The words the scripts make (toasts, questions, the bar, the log's states, the board's period and status) come from
Django's JavaScript catalogue (/jsi18n/<language>/), which the console keeps offline with its page. No English
sentence of the catalogue's appears on a French or Spanish page.
"""

from __future__ import annotations

import datetime
import re

from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.live_helpers import choose_language, console_from_home, space, waiting
from tests.e2e.test_scoreboard_journey import now_entry
from tests.factories import international_staff
from tests.games.endgame_helpers import played_game
from tests.games.sheet_helpers import sheet_game, sign_in
from tests.live_servers import DEVICE, Session
from tests.portal.test_js_translations import JS_PLACEHOLDER, js_catalogue
from tests.portal.test_translations import _pairs

expect.set_options(timeout=10_000)

PHONE = {"width": 390, "height": 844}


def english_sentences(language: str) -> list[str]:
    """The English words of the scripts' catalogue that a reader of ``language`` must never see: each msgid's text
    between its placeholders, of a few words (a single word may be a team's or a person's name)."""
    found = set()
    for entry in js_catalogue(language):
        for english, text in _pairs(entry):
            if text == english:
                continue
            for chunk in JS_PLACEHOLDER.split(english):
                chunk = chunk.strip(" :·–()#.,?")
                if len(chunk) >= 8 and " " in chunk:
                    found.add(chunk)
    return sorted(found)


def no_english(page, language: str) -> None:
    text = page.locator("body").inner_text()
    seen = [sentence for sentence in english_sentences(language) if sentence in text]
    assert not seen, f"English of the scripts on the {language} page: {seen}"


def test_a_spanish_official_gets_the_console_in_spanish_offline_included(page, login_as, screenshot):
    director = international_staff(username="director-es")
    game, scorer = played_game(director, start_at=timezone.now() + datetime.timedelta(hours=1))
    page.clock.install()
    page.set_viewport_size(PHONE)
    login_as(scorer)
    choose_language(page, "es")

    # From the scorer's home to the console, signed in as the scorer.
    console_from_home(page, game)
    # The bar: the script's words ("Dispositivo", "En línea") around the server's (the duty's name).
    expect(page.locator("#device")).to_contain_text("Dispositivo")
    expect(page.locator("#device")).to_contain_text("anotador oficial (4.3)")
    expect(page.locator("#net")).to_have_text("En línea")
    expect(page.locator("#waiting")).to_have_text("0 en espera")
    expect(page.locator("#offline-ready")).to_have_attribute("data-ready", "yes")
    expect(page.locator("#offline-ready")).to_contain_text("Listo sin conexión")

    # The space bar starts the period: the toast says what was entered, in Spanish.
    space(page)
    waiting(page, 0)
    expect(page.locator("#period")).to_have_text("Periodo 1")
    expect(page.locator("#undo .what")).to_have_text("Introducido: Periodo 1 iniciado.")
    expect(page.locator("#clock-toggle")).to_contain_text("Parar el reloj")
    # Voiding an entry asks first, in Spanish (the browser's confirm dialog); dismissed, nothing is voided.
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.locator("#log li[data-status=confirmed] button.void").first.click()
    expect(page.locator("#log li[data-status=confirmed] .status").first).to_have_text("confirmada")
    assert asked == ["¿Anular: Periodo 1 empieza?"]
    no_english(page, "es")

    # The network drops: the entry waits, and the console says so in Spanish.
    page.context.set_offline(True)
    page.locator("[data-actions=home] [data-type=shot]").click()
    waiting(page, 1)
    expect(page.locator("#net")).to_contain_text("Sin conexión desde")
    expect(page.locator("#waiting")).to_have_text("1 en espera")
    queued = page.locator("#log li[data-status=waiting]")
    expect(queued).to_have_count(1)
    expect(queued.locator(".status")).to_have_text("en espera")
    expect(queued.locator(".what")).to_contain_text("Tiro a puerta")
    expect(page.locator("#undo .what")).to_contain_text("Introducido: Tiro a puerta")

    # A reload while offline: the page and its Spanish catalogue come from the service worker's cache (the
    # browser's HTTP cache emptied first: the console's own cache alone must be enough).
    page.context.new_cdp_session(page).send("Network.clearBrowserCache")
    catalogues = []
    page.on("response", lambda answer: catalogues.append(answer) if "/jsi18n/" in answer.url else None)
    response = page.reload()
    assert response is not None and response.from_service_worker
    expect(page.locator("body[data-started=yes]")).to_be_attached()
    assert page.evaluate("() => window.gettext('Online')") == "En línea"
    assert [(answer.url.split("?")[0], answer.from_service_worker) for answer in catalogues] == [
        (page.url.split("/games/")[0] + "/jsi18n/es/", True)
    ]
    expect(page.locator("#net")).to_contain_text("Sin conexión desde")
    expect(page.locator("#waiting")).to_have_text("1 en espera")
    expect(page.locator("#log li[data-status=waiting] .status")).to_have_text("en espera")
    expect(page.locator("#device")).to_contain_text("Dispositivo")
    expect(page.locator("#clock-note")).to_contain_text("transcurrido")
    no_english(page, "es")
    screenshot(page, "console-offline-in-spanish-phone")

    # The network is back: the waiting entry is sent.
    page.context.set_offline(False)
    waiting(page, 0)
    expect(page.locator("#net")).to_have_text("En línea")


def test_a_french_viewer_reads_the_scoreboards_own_words_in_french(asgi_server, viewer_tab, outside_requests):
    director = international_staff()
    game = sheet_game()
    sign_in(game, director, device=DEVICE)
    session = Session(director)

    tab = viewer_tab(f"/games/{game.pk}/live/", locale="fr-FR", viewport=PHONE)
    expect(tab.locator("html")).to_have_attribute("lang", "fr")
    board = tab.locator("[data-board]")
    expect(tab.locator("[data-status]")).to_have_attribute("data-state", "live")
    expect(tab.locator("[data-status]")).to_have_text("En direct")
    expect(board.locator("[data-period]")).to_have_text("Pas commencé")

    asgi_server.post(game, [now_entry("period_start", period=1)], session)
    expect(board.locator("[data-period]")).to_have_text("Période 1")
    asgi_server.post(game, [now_entry("clock_stop", period=1, time="1:00", seconds=61),
                            now_entry("penalty", period=1, time="1:00", team="away", player=14, penalty="minor",
                                      infraction="hooking", seconds=62),
                            now_entry("clock_start", period=1, time="1:00", seconds=63)], session)  # fmt: skip
    expect(board.locator('[data-box="away"] li').first).to_contain_text("#14 Mineure")
    expect(board.locator("[data-power-play]")).to_have_text(f"Supériorité numérique : {game.home.name}")
    expect(board.locator('[data-strength="away"]')).to_have_text(re.compile(r"^\d sur la piste$"))
    expect(board.locator("[data-penalties] li").first).to_contain_text("P1 1:00")
    no_english(tab, "fr")
    assert outside_requests == []
