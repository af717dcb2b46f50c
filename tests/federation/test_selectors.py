"""Selectors: the facts the pure eligibility core reads, built from the register."""

import datetime

import pytest
from django.utils import timezone

from federation import eligibility
from federation.models import CategoryChoice, WaivableCode
from federation.selectors import person_eligibility_by_category, person_facts, person_list, waiver_facts
from tests.factories import (
    EligibilityWaiverFactory,
    FederationFactory,
    PassportFactory,
    PersonFactory,
    federation_staff,
    international_staff,
)

pytestmark = pytest.mark.django_db


def test_person_facts_carry_birth_gender_nationality_and_every_passport():
    person = PersonFactory(date_of_birth=datetime.date(1999, 2, 3), gender="F", nationality="CH")
    PassportFactory(person=person, issuing_country="CH", expiry_date=datetime.date(2030, 1, 1))
    PassportFactory(person=person, issuing_country="FR", expiry_date=datetime.date(2027, 1, 1))
    facts = person_facts(person)
    assert facts.date_of_birth == datetime.date(1999, 2, 3)
    assert facts.gender == "F"
    assert facts.nationality == "CH"
    assert set(facts.passports) == {
        eligibility.PassportFacts("CH", datetime.date(2030, 1, 1)),
        eligibility.PassportFacts("FR", datetime.date(2027, 1, 1)),
    }


def test_waiver_facts_keep_only_those_for_the_category_and_year():
    person = PersonFactory()
    EligibilityWaiverFactory(person=person, code="no_passport", reason="Everywhere")
    EligibilityWaiverFactory(person=person, code="wrong_nationality", category="junior_men", reason="Juniors")
    EligibilityWaiverFactory(person=person, code="passport_expired", year=2025, reason="Last year")
    assert {w.reason for w in waiver_facts(person)} == {"Everywhere", "Juniors", "Last year"}
    assert {w.reason for w in waiver_facts(person, category="senior_men", year=2026)} == {"Everywhere"}
    assert {w.reason for w in waiver_facts(person, category="junior_men", year=2025)} == {
        "Everywhere",
        "Juniors",
        "Last year",
    }


def test_waiver_facts_name_the_approver():
    waiver = EligibilityWaiverFactory()
    assert waiver_facts(waiver.person)[0].approved_by == str(waiver.approved_by)


def test_eligibility_defaults_to_1_to_10_july_this_year_for_the_federations_country():
    year = timezone.now().year
    person = PersonFactory(date_of_birth=datetime.date(year - 30, 6, 1), nationality="IT", federation__country="IT")
    # Valid on 10 July (the last day) but not after: still eligible.
    PassportFactory(person=person, issuing_country="IT", expiry_date=datetime.date(year, 7, 10))
    results = person_eligibility_by_category(person)
    assert set(results) == set(eligibility.Category)
    assert results[eligibility.Category.SENIOR_MEN].eligible
    assert {r.code for r in results[eligibility.Category.SENIOR_WOMEN].reasons} == {"wrong_gender"}
    assert {r.code for r in results[eligibility.Category.JUNIOR_MEN].reasons} == {"too_old"}


def test_eligibility_counts_a_passport_expiring_before_the_last_day_as_expired():
    person = PersonFactory(nationality="IT", federation__country="IT")
    PassportFactory(person=person, issuing_country="IT", expiry_date=datetime.date(2026, 7, 9))
    results = person_eligibility_by_category(person, year=2026)
    assert [r.article for r in results[eligibility.Category.SENIOR_MEN].reasons] == ["1.1 B"]


def test_eligibility_applies_a_category_scoped_waiver_only_to_that_category():
    person = PersonFactory(date_of_birth=datetime.date(1980, 1, 1))  # no passport at all
    EligibilityWaiverFactory(person=person, code="no_passport", category="masters_men")
    results = person_eligibility_by_category(person, year=2026)
    assert results[eligibility.Category.MASTERS_MEN].eligible
    assert [w.reason for _, w in results[eligibility.Category.MASTERS_MEN].waived]
    assert {r.code for r in results[eligibility.Category.SENIOR_MEN].reasons} == {"no_passport"}


def test_eligibility_takes_explicit_dates_and_team_country():
    person = PersonFactory(nationality="IT", federation__country="IT")
    PassportFactory(person=person, issuing_country="IT")
    results = person_eligibility_by_category(
        person, start_date=datetime.date(2027, 9, 1), end_date=datetime.date(2027, 9, 8), team_country="DE"
    )
    assert {r.code for r in results[eligibility.Category.SENIOR_MEN].reasons} == {"wrong_nationality", "no_passport"}


def test_person_list_is_scoped_by_the_access_layer():
    mine = PersonFactory()
    PersonFactory()
    assert list(person_list(federation_staff(mine.federation))) == [mine]
    assert person_list(international_staff()).count() == 2


def test_person_list_filters_by_federation():
    federation = FederationFactory()
    person = PersonFactory(federation=federation)
    PersonFactory()
    assert list(person_list(international_staff(), federation_id=federation.pk)) == [person]


# --- The models mirror the pure core's vocabulary -----------------------------------------


def test_waivable_codes_are_the_eligibility_cores():
    assert set(WaivableCode.values) == set(eligibility.WAIVABLE_CODES)


def test_category_choices_are_the_eligibility_cores():
    assert CategoryChoice.choices == eligibility.Category.choices()


def test_eligibility_of_an_unprefetched_person_takes_two_queries(django_assert_num_queries):
    person = PersonFactory()
    EligibilityWaiverFactory.create_batch(3, person=person)
    PassportFactory.create_batch(2, person=person)
    person = type(person).objects.select_related("federation").get(pk=person.pk)
    # passports, waivers with their approvers: not one query per category or waiver
    with django_assert_num_queries(2):
        person_eligibility_by_category(person, year=2026)
