"""The issue's attack: another federation's staff open and revert a record's history in the admin."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from federation import services
from tests.factories import FederationFactory, PassportFactory, federation_staff

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
    posted = client.post(url, {"issuing_country": "DE", "number": passport.number, "expiry_date": "2031-01-31"})
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
