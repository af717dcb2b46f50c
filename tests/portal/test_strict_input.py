"""Write bodies are strict (portal.serializers): an unknown or read-only field, or an id that is not a whole
number, is a 400 naming the field, and nothing is stored."""

import pytest

from federation.models import Person
from tests.factories import (
    ChampionshipFactory,
    FederationFactory,
    PassportFactory,
    PersonFactory,
    SuperuserFactory,
    client_for,
    federation_staff,
    international_staff,
)
from tournaments.models import TeamEntry

pytestmark = pytest.mark.django_db


def test_a_passport_patch_naming_the_person_is_refused_not_ignored():
    passport = PassportFactory()
    client = client_for(federation_staff(passport.person.federation))
    response = client.patch(f"/api/passports/{passport.pk}/", {"person": -5, "number": "X1"}, format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["person"]
    passport.refresh_from_db()
    assert passport.number != "X1"


def test_an_unknown_or_read_only_field_is_named_in_the_400():
    person = PersonFactory()
    client = client_for(federation_staff(person.federation))
    response = client.patch(
        f"/api/people/{person.pk}/", {"shoe_size": 44, "federation_name": "X", "last_name": "Changed"}, format="json"
    )
    assert response.status_code == 400
    errors = response.json()
    assert set(errors) == {"shoe_size", "federation_name"}
    assert "Unknown field" in errors["shoe_size"][0] and "read-only" in errors["federation_name"][0]
    assert Person.objects.get(pk=person.pk).last_name != "Changed"


def test_an_unknown_field_in_a_multipart_body_is_refused_too():
    passport = PassportFactory()
    client = client_for(federation_staff(passport.person.federation))
    response = client.patch(f"/api/passports/{passport.pk}/", {"scan_url": "x"}, format="multipart")
    assert response.status_code == 400
    assert "scan_url" in response.json()


@pytest.mark.parametrize("value", [7.5, True, "7.5", "seven", 2**40])
def test_a_primary_key_that_is_not_a_whole_number_is_refused(value):
    federation = FederationFactory()
    client = client_for(federation_staff(federation))
    body = {
        "federation": value,
        "first_name": "Ada",
        "last_name": "Strict",
        "date_of_birth": "2000-01-01",
        "gender": "F",
        "nationality": str(federation.country),
    }
    response = client.post("/api/people/", body, format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["federation"]
    assert not Person.objects.filter(last_name="Strict").exists()


def test_an_entry_naming_its_federation_by_a_float_is_refused_not_read_as_the_integer():
    championship = ChampionshipFactory()
    federation = FederationFactory()
    client = client_for(international_staff())
    body = {"championship": championship.pk, "federation": federation.pk + 0.5}
    response = client.post("/api/entries/", body, format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["federation"]
    assert not TeamEntry.objects.exists()


def test_an_id_as_decimal_digits_in_a_form_is_still_an_id():
    federation = FederationFactory()
    client = client_for(federation_staff(federation))
    body = {
        "federation": str(federation.pk),
        "first_name": "Ada",
        "last_name": "Form",
        "date_of_birth": "2000-01-01",
        "gender": "F",
        "nationality": str(federation.country),
    }
    response = client.post("/api/people/", body, format="multipart")
    assert response.status_code == 201, response.json()
    assert Person.objects.get(last_name="Form").federation == federation


@pytest.mark.parametrize(
    "moment", ["0147-12-16T17:51:51.6-19:06", "2027-07-03T12:00:00+23:59", "2027-07-03T12:00:00-15:59"]
)
def test_a_date_filter_with_an_offset_postgresql_refuses_is_read_in_utc_not_a_500(moment):
    """A time zone offset Python accepts but PostgreSQL does not (beyond 15:59) is given to the query in UTC."""
    import datetime

    from portal.filters import SafeIsoDateTimeField

    value = SafeIsoDateTimeField().clean(moment)
    assert value.utcoffset() == datetime.timedelta(0)
    answer = client_for(SuperuserFactory()).get("/api/equipment-inspections/", {"inspected_before": moment})
    assert answer.status_code == 200, answer.content
