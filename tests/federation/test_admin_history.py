"""The issue's attack: another federation's staff open and revert a record's history in the admin."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from federation import services
from tests.factories import (
    EligibilityWaiverFactory,
    FederationFactory,
    PassportFactory,
    PersonFactory,
    admin_form_data,
    federation_staff,
)

pytestmark = pytest.mark.django_db


def test_another_federations_staff_can_neither_read_nor_revert_a_passports_history():
    germany, italy = FederationFactory(), FederationFactory()
    passport = PassportFactory(person__federation=germany, expiry_date=datetime.date(2027, 1, 31))
    version = passport.history.latest()
    client = Client()
    client.force_login(federation_staff(italy))
    history = client.get(reverse("admin:federation_passport_history", args=[passport.pk]))
    assert history.status_code == 302 and "login" not in history["Location"]
    url = reverse("admin:federation_passport_simple_history", args=[passport.pk, version.history_id])
    assert client.get(url).status_code == 302
    posted = client.post(url, admin_form_data(passport, expiry_date="2031-01-31"))
    assert posted.status_code == 302 and "login" not in posted["Location"]
    passport.refresh_from_db()
    assert passport.expiry_date == datetime.date(2027, 1, 31)


def test_person_and_passport_services_refuse_another_federations_staff():
    germany, italy = FederationFactory(), FederationFactory()
    passport = PassportFactory(person__federation=germany)
    italian_staff = federation_staff(italy)
    with pytest.raises(PermissionDenied):
        services.person_update(person=passport.person, by=italian_staff, federation=italy)
    with pytest.raises(PermissionDenied):
        services.passport_update(passport=passport, by=italian_staff, expiry_date=datetime.date(2031, 1, 31))
    passport.refresh_from_db()
    assert passport.person.federation == germany
    assert passport.expiry_date != datetime.date(2031, 1, 31)


def test_another_federations_staff_can_neither_read_nor_revert_a_persons_history():
    germany, italy = FederationFactory(), FederationFactory()
    person = PersonFactory(federation=germany, last_name="Schmidt")
    version = person.history.latest()
    client = Client()
    client.force_login(federation_staff(italy))
    history = client.get(reverse("admin:federation_person_history", args=[person.pk]))
    # The admin's "no such object": a redirect to the index, not the German person's stored history.
    assert history.status_code == 302 and "login" not in history["Location"]
    assert b"Schmidt" not in history.content
    url = reverse("admin:federation_person_simple_history", args=[person.pk, version.history_id])
    form = client.get(url)
    assert form.status_code == 302 and b"Schmidt" not in form.content
    # The attack of the issue: move the German person into Italy's federation through the revert form.
    posted = client.post(url, admin_form_data(person, federation=italy.pk, last_name="Rossi"))
    assert posted.status_code == 302 and "login" not in posted["Location"]
    person.refresh_from_db()
    assert (person.federation, person.last_name) == (germany, "Schmidt")


def test_a_federations_own_staff_can_revert_their_persons_and_passports_history():
    germany = FederationFactory()
    staff = federation_staff(germany)
    passport = PassportFactory(person__federation=germany, expiry_date=datetime.date(2027, 1, 31))
    person = passport.person
    old_name = person.last_name
    services.person_update(person=person, by=staff, last_name="Changed")
    first = person.history.earliest()
    client = Client()
    client.force_login(staff)
    assert client.get(reverse("admin:federation_person_history", args=[person.pk])).status_code == 200
    url = reverse("admin:federation_person_simple_history", args=[person.pk, first.history_id])
    assert client.get(url).status_code == 200
    posted = client.post(url, admin_form_data(person, last_name=old_name))
    assert posted.status_code == 302 and "login" not in posted["Location"]
    person.refresh_from_db()
    assert person.last_name == old_name
    # The revert went through the services: the acting user is on the new version.
    assert person.history.latest().history_user == staff
    passport_url = reverse(
        "admin:federation_passport_simple_history", args=[passport.pk, passport.history.latest().history_id]
    )
    posted = client.post(passport_url, admin_form_data(passport, expiry_date="2031-01-31"))
    assert posted.status_code == 302
    passport.refresh_from_db()
    assert passport.expiry_date == datetime.date(2031, 1, 31)


def test_a_revert_needs_change_permission_even_with_view_permission():
    """A waiver is a record nobody edits in the admin: its staff read its history, the revert is refused."""
    germany = FederationFactory()
    waiver = EligibilityWaiverFactory(person__federation=germany, reason="Renewal pending")
    client = Client()
    client.force_login(federation_staff(germany))
    assert client.get(reverse("admin:federation_eligibilitywaiver_history", args=[waiver.pk])).status_code == 200
    url = reverse(
        "admin:federation_eligibilitywaiver_simple_history", args=[waiver.pk, waiver.history.latest().history_id]
    )
    posted = client.post(url, admin_form_data(waiver, reason="Reverted"))
    assert posted.status_code == 403
    waiver.refresh_from_db()
    assert waiver.reason == "Renewal pending"
