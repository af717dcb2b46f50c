"""Waiver requests through the API (issue 29; R-03): a federation asks, the IHTC grants or refuses with a reason, the
same services as the person's page and the IHTC's queue, with the same refusals."""

from __future__ import annotations

import pytest

from accounts.models import Role
from federation.models import EligibilityWaiver, WaiverRequest
from tests.factories import (
    FederationFactory,
    PersonFactory,
    client_for,
    federation_staff,
    international_staff,
    with_role,
)

pytestmark = pytest.mark.django_db
URL = "/api/waiver-requests/"


@pytest.fixture
def person():
    return PersonFactory(federation=FederationFactory())


def ask(client, who, **changes):
    body = {"person": who.pk, "code": "passport_expired", "year": 2027, "justification": "Renewal filed."}
    return client.post(URL, {**body, **changes}, format="json")


def test_staff_ask_and_the_ihtc_grants_which_records_the_waiver(person):
    staff = client_for(federation_staff(person.federation))
    response = ask(staff, person)
    assert response.status_code == 201, response.json()
    asked = response.json()
    assert (asked["status"], asked["code"], asked["year"], asked["waiver"]) == (
        "requested",
        "passport_expired",
        2027,
        None,
    )
    # The same waiver waiting already: refused as on the page.
    again = ask(staff, person)
    assert again.status_code == 400 and "R-03" in again.json()["code"][0]
    ihtc = client_for(international_staff())
    assert [r["id"] for r in ihtc.get(URL, {"status": "requested"}).json()["results"]] == [asked["id"]]
    granted = ihtc.post(f"{URL}{asked['id']}/decision/", {"decision": "grant", "decision_reason": "Proven."})
    assert granted.status_code == 200, granted.json()
    assert granted.json()["status"] == "granted" and granted.json()["waiver"] is not None
    assert EligibilityWaiver.objects.get(person=person).year == 2027
    # Decided once.
    twice = ihtc.post(f"{URL}{asked['id']}/decision/", {"decision": "refuse", "decision_reason": "No."})
    assert twice.status_code == 400 and "R-03" in str(twice.json())
    assert staff.get(f"{URL}{asked['id']}/").json()["decision_reason"] == "Proven."


def test_refusals_name_the_field_and_store_nothing(person):
    staff = client_for(federation_staff(person.federation))
    for changes, field in (
        ({"justification": "  "}, "justification"),
        ({"code": "no_such_code"}, "code"),
        ({"category": "under_7"}, "category"),
        ({"person": 999999}, "person"),
        ({"year": "٣"}, "year"),
        ({"year": 99999}, "year"),
    ):
        response = ask(staff, person, **changes)
        assert response.status_code == 400 and field in response.json(), (changes, response.json())
    assert not WaiverRequest.objects.exists()
    assert client_for(international_staff()).get(URL, {"status": "bogus"}).status_code == 400


def test_who_asks_who_decides_and_who_sees(person):
    other_staff = client_for(federation_staff(FederationFactory()))
    # Another federation's staff do not see the person: the body's person is unknown to them.
    assert ask(other_staff, person).status_code == 400
    assert ask(client_for(with_role(Role.TEAM_MANAGER, person.federation)), person).status_code in (400, 403)
    assert ask(client_for(None), person).status_code == 403
    staff = client_for(federation_staff(person.federation))
    asked = ask(staff, person).json()
    decision = {"decision": "grant", "decision_reason": "Proven."}
    # The requesting federation sees it but may not decide (403); another federation does not see it (404).
    assert staff.post(f"{URL}{asked['id']}/decision/", decision).status_code == 403
    assert other_staff.post(f"{URL}{asked['id']}/decision/", decision).status_code == 404
    assert other_staff.get(f"{URL}{asked['id']}/").status_code == 404
    assert other_staff.get(URL).json()["results"] == []
    refused = client_for(with_role(Role.IHTC_EXECUTIVE)).post(
        f"{URL}{asked['id']}/decision/", {"decision": "refuse", "decision_reason": "Not proven."}
    )
    assert refused.status_code == 200 and refused.json()["status"] == "refused"
    assert not EligibilityWaiver.objects.exists()
