"""The console as a new official meets it (issue 25, "Fix first: Console"): each defect seen on the demo, in a browser.

The log reads period and clock as "P1 12:29" whatever form the stored entry's time has (the demo stores "mm:ss",
the console tenths, R-10); the bar knows what the server confirmed; a refused entry shows only its refusal; the end
of a period is offered only as the server accepts it (R-10, R-11); no player is chosen for the official; a key
that records an entry shows the team first; the scoreboard's score and clock never overlap on a phone or a tablet.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import SheetEvent
from tests.e2e.live_helpers import (
    choose_language,
    console_from_home,
    entered_at_the_table,
    fits_the_screen,
    minutes,
    open_console,
    space,
    waiting,
)
from tests.factories import international_staff
from tests.games.sheet_helpers import entry, sheet_game

expect.set_options(timeout=10_000)

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 768, "height": 1024}
TABLET_LANDSCAPE = {"width": 1024, "height": 768}


@pytest.fixture
def game(transactional_db):
    return sheet_game()


@pytest.fixture
def director(transactional_db):
    return international_staff(username="director-e2e")


@pytest.fixture
def console(page, login_as, director, game):
    page.clock.install()
    login_as(director)
    return open_console(page, game)


def stored_types(game) -> list[str]:
    return [e.payload["type"] for e in SheetEvent.objects.filter(sheet__game=game).order_by("sequence")]


def test_the_log_reads_period_and_clock_and_the_bar_knows_what_the_server_confirmed(
    page, login_as, director, game, screenshot
):
    # As the demo enters them: times written "mm:ss" (R-10), from another device of the officials' table.
    entered_at_the_table(
        game,
        by=director,
        device="demo-table",
        events=[
            entry("period_start", period=1, time="00:00"),
            entry("shot", period=1, time="05:10", team="away", seconds=1),
            entry("goal", period=1, time="12:29", team="home", player=8, assist=9, seconds=2),
        ],
    )
    page.clock.install()
    login_as(director)
    open_console(page, game)
    log = page.locator("#log")
    expect(log.locator("li")).to_have_count(3)
    expect(log.locator("li").filter(has_text=re.compile(r"^Goal "))).to_contain_text("P1 12:29")
    expect(log.locator("li").filter(has_text=re.compile(r"^Shot on goal "))).to_contain_text("P1 5:10")
    expect(log).not_to_contain_text("NaN")
    # The entries the server holds are confirmed, whichever device sent them.
    expect(page.locator("#confirmed")).not_to_have_text("Nothing confirmed yet")
    expect(page.locator("#confirmed")).to_contain_text("Last confirmed")
    screenshot(page, "console-log-of-a-game-in-progress")


def test_a_refused_entry_shows_only_the_refusal_with_the_servers_reason(console, game):
    page = console
    space(page)
    minutes(page, "01:00")
    waiting(page, 0)
    # 5.5.2 A: a time-out is called at a stoppage; the clock runs.
    page.locator("[data-actions=away] [data-type=timeout]").click()
    refusal = page.locator("#refusal")
    expect(refusal).to_be_visible()
    expect(refusal).to_contain_text("5.5.2 A")
    expect(refusal).to_contain_text("a time-out is called at a stoppage of play")
    expect(refusal).to_contain_text("Nothing was stored")
    expect(page.locator("#undo")).to_be_hidden()  # no "Entered … Undo" for what was not stored
    assert not UUID.search(refusal.inner_text())
    refused = page.locator("#log li[data-status=refused]")
    expect(refused).to_have_count(1)
    assert not UUID.search(refused.inner_text())
    assert stored_types(game) == ["period_start"]


def test_the_end_of_a_period_is_offered_as_the_server_accepts_it(console, game):
    page = console
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    space(page)
    minutes(page, "05:00")
    space(page)  # the clock stops at 5:00
    waiting(page, 0)
    # Stopped before its time ran out, the period cannot end (R-10: time does not move while the clock is stopped):
    # the console says so, and asks nothing.
    page.locator("#period-end").click()
    note = page.locator("#controls-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("R-10")
    assert asked == []
    expect(page.locator("#refusal")).to_be_hidden()
    waiting(page, 0)
    assert stored_types(game) == ["period_start", "clock_stop"]
    # With the clock running, the officials may end it early: asked, then accepted by the server.
    space(page)
    minutes(page, "01:00")
    page.locator("#period-end").click()
    waiting(page, 0)
    assert len(asked) == 1
    expect(page.locator("#refusal")).to_be_hidden()
    expect(page.locator("#period-start")).to_be_visible()
    assert stored_types(game) == ["period_start", "clock_stop", "clock_start", "period_end"]


def test_no_player_is_chosen_for_the_official(console, game):
    page = console
    space(page)
    minutes(page, "02:00")
    waiting(page, 0)
    page.locator("[data-actions=home] [data-type=goal]").click()
    expect(page.locator("#f-player")).to_have_value("")
    page.locator("#entry-ok").click()
    expect(page.locator("#entry .form-error")).to_contain_text("Scorer")
    expect(page.locator("#entry")).to_be_visible()
    page.locator("#entry-cancel").click()
    page.locator("[data-actions=away] [data-type=penalty]").click()
    page.locator("#f-search").fill("tripping")
    page.locator("#f-search").press("Enter")
    expect(page.locator("#f-player")).to_have_value("")
    page.locator("#entry-ok").click()
    expect(page.locator("#entry .form-error")).to_contain_text("Player")
    page.locator("#f-player").select_option("14")
    page.locator("#entry-ok").click()
    expect(page.locator("#entry")).to_be_hidden()
    waiting(page, 0)
    assert stored_types(game) == ["period_start", "penalty"]


def test_a_key_shows_the_team_before_the_entry_is_sent_and_undo_stays(console, game):
    page = console
    space(page)
    minutes(page, "01:00")
    waiting(page, 0)
    page.locator("body").press("Shift+S")  # a shot of the away team
    dialog = page.locator("#entry")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(game.away.name)
    assert stored_types(game) == ["period_start"]
    page.keyboard.press("Enter")
    expect(dialog).to_be_hidden()
    waiting(page, 0)
    shot = SheetEvent.objects.filter(sheet__game=game).order_by("sequence").last().payload
    assert (shot["type"], shot["team"]) == ("shot", "away")
    expect(page.locator("#undo")).to_be_visible()
    page.locator("body").press("u")
    waiting(page, 0)
    assert stored_types(game) == ["period_start", "shot", "correction"]
    # Escape: nothing is sent.
    space(page)
    waiting(page, 0)
    page.locator("body").press("Shift+T")
    expect(dialog).to_contain_text(game.away.name)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    waiting(page, 0)
    assert stored_types(game) == ["period_start", "shot", "correction", "clock_stop"]


def _apart(a: dict, b: dict) -> bool:
    return (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or (a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])
    )


@pytest.mark.parametrize("viewport", [PHONE, TABLET, TABLET_LANDSCAPE], ids=["phone", "tablet", "tablet-landscape"])
def test_the_score_never_runs_into_the_clock(console, game, viewport, screenshot):
    page = console
    page.set_viewport_size(viewport)
    space(page)
    minutes(page, "01:00")
    waiting(page, 0)
    fits_the_screen(page)
    clock = page.locator(".clock-box").bounding_box()
    for side in ("home", "away"):
        for part in (f"#score-{side}", f".team-score.{side} .name"):
            box = page.locator(part).bounding_box()
            assert _apart(box, clock), f"{part} overlaps the clock at {viewport}"
            assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], f"{part} runs off the screen"
    screenshot(page, f"console-board-{viewport['width']}")


def test_an_official_opens_the_console_from_the_home_in_french_on_a_phone(page, login_as, screenshot, accessible):
    """The scorer's journey as it starts: the home's link to the game's console, the console in French at 390 px;
    a key shows the team (the away team's name) before the shot is sent, and the log reads "P1 m:ss"."""
    import datetime

    from django.utils import timezone

    from tests.games.endgame_helpers import played_game

    director = international_staff(username="director-fr")
    game, scorer = played_game(director, start_at=timezone.now() + datetime.timedelta(hours=1))
    page.set_viewport_size(PHONE)
    login_as(scorer)
    choose_language(page, "fr")
    console_from_home(page, game)
    expect(page.locator("#net")).to_have_text("En ligne")
    expect(page.locator("#confirmed")).to_have_text("Rien de confirmé pour l'instant")
    expect(page.locator("#clock-toggle")).to_contain_text("Démarrer le chrono")
    expect(page.locator("#device")).to_contain_text("marqueur officiel (4.3)")
    space(page)
    waiting(page, 0)
    expect(page.locator("#period")).to_have_text("Période 1")
    expect(page.locator("#clock-toggle")).to_contain_text("Arrêter le chrono")
    page.locator("body").press("Shift+S")
    expect(page.locator("#entry-title")).to_have_text(f"Tir au but : {game.away.name}")
    accessible(page, "the console's entry shown before it is sent, in French")
    page.keyboard.press("Enter")
    waiting(page, 0)
    expect(page.locator("#confirmed")).to_contain_text("Dernière confirmation")
    shot = page.locator("#log li").first
    expect(shot).to_contain_text(re.compile(rf"Tir au but {re.escape(game.away.name)} \(P1 \d+:\d\d\)"))
    expect(shot).to_contain_text("confirmée")
    fits_the_screen(page)
    accessible(page, "the console in French on a phone")
    screenshot(page, "console-french-phone")
