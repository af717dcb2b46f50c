"""Browser journey of the language switch (issue 12, issue 25): a logged-in staff member changes the language of
their pages with the header's switch, and their choice is stored for their e-mails and their next browser."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.live_helpers import open_menu
from tests.factories import FederationFactory, federation_staff


def _switch(page, language: str) -> None:
    """Choose ``language`` in the header's switch and press its button, as a person does."""
    open_menu(page)
    switch = page.locator("form.language-switch")
    switch.locator("select[name=language]").select_option(language)
    switch.locator("[type=submit]").click()
    page.wait_for_load_state()


def test_a_logged_in_staff_member_switches_the_home_to_french_then_spanish(
    page, login_as, screenshot, accessible, outside_requests
):
    staff = federation_staff(FederationFactory(name="Fédération A"))
    login_as(staff)
    expect(page.get_by_role("heading", name="Your federation")).to_be_visible()

    _switch(page, "fr")
    expect(page).to_have_url(re.compile(r"^http://[^/]+/$"))  # back on the home (a 500 stayed on /i18n/setlang/)
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", name="Votre fédération")).to_be_visible()
    expect(page.get_by_label("Langue")).to_have_value("fr")
    staff.refresh_from_db()
    assert staff.language == "fr"  # the e-mails follow the stored choice
    accessible(page, "the staff home in French")
    screenshot(page, "home-in-french")

    _switch(page, "es")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.get_by_role("heading", name="Su federación")).to_be_visible()
    expect(page.get_by_role("heading", name="Personas con un problema de elegibilidad")).to_be_visible()
    expect(page.get_by_label("Idioma")).to_have_value("es")
    staff.refresh_from_db()
    assert staff.language == "es"
    screenshot(page, "home-in-spanish")
    assert outside_requests == []
