"""Layout of the admin person page at a laptop's size: nothing pushed off the page (issue 2, federation/admin.css)."""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from tests.factories import FederationFactory, PassportFactory, PersonFactory, png_upload

LAPTOP = {"width": 1280, "height": 800}


@pytest.fixture
def ineligible_person():
    """A man whose passport (with a scan) expired in 2020: reasons in every category (1.1 B-G, R-02)."""
    person = PersonFactory(federation=FederationFactory(country="IT"), date_of_birth=datetime.date(1998, 5, 17))
    PassportFactory(
        person=person,
        issuing_country="IT",
        expiry_date=datetime.date(2020, 1, 31),
        scan=png_upload("scan.png"),
        scan_content_type="image/png",
    )
    return person


def box(locator) -> dict:
    found = locator.bounding_box()
    assert found is not None, f"{locator} is not laid out"
    return found


def test_the_admin_person_page_has_no_sideways_overflow_and_reasons_sit_under_their_heading(
    admin_page, ineligible_person, screenshot
):
    page = admin_page
    page.set_viewport_size(LAPTOP)
    page.goto(f"/admin/federation/person/{ineligible_person.pk}/change/")
    table = page.locator(".field-eligibility table.eligibility-table")
    expect(table).to_be_visible()
    screenshot(page, "e2e-admin-person-layout-1280")

    # No horizontal page overflow at 1280x800 (the passports inline used to widen the page to ~1430px).
    widths = page.evaluate(
        "() => ({scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth})"
    )
    assert widths["scroll"] <= widths["client"], widths

    # The passports inline stays within the content column; a table wider than it scrolls inside its module.
    content = box(page.locator("#content-main"))
    passports = box(page.locator("#passports-group fieldset.module"))
    assert passports["x"] + passports["width"] <= content["x"] + content["width"] + 1, (passports, content)
    assert page.locator("#passports-group fieldset.module").evaluate("e => getComputedStyle(e).overflowX") == "auto"

    # The reasons start at their column's heading, not 160px to its right (Django's `form .aligned ul`).
    heading = box(table.locator("th", has_text="Reasons (article)"))
    reasons = table.locator("tr", has_text="Senior Men").locator("ul.eligibility-reasons")
    first_reason = box(reasons.locator("li").first)
    assert abs(first_reason["x"] - heading["x"]) <= 16, (first_reason, heading)
    expect(reasons.locator("li strong").first).to_have_text("1.1 B")
    # The verdict is coloured by the stylesheet, not an inline style.
    verdict = table.locator("tr", has_text="Senior Men").locator(".verdict-not-eligible")
    expect(verdict).to_have_css("color", "rgb(176, 0, 32)")
