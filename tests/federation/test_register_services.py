"""Federations (1.1 A) and people through their services, and the API and admin that call them."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from accounts.models import Role
from federation import services
from federation.models import Federation, FederationLevel, Person
from tests.factories import (
    FederationFactory,
    InternationalFederationFactory,
    PersonFactory,
    SuperuserFactory,
    client_for,
    federation_staff,
    international_staff,
    with_role,
)

pytestmark = pytest.mark.django_db


def executive():
    user = with_role(Role.IHTC_EXECUTIVE, is_staff=True)
    return user


def messages_of(caught, field):
    return " ".join(caught.value.message_dict[field])


# --- check_federation (1.1 A) ---------------------------------------------------------------


def test_check_federation_refuses_a_second_national_federation_of_a_country_citing_1_1_a():
    FederationFactory(country="IT")
    with pytest.raises(ValidationError) as caught:
        services.check_federation(level=FederationLevel.NATIONAL, country="IT")
    assert messages_of(caught, "country").startswith("Rule 1.1 A: IT already has a national federation")


def test_check_federation_refuses_a_national_federation_without_a_country_citing_1_1_a():
    with pytest.raises(ValidationError) as caught:
        services.check_federation(level=FederationLevel.NATIONAL, country="")
    assert "Rule 1.1 A" in messages_of(caught, "country")


def test_check_federation_lets_a_national_federation_keep_its_own_country():
    italy = FederationFactory(country="IT")
    services.check_federation(level=FederationLevel.NATIONAL, country="IT", federation_pk=italy.pk)


def test_check_federation_allows_several_continental_bodies_without_a_country():
    InternationalFederationFactory(level=FederationLevel.CONTINENTAL)
    services.check_federation(level=FederationLevel.CONTINENTAL, country="")


def test_check_federation_refuses_a_parent_below_the_federation_itself():
    top = InternationalFederationFactory()
    middle = InternationalFederationFactory(level=FederationLevel.CONTINENTAL, parent=top)
    with pytest.raises(ValidationError) as caught:
        services.check_federation(level=top.level, country="", parent=middle, federation_pk=top.pk)
    assert "below itself" in messages_of(caught, "parent")


# --- federation_create / federation_update ------------------------------------------------------


def test_federation_create_registers_and_audits_with_the_executive():
    by = executive()
    federation = services.federation_create(
        by=by, name="Federacion Espanola", country="ES", level=FederationLevel.NATIONAL, firs_affiliated=True
    )
    assert Federation.objects.get(pk=federation.pk).country == "ES"
    latest = federation.history.latest()
    assert (latest.history_type, latest.history_user) == ("+", by)


def test_federation_create_refuses_a_second_national_federation_and_stores_nothing():
    FederationFactory(country="IT")
    with pytest.raises(ValidationError) as caught:
        services.federation_create(by=executive(), name="Another", country="IT", level=FederationLevel.NATIONAL)
    assert "Rule 1.1 A" in messages_of(caught, "country")
    assert Federation.objects.count() == 1


def test_federation_create_is_for_ihtc_executives_only():
    with pytest.raises(PermissionDenied, match="1.1 A"):
        services.federation_create(
            by=federation_staff(), name="Federacion Espanola", country="ES", level=FederationLevel.NATIONAL
        )
    assert not Federation.objects.filter(country="ES").exists()


def test_federation_create_refuses_fields_it_does_not_keep():
    with pytest.raises(ValidationError) as caught:
        services.federation_create(by=executive(), name="X", level=FederationLevel.CONTINENTAL, pk=5)
    assert "pk" in caught.value.message_dict


def test_federation_update_refuses_moving_to_a_country_that_has_a_federation_and_changes_nothing():
    FederationFactory(country="IT")
    germany = FederationFactory(country="DE", name="Deutscher Verband")
    with pytest.raises(ValidationError) as caught:
        services.federation_update(federation=germany, by=executive(), country="IT", name="Renamed")
    assert "Rule 1.1 A" in messages_of(caught, "country")
    germany.refresh_from_db()
    assert (germany.country, germany.name) == ("DE", "Deutscher Verband")


def test_federation_update_changes_good_standing_with_the_executive_in_the_history():
    federation, by = FederationFactory(), executive()
    services.federation_update(federation=federation, by=by, good_standing=False)
    federation.refresh_from_db()
    assert federation.good_standing is False
    assert federation.history.latest().history_user == by


def test_a_constraint_lost_to_a_concurrent_write_is_answered_with_the_rule(monkeypatch):
    # The other executive's federation arrives between the checks and the insert.
    real_full_clean = Federation.full_clean

    def full_clean_then_lose_the_race(self, *args, **kwargs):
        real_full_clean(self, *args, **kwargs)
        if not Federation.objects.filter(name="First").exists():
            Federation.objects.create(name="First", country="ES", level=FederationLevel.NATIONAL)

    monkeypatch.setattr(Federation, "full_clean", full_clean_then_lose_the_race)
    with pytest.raises(ValidationError) as caught:
        services.federation_create(by=executive(), name="Second", country="ES", level=FederationLevel.NATIONAL)
    assert "Rule 1.1 A" in messages_of(caught, "country")
    assert list(Federation.objects.values_list("name", flat=True)) == ["First"]


# --- person_create / person_update -----------------------------------------------------------


def person_fields(federation, **changes):
    fields = {
        "federation": federation,
        "first_name": "  Marco ",
        "last_name": "Rossi",
        "date_of_birth": datetime.date(1999, 4, 1),
        "gender": "M",
        "nationality": "IT",
        "is_player": True,
    }
    return {**fields, **changes}


def test_person_create_registers_with_trimmed_names_and_the_staff_member_in_the_history():
    federation = FederationFactory(country="IT")
    staff = federation_staff(federation)
    person = services.person_create(by=staff, **person_fields(federation))
    person.refresh_from_db()
    assert person.first_name == "Marco"
    assert person.history.latest().history_user == staff


def test_person_create_names_the_bad_field_and_stores_nothing():
    federation = FederationFactory(country="IT")
    with pytest.raises(ValidationError) as caught:
        services.person_create(
            by=federation_staff(federation), **person_fields(federation, last_name="   ", gender="X")
        )
    assert set(caught.value.message_dict) == {"last_name", "gender"}
    assert not Person.objects.exists()


def test_person_create_in_another_federation_is_refused():
    mine, theirs = FederationFactory(), FederationFactory()
    with pytest.raises(PermissionDenied):
        services.person_create(by=federation_staff(mine), **person_fields(theirs))
    assert not Person.objects.exists()


def test_person_update_cannot_move_someone_into_a_federation_one_does_not_work_for():
    person = PersonFactory()
    other = FederationFactory()
    with pytest.raises(PermissionDenied):
        services.person_update(person=person, by=federation_staff(person.federation), federation=other)
    person.refresh_from_db()
    assert person.federation_id != other.pk


def test_person_update_lets_international_staff_move_a_person():
    person, other = PersonFactory(), FederationFactory()
    by = international_staff()
    services.person_update(person=person, by=by, federation=other, is_referee=True)
    person.refresh_from_db()
    assert (person.federation_id, person.is_referee) == (other.pk, True)
    assert person.history.latest().history_user == by


def test_person_update_with_a_bad_date_changes_nothing():
    person = PersonFactory(first_name="Anna")
    with pytest.raises(ValidationError) as caught:
        services.person_update(
            person=person, by=federation_staff(person.federation), first_name="Bea", date_of_birth="not a date"
        )
    assert "date_of_birth" in caught.value.message_dict
    person.refresh_from_db()
    assert person.first_name == "Anna"


# --- the API and the admin call the same check -----------------------------------------------------


def test_the_api_and_the_admin_refuse_a_second_national_federation_with_the_same_message(client):
    FederationFactory(country="IT", name="Federazione Italiana")
    api = client_for(SuperuserFactory())
    response = api.post("/api/federations/", {"name": "Another", "country": "IT", "level": "national"}, format="json")
    assert response.status_code == 400
    api_message = response.json()["country"][0]

    client.force_login(SuperuserFactory(is_staff=True))
    page = client.post(
        reverse("admin:federation_federation_add"), {"name": "Another", "country": "IT", "level": "national"}
    )
    assert page.status_code == 200
    assert api_message.startswith("Rule 1.1 A") and api_message in page.content.decode()
    assert Federation.objects.count() == 1


def test_an_executive_registers_a_federation_in_the_admin_through_the_service(client):
    by = executive()
    client.force_login(by)
    response = client.post(
        reverse("admin:federation_federation_add"),
        {"name": "Federacion Espanola", "country": "ES", "level": "national"},
    )
    assert response.status_code == 302
    federation = Federation.objects.get(country="ES")
    assert federation.history.latest().history_user == by


def test_a_person_added_in_the_admin_is_saved_by_the_service_with_trimmed_names(client):
    federation = FederationFactory(country="IT")
    staff = federation_staff(federation)
    client.force_login(staff)
    data = {
        "federation": federation.pk,
        "first_name": " Giulia ",
        "last_name": "Bianchi",
        "date_of_birth": "2001-02-03",
        "gender": "F",
        "nationality": "IT",
        "is_player": "on",
    }
    for prefix in ["passports", "eligibility_waivers"]:
        data.update({f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"})
    response = client.post(reverse("admin:federation_person_add"), data)
    assert response.status_code == 302
    person = Person.objects.get()
    assert (person.first_name, person.history.latest().history_user) == ("Giulia", staff)
