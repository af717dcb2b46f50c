"""Keeping a person's record on the site (issue 25): the duplicate warning before a registration, a stale edit refused,
a renewed passport beside the old one, and the people list's downloads (rows and columns the user may read)."""

from __future__ import annotations

import csv
import datetime
import io

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from federation import services
from federation.models import Passport, Person
from tests.factories import (
    FederationFactory,
    PassportFactory,
    PersonFactory,
    RoleAssignmentFactory,
    UserFactory,
    federation_staff,
    international_staff,
    jpeg_upload,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def italy():
    return FederationFactory(name="Federazione Test", country="IT")


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _registration(federation, **extra):
    return {
        "federation": federation.pk,
        "first_name": "Marco",
        "last_name": "Rossi",
        "date_of_birth": "2001-02-03",
        "gender": "M",
        "nationality": "IT",
        "is_player": "on",
        **extra,
    }


def test_a_registration_repeating_a_name_and_birth_date_warns_with_a_link_and_stores_nothing(italy):
    same = PersonFactory(
        federation=italy, first_name="MARCO", last_name="rossi", date_of_birth=datetime.date(2001, 2, 3)
    )
    client = _client(federation_staff(italy))
    response = client.post(reverse("federation:person-register"), _registration(italy))
    assert response.status_code == 200
    assert Person.objects.filter(last_name__iexact="rossi").count() == 1
    page = response.content.decode()
    assert "Possible duplicate" in page
    assert reverse("federation:person-detail", args=[same.pk]) in page
    assert 'name="register_anyway"' in page
    # Confirmed: registered as another person.
    response = client.post(reverse("federation:person-register"), _registration(italy, register_anyway="1"))
    assert response.status_code == 302
    assert Person.objects.filter(last_name__iexact="rossi").count() == 2


def test_another_federations_namesake_is_not_shown_to_national_staff(italy):
    PersonFactory(
        federation=FederationFactory(country="DE"),
        first_name="Marco",
        last_name="Rossi",
        date_of_birth=datetime.date(2001, 2, 3),
    )
    response = _client(federation_staff(italy)).post(reverse("federation:person-register"), _registration(italy))
    assert response.status_code == 302  # they may not see the German record: nothing to warn about


def test_a_stale_edit_form_is_refused_and_the_other_change_stays(italy):
    person = PersonFactory(federation=italy, first_name="Luca")
    staff = federation_staff(italy)
    client = _client(staff)
    form = client.get(reverse("federation:person-edit", args=[person.pk]))
    version = form.context["form"]["version"].value()
    # A colleague saves first.
    services.person_update(person=person, by=staff, first_name="Lucas")
    data = {
        "first_name": "Luka",
        "last_name": person.last_name,
        "date_of_birth": person.date_of_birth.isoformat(),
        "gender": person.gender,
        "nationality": str(person.nationality),
        "version": version,
    }
    response = client.post(reverse("federation:person-edit", args=[person.pk]), data)
    assert response.status_code == 400
    assert "Portal rule (concurrent edits)" in response.content.decode()
    assert Person.objects.get(pk=person.pk).first_name == "Lucas"
    # With the current version, the change is saved.
    data["version"] = services.person_version(Person.objects.get(pk=person.pk))
    response = client.post(reverse("federation:person-edit", args=[person.pk]), data)
    assert response.status_code == 302
    assert Person.objects.get(pk=person.pk).first_name == "Luka"


def test_a_renewal_keeps_the_old_passport_and_must_expire_later(italy):
    person = PersonFactory(federation=italy)
    old = PassportFactory(person=person, issuing_country="IT", number="OLD1", expiry_date=datetime.date(2027, 1, 31))
    client = _client(federation_staff(italy))
    url = reverse("federation:passport-renew", args=[old.pk])
    data = {"issuing_country": "IT", "number": "NEW1", "expiry_date": "2026-06-30", "scan": jpeg_upload()}
    response = client.post(url, data)
    assert response.status_code == 400
    assert "Rule 1.1 B: a renewed passport expires after" in response.content.decode()
    assert person.passports.count() == 1
    data = {"issuing_country": "IT", "number": "NEW1", "expiry_date": "2036-06-30", "scan": jpeg_upload()}
    assert client.post(url, data).status_code == 302
    assert set(person.passports.values_list("number", flat=True)) == {"OLD1", "NEW1"}
    new = Passport.objects.get(number="NEW1")
    assert new.scan and new.scan_content_type == "image/jpeg"
    assert Passport.objects.get(pk=old.pk).expiry_date == datetime.date(2027, 1, 31)


def test_a_passport_without_its_scan_is_refused_by_name(italy):
    person = PersonFactory(federation=italy)
    response = _client(federation_staff(italy)).post(
        reverse("federation:passport-add", args=[person.pk]),
        {"issuing_country": "IT", "number": "AB1", "expiry_date": "2030-01-31"},
    )
    assert response.status_code == 400
    assert response.context["form"].errors["scan"]
    assert not person.passports.exists()


def _csv(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def test_the_export_keeps_the_filters_and_shows_passports_only_to_their_readers(italy):
    player = PersonFactory(federation=italy, last_name="Bianchi", is_player=True)
    PassportFactory(person=player, issuing_country="IT", number="PP123")
    PersonFactory(federation=italy, last_name="Neri", is_player=False, is_referee=True)
    PersonFactory(federation=FederationFactory(country="DE"), last_name="Schmidt", is_player=True)
    url = reverse("federation:person-export", args=["csv"]) + "?role=player"

    rows = _csv(_client(federation_staff(italy)).get(url))
    assert rows[0][-3:] == ["Passport issued by", "Passport number", "Passport expiry date"]
    assert [row[0] for row in rows[1:]] == ["Bianchi"]
    assert rows[1][-2] == "PP123"

    committee = UserFactory()
    RoleAssignmentFactory(user=committee, role=Role.DISCIPLINE_COMMITTEE, federation=None)
    rows = _csv(_client(committee).get(url))
    assert "Passport number" not in rows[0]
    assert sorted(row[0] for row in rows[1:]) == ["Bianchi", "Schmidt"]
    assert not any("PP123" in cell for row in rows for cell in row)


def test_the_xlsx_export_stores_dates_as_dates_and_names_as_text(italy):
    PersonFactory(federation=italy, last_name="=HYPERLINK(1)", date_of_birth=datetime.date(2000, 5, 6))
    response = _client(international_staff()).get(reverse("federation:person-export", args=["xlsx"]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="people.xlsx"'
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    values = list(sheet.iter_rows(values_only=True))
    assert values[1][0] == "=HYPERLINK(1)" and sheet.cell(row=2, column=1).data_type == "s"
    assert values[1][3].date() == datetime.date(2000, 5, 6)


def test_an_unknown_export_kind_is_not_found(italy):
    assert _client(federation_staff(italy)).get("/federation/people/export/pdf/").status_code == 404


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("fr", ["Joueur", "Gardien", "Officiel d'équipe", "Arbitre", "Officiel de match"]),
        ("en", ["Player", "Goalkeeper", "Team official", "Referee", "Game official"]),
    ],
)
def test_the_people_lists_role_filter_names_the_roles_in_the_readers_language(italy, language, expected):
    """The role filter's choices are people's words in the page's language, never the field names ("team_official")."""
    import html
    import re

    client = _client(federation_staff(italy))
    client.cookies["django_language"] = language
    page = client.get(reverse("federation:person-list")).content.decode()
    select = re.search(r'<select[^>]*name="role"[^>]*>(.*?)</select>', page, re.S).group(1)
    labels = [
        html.unescape(label.strip()) for label in re.findall(r"<option value=\"\w+\"[^>]*>([^<]+)</option>", select)
    ]
    assert labels == expected
