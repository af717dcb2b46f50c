"""Renewing a passport through the API (issue 29): the service of the page "Renew" (federation.services.passport_renew),
with the same refusals (1.1 B) and the same access (the staff who keep the holder's record)."""

from __future__ import annotations

import pytest

from federation.models import Passport
from tests.factories import (
    FederationFactory,
    PassportFactory,
    PersonFactory,
    client_for,
    federation_staff,
    jpeg_upload,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def passport():
    return PassportFactory(person=PersonFactory(federation=FederationFactory()))


def url(passport) -> str:
    return f"/api/passports/{passport.pk}/renew/"


def test_staff_renew_a_passport_with_its_scan_and_the_old_one_stays(passport):
    staff = client_for(federation_staff(passport.person.federation))
    response = staff.post(
        url(passport), {"number": "YA7654321", "expiry_date": "2040-05-31", "scan": jpeg_upload()}, format="multipart"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["person"] == passport.person_id and body["issuing_country"] == passport.issuing_country
    assert body["scan_url"]
    assert Passport.objects.filter(person=passport.person).count() == 2


def test_a_renewal_expiring_first_is_refused_and_others_may_not(passport):
    staff = client_for(federation_staff(passport.person.federation))
    early = staff.post(url(passport), {"number": "YA1", "expiry_date": "2030-01-31"}, format="json")
    assert early.status_code == 400 and "1.1 B" in early.json()["expiry_date"][0]
    blank = staff.post(url(passport), {"number": " ", "expiry_date": "2040-01-31"}, format="json")
    assert blank.status_code == 400 and "number" in blank.json()
    other = client_for(federation_staff(FederationFactory()))
    assert other.post(url(passport), {"number": "YA1", "expiry_date": "2040-01-31"}, format="json").status_code == 404
    assert client_for(None).post(url(passport), {}, format="json").status_code == 403
    assert Passport.objects.count() == 1
