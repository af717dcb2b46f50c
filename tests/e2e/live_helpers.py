"""Helpers of the live game's browser tests: the scorer's console (its keys, forms and outbox) and uvicorn in a thread.

The console's clock is Playwright's (``page.clock``): the game's minutes pass by ``fast_forward``, not in real time.
"""

from __future__ import annotations

import threading
import time

import uvicorn
from playwright.sync_api import Error, expect

from tests.live_servers import free_port, post_entries


class ThreadedAsgiServer:
    """uvicorn serving portal.asgi in a thread (no signal handlers: not the main thread).

    pytest-django's live server is WSGI; the scoreboard needs WebSockets. Its requests open their own connections
    to the test database (SQLite's shared in-memory test database: the same data), and the in-memory channel layer
    lives in the server's event loop, as in `make run`.
    """

    def __init__(self):
        from portal.asgi import application

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(application, host="127.0.0.1", port=self.port, lifespan="off", log_level="warning",
                                ws_per_message_deflate=False)  # fmt: skip
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.05)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(timeout=10)

    def post(self, game, events, session):
        return post_entries(self.url, game.pk, events, session=session)


# The document's width and the screen's, once the document has loaded; null while a navigation replaces it.
_WIDTHS = """() => document.readyState === 'complete' && document.documentElement
  ? [document.documentElement.scrollWidth, window.innerWidth] : null"""


def fits_the_screen(page) -> None:
    """The page never scrolls sideways: only a table's own box may (its rows are cards on a phone, issue 26).

    Safe right after a click that navigates: a plain ``page.evaluate`` may run while the new document replaces the
    old one (``document.documentElement`` is null, or the execution context is destroyed). The widths are read once
    the page has loaded, by ``wait_for_function``, which Playwright runs again in the new document if it changes.
    """
    for _ in range(3):
        page.wait_for_load_state("load")
        try:
            width, inner = page.wait_for_function(_WIDTHS).json_value()
        except Error as error:  # the document replaced between the reading and its value: read the new one
            if "context was destroyed" not in str(error) and "navigat" not in str(error):
                raise
            continue
        assert width <= inner + 1, f"{page.url} is {width}px wide on a {inner}px screen"
        return
    raise AssertionError(f"{page.url}: the page kept navigating, its width could not be read")


def open_console(page, game, *, sign_in: bool = True):
    page.goto(f"/games/{game.pk}/console/")
    expect(page.locator("body[data-started=yes]")).to_be_attached()
    if sign_in:
        expect(page.locator("#signin")).to_be_visible()
        page.locator("#signin-go").click()
        expect(page.locator("#signin")).to_be_hidden()
        expect(page.locator("#device")).to_contain_text("official scorer (4.3)")
    return page


def console_from_home(page, game) -> None:
    """From the official's home, follow the game's console link and sign the device in as the duty offered (in the
    page's language, whatever it is)."""
    page.locator(f"a[href='/games/{game.pk}/console/']").first.click()
    expect(page.locator("body[data-started=yes]")).to_be_attached()
    page.locator("#signin-go").click()
    expect(page.locator("#signin")).to_be_hidden()


def open_menu(page) -> None:
    """On a phone the header's links and language switch are behind its Menu button (issue 26): open it, as a
    person does; at a desk the menu is always open."""
    summary = page.locator("details.site-menu > summary")
    if summary.count() and summary.is_visible() and page.locator("details.site-menu[open]").count() == 0:
        summary.click()


def choose_language(page, code: str) -> None:
    """Choose the pages' language with the switch in the header, as a person does (the login keeps it)."""
    open_menu(page)
    switch = page.locator("form.language-switch")
    switch.locator("select[name=language]").select_option(code)
    switch.locator("[type=submit]").click()
    expect(page.locator("html")).to_have_attribute("lang", code)


def waiting(page, count: int) -> None:
    """The bar shows ``count`` entries waiting; for 0, once every entry made has been sent and acknowledged."""
    expect(page.locator("#waiting")).to_have_attribute("data-count", str(count))
    if count == 0:
        page.wait_for_function(
            "() => window.ihtcConsole.settled()"
        )  # a function: a bare expression is eval()ed, which the CSP forbids


def minutes(page, text: str) -> None:
    """Let game time pass on the page's clock (the rink's minutes, without waiting for them)."""
    page.clock.fast_forward(text)


def penalty(page, side: str, search: str, player: int, *, delayed: bool = False) -> None:
    page.locator(f"[data-actions={side}] [data-type=penalty]").click()
    page.locator("#f-search").fill(search)
    page.locator("#f-search").press("Enter")
    page.locator("#f-player").select_option(str(player))
    if delayed:
        page.locator("#f-delayed").check()
    page.locator("#entry-ok").click()
    expect(page.locator("#entry")).to_be_hidden()


def goal(page, side: str, scorer: int, assist: int | None = None) -> None:
    page.locator(f"[data-actions={side}] [data-type=goal]").click()
    page.locator("#f-player").select_option(str(scorer))
    if assist is not None:
        page.locator("#f-assist").select_option(str(assist))
    page.locator("#f-time").press("Enter")  # the keyboard enters the form
    expect(page.locator("#entry")).to_be_hidden()


def space(page) -> None:
    page.locator("body").press("Space")


def entered_at_the_table(game, *, by, device: str, events: list[dict]) -> None:
    """Record ``events`` as another device of the officials' table does, then sign that device out (the sheet
    stays open, as a page opened later finds it)."""
    from games.access import SHEET_DUTIES
    from games.devices import console_sign_in, console_sign_out
    from games.sheet import record_events

    console_sign_in(game=game, by=by, device=device, duties=list(SHEET_DUTIES))
    record_events(game=game, by=by, device=device, events=events)
    console_sign_out(game=game, by=by, device=device)
