"""The console offers only what the engine accepts under R-57 to R-71 (issue 28): no time-out at a period's end,
its reason shown instead (R-71); in a shoot-out, a shooter who may not shoot is greyed with the reason (R-67, R-70).

Each journey starts at the scorer's home page and reaches the console by its link, as an official does.
"""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.devices import console_sign_out
from tests.e2e.live_helpers import choose_language, fits_the_screen, minutes, space, waiting
from tests.factories import international_staff
from tests.games.endgame_helpers import played_game, post_log
from tests.games.sheet_helpers import entry
from tournaments.models import PhaseKind

expect.set_options(timeout=10_000)

PHONE = {"width": 390, "height": 844}


def _console_from_home(page, game) -> None:
    page.locator(f"a[href='/games/{game.pk}/console/']").first.click()
    expect(page.locator("body[data-started=yes]")).to_be_attached()
    page.locator("#signin-go").click()
    expect(page.locator("#signin")).to_be_hidden()


def test_the_time_out_is_not_offered_at_a_periods_end_with_its_reason_r71_in_french_on_a_phone(
    page, login_as, screenshot, accessible
):
    director = international_staff(username="director-r71")
    game, scorer = played_game(director, start_at=timezone.now() + datetime.timedelta(hours=1))
    page.clock.install()
    page.set_viewport_size(PHONE)
    login_as(scorer)
    choose_language(page, "fr")
    _console_from_home(page, game)
    away_timeout = page.locator("[data-actions=away] [data-type=timeout]")
    home_timeout = page.locator("[data-actions=home] [data-type=timeout]")
    # Before the game: a time-out is called within a period.
    expect(away_timeout).to_be_disabled()
    expect(page.locator("#timeout-refused-away")).to_contain_text("R-71")
    # At a stoppage within the period it is offered (5.5.2 A).
    space(page)
    minutes(page, "05:00")
    space(page)
    waiting(page, 0)
    expect(away_timeout).to_be_enabled()
    expect(page.locator("[data-refused=timeout]")).to_have_count(0)
    # The clock runs out: the buzzer ends the period, no time-out, said in French next to the button.
    space(page)
    minutes(page, "15:00")
    expect(away_timeout).to_be_disabled()
    expect(home_timeout).to_be_disabled()
    reason = page.locator("#timeout-refused-away")
    expect(reason).to_have_text(
        "Pas de temps mort à la sirène qui termine Période 1 : la même période doit reprendre (R-71, 1.2 B)."
    )
    expect(away_timeout).to_have_attribute("aria-describedby", "timeout-refused-away")
    # The key T says the same and sends nothing.
    page.locator("body").press("t")
    expect(page.locator("#controls-note")).to_contain_text("R-71")
    expect(page.locator("#entry")).to_be_hidden()
    screenshot(page, "console-time-out-refused-at-the-buzzer-fr-phone")
    fits_the_screen(page)
    accessible(page, "the console with the time-out not offered at the buzzer, in French")
    # The period ends; in the intermission the time-out is still not offered, for the reason the server gives.
    page.locator("#period-end").click()
    waiting(page, 0)
    expect(page.locator("#period-start")).to_be_visible()
    expect(away_timeout).to_be_disabled()
    expect(reason).to_contain_text("pendant une pause")
    assert [e for e in _stored(game) if e == "timeout"] == []


def _stored(game) -> list[str]:
    from games.models import SheetEvent

    return [e.payload["type"] for e in SheetEvent.objects.filter(sheet__game=game).order_by("sequence")]


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}], ids=["desktop"])
def test_a_shooter_who_may_not_shoot_is_greyed_with_the_reason_r67(page, login_as, screenshot, accessible, viewport):
    director = international_staff(username="director-r67")
    game, scorer = played_game(
        director, start_at=timezone.now() + datetime.timedelta(hours=1), phase__kind=PhaseKind.ELIMINATION
    )
    # Tied after overtime; away #13's minor, signalled as overtime ran out, is assessed at its buzzer (R-70): his
    # penalty time is left, so he may not shoot (R-40, R-67). Entered from the officials' table's other device.
    post_log(
        game,
        scorer,
        [
            entry("period_start", period=1),
            entry("period_end", period=1, time="20:00"),
            entry("period_start", period=2),
            entry("period_end", period=2, time="20:00"),
            entry("period_start", period=3),
            entry(
                "penalty",
                period=3,
                time="9:50",
                team="away",
                player=13,
                penalty="minor",
                infraction="tripping",
                delayed=True,
            ),  # fmt: skip
            entry("period_end", period=3, time="10:00"),
        ],
        device="table-tablet",
    )
    console_sign_out(game=game, by=scorer, device="table-tablet")
    page.set_viewport_size(viewport)
    login_as(scorer)
    _console_from_home(page, game)
    page.locator("[data-actions=away] [data-type=shootout_attempt]").click()
    option = page.locator("#f-player option[value='13']")
    expect(option).to_be_disabled()
    expect(option).to_contain_text(
        "may not shoot: goalkeeper, out of the game or penalty time left at the end of overtime (R-40, R-67)"
    )
    expect(page.locator("#f-player option[value='12']")).to_be_enabled()
    screenshot(page, "console-shoot-out-shooter-greyed")
    accessible(page, "the shoot-out dialog with a shooter who may not shoot")
    # A shooter who may shoot is entered as before.
    page.locator("#f-player").select_option("12")
    page.locator("#entry-ok").click()
    waiting(page, 0)
    expect(page.locator("#refusal")).to_be_hidden()
    assert _stored(game)[-1] == "shootout_attempt"
