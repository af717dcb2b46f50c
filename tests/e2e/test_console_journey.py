"""The scorer's console in a browser (issue 9): a whole game entered with the network cut in the middle."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import international_staff
from tests.games.sheet_helpers import sheet_game


@pytest.fixture
def game(transactional_db):
    return sheet_game()


@pytest.fixture
def console(page, login_as, game):
    login_as(international_staff(username="director-e2e"))
    page.goto(f"/games/{game.pk}/console/")
    expect(page.locator("body[data-started=yes]")).to_be_attached()
    return page


def test_smoke(console, screenshot):
    page = console
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.keyboard.press("Space")
    expect(page.locator("#waiting")).to_have_text("0 waiting")
    expect(page.locator("#period")).to_have_text("Period 1")
    page.wait_for_timeout(1500)
    print(
        page.locator("#clock").text_content(),
        page.locator("#net").text_content(),
        page.locator("#offline-ready").text_content(),
    )
    screenshot(page, "smoke")
    assert not errors
