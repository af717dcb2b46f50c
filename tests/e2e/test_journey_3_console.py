"""Journey 3 (issue 12): the officials run a whole game on the console; the public scoreboard follows it.

The officials' console runs on a tablet held landscape (1024 x 768), the public scoreboard on a phone (375 px), each
in a browser context of its own, both on the portal served by uvicorn (fixture `asgi_server`): every entry the
console sends is stored, then pushed over the WebSocket to the phone. The console's clock is Playwright's
(tests.e2e.live_helpers.minutes): the game's minutes pass without waiting for them. Rule articles: FIRS/IHTC Rules of
the Game 2017; R-nn: the portal's interpretation decisions (rules-interpretation.md).
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from games.models import SheetEvent
from games.sheet import sheet_state
from tests.e2e.conftest import log_in
from tests.e2e.live_helpers import fits_the_screen, goal, minutes, open_console, penalty, space, waiting
from tests.factories import TEST_PASSWORD, international_staff
from tests.games.sheet_helpers import sheet_game

TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 375, "height": 740}

# The server's SQLite may answer "table is locked" to one of two requests at once (the console retries it).
expect.set_options(timeout=10_000)


def fits_its_width(tab, width: int) -> None:
    """Nothing runs off the side: the page scrolls only up and down."""
    assert tab.viewport_size["width"] == width, tab.viewport_size
    fits_the_screen(tab)


def test_officials_run_a_game_with_stacked_penalties_and_a_time_out_and_the_phone_follows(
    viewer_tab, screenshot, accessible, outside_requests
):
    director = international_staff(username="director-e2e")
    game = sheet_game()
    home, away = game.home.name, game.away.name

    # The officials' tablet: log in, open the game's console, sign the device in as the official scorer (4.3).
    console = viewer_tab("/accounts/login/", before=lambda tab: tab.clock.install(), viewport=TABLET)
    log_in(console, username=director.username, password=TEST_PASSWORD)
    open_console(console, game)
    errors: list[str] = []
    console.on("pageerror", lambda error: errors.append(str(error)))
    expect(console.locator("#offline-ready")).to_have_attribute("data-ready", "yes")
    fits_its_width(console, TABLET["width"])
    for button in ("#clock-toggle", "#period-start", "#sign-link"):  # at hand without scrolling
        expect(console.locator(button)).to_be_in_viewport()
    expect(console.locator("[data-actions=away] [data-type=timeout]")).to_be_visible()
    accessible(console, "the console, signed in")
    screenshot(console, "console-before-the-start")

    # A spectator's phone opens the game's public scoreboard: no login.
    phone = viewer_tab(f"/games/{game.pk}/live/", viewport=PHONE)
    board = phone.locator("[data-board]")
    expect(phone.locator("[data-status]")).to_have_attribute("data-state", "live")
    expect(board.locator("[data-period]")).to_have_text("Not started")
    fits_its_width(phone, PHONE["width"])
    accessible(phone, "the public scoreboard before the start")
    screenshot(phone, "phone-before-the-start")

    # Period 1: the space bar starts the game's clock (5.4 B, R-11: 2 x 20 minutes).
    space(console)
    waiting(console, 0)
    expect(console.locator("#period")).to_have_text("Period 1")
    expect(console.locator("#period-end")).to_be_in_viewport()
    expect(board.locator("[data-period]")).to_have_text("Period 1")

    # A home goal at 3:00 with its assist (5.5.11 B-C): the goal stops the clock; the phone has it at once.
    minutes(console, "03:00")
    goal(console, "home", 8, assist=9)
    waiting(console, 0)
    expect(console.locator("#score-home")).to_have_text("1")
    expect(board.locator('[data-score="home"]')).to_have_text("1")
    expect(board.locator("[data-goals] li")).to_have_count(1)
    expect(board.locator("[data-goals] li").first).to_contain_text(f"{home} #8 (#9)")

    # Two away minors: two players in the box at once, both running; away plays 2 on the floor + goalkeeper, the
    # least a team may be reduced to (6.2.1 A, R-22).
    space(console)
    for search, player in (("tripping", 14), ("roughing", 16)):
        minutes(console, "00:20")
        penalty(console, "away", search, player)
        space(console)
    waiting(console, 0)
    expect(console.locator("#box-away li")).to_have_count(2)
    expect(console.locator("#strength")).to_contain_text("Power play")
    away_box = board.locator('[data-box="away"] li')
    expect(away_box).to_have_count(2)
    expect(away_box.filter(has_text="#14 minor")).to_have_attribute("data-status", "running")
    expect(away_box.filter(has_text="#16 minor")).to_have_attribute("data-status", "running")
    expect(board.locator("[data-power-play]")).to_have_text(f"Power play: {home}")
    expect(board.locator('[data-strength="away"]')).to_have_text("2 on the rink")
    # A third away minor while two run: its time waits until one of the two ends (6.2.2 A, R-24).
    minutes(console, "00:20")
    penalty(console, "away", "6.4.22 A", 15)  # holding
    space(console)
    waiting(console, 0)
    expect(console.locator("#box-away li")).to_have_count(3)
    expect(console.locator("#box-away li.box-stacked")).to_have_count(1)
    expect(away_box).to_have_count(3)
    stacked = away_box.filter(has_text="#15 minor")
    expect(stacked).to_have_attribute("data-status", "stacked")
    expect(stacked).to_contain_text("(waits: 6.2.2 A)")
    expect(stacked.locator(".remaining")).to_have_text("2:00")  # not running
    expect(away_box.filter(has_text="#14 minor").locator(".remaining")).to_have_text(re.compile(r"^1:[0-5]\d$"))
    expect(board.locator("[data-penalties] li")).to_have_count(3)
    expect(board.locator("[data-penalties] li").last).to_contain_text("holding")
    screenshot(console, "console-three-in-the-box")
    screenshot(phone, "phone-three-in-the-box")
    accessible(phone, "the public scoreboard with a stacked penalty")

    # A home power-play goal ends the first minor (6.2.1 B, R-23); the stacked one starts (6.2.2 A).
    minutes(console, "00:15")
    goal(console, "home", 10)
    waiting(console, 0)
    expect(console.locator("#box-away li.box-stacked")).to_have_count(0)
    expect(board.locator('[data-score="home"]')).to_have_text("2")
    expect(away_box).to_have_count(2)
    expect(away_box.filter(has_text="#14")).to_have_count(0)
    expect(away_box.filter(has_text="#15 minor")).to_have_attribute("data-status", "running")
    expect(board.locator("[data-goals] li").last).to_contain_text("power play")

    # At the stoppage after the goal the away captain calls the team's time-out (5.5.2 A); the phone shows it.
    console.locator("[data-actions=away] [data-type=timeout]").click()
    waiting(console, 0)
    expect(console.locator("#info-away")).to_contain_text("time-outs this period 1/1")
    expect(board.locator("[data-timeouts]")).to_have_text(f"Time-out this period: {away}")
    screenshot(console, "console-time-out")
    screenshot(phone, "phone-time-out")
    # A second one in the same period is refused with its article: one per team per period (5.5.2 B, R-12).
    console.locator("[data-actions=away] [data-type=timeout]").click()
    refusal = console.locator("#refusal")
    expect(refusal).to_be_visible()
    expect(refusal).to_contain_text("5.5.2 B")
    expect(refusal).to_contain_text("Nothing was stored")
    accessible(console, "the console refusing a second time-out")
    refusal.locator(".dismiss").click()
    waiting(console, 0)

    # Play resumes; the period runs out (R-11: penalty time carries over into the next period).
    space(console)
    minutes(console, "20:00")
    console.on("dialog", lambda dialog: dialog.accept())
    console.locator("#period-end").click()
    waiting(console, 0)
    expect(board.locator("[data-period]")).to_have_text("Intermission after period 1")
    console.locator("#period-start").click()
    waiting(console, 0)
    expect(console.locator("#period")).to_have_text("Period 2")
    expect(board.locator("[data-period]")).to_have_text("Period 2")
    # A new period: the away team has a time-out again (R-12: one per period; an unused one does not carry over).
    expect(board.locator("[data-timeouts]")).to_have_text("")

    # Period 2 (its start runs the clock): the away team scores, with its assist.
    minutes(console, "05:00")
    goal(console, "away", 12, assist=13)
    waiting(console, 0)
    expect(console.locator("#score-away")).to_have_text("1")
    expect(board.locator('[data-score="away"]')).to_have_text("1")
    expect(board.locator("[data-goals] li").last).to_have_text(re.compile(rf"^P2 5:00\.\d {away} #12 \(#13\)$"))

    # To the end: the period runs out, the officials confirm the end of the game; the phone shows the final score.
    space(console)
    minutes(console, "20:00")
    console.locator("#period-end").click()
    waiting(console, 0)
    console.locator("#game-end").click()
    waiting(console, 0)
    expect(board.locator("[data-period]")).to_have_text("Final")
    expect(board.locator('[data-score="home"]')).to_have_text("2")
    expect(board.locator('[data-score="away"]')).to_have_text("1")
    fits_its_width(console, TABLET["width"])
    fits_its_width(phone, PHONE["width"])
    accessible(console, "the console at the end of the game")
    accessible(phone, "the public scoreboard with the final score")
    screenshot(console, "console-final")
    screenshot(phone, "phone-final")

    # The stored sheet agrees with what both screens showed.
    state = sheet_state(game).state
    assert state["result"]["score"] == {"home": 2, "away": 1}
    assert state["teams"]["away"]["timeouts"] == {"1": 1}
    assert [p["infraction"] for p in state["penalties"]] == ["tripping", "roughing", "holding"]
    assert [e.payload["type"] for e in SheetEvent.objects.filter(sheet__game=game)].count("timeout") == 1
    assert errors == []
    assert outside_requests == []
