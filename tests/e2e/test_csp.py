"""The Content-Security-Policy in a browser: the portal's pages run under it with no violation and no error.

Chromium enforces the header the portal sends (django-csp, portal.csp); a listener installed before each page's
own scripts records every ``securitypolicyviolation`` event, and the console's errors are collected too. The live
console still records an entry and the scoreboard still follows the game through its WebSocket.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import SheetEvent
from tests.e2e.conftest import log_in
from tests.e2e.live_helpers import goal, open_console, space, waiting
from tests.factories import TEST_PASSWORD, international_staff
from tests.games.sheet_helpers import sheet_game

expect.set_options(timeout=15_000)

# Runs before the page's scripts (Playwright's init scripts are not subject to the page's policy).
LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__violations.push(e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " at " + e.sourceFile + ":" + e.lineNumber);
});
"""


@pytest.fixture
def watched_tab(viewer_tab):
    """Return (open_tab, problems): tabs whose CSP violations and console errors end up in ``problems``."""
    problems: list[str] = []
    tabs = []

    def open_tab(path, **options):
        def before(tab):
            tab.add_init_script(LISTEN)
            # A failed load is reported by its response (below), with its URL (the site's /favicon.ico too).
            tab.on(
                "console",
                lambda m: (
                    problems.append(f"console: {m.text}")
                    if m.type == "error" and not m.text.startswith("Failed to load resource")
                    else None
                ),
            )
            tab.on(
                "response",
                lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None,
            )
            tab.on("pageerror", lambda error: problems.append(f"page error: {error}"))

        tab = viewer_tab(path, before=before, **options)
        tabs.append(tab)
        return tab

    def violations() -> list[str]:
        found = list(problems)
        for tab in tabs:
            if not tab.is_closed():
                found += tab.evaluate("window.__violations || []")
        return found

    yield open_tab, violations


def test_the_pages_and_the_api_docs_run_under_the_policy(watched_tab):
    open_tab, violations = watched_tab
    director = international_staff(username="csp-director")
    tab = open_tab("/")
    log_in(tab, username=director.username, password=TEST_PASSWORD)
    for path in ["/", "/tournaments/", "/federation/people/", "/accounts/tokens/", "/notifications/"]:
        response = tab.goto(path)
        assert response.status == 200, path
        assert "default-src 'self'" in response.headers["content-security-policy"], path
    tab.goto("/accounts/tokens/")
    tab.fill("#id_password", TEST_PASSWORD)
    tab.fill("#id_name", "browser check")
    tab.locator("form:has(#id_name) [type=submit]").click()
    expect(tab.locator("#new-token")).to_be_visible()

    docs = open_tab("/api/v1/docs/")
    expect(docs.locator(".swagger-ui .info .title")).to_contain_text("IHTC Portal API", timeout=30_000)
    redoc = open_tab("/api/v1/redoc/")
    expect(redoc.locator("h1").first).to_contain_text(
        "IHTC Portal API", timeout=30_000
    )  # ReDoc renders the whole schema
    assert violations() == [], "\n".join(violations())


def test_the_console_records_an_entry_and_the_scoreboard_updates_under_the_policy(watched_tab):
    open_tab, violations = watched_tab
    director = international_staff(username="csp-console")
    game = sheet_game()

    console = open_tab("/accounts/login/")
    log_in(console, username=director.username, password=TEST_PASSWORD)
    open_console(console, game)
    expect(console.locator("#offline-ready")).to_have_attribute("data-ready", "yes")
    space(console)  # the period starts: one entry
    waiting(console, 0)
    assert SheetEvent.objects.filter(sheet__game=game).count() >= 1

    viewer = open_tab(f"/games/{game.pk}/live/")
    board = viewer.locator("[data-board]")
    expect(viewer.locator("[data-status]")).to_have_attribute("data-state", "live")
    expect(board.locator("[data-period]")).to_have_text("Period 1")
    goal(console, "home", 8, 9)  # entered on the console, pushed to the scoreboard through its WebSocket
    waiting(console, 0)
    expect(board.locator('[data-score="home"]')).to_have_text("1")
    assert violations() == [], "\n".join(violations())
