"""Models of the federation register: readable names, audit history, database constraints."""

import datetime

import pytest
from django.db import IntegrityError

from federation.models import EligibilityWaiver, EquipmentModel
from tests.factories import (
    EligibilityWaiverFactory,
    EquipmentInspectionFactory,
    EquipmentModelFactory,
    PersonFactory,
    ProtectiveDeviceRequestFactory,
    SuperuserFactory,
)

pytestmark = pytest.mark.django_db


def test_records_read_well():
    person = PersonFactory(first_name="Anna", last_name="Keller")
    waiver = EligibilityWaiverFactory(person=person, code="no_passport", category="senior_women", year=2026)
    assert str(waiver) == "KELLER Anna: No passport of the team's country (1.1 B, R-03) waived (Senior Women 2026)"
    everywhere = EligibilityWaiverFactory(person=person, code="wrong_nationality")
    assert str(everywhere).endswith("waived (all championships)")
    assert str(EquipmentModelFactory(manufacturer="Bauer", model_name="RE-AKT")) == "Bauer RE-AKT (Helmet)"
    inspection = EquipmentInspectionFactory(
        person=person, inspected_at=datetime.datetime(2026, 7, 2, 10, tzinfo=datetime.UTC)
    )
    assert str(inspection) == "KELLER Anna: Player stick (3.2.2 C) on 2026-07-02, compliant"
    request = ProtectiveDeviceRequestFactory(person=person, description="Knee brace")
    assert str(request) == "KELLER Anna: Knee brace (Submitted)"


def test_every_record_keeps_its_history():
    for record in [
        EligibilityWaiverFactory(),
        EquipmentModelFactory(),
        EquipmentInspectionFactory(),
        ProtectiveDeviceRequestFactory(),
    ]:
        assert record.history.count() == 1


def test_a_waiver_scope_covers_its_category_and_year_only():
    waiver = EligibilityWaiverFactory(category="junior_men", year=2026)
    assert waiver.applies_to(category="junior_men", year=2026)
    assert not waiver.applies_to(category="senior_men", year=2026)
    assert not waiver.applies_to(category="junior_men", year=2027)
    assert waiver.applies_to()


def test_the_database_refuses_a_waiver_without_reason():
    with pytest.raises(IntegrityError):
        EligibilityWaiver.objects.create(
            person=PersonFactory(),
            code="no_passport",
            reason="",
            approved_by=SuperuserFactory(),
            approved_at=datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC),
        )


def test_the_database_refuses_an_approval_without_date():
    with pytest.raises(IntegrityError):
        EquipmentModel.objects.create(kind="helmet", manufacturer="X", model_name="Y", approved=True)


def test_the_database_refuses_the_same_model_twice():
    EquipmentModelFactory(manufacturer="X", model_name="Y")
    with pytest.raises(IntegrityError):
        EquipmentModelFactory(manufacturer="X", model_name="Y")
