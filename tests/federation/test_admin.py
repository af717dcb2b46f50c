"""The admin of the federation register: scoped by role, validating through the services."""

import datetime

import pytest
from django.urls import reverse

from federation.models import (
    DeviceRequestStatus,
    EligibilityWaiver,
    EquipmentInspection,
    EquipmentModel,
    Passport,
    ProtectiveDeviceRequest,
)
from tests.factories import (
    EligibilityWaiverFactory,
    EquipmentInspectionFactory,
    EquipmentModelFactory,
    PassportFactory,
    PersonFactory,
    ProtectiveDeviceRequestFactory,
    SuperuserFactory,
    federation_staff,
    html_upload,
    jpeg_upload,
)

pytestmark = pytest.mark.django_db

MODELS = ["federation", "person", "passport", "eligibilitywaiver", "equipmentmodel", "equipmentinspection"]
MODELS += ["protectivedevicerequest"]


@pytest.fixture
def records():
    person = PersonFactory(date_of_birth=datetime.date(2000, 1, 1))
    return {
        "federation": person.federation,
        "person": person,
        "passport": PassportFactory(person=person),
        "eligibilitywaiver": EligibilityWaiverFactory(person=person),
        "equipmentmodel": EquipmentModelFactory(),
        "equipmentinspection": EquipmentInspectionFactory(person=person),
        "protectivedevicerequest": ProtectiveDeviceRequestFactory(person=person),
    }


@pytest.mark.parametrize("model", MODELS)
def test_superusers_open_every_list_change_and_history_page(client, records, model):
    client.force_login(SuperuserFactory())
    obj = records[model]
    assert client.get(reverse(f"admin:federation_{model}_changelist")).status_code == 200
    assert client.get(reverse(f"admin:federation_{model}_change", args=[obj.pk])).status_code == 200
    assert client.get(reverse(f"admin:federation_{model}_history", args=[obj.pk])).status_code == 200
    assert client.get(reverse(f"admin:federation_{model}_changelist"), {"q": "x"}).status_code == 200


@pytest.mark.parametrize("model", MODELS)
def test_national_staff_open_their_own_federations_pages(client, records, model):
    client.force_login(federation_staff(records["person"].federation))
    obj = records[model]
    assert client.get(reverse(f"admin:federation_{model}_changelist")).status_code == 200
    assert client.get(reverse(f"admin:federation_{model}_change", args=[obj.pk])).status_code == 200


@pytest.mark.parametrize("model", ["person", "passport", "eligibilitywaiver", "equipmentinspection"])
def test_national_staff_cannot_open_another_federations_records(client, records, model):
    client.force_login(federation_staff())
    response = client.get(reverse(f"admin:federation_{model}_change", args=[records[model].pk]))
    # The admin treats an object outside the queryset as missing: back to the index.
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:index")
    changelist = client.get(reverse(f"admin:federation_{model}_changelist"))
    assert changelist.context["cl"].result_count == 0


def test_another_federations_device_request_is_hidden(client, records):
    client.force_login(federation_staff())
    url = reverse("admin:federation_protectivedevicerequest_change", args=[records["protectivedevicerequest"].pk])
    assert client.get(url).status_code == 302


def test_users_without_a_federation_role_see_no_federation_admin(client, records):
    from tests.factories import UserFactory

    client.force_login(UserFactory(is_staff=True))
    assert client.get(reverse("admin:federation_person_changelist")).status_code == 403


def test_the_person_page_shows_eligibility_per_category_with_articles(client, records):
    client.force_login(SuperuserFactory())
    content = client.get(reverse("admin:federation_person_change", args=[records["person"].pk])).content.decode()
    assert "Eligibility" in content
    for label in ["Junior Men", "Junior Women", "Senior Men", "Senior Women", "Masters Men", "Masters Women"]:
        assert label in content
    assert "Rule 1.1 C / R-01" in content  # too old for juniors
    assert "Rule 1.1 G / R-01" in content  # too young for masters
    assert "Rule 1.1 E / R-02" in content  # a man in a women's category


def _person_post(person, **passport_form):
    data = {
        "federation": person.federation_id,
        "first_name": person.first_name,
        "last_name": person.last_name,
        "date_of_birth": person.date_of_birth.isoformat(),
        "gender": person.gender,
        "nationality": person.nationality.code,
        "is_player": "on",
        "passports-TOTAL_FORMS": "1",
        "passports-INITIAL_FORMS": "0",
        "passports-MIN_NUM_FORMS": "0",
        "passports-MAX_NUM_FORMS": "1000",
        "eligibility_waivers-TOTAL_FORMS": "0",
        "eligibility_waivers-INITIAL_FORMS": "0",
        "eligibility_waivers-MIN_NUM_FORMS": "0",
        "eligibility_waivers-MAX_NUM_FORMS": "1000",
    }
    data.update({f"passports-0-{k}": v for k, v in passport_form.items()})
    return data


def test_the_passport_inline_refuses_html_renamed_png(client):
    person = PersonFactory()
    client.force_login(federation_staff(person.federation))
    data = _person_post(
        person, issuing_country="IT", number="YA1", expiry_date="2031-01-01", scan=html_upload("scan.png")
    )
    response = client.post(reverse("admin:federation_person_change", args=[person.pk]), data)
    assert response.status_code == 200
    assert "Only JPEG, PNG or PDF files are accepted" in response.content.decode()
    assert not Passport.objects.exists()


def test_the_passport_inline_stores_a_jpeg_scan_with_its_content_type(client):
    person = PersonFactory()
    client.force_login(federation_staff(person.federation))
    data = _person_post(person, issuing_country="IT", number="ya 1", expiry_date="2031-01-01", scan=jpeg_upload())
    response = client.post(reverse("admin:federation_person_change", args=[person.pk]), data)
    assert response.status_code == 302
    passport = Passport.objects.get()
    assert passport.number == "YA1"
    assert passport.scan_content_type == "image/jpeg"


def test_national_staff_cannot_move_a_person_to_another_federation(client):
    person = PersonFactory()
    other = PersonFactory().federation
    client.force_login(federation_staff(person.federation))
    data = _person_post(person)
    data["passports-TOTAL_FORMS"] = "0"
    data["federation"] = other.pk
    response = client.post(reverse("admin:federation_person_change", args=[person.pk]), data)
    assert response.status_code == 200
    person.refresh_from_db()
    assert person.federation_id != other.pk


def test_a_superuser_grants_a_waiver_through_the_admin(client):
    person = PersonFactory()
    user = SuperuserFactory()
    client.force_login(user)
    data = {"person": person.pk, "code": "passport_expired", "category": "", "year": "2026", "reason": "Renewal"}
    response = client.post(reverse("admin:federation_eligibilitywaiver_add"), data)
    assert response.status_code == 302
    waiver = EligibilityWaiver.objects.get()
    assert waiver.approved_by == user
    assert waiver.year == 2026


def test_the_waiver_form_refuses_an_empty_reason_citing_r03(client):
    client.force_login(SuperuserFactory())
    data = {"person": PersonFactory().pk, "code": "no_passport", "reason": " "}
    response = client.post(reverse("admin:federation_eligibilitywaiver_add"), data)
    assert response.status_code == 200
    assert not EligibilityWaiver.objects.exists()


def test_national_staff_cannot_add_waivers(client):
    person = PersonFactory()
    client.force_login(federation_staff(person.federation))
    assert client.get(reverse("admin:federation_eligibilitywaiver_add")).status_code == 403


def test_the_equipment_form_refuses_approval_without_certification_citing_3_2_6_a(client):
    client.force_login(SuperuserFactory())
    data = {"kind": "helmet", "manufacturer": "CCM", "model_name": "Tacks 310", "approved": "on"}
    response = client.post(reverse("admin:federation_equipmentmodel_add"), data)
    assert response.status_code == 200
    assert "Rule 3.2.6 A" in response.content.decode()
    assert not EquipmentModel.objects.exists()


def test_the_equipment_form_approves_a_certified_model(client):
    user = SuperuserFactory()
    client.force_login(user)
    data = {"kind": "helmet", "manufacturer": "CCM", "model_name": "Tacks 310", "certifications": ["CSA"]}
    data["approved"] = "on"
    response = client.post(reverse("admin:federation_equipmentmodel_add"), data)
    assert response.status_code == 302
    item = EquipmentModel.objects.get()
    assert item.certifications == ["CSA"]
    assert item.approved_by == user and item.approved_on is not None


def test_an_inspection_added_in_the_admin_gets_computed_violations(client):
    person = PersonFactory()
    client.force_login(federation_staff(person.federation))
    data = {"person": person.pk, "kind": "player_stick", "measurements": '{"blade_max_width_mm": 91}', "notes": ""}
    response = client.post(reverse("admin:federation_equipmentinspection_add"), data)
    assert response.status_code == 302
    inspection = EquipmentInspection.objects.get()
    assert not inspection.compliant
    assert inspection.violations[0]["article"] == "3.2.2 C"


def test_the_inspection_form_refuses_unknown_measurements(client):
    person = PersonFactory()
    client.force_login(federation_staff(person.federation))
    data = {"person": person.pk, "kind": "player_stick", "measurements": '{"colour_mm": 3}', "notes": ""}
    response = client.post(reverse("admin:federation_equipmentinspection_add"), data)
    assert response.status_code == 200
    assert "not measured for this kind" in response.content.decode()
    assert not EquipmentInspection.objects.exists()


def test_national_staff_submit_a_device_request_in_the_admin(client):
    from tests.factories import pdf_upload

    person = PersonFactory()
    client.force_login(federation_staff(person.federation))
    data = {"person": person.pk, "description": "Knee brace", "physician": "Dr. Who", "prescription": pdf_upload()}
    response = client.post(reverse("admin:federation_protectivedevicerequest_add"), data)
    assert response.status_code == 302
    assert ProtectiveDeviceRequest.objects.get().status == DeviceRequestStatus.SUBMITTED


def test_the_device_request_form_refuses_an_html_prescription(client):
    person = PersonFactory()
    client.force_login(federation_staff(person.federation))
    data = {"person": person.pk, "description": "Brace", "physician": "Dr. Who", "prescription": html_upload("a.pdf")}
    response = client.post(reverse("admin:federation_protectivedevicerequest_add"), data)
    assert response.status_code == 200
    assert not ProtectiveDeviceRequest.objects.exists()


def _action(client, action, requests, **extra):
    data = {"action": action, "_selected_action": [r.pk for r in requests], **extra}
    return client.post(reverse("admin:federation_protectivedevicerequest_changelist"), data)


def test_the_approve_action_calls_the_service(client):
    request = ProtectiveDeviceRequestFactory()
    user = SuperuserFactory()
    client.force_login(user)
    assert _action(client, "approve", [request]).status_code == 302
    request.refresh_from_db()
    assert request.status == DeviceRequestStatus.APPROVED
    assert request.decided_by == user


def test_the_reject_action_asks_for_a_reason_then_rejects(client):
    request = ProtectiveDeviceRequestFactory()
    client.force_login(SuperuserFactory())
    form = _action(client, "reject", [request])
    assert form.status_code == 200
    assert "Reason for the rejection" in form.content.decode()
    request.refresh_from_db()
    assert request.status == DeviceRequestStatus.SUBMITTED
    done = _action(client, "reject", [request], apply="1", decision_reason="Not a medical device")
    assert done.status_code == 302
    request.refresh_from_db()
    assert request.status == DeviceRequestStatus.REJECTED
    assert request.decision_reason == "Not a medical device"


def test_the_resubmit_action_refuses_an_invalid_transition_with_a_message(client):
    request = ProtectiveDeviceRequestFactory(status=DeviceRequestStatus.APPROVED)
    client.force_login(SuperuserFactory())
    response = _action(client, "resubmit", [request])
    assert response.status_code == 302
    messages = [str(m) for m in response.wsgi_request._messages]
    assert any("Rule 3.2.8 C" in m for m in messages)
    request.refresh_from_db()
    assert request.status == DeviceRequestStatus.APPROVED


def test_national_staff_are_not_offered_the_decision_actions(client):
    request = ProtectiveDeviceRequestFactory()
    client.force_login(federation_staff(request.person.federation))
    response = client.get(reverse("admin:federation_protectivedevicerequest_changelist"))
    choices = [value for value, _ in response.context["action_form"].fields["action"].choices]
    assert "approve" not in choices and "reject" not in choices
    assert "resubmit" in choices


def test_national_staff_view_but_cannot_change_the_federation_registry(client):
    person = PersonFactory()
    client.force_login(federation_staff(person.federation))
    url = reverse("admin:federation_federation_change", args=[person.federation.pk])
    assert client.get(url).status_code == 200
    response = client.post(url, {"name": "Renamed", "level": "national", "country": "IT"})
    assert response.status_code == 403
    person.federation.refresh_from_db()
    assert person.federation.name != "Renamed"


def _existing_passport_post(person, passport, **changes):
    data = _person_post(person)
    data.update({"passports-INITIAL_FORMS": "1", "passports-0-id": passport.pk, "passports-0-person": person.pk})
    current = {"issuing_country": passport.issuing_country.code, "number": passport.number}
    current["expiry_date"] = passport.expiry_date.isoformat()
    data.update({f"passports-0-{k}": v for k, v in {**current, **changes}.items()})
    return data


def _passport_with_scan(person):
    from federation import services
    from tests.factories import pdf_upload

    return services.passport_add(
        by=SuperuserFactory(),
        person=person,
        issuing_country="IT",
        number="YA7",
        expiry_date=datetime.date(2031, 1, 1),
        scan=pdf_upload(),
    )


def test_clearing_a_scan_in_the_inline_deletes_the_file(client, django_capture_on_commit_callbacks):
    person = PersonFactory()
    passport = _passport_with_scan(person)
    name, storage = passport.scan.name, passport.scan.storage
    client.force_login(federation_staff(person.federation))
    data = _existing_passport_post(person, passport, **{"scan-clear": "on"})
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("admin:federation_person_change", args=[person.pk]), data)
    assert response.status_code == 302
    passport.refresh_from_db()
    assert not passport.scan and passport.scan_content_type == ""
    assert not storage.exists(name)


def test_deleting_a_passport_in_the_inline_deletes_its_scan(client, django_capture_on_commit_callbacks):
    person = PersonFactory()
    passport = _passport_with_scan(person)
    name, storage = passport.scan.name, passport.scan.storage
    client.force_login(federation_staff(person.federation))
    data = _existing_passport_post(person, passport, DELETE="on")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("admin:federation_person_change", args=[person.pk]), data)
    assert response.status_code == 302
    assert not Passport.objects.exists()
    assert not storage.exists(name)


def test_the_passport_page_saves_through_the_service(client):
    person = PersonFactory()
    passport = PassportFactory(person=person, number="OLD1")
    client.force_login(federation_staff(person.federation))
    data = {"issuing_country": "IT", "number": "new 2", "expiry_date": "2033-03-03", "scan": jpeg_upload()}
    response = client.post(reverse("admin:federation_passport_change", args=[passport.pk]), data)
    assert response.status_code == 302
    passport.refresh_from_db()
    assert passport.number == "NEW2"
    assert passport.scan_content_type == "image/jpeg"
    assert passport.person == person


def test_admin_pages_link_stored_files_only_through_the_guarded_views(client):
    from federation import services
    from tests.factories import pdf_upload

    person = PersonFactory()
    passport = services.passport_add(
        by=SuperuserFactory(),
        person=person,
        issuing_country="IT",
        number="YA5",
        expiry_date=datetime.date(2031, 1, 1),
        scan=pdf_upload(),
    )
    device_request = ProtectiveDeviceRequestFactory(person=person)
    client.force_login(SuperuserFactory())
    pages = [
        (reverse("admin:federation_person_change", args=[person.pk]), "federation:passport-scan", passport.pk),
        (reverse("admin:federation_passport_change", args=[passport.pk]), "federation:passport-scan", passport.pk),
        (
            reverse("admin:federation_protectivedevicerequest_change", args=[device_request.pk]),
            "federation:device-prescription",
            device_request.pk,
        ),
    ]
    for url, view, pk in pages:
        content = client.get(url).content.decode()
        assert reverse(view, args=[pk]) in content
        assert "/media/" not in content
        assert passport.scan.name not in content
        assert device_request.prescription.name not in content
