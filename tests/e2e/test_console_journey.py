"""The scorer's console in a browser (issue 9): a whole game entered with the network cut in the middle.

The page's clock is Playwright's (``page.clock``, tests.e2e.live_helpers.minutes): the game's minutes pass by
``fast_forward``, not in real time, while the page's requests and the server run as they do at a rink.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games import engine
from games.models import GameSheet, SheetEvent
from games.sheet import _engine_game, record_events, sheet_state
from tests.e2e.live_helpers import fits_the_screen, goal, minutes, open_console, open_menu, penalty, space, waiting
from tests.factories import international_staff

# The live server's SQLite may answer "table is locked" to one of two requests at once (the console retries it).
expect.set_options(timeout=10_000)


@pytest.fixture
def game(transactional_db):
    from tests.games.sheet_helpers import sheet_game

    return sheet_game()


@pytest.fixture
def director(transactional_db):
    return international_staff(username="director-e2e")


@pytest.fixture
def console(page, login_as, director, game):
    page.clock.install()
    login_as(director)
    return open_console(page, game)


def local_log(page) -> list[dict]:
    """This device's entries in the order made (IndexedDB), as the page keeps them."""
    rows = page.evaluate("window.ihtcConsole.db.all('log')")
    return [row["entry"] for row in sorted(rows, key=lambda row: row["n"])]


def stored(game) -> list[dict]:
    return [
        {**row.payload, "id": str(row.event_id)}
        for row in SheetEvent.objects.filter(sheet__game=game).order_by("sequence")
    ]


def uninterrupted_replay(game, entries: list[dict]) -> dict:
    """The state an uninterrupted run of the same entries gives: the engine over them, in the order made."""
    sheet = GameSheet.objects.get(game=game)
    events = [
        {k: v for k, v in e.items() if k not in ("device_time", "clock_offset_ms")} | {"seq": n + 1}
        for n, e in enumerate(entries)
    ]
    state = engine.replay(
        engine.parse_log(events), _engine_game(sheet.teams, sheet.game_type), engine.Ruleset.from_dict(sheet.ruleset)
    )
    return state.to_dict()


def test_a_whole_game_with_the_network_cut_in_the_middle(console, game, screenshot, outside_requests):
    page = console
    context = page.context
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    expect(page.locator("#offline-ready")).to_have_attribute("data-ready", "yes")

    # Period 1: the space bar starts the game (4.4), shots, a goal with its assist.
    space(page)
    waiting(page, 0)
    expect(page.locator("#period")).to_have_text("Period 1")
    minutes(page, "02:00")
    page.locator("body").press("s")  # a home shot on goal: the key shows the team first, Enter sends it
    expect(page.locator("#entry-title")).to_contain_text(game.home.name)
    page.keyboard.press("Enter")
    expect(page.locator("#entry")).to_be_hidden()
    minutes(page, "01:00")
    goal(page, "home", 8, assist=9)
    waiting(page, 0)
    expect(page.locator("#score-home")).to_have_text("1")
    space(page)
    # Stacked penalties (6.2.2 A): three away minors; the third waits.
    for search, player in (("tripping", 14), ("6.4.22 A", 15), ("roughing", 16)):
        minutes(page, "00:20")
        penalty(page, "away", search, player)
        space(page)
    waiting(page, 0)
    expect(page.locator("#box-away li")).to_have_count(3)
    expect(page.locator("#box-away li.box-stacked")).to_have_count(1)
    expect(page.locator("#strength")).to_contain_text("Power play")
    # A power-play goal ends the first minor (6.2.1 B); the stacked one starts.
    minutes(page, "00:15")
    goal(page, "home", 10)
    waiting(page, 0)
    expect(page.locator("#box-away li.box-stacked")).to_have_count(0)
    space(page)
    # A signalled (delayed) penalty (6.3 B): play goes on, assessed at the whistle.
    minutes(page, "00:40")
    penalty(page, "home", "hooking", 3, delayed=True)
    waiting(page, 0)
    expect(page.locator("#info-home")).to_contain_text("signalled penalty waits")
    minutes(page, "00:05")
    space(page)  # the whistle: the clock stops, the penalty is assessed
    waiting(page, 0)
    expect(page.locator("#box-home li").filter(has_text="#3")).to_have_count(1)
    # A time-out at the stoppage (5.5.2 A).
    page.locator("[data-actions=away] [data-type=timeout]").click()
    waiting(page, 0)
    expect(page.locator("#info-away")).to_contain_text("time-outs this period 1/1")
    space(page)
    minutes(page, "01:00")
    waiting(page, 0)

    # The network drops: the clock runs on, entries wait in the outbox.
    context.set_offline(True)
    page.locator("[data-actions=away] [data-type=shot]").click()
    expect(page.locator("#net")).to_contain_text("Offline")
    waiting(page, 1)
    minutes(page, "00:30")
    goal(page, "away", 12, assist=13)
    space(page)
    minutes(page, "00:30")
    penalty(page, "home", "slashing", 4)
    space(page)
    waiting(page, 5)
    expect(page.locator("#clock")).to_have_class("clock running")
    offline_at = page.locator("#clock").get_attribute("data-elapsed")

    # A reload while offline: the page comes back from the service worker's cache, the outbox from IndexedDB.
    response = page.reload()
    assert response is not None and response.from_service_worker
    expect(page.locator("body[data-started=yes]")).to_be_attached()
    expect(page.locator("#net")).to_contain_text("Offline")
    waiting(page, 5)
    expect(page.locator("#log li[data-status=waiting]")).to_have_count(5)
    expect(page.locator("#clock")).to_have_class("clock running")  # the waiting clock start, from the outbox
    assert int(page.locator("#clock").get_attribute("data-elapsed")) >= int(offline_at)
    minutes(page, "00:20")
    page.locator("[data-actions=home] [data-type=shot]").click()
    waiting(page, 6)
    screenshot(page, "console-offline")

    # The network is back: the outbox drains in order, and only acknowledged entries leave it.
    context.set_offline(False)
    waiting(page, 0)
    expect(page.locator("#net")).to_have_text("Online")
    expect(page.locator("#score-away")).to_have_text("1")

    # To the end of the game: period 1 runs out, period 2, a goal, the end.
    minutes(page, "20:00")
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#period-end").click()
    waiting(page, 0)
    page.locator("#period-start").click()
    waiting(page, 0)
    expect(page.locator("#period")).to_have_text("Period 2")
    minutes(page, "05:00")
    goal(page, "home", 11, assist=2)
    space(page)
    # The goalkeeper pulled for an extra attacker, and back.
    minutes(page, "10:00")
    page.locator("[data-actions=away] [data-type=goalkeeper_pulled]").click()
    waiting(page, 0)
    expect(page.locator("#info-away")).to_contain_text("(pulled)")
    minutes(page, "00:30")
    page.locator("[data-actions=away] [data-type=goalkeeper_returned]").click()
    page.locator("#f-time").press("Enter")
    waiting(page, 0)
    expect(page.locator("#info-away")).not_to_contain_text("(pulled)")
    minutes(page, "20:00")
    page.locator("#period-end").click()
    waiting(page, 0)
    page.locator("#game-end").click()
    waiting(page, 0)
    expect(page.locator("#score-home")).to_have_text("3")
    screenshot(page, "console-final")

    # The server's log holds every entry exactly once, in the order made on the device...
    made = local_log(page)
    assert 30 <= len(made) <= 45
    log = stored(game)
    assert [e["id"] for e in log] == [e["id"] for e in made]
    assert len({e["id"] for e in log}) == len(log)
    # ... each with its device time and measured clock offset, and the state is the uninterrupted run's.
    assert all(row.clock_offset_ms is not None for row in SheetEvent.objects.filter(sheet__game=game))
    final = sheet_state(game).state
    assert final == uninterrupted_replay(game, made)
    assert final["result"]["score"] == {"home": 3, "away": 1}
    assert final["teams"]["away"]["timeouts"] == {"1": 1}
    assert {p["infraction"] for p in final["penalties"]} >= {"tripping", "holding", "roughing", "hooking", "slashing"}
    hooking = next(p for p in final["penalties"] if p["infraction"] == "hooking")
    assert hooking["signalled"] is not None
    assert errors == []
    assert outside_requests == []


def test_an_entry_the_engine_refuses_shows_its_article_and_nothing_is_stored(console, game):
    page = console
    space(page)
    # Two stick minors for away 15: the warnings come before the third call bites (6.1.7 A, C).
    for _ in range(2):
        minutes(page, "01:00")
        penalty(page, "away", "slashing", 15)
        space(page)
    waiting(page, 0)
    warnings = page.locator("#warnings")
    expect(warnings).to_contain_text("#15 has 2 penalty calls: the next one adds a misconduct (6.1.7 A)")
    expect(warnings).to_contain_text("#15 has 2 stick infractions: the next one is a game ejection (6.1.7 C)")
    minutes(page, "01:00")
    # 5.5.2 A: a time-out is called at a stoppage of play; the clock is running (Shift: the away team).
    page.locator("body").press("Shift+T")
    expect(page.locator("#entry-title")).to_contain_text(game.away.name)
    page.keyboard.press("Enter")
    refusal = page.locator("#refusal")
    expect(refusal).to_be_visible()
    expect(refusal.locator(".article")).to_have_text("Rule 5.5.2 A")
    expect(refusal).to_contain_text("Nothing was stored")
    waiting(page, 0)
    expect(page.locator("#log li[data-status=refused]")).to_have_count(1)
    assert [e["type"] for e in stored(game)] == ["period_start"] + ["penalty", "clock_start"] * 2
    # Sent in one batch after the network returns, the refused entry is shown and the others are stored.
    page.locator("#refusal .dismiss").click()
    page.context.set_offline(True)
    page.locator("[data-actions=home] [data-type=shot]").click()
    page.locator("[data-actions=home] [data-type=timeout]").click()
    page.locator("[data-actions=away] [data-type=shot]").click()
    waiting(page, 3)
    page.context.set_offline(False)
    waiting(page, 0)
    expect(refusal.locator(".article")).to_have_text("Rule 5.5.2 A")
    expect(page.locator("#log li[data-status=refused]")).to_have_count(2)
    assert [e["type"] for e in stored(game)][-2:] == ["shot", "shot"]


def test_a_goal_entered_after_the_whistle_is_itself_the_stoppage(console, game):
    page = console
    space(page)
    minutes(page, "03:00")
    space(page)  # the timekeeper stops the clock at the whistle; the scorer then enters the goal at that time
    waiting(page, 0)
    goal(page, "home", 8, assist=9)
    waiting(page, 0)
    expect(page.locator("#score-home")).to_have_text("1")
    types = [e["type"] for e in stored(game)]
    assert types == ["period_start", "clock_stop", "correction", "goal"]
    expect(page.locator("#log li[data-status=voided]")).to_contain_text("Clock stopped")
    # Crash recovery in one action: the device's copy of the sheet is dropped and read again from the server.
    page.evaluate(
        "window.ihtcConsole.S.serverLog = []; window.ihtcConsole.S.answer = null; window.ihtcConsole.render()"
    )
    expect(page.locator("#score-home")).to_have_text("0")
    page.locator("#resume").click()
    expect(page.locator("#score-home")).to_have_text("1")
    expect(page.locator("#log li")).to_have_count(4)
    expect(page.locator("#period")).to_have_text("Period 1")


def test_undo_records_a_correction_voiding_the_entry(console, game, screenshot):
    page = console
    # A tablet held upright: everything fits its width, the clock and the buttons are big enough to touch.
    page.set_viewport_size({"width": 768, "height": 1024})
    fits_the_screen(page)
    toggle = page.locator("#clock-toggle").bounding_box()
    assert toggle["height"] >= 44
    expect(page.locator("#clock")).to_be_in_viewport()
    space(page)
    minutes(page, "00:30")
    page.locator("[data-actions=home] [data-type=shot]").click()
    waiting(page, 0)
    expect(page.locator("#info-home")).to_contain_text("Shots 1")
    expect(page.locator("#undo")).to_be_visible()
    page.locator("body").press("u")
    waiting(page, 0)
    expect(page.locator("#info-home")).to_contain_text("Shots 0")
    log = stored(game)
    assert [e["type"] for e in log] == ["period_start", "shot", "correction"]
    assert log[2]["voids"] == log[1]["id"]
    expect(page.locator("#log li[data-status=voided]")).to_have_count(1)
    screenshot(page, "console-tablet")
    # The undo is offered for a few seconds only.
    page.locator("[data-actions=away] [data-type=shot]").click()
    waiting(page, 0)
    minutes(page, "00:10")
    expect(page.locator("#undo")).to_be_hidden()
    page.locator("body").press("u")
    assert [e["type"] for e in stored(game)] == ["period_start", "shot", "correction", "shot"]


def test_the_rescue_export_downloads_the_unsent_entries_which_a_server_import_never_doubles(console, game, director):
    page = console
    space(page)
    waiting(page, 0)
    page.context.set_offline(True)
    minutes(page, "01:00")
    page.locator("[data-actions=home] [data-type=shot]").click()
    page.locator("[data-actions=away] [data-type=shot]").click()
    waiting(page, 2)
    with page.expect_download() as download_info:
        page.locator("#export").click()
    download = download_info.value
    exported = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert exported["device"] == page.evaluate("window.ihtcConsole.S.device")
    assert [e["type"] for e in exported["events"]] == ["shot", "shot"]
    assert [e["type"] for e in exported["log"]] == ["period_start", "shot", "shot"]
    assert all(e["device_time"] and "clock_offset_ms" in e for e in exported["events"])
    # The network comes back and the device sends them; the staff's import of the file only acknowledges.
    page.context.set_offline(False)
    waiting(page, 0)
    answer = record_events(game=game, by=director, device=exported["device"], events=exported["events"])
    assert [ack.duplicate for ack in answer.acknowledged] == [True, True]
    assert len(stored(game)) == 3


def test_a_second_device_takes_over_and_the_first_one_stops_sending(console, game, browser, live_server):
    from tests.e2e.conftest import log_in
    from tests.factories import TEST_PASSWORD

    first = console
    space(first)
    minutes(first, "02:00")
    goal(first, "home", 8)
    space(first)
    minutes(first, "01:00")
    penalty(first, "away", "tripping", 14)
    waiting(first, 0)
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1024, "height": 768})
    try:
        second = context.new_page()
        log_in(second, username="director-e2e", password=TEST_PASSWORD)
        second.goto(f"/games/{game.pk}/console/")
        expect(second.locator("body[data-started=yes]")).to_be_attached()
        # A console that has nothing of its own resumes at the server's state: period, clock, score, box.
        expect(second.locator("#period")).to_have_text("Period 1")
        expect(second.locator("#clock")).not_to_have_class("clock running")
        expect(second.locator("#clock")).to_have_attribute(
            "data-elapsed", first.locator("#clock").get_attribute("data-elapsed")
        )
        expect(second.locator("#score-home")).to_have_text("1")
        expect(second.locator("#box-away li").filter(has_text="#14")).to_have_count(1)
        second.locator("#signin-go").click()
        expect(second.locator("#signin-message")).to_contain_text("another device keeps this")
        second.on("dialog", lambda dialog: dialog.accept())
        second.locator("#signin-takeover").click()  # the explicit take-over
        expect(second.locator("#signin")).to_be_hidden()
        # The first device's next entry is refused with who took over; it stops sending and keeps the entry.
        first.locator("[data-actions=home] [data-type=shot]").click()
        banner = first.locator("#takenover")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("Taken over")
        expect(banner).to_contain_text(second.evaluate("window.ihtcConsole.S.device"))
        waiting(first, 1)
        before = [e["type"] for e in stored(game)]
        assert before == ["period_start", "goal", "clock_start", "penalty"]
        second.locator("[data-actions=away] [data-type=shot]").click()
        waiting(second, 0)
        assert [e["type"] for e in stored(game)] == [*before, "shot"]
    finally:
        context.close()


def test_the_officials_confirm_the_engines_proposals_who_serves_and_the_goalkeepers_replacement(console, game):
    page = console
    space(page)
    minutes(page, "01:00")
    # 6.1.3 A: a major is served by a substitute; the engine leaves him to be named.
    penalty(page, "away", "slashing_major", 14)
    waiting(page, 0)
    proposal = page.locator("#proposals li").filter(has_text="who serves the major of #14")
    expect(proposal).to_be_visible()
    proposal.locator("select").select_option("17")
    proposal.get_by_role("button", name="Confirm server").click()
    waiting(page, 0)
    expect(page.locator("#box-away li").filter(has_text="#17 for #14")).to_have_count(1)
    expect(page.locator("#proposals li").filter(has_text="who serves")).to_have_count(0)
    # 6.1.5 B: the goalkeeper in goal sent off; the engine proposes the substitute goalkeeper, the officials confirm.
    page.locator("[data-actions=home] [data-type=penalty]").click()
    page.locator("#f-search").fill("obscene")
    page.locator("#f-search").press("Enter")
    expect(page.locator("#f-penalty")).to_have_value("game_misconduct")
    page.locator("#f-player").select_option("1")
    page.locator("#entry-ok").click()
    waiting(page, 0)
    replacement = page.locator("#proposals li").filter(has_text="#1 sent off (6.1.5 B)")
    expect(replacement).to_be_visible()
    replacement.get_by_role("button", name="Confirm (engine proposes #30)").click()
    waiting(page, 0)
    expect(page.locator("#info-home")).to_contain_text("in goal #30")
    expect(page.locator("#proposals li").filter(has_text="sent off")).to_have_count(0)
    # 9.1 A, R-50: the away captain protests on the rink (the button exists since the engine has the event).
    page.locator("[data-actions=away] [data-type=protest]").click()
    waiting(page, 0)
    types = [e["type"] for e in stored(game)]
    assert types == ["period_start", "penalty", "serve", "penalty", "goalkeeper_replaced", "protest"]
    assert stored(game)[-1]["team"] == "away"
    state = sheet_state(game).state
    assert state["teams"]["home"]["goalkeeper_replacement"]["confirmed"] is True


def test_entries_another_login_made_on_this_browser_wait_for_it_and_stay_in_the_rescue_export(console, game):
    page = console
    space(page)
    waiting(page, 0)
    # An entry another official made on this tablet before logging out, never sent (as IndexedDB keeps it).
    page.evaluate(
        """(game) => window.ihtcConsole.db.put("outbox", {game, user: "scorer-before", entry: {
            id: crypto.randomUUID(), type: "shot", period: 1, time: 100, team: "home",
            device_time: new Date().toISOString(), clock_offset_ms: 0}})""",
        game.pk,
    )
    page.reload()
    expect(page.locator("body[data-started=yes]")).to_be_attached()
    expect(page.locator("#foreign")).to_contain_text("1 entry made on this device by scorer-before waits")
    waiting(page, 0)
    assert [e["type"] for e in stored(game)] == ["period_start"]  # not sent under this login's name
    with page.expect_download() as download_info:
        page.locator("#export").click()
    exported = json.loads(Path(download_info.value.path()).read_text(encoding="utf-8"))
    assert [e["type"] for e in exported["events"]] == ["shot"]


def test_the_officials_record_a_forfeit_with_its_8_1_reason(console, game):
    """8.1 A-B: before the start, the officials declare the away team's forfeit with its reason from the console;
    the sheet records it 1-0 to home, and the reason goes with the entry."""
    page = console
    page.locator("[data-actions=away] [data-type=forfeit]").click()
    page.locator("#f-reason").select_option(index=1)
    reason = page.locator("#f-reason").input_value()
    page.locator("#entry-ok").click()
    expect(page.locator("#entry")).to_be_hidden()
    waiting(page, 0)
    [forfeit] = stored(game)
    assert (forfeit["type"], forfeit["team"], forfeit["note"]) == ("forfeit", "away", reason)
    assert reason.startswith("8.1 A")
    result = sheet_state(game).state["result"]
    assert (result["decided_by"], result["forfeited_by"], result["score"]) == (
        "forfeit",
        "away",
        {"home": 1, "away": 0},
    )
    expect(page.locator("#score-home")).to_have_text("1")


CONSOLE_CACHES = "window.caches.keys().then((names) => names.filter((name) => name.startsWith('ihtc-console-')))"


def test_logging_out_deletes_the_consoles_cached_pages(page, login_as, director, game):
    """Issue 23: the service worker keeps the console's pages in window.caches for offline use; a shared tablet
    keeps none of them after its login logs out (static/logout.js, and Clear-Site-Data on the answer)."""
    login_as(director)
    open_console(page, game)
    expect(page.locator("#offline-ready")).to_have_attribute("data-ready", "yes")
    assert page.evaluate(CONSOLE_CACHES) == ["ihtc-console-v1"]
    page.goto("/")
    with page.expect_response(lambda response: response.url.endswith("/accounts/logout/")) as answer:
        open_menu(page)
        page.get_by_role("button", name="Log out director-e2e").click()
    assert answer.value.all_headers()["clear-site-data"] == '"cache"'
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    assert page.evaluate(CONSOLE_CACHES) == []
