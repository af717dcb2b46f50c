"""API of waivers (R-03), the equipment registry (3.2.6 A), inspections (3.2.2, 3.2.5) and device requests (3.2.8 C)."""

import pytest
from django.urls import reverse

from accounts.models import Role
from federation.models import (
    DeviceRequestStatus,
    EligibilityWaiver,
    EquipmentInspection,
    EquipmentModel,
    ProtectiveDeviceRequest,
)
from tests.factories import (
    EligibilityWaiverFactory,
    EquipmentInspectionFactory,
    EquipmentModelFactory,
    FederationFactory,
    PersonFactory,
    ProtectiveDeviceRequestFactory,
    UserFactory,
    client_for,
    federation_staff,
    html_upload,
    ids,
    international_staff,
    pdf_upload,
    with_role,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def fed_a():
    return FederationFactory()


@pytest.fixture
def fed_b():
    return FederationFactory()


# --- Eligibility waivers (R-03) ----------------------------------------------------------


def test_international_staff_grant_a_passport_waiver_recorded_with_who_and_why(fed_a):
    person = PersonFactory(federation=fed_a)
    ihtc = international_staff()
    response = client_for(ihtc).post(
        "/api/eligibility-waivers/",
        {"person": person.pk, "code": "no_passport", "reason": "Passport stolen; police report seen.", "year": 2026},
        format="json",
    )
    assert response.status_code == 201, response.json()
    waiver = EligibilityWaiver.objects.get()
    assert (waiver.person, waiver.approved_by, waiver.year) == (person, ihtc, 2026)


def test_national_staff_may_not_grant_waivers(fed_a):
    person = PersonFactory(federation=fed_a)
    response = client_for(federation_staff(fed_a)).post(
        "/api/eligibility-waivers/", {"person": person.pk, "code": "no_passport", "reason": "x"}, format="json"
    )
    assert response.status_code == 403
    assert not EligibilityWaiver.objects.exists()


def test_an_age_requirement_cannot_be_waived_citing_r_03(fed_a):
    person = PersonFactory(federation=fed_a)
    response = client_for(international_staff()).post(
        "/api/eligibility-waivers/", {"person": person.pk, "code": "too_young", "reason": "talented"}, format="json"
    )
    assert response.status_code == 400
    assert "R-03" in response.json()["code"][0]
    assert not EligibilityWaiver.objects.exists()


def test_a_waiver_without_a_reason_is_refused(fed_a):
    person = PersonFactory(federation=fed_a)
    response = client_for(international_staff()).post(
        "/api/eligibility-waivers/", {"person": person.pk, "code": "no_passport", "reason": "  "}, format="json"
    )
    assert response.status_code == 400
    assert "reason" in response.json()


def test_national_staff_see_only_their_peoples_waivers(fed_a, fed_b):
    mine = EligibilityWaiverFactory(person__federation=fed_a)
    EligibilityWaiverFactory(person__federation=fed_b)
    assert ids(client_for(federation_staff(fed_a)).get("/api/eligibility-waivers/")) == {mine.pk}
    assert client_for(with_role(Role.GAME_OFFICIAL)).get("/api/eligibility-waivers/").status_code == 403


# --- Equipment approval registry (3.2.6 A) ---------------------------------------------------


def test_the_equipment_registry_is_readable_by_any_logged_in_user():
    helmet = EquipmentModelFactory()
    response = client_for(with_role(Role.TEAM_MANAGER)).get("/api/equipment-models/", {"approved": "true"})
    assert response.status_code == 200
    assert ids(response) == {helmet.pk}


def test_equipment_models_filter_by_kind_and_certification():
    helmet = EquipmentModelFactory(kind="helmet", certifications=["CE"])
    mask = EquipmentModelFactory(kind="goalkeeper_mask", certifications=["CSA"])
    client = client_for(UserFactory())
    assert ids(client.get("/api/equipment-models/", {"kind": "goalkeeper_mask"})) == {mask.pk}
    assert ids(client.get("/api/equipment-models/", {"certification": "ce"})) == {helmet.pk}


def test_international_staff_approve_a_certified_helmet():
    response = client_for(international_staff()).post(
        "/api/equipment-models/",
        {"kind": "helmet", "manufacturer": "Bauer", "model_name": "Re-Akt", "certifications": ["ce"], "approved": True},
        format="json",
    )
    assert response.status_code == 201, response.json()
    item = EquipmentModel.objects.get()
    assert item.approved and item.certifications == ["CE"] and item.approved_on


def test_an_uncertified_helmet_cannot_be_approved_citing_3_2_6_a():
    response = client_for(international_staff()).post(
        "/api/equipment-models/",
        {"kind": "helmet", "manufacturer": "NoName", "model_name": "X", "certifications": [], "approved": True},
        format="json",
    )
    assert response.status_code == 400
    assert "3.2.6 A" in response.json()["certifications"][0]
    assert not EquipmentModel.objects.exists()


def test_national_staff_register_but_may_not_approve_a_model(fed_a):
    client = client_for(federation_staff(fed_a))
    body = {"kind": "helmet", "manufacturer": "CCM", "model_name": "Tacks", "certifications": ["HECC"]}
    created = client.post("/api/equipment-models/", body, format="json")
    assert created.status_code == 201
    refused = client.patch(f"/api/equipment-models/{created.json()['id']}/", {"approved": True}, format="json")
    assert refused.status_code == 403
    assert not EquipmentModel.objects.get().approved


# --- Equipment inspections (3.2.2 C-D, 3.2.5 C-E) ----------------------------------------------


def test_an_inspection_stores_the_violations_computed_from_the_measurements(fed_a):
    person = PersonFactory(federation=fed_a)
    response = client_for(federation_staff(fed_a)).post(
        "/api/equipment-inspections/",
        {"person": person.pk, "kind": "player_stick", "measurements": {"length_mm": 1600, "blade_max_width_mm": 80}},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["compliant"] is False
    assert [v["article"] for v in body["violations"]] == ["3.2.2 C"]
    assert EquipmentInspection.objects.get().violations[0]["field"] == "length_mm"


def test_violations_sent_by_the_client_are_refused_not_stored(fed_a):
    """Violations are computed (3.2.2, 3.2.5), never sent: a body naming them is a 400 naming each field."""
    person = PersonFactory(federation=fed_a)
    client = client_for(federation_staff(fed_a))
    body = {"person": person.pk, "kind": "goalkeeper_equipment", "measurements": {"leg_pad_width_mm": 280}}
    response = client.post(
        "/api/equipment-inspections/", {**body, "violations": [{"field": "x"}], "compliant": False}, format="json"
    )
    assert response.status_code == 400
    assert set(response.json()) == {"violations", "compliant"}
    assert not person.equipment_inspections.exists()
    response = client.post("/api/equipment-inspections/", body, format="json")
    assert response.status_code == 201
    assert (response.json()["compliant"], response.json()["violations"]) == (True, [])


def test_a_game_official_records_an_inspection_of_any_federations_player(fed_b):
    person = PersonFactory(federation=fed_b)
    response = client_for(with_role(Role.GAME_OFFICIAL)).post(
        "/api/equipment-inspections/",
        {"person": person.pk, "kind": "goalkeeper_stick", "measurements": {"heel_width_mm": 150}},
        format="json",
    )
    assert response.status_code == 201
    assert response.json()["violations"][0]["article"] == "3.2.2 D"


def test_malformed_measurements_are_a_400_and_nothing_is_stored(fed_a):
    person = PersonFactory(federation=fed_a)
    response = client_for(federation_staff(fed_a)).post(
        "/api/equipment-inspections/",
        {"person": person.pk, "kind": "player_stick", "measurements": {"length_mm": "long", "colour_mm": 3}},
        format="json",
    )
    assert response.status_code == 400
    assert "measurements" in response.json()
    assert not EquipmentInspection.objects.exists()


def test_national_staff_see_only_inspections_of_their_people(fed_a, fed_b):
    mine = EquipmentInspectionFactory(person__federation=fed_a)
    EquipmentInspectionFactory(person__federation=fed_b)
    assert ids(client_for(federation_staff(fed_a)).get("/api/equipment-inspections/")) == {mine.pk}


def test_national_staff_may_not_inspect_another_federations_player(fed_a, fed_b):
    theirs = PersonFactory(federation=fed_b)
    response = client_for(federation_staff(fed_a)).post(
        "/api/equipment-inspections/",
        {"person": theirs.pk, "kind": "player_stick", "measurements": {"length_mm": 1500}},
        format="json",
    )
    assert response.status_code == 400
    assert "person" in response.json()


# --- Protective device requests (3.2.8 C) ------------------------------------------------------


def test_staff_submit_a_device_request_with_a_prescription(fed_a):
    person = PersonFactory(federation=fed_a)
    response = client_for(federation_staff(fed_a)).post(
        "/api/device-requests/",
        {"person": person.pk, "description": "Knee brace", "physician": "Dr. Rossi", "prescription": pdf_upload()},
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["status"] == "submitted"
    request = ProtectiveDeviceRequest.objects.get()
    assert body["prescription_url"].endswith(reverse("federation:device-prescription", kwargs={"pk": request.pk}))


def test_a_device_request_needs_a_real_prescription_file(fed_a):
    person = PersonFactory(federation=fed_a)
    client = client_for(federation_staff(fed_a))
    missing = client.post(
        "/api/device-requests/", {"person": person.pk, "description": "Brace", "physician": "Dr. X"}, format="multipart"
    )
    assert missing.status_code == 400
    assert "3.2.8 C" in missing.json()["prescription"][0]
    disguised = client.post(
        "/api/device-requests/",
        {"person": person.pk, "description": "Brace", "physician": "Dr. X", "prescription": html_upload()},
        format="multipart",
    )
    assert disguised.status_code == 400
    assert not ProtectiveDeviceRequest.objects.exists()


def test_the_ihtc_approves_a_request(fed_a):
    device_request = ProtectiveDeviceRequestFactory(person__federation=fed_a)
    response = client_for(international_staff()).post(f"/api/device-requests/{device_request.pk}/approve/")
    assert response.status_code == 200
    device_request.refresh_from_db()
    assert device_request.status == DeviceRequestStatus.APPROVED


def test_national_staff_may_not_decide_their_own_request(fed_a):
    device_request = ProtectiveDeviceRequestFactory(person__federation=fed_a)
    response = client_for(federation_staff(fed_a)).post(f"/api/device-requests/{device_request.pk}/approve/")
    assert response.status_code == 403
    device_request.refresh_from_db()
    assert device_request.status == DeviceRequestStatus.SUBMITTED


def test_a_rejection_needs_its_reason_and_can_be_resubmitted(fed_a):
    device_request = ProtectiveDeviceRequestFactory(person__federation=fed_a)
    ihtc = client_for(international_staff())
    url = f"/api/device-requests/{device_request.pk}"
    assert ihtc.post(f"{url}/reject/", {"reason": ""}, format="json").status_code == 400
    rejected = ihtc.post(f"{url}/reject/", {"reason": "Metal parts: 3.2.8 A"}, format="json")
    assert rejected.status_code == 200
    assert rejected.json()["status"] == "rejected"
    staff = client_for(federation_staff(fed_a))
    resubmitted = staff.post(f"{url}/resubmit/", {"description": "Soft brace, no metal"}, format="multipart")
    assert resubmitted.status_code == 200, resubmitted.json()
    device_request.refresh_from_db()
    assert device_request.status == DeviceRequestStatus.SUBMITTED
    assert device_request.description == "Soft brace, no metal"


def test_an_approved_request_cannot_be_approved_again(fed_a):
    device_request = ProtectiveDeviceRequestFactory(person__federation=fed_a)
    ihtc = client_for(international_staff())
    assert ihtc.post(f"/api/device-requests/{device_request.pk}/approve/").status_code == 200
    again = ihtc.post(f"/api/device-requests/{device_request.pk}/reject/", {"reason": "changed mind"}, format="json")
    assert again.status_code == 400
    assert "3.2.8 C" in again.json()["status"][0]


def test_device_requests_are_confidential_to_the_holders_federation(fed_a, fed_b):
    device_request = ProtectiveDeviceRequestFactory(person__federation=fed_a)
    assert client_for(federation_staff(fed_b)).get(f"/api/device-requests/{device_request.pk}/").status_code == 404
    assert client_for(with_role(Role.DISCIPLINE_COMMITTEE)).get("/api/device-requests/").status_code == 403
    assert ids(client_for(federation_staff(fed_a)).get("/api/device-requests/")) == {device_request.pk}


def test_renaming_a_model_leaves_its_approval_alone():
    helmet = EquipmentModelFactory(approved=True)
    response = client_for(international_staff()).patch(
        f"/api/equipment-models/{helmet.pk}/", {"model_name": "Pro 2"}, format="json"
    )
    assert response.status_code == 200, response.json()
    helmet.refresh_from_db()
    assert helmet.approved and helmet.model_name == "Pro 2"
