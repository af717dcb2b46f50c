"""Issue 29 through the API: a team's managers and officials named by e-mail (the invitations of issue 25, the same
service as the page "Managers and officials: invite by e-mail") and listed with names and e-mails; the IHTC's
approval of a number change after registration (3.2.9 D)."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from accounts import invitations
from accounts.models import Invitation, Role
from tests.factories import (
    ChampionshipFactory,
    FederationFactory,
    TeamEntryFactory,
    UserFactory,
    client_for,
    federation_staff,
    international_staff,
    with_role,
)
from tournaments.models import NumberChangeApproval, RosterEntry

from .conftest import eligible_person

pytestmark = pytest.mark.django_db


def managers_url(entry) -> str:
    return f"/api/entries/{entry.pk}/managers/"


@pytest.fixture
def entry():
    return TeamEntryFactory(championship=ChampionshipFactory())


def test_staff_invite_a_coach_by_email_who_then_manages_the_entry(entry):
    staff = client_for(federation_staff(entry.federation))
    response = staff.post(managers_url(entry), {"email": "Coach@Example.org", "duty": "coach"}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["email"] == "Coach@example.org" and body["duty"] == "coach"
    assert set(body) == {"email", "duty", "invited_at", "expires_at"}
    assert mail.outbox[0].to == ["Coach@example.org"]
    # Listed as waiting, then, once accepted, among the managers with the duty it was invited to.
    listed = staff.get(managers_url(entry)).json()
    assert listed["managers"] == [] and [i["email"] for i in listed["invitations"]] == ["Coach@example.org"]
    token = re.search(r"/accounts/invitations/([^/\s]+)/", mail.outbox[0].body).group(1)
    coach = UserFactory(email="coach@example.org", first_name="Ana", last_name="Ruiz")
    invitations.accept(token, coach)
    listed = staff.get(managers_url(entry)).json()
    assert listed == {
        "managers": [{"id": coach.pk, "name": "Ana Ruiz", "email": "coach@example.org", "duty": "coach"}],
        "invitations": [],
    }
    assert client_for(coach).get(f"/api/entries/{entry.pk}/roster/").status_code == 200


def test_the_duty_defaults_to_manager_and_bad_input_names_the_field(entry):
    staff = client_for(international_staff())
    assert staff.post(managers_url(entry), {"email": "tm@example.org"}, format="json").json()["duty"] == "manager"
    for body, field in (
        ({"email": "not-an-address", "duty": "coach"}, "email"),
        ({"email": "x@example.org", "duty": "mascot"}, "duty"),
        ({"duty": "coach"}, "email"),
        ({"email": "x@example.org", "role": "ihtc_executive"}, "role"),  # a field the operation does not take
    ):
        response = staff.post(managers_url(entry), body, format="json")
        assert response.status_code == 400 and field in response.json(), (body, response.json())
    assert Invitation.objects.count() == 1 and len(mail.outbox) == 1


def test_who_may_list_and_invite_is_who_names_the_managers_on_the_page(entry):
    manager = with_role(Role.TEAM_MANAGER, entry.federation)
    entry.managers.add(manager)
    for user in (manager, federation_staff(FederationFactory()), with_role(Role.DISCIPLINE_COMMITTEE)):
        client = client_for(user)
        assert client.get(managers_url(entry)).status_code == 403
        assert client.post(managers_url(entry), {"email": "x@example.org"}, format="json").status_code == 403
    anonymous = client_for(None)
    assert anonymous.get(managers_url(entry)).status_code == 403
    assert not Invitation.objects.exists()
    # A draft championship's entry is not seen by another federation's staff: 404, as every read of it.
    draft = TeamEntryFactory(championship=ChampionshipFactory(published=False))
    assert client_for(federation_staff(FederationFactory())).get(managers_url(draft)).status_code == 404
    assert client_for(federation_staff(entry.federation)).get(managers_url(entry)).status_code == 200


def test_the_deprecated_id_form_still_replaces_the_managers_by_the_ids_listed(entry):
    staff = client_for(federation_staff(entry.federation))
    manager = UserFactory()
    response = staff.post(managers_url(entry), {"managers": [manager.pk]}, format="json")
    assert response.status_code == 200 and response.json()["id"] == entry.pk
    assert [m["id"] for m in staff.get(managers_url(entry)).json()["managers"]] == [manager.pk]
    mixed = staff.post(managers_url(entry), {"managers": [], "email": "x@example.org"}, format="json")
    assert mixed.status_code == 400 and "email" in mixed.json()
    assert list(entry.managers.all()) == [manager]


# --- the IHTC's approval of a number change (3.2.9 D) ----------------------------------------------------------


@pytest.fixture
def registered_line(entry):
    return RosterEntry.objects.create(
        entry=entry, person=eligible_person(entry.federation), number="10", confirmed=True
    )


def approvals_url(line) -> str:
    return f"/api/roster-entries/{line.pk}/number-change-approvals/"


def test_the_ihtc_approves_a_number_change_and_the_team_then_makes_it_3_2_9_d(entry, registered_line):
    ihtc = client_for(international_staff())
    response = ihtc.post(approvals_url(registered_line), {"new_number": "11", "reason": "Torn jersey"}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["old_number"], body["new_number"], body["reason"], body["applied_at"]) == (
        "10",
        "11",
        "Torn jersey",
        None,
    )
    manager = with_role(Role.TEAM_MANAGER, entry.federation)
    entry.managers.add(manager)
    changed = client_for(manager).patch(f"/api/roster-entries/{registered_line.pk}/", {"number": "11"}, format="json")
    assert changed.status_code == 200 and changed.json()["number"] == "11"
    assert NumberChangeApproval.objects.get().applied_at is not None


def test_a_number_change_approval_refuses_as_the_admin_does(entry, registered_line):
    ihtc = client_for(with_role(Role.IHTC_EXECUTIVE))
    for body, field, says in (
        ({"new_number": "07", "reason": "x"}, "new_number", "3.2.9 C"),
        ({"new_number": "10", "reason": "x"}, "new_number", "already wears"),
        ({"new_number": "12", "reason": "  "}, "reason", ""),
        ({"new_number": "12"}, "reason", ""),
        ({"new_number": "1234", "reason": "x"}, "new_number", ""),
    ):
        response = ihtc.post(approvals_url(registered_line), body, format="json")
        assert response.status_code == 400 and says in response.json()[field][0], (body, response.json())
    manager = with_role(Role.TEAM_MANAGER, entry.federation)
    entry.managers.add(manager)
    for user in (manager, federation_staff(entry.federation)):
        response = client_for(user).post(approvals_url(registered_line), {"new_number": "07"}, format="json")
        assert response.status_code == 403 and "3.2.9 D" in response.json()["detail"]
    assert client_for(None).post(approvals_url(registered_line), {}, format="json").status_code == 403
    assert not NumberChangeApproval.objects.exists()
