"""Journey 1 (issue 12): federation staff register a junior player with a passport scan, see why he is not
eligible for Junior Men (his passport expires before the championship's last day, Rule 1.1 B / R-03), ask the
IHTC for a waiver; the IHTC executive grants it from the queue with a reason; the player is eligible."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from federation.models import EligibilityWaiver, Passport, Person, WaiverRequest, WaiverRequestStatus
from portal.models import Notification
from tests.factories import FederationFactory, federation_staff, ihtc_executive, png_upload

YEAR = timezone.localdate().year + 1  # next year's championship (the assumed one runs 1-10 July)


@pytest.fixture
def italy():
    return FederationFactory(name="Federazione Italiana Test", short_name="FIT", country="IT")


def junior_men_row(page):
    return page.locator("table.assumed tbody tr", has_text="Junior Men")


def test_staff_register_a_junior_the_ihtc_waives_his_expiring_passport_and_he_becomes_eligible(
    page, login_as, italy, screenshot, accessible, outside_requests, tmp_path
):
    staff = federation_staff(italy, username="fit-secretary")
    executive = ihtc_executive(username="ihtc-executive")
    scan = tmp_path / "passport.png"
    scan.write_bytes(png_upload().read())

    # The federation's secretary registers a player from the people list; the federation is theirs, preset.
    login_as(staff)
    page.goto("/federation/people/")
    page.get_by_role("link", name="Register a person").click()
    page.wait_for_url("**/federation/people/register/")
    federation = page.get_by_label("Federation")
    expect(federation).to_be_disabled()
    expect(federation).to_have_value(str(italy.pk))
    accessible(page, "the registration form")
    page.get_by_label("First name").fill("Luca")
    page.get_by_label("Last name").fill("Bianchi")
    page.get_by_label("Date of birth").fill(f"{YEAR - 16}-03-03")  # 15 on 1 January: a junior (1.1 C)
    page.get_by_label("Gender").select_option(label="Male")
    page.get_by_label("Nationality").select_option(label="Italy")
    page.get_by_label("Player", exact=True).check()
    # The passport expires at the end of May: before the July championship's last day (1.1 B, R-03).
    page.get_by_label("Passport issued by").select_option(label="Italy")
    page.get_by_label("Passport number").fill("YA 1234567")
    page.get_by_label("Passport expiry date").fill(f"{YEAR}-05-31")
    page.get_by_label("Passport scan").set_input_files(str(scan))
    screenshot(page, "registration-form-filled")
    page.get_by_role("button", name="Register").click()
    page.wait_for_url(re.compile(r"/federation/people/\d+/$"))
    person = Person.objects.get(last_name="Bianchi")
    assert person.federation == italy
    passport = Passport.objects.get(person=person)
    assert (passport.number, passport.scan_content_type) == ("YA1234567", "image/png")
    expect(page.locator(".messages")).to_contain_text("is registered")
    expect(page.get_by_role("link", name="Download")).to_be_visible()  # the scan, through the guarded view

    # Next year's championship: why is he not eligible for Junior Men? The reason cites 1.1 B / R-03.
    page.get_by_label("Championship year", exact=True).fill(str(YEAR))
    page.get_by_role("button", name="Check").click()
    page.wait_for_url(f"**/federation/people/{person.pk}/?year={YEAR}")
    row = junior_men_row(page)
    expect(row).to_contain_text("No")
    expect(row).to_contain_text("Rule 1.1 B / R-03")
    expect(row).to_contain_text(f"expires on {YEAR}-05-31")
    accessible(page, "the person page: not eligible, with the reason")
    screenshot(page, "not-eligible-for-junior-men")

    # The secretary asks the IHTC to waive the expired passport for Junior Men, next year.
    page.get_by_label("Requirement to waive").select_option("passport_expired")
    page.get_by_label("Category").select_option(label="Junior Men")
    expect(page.get_by_label("Championship year of the waiver")).to_have_value(str(YEAR))
    page.get_by_label("Justification").fill("Renewal applied for in March; the new passport is issued in August.")
    page.get_by_role("button", name="Request the waiver").click()
    page.wait_for_url(f"**/federation/people/{person.pk}/?year={YEAR}")
    expect(page.locator(".messages")).to_contain_text("waits for the IHTC's decision (R-03)")
    expect(page.locator("#waiver-requests")).to_contain_text("Requested")
    expect(junior_men_row(page)).to_contain_text("No")  # asked, not granted: still not eligible
    accessible(page, "the person page with the waiting request")
    screenshot(page, "waiver-requested")
    request = WaiverRequest.objects.get(person=person)
    assert request.status == WaiverRequestStatus.REQUESTED

    # The IHTC executive logs in and finds the request in the queue, oldest first; grants it with a reason.
    page.context.clear_cookies()
    login_as(executive)
    page.goto("/federation/people/")
    page.get_by_role("link", name="Waiver requests").click()
    page.wait_for_url("**/federation/waiver-requests/")
    item = page.get_by_role("article", name=re.compile("Luca Bianchi"))
    expect(item).to_contain_text("Passport expired by the championship's last day")
    expect(item).to_contain_text("Renewal applied for in March")
    accessible(page, "the IHTC's queue of waiver requests")
    screenshot(page, "executive-queue")
    # A grant without a reason is refused, naming the field and R-03; nothing is decided.
    item.get_by_role("button", name="Grant").click()
    page.wait_for_load_state()
    item = page.get_by_role("article", name=re.compile("Luca Bianchi"))
    expect(item.locator(".errorlist")).to_contain_text("R-03")
    assert not EligibilityWaiver.objects.exists()
    accessible(page, "the queue with the missing reason")
    item.get_by_label("Reason").fill("Renewal receipt from the Questura seen; identity confirmed by the FIT.")
    item.get_by_role("button", name="Grant").click()
    page.wait_for_url("**/federation/waiver-requests/")
    expect(page.locator(".messages")).to_contain_text("Granted")
    expect(page.get_by_text("No request waits.")).to_be_visible()
    screenshot(page, "waiver-granted")
    request.refresh_from_db()
    assert request.status == WaiverRequestStatus.GRANTED and request.decided_by == executive
    waiver = EligibilityWaiver.objects.get(person=person)
    assert (waiver.code, waiver.category, waiver.year, waiver.approved_by) == (
        "passport_expired",
        "junior_men",
        YEAR,
        executive,
    )
    # The secretary is told (R-03: the IHTC's decision, with its reason).
    note = Notification.objects.get(user=staff)
    assert "granted" in note.subject.lower() and "Questura" in note.body

    # The secretary sees the player eligible for Junior Men, the waived reason shown with who granted it.
    page.context.clear_cookies()
    login_as(staff)
    page.goto(f"/federation/people/{person.pk}/?year={YEAR}")
    row = junior_men_row(page)
    expect(row).to_contain_text("Yes")
    expect(row).to_contain_text(f"Waived by {executive}: Rule 1.1 B / R-03")
    expect(page.locator("#waiver-requests")).to_contain_text("Granted")
    accessible(page, "the person page: eligible after the waiver")
    screenshot(page, "eligible-for-junior-men")
    assert outside_requests == []
