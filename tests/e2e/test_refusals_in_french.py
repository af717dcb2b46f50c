"""A French team manager reads the portal's refusals and reasons in French (issue 26, "Languages").

Text made in code (a pure core's sentence, a service's refusal) is said where it is shown, in the reader's
language: the roster's eligibility reasons (1.1 B, R-03), a line-up refused (5.3 A) and a protest refused (9.1),
each with its article as cited. He switches the language with the header's switch and clicks from his home.
"""

from __future__ import annotations

import re

from django.utils import timezone
from playwright.sync_api import expect

from discipline.models import Protest
from federation.models import Person
from tests.discipline.protest_helpers import file_as_home, world_ended
from tests.factories import GameFactory, PersonFactory, RosterEntryFactory
from tests.tournaments.conftest import eligible_person
from tournaments.models import Position


def _switch(page, language: str) -> None:
    switch = page.locator("form.language-switch")
    switch.locator("select[name=language]").select_option(language)
    switch.locator("[type=submit]").click()
    page.wait_for_load_state()


def test_a_french_manager_reads_eligibility_a_line_up_refusal_and_a_protest_refusal_in_french(
    page, login_as, screenshot, outside_requests
):
    w = world_ended(timezone.timedelta(minutes=5))
    team = w.game.home
    stranger: Person = PersonFactory(federation=team.federation)  # no passport at all (1.1 B, R-03)
    RosterEntryFactory(entry=team, person=stranger, number="77", position=Position.PLAYER)
    for number in ("31", "32"):
        keeper = eligible_person(team.federation, is_goalkeeper=True)
        RosterEntryFactory(entry=team, person=keeper, number=number, position=Position.GOALKEEPER, confirmed=True)
    next_game = GameFactory(
        championship=w.game.championship,
        phase=w.game.phase,
        home=team,
        away=w.game.away,
        start_at=timezone.now() + timezone.timedelta(days=1),
    )
    login_as(w.home_manager)
    _switch(page, "fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")

    # The roster: the reason a player is not eligible, in French, its articles as cited.
    page.get_by_role("navigation").get_by_role("link", name="Mes équipes", exact=True).click()
    page.get_by_role("link", name=team.name, exact=True).first.click()
    reasons = page.locator("ul.reasons", has_text="Règle 1.1 B / R-03")
    expect(reasons.first).to_contain_text(
        f"Règle 1.1 B / R-03 : un joueur doit avoir un passeport de {team.federation.country.code.upper()}"
    )
    expect(page.locator("main")).not_to_contain_text("a player needs a passport")
    screenshot(page, "roster-reasons-in-french")

    # A line-up refused (5.3 A: one goalkeeper in the starting line-up), said in French.
    page.get_by_role("link", name=f"Composition pour le match n° {next_game.number}").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Composition de {team.name}")
    for number in ("31", "32"):
        row = page.locator(
            "table.lineup-form tbody tr", has=page.locator("td.num", has_text=re.compile(rf"^{number}$"))
        )
        row.locator("input[name^=listed-]").check()
        row.locator("input[name^=starting-]").check()
    page.get_by_role("button", name="Remettre la composition").click()
    page.wait_for_load_state()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Règle 5.3 A : la formation de départ compte un gardien (5.3 B)")
    expect(alert).not_to_contain_text("starting line-up")
    screenshot(page, "line-up-refused-in-french")

    # A protest refused (9.1): the same incident protested meanwhile (by the manager on another device).
    page.locator("a.brand").click()
    page.get_by_role("link", name=re.compile(r"^Réclamations")).first.click()
    page.get_by_role("link", name=f"Déposer une réclamation sur le match n° {w.game.number}").click()
    page.locator(f"input[name=incident][value='ruling|{w.on_rink_protest}']").check()
    file_as_home(w, "ruling", w.on_rink_protest, now=timezone.now())
    page.get_by_role("button", name="Déposer la réclamation").click()
    page.wait_for_load_state()
    expect(page.locator("main")).to_contain_text(
        "Règle 9.1 : votre équipe a déjà déposé une réclamation pour cet incident."
    )
    expect(page.locator("main")).not_to_contain_text("has already protested")
    assert Protest.objects.filter(game=w.game).count() == 1
    screenshot(page, "protest-refused-in-french")
    assert outside_requests == []
