"""The federation register in a browser (issue 2): national staff on the site, international staff in the admin,
a disguised upload refused, login lockout, and the person page on a phone."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone
from django.utils.dateformat import format as date_format
from playwright.sync_api import expect

from federation.models import Passport, Person
from tests.e2e.live_helpers import fits_the_screen, open_menu
from tests.factories import (
    TEST_PASSWORD,
    FederationFactory,
    PassportFactory,
    PersonFactory,
    federation_staff,
    international_staff,
    png_upload,
)

from .conftest import log_in

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
PHONE = {"width": 390, "height": 844}
HTML_AS_PNG = b"<!doctype html><html><body><script>alert(document.cookie)</script></body></html>"


@pytest.fixture
def italy():
    return FederationFactory(name="Federazione Italiana Test", short_name="FIT", country="IT")


@pytest.fixture
def germany():
    return FederationFactory(name="Deutscher Verband Test", short_name="DVT", country="DE")


def expired_passport_holder(federation, **person_fields):
    """A senior player whose only passport (with a PNG scan) expired in 2020: not eligible anywhere (1.1 B)."""
    person = PersonFactory(federation=federation, **person_fields)
    passport = PassportFactory(
        person=person,
        issuing_country=federation.country,
        expiry_date=datetime.date(2020, 1, 31),
        scan=png_upload("scan.png"),
        scan_content_type="image/png",
    )
    return person, passport


def stored_private_files() -> list[Path]:
    root = Path(settings.STORAGES["private"]["OPTIONS"]["location"])
    return [path for path in root.rglob("*") if path.is_file()] if root.exists() else []


def test_national_staff_find_their_player_see_why_he_is_ineligible_and_download_the_scan(
    page, italy, germany, outside_requests
):
    staff = federation_staff(italy, username="fit-staff")
    person, passport = expired_passport_holder(italy, first_name="Marco", last_name="Bertolini")
    PersonFactory(federation=italy, first_name="Luca", last_name="Verdi")
    stranger, stranger_passport = expired_passport_holder(germany, first_name="Marco", last_name="Bergmann")

    # Through the login page, typing as a person would.
    page.goto("/")
    page.get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill(staff.username)
    page.get_by_label("Password").fill(TEST_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name=f"Log out {staff.username}")).to_be_visible()

    open_menu(page)
    page.get_by_role("link", name="People", exact=True).click()
    expect(page.get_by_role("heading", name="People")).to_be_visible()
    page.get_by_label("Name").fill("Marco")
    page.get_by_role("button", name="Filter").click()
    rows = page.locator("table tbody tr")
    # Only their federation's Marco: the German one is not in their records.
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("BERTOLINI Marco")
    expect(page.locator("table")).not_to_contain_text(re.compile("Bergmann", re.I))

    rows.first.get_by_role("link").click()
    expect(page).to_have_url(re.compile(rf"/federation/people/{person.pk}/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Marco Bertolini")

    # Eligibility per category, each refusal with its article: the passport expired (1.1 B, R-03).
    eligibility = page.locator("section", has=page.get_by_role("heading", name="Eligibility", exact=True))
    senior_men = eligibility.locator("tbody tr", has_text="Senior Men")
    expect(senior_men.locator("td").nth(1)).to_have_text("No")
    expect(senior_men.locator("ul.reasons")).to_contain_text("Rule 1.1 B")
    expect(senior_men.locator("ul.reasons")).to_contain_text("2020-01-31")
    expect(eligibility.locator("tbody tr")).to_have_count(6)
    # A man is not eligible for a women's category, and the page says by which article (1.1 E, R-02).
    expect(eligibility.locator("tbody tr", has_text="Senior Women").locator("ul.reasons")).to_contain_text(
        "Rule 1.1 E / R-02"
    )

    # The scan downloads as an attachment, never rendered in the tab.
    passports = page.locator("section", has=page.get_by_role("heading", name="Passports"))
    download_link = passports.get_by_role("link", name="Download")
    with page.expect_download() as download_info:
        download_link.click()
    download = download_info.value
    assert download.suggested_filename == f"passport-{passport.pk}.png"
    assert Path(download.path()).read_bytes().startswith(PNG_MAGIC)
    response = page.request.get(download_link.get_attribute("href"))
    assert response.status == 200
    assert response.headers["content-disposition"].startswith("attachment")
    assert response.headers["x-content-type-options"] == "nosniff"

    # Another federation's person and passport scan: not found, as if they did not exist.
    response = page.goto(f"/federation/people/{stranger.pk}/")
    assert response.status == 404
    expect(page.get_by_role("heading", name="Not Found")).to_be_visible()
    expect(page.locator("body")).not_to_contain_text(re.compile("Bergmann", re.I))
    response = page.request.get(f"/federation/passports/{stranger_passport.pk}/scan/")
    assert response.status == 404
    assert "content-disposition" not in response.headers
    assert not response.body().startswith(PNG_MAGIC)
    response = page.goto(f"/federation/passports/{stranger_passport.pk}/scan/")
    assert response.status == 404
    expect(page.get_by_role("heading", name="Not Found")).to_be_visible()
    assert outside_requests == []


def test_international_staff_review_a_person_and_its_history_in_the_admin(page, italy, germany, screenshot):
    staff = international_staff(username="ihtc-staff")
    person, passport = expired_passport_holder(italy, first_name="Marco", last_name="Bertolini")
    PersonFactory(federation=germany, first_name="Marco", last_name="Bergmann")
    PersonFactory(federation=italy, first_name="Luca", last_name="Verdi")
    log_in(page, username=staff.username, password=TEST_PASSWORD, admin=True)
    expect(page.locator("#site-name")).to_contain_text("IHTC Portal administration")

    open_menu(page)
    page.get_by_role("link", name="People", exact=True).click()
    expect(page).to_have_url(re.compile(r"/admin/federation/person/$"))
    # International staff see every federation's people.
    expect(page.locator("#result_list tbody tr")).to_have_count(3)
    page.locator("#searchbar").fill("Marco")
    page.locator("#changelist-search [type=submit]").click()
    expect(page.locator("#result_list tbody tr")).to_have_count(2)
    # Narrowed further with the federation filter (the sidebar of the changelist).
    page.locator("#changelist-filter").get_by_role("link", name="Federazione Italiana Test").click()
    expect(page).to_have_url(re.compile(r"federation__id__exact="))
    expect(page.locator("#result_list tbody tr")).to_have_count(1)
    expect(page.locator("#result_list")).not_to_contain_text(re.compile("Bergmann", re.I))

    page.locator("#result_list").get_by_role("link", name=re.compile("Bertolini", re.I)).click()
    expect(page).to_have_url(re.compile(rf"/admin/federation/person/{person.pk}/change/"))
    # Passports inline, with the scan linked through the guarded view (no storage path).
    passports = page.locator("#passports-group")
    expect(passports.locator(f"input[value='{passport.number}']")).to_be_visible()
    expect(passports.locator("a", has_text="stored scan")).to_have_attribute(
        "href", f"/federation/passports/{passport.pk}/scan/"
    )
    # The eligibility section: verdict and reason with its article per category.
    eligibility = page.locator(".field-eligibility")
    senior_men = eligibility.locator("tr", has_text="Senior Men")
    expect(senior_men).to_contain_text("not eligible")
    expect(senior_men.locator("li strong").first).to_have_text("1.1 B")
    expect(senior_men).to_contain_text("2020-01-31")
    screenshot(page, "e2e-admin-person-change")

    # A change through the admin appears in the History with who made it and when.
    page.locator("#id_last_name").fill("Bertolini-Rossi")
    page.locator("input[name=_continue]").click()
    expect(page.locator(".messagelist")).to_contain_text("was changed successfully")
    page.get_by_role("link", name="History").click()
    expect(page).to_have_url(re.compile(rf"/admin/federation/person/{person.pk}/history/"))
    person.refresh_from_db()
    assert person.last_name == "Bertolini-Rossi"
    latest = person.history.first()
    assert (latest.history_user, latest.history_type) == (staff, "~")
    rows = page.locator("#change-history tbody tr")
    # Newest first: the admin's change by the staff member, then the creation (by the factory, no user).
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("Changed")
    expect(rows.first).to_contain_text(str(staff))
    expect(rows.first).to_contain_text(date_format(timezone.localtime(latest.history_date), "j M Y"))
    expect(rows.first).to_contain_text("Bertolini-Rossi")
    expect(rows.last).to_contain_text("Created")


def test_an_html_page_renamed_png_is_refused_as_a_passport_scan_and_nothing_is_stored(page, italy):
    staff = federation_staff(italy, username="fit-staff")
    person = PersonFactory(federation=italy, first_name="Marco", last_name="Bertolini")
    log_in(page, username=staff.username, password=TEST_PASSWORD, admin=True)

    page.goto(f"/admin/federation/person/{person.pk}/change/")
    passports = page.locator("#passports-group")
    passports.locator(".add-row a", has_text="Add another Passport").click()
    row = passports.locator("tr.form-row.dynamic-passports").last
    row.locator("select[name$=issuing_country]").select_option("IT")
    row.locator("input[name$=number]").fill("YA1234567")
    row.locator("input[name$=expiry_date]").fill("2031-06-30")
    row.locator("input[type=file][name$=scan]").set_input_files(
        files=[{"name": "scan.png", "mimeType": "image/png", "buffer": HTML_AS_PNG}]
    )
    page.locator("input[name=_save]").click()

    # The admin stays on the form and says what is wrong, beside the scan field.
    expect(page.locator(".errornote")).to_be_visible()
    scan_cell = page.locator("#passports-group td.field-scan", has=page.locator(".errorlist"))
    expect(scan_cell.locator(".errorlist")).to_contain_text("Only JPEG, PNG or PDF files are accepted")
    expect(page.locator("input[name$=number][value=YA1234567]")).to_be_visible()
    assert not Passport.objects.exists()
    assert stored_private_files() == []
    assert Person.objects.get(pk=person.pk).last_name == "Bertolini"


def test_five_wrong_passwords_lock_the_login_and_the_right_one_is_then_refused(page):
    staff = federation_staff(username="fit-staff")
    for attempt in range(1, 6):
        page.goto("/accounts/login/")
        page.get_by_label("Username").fill(staff.username)
        page.get_by_label("Password").fill(f"wrong-guess-{attempt}")
        page.get_by_role("button", name="Log in").click()
        if attempt < 5:
            expect(page.locator(".errorlist")).to_contain_text("Please enter a correct username and password")
    # The fifth failure locks the username on this address (django-axes: 5 failures, 1 hour; accounts.lockout).
    expect(page.locator("body")).to_contain_text("Login locked")
    expect(page.locator("body")).to_contain_text("locked for 1 hour")

    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(staff.username)
    page.get_by_label("Password").fill(TEST_PASSWORD)
    with page.expect_response(lambda r: r.url.endswith("/accounts/login/") and r.request.method == "POST") as info:
        page.get_by_role("button", name="Log in").click()
    assert info.value.status == 429
    expect(page.locator("body")).to_contain_text("Too many wrong passwords for this login")
    page.goto("/")
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    open_menu(page)
    expect(page.get_by_role("button", name=re.compile("Log out"))).to_have_count(0)


def test_the_person_page_fits_a_phone_without_sideways_scrolling(page, italy, screenshot, outside_requests):
    staff = federation_staff(italy, username="fit-staff")
    person, _ = expired_passport_holder(
        italy, first_name="Marco", last_name="Bertolini", is_goalkeeper=True, is_team_official=True
    )
    page.set_viewport_size(PHONE)
    log_in(page, username=staff.username, password=TEST_PASSWORD)
    page.goto(f"/federation/people/{person.pk}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Marco Bertolini")
    expect(page.get_by_role("heading", name="Eligibility", exact=True)).to_be_visible()
    # Nothing passes the screen's edge: under 600 px a table's rows are cards (issue 26).
    fits_the_screen(page)
    overflowing = page.evaluate(
        """() => [...document.querySelectorAll('main *')]
            .filter(el => el.getBoundingClientRect().right > window.innerWidth + 1)
            .map(el => el.tagName + '.' + el.className)"""
    )
    assert overflowing == []
    # The reasons stay readable: in the eligibility card, under the column's name.
    expect(page.locator("td[data-label='Reasons']", has=page.locator("ul.reasons")).first).to_be_visible()
    shot = screenshot(page, "e2e-person-phone")
    assert shot.read_bytes().startswith(PNG_MAGIC)
    page.set_viewport_size({"width": 1280, "height": 900})
    screenshot(page, "e2e-person-desktop")
    assert outside_requests == []
