"""The IHTC's approvals queue in a browser (3.2.8 C, 3.2.6 A): international staff open "Approvals" from the main
navigation, approve one protective device request, reject another with its reason (a rejection without one is
refused and stores nothing), and see a helmet without certification refused approval (3.2.6 A)."""

from __future__ import annotations

import datetime
import re

from django.utils import timezone

from federation.models import DeviceRequestStatus, ProtectiveDeviceRequest
from portal.models import Notification
from tests.e2e.live_helpers import open_menu
from tests.factories import (
    EquipmentModelFactory,
    PersonFactory,
    ProtectiveDeviceRequestFactory,
    federation_staff,
    international_staff,
)


def test_staff_approve_one_device_request_and_reject_another_with_a_reason(
    page, login_as, screenshot, outside_requests, accessible
):
    knee = ProtectiveDeviceRequestFactory(
        person=PersonFactory(first_name="Lena", last_name="Roth"),
        description="Padded knee brace after ligament surgery",
        submitted_at=timezone.now() - datetime.timedelta(days=3),
    )
    knee.submitted_by = federation_staff(knee.person.federation)
    knee.save()
    eyewear = ProtectiveDeviceRequestFactory(
        person=PersonFactory(first_name="Marco", last_name="Bellini"),
        description="Sports goggles with metal frame",
        submitted_at=timezone.now() - datetime.timedelta(days=1),
    )
    EquipmentModelFactory(
        manufacturer="NoName", model_name="Lid 1", certifications=[], approved=False, approved_on=None
    )
    staff = international_staff(username="ihtc-e2e")

    # The IHTC's member finds the queue in the main navigation.
    login_as(staff)
    page.goto("/")
    open_menu(page)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Approvals").click()
    page.wait_for_url("**/federation/approvals/")
    main = page.locator("main")
    assert "2 device requests wait" in main.inner_text()
    assert "1 equipment model waits" in main.inner_text()
    # Oldest first: the knee brace, submitted three days ago, leads the list.
    rows = page.locator("#devices-heading + .table-wrap tbody tr")
    assert "ROTH Lena" in rows.nth(0).inner_text() and "BELLINI Marco" in rows.nth(1).inner_text()
    assert rows.nth(0).get_by_role("link", name=re.compile("^Prescription")).is_visible()
    accessible(page, "the approvals queue")
    screenshot(page, "approvals-queue")

    # 3.2.8 C: the IHTC allows the knee brace.
    page.locator(f"#device-request-{knee.pk}").get_by_role("button", name=re.compile("^Approve")).click()
    page.wait_for_load_state()
    knee.refresh_from_db()
    assert knee.status == DeviceRequestStatus.APPROVED and knee.decided_by == staff
    assert "approved" in page.locator(".messages").inner_text()
    assert "1 device request waits" in main.inner_text()
    # The federation staff who submitted it are told.
    assert Notification.objects.filter(user=knee.submitted_by, subject__contains="approved").exists()

    # A rejection without its reason is refused: the field and the rule are named, nothing is stored.
    row = page.locator(f"#device-request-{eyewear.pk}")
    row.get_by_role("button", name=re.compile("^Reject")).click()
    page.wait_for_load_state()
    row = page.locator(f"#device-request-{eyewear.pk}")
    error = row.locator(".errorlist").inner_text()
    assert "Reason" in error and "3.2.8 C" in error
    assert ProtectiveDeviceRequest.objects.get(pk=eyewear.pk).status == DeviceRequestStatus.SUBMITTED
    accessible(page, "the approvals queue with a form error")
    screenshot(page, "approvals-reject-without-reason")

    # With the reason, the goggles are refused.
    row.get_by_label("Reason (required to reject)").fill("Metal frame: dangerous equipment (3.2.8 A).")
    row.get_by_role("button", name=re.compile("^Reject")).click()
    page.wait_for_load_state()
    eyewear.refresh_from_db()
    assert eyewear.status == DeviceRequestStatus.REJECTED
    assert eyewear.decision_reason == "Metal frame: dangerous equipment (3.2.8 A)."
    assert "No device request here." in main.inner_text()
    screenshot(page, "approvals-after-decisions")

    # The decided requests, with the reason, under the "Rejected" filter (keyboard: select and submit).
    page.get_by_label("Status").select_option("rejected")
    page.get_by_role("button", name="Filter").press("Enter")
    page.wait_for_url("**/federation/approvals/?status=rejected*")
    assert "Metal frame: dangerous equipment" in main.inner_text()
    accessible(page, "the rejected requests")

    # 3.2.6 A: a helmet with no HECC, CSA or CE approval cannot be approved.
    page.goto("/federation/approvals/")
    page.locator("#equipment-heading + .table-wrap tbody tr").get_by_role("button", name=re.compile("^Approve")).click()
    page.wait_for_load_state()
    assert "Certifications: Rule 3.2.6 A" in main.inner_text()
    accessible(page, "the equipment approval refused")
    screenshot(page, "approvals-equipment-refused")

    assert outside_requests == []
