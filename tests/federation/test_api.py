"""The federation REST API: scoping by role, writes through the services, eligibility (1.1 B-G)."""

import datetime

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import Role
from federation.models import Federation, Passport, Person
from tests.factories import (
    EligibilityWaiverFactory,
    FederationFactory,
    PassportFactory,
    PersonFactory,
    SuperuserFactory,
    client_for,
    federation_staff,
    html_upload,
    ids,
    international_staff,
    jpeg_upload,
    with_role,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def fed_a():
    return FederationFactory(name="Federazione Italiana", country="IT")


@pytest.fixture
def fed_b():
    return FederationFactory(name="Deutscher Verband", country="DE")


# --- Federations ---------------------------------------------------------------------


def test_any_logged_in_user_lists_federations_and_anonymous_users_are_refused(fed_a, fed_b):
    response = client_for(with_role(Role.TEAM_MANAGER)).get("/api/federations/")
    assert response.status_code == 200
    assert ids(response) == {fed_a.pk, fed_b.pk}
    assert client_for(None).get("/api/federations/").status_code == 403


def test_federations_filter_by_level_and_country_and_search(fed_a, fed_b):
    client = client_for(federation_staff(fed_a))
    assert ids(client.get("/api/federations/", {"country": "DE"})) == {fed_b.pk}
    assert ids(client.get("/api/federations/", {"level": "international"})) == set()
    assert ids(client.get("/api/federations/", {"search": "italiana"})) == {fed_a.pk}


def test_an_ihtc_executive_registers_a_federation():
    client = client_for(with_role(Role.IHTC_EXECUTIVE))
    response = client.post(
        "/api/federations/",
        {"name": "Federacion Espanola", "short_name": "FEP", "country": "ES", "level": "national"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert Federation.objects.get(pk=response.json()["id"]).country == "ES"


def test_national_staff_may_not_register_or_change_federations(fed_a):
    client = client_for(federation_staff(fed_a))
    assert client.post("/api/federations/", {"name": "X", "level": "national", "country": "FR"}).status_code == 403
    assert client.patch(f"/api/federations/{fed_a.pk}/", {"good_standing": False}, format="json").status_code == 403
    fed_a.refresh_from_db()
    assert fed_a.good_standing is True


def test_a_second_national_federation_for_a_country_is_refused_citing_1_1_a(fed_a):
    client = client_for(SuperuserFactory())
    response = client.post(
        "/api/federations/", {"name": "Another Italian body", "country": "IT", "level": "national"}, format="json"
    )
    assert response.status_code == 400
    assert "Rule 1.1 A" in response.json()["country"][0]
    assert Federation.objects.count() == 1


def test_a_federation_cannot_be_placed_below_itself(fed_a):
    client = client_for(SuperuserFactory())
    response = client.patch(f"/api/federations/{fed_a.pk}/", {"parent": fed_a.pk}, format="json")
    assert response.status_code == 400
    assert "parent" in response.json()


def test_an_executive_changes_a_federations_good_standing(fed_a):
    client = client_for(with_role(Role.IHTC_EXECUTIVE))
    response = client.patch(f"/api/federations/{fed_a.pk}/", {"good_standing": False}, format="json")
    assert response.status_code == 200
    fed_a.refresh_from_db()
    assert fed_a.good_standing is False


# --- People --------------------------------------------------------------------------


def test_national_staff_list_only_their_federations_people(fed_a, fed_b):
    mine, theirs = PersonFactory(federation=fed_a), PersonFactory(federation=fed_b)
    response = client_for(federation_staff(fed_a)).get("/api/people/")
    assert response.status_code == 200
    assert ids(response) == {mine.pk}
    assert theirs.pk not in ids(response)


def test_international_staff_list_every_person(fed_a, fed_b):
    people = {PersonFactory(federation=fed_a).pk, PersonFactory(federation=fed_b).pk}
    assert ids(client_for(international_staff()).get("/api/people/")) == people


def test_another_federations_person_is_404_for_national_staff(fed_a, fed_b):
    theirs = PersonFactory(federation=fed_b)
    client = client_for(federation_staff(fed_a))
    assert client.get(f"/api/people/{theirs.pk}/").status_code == 404
    assert client.patch(f"/api/people/{theirs.pk}/", {"first_name": "X"}, format="json").status_code == 404


def test_people_filter_by_federation_gender_role_and_birth_date(fed_a, fed_b):
    keeper = PersonFactory(federation=fed_a, is_goalkeeper=True, is_player=False, gender="F")
    player = PersonFactory(federation=fed_b, date_of_birth=datetime.date(2008, 3, 1))
    client = client_for(international_staff())
    assert ids(client.get("/api/people/", {"federation": fed_a.pk})) == {keeper.pk}
    assert ids(client.get("/api/people/", {"gender": "F"})) == {keeper.pk}
    assert ids(client.get("/api/people/", {"role": "goalkeeper"})) == {keeper.pk}
    assert ids(client.get("/api/people/", {"born_after": "2005-01-01"})) == {player.pk}
    assert ids(client.get("/api/people/", {"country": "DE"})) == {player.pk}
    assert ids(client.get("/api/people/", {"search": keeper.last_name})) == {keeper.pk}


def test_people_filter_by_passport_expiry(fed_a):
    expiring = PassportFactory(person__federation=fed_a, expiry_date=datetime.date(2027, 1, 31)).person
    PassportFactory(person__federation=fed_a, expiry_date=datetime.date(2031, 1, 31))
    client = client_for(federation_staff(fed_a))
    assert ids(client.get("/api/people/", {"passport_expiry_before": "2028-01-01"})) == {expiring.pk}


def test_a_team_manager_without_a_federation_may_not_list_people(fed_a):
    PersonFactory(federation=fed_a)
    assert client_for(with_role(Role.TEAM_MANAGER)).get("/api/people/").status_code == 403


def test_national_staff_register_a_person_in_their_federation(fed_a):
    client = client_for(federation_staff(fed_a))
    response = client.post(
        "/api/people/",
        {
            "federation": fed_a.pk,
            "first_name": "Giulia",
            "last_name": "Bianchi",
            "date_of_birth": "2004-02-29",
            "gender": "F",
            "nationality": "IT",
            "is_player": True,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    person = Person.objects.get(pk=response.json()["id"])
    assert (person.federation, person.last_name, str(person.nationality)) == (fed_a, "Bianchi", "IT")


def test_national_staff_may_not_register_a_person_in_another_federation(fed_a, fed_b):
    client = client_for(federation_staff(fed_a))
    response = client.post(
        "/api/people/",
        {
            "federation": fed_b.pk,
            "first_name": "Hans",
            "last_name": "Weber",
            "date_of_birth": "2000-01-01",
            "gender": "M",
            "nationality": "DE",
        },
        format="json",
    )
    assert response.status_code == 403
    assert not Person.objects.exists()


def test_national_staff_may_not_move_a_person_to_another_federation(fed_a, fed_b):
    person = PersonFactory(federation=fed_a)
    client = client_for(federation_staff(fed_a))
    response = client.patch(f"/api/people/{person.pk}/", {"federation": fed_b.pk}, format="json")
    assert response.status_code == 403
    person.refresh_from_db()
    assert person.federation == fed_a


def test_staff_update_their_persons_roles(fed_a):
    person = PersonFactory(federation=fed_a)
    client = client_for(federation_staff(fed_a))
    response = client.patch(f"/api/people/{person.pk}/", {"is_referee": True}, format="json")
    assert response.status_code == 200
    person.refresh_from_db()
    assert person.is_referee


@pytest.mark.parametrize("role", [Role.GAME_OFFICIAL, Role.DISCIPLINE_COMMITTEE])
def test_officials_and_committee_members_read_people_but_may_not_change_them(fed_a, role):
    person = PersonFactory(federation=fed_a)
    client = client_for(with_role(role))
    assert client.get(f"/api/people/{person.pk}/").status_code == 200
    response = client.patch(f"/api/people/{person.pk}/", {"first_name": "Changed"}, format="json")
    assert response.status_code == 403
    person.refresh_from_db()
    assert person.first_name != "Changed"


# --- Passports -----------------------------------------------------------------------


def test_a_passport_gives_metadata_and_the_guarded_scan_url_never_the_file(fed_a):
    passport = PassportFactory(person__federation=fed_a, scan=jpeg_upload(), scan_content_type="image/jpeg")
    response = client_for(federation_staff(fed_a)).get(f"/api/passports/{passport.pk}/")
    assert response.status_code == 200
    body = response.json()
    assert body["number"] == passport.number
    assert body["has_scan"] is True
    assert body["scan_url"].endswith(reverse("federation:passport-scan", kwargs={"pk": passport.pk}))
    assert "scan" not in body
    assert passport.scan.name not in response.content.decode()


def test_another_federations_passport_is_404_in_the_api(fed_a, fed_b):
    passport = PassportFactory(person__federation=fed_a)
    client = client_for(federation_staff(fed_b))
    assert client.get(f"/api/passports/{passport.pk}/").status_code == 404
    assert client.get("/api/passports/").json()["results"] == []


def test_passports_filter_by_expiry_and_scan(fed_a):
    old = PassportFactory(person__federation=fed_a, expiry_date=datetime.date(2026, 6, 1))
    new = PassportFactory(person__federation=fed_a, expiry_date=datetime.date(2034, 6, 1), scan=jpeg_upload())
    client = client_for(federation_staff(fed_a))
    assert ids(client.get("/api/passports/", {"expiry_before": "2027-01-01"})) == {old.pk}
    assert ids(client.get("/api/passports/", {"expiry_after": "2027-01-01"})) == {new.pk}
    assert ids(client.get("/api/passports/", {"has_scan": "true"})) == {new.pk}


@pytest.mark.parametrize("role", [Role.GAME_OFFICIAL, Role.DISCIPLINE_COMMITTEE, Role.TEAM_MANAGER])
def test_roles_without_passport_access_are_refused_the_passport_list(fed_a, role):
    PassportFactory(person__federation=fed_a)
    assert client_for(with_role(role)).get("/api/passports/").status_code == 403


def test_staff_record_a_passport_with_a_scan_as_multipart(fed_a):
    person = PersonFactory(federation=fed_a)
    client = client_for(federation_staff(fed_a))
    response = client.post(
        "/api/passports/",
        {
            "person": person.pk,
            "issuing_country": "IT",
            "number": "ya 1234567",
            "expiry_date": "2031-05-01",
            "scan": jpeg_upload(),
        },
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    passport = Passport.objects.get(pk=response.json()["id"])
    assert passport.number == "YA1234567"
    assert passport.scan_content_type == "image/jpeg"
    assert response.json()["scan_url"]


def test_a_scan_that_is_not_an_image_or_pdf_is_refused_and_nothing_is_stored(fed_a):
    person = PersonFactory(federation=fed_a)
    client = client_for(federation_staff(fed_a))
    response = client.post(
        "/api/passports/",
        {
            "person": person.pk,
            "issuing_country": "IT",
            "number": "X1",
            "expiry_date": "2031-05-01",
            "scan": html_upload(),
        },
        format="multipart",
    )
    assert response.status_code == 400
    assert "scan" in response.json()
    assert not Passport.objects.exists()


def test_staff_may_not_record_a_passport_for_another_federations_person(fed_a, fed_b):
    theirs = PersonFactory(federation=fed_b)
    client = client_for(federation_staff(fed_a))
    response = client.post(
        "/api/passports/",
        {"person": theirs.pk, "issuing_country": "DE", "number": "C01X00T47", "expiry_date": "2031-05-01"},
        format="json",
    )
    assert response.status_code == 400
    assert "person" in response.json()
    assert not Passport.objects.exists()


def test_a_duplicate_passport_number_is_a_400(fed_a):
    existing = PassportFactory(person__federation=fed_a, issuing_country="IT", number="YA0000001")
    client = client_for(federation_staff(fed_a))
    response = client.post(
        "/api/passports/",
        {"person": existing.person.pk, "issuing_country": "IT", "number": "ya 0000001", "expiry_date": "2031-05-01"},
        format="json",
    )
    assert response.status_code == 400
    assert Passport.objects.count() == 1


def test_staff_change_a_passports_expiry_date(fed_a):
    passport = PassportFactory(person__federation=fed_a)
    client = client_for(federation_staff(fed_a))
    response = client.patch(f"/api/passports/{passport.pk}/", {"expiry_date": "2036-01-31"}, format="json")
    assert response.status_code == 200, response.json()
    passport.refresh_from_db()
    assert passport.expiry_date == datetime.date(2036, 1, 31)


# --- Eligibility (1.1 B-G, R-01..R-03) -------------------------------------------------


def _categories(response) -> dict:
    return {row["category"]: row for row in response.json()["assumed"]["categories"]}


def test_eligibility_lists_every_category_with_reasons_citing_articles(fed_a):
    person = PersonFactory(federation=fed_a, gender="M", nationality="IT", date_of_birth=datetime.date(2008, 6, 1))
    PassportFactory(person=person, issuing_country="IT", expiry_date=datetime.date(2030, 1, 1))
    response = client_for(federation_staff(fed_a)).get(f"/api/people/{person.pk}/eligibility/", {"year": 2026})
    assert response.status_code == 200
    rows = _categories(response)
    assert rows["junior_men"]["eligible"] is True
    assert rows["senior_men"]["eligible"] is True  # 17 on 1 January 2026, at least 15 (1.1 F)
    masters = rows["masters_men"]
    assert masters["eligible"] is False
    assert masters["reasons"][0]["code"] == "too_young"
    assert masters["reasons"][0]["article"] == "1.1 G"
    assert "R-01" in masters["reasons"][0]["message"]
    assert rows["senior_women"]["reasons"][0]["code"] == "wrong_gender"
    assert response.json()["assumed"]["team_country"] == "IT"
    assert response.json()["assumed"]["start_date"] == "2026-07-01"
    assert response.json()["championships"] == []


def test_eligibility_checks_the_passport_on_the_championships_last_day(fed_a):
    person = PersonFactory(federation=fed_a, nationality="IT")
    PassportFactory(person=person, issuing_country="IT", expiry_date=datetime.date(2026, 9, 5))
    client = client_for(federation_staff(fed_a))
    url = f"/api/people/{person.pk}/eligibility/"
    valid = client.get(url, {"start_date": "2026-09-01", "end_date": "2026-09-05"})
    expired = client.get(url, {"start_date": "2026-09-01", "end_date": "2026-09-06"})
    assert _categories(valid)["senior_men"]["eligible"] is True
    reason = _categories(expired)["senior_men"]["reasons"][0]
    assert (reason["code"], reason["article"]) == ("passport_expired", "1.1 B")


def test_eligibility_shows_what_an_ihtc_waiver_lifts(fed_a):
    person = PersonFactory(federation=fed_a, nationality="IT")
    EligibilityWaiverFactory(person=person, code="no_passport")
    response = client_for(federation_staff(fed_a)).get(f"/api/people/{person.pk}/eligibility/", {"year": 2026})
    senior = _categories(response)["senior_men"]
    assert senior["eligible"] is True
    assert senior["waived"][0]["code"] == "no_passport"
    assert senior["waived"][0]["waiver_reason"]


def test_eligibility_answers_first_for_the_championships_the_person_is_entered_in(fed_a):
    from tests.factories import ChampionshipFactory, RosterEntryFactory, TeamEntryFactory

    person = PersonFactory(federation=fed_a, date_of_birth=datetime.date(2012, 1, 1))  # 15 on 1 January 2027
    PassportFactory(person=person, expiry_date=datetime.date(2030, 1, 1))
    junior = ChampionshipFactory(category="junior_men", name="Junior Worlds 2027")
    line = RosterEntryFactory(entry=TeamEntryFactory(championship=junior, federation=fed_a), person=person)
    client = client_for(federation_staff(fed_a))
    url = f"/api/people/{person.pk}/eligibility/"

    answer = client.get(url).json()
    assert answer["assumed"] is None  # entered: no imagined championship this year
    (entered,) = answer["championships"]
    assert (entered["championship"], entered["championship_name"], entered["entry"]) == (
        junior.pk, "Junior Worlds 2027", line.entry_id,
    )  # fmt: skip
    assert (entered["category"], entered["start_date"], entered["eligible"]) == ("junior_men", "2027-07-01", True)
    assert entered["team_country"] == str(fed_a.country)

    asked = client.get(url, {"year": 2027}).json()
    assert len(asked["championships"]) == 1
    assert asked["assumed"]["start_date"] == "2027-07-01"
    assert {row["category"] for row in asked["assumed"]["categories"]} >= {"senior_men", "junior_men"}


@pytest.mark.parametrize(
    "params, field",
    [
        ({"year": "soon"}, "year"),
        ({"year": 99999}, "year"),
        ({"start_date": "2026-02-30", "end_date": "2026-03-01"}, "start_date"),
        ({"start_date": "2026-07-10", "end_date": "2026-07-01"}, "end_date"),
        ({"start_date": "2026-07-10"}, "end_date"),
        ({"team_country": "XX"}, "team_country"),
    ],
)
def test_eligibility_refuses_bad_parameters_with_a_400_naming_them(fed_a, params, field):
    person = PersonFactory(federation=fed_a)
    response = client_for(federation_staff(fed_a)).get(f"/api/people/{person.pk}/eligibility/", params)
    assert response.status_code == 400
    assert field in response.json()


def test_officials_see_a_person_but_not_their_eligibility(fed_a):
    person = PersonFactory(federation=fed_a)
    client = client_for(with_role(Role.GAME_OFFICIAL))
    assert client.get(f"/api/people/{person.pk}/").status_code == 200
    assert client.get(f"/api/people/{person.pk}/eligibility/").status_code == 403


def test_staff_remove_a_passports_scan(fed_a):
    passport = PassportFactory(person__federation=fed_a, scan=jpeg_upload(), scan_content_type="image/jpeg")
    response = client_for(federation_staff(fed_a)).patch(
        f"/api/passports/{passport.pk}/", {"clear_scan": True}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["has_scan"] is False
    passport.refresh_from_db()
    assert not passport.scan


def test_staff_delete_a_passport_of_their_federation_only(fed_a, fed_b):
    passport = PassportFactory(person__federation=fed_a)
    assert client_for(federation_staff(fed_b)).delete(f"/api/passports/{passport.pk}/").status_code == 404
    assert Passport.objects.filter(pk=passport.pk).exists()
    assert client_for(federation_staff(fed_a)).delete(f"/api/passports/{passport.pk}/").status_code == 204
    assert not Passport.objects.filter(pk=passport.pk).exists()


def test_a_multipart_update_without_a_scan_keeps_the_stored_one(fed_a):
    passport = PassportFactory(person__federation=fed_a, scan=jpeg_upload(), scan_content_type="image/jpeg")
    response = client_for(federation_staff(fed_a)).patch(
        f"/api/passports/{passport.pk}/", {"expiry_date": "2038-03-31"}, format="multipart"
    )
    assert response.status_code == 200, response.json()
    passport.refresh_from_db()
    assert passport.scan and passport.expiry_date == datetime.date(2038, 3, 31)


def test_api_writes_are_audited_with_the_user_who_made_them(fed_a):
    staff = federation_staff(fed_a)
    client = APIClient()
    client.force_login(staff)
    person = PersonFactory(federation=fed_a)
    assert client.patch(f"/api/people/{person.pk}/", {"is_referee": True}, format="json").status_code == 200
    latest = person.history.latest()
    assert (latest.history_type, latest.history_user, latest.is_referee) == ("~", staff, True)


def test_api_writes_with_a_token_are_audited_too(fed_a):
    from accounts.models import ApiToken

    staff = federation_staff(fed_a)
    client = APIClient()
    _, token = ApiToken.objects.create(user=staff, name="script")
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    person = PersonFactory(federation=fed_a)
    assert client.patch(f"/api/people/{person.pk}/", {"is_goalkeeper": True}, format="json").status_code == 200
    assert person.history.latest().history_user == staff


def test_a_team_manager_sees_only_the_people_of_his_entries(fed_a, fed_b):
    """Least privilege: his roster's players, not the federation's other people (names, dates of birth)."""
    from tests.factories import RosterEntryFactory, TeamEntryFactory

    manager = with_role(Role.TEAM_MANAGER, federation=fed_a)
    mine, other, theirs = (PersonFactory(federation=fed) for fed in (fed_a, fed_a, fed_b))
    passport = PassportFactory(person=mine)
    entry = TeamEntryFactory(federation=fed_a)
    entry.managers.add(manager)
    RosterEntryFactory(entry=entry, person=mine)
    client = client_for(manager)
    assert ids(client.get("/api/people/")) == {mine.pk}
    assert client.get(f"/api/people/{mine.pk}/").status_code == 200
    assert client.get(f"/api/people/{other.pk}/").status_code == 404
    assert client.get(f"/api/people/{theirs.pk}/").status_code == 404
    assert client.patch(f"/api/people/{mine.pk}/", {"is_referee": True}, format="json").status_code == 403
    assert client.get(f"/api/people/{mine.pk}/eligibility/").status_code == 403
    assert client.get(f"/api/passports/{passport.pk}/").status_code == 403
