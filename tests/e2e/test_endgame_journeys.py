"""The end of the game in a browser at tablet size: the crew signs on the device, the sheet becomes final."""

from __future__ import annotations

from tests.factories import TEST_PIN, international_staff
from tests.games.endgame_helpers import console, played_yesterday, post_log, whole_game
from tournaments.models import Game, GameStatus

DEVICE = "ipad-e2e"


def test_the_crew_signs_the_report_on_a_tablet_and_the_sheet_becomes_final(page, login_as, screenshot):
    director = international_staff()
    game, scorer = played_yesterday(director)
    post_log(game, scorer, whole_game())
    console(game, scorer, DEVICE)
    page.set_viewport_size({"width": 1024, "height": 768})
    login_as(scorer)
    page.goto(f"/games/{game.pk}/sheet/sign/?device={DEVICE}")
    assert "2 – 1" in page.locator(".sheet-score").inner_text()
    buttons = page.locator("button.sign-button")
    box = buttons.first.bounding_box()
    assert box is not None and box["height"] >= 44  # a touch target a finger hits
    # Issue 23: each signer types their own PIN on the tablet; a wrong one is refused and nothing is signed.
    lead = page.locator("form.sign-form").filter(has=page.locator("button.sign-button", has_text="(lead)")).first
    lead.locator("input[name=pin]").fill("000000")
    lead.locator("button.sign-button").click()
    page.wait_for_load_state()
    assert "wrong PIN" in page.locator(".errorlist").first.inner_text()
    for label in ("Referee (4.2) (lead)", "Referee (4.2):", "Official scorer", "captain", "captain"):
        form = page.locator("form.sign-form").filter(has=page.locator("button.sign-button", has_text=label)).first
        pin = form.locator("input[name=pin]")
        if pin.count():  # the scorer's own row needs none: the tablet is logged in as the scorer
            pin.fill(TEST_PIN)
        form.locator("button.sign-button").click()
        page.wait_for_load_state()
    assert "The sheet is final" in page.content()
    screenshot(page, "sheet-signed")
    game = Game.objects.get(pk=game.pk)
    assert game.status == GameStatus.FINAL and (game.home_goals, game.away_goals) == (2, 1)
    page.goto(f"/games/{game.pk}/sheet/log/?type=goal")
    assert page.locator("table.sheet-log tbody tr").count() == 3
