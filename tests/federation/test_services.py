"""Services of the federation register: each refusal names the field and cites its rule."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from federation import services
from federation.models import EligibilityWaiver, EquipmentInspection, EquipmentModel, Passport
from tests.factories import (
    EquipmentModelFactory,
    PassportFactory,
    PersonFactory,
    federation_staff,
    html_upload,
    international_staff,
    jpeg_upload,
    pdf_upload,
)

pytestmark = pytest.mark.django_db


def messages_of(caught, field):
    return " ".join(caught.value.message_dict[field])


# --- Passports -------------------------------------------------------------------------


def test_passport_add_stores_the_scan_privately_with_its_content_type():
    person = PersonFactory()
    passport = services.passport_add(
        by=international_staff(),
        person=person,
        issuing_country="it",
        number="ya 123 456",
        expiry_date=datetime.date(2031, 5, 1),
        scan=pdf_upload(),
    )
    passport.refresh_from_db()
    assert passport.number == "YA123456"
    assert passport.issuing_country.code == "IT"
    assert passport.scan_content_type == "application/pdf"
    assert passport.scan.name.startswith(f"passports/{person.pk}/")
    assert passport.scan.read(4) == b"%PDF"


def test_passport_add_without_scan_is_allowed():
    passport = services.passport_add(
        by=international_staff(),
        person=PersonFactory(),
        issuing_country="DE",
        number="C01X00T47",
        expiry_date=datetime.date(2030, 1, 1),
    )
    assert not passport.scan
    assert passport.scan_content_type == ""


def test_passport_add_refuses_html_renamed_png_and_stores_nothing(settings):
    person = PersonFactory()
    with pytest.raises(ValidationError) as caught:
        services.passport_add(
            by=international_staff(),
            person=person,
            issuing_country="IT",
            number="YA1",
            expiry_date=datetime.date(2031, 5, 1),
            scan=html_upload("passport.png"),
        )
    assert "Only JPEG, PNG or PDF" in messages_of(caught, "scan")
    assert not Passport.objects.exists()
    private = settings.PRIVATE_MEDIA_ROOT
    assert not private.exists() or not any(p.is_file() for p in private.rglob("*"))


def test_passport_add_refuses_a_number_already_registered_for_the_country():
    PassportFactory(issuing_country="IT", number="YA123456")
    with pytest.raises(ValidationError) as caught:
        services.passport_add(
            by=international_staff(),
            person=PersonFactory(),
            issuing_country="IT",
            number="ya123456",
            expiry_date=datetime.date(2031, 1, 1),
        )
    assert "already exists" in " ".join(caught.value.messages)
    assert Passport.objects.count() == 1


def test_passport_add_refuses_an_unknown_country_naming_the_field():
    with pytest.raises(ValidationError) as caught:
        services.passport_add(
            by=international_staff(),
            person=PersonFactory(),
            issuing_country="XX",
            number="1",
            expiry_date=datetime.date(2031, 1, 1),
        )
    assert "issuing_country" in caught.value.message_dict


def test_passport_update_replaces_the_scan_and_deletes_the_old_file(django_capture_on_commit_callbacks):
    passport = services.passport_add(
        by=international_staff(),
        person=PersonFactory(),
        issuing_country="IT",
        number="YA9",
        expiry_date=datetime.date(2031, 1, 1),
        scan=pdf_upload(),
    )
    old_name = passport.scan.name
    storage = passport.scan.storage
    with django_capture_on_commit_callbacks(execute=True):
        updated = services.passport_update(
            by=international_staff(), passport=passport, expiry_date=datetime.date(2036, 1, 1), scan=jpeg_upload()
        )
    updated.refresh_from_db()
    assert updated.expiry_date == datetime.date(2036, 1, 1)
    assert updated.scan_content_type == "image/jpeg"
    assert not storage.exists(old_name)
    assert storage.exists(updated.scan.name)


def test_passport_update_refusing_a_scan_changes_nothing():
    passport = PassportFactory(expiry_date=datetime.date(2030, 1, 1))
    with pytest.raises(ValidationError) as caught:
        services.passport_update(
            by=international_staff(), passport=passport, expiry_date=datetime.date(2040, 1, 1), scan=html_upload()
        )
    assert "scan" in caught.value.message_dict
    passport.refresh_from_db()
    assert passport.expiry_date == datetime.date(2030, 1, 1)
    assert not passport.scan


# --- Waivers (1.1 B, R-03) ------------------------------------------------------------


def test_waiver_grant_records_reason_and_approver():
    ihtc = international_staff()
    waiver = services.waiver_grant(
        person=PersonFactory(), code="no_passport", reason=" Renewal pending ", approved_by=ihtc, year=2026
    )
    assert waiver.reason == "Renewal pending"
    assert waiver.approved_by == ihtc
    assert waiver.approved_at is not None
    assert waiver.history.count() == 1


def test_waiver_grant_refuses_an_age_waiver_citing_r03():
    with pytest.raises(ValidationError) as caught:
        services.waiver_grant(
            person=PersonFactory(), code="too_young", reason="Talent", approved_by=international_staff()
        )
    assert "R-03" in messages_of(caught, "code")
    assert "1.1 C-G" in messages_of(caught, "code")
    assert not EligibilityWaiver.objects.exists()


def test_waiver_grant_refuses_a_gender_waiver():
    with pytest.raises(ValidationError) as caught:
        services.waiver_grant(
            person=PersonFactory(), code="wrong_gender", reason="x", approved_by=international_staff()
        )
    assert "R-02" in messages_of(caught, "code")


def test_waiver_grant_requires_a_reason_citing_r03():
    with pytest.raises(ValidationError) as caught:
        services.waiver_grant(
            person=PersonFactory(), code="no_passport", reason="  ", approved_by=international_staff()
        )
    assert "R-03" in messages_of(caught, "reason")


def test_waiver_grant_is_refused_to_national_staff():
    person = PersonFactory()
    with pytest.raises(PermissionDenied, match="R-03"):
        services.waiver_grant(
            person=person, code="no_passport", reason="Pending", approved_by=federation_staff(person.federation)
        )
    assert not EligibilityWaiver.objects.exists()


# --- Equipment models (3.2.6 A) ----------------------------------------------------------


def test_equipment_model_create_approves_a_certified_model_and_stamps_the_approval():
    ihtc = international_staff()
    item = services.equipment_model_create(
        kind="helmet",
        manufacturer="Bauer",
        model_name="Re-Akt 85",
        certifications=["ce", "HECC", "CE"],
        approved=True,
        by=ihtc,
        on=datetime.date(2026, 3, 1),
    )
    assert item.certifications == ["CE", "HECC"]
    assert item.approved_on == datetime.date(2026, 3, 1)
    assert item.approved_by == ihtc


def test_equipment_model_approval_needs_a_certification_citing_3_2_6_a():
    with pytest.raises(ValidationError) as caught:
        services.equipment_model_create(
            kind="goalkeeper_mask", manufacturer="X", model_name="Y", approved=True, by=international_staff()
        )
    assert "Rule 3.2.6 A" in messages_of(caught, "certifications")
    assert not EquipmentModel.objects.exists()


def test_equipment_model_refuses_an_unknown_certification_body():
    with pytest.raises(ValidationError) as caught:
        services.equipment_model_create(
            kind="helmet", manufacturer="X", model_name="Y", certifications=["ISO"], by=international_staff()
        )
    assert "3.2.6 A" in messages_of(caught, "certifications")


def test_equipment_model_unapproved_entry_needs_no_certification():
    item = services.equipment_model_create(kind="helmet", manufacturer="X", model_name="Y", by=international_staff())
    assert not item.approved
    assert item.approved_on is None


def test_equipment_model_approval_is_refused_to_national_staff():
    with pytest.raises(PermissionDenied, match="3.2.6 A"):
        services.equipment_model_create(
            kind="helmet", manufacturer="X", model_name="Y", certifications=["CE"], approved=True, by=federation_staff()
        )


def test_equipment_model_update_withdraws_an_approval():
    item = EquipmentModelFactory()
    updated = services.equipment_model_update(equipment_model=item, approved=False, by=international_staff())
    assert not updated.approved
    assert updated.approved_on is None
    assert updated.history.count() == 2


def test_equipment_model_update_refuses_unknown_fields():
    with pytest.raises(ValidationError) as caught:
        services.equipment_model_update(equipment_model=EquipmentModelFactory(), id=5, by=international_staff())
    assert "id" in caught.value.message_dict


# --- Inspections (3.2.2 C-D, 3.2.5 C-E) ---------------------------------------------------


def test_inspection_of_a_legal_player_stick_is_compliant():
    inspection = services.equipment_inspection_record(
        person=PersonFactory(),
        kind="player_stick",
        measurements={"length_mm": 1570, "blade_length_mm": 320, "blade_max_width_mm": 90, "blade_min_width_mm": 50},
        inspected_by=international_staff(),
    )
    assert inspection.compliant
    assert inspection.violations == []


def test_inspection_computes_violations_citing_3_2_2_c():
    inspection = services.equipment_inspection_record(
        person=PersonFactory(),
        kind="player_stick",
        measurements={"length_mm": 1571, "blade_length_mm": 320},
        inspected_by=international_staff(),
    )
    inspection.refresh_from_db()
    assert not inspection.compliant
    assert [(v["field"], v["article"], v["limit_mm"], v["measured_mm"]) for v in inspection.violations] == [
        ("length_mm", "3.2.2 C", 1570, 1571)
    ]
    assert inspection.violations[0]["message"].startswith("Rule 3.2.2 C")


def test_inspection_of_a_goalkeeper_stick_uses_3_2_2_d():
    inspection = services.equipment_inspection_record(
        person=PersonFactory(is_goalkeeper=True),
        kind="goalkeeper_stick",
        # 39 cm blade is legal for a goalkeeper (3.2.2 D), not for a player (3.2.2 C).
        measurements={"blade_length_mm": 390, "heel_width_mm": 141},
        inspected_by=international_staff(),
    )
    assert [(v["field"], v["article"]) for v in inspection.violations] == [("heel_width_mm", "3.2.2 D")]


def test_inspection_of_goalkeeper_equipment_uses_3_2_5():
    inspection = services.equipment_inspection_record(
        person=PersonFactory(is_goalkeeper=True),
        kind="goalkeeper_equipment",
        measurements={"leg_pad_width_mm": 301, "glove_padding_width_mm": 200, "leg_pads_altered": True},
        inspected_by=international_staff(),
    )
    assert sorted(v["article"] for v in inspection.violations) == ["3.2.5 E", "3.2.5 E"]


@pytest.mark.parametrize(
    ("measurements", "expected"),
    [
        ({"shaft_colour_mm": 3}, "not measured for this kind"),
        ({"length_mm": "long"}, "must be a number"),
        ({"length_mm": True}, "must be a number"),
        ({"length_mm": -5}, "positive number"),
        ({}, "at least one measurement"),
    ],
)
def test_inspection_refuses_malformed_measurements_and_stores_nothing(measurements, expected):
    with pytest.raises(ValidationError) as caught:
        services.equipment_inspection_record(
            person=PersonFactory(), kind="player_stick", measurements=measurements, inspected_by=international_staff()
        )
    assert expected in messages_of(caught, "measurements")
    assert not EquipmentInspection.objects.exists()


def test_inspection_refuses_an_unknown_kind():
    with pytest.raises(ValidationError) as caught:
        services.equipment_inspection_record(
            person=PersonFactory(), kind="skates", measurements={"length_mm": 1}, inspected_by=international_staff()
        )
    assert "kind" in caught.value.message_dict


# --- Malformed input is a field error, never a crash --------------------------------------


def test_passport_add_refuses_a_missing_number():
    with pytest.raises(ValidationError) as caught:
        services.passport_add(
            by=international_staff(),
            person=PersonFactory(),
            issuing_country="IT",
            number=None,
            expiry_date=datetime.date(2031, 1, 1),
        )
    assert "number" in caught.value.message_dict


def test_passport_add_refuses_a_malformed_expiry_date():
    with pytest.raises(ValidationError) as caught:
        services.passport_add(
            by=international_staff(),
            person=PersonFactory(),
            issuing_country="IT",
            number="A1",
            expiry_date="31/12/2030",
        )
    assert "expiry_date" in caught.value.message_dict


def test_waiver_grant_refuses_a_malformed_year():
    with pytest.raises(ValidationError) as caught:
        services.waiver_grant(
            person=PersonFactory(), code="no_passport", reason="x", year="soon", approved_by=international_staff()
        )
    assert "year" in caught.value.message_dict


@pytest.mark.parametrize("certifications", [5, [None], {"CE": True}])
def test_equipment_model_refuses_malformed_certifications(certifications):
    with pytest.raises(ValidationError) as caught:
        services.equipment_model_create(
            kind="helmet", manufacturer="X", model_name="Y", certifications=certifications, by=international_staff()
        )
    assert "certifications" in caught.value.message_dict


def test_equipment_model_refuses_a_blank_manufacturer():
    with pytest.raises(ValidationError) as caught:
        services.equipment_model_create(kind="helmet", manufacturer=None, model_name="Y", by=international_staff())
    assert "manufacturer" in caught.value.message_dict


def test_equipment_model_accepts_a_comma_separated_string():
    item = services.equipment_model_create(
        kind="face_protection", manufacturer="X", model_name="Y", certifications="csa, ce", by=international_staff()
    )
    assert item.certifications == ["CSA", "CE"]
