"""Waiver requests (R-03): federation staff ask, the IHTC grants (recording the waiver eligibility reads) or
refuses with a reason, and the requester is told."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.utils import timezone

from federation import services
from federation.access import access_waiver_request, waiver_requests_visible_to
from federation.models import WAIVER_REQUEST_TRANSITIONS, EligibilityWaiver, WaiverRequest, WaiverRequestStatus
from portal.models import Notification
from tests.factories import (
    PassportFactory,
    PersonFactory,
    WaiverRequestFactory,
    federation_staff,
    ihtc_executive,
    international_staff,
)
from tournaments.selectors import person_eligibility

pytestmark = pytest.mark.django_db

NEXT_YEAR = timezone.localdate().year + 1


def junior_with_expiring_passport():
    """A 15-year-old (on 1 January next year) whose passport expires in May, before a July championship (1.1 B)."""
    person = PersonFactory(date_of_birth=datetime.date(NEXT_YEAR - 16, 3, 3))
    PassportFactory(person=person, expiry_date=datetime.date(NEXT_YEAR, 5, 31))
    return person


def ask(person, **overrides):
    arguments = {
        "person": person,
        "code": "passport_expired",
        "category": "junior_men",
        "year": NEXT_YEAR,
        "justification": "Renewal applied for in March; the new passport comes in August.",
        "requested_by": federation_staff(person.federation),
    }
    return services.request_waiver(**{**arguments, **overrides})


def junior_men(person):
    results = person_eligibility(person, year=NEXT_YEAR).assumed.results
    return next(result for category, result in results.items() if category == "junior_men")


def test_the_transition_table_decides_a_request_once():
    assert {"requested": {"granted", "refused"}, "granted": set(), "refused": set()} == WAIVER_REQUEST_TRANSITIONS


def test_the_factory_builds_a_waiting_request_of_the_persons_federation_staff():
    request = WaiverRequestFactory()
    assert request.status == WaiverRequestStatus.REQUESTED
    assert request.person.federation_id in {a.federation_id for a in request.requested_by.role_assignments.all()}


def test_staff_ask_and_the_request_waits_without_a_waiver():
    request = ask(junior_with_expiring_passport())
    assert request.status == WaiverRequestStatus.REQUESTED
    assert not EligibilityWaiver.objects.exists()


def test_staff_of_another_federation_cannot_ask():
    with pytest.raises(PermissionDenied):
        ask(junior_with_expiring_passport(), requested_by=federation_staff())
    assert not WaiverRequest.objects.exists()


@pytest.mark.parametrize(
    ("overrides", "field", "cites"),
    [
        ({"code": "too_young"}, "code", "R-03"),
        ({"justification": "  "}, "justification", "R-03"),
        ({"category": "u12"}, "category", "category"),
        ({"year": 1200}, "year", "year"),
    ],
)
def test_a_bad_request_names_the_field_and_stores_nothing(overrides, field, cites):
    with pytest.raises(ValidationError) as caught:
        ask(junior_with_expiring_passport(), **overrides)
    assert cites in caught.value.message_dict[field][0]
    assert not WaiverRequest.objects.exists()


def test_the_same_waiver_cannot_wait_twice():
    person = junior_with_expiring_passport()
    ask(person)
    with pytest.raises(ValidationError) as caught:
        ask(person)
    assert "already waits" in caught.value.message_dict["code"][0]


def test_the_executive_grants_and_the_player_becomes_eligible_for_junior_men():
    person = junior_with_expiring_passport()
    assert [reason.code for reason in junior_men(person).reasons] == ["passport_expired"]
    executive = ihtc_executive()
    request = services.grant_waiver_request(by=executive, request=ask(person), reason="Renewal receipt seen (R-03)")
    assert request.status == WaiverRequestStatus.GRANTED
    assert request.decided_by == executive
    waiver = EligibilityWaiver.objects.get()
    assert request.waiver == waiver
    assert (waiver.code, waiver.category, waiver.year, waiver.approved_by) == (
        "passport_expired",
        "junior_men",
        NEXT_YEAR,
        executive,
    )
    person = PersonFactory._meta.model.objects.get(pk=person.pk)
    assert junior_men(person).eligible


def test_the_requester_is_told_of_the_decision():
    person = junior_with_expiring_passport()
    request = ask(person)
    services.refuse_waiver_request(by=ihtc_executive(), request=request, reason="No renewal applied for")
    note = Notification.objects.get(user=request.requested_by)
    assert "refused" in note.subject.lower()
    assert "No renewal applied for" in note.body
    assert note.url == f"/federation/people/{person.pk}/"


def test_a_refusal_states_its_reason_and_records_no_waiver():
    request = ask(junior_with_expiring_passport())
    with pytest.raises(ValidationError) as caught:
        services.refuse_waiver_request(by=ihtc_executive(), request=request, reason=" ")
    assert "R-03" in caught.value.message_dict["decision_reason"][0]
    refused = services.refuse_waiver_request(by=ihtc_executive(), request=request, reason="Not justified")
    assert refused.status == WaiverRequestStatus.REFUSED
    assert not EligibilityWaiver.objects.exists()


def test_a_decided_request_cannot_be_decided_again():
    request = ask(junior_with_expiring_passport())
    services.refuse_waiver_request(by=ihtc_executive(), request=request, reason="Not justified")
    with pytest.raises(ValidationError) as caught:
        services.grant_waiver_request(by=ihtc_executive(), request=request, reason="Changed my mind")
    assert "R-03" in caught.value.message_dict["status"][0]
    assert not EligibilityWaiver.objects.exists()


def test_national_staff_cannot_decide_even_their_own_request():
    person = junior_with_expiring_passport()
    staff = federation_staff(person.federation)
    request = ask(person, requested_by=staff)
    with pytest.raises(PermissionDenied):
        services.grant_waiver_request(by=staff, request=request, reason="Self-granted")
    request.refresh_from_db()
    assert request.status == WaiverRequestStatus.REQUESTED


def test_requests_are_seen_by_the_persons_federation_and_the_ihtc_only():
    request = WaiverRequestFactory()
    staff = federation_staff(request.person.federation)
    assert list(waiver_requests_visible_to(staff)) == [request]
    assert list(waiver_requests_visible_to(ihtc_executive())) == [request]
    assert list(waiver_requests_visible_to(international_staff())) == [request]
    assert not waiver_requests_visible_to(federation_staff()).exists()
    with pytest.raises(Http404):
        access_waiver_request(federation_staff(), request.pk)
    with pytest.raises(PermissionDenied):
        access_waiver_request(staff, request.pk, for_decision=True)
    assert access_waiver_request(ihtc_executive(), request.pk, for_decision=True) == request
