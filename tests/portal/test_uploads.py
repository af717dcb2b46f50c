"""Every API upload field is checked by content and size: a disguised file or an oversize one is a 400 naming it.

The checks themselves are ``federation.files.check_scan_upload`` (scans, prescriptions, discipline attachments)
and ``tournaments.roster_files.read_roster_file`` (roster imports), each with its own unit tests; here each field
is tried through the API as a client sends it.
"""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from federation.files import MAX_SCAN_BYTES
from federation.models import ProtectiveDeviceRequest
from tests.factories import PassportFactory, PersonFactory, client_for, federation_staff, html_upload

pytestmark = pytest.mark.django_db


def oversize_pdf() -> SimpleUploadedFile:
    return SimpleUploadedFile("big.pdf", b"%PDF-1.4\n" + b"0" * MAX_SCAN_BYTES, content_type="application/pdf")


BAD_FILES = {"fake extension": html_upload, "oversize": oversize_pdf}


def passport_scan(fed, upload):
    passport = PassportFactory(person__federation=fed)
    response = client_for(federation_staff(fed)).patch(
        f"/api/passports/{passport.pk}/", {"scan": upload}, format="multipart"
    )
    passport.refresh_from_db()
    return response, not passport.scan


def device_prescription(fed, upload):
    person = PersonFactory(federation=fed)
    data = {"person": person.pk, "description": "Knee brace", "physician": "Dr. Rossi", "prescription": upload}
    response = client_for(federation_staff(fed)).post("/api/device-requests/", data, format="multipart")
    return response, not ProtectiveDeviceRequest.objects.exists()


FIELDS = {"scan": passport_scan, "prescription": device_prescription}


@pytest.mark.parametrize("bad", BAD_FILES)
@pytest.mark.parametrize("field", FIELDS)
def test_a_bad_upload_is_a_400_naming_the_field_and_nothing_is_stored(field, bad):
    from tests.factories import FederationFactory

    response, nothing_stored = FIELDS[field](FederationFactory(), BAD_FILES[bad]())
    assert response.status_code == 400, response.content
    assert field in response.json()
    message = response.json()[field][0]
    assert ("5 MB" in message) if bad == "oversize" else ("JPEG, PNG or PDF" in message)
    assert nothing_stored
