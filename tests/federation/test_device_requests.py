"""Protective device requests (3.2.8 C): submitted -> approved / rejected, rejected -> submitted."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from federation import services
from federation.models import DEVICE_REQUEST_TRANSITIONS, DeviceRequestStatus, ProtectiveDeviceRequest
from tests.factories import (
    PersonFactory,
    ProtectiveDeviceRequestFactory,
    federation_staff,
    html_upload,
    international_staff,
    jpeg_upload,
    pdf_upload,
)

pytestmark = pytest.mark.django_db


def submit(person=None, **overrides):
    person = person or PersonFactory()
    arguments = {
        "person": person,
        "description": "Protective eyewear with plastic lenses",
        "physician": "Dr. Laura Bianchi",
        "prescription": pdf_upload(),
        "submitted_by": federation_staff(person.federation),
    }
    return services.device_request_submit(**{**arguments, **overrides})


def test_the_transition_table_allows_exactly_the_documented_moves():
    assert {
        "submitted": {"approved", "rejected"},
        "rejected": {"submitted"},
        "approved": set(),
    } == DEVICE_REQUEST_TRANSITIONS


def test_submit_records_a_submitted_request_with_its_prescription():
    request = submit()
    request.refresh_from_db()
    assert request.status == DeviceRequestStatus.SUBMITTED
    assert request.prescription_content_type == "application/pdf"
    assert request.prescription.name.startswith(f"prescriptions/{request.person_id}/")


def test_submit_refuses_an_html_prescription_and_stores_nothing():
    with pytest.raises(ValidationError) as caught:
        submit(prescription=html_upload("prescription.pdf", content_type="application/pdf"))
    assert "prescription" in caught.value.message_dict
    assert not ProtectiveDeviceRequest.objects.exists()


def test_submit_requires_a_prescription_citing_3_2_8_c():
    with pytest.raises(ValidationError) as caught:
        submit(prescription=None)
    assert "Rule 3.2.8 C" in caught.value.message_dict["prescription"][0]


def test_submit_requires_description_and_physician_citing_3_2_8_c():
    with pytest.raises(ValidationError) as caught:
        submit(description=" ", physician="")
    assert set(caught.value.message_dict) == {"description", "physician"}
    assert all("Rule 3.2.8 C" in m for m in caught.value.messages)


def test_the_ihtc_approves_a_submitted_request():
    ihtc = international_staff()
    request = services.device_request_decide(request=submit(), approve=True, decided_by=ihtc)
    request.refresh_from_db()
    assert request.status == DeviceRequestStatus.APPROVED
    assert request.decided_by == ihtc
    assert request.decided_at is not None


def test_a_rejection_needs_a_reason_citing_3_2_8_c():
    request = submit()
    with pytest.raises(ValidationError) as caught:
        services.device_request_decide(request=request, approve=False, reason="  ", decided_by=international_staff())
    assert "Rule 3.2.8 C" in caught.value.message_dict["decision_reason"][0]
    request.refresh_from_db()
    assert request.status == DeviceRequestStatus.SUBMITTED


def test_national_staff_cannot_decide():
    request = submit()
    with pytest.raises(PermissionDenied, match="3.2.8 C"):
        services.device_request_decide(
            request=request, approve=True, decided_by=federation_staff(request.person.federation)
        )
    request.refresh_from_db()
    assert request.status == DeviceRequestStatus.SUBMITTED


def test_a_rejected_request_can_be_resubmitted_with_a_new_prescription_and_approved():
    ihtc = international_staff()
    request = services.device_request_decide(
        request=submit(), approve=False, reason="Prescription illegible", decided_by=ihtc
    )
    assert request.status == DeviceRequestStatus.REJECTED
    assert request.decision_reason == "Prescription illegible"
    staff = federation_staff(request.person.federation)
    request = services.device_request_resubmit(request=request, submitted_by=staff, prescription=jpeg_upload())
    request.refresh_from_db()
    assert request.status == DeviceRequestStatus.SUBMITTED
    assert request.prescription_content_type == "image/jpeg"
    assert request.decided_by is None and request.decision_reason == ""
    request = services.device_request_decide(request=request, approve=True, decided_by=ihtc)
    assert request.status == DeviceRequestStatus.APPROVED
    # The history keeps every step, the rejection with its reason included.
    statuses = [h.status for h in request.history.order_by("history_date")]
    assert statuses == ["submitted", "rejected", "submitted", "approved"]
    assert "Prescription illegible" in [h.decision_reason for h in request.history.all()]


def test_an_approved_request_cannot_be_resubmitted():
    request = services.device_request_decide(request=submit(), approve=True, decided_by=international_staff())
    with pytest.raises(ValidationError) as caught:
        services.device_request_resubmit(request=request, submitted_by=international_staff())
    assert "Rule 3.2.8 C: a request that is approved cannot become submitted" in caught.value.message_dict["status"][0]


def test_a_submitted_request_cannot_be_resubmitted():
    with pytest.raises(ValidationError) as caught:
        services.device_request_resubmit(request=submit(), submitted_by=international_staff())
    assert "status" in caught.value.message_dict


def test_an_approved_request_cannot_be_rejected_afterwards():
    ihtc = international_staff()
    request = services.device_request_decide(request=submit(), approve=True, decided_by=ihtc)
    with pytest.raises(ValidationError) as caught:
        services.device_request_decide(request=request, approve=False, reason="Changed our mind", decided_by=ihtc)
    assert "cannot become rejected" in caught.value.message_dict["status"][0]
    request.refresh_from_db()
    assert request.status == DeviceRequestStatus.APPROVED


def test_a_decision_reads_the_stored_status_not_a_stale_object():
    ihtc = international_staff()
    request = submit()
    stale = ProtectiveDeviceRequest.objects.get(pk=request.pk)
    services.device_request_decide(request=request, approve=True, decided_by=ihtc)
    # Someone else decided meanwhile: the stale copy still says "submitted".
    with pytest.raises(ValidationError):
        services.device_request_decide(request=stale, approve=False, reason="Too late", decided_by=ihtc)


def test_the_database_refuses_a_rejection_without_reason():
    from django.db import IntegrityError

    with pytest.raises(IntegrityError):
        ProtectiveDeviceRequestFactory(status=DeviceRequestStatus.REJECTED, decision_reason="")
