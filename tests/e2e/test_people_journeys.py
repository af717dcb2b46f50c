"""Keeping people's records in the browser (issue 25), from the role's home, by clicking: national staff register a
person (warned of a namesake first), edit a person, add and renew a passport with its scan, download the people list;
international staff merge two records of one person."""

from __future__ import annotations

import csv
import datetime
import io
import re
from pathlib import Path

import openpyxl
import pytest
from playwright.sync_api import expect

from federation.models import Passport, Person
from tests.e2e.live_helpers import fits_the_screen, open_menu
from tests.factories import (
    FederationFactory,
    PassportFactory,
    PersonFactory,
    RosterEntryFactory,
    TeamEntryFactory,
    federation_staff,
    international_staff,
    jpeg_upload,
)

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
JPEG = jpeg_upload().read()


def _switch(page, language: str) -> None:
    open_menu(page)
    switch = page.locator("form.language-switch")
    switch.locator("select[name=language]").select_option(language)
    switch.locator("[type=submit]").click()
    page.wait_for_load_state()


def _scan(tmp_path: Path) -> str:
    path = tmp_path / "passport.jpg"
    path.write_bytes(JPEG)
    return str(path)


@pytest.fixture
def italy():
    return FederationFactory(name="Federazione Italiana Test", short_name="FIT", country="IT")


def test_staff_register_a_namesake_only_after_the_warning_then_edit_and_renew_a_passport(
    page, login_as, italy, tmp_path, screenshot, accessible
):
    staff = federation_staff(italy, username="fit-people")
    known = PersonFactory(
        federation=italy, first_name="Marco", last_name="Rossi", date_of_birth=datetime.date(2001, 2, 3)
    )
    login_as(staff)

    # 1. Register: a person with the same name and date of birth exists; the page warns with a link, stores nothing.
    open_menu(page)
    page.get_by_role("link", name="People", exact=True).click()
    page.get_by_role("link", name="Register a person").click()
    page.get_by_label("First name").fill("Marco")
    page.get_by_label("Last name").fill("Rossi")
    page.get_by_label("Date of birth").fill("2001-02-03")
    page.get_by_label("Gender").select_option("M")
    page.get_by_label("Nationality").select_option("IT")
    page.get_by_label("Player", exact=True).check()
    page.get_by_role("button", name="Register", exact=True).click()
    warning = page.locator("#possible-duplicates")
    expect(warning).to_contain_text("Possible duplicate")
    expect(warning.get_by_role("link", name="ROSSI Marco")).to_have_attribute("href", f"/federation/people/{known.pk}/")
    assert Person.objects.filter(last_name="Rossi").count() == 1
    accessible(page, "the duplicate warning")
    screenshot(page, "duplicate-warning")
    warning.get_by_role("button", name="Register anyway").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Marco Rossi")
    created = Person.objects.exclude(pk=known.pk).get(last_name="Rossi")
    expect(page).to_have_url(re.compile(rf"/federation/people/{created.pk}/$"))

    # 2. Edit, in French: the form is read, changed and saved.
    _switch(page, "fr")
    page.get_by_role("link", name="Modifier cette personne").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Modifier Marco Rossi")
    accessible(page, "the edit form in French")
    page.get_by_label("Prénom").fill("Marcello")
    page.get_by_label("Gardien de but").check()
    page.get_by_role("button", name="Enregistrer les modifications").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Marcello Rossi")
    created.refresh_from_db()
    assert created.first_name == "Marcello" and created.is_goalkeeper
    _switch(page, "en")

    # 3. Add a passport with its scan, then renew it at phone width: the old one stays.
    page.get_by_role("link", name="Add a passport").click()
    page.get_by_label("Issued by").select_option("IT")
    page.get_by_label("Passport number").fill("YA 111 222")
    page.get_by_label("Expiry date").fill("2027-03-31")
    page.get_by_label("Passport scan").set_input_files(_scan(tmp_path))
    accessible(page, "the passport form")
    page.get_by_role("button", name="Record the passport").click()
    expect(page.locator(".messages")).to_contain_text("The passport is recorded with its scan.")
    page.set_viewport_size(PHONE)
    page.get_by_role("link", name="Renew passport YA111222").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Renew a passport")
    fits_the_screen(page)
    page.get_by_label("Passport number").fill("YB333444")
    page.get_by_label("Expiry date").fill("2037-03-31")
    page.get_by_label("Passport scan").set_input_files(_scan(tmp_path))
    screenshot(page, "renew-at-phone-width")
    page.get_by_role("button", name="Record the renewed passport").click()
    passports = page.locator("section", has=page.get_by_role("heading", name="Passports"))
    expect(passports.locator("tbody tr")).to_have_count(2)
    expect(passports).to_contain_text("YA111222")
    expect(passports).to_contain_text("YB333444")
    fits_the_screen(page)
    screenshot(page, "person-with-two-passports")
    renewed = Passport.objects.get(number="YB333444")
    assert renewed.person_id == created.pk and renewed.scan_content_type == "image/jpeg"
    assert Passport.objects.filter(number="YA111222", person=created).exists()


def test_staff_download_their_filtered_people_as_csv_and_xlsx(page, login_as, italy, accessible):
    staff = federation_staff(italy)
    player = PersonFactory(federation=italy, first_name="Anna", last_name="Bianchi", is_player=True)
    PassportFactory(person=player, issuing_country="IT", number="PP7")
    PersonFactory(federation=italy, first_name="Ugo", last_name="Neri", is_player=False, is_referee=True)
    PersonFactory(federation=FederationFactory(country="DE"), last_name="Schmidt", is_player=True)
    login_as(staff)
    open_menu(page)
    page.get_by_role("link", name="People", exact=True).click()
    page.get_by_label("Role").select_option("player")
    page.get_by_role("button", name="Filter").click()
    accessible(page, "the people list with its downloads")
    with page.expect_download() as csv_download:
        page.get_by_role("link", name="CSV").click()
    rows = list(csv.reader(io.StringIO(Path(csv_download.value.path()).read_text("utf-8-sig"))))
    assert [row[0] for row in rows[1:]] == ["Bianchi"]  # the filter kept; no other federation's people
    assert rows[1][rows[0].index("Passport number")] == "PP7"
    with page.expect_download() as xlsx_download:
        page.get_by_role("link", name="Excel (XLSX)").click()
    sheet = openpyxl.load_workbook(io.BytesIO(Path(xlsx_download.value.path()).read_bytes())).active
    assert [row[0] for row in sheet.iter_rows(min_row=2, values_only=True)] == ["Bianchi"]


def test_international_staff_merge_two_records_keeping_the_roster_line_and_passport(
    page, login_as, italy, screenshot, accessible
):
    born = datetime.date(1999, 9, 9)
    keep = PersonFactory(federation=italy, first_name="Paolo", last_name="Verdi", date_of_birth=born)
    duplicate = PersonFactory(federation=italy, first_name="Paolo", last_name="Verdi", date_of_birth=born)
    PassportFactory(person=duplicate, issuing_country="IT", number="DUP1")
    line = RosterEntryFactory(entry=TeamEntryFactory(federation=italy), person=duplicate, number="14")
    login_as(international_staff(username="ihtc-merge"))

    open_menu(page)
    page.get_by_role("link", name="People", exact=True).click()
    page.get_by_label("Name").fill("Verdi")
    page.get_by_role("button", name="Filter").click()
    page.get_by_role("link", name="VERDI Paolo").first.click()
    expect(page).to_have_url(re.compile(rf"/federation/people/{keep.pk}/$"))
    page.get_by_role("link", name="Merge a duplicate into this record").click()
    accessible(page, "choosing the duplicate")
    page.get_by_role("link", name=re.compile("Compare with VERDI Paolo")).click()
    table = page.locator("table.compare")
    expect(table).to_contain_text("Passports: 1")
    accessible(page, "the two records side by side")
    screenshot(page, "merge-side-by-side")
    page.get_by_role("button", name="Merge the two records").click()
    expect(page.locator(".messages")).to_contain_text("is merged into this record")
    expect(page).to_have_url(re.compile(rf"/federation/people/{keep.pk}/$"))
    expect(page.locator("section", has=page.get_by_role("heading", name="Passports"))).to_contain_text("DUP1")
    assert not Person.objects.filter(pk=duplicate.pk).exists()
    line.refresh_from_db()
    assert line.person_id == keep.pk
