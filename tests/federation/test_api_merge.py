"""Merging two records of one person through the API (issue 29): the service of the page "Merge a duplicate"
(``federation.merge.person_merge``), for international staff, with the same refusals."""

from __future__ import annotations

import pytest

from federation.models import Person
from tests.factories import (
    FederationFactory,
    PassportFactory,
    PersonFactory,
    client_for,
    federation_staff,
    international_staff,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def records():
    keep = PersonFactory(federation=FederationFactory())
    duplicate = PersonFactory(
        federation=keep.federation,
        first_name=keep.first_name,
        last_name=keep.last_name,
        date_of_birth=keep.date_of_birth,
    )
    PassportFactory(person=duplicate)
    return keep, duplicate


def url(person) -> str:
    return f"/api/people/{person.pk}/merge/"


def test_international_staff_merge_the_duplicate_and_its_passport_moves(records):
    keep, duplicate = records
    response = client_for(international_staff()).post(url(keep), {"duplicate": duplicate.pk}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["person"]["id"] == keep.pk
    assert body["moved"]["federation.Passport.person"] == 1
    assert not Person.objects.filter(pk=duplicate.pk).exists()
    assert keep.passports.count() == 1


def test_refusals_name_the_field_and_keep_both_records(records):
    keep, duplicate = records
    ihtc = client_for(international_staff())
    for body in ({"duplicate": keep.pk}, {"duplicate": 999999}, {"duplicate": "٣"}, {}):
        response = ihtc.post(url(keep), body, format="json")
        assert response.status_code == 400 and "duplicate" in response.json(), (body, response.json())
    # The federation's own staff may not merge (a merge may join records of two federations): 403 before any lookup.
    staff = client_for(federation_staff(keep.federation))
    response = staff.post(url(keep), {"duplicate": duplicate.pk}, format="json")
    assert response.status_code == 403 and "merge" in response.json()["detail"]
    assert staff.post("/api/people/999999/merge/", {"duplicate": duplicate.pk}, format="json").status_code == 403
    assert (
        client_for(international_staff())
        .post("/api/people/999999/merge/", {"duplicate": duplicate.pk}, format="json")
        .status_code
        == 404
    )
    assert Person.objects.filter(pk__in=[keep.pk, duplicate.pk]).count() == 2


def test_a_namesake_is_registered_only_when_the_client_says_register_anyway():
    """Portal rule (no silent duplicate), as on the page "Register a person" (federation.services.person_register)."""
    federation = FederationFactory()
    staff = client_for(federation_staff(federation))
    body = {
        "federation": federation.pk, "first_name": "Luca", "last_name": "Verdi", "date_of_birth": "2001-04-12",
        "gender": "M", "nationality": "IT",
    }  # fmt: skip
    first = staff.post("/api/people/", body, format="json")
    assert first.status_code == 201 and "register_anyway" not in first.json()
    again = staff.post("/api/people/", {**body, "first_name": " luca "}, format="json")
    assert again.status_code == 400 and "no silent duplicate" in again.json()["register_anyway"][0]
    assert Person.objects.filter(last_name="Verdi").count() == 1
    anyway = staff.post("/api/people/", {**body, "register_anyway": True}, format="json")
    assert anyway.status_code == 201
    assert Person.objects.filter(last_name="Verdi").count() == 2
