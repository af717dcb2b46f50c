"""The pieces of the federation register that serve several places: private downloads, record filters,
the admin's roles column and the guarded file URLs of the API."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from federation.models import ProtectiveDeviceRequest
from tests.factories import (
    EligibilityWaiverFactory,
    EquipmentInspectionFactory,
    FederationFactory,
    PassportFactory,
    PersonFactory,
    ProtectiveDeviceRequestFactory,
    SuperuserFactory,
    federation_staff,
    jpeg_upload,
)

pytestmark = pytest.mark.django_db


def test_a_device_request_without_a_stored_prescription_is_not_found_like_a_passport_without_scan(client):
    device_request = ProtectiveDeviceRequestFactory()
    ProtectiveDeviceRequest.objects.filter(pk=device_request.pk).update(prescription="")
    passport = PassportFactory(person=device_request.person)
    client.force_login(federation_staff(device_request.person.federation))
    assert client.get(reverse("federation:device-prescription", args=[device_request.pk])).status_code == 404
    assert client.get(reverse("federation:passport-scan", args=[passport.pk])).status_code == 404


@pytest.mark.parametrize(
    ("url", "factory"),
    [
        ("/api/passports/", PassportFactory),
        ("/api/eligibility-waivers/", EligibilityWaiverFactory),
        ("/api/equipment-inspections/", EquipmentInspectionFactory),
        ("/api/device-requests/", ProtectiveDeviceRequestFactory),
    ],
)
def test_every_record_of_a_person_filters_by_person_and_federation(url, factory):
    mine, theirs = FederationFactory(), FederationFactory()
    kept = factory(person=PersonFactory(federation=mine))
    factory(person=PersonFactory(federation=theirs))
    client = APIClient()
    client.force_authenticate(SuperuserFactory())
    for params in ({"federation": mine.pk}, {"person": kept.person_id}):
        response = client.get(url, params)
        assert response.status_code == 200
        assert [row["id"] for row in response.json()["results"]] == [kept.pk]


def test_the_admin_people_list_names_the_roles_held(client):
    PersonFactory(last_name="Keeper", is_player=False, is_goalkeeper=True, is_referee=True)
    PersonFactory(last_name="Nobody", is_player=False)
    client.force_login(SuperuserFactory(is_staff=True))
    content = client.get(reverse("admin:federation_person_changelist")).content.decode()
    assert "goalkeeper, referee" in content
    assert "—" in content


def test_the_api_gives_scan_and_prescription_urls_of_the_guarded_views_only_when_stored():
    with_scan = PassportFactory(scan=jpeg_upload(), scan_content_type="image/jpeg")
    without = PassportFactory(person=with_scan.person)
    device_request = ProtectiveDeviceRequestFactory(person=with_scan.person)
    client = APIClient()
    client.force_authenticate(SuperuserFactory())
    scans = {row["id"]: row["scan_url"] for row in client.get("/api/passports/").json()["results"]}
    assert scans[with_scan.pk] == f"http://testserver/federation/passports/{with_scan.pk}/scan/"
    assert scans[without.pk] is None
    row = client.get(f"/api/device-requests/{device_request.pk}/").json()
    assert row["prescription_url"] == f"http://testserver/federation/device-requests/{device_request.pk}/prescription/"
