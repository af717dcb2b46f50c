"""The portal's look on a phone and at a desk (issue 26): screenshots to look at, and no page wider than the screen.

Each role's home (the demo's logins, demo/data.py), a team's roster, a protest, the officials' console and the
public scoreboard, at 390 px and 1280 px, saved as var/screenshots/<page>-<width>.png. A page that scrolls
sideways fails, whatever element widens it (a table included: under 600 px its rows are cards).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.demo_world import FAST_HASHERS, private_storages, run_demo

pytestmark = pytest.mark.django_db(transaction=True)

FOLDER = Path(settings.BASE_DIR) / "var" / "screenshots"
WIDTHS = (390, 1280)
ROLES = ("public", "ita.manager", "referee", "scorer", "discipline", "ita.staff", "firs.staff", "ihtc.exec", "admin")
OVERFLOW = """() => {
  const inner = window.innerWidth;
  const wide = [...document.querySelectorAll('body *')].filter(el => el.getBoundingClientRect().right > inner + 1);
  return [document.documentElement.scrollWidth, inner,
          wide.slice(-3).map(el => el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : ''))];
}"""


@pytest.fixture
def demo(asgi_server, monkeypatch, settings, tmp_path):
    settings.PASSWORD_HASHERS = FAST_HASHERS
    private_storages(monkeypatch, tmp_path / "private")
    run_demo(logins_file=tmp_path / "demo-logins.txt")
    return asgi_server


def _session(browser, base_url, username):
    from demo.data import DEMO_PASSWORD

    context = browser.new_context(base_url=base_url, viewport={"width": WIDTHS[-1], "height": 900}, locale="en-GB")
    context.set_default_timeout(15_000)
    page = context.new_page()
    if username != "public":
        page.goto("/accounts/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", DEMO_PASSWORD)
        page.locator("form:has(#id_password) [type=submit]").click()
        page.wait_for_load_state()
        assert "/accounts/login/" not in page.url, f"{username} could not log in"
    return context, page


def _shoot(page, name, problems):
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844 if width < 600 else 900})
        page.wait_for_timeout(150)
        scroll_width, inner, wide = page.evaluate(OVERFLOW)
        if scroll_width > inner + 1:
            problems.append(f"{name} at {width}px: {scroll_width}px wide ({' < '.join(wide)})")
        page.screenshot(path=str(FOLDER / f"{name}-{width}.png"), full_page=True)


@pytest.mark.timeout(900)
def test_key_pages_fit_a_phone_and_a_desk_and_are_saved_as_screenshots(browser, demo):
    from demo import live
    from discipline.models import Protest
    from tournaments.models import TeamEntry

    FOLDER.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    for role in ROLES:
        context, page = _session(browser, demo.url, role)
        try:
            page.goto("/")
            _shoot(page, f"home-{role}", problems)
            if role == "ita.manager":
                # On the phone the menu is one button; opened, its links stack one under the other.
                page.set_viewport_size({"width": 390, "height": 844})
                page.get_by_text("Menu", exact=True).click()
                page.get_by_role("link", name="My teams").wait_for()
                page.screenshot(path=str(FOLDER / "menu-open-390.png"))
                page.get_by_text("Menu", exact=True).click()
                page.set_viewport_size({"width": 1280, "height": 900})
                page.get_by_role("link", name="Protests", exact=True).click()
                page.wait_for_load_state()
                _shoot(page, "protests", problems)
                page.goto("/")
                # The roster: from the home's list of rosters, the team's entry page.
                page.set_viewport_size({"width": 1280, "height": 900})
                page.locator("main a[href*='/entries/']").first.click()
                page.wait_for_load_state()
                _shoot(page, "roster", problems)
            if role == "referee":
                page.get_by_role("link", name="My games").click()
                page.wait_for_load_state()
                _shoot(page, "my-games", problems)
            if role == "ihtc.exec":
                page.get_by_role("link", name="Approvals").click()
                page.wait_for_load_state()
                _shoot(page, "approvals", problems)
            if role == "discipline":
                protest = Protest.objects.order_by("pk").first()
                assert protest is not None, "the demo files protests"
                page.goto(reverse("discipline:protest-detail", args=[protest.pk]))
                _shoot(page, "protest", problems)
            if role == "scorer":
                game = live.live_game()
                page.goto(reverse("games:console", args=[game.pk]))
                page.wait_for_timeout(500)
                _shoot(page, "console", problems)
            if role == "public":
                game = live.live_game()
                page.goto(reverse("games:game-live", args=[game.pk]))
                page.wait_for_timeout(500)
                _shoot(page, "scoreboard", problems)
                page.goto(reverse("games:championship-live", args=[game.championship_id]))
                page.wait_for_timeout(500)
                _shoot(page, "live-cards", problems)
        finally:
            context.close()
    assert TeamEntry.objects.exists()
    assert not problems, "\n".join(problems)
