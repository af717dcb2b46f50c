"""The daily pages of the federation register: registering a person with a passport (the staff's federation
preset), asking for a waiver on the person page, and the IHTC's queue of waiting requests (R-03)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from federation.models import EligibilityWaiver, Passport, Person, WaiverRequest, WaiverRequestStatus
from tests.factories import (
    FederationFactory,
    PassportFactory,
    PersonFactory,
    WaiverRequestFactory,
    federation_staff,
    html_upload,
    ihtc_executive,
    international_staff,
    png_upload,
)

pytestmark = pytest.mark.django_db

REGISTER = reverse("federation:person-register")
QUEUE = reverse("federation:waiver-queue")
NEXT_YEAR = timezone.localdate().year + 1


def registration(**overrides):
    data = {
        "first_name": "Luca",
        "last_name": "Bianchi",
        "date_of_birth": f"{NEXT_YEAR - 16}-03-03",
        "gender": "M",
        "nationality": "IT",
        "is_player": "on",
        "issuing_country": "IT",
        "number": "ya 123 4567",
        "expiry_date": f"{NEXT_YEAR}-05-31",
        "scan": png_upload("passport.png"),
    }
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


@pytest.fixture
def italy():
    return FederationFactory(name="Federazione Test", country="IT")


def test_national_staff_register_a_person_and_passport_in_their_own_federation(client, italy):
    client.force_login(federation_staff(italy))
    page = client.get(REGISTER)
    assert page.status_code == 200
    assert page.context["form"].fields["federation"].disabled
    # A posted federation is ignored: the staff member's own is preset and cannot be changed.
    other = FederationFactory(country="FR")
    response = client.post(REGISTER, registration(federation=other.pk))
    person = Person.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("federation:person-detail", args=[person.pk])
    assert person.federation == italy
    passport = Passport.objects.get()
    assert (passport.person, passport.number, passport.scan_content_type) == (person, "YA1234567", "image/png")


def test_international_staff_choose_the_federation(client, italy):
    client.force_login(international_staff())
    assert not client.get(REGISTER).context["form"].fields["federation"].disabled
    response = client.post(REGISTER, registration(federation=italy.pk))
    assert response.status_code == 302
    assert Person.objects.get().federation == italy


def test_a_person_may_be_registered_without_a_passport(client, italy):
    client.force_login(federation_staff(italy))
    response = client.post(
        REGISTER, registration(issuing_country="", number="", expiry_date="", scan=None, is_player=None)
    )
    assert response.status_code == 302
    assert not Passport.objects.exists()


@pytest.mark.parametrize(
    ("overrides", "field", "cites"),
    [
        ({"scan": html_upload("passport.png", content_type="image/png")}, "scan", "JPEG, PNG or PDF"),
        ({"expiry_date": ""}, "expiry_date", "Rule 1.1 B"),
        ({"expiry_date": "9999-01-01"}, "expiry_date", "Plausibility"),
        ({"date_of_birth": "1066-10-14"}, "date_of_birth", "Plausibility"),
        ({"last_name": ""}, "last_name", "required"),
        ({"issuing_country": "XX"}, "issuing_country", "valid choice"),
    ],
)
def test_bad_input_is_a_form_error_naming_the_field_and_stores_nothing(client, italy, overrides, field, cites):
    client.force_login(federation_staff(italy))
    response = client.post(REGISTER, registration(**overrides))
    assert response.status_code == 400
    assert cites in " ".join(response.context["form"].errors[field])
    assert not Person.objects.exists()
    assert not Passport.objects.exists()


def test_a_passport_number_already_recorded_leaves_no_person_behind(client, italy):
    PassportFactory(issuing_country="IT", number="YA1234567")
    client.force_login(federation_staff(italy))
    response = client.post(REGISTER, registration())
    assert response.status_code == 400
    assert response.context["form"].errors
    assert Person.objects.count() == 1  # the holder of the existing passport only


def test_people_who_are_not_federation_staff_cannot_register(client):
    from tests.factories import UserFactory

    client.force_login(UserFactory())
    assert client.get(REGISTER).status_code == 403


def expiring_junior(federation):
    person = PersonFactory(federation=federation, date_of_birth=datetime.date(NEXT_YEAR - 16, 3, 3))
    PassportFactory(person=person, expiry_date=datetime.date(NEXT_YEAR, 5, 31))
    return person


def test_staff_request_a_waiver_on_the_person_page(client, italy):
    person = expiring_junior(italy)
    client.force_login(federation_staff(italy))
    detail = reverse("federation:person-detail", args=[person.pk])
    page = client.get(detail, {"year": NEXT_YEAR})
    assert b"Request a waiver" in page.content
    response = client.post(
        reverse("federation:waiver-request-create", args=[person.pk]) + f"?year={NEXT_YEAR}",
        {"code": "passport_expired", "category": "junior_men", "year": NEXT_YEAR, "justification": "Renewal pending"},
    )
    assert response.status_code == 302
    assert response["Location"] == f"{detail}?year={NEXT_YEAR}"
    assert WaiverRequest.objects.get().status == WaiverRequestStatus.REQUESTED


def test_a_waiver_request_without_justification_is_a_form_error(client, italy):
    person = expiring_junior(italy)
    client.force_login(federation_staff(italy))
    response = client.post(
        reverse("federation:waiver-request-create", args=[person.pk]),
        {"code": "passport_expired", "category": "junior_men", "justification": ""},
    )
    assert response.status_code == 400
    assert "justification" in response.context["waiver_form"].errors
    assert not WaiverRequest.objects.exists()


def test_an_age_cannot_be_asked_to_be_waived(client, italy):
    person = expiring_junior(italy)
    client.force_login(federation_staff(italy))
    response = client.post(
        reverse("federation:waiver-request-create", args=[person.pk]),
        {"code": "too_young", "justification": "Very talented"},
    )
    assert response.status_code == 400
    assert "code" in response.context["waiver_form"].errors
    assert not WaiverRequest.objects.exists()


def test_the_queue_lists_waiting_requests_oldest_first(client):
    now = datetime.datetime(2026, 3, 1, tzinfo=datetime.UTC)
    newer = WaiverRequestFactory(requested_at=now)
    older = WaiverRequestFactory(requested_at=now - datetime.timedelta(days=2))
    WaiverRequestFactory(status=WaiverRequestStatus.REFUSED, decision_reason="No", decided_at=now)
    client.force_login(ihtc_executive())
    response = client.get(QUEUE)
    assert response.status_code == 200
    assert [item for item, _form in response.context["rows"]] == [older, newer]


def test_the_executive_grants_from_the_queue(client):
    request = WaiverRequestFactory()
    client.force_login(ihtc_executive())
    response = client.post(
        reverse("federation:waiver-request-decide", args=[request.pk]),
        {"decision": "grant", "decision_reason": "Renewal receipt seen"},
    )
    assert response.status_code == 302
    request.refresh_from_db()
    assert request.status == WaiverRequestStatus.GRANTED
    assert EligibilityWaiver.objects.get().reason == "Renewal receipt seen"


def test_a_decision_without_a_reason_is_a_form_error_and_decides_nothing(client):
    request = WaiverRequestFactory()
    client.force_login(ihtc_executive())
    response = client.post(
        reverse("federation:waiver-request-decide", args=[request.pk]), {"decision": "refuse", "decision_reason": ""}
    )
    assert response.status_code == 400
    assert b"R-03" in response.content
    request.refresh_from_db()
    assert request.status == WaiverRequestStatus.REQUESTED


def test_national_staff_have_no_queue_and_cannot_decide(client):
    request = WaiverRequestFactory()
    client.force_login(federation_staff(request.person.federation))
    assert client.get(QUEUE).status_code == 403
    response = client.post(
        reverse("federation:waiver-request-decide", args=[request.pk]), {"decision": "grant", "decision_reason": "x"}
    )
    assert response.status_code == 403
    assert not EligibilityWaiver.objects.exists()
