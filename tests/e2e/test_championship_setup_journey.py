"""Issue 25, IHTC executive / championship directors: from the home page, by clicking, set up a championship with
the form (the standings preset chosen from the presets, the rules' parameters as labelled fields with their
articles, no JSON box), see a bad value refused beside its field naming the rule, save it as a draft, and publish
it after a confirmation page that says what becomes public, in Spanish, on a 390 px phone."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.live_helpers import fits_the_screen, open_menu
from tests.factories import InternationalFederationFactory, VenueFactory, ihtc_executive
from tournaments.models import Championship

PHONE = {"width": 390, "height": 844}


def test_an_executive_sets_up_a_championship_with_the_form_and_publishes_it_after_confirming(
    page, login_as, screenshot, accessible, outside_requests
):
    venue = VenueFactory(name="Palaghiaccio Setup")
    body = InternationalFederationFactory(name="IHTC Setup Body")
    login_as(ihtc_executive())
    page.set_viewport_size(PHONE)
    page.goto("/")
    page.get_by_role("link", name="Championships").first.click()
    page.get_by_role("link", name="New championship").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New championship")
    expect(page.locator("textarea")).to_have_count(0)  # no raw JSON box
    expect(page.get_by_label("Period length (minutes)")).to_have_value("20")  # 1.2 A
    expect(page.get_by_text("Rule 9.1 A, R-52").first).to_be_visible()
    fits_the_screen(page)
    accessible(page, "the championship set-up form on a phone")

    page.fill("#id_name", "Euro Cup Setup 2027")
    page.select_option("#id_category", "senior_men")
    page.select_option("#id_level", "world")
    page.fill("#id_start_date", "2027-07-01")
    page.fill("#id_end_date", "2027-07-10")
    page.select_option("#id_venue", str(venue.pk))
    page.fill("#id_entry_closing_date", "2027-05-01")
    page.fill("#id_entry_fee", "500")
    page.select_option("#id_entry_fee_currency", "EUR")
    page.select_option("#id_sanctioning_body", str(body.pk))
    page.get_by_label("Standings rules (preset)").select_option("iihf")
    page.get_by_label("Period length (minutes)").fill("0")
    page.get_by_label("Protest fee", exact=True).fill("150")
    page.get_by_role("button", name="Save").click()
    error = page.locator("#id_game__period_minutes_error")
    expect(error).to_contain_text("Period length (minutes): R-11: must be at least 1, not 0")
    assert not Championship.objects.filter(name="Euro Cup Setup 2027").exists()
    fits_the_screen(page)
    screenshot(page, "set-up-refused-naming-the-rule")

    page.get_by_label("Period length (minutes)").fill("15")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Euro Cup Setup 2027")
    championship = Championship.objects.get(name="Euro Cup Setup 2027")
    assert championship.standings_preset == "iihf" and not championship.published
    assert championship.ruleset == {"game": {"period_minutes": 15}, "protests": {"fee_amount": "150"}}
    screenshot(page, "draft-saved")

    # In Spanish: publish, after the page that says what becomes public.
    open_menu(page)
    page.get_by_label("Language").select_option("es")
    page.get_by_role("button", name="Change").click()
    page.wait_for_load_state()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.get_by_text("Borrador")).to_be_visible()
    page.get_by_role("link", name="Publicar: mostrarlo a todos").click()
    expect(page).to_have_url(re.compile(rf"/tournaments/{championship.pk}/publish/confirm/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("¿Publicar Euro Cup Setup 2027?")
    expect(page.get_by_text("Una vez publicado, todo el mundo ve, sin iniciar sesión:")).to_be_visible()
    expect(page.locator("ul.becomes-public li")).to_have_count(4)
    fits_the_screen(page)
    accessible(page, "the publish confirmation in Spanish on a phone")
    screenshot(page, "publish-confirmation-in-spanish")
    championship.refresh_from_db()
    assert not championship.published  # nothing public before the confirmation
    page.get_by_role("button", name="Publicar ahora").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Euro Cup Setup 2027")
    expect(page.get_by_text("Borrador")).to_have_count(0)
    championship.refresh_from_db()
    assert championship.published
    assert outside_requests == []
