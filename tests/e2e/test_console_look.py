"""The console and the scoreboard at the rink (issue 26, "Look"): a 10" tablet held in landscape (1280x800) and a
phone held upright (390x844).

On the console every visible button and control is at least 44x44 px, the clock never overlaps a score, nothing runs
off the screen sideways, and a penalty's player is entered with large digit buttons. On the public scoreboard and the
arena display a team's name never breaks inside a word ("Czech Republic", "Bosnia and Herzegovina"): its type gets
smaller instead. Screenshots: var/screenshots/console-1280.png, console-390.png, scoreboard-*.png, arena-*.png.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.live_helpers import entered_at_the_table, fits_the_screen, open_console, waiting
from tests.factories import international_staff
from tests.games.sheet_helpers import entry, sheet_game

expect.set_options(timeout=10_000)

SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
TABLET = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
TOUCH = 44  # px: the smallest target a finger hits reliably

# Every visible control that is too small to touch: a checkbox counts by its label, which takes the tap.
SMALL_CONTROLS = """(minimum) => {
  const controls = document.querySelectorAll("button, a[href], select, input:not([type=hidden]), summary");
  const small = [];
  for (const control of controls) {
    const target = control.type === "checkbox" || control.type === "radio" ? control.closest("label") || control : control;
    const style = getComputedStyle(target);
    const box = target.getBoundingClientRect();
    if (!box.width || !box.height || style.visibility === "hidden") continue;
    if (box.width < minimum - 0.5 || box.height < minimum - 0.5) {
      small.push(`${control.tagName.toLowerCase()}#${control.id}.${control.className} "${(control.textContent || control.value || "").trim().slice(0, 30)}" ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return small;
}"""

# A word of an element's text that the browser broke over two lines (or that runs out of its element).
BROKEN_WORDS = """(elements) => {
  const broken = [];
  for (const element of elements) {
    if (element.scrollWidth > element.clientWidth + 1) broken.push(`${element.textContent} runs out of its box`);
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(`"${match[0]}" of "${element.textContent}" on ${lines.size} lines`);
      }
    }
  }
  return broken;
}"""


def _apart(a: dict, b: dict) -> bool:
    return (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def _no_sideways_scroll(page, viewport) -> None:
    assert page.viewport_size == viewport, page.viewport_size
    fits_the_screen(page)


def _save(page, name: str, *, full_page: bool = True) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)


@pytest.fixture
def game(transactional_db):
    game = sheet_game(home__name="Czech Republic", away__name="Bosnia and Herzegovina")
    director = international_staff(username="director-look")
    # As another device of the table entered them: a goal, a penalty in the away box, the clock stopped.
    entered_at_the_table(
        game,
        by=director,
        device="look-table",
        events=[
            entry("period_start", period=1, time="00:00"),
            entry("goal", period=1, time="03:00", team="home", player=8, assist=9, seconds=1),
            entry("clock_start", period=1, time="03:00", seconds=2),
            entry(
                "penalty",
                period=1,
                time="04:00",
                team="away",
                player=14,
                penalty="minor",
                infraction="hooking",
                seconds=3,
            ),  # fmt: skip
            entry("clock_start", period=1, time="04:00", seconds=4),
            entry("clock_stop", period=1, time="04:30", seconds=5),
        ],
    )
    game.director = director
    return game


@pytest.mark.parametrize("viewport", [TABLET, PHONE], ids=["tablet-1280", "phone-390"])
def test_the_console_at_the_rink(page, login_as, game, viewport):
    page.set_viewport_size(viewport)
    login_as(game.director)
    open_console(page, game)
    waiting(page, 0)
    expect(page.locator("#score-home")).to_have_text("1")

    # A penalty's player, tapped on the number pad: #5 of the home team.
    page.locator("[data-actions=home] [data-type=penalty]").click()
    page.locator("#f-search").fill("tripping")
    page.locator("#f-search").press("Enter")
    pad = page.locator("#entry .number-pad")
    expect(pad).to_be_visible()
    assert page.evaluate(SMALL_CONTROLS, TOUCH) == [], "controls of the penalty dialog too small to touch"
    _no_sideways_scroll(page, viewport)
    pad.get_by_role("button", name="1", exact=True).click()
    expect(page.locator("#f-player")).to_have_value("1")  # the goalkeeper #1...
    pad.get_by_role("button", name="0", exact=True).click()
    expect(page.locator("#f-player")).to_have_value("10")  # ...or, with a second digit, #10
    pad.get_by_role("button", name="9", exact=True).click()
    expect(page.locator("#f-player")).to_have_value("9")  # a third digit starts a new number
    pad.get_by_role("button", name="9", exact=True).click()
    expect(page.locator("#f-player")).to_have_value("")  # nobody wears 99: no player chosen, the pad says so
    expect(pad.locator("output")).to_contain_text("99")
    pad.get_by_role("button", name="Clear").click()
    expect(pad.locator("output")).to_have_text("–")
    pad.get_by_role("button", name="5", exact=True).click()
    expect(pad.locator("output")).to_have_text("5")
    expect(page.locator("#f-player")).to_have_value("5")
    _save(page, f"console-penalty-{viewport['width']}", full_page=False)
    page.locator("#entry-ok").click()
    expect(page.locator("#entry")).to_be_hidden()
    waiting(page, 0)
    expect(page.locator("#box-home li")).to_contain_text("#5")
    expect(page.locator("#box-away li")).to_contain_text("#14")

    # The console as the official sees it, the undo offered.
    assert page.evaluate(SMALL_CONTROLS, TOUCH) == [], "controls too small to touch"
    _no_sideways_scroll(page, viewport)
    clock = page.locator("#clock").bounding_box()
    for part in ("#score-home", "#score-away", ".team-score.home .name", ".team-score.away .name"):
        box = page.locator(part).bounding_box()
        assert _apart(box, clock), f"{part} overlaps the clock at {viewport}"
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], f"{part} runs off the screen"
    assert _apart(page.locator("#score-home").bounding_box(), page.locator("#score-away").bounding_box())
    assert page.locator(".team-score .name").evaluate_all(BROKEN_WORDS) == []
    _save(page, f"console-{viewport['width']}")


@pytest.mark.parametrize("viewport", [TABLET, PHONE], ids=["tablet-1280", "phone-390"])
def test_the_scoreboard_reads_from_the_stands(game, viewer_tab, viewport):
    for name, path in (("scoreboard", f"/games/{game.pk}/live/"), ("arena", f"/games/{game.pk}/arena/")):
        tab = viewer_tab(path, viewport=viewport)
        expect(tab.locator("p[data-status]")).to_have_attribute("data-state", "live")
        expect(tab.locator('[data-score="home"]')).to_have_text("1")
        expect(tab.locator('[data-box="away"] li')).to_have_count(1)
        _save(tab, f"{name}-{viewport['width']}", full_page=name != "arena")
        names = tab.locator("[data-team-name]")
        expect(names.first).to_have_text("Czech Republic")
        assert names.evaluate_all(BROKEN_WORDS) == [], f"a team's name broken inside a word on the {name}"
        _no_sideways_scroll(tab, viewport)
        clock = tab.locator("[data-clock]").bounding_box()
        for side in ("home", "away"):
            for part in (f'[data-score="{side}"]', f'[data-team-name="{side}"]'):
                assert _apart(tab.locator(part).bounding_box(), clock), f"{part} overlaps the clock on the {name}"
        # The penalty box reads as large as the team's shots line, or larger.
        box_size = tab.locator('[data-box="away"] li').first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
        assert box_size >= 16


@pytest.mark.parametrize("viewport", [TABLET, PHONE], ids=["desktop-1280", "phone-390"])
def test_the_live_cards_read_on_their_own_background(game, viewer_tab, viewport, accessible):
    """The championship's live cards (a mini-board per game, on the light page): a long away name in the penalty
    box's heading stays on the board's dark panel, and axe finds every text of the cards legible (AA)."""
    tab = viewer_tab(f"/games/championships/{game.championship_id}/live/", viewport=viewport)
    expect(tab.locator("p[data-status]")).to_have_attribute("data-state", "live")
    card = tab.locator("[data-games] .mini-board").first
    expect(card.locator('[data-box-name="away"]')).to_have_text("Bosnia and Herzegovina")
    expect(card.locator('[data-box="away"] li')).to_have_count(1)
    _save(tab, f"live-cards-penalties-{viewport['width']}")
    # Each team's heading of the penalty box stays inside the panel whose dark background its light text needs.
    panel = card.locator(".board-panel").bounding_box()
    for side in ("home", "away"):
        heading = card.locator(f'[data-box-name="{side}"]').bounding_box()
        assert heading["x"] >= panel["x"] - 0.5, f"the {side} box's heading starts left of the panel"
        assert heading["x"] + heading["width"] <= panel["x"] + panel["width"] + 0.5, (
            f"the {side} box's heading runs out of the panel"
        )
    _no_sideways_scroll(tab, viewport)
    accessible(tab, f"live cards at {viewport['width']} px")
