"""Bad input never makes a 500: malformed JSON, wrong types, unknown ids, bad dates and countries are 400s
naming the field (or 404 for an unknown id in the URL), and nothing stored changes."""

import pytest

from federation.models import EquipmentInspection, Federation, Passport, Person
from tests.factories import (
    FederationFactory,
    PassportFactory,
    PersonFactory,
    SuperuserFactory,
    client_for,
    federation_staff,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def federation():
    return FederationFactory(country="IT")


@pytest.fixture
def staff_client(federation):
    client = client_for(federation_staff(federation))
    return client


def valid_person(fed, **changes):
    body = {
        "federation": fed.pk,
        "first_name": "Luca",
        "last_name": "Verdi",
        "date_of_birth": "2001-04-12",
        "gender": "M",
        "nationality": "IT",
    }
    body.update(changes)
    return body


def test_malformed_json_is_a_400_and_nothing_is_stored(staff_client):
    response = staff_client.generic(
        "POST", "/api/people/", '{"first_name": "Luca", "last_name": ', content_type="application/json"
    )
    assert response.status_code == 400
    assert "JSON parse error" in response.json()["detail"]
    assert not Person.objects.exists()


def test_a_list_instead_of_an_object_is_a_400(staff_client, federation):
    response = staff_client.post("/api/people/", [valid_person(federation)], format="json")
    assert response.status_code == 400
    assert not Person.objects.exists()


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"date_of_birth": 20010412}, "date_of_birth"),
        ({"date_of_birth": "2001-02-30"}, "date_of_birth"),
        ({"date_of_birth": "12/04/2001"}, "date_of_birth"),
        ({"first_name": ["Luca"]}, "first_name"),
        ({"first_name": "   "}, "first_name"),
        ({"is_player": "perhaps"}, "is_player"),
        ({"gender": "X"}, "gender"),
        ({"nationality": "XX"}, "nationality"),
        ({"nationality": 380}, "nationality"),
        ({"nationality": "Italy"}, "nationality"),
        ({"nationality": ["IT"]}, "nationality"),
        ({"nationality": {"code": []}}, "nationality"),
        ({"federation": 999999}, "federation"),
        ({"federation": "abc"}, "federation"),
        ({"federation": None}, "federation"),
    ],
)
def test_a_person_with_a_bad_field_is_a_400_naming_it(staff_client, federation, changes, field):
    response = staff_client.post("/api/people/", valid_person(federation, **changes), format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()
    assert not Person.objects.exists()


def test_a_failed_update_changes_nothing(staff_client, federation):
    person = PersonFactory(federation=federation, first_name="Marco")
    response = staff_client.patch(
        f"/api/people/{person.pk}/", {"first_name": "Mario", "date_of_birth": "2001-13-01"}, format="json"
    )
    assert response.status_code == 400
    assert "date_of_birth" in response.json()
    person.refresh_from_db()
    assert person.first_name == "Marco"


@pytest.mark.parametrize("url", ["/api/people/999999/", "/api/people/abc/", "/api/passports/0/", "/api/federations/x/"])
def test_an_unknown_id_in_the_url_is_a_404(staff_client, url):
    response = staff_client.get(url)
    assert response.status_code == 404


@pytest.mark.parametrize(
    "url, params, field",
    [
        ("/api/people/", {"born_after": "yesterday"}, "born_after"),
        ("/api/people/", {"federation": "999999"}, "federation"),
        ("/api/people/", {"nationality": "ZZ"}, "nationality"),
        ("/api/people/", {"role": "captain"}, "role"),
        ("/api/passports/", {"expiry_before": "2020-13-01"}, "expiry_before"),
        ("/api/passports/", {"issuing_country": "Atlantis"}, "issuing_country"),
        ("/api/federations/", {"level": "galactic"}, "level"),
        ("/api/equipment-inspections/", {"inspected_after": "not-a-time"}, "inspected_after"),
    ],
)
def test_a_bad_filter_value_is_a_400_naming_the_parameter(staff_client, url, params, field):
    response = staff_client.get(url, params)
    assert response.status_code == 400
    assert field in response.json()


def test_an_unknown_ordering_or_page_is_not_a_500(staff_client, federation):
    PersonFactory(federation=federation)
    assert staff_client.get("/api/people/", {"ordering": "password"}).status_code == 200
    assert staff_client.get("/api/people/", {"page": "9999"}).status_code == 404
    assert staff_client.get("/api/people/", {"page": "abc"}).status_code == 404


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"expiry_date": "2031-02-29"}, "expiry_date"),
        ({"expiry_date": None}, "expiry_date"),
        ({"issuing_country": "ITA"}, "issuing_country"),
        ({"issuing_country": 1}, "issuing_country"),
        ({"number": ""}, "number"),
        ({"person": "me"}, "person"),
        ({"person": 999999}, "person"),
        ({"scan": "not-a-file"}, "scan"),
    ],
)
def test_a_passport_with_a_bad_field_is_a_400_naming_it(staff_client, federation, changes, field):
    person = PersonFactory(federation=federation)
    body = {"person": person.pk, "issuing_country": "IT", "number": "YA7654321", "expiry_date": "2031-02-28"}
    body.update(changes)
    response = staff_client.post("/api/passports/", body, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()
    assert not Passport.objects.exists()


def test_a_passport_update_with_a_bad_country_changes_nothing(staff_client, federation):
    passport = PassportFactory(person__federation=federation, issuing_country="IT")
    response = staff_client.patch(
        f"/api/passports/{passport.pk}/", {"issuing_country": "QQ", "expiry_date": "2040-01-01"}, format="json"
    )
    assert response.status_code == 400
    passport.refresh_from_db()
    assert (str(passport.issuing_country), passport.expiry_date.year) == ("IT", 2035)


@pytest.mark.parametrize(
    "body, field",
    [
        ({"name": "Fed", "level": "national", "country": "XX"}, "country"),
        ({"name": "Fed", "level": "planetary"}, "level"),
        ({"name": "Fed", "level": "national"}, "country"),
        ({"name": "Fed", "level": "continental", "parent": 999999}, "parent"),
        ({"name": "", "level": "continental"}, "name"),
        ({"name": "Fed", "level": "continental", "contact_email": "not-an-email"}, "contact_email"),
    ],
)
def test_a_federation_with_a_bad_field_is_a_400_naming_it(body, field):
    client = client_for(SuperuserFactory())
    response = client.post("/api/federations/", body, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()
    assert not Federation.objects.exists()


@pytest.mark.parametrize(
    "body, field",
    [
        ({"kind": "player_stick", "measurements": "long"}, "measurements"),
        ({"kind": "player_stick", "measurements": {"length_mm": -3}}, "measurements"),
        ({"kind": "player_stick", "measurements": {"length_mm": True}}, "measurements"),
        ({"kind": "skates", "measurements": {"length_mm": 1500}}, "kind"),
        ({"kind": "player_stick", "measurements": {"length_mm": 1500}, "inspected_at": "noon"}, "inspected_at"),
    ],
)
def test_an_inspection_with_bad_input_is_a_400_naming_the_field(staff_client, federation, body, field):
    person = PersonFactory(federation=federation)
    response = staff_client.post("/api/equipment-inspections/", {"person": person.pk, **body}, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()
    assert not EquipmentInspection.objects.exists()
