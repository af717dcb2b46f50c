"""The public scoreboard in a browser: a viewer's tab follows a game while the table enters it.

pytest-django's live server is WSGI; the scoreboard needs WebSockets, so these tests serve the portal with
uvicorn (the server of `make run`) in a thread of the test process (fixture `asgi_server`, tests/e2e/conftest.py).
Its requests open their own connections to the test database (SQLite's shared in-memory test database: the same data), and the in-memory channel layer
lives in the server's event loop, as in `make run`. Entries are posted to that server's API as a signed-in
console device does, so each push goes the production way: entry committed -> publish -> relay -> socket.
"""

from __future__ import annotations

import datetime
import re
import time

from playwright.sync_api import expect

from tests.factories import international_staff
from tests.games.sheet_helpers import entry, sheet_game, sign_in
from tests.live_servers import DEVICE, Session


def now_entry(type_: str, **fields) -> dict:
    """An entry made now on a device whose clock agrees with the server's (the board's clock anchors on it)."""
    fields.pop("seconds", None)
    made = entry(type_, **fields)
    made["device_time"] = datetime.datetime.now(datetime.UTC).isoformat()
    return made


def test_a_viewer_follows_each_goal_and_penalty_as_the_table_enters_them(asgi_server, viewer_tab, outside_requests):
    director = international_staff()
    game = sheet_game()
    sign_in(game, director, device=DEVICE)
    session = Session(director)

    phone = viewer_tab(f"/games/{game.pk}/live/", viewport={"width": 390, "height": 844})
    board = phone.locator("[data-board]")
    expect(phone.locator("[data-status]")).to_have_attribute("data-state", "live")
    expect(board.locator('[data-team-name="home"]')).to_have_text(game.home.name)
    expect(board.locator("[data-period]")).to_have_text("Not started")

    asgi_server.post(game, [now_entry("period_start", period=1)], session)
    expect(board.locator("[data-period]")).to_have_text("Period 1")
    first = board.locator("[data-clock]").inner_text()
    time.sleep(1.5)  # the clock runs in the browser, from the last pushed state
    assert board.locator("[data-clock]").inner_text() != first

    asgi_server.post(game, [now_entry("goal", period=1, time="3:00", team="home", player=8, assist=9, seconds=180)],
                     session)  # fmt: skip
    expect(board.locator('[data-score="home"]')).to_have_text("1")
    expect(board.locator("[data-goals] li")).to_have_count(1)
    expect(board.locator("[data-goals] li").first).to_contain_text("#8 (#9)")

    # An arena display joins in the middle: its snapshot already has the goal.
    arena = viewer_tab(f"/games/{game.pk}/arena/")
    expect(arena.locator(".scoreboard.arena [data-score='home']")).to_have_text("1")
    expect(arena.locator("[data-fullscreen]")).to_be_visible()
    expect(arena.locator(".site-header")).to_be_hidden()

    asgi_server.post(game, [now_entry("clock_start", period=1, time="3:00", seconds=181),
                            now_entry("clock_stop", period=1, time="4:00", seconds=241),
                            now_entry("penalty", period=1, time="4:00", team="away", player=14, penalty="minor",
                                  infraction="hooking", seconds=242),
                            now_entry("clock_start", period=1, time="4:00", seconds=243)], session)  # fmt: skip
    for tab in (phone, arena):
        box = tab.locator('[data-box="away"] li')
        expect(box).to_have_count(1)
        expect(box.first).to_contain_text("#14 Minor")  # the kind in the reader's language (games.labels)
    expect(board.locator("[data-penalties] li").first).to_contain_text("hooking")
    expect(board.locator("[data-power-play]")).to_contain_text(game.home.name)
    remaining = board.locator('[data-box="away"] li .remaining')
    expect(remaining).to_have_text(re.compile(r"^(2:00|1:59)$"))  # it runs down with the clock
    time.sleep(2)
    assert remaining.inner_text() in ("1:58", "1:57", "1:56")

    asgi_server.post(game, [now_entry("goal", period=1, time="5:00", team="home", player=8, seconds=300)], session)
    for tab in (phone, arena):
        expect(tab.locator('[data-score="home"]')).to_have_text("2")
        expect(tab.locator('[data-box="away"] li')).to_have_count(0)  # 6.2.1 B: the power-play goal ends the minor
    assert outside_requests == []


def test_a_viewer_that_missed_a_push_fetches_the_snapshot(asgi_server, viewer_tab):
    director = international_staff()
    game = sheet_game()
    sign_in(game, director, device=DEVICE)
    session = Session(director)
    asgi_server.post(game, [now_entry("period_start", period=1)], session)
    phone = viewer_tab(f"/games/{game.pk}/live/")
    expect(phone.locator("[data-status]")).to_have_attribute("data-state", "live")
    expect(phone.locator("[data-period]")).to_have_text("Period 1")
    # As if a push had been dropped: the board is one entry behind, so the next delta leaves a gap.
    phone.evaluate("document.querySelector('[data-board]').scoreboard.sheet.sequence -= 1")
    with phone.expect_request(lambda r: r.url.endswith(f"/api/v1/games/{game.pk}/sheet/")) as fetched:
        asgi_server.post(game, [now_entry("shot", period=1, time="0:30", team="away")], session)
    assert fetched.value.method == "GET"
    expect(phone.locator('[data-shots="away"]')).to_have_text("1")
    assert phone.evaluate("document.querySelector('[data-board]').scoreboard.sheet.sequence") == 2


def test_a_board_that_hears_no_heartbeat_for_10_seconds_says_it_is_stale_and_recovers(asgi_server, viewer_tab):
    game = sheet_game()
    network = {"silent": False}

    def relay(socket):
        """Between the page and the server: forwards the server's messages unless the network is 'silent'."""
        server = socket.connect_to_server()
        server.on_message(lambda message: None if network["silent"] else socket.send(message))

    phone = viewer_tab(f"/games/{game.pk}/live/", before=lambda tab: tab.route_web_socket("**/live/**", relay))
    status = phone.locator("[data-status]")
    expect(status).to_have_attribute("data-state", "live")
    network["silent"] = True  # the server still beats; the page hears nothing
    expect(status).to_have_attribute("data-state", "stale", timeout=14_000)
    expect(status).to_contain_text("Stale")
    network["silent"] = False  # the page reconnects by itself and gets a snapshot
    expect(status).to_have_attribute("data-state", "live", timeout=20_000)
