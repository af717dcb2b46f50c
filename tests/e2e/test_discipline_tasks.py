"""Issue 25, the discipline committee's and the team manager's tasks, done in a browser from the role's home by
clicking (R-53, 8.2, 9.1, R-51, R-52):

- the committee opens a case from a protest: the decision offers the protest incident's player by number and team
  first, then the line-ups; the case is decided; it is found again in the list of cases (search by person, filters
  by status), in Spanish, at a phone's width;
- a team manager files a protest from his team's game (the game chosen by the link), reads the incidents in words
  (the team, P1 3:00, who wore the number), and reads the fee's status and how to pay it, in French.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from discipline import protests as svc
from discipline.models import Case, CaseStatus, Protest, ProtestStatus, Suspension
from tests.discipline.protest_helpers import world_ended
from tests.e2e.live_helpers import fits_the_screen, open_menu
from tournaments.models import RosterEntry

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# Raw values a person must never read on these pages.
RAW = re.compile(r"\b[a-z]+_[a-z_]+\b|\bNone\b|NaN|\(period \d+ at \d+\)|Goal home|Penalty [a-z]+_")


def _switch(page, language: str) -> None:
    """The header's language switch, as a person uses it."""
    open_menu(page)
    switch = page.locator("form.language-switch")
    switch.locator("select[name=language]").select_option(language)
    switch.locator("[type=submit]").click()
    page.wait_for_load_state()


def _readable(page) -> None:
    text = page.locator("main").inner_text()
    assert not RAW.search(text), RAW.search(text)


@pytest.fixture
def world():
    """A game that ended 30 minutes ago: the home captain protested a ruling on the rink (9.1 A, R-50); the away
    no. 12 was penalized for tripping, and the away team filed a federation's protest about it (9.1 C)."""
    w = world_ended(datetime.timedelta(minutes=30))
    protest = svc.protest_file(
        by=w.away_manager, game=w.game, entry=w.game.away, kind="federation", incident=w.penalty,
        statement="Our no. 12 never touched the opponent.", now=timezone.now(),
    )  # fmt: skip
    player = RosterEntry.objects.get(entry=w.game.away, number="12").person
    return w, protest, player


def test_the_committee_opens_a_case_from_a_protest_decides_it_and_finds_it_in_the_list(
    page, login_as, world, screenshot, accessible, outside_requests
):
    w, protest, player = world
    login_as(w.committee)
    page.goto("/")
    open_menu(page)
    nav = page.get_by_role("navigation")
    # The protest, from the menu's list of protests.
    open_menu(page)
    nav.get_by_role("link", name="Protests", exact=True).click()
    page.get_by_role("link", name=str(protest.pk), exact=True).click()
    expect(page.locator("main")).to_contain_text(f"Penalty to {w.game.away}, P1 3:00 (#12 {player.last_name.upper()})")
    _readable(page)
    page.get_by_label("Title").fill(f"Tripping, {player}")
    page.get_by_role("button", name="Open a case from this protest").click()
    page.wait_for_url(re.compile(r"/discipline/cases/\d+/$"))
    case = Case.objects.get()
    expect(page.get_by_role("heading", name=case.title)).to_be_visible()
    accessible(page, "the case opened from a protest")

    # The decision offers the protest incident's player first, by number and team, then both line-ups.
    decide = page.locator("form", has=page.get_by_role("button", name="Record the decision"))
    person = decide.get_by_label("Person")
    named = person.locator("optgroup[label='Named in the reports and protests'] option")
    expect(named).to_have_text([f"#12 {player} ({w.game.away})"])
    lined_up = person.locator('optgroup[label="On the games\' line-ups"] option')
    expect(lined_up.first).to_have_text(re.compile(r"^#\d+ .+ \(.+\)$"))
    assert not [t for t in lined_up.all_inner_texts() if re.fullmatch(r"\d+", t.strip())]  # never an id
    screenshot(page, "case-decision-offers")
    decide.get_by_label("Outcome").select_option(label="Sanctions")
    decide.get_by_label("Reasons").fill("Tripping confirmed by the video (6.4.33): one game.")
    person.select_option(label=f"#12 {player} ({w.game.away})")
    decide.get_by_label("Kind").select_option(label="Games")
    decide.get_by_label("Games").fill("1")
    decide.get_by_role("button", name="Record the decision").click()
    page.wait_for_load_state()
    expect(page.get_by_role("heading", name="Decision", exact=True)).to_be_visible()
    assert Suspension.objects.get(person=player, decision__case=case).games_required == 1
    case.refresh_from_db()
    assert case.status == CaseStatus.DECIDED
    _readable(page)

    # The list of cases, from the menu, at a phone's width: search by the player's name, filter the decided.
    page.set_viewport_size(PHONE)
    page.goto("/")
    page.get_by_role("link", name="Every case: search and filters").click()
    expect(page.get_by_role("heading", name="Discipline cases")).to_be_visible()
    page.get_by_label("Search", exact=True).fill(player.last_name)
    page.get_by_label("Status").select_option(label="Decided")
    page.get_by_role("button", name="Search").click()
    page.wait_for_load_state()
    row = page.locator("table.cases tbody tr")
    expect(row).to_have_count(1)
    expect(row).to_contain_text(f"Case #{case.pk}: {case.title}")
    expect(row).to_contain_text(f"Game #{w.game.number}")
    expect(row).to_contain_text("Sanctions")
    fits_the_screen(page)
    _readable(page)
    accessible(page, "the list of cases, on a phone")
    screenshot(page, "case-list-phone")

    # In Spanish: the same list, its words and filters in Spanish; a search that finds nothing says so.
    _switch(page, "es")
    expect(page.get_by_role("heading", name="Expedientes disciplinarios")).to_be_visible()
    expect(page.locator("table.cases tbody tr")).to_contain_text(f"Expediente n.º {case.pk}")
    page.get_by_label("Buscar", exact=True).fill("nadie-con-ese-nombre")
    page.get_by_role("button", name="Buscar").click()
    page.wait_for_load_state()
    expect(page.locator("main")).to_contain_text("Ningún expediente coincide con esta búsqueda.")
    fits_the_screen(page)
    screenshot(page, "case-list-spanish")
    page.set_viewport_size(DESKTOP)
    open_menu(page)
    page.get_by_role("navigation").get_by_role("link", name="Expedientes").click()
    page.get_by_role("link", name=f"Expediente n.º {case.pk}: {case.title}").click()
    expect(page.get_by_role("heading", name=case.title)).to_be_visible()
    assert outside_requests == []


def test_a_team_manager_files_a_protest_from_his_game_and_reads_how_to_pay_the_fee(
    page, login_as, world, screenshot, accessible, outside_requests
):
    w, _, player = world
    login_as(w.home_manager)
    page.set_viewport_size(PHONE)
    page.goto("/")
    page.get_by_role("link", name="Protests: file one about a game, follow your teams' protests (9.1)").click()
    expect(page.get_by_role("heading", name="My teams' protests")).to_be_visible()
    fits_the_screen(page)
    accessible(page, "the team manager's protests, on a phone")
    screenshot(page, "my-protests-phone")
    page.get_by_role("link", name=f"File a protest about game #{w.game.number}").click()
    page.wait_for_url(f"**/discipline/protests/new/?game={w.game.pk}")
    # The game is chosen, named as a game (never "#8 Spain", read as a jersey).
    expect(page.get_by_label("Game")).to_have_value(str(w.game.pk))
    expect(page.get_by_label("Game").locator("option:checked")).to_have_text(
        f"Game #{w.game.number}: {w.game.home} – {w.game.away} ({w.game.championship})"
    )
    # The incidents in words: the team, the period and its clock, who wore the number, the infraction.
    penalty = page.get_by_label(re.compile(r"Penalty to "))
    expect(penalty).to_have_count(1)
    label = page.locator("label", has=penalty).inner_text()
    assert f"Penalty to {w.game.away}, P1 3:00 (#12 {player.last_name.upper()}): Tripping" in label, label
    _readable(page)
    fits_the_screen(page)
    accessible(page, "the protest form with the game chosen")
    screenshot(page, "protest-form-phone")
    page.set_viewport_size(DESKTOP)
    page.get_by_label(re.compile(rf"On-rink protest by {re.escape(str(w.game.home))}, P1 3:00")).check()
    page.get_by_label("Statement").fill("The goal was scored after the whistle.")
    page.get_by_role("button", name="File the protest").click()
    page.wait_for_url(re.compile(r"/discipline/protests/\d+/$"))
    protest = Protest.objects.get(entry=w.game.home)
    assert protest.status == ProtestStatus.FILED and protest.fee_received is None

    # The fee: not received yet, and how to pay it: how much, by when, where and to whom, the articles.
    fee = page.locator(".fee-how")
    expect(page.locator(".fee")).to_contain_text("Not received yet.")
    expect(fee).to_contain_text("Pay 200.00 USD (or the equivalent in another currency) by ")
    expect(fee).to_contain_text("(Rule 9.1 A, R-52)")
    venue = w.game.championship.venue
    expect(fee).to_contain_text(f"In cash at the venue ({venue.name}, {venue.city})")
    expect(fee).to_contain_text(f"bank transfer to {w.game.championship.sanctioning_body.name}")
    expect(fee).to_contain_text("lapses at its deadline (R-51)")
    accessible(page, "the protest's page with how to pay")
    screenshot(page, "protest-fee-how")

    # In French, as a French team manager reads it.
    _switch(page, "fr")
    expect(page.get_by_role("heading", name="Comment payer la caution")).to_be_visible()
    expect(page.locator(".fee-how")).to_contain_text("Payez 200,00 USD")
    expect(page.locator(".fee-how")).to_contain_text("(règle 9.1 A, R-52)")
    screenshot(page, "protest-fee-how-french")
    assert outside_requests == []
