"""The people pages: scoped by the access layer, constant query counts, eligibility with reasons."""

import datetime

import pytest
from django.urls import reverse

from accounts.models import Role
from tests.factories import (
    EligibilityWaiverFactory,
    EquipmentInspectionFactory,
    FederationFactory,
    PassportFactory,
    PersonFactory,
    ProtectiveDeviceRequestFactory,
    UserFactory,
    federation_staff,
    international_staff,
    with_role,
)

pytestmark = pytest.mark.django_db


def test_the_people_list_needs_a_login(client):
    response = client.get(reverse("federation:person-list"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_national_staff_see_only_their_federations_people(client):
    mine = PersonFactory(last_name="Insider")
    PersonFactory(last_name="Outsider")
    client.force_login(federation_staff(mine.federation))
    response = client.get(reverse("federation:person-list"))
    assert response.status_code == 200
    assert b"INSIDER" in response.content
    assert b"OUTSIDER" not in response.content


def test_the_people_list_searches_by_name_and_filters_by_federation_and_role(client):
    federation = FederationFactory()
    PersonFactory(federation=federation, first_name="Marco", last_name="Rossi", is_goalkeeper=True)
    PersonFactory(federation=federation, first_name="Luca", last_name="Bianchi", is_goalkeeper=False)
    PersonFactory(first_name="Marco", last_name="Other")
    client.force_login(international_staff())
    url = reverse("federation:person-list")
    by_name = client.get(url, {"q": "marco ross"}).content
    assert b"ROSSI" in by_name and b"BIANCHI" not in by_name and b"OTHER" not in by_name
    by_federation = client.get(url, {"federation": federation.pk}).content
    assert b"ROSSI" in by_federation and b"BIANCHI" in by_federation and b"OTHER" not in by_federation
    by_role = client.get(url, {"role": "goalkeeper"}).content
    assert b"ROSSI" in by_role and b"BIANCHI" not in by_role


def test_the_people_list_ignores_a_malformed_federation_filter(client):
    PersonFactory(last_name="Anyone")
    client.force_login(international_staff())
    response = client.get(reverse("federation:person-list"), {"federation": "abc"})
    assert response.status_code == 200
    assert b"ANYONE" in response.content


def test_the_people_list_is_paginated(client):
    federation = FederationFactory()
    PersonFactory.create_batch(30, federation=federation)
    client.force_login(federation_staff(federation))
    first = client.get(reverse("federation:person-list"))
    assert len(first.context["page"].object_list) == 25
    second = client.get(reverse("federation:person-list"), {"page": 2})
    assert len(second.context["page"].object_list) == 5


@pytest.mark.parametrize("count", [5, 30])
def test_the_people_list_query_count_is_constant(client, django_assert_num_queries, count):
    federation = FederationFactory()
    PersonFactory.create_batch(count, federation=federation)
    client.force_login(federation_staff(federation))
    # session, user, roles, count, page of people, federations of the filter, unread notifications (nav)
    with django_assert_num_queries(7):
        response = client.get(reverse("federation:person-list"))
    assert response.status_code == 200


def _person_with_records(count):
    person = PersonFactory()
    PassportFactory.create_batch(count // 5 or 1, person=person)
    EligibilityWaiverFactory.create_batch(count // 5 or 1, person=person)
    EquipmentInspectionFactory.create_batch(count // 5 or 1, person=person)
    ProtectiveDeviceRequestFactory.create_batch(count // 5 or 1, person=person)
    ProtectiveDeviceRequestFactory(person=person, status="rejected", decided_by=UserFactory(), decision_reason="No")
    return person


@pytest.mark.parametrize("count", [5, 30])
def test_the_person_page_query_count_is_constant(client, django_assert_num_queries, count):
    person = _person_with_records(count)
    client.force_login(federation_staff(person.federation))
    # session, user, roles, person+federation, then one query each: passports,
    # waivers+approvers, inspections+inspectors, requests+deciders, roster lines+championships,
    # waiver requests+requesters+deciders
    with django_assert_num_queries(11):  # and the nav's unread notifications
        response = client.get(reverse("federation:person-detail", args=[person.pk]))
    assert response.status_code == 200


def test_the_person_page_shows_eligibility_reasons_with_their_articles(client):
    person = PersonFactory(date_of_birth=datetime.date(2000, 3, 1))
    PassportFactory(person=person, expiry_date=datetime.date(2026, 7, 5))
    client.force_login(federation_staff(person.federation))
    response = client.get(reverse("federation:person-detail", args=[person.pk]), {"year": 2026})
    assert response.status_code == 200
    eligibility = response.context["eligibility"].assumed.results
    senior_men = next(result for category, result in eligibility.items() if category.value == "senior_men")
    assert [r.code for r in senior_men.reasons] == ["passport_expired"]
    content = response.content.decode()
    assert "Rule 1.1 B / R-03" in content
    assert "Junior Men" in content and "too_old" not in content  # codes are not shown, messages are
    assert "1.1 C" in content


def test_the_person_page_year_parameter_chooses_the_championship(client):
    # Born 2012: 14 on 1 January 2026, too young (13) in 2025 (1.1 C, R-01).
    person = PersonFactory(date_of_birth=datetime.date(2012, 1, 1))
    PassportFactory(person=person)
    client.force_login(federation_staff(person.federation))
    url = reverse("federation:person-detail", args=[person.pk])
    junior_2026 = {
        c.value: r for c, r in client.get(url, {"year": 2026}).context["eligibility"].assumed.results.items()
    }
    junior_2025 = {
        c.value: r for c, r in client.get(url, {"year": 2025}).context["eligibility"].assumed.results.items()
    }
    assert junior_2026["junior_men"].eligible
    assert [r.code for r in junior_2025["junior_men"].reasons] == ["too_young"]


def test_the_person_page_shows_a_waived_reason_as_waived(client):
    person = PersonFactory()
    EligibilityWaiverFactory(person=person, code="no_passport", reason="Renewal at the embassy")
    client.force_login(federation_staff(person.federation))
    response = client.get(reverse("federation:person-detail", args=[person.pk]))
    senior_men = next(r for c, r in response.context["eligibility"].assumed.results.items() if c.value == "senior_men")
    assert senior_men.eligible
    assert b"Renewal at the embassy" in response.content


def test_another_federations_person_is_not_found(client):
    person = PersonFactory()
    client.force_login(federation_staff())
    assert client.get(reverse("federation:person-detail", args=[person.pk])).status_code == 404


def test_a_game_official_sees_the_person_but_no_passport_or_medical_record(client):
    person = PersonFactory()
    PassportFactory(person=person, number="SECRET123")
    ProtectiveDeviceRequestFactory(person=person, description="Knee brace")
    official = with_role(Role.GAME_OFFICIAL)
    client.force_login(official)
    response = client.get(reverse("federation:person-detail", args=[person.pk]))
    assert response.status_code == 200
    assert b"SECRET123" not in response.content
    assert b"Knee brace" not in response.content
    assert response.context["eligibility"] is None
    assert b"Eligibility" not in response.content


def test_the_person_page_links_the_scan_and_the_prescription(client):
    person = PersonFactory()
    passport = PassportFactory(person=person, scan="passports/x/scan", scan_content_type="image/png")
    device_request = ProtectiveDeviceRequestFactory(person=person)
    client.force_login(federation_staff(person.federation))
    content = client.get(reverse("federation:person-detail", args=[person.pk])).content.decode()
    assert reverse("federation:passport-scan", args=[passport.pk]) in content
    assert reverse("federation:device-prescription", args=[device_request.pk]) in content


def test_the_prescription_is_served_to_the_federations_staff_only(client):
    device_request = ProtectiveDeviceRequestFactory()
    url = reverse("federation:device-prescription", args=[device_request.pk])
    client.force_login(federation_staff())
    assert client.get(url).status_code == 404
    client.force_login(federation_staff(device_request.person.federation))
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="prescription-{device_request.pk}.pdf"'
    assert response["X-Content-Type-Options"] == "nosniff"


def test_the_navigation_links_the_people_page(client):
    client.force_login(UserFactory())
    assert reverse("federation:person-list").encode() in client.get(reverse("home")).content


# --- Eligibility where the person is entered, before any assumed championship ---------------------------------


def _entered(person, *, start=datetime.date(2027, 7, 1), category="senior_men", **entry):
    from tests.factories import ChampionshipFactory, RosterEntryFactory, TeamEntryFactory

    championship = ChampionshipFactory(
        start_date=start,
        end_date=start + datetime.timedelta(days=9),
        entry_closing_date=start - datetime.timedelta(days=60),
        category=category,
    )
    team = TeamEntryFactory(championship=championship, federation=person.federation, **entry)
    return RosterEntryFactory(entry=team, person=person)


def test_the_person_page_shows_eligibility_first_for_the_championships_entered(client):
    # Passport valid until 5 July 2027: too short for the 2027 championship (ends 10 July), enough in 2026.
    person = PersonFactory()
    PassportFactory(person=person, expiry_date=datetime.date(2027, 7, 5))
    world = _entered(person).entry.championship
    earlier = _entered(person, start=datetime.date(2026, 7, 1)).entry.championship
    client.force_login(federation_staff(person.federation))
    response = client.get(reverse("federation:person-detail", args=[person.pk]))
    eligibility = response.context["eligibility"]
    assert eligibility.assumed is None  # no imagined event while the person is entered somewhere
    assert [line.entry.championship for line, _ in eligibility.entered] == [world, earlier]  # latest first
    (_, in_world), (_, in_earlier) = eligibility.entered
    assert [r.code for r in in_world.reasons] == ["passport_expired"]
    assert in_earlier.eligible
    page = " ".join(response.content.decode().split())
    assert page.index(world.name) < page.index(earlier.name)
    assert "Rule 1.1 B / R-03" in page
    assert "Assumed" not in page and "Not entered in any championship" not in page


def test_the_person_page_checks_an_assumed_championship_only_when_asked_or_entered_nowhere(client):
    person = PersonFactory()
    PassportFactory(person=person)
    client.force_login(federation_staff(person.federation))
    url = reverse("federation:person-detail", args=[person.pk])
    _entered(person, status="withdrawn")  # a withdrawn entry is no entry
    nowhere = client.get(url)
    assert nowhere.context["eligibility"].entered == []
    assert len(nowhere.context["eligibility"].assumed.results) == 6
    assert "Not entered in any championship: an assumed one" in " ".join(nowhere.content.decode().split())

    _entered(person)
    asked = client.get(url, {"year": 2030})
    assert len(asked.context["eligibility"].entered) == 1
    assert asked.context["eligibility"].assumed.start_date == datetime.date(2030, 7, 1)
    assert "Assumed championship (not an entry)" in asked.content.decode()


@pytest.mark.parametrize("entries", [1, 4])
def test_the_person_page_query_count_does_not_grow_with_the_entries(client, django_assert_num_queries, entries):
    person = _person_with_records(5)
    for year in range(entries):
        _entered(person, start=datetime.date(2027 + year, 7, 1))
    client.force_login(federation_staff(person.federation))
    with django_assert_num_queries(11):  # and the nav's unread notifications (and the waiver requests)
        response = client.get(reverse("federation:person-detail", args=[person.pk]))
    assert len(response.context["eligibility"].entered) == entries
