"""Plausible dates (no article governs them): a date of birth or a passport expiry in year 1 or 9999 is refused.

One function per field rule (``services.check_date_of_birth``, ``services.check_passport_expiry``); the
services call them, so the API refuses with a 400 naming the field, and the admin forms call them too.
"""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from federation import services
from federation.models import Passport, Person
from tests.factories import FederationFactory, PassportFactory, PersonFactory, client_for, federation_staff

TODAY = datetime.date(2026, 12, 3)


def _refused(check, value, field):
    with pytest.raises(ValidationError) as refused:
        check(value, today=TODAY)
    (message,) = refused.value.message_dict[field]
    assert message.startswith("Plausibility")
    assert value.isoformat() in message
    return message


@pytest.mark.parametrize(
    "born",
    [datetime.date(1, 1, 1), datetime.date(1899, 12, 31), datetime.date(2026, 12, 4), datetime.date(9999, 12, 31)],
)
def test_a_date_of_birth_before_1900_or_in_the_future_is_refused(born):
    message = _refused(services.check_date_of_birth, born, "date_of_birth")
    assert "1900-01-01" in message and TODAY.isoformat() in message


@pytest.mark.parametrize("born", [datetime.date(1900, 1, 1), datetime.date(2012, 2, 29), TODAY])
def test_a_plausible_date_of_birth_passes(born):
    services.check_date_of_birth(born, today=TODAY)


@pytest.mark.parametrize(
    "expiry",
    [datetime.date(1, 1, 1), datetime.date(1899, 12, 31), datetime.date(2046, 12, 4), datetime.date(9999, 1, 1)],
)
def test_a_passport_expiring_before_1900_or_more_than_20_years_ahead_is_refused(expiry):
    message = _refused(services.check_passport_expiry, expiry, "expiry_date")
    assert "2046-12-03" in message


@pytest.mark.parametrize("expiry", [datetime.date(1990, 5, 1), datetime.date(2036, 1, 1), datetime.date(2046, 12, 3)])
def test_a_plausible_passport_expiry_passes_even_long_expired(expiry):
    services.check_passport_expiry(expiry, today=TODAY)


def test_twenty_years_from_29_february_into_a_common_year_is_28_february():
    services.check_passport_expiry(datetime.date(2100, 2, 28), today=datetime.date(2080, 2, 29))  # 2100: no 29th
    with pytest.raises(ValidationError):
        services.check_passport_expiry(datetime.date(2100, 3, 1), today=datetime.date(2080, 2, 29))


# --- The API: 400 naming the field, nothing stored -----------------------------------------------------------


def _person_payload(federation, date_of_birth):
    return {
        "federation": federation.pk,
        "first_name": "Giulia",
        "last_name": "Bianchi",
        "date_of_birth": date_of_birth,
        "gender": "F",
        "nationality": "IT",
        "is_player": True,
    }


@pytest.mark.django_db
@pytest.mark.parametrize("born", ["0001-01-01", "9999-12-31"])
def test_the_api_refuses_an_implausible_date_of_birth_naming_the_field(born):
    federation = FederationFactory(country="IT")
    client = client_for(federation_staff(federation))
    response = client.post("/api/people/", _person_payload(federation, born), format="json")
    assert response.status_code == 400
    assert response.json()["date_of_birth"][0].startswith("Plausibility")
    assert not Person.objects.exists()

    person = PersonFactory(federation=federation)
    response = client.patch(f"/api/people/{person.pk}/", {"date_of_birth": born}, format="json")
    assert response.status_code == 400
    assert "date_of_birth" in response.json()
    person.refresh_from_db()
    assert person.date_of_birth == datetime.date(1998, 5, 17)


@pytest.mark.django_db
@pytest.mark.parametrize("expiry", ["0001-01-01", "9999-12-31"])
def test_the_api_refuses_an_implausible_passport_expiry_naming_the_field(expiry):
    person = PersonFactory()
    client = client_for(federation_staff(person.federation))
    response = client.post(
        "/api/passports/",
        {"person": person.pk, "issuing_country": "IT", "number": "YA1", "expiry_date": expiry},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["expiry_date"][0].startswith("Plausibility")
    assert not Passport.objects.exists()

    passport = PassportFactory(person=person)
    response = client.patch(f"/api/passports/{passport.pk}/", {"expiry_date": expiry}, format="json")
    assert response.status_code == 400
    assert "expiry_date" in response.json()
    passport.refresh_from_db()
    assert passport.expiry_date == datetime.date(2035, 12, 31)


# --- The admin: the form shows the same message, nothing stored -----------------------------------------------


@pytest.mark.django_db
def test_the_admin_refuses_an_implausible_date_of_birth_on_the_field(client):
    from tests.federation.test_admin import _person_post

    person = PersonFactory()
    client.force_login(federation_staff(person.federation))
    data = _person_post(person)
    data["passports-TOTAL_FORMS"] = "0"
    data["date_of_birth"] = "0001-01-01"
    response = client.post(reverse("admin:federation_person_change", args=[person.pk]), data)
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert errors["date_of_birth"][0].startswith("Plausibility")
    person.refresh_from_db()
    assert person.date_of_birth == datetime.date(1998, 5, 17)


@pytest.mark.django_db
def test_the_admin_refuses_an_implausible_passport_expiry_in_the_inline_and_on_its_page(client):
    from tests.federation.test_admin import _person_post

    person = PersonFactory()
    client.force_login(federation_staff(person.federation))
    data = _person_post(person, issuing_country="IT", number="YA1", expiry_date="0001-01-01")
    response = client.post(reverse("admin:federation_person_change", args=[person.pk]), data)
    assert response.status_code == 200
    inline = next(i for i in response.context["inline_admin_formsets"] if i.formset.model is Passport)
    assert inline.formset.forms[0].errors["expiry_date"][0].startswith("Plausibility")
    assert not Passport.objects.exists()

    passport = PassportFactory(person=person)
    far = (timezone.now().date() + datetime.timedelta(days=21 * 366)).isoformat()
    data = {"issuing_country": "IT", "number": passport.number, "expiry_date": far}
    response = client.post(reverse("admin:federation_passport_change", args=[passport.pk]), data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["expiry_date"][0].startswith("Plausibility")
    passport.refresh_from_db()
    assert passport.expiry_date == datetime.date(2035, 12, 31)
