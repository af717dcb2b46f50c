"""The approvals queue (3.2.6 A, 3.2.8 C): the IHTC's device and equipment decisions on their own page."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import Role
from federation import services
from federation.models import DeviceRequestStatus, EquipmentKind, EquipmentModel, ProtectiveDeviceRequest
from portal.models import Notification
from tests.factories import (
    EquipmentModelFactory,
    FederationFactory,
    PersonFactory,
    ProtectiveDeviceRequestFactory,
    UserFactory,
    federation_staff,
    international_staff,
    with_role,
)

pytestmark = pytest.mark.django_db

QUEUE = reverse("federation:approvals")


def device_url(item):
    return reverse("federation:approvals-device-decide", args=[item.pk])


def equipment_url(item):
    return reverse("federation:approvals-equipment-decide", args=[item.pk])


def waiting_model(**kwargs):
    defaults = {"approved": False, "approved_on": None, "certifications": ["CSA"]}
    return EquipmentModelFactory(**{**defaults, **kwargs})


@pytest.fixture
def ihtc(client):
    user = international_staff()
    client.force_login(user)
    client.user = user
    return client


# --- Who sees the queue -------------------------------------------------------------------


@pytest.mark.parametrize(
    "make_user",
    [
        lambda: federation_staff(FederationFactory()),
        lambda: with_role(Role.TEAM_MANAGER),
        lambda: with_role(Role.GAME_OFFICIAL),
        lambda: UserFactory(),
    ],
    ids=["national staff", "team manager", "game official", "plain user"],
)
def test_only_the_ihtc_has_the_queue_and_its_link(client, make_user):
    item = ProtectiveDeviceRequestFactory()
    user = make_user()
    client.force_login(user)
    assert client.get(QUEUE).status_code == 403
    assert client.post(device_url(item), {"decision": "approve"}).status_code in (403, 404)
    assert ProtectiveDeviceRequest.objects.get(pk=item.pk).status == DeviceRequestStatus.SUBMITTED
    assert QUEUE not in client.get(reverse("home")).content.decode()


def test_anonymous_is_sent_to_log_in(client):
    response = client.get(QUEUE)
    assert response.status_code == 302 and "login" in response.url


def test_the_ihtc_sees_both_lists_oldest_first_with_the_count_and_the_nav_link(ihtc):
    newer = ProtectiveDeviceRequestFactory(description="Newer brace")
    older = ProtectiveDeviceRequestFactory(description="Older brace")
    older.submitted_at = newer.submitted_at.replace(year=newer.submitted_at.year - 1)
    older.save()
    ProtectiveDeviceRequestFactory(status=DeviceRequestStatus.APPROVED, description="Decided brace")
    waiting_model(manufacturer="Bauer", model_name="Re-Akt")
    EquipmentModelFactory(manufacturer="CCM", model_name="Approved one")
    response = ihtc.get(QUEUE)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.index("Older brace") < html.index("Newer brace")
    assert "Decided brace" not in html and "Approved one" not in html
    assert "Re-Akt" in html
    assert "2 device requests wait" in html and "1 equipment model waits" in html
    assert reverse("federation:device-prescription", args=[older.pk]) in html
    assert f'href="{QUEUE}"' in html


def test_filters_by_kind_and_status(ihtc):
    waiting_model(kind=EquipmentKind.HELMET, model_name="Helmet X")
    waiting_model(kind=EquipmentKind.GOALKEEPER_MASK, model_name="Mask Y")
    EquipmentModelFactory(model_name="Approved Z")
    html = ihtc.get(QUEUE, {"kind": "goalkeeper_mask"}).content.decode()
    assert "Mask Y" in html and "Helmet X" not in html
    html = ihtc.get(QUEUE, {"status": "approved"}).content.decode()
    assert "Approved Z" in html and "Mask Y" not in html
    # Unknown filter values fall back to what waits.
    assert ihtc.get(QUEUE, {"status": "nonsense", "kind": "boots"}).status_code == 200


# --- Device requests (3.2.8 C) -----------------------------------------------------------


def test_approve_a_device_request_and_tell_the_requester(ihtc):
    item = ProtectiveDeviceRequestFactory()
    response = ihtc.post(device_url(item), {"decision": "approve", "reason": ""})
    assert response.status_code == 302
    item.refresh_from_db()
    assert item.status == DeviceRequestStatus.APPROVED and item.decided_by == ihtc.user
    note = Notification.objects.get(user=item.submitted_by)
    assert "3.2.8 C" in note.body and str(item.person) in note.subject


def test_reject_needs_a_reason_and_stores_nothing_without_one(ihtc):
    item = ProtectiveDeviceRequestFactory()
    response = ihtc.post(device_url(item), {"decision": "reject", "reason": "  "})
    assert response.status_code == 400
    html = response.content.decode()
    assert "Reason" in html and "3.2.8 C" in html and "Nothing was stored" in html
    item.refresh_from_db()
    assert item.status == DeviceRequestStatus.SUBMITTED and not Notification.objects.exists()


def test_reject_with_a_reason_records_it_and_tells_the_requester(ihtc):
    item = ProtectiveDeviceRequestFactory()
    response = ihtc.post(device_url(item), {"decision": "reject", "reason": "Metal parts (3.2.8 A)"})
    assert response.status_code == 302
    item.refresh_from_db()
    assert item.status == DeviceRequestStatus.REJECTED and item.decision_reason == "Metal parts (3.2.8 A)"
    assert "Metal parts" in Notification.objects.get(user=item.submitted_by).body


def test_an_unknown_decision_is_a_form_error(ihtc):
    item = ProtectiveDeviceRequestFactory()
    assert ihtc.post(device_url(item), {"decision": "maybe"}).status_code == 400
    assert ihtc.get(device_url(item)).status_code == 405
    item.refresh_from_db()
    assert item.status == DeviceRequestStatus.SUBMITTED


def test_the_second_decision_is_refused_with_a_clear_message(ihtc):
    item = ProtectiveDeviceRequestFactory()
    services.device_request_decide(request=item, approve=True, decided_by=international_staff())
    response = ihtc.post(device_url(item), {"decision": "reject", "reason": "Too late"})
    assert response.status_code == 409
    assert "Someone decided this already" in response.content.decode()
    item.refresh_from_db()
    assert item.status == DeviceRequestStatus.APPROVED


def test_national_staff_cannot_decide_through_the_service():
    item = ProtectiveDeviceRequestFactory()
    with pytest.raises(services.PermissionDenied):
        services.device_request_decide(request=item, approve=True, decided_by=federation_staff(item.person.federation))


# --- Equipment models (3.2.6 A) ----------------------------------------------------------


def test_approve_an_equipment_model(ihtc):
    item = waiting_model()
    assert ihtc.post(equipment_url(item), {"decision": "approve"}).status_code == 302
    item.refresh_from_db()
    assert item.approved and item.approved_by == ihtc.user and item.approved_on


def test_approval_is_refused_without_a_certification(ihtc):
    item = waiting_model(certifications=[])
    response = ihtc.post(equipment_url(item), {"decision": "approve"})
    assert response.status_code == 400
    assert "Certifications: Rule 3.2.6 A" in response.content.decode()
    item.refresh_from_db()
    assert not item.approved and item.approved_on is None


def test_reject_an_equipment_model_with_a_reason_and_it_leaves_the_queue(ihtc):
    item = waiting_model()
    bad = ihtc.post(equipment_url(item), {"decision": "reject"})
    assert bad.status_code == 400 and "3.2.6 A" in bad.content.decode()
    assert EquipmentModel.objects.get(pk=item.pk).rejected_on is None
    assert ihtc.post(equipment_url(item), {"decision": "reject", "reason": "Label forged"}).status_code == 302
    item.refresh_from_db()
    assert item.rejection_reason == "Label forged" and item.rejected_by == ihtc.user and not item.approved
    row = f'id="equipment-model-{item.pk}"'
    assert row not in ihtc.get(QUEUE).content.decode()
    assert row in ihtc.get(QUEUE, {"status": "rejected"}).content.decode()
    # Changed by its federation, it waits again.
    services.equipment_model_update(equipment_model=item, certifications=["CE"], by=ihtc.user)
    item.refresh_from_db()
    assert services.equipment_model_waiting(item)


def test_a_second_equipment_decision_is_refused(ihtc):
    item = waiting_model()
    services.equipment_model_decide(equipment_model=item, approve=False, reason="No", decided_by=international_staff())
    response = ihtc.post(equipment_url(item), {"decision": "approve"})
    assert response.status_code == 409 and "decided already" in response.content.decode()
    assert not EquipmentModel.objects.get(pk=item.pk).approved


# --- Queries do not grow with the queue ----------------------------------------------------


def _queries(client) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(QUEUE).status_code == 200
    return len(ctx.captured_queries)


def test_the_queue_reads_a_constant_number_of_queries(ihtc):
    ProtectiveDeviceRequestFactory(person=PersonFactory())
    waiting_model()
    few = _queries(ihtc)
    for _ in range(6):
        ProtectiveDeviceRequestFactory(person=PersonFactory())
        waiting_model()
    assert _queries(ihtc) == few
