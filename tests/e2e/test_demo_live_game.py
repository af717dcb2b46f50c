"""The demo's live game in a browser (issue 25): a newcomer opens the portal and follows today's live game.

The demo world is built around now (``manage.py demo``), and its feeder (``demo.live.play``, what ``make run``
starts as ``manage.py demo_live``) plays the game at a compressed pace in a thread, through the officials'
console service; the public live page of the game, reached by clicking from the home page, shows the score and
the clock moving within a minute, in English on a phone and in French on a desktop.
"""

from __future__ import annotations

import re
import threading

import pytest
from django.db import connection
from django.urls import reverse
from playwright.sync_api import expect

from demo import live
from tests.demo_world import FAST_HASHERS, private_storages, run_demo

pytestmark = pytest.mark.browser


@pytest.fixture
def demo_world(asgi_server, monkeypatch, settings, tmp_path):
    settings.PASSWORD_HASHERS = FAST_HASHERS
    private_storages(monkeypatch, tmp_path / "private")
    run_demo(logins_file=tmp_path / "demo-logins.txt")
    return live.live_game()


class _Stopped(Exception):
    pass


@pytest.fixture
def feeder():
    """Start the feeder in a thread at ``pace``; it stops between two entries when the test ends."""
    stop = threading.Event()
    threads = []

    def sleep(seconds: float) -> None:
        if stop.wait(seconds):
            raise _Stopped

    def start(pace: float) -> None:
        def run():
            try:
                live.play(pace=pace, sleep=sleep, say=lambda line: None)
            except _Stopped:
                pass
            finally:
                connection.close()

        thread = threading.Thread(target=run, daemon=True)
        threads.append(thread)
        thread.start()

    yield start
    stop.set()
    for thread in threads:
        thread.join(timeout=30)


def _to_the_live_game(tab, game) -> None:
    """From the home page: the championships, this one, its live games, then "Follow this game" on the live one."""
    championship = game.championship
    tab.locator(f'main a[href="{reverse("tournaments:championship-list")}"]').first.click()
    tab.locator(f'a[href="{reverse("tournaments:championship-detail", args=[championship.pk])}"]').first.click()
    tab.locator(f'a[href="{reverse("games:championship-live", args=[championship.pk])}"]').first.click()
    tab.locator(f'[data-games] a[href="{reverse("games:game-live", args=[game.pk])}"]').first.click()
    expect(tab).to_have_url(re.compile(rf"/games/{game.pk}/live/$"))


def _clock_seconds(text: str) -> int:
    minutes, seconds = re.fullmatch(r"\s*(\d+):(\d{2})(?:\.\d)?\s*", text).groups()
    return int(minutes) * 60 + int(seconds)


def test_a_newcomer_follows_the_demos_live_game_from_the_home_page(
    demo_world, feeder, viewer_tab, screenshot, accessible
):
    game = demo_world
    assert game is not None and game.status != "final"
    tab = viewer_tab("/", viewport={"width": 390, "height": 844})
    _to_the_live_game(tab, game)
    expect(tab).to_have_url(re.compile(rf"/games/{game.pk}/live/$"))
    board = tab.locator("[data-board]")
    expect(board.locator('[data-team-name="home"]')).to_have_text(game.home.name)
    expect(board.locator('[data-score="home"]')).to_have_text("1")
    expect(board.locator('[data-score="away"]')).to_have_text("0")
    expect(board.locator("[data-period]")).to_have_text("Period 1")
    stopped_at = _clock_seconds(board.locator("[data-clock]").inner_text())
    accessible(tab, "demo live game")

    feeder(0.02)  # the rest of the game in about two minutes: the next goal within seconds
    expect(board.locator('[data-score="away"]')).to_have_text("1", timeout=60_000)
    # The clock moved on from where the first period stood when the page opened (counting up or down).
    assert _clock_seconds(board.locator("[data-clock]").inner_text()) != stopped_at
    screenshot(tab, "demo-live-game-phone")

    # In French, on a desktop: the same game from the home page, to its end (3-1) and its signatures.
    french = viewer_tab("/", viewport={"width": 1280, "height": 900}, extra_http_headers={"Accept-Language": "fr"})
    expect(french.locator("html")).to_have_attribute("lang", "fr")
    _to_the_live_game(french, game)
    expect(french.locator("[data-board] [data-score='home']")).to_have_text("3", timeout=120_000)
    expect(french.locator("[data-board] [data-score='away']")).to_have_text("1")
    screenshot(french, "demo-live-game-fr")
