"""The access layer (accounts.roles, federation.access) and the object permissions built on it (the apps' rules.py)."""

import pytest
from django.core.exceptions import PermissionDenied
from django.http import Http404

from accounts import roles
from accounts.models import Role
from federation import access
from tests.factories import (
    FederationFactory,
    InternationalFederationFactory,
    PassportFactory,
    PersonFactory,
    RoleAssignmentFactory,
    SuperuserFactory,
    UserFactory,
    federation_staff,
    with_role,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    fed_a, fed_b = FederationFactory(), FederationFactory()
    return {
        "a": fed_a,
        "b": fed_b,
        "person_a": PersonFactory(federation=fed_a),
        "person_b": PersonFactory(federation=fed_b),
        "passport_a": PassportFactory(person__federation=fed_a),
        "passport_b": PassportFactory(person__federation=fed_b),
    }


def test_national_staff_see_only_their_federations_people_and_passports(world):
    staff = federation_staff(world["a"])
    assert set(access.people_visible_to(staff)) == {world["person_a"], world["passport_a"].person}
    assert list(access.passports_visible_to(staff)) == [world["passport_a"]]
    assert access.can_view_person(staff, world["person_a"])
    assert not access.can_view_person(staff, world["person_b"])
    assert not access.can_view_passport(staff, world["passport_b"])


def test_staff_of_a_continental_federation_are_international_staff(world):
    continental = FederationFactory(level="continental", country="")
    staff = federation_staff(continental)
    assert roles.is_international_staff(staff)
    assert access.people_visible_to(staff).count() == 4
    assert access.can_edit_person(staff, world["person_b"])
    assert access.can_view_passport(staff, world["passport_b"])


def test_staff_of_an_international_federation_see_every_passport(world):
    staff = federation_staff(InternationalFederationFactory())
    assert access.passports_visible_to(staff).count() == 2


def test_ihtc_executives_and_superusers_keep_the_federation_registry(world):
    assert roles.can_manage_federations(with_role(Role.IHTC_EXECUTIVE))
    assert roles.can_manage_federations(SuperuserFactory())
    assert not roles.can_manage_federations(federation_staff(InternationalFederationFactory()))
    assert not roles.can_manage_federations(federation_staff(world["a"]))


@pytest.mark.parametrize("role", [Role.DISCIPLINE_COMMITTEE, Role.GAME_OFFICIAL])
def test_committee_members_and_officials_see_every_person_but_no_passport(world, role):
    user = with_role(role)
    assert access.people_visible_to(user).count() == 4
    assert access.can_view_person(user, world["person_b"])
    assert not access.can_edit_person(user, world["person_b"])
    assert access.passports_visible_to(user).count() == 0
    assert not access.can_view_passport(user, world["passport_a"])


def test_team_managers_and_anonymous_users_see_no_people(world):
    from django.contrib.auth.models import AnonymousUser

    for user in (with_role(Role.TEAM_MANAGER), AnonymousUser(), UserFactory()):
        assert access.people_visible_to(user).count() == 0
        assert access.passports_visible_to(user).count() == 0
        assert not access.can_see_people(user)


def test_a_person_can_hold_several_roles(world):
    user = federation_staff(world["a"])
    RoleAssignmentFactory(user=user, role=Role.DISCIPLINE_COMMITTEE, federation=None)
    RoleAssignmentFactory(user=user, role=Role.FEDERATION_STAFF, federation=world["b"])
    roles.forget_roles(user)
    assert roles.roles_of(user) == {Role.FEDERATION_STAFF, Role.DISCIPLINE_COMMITTEE}
    assert roles.staff_federation_ids(user) == {world["a"].pk, world["b"].pk}
    assert access.passports_visible_to(user).count() == 2


def test_roles_are_read_with_one_query_per_user_object(world, django_assert_num_queries):
    staff = federation_staff(world["a"])
    with django_assert_num_queries(1):
        for _ in range(3):
            roles.is_international_staff(staff)
            roles.staff_federation_ids(staff)
            access.can_view_person(staff, world["person_a"])


def test_access_person_is_404_for_an_invisible_person_and_403_for_a_read_only_one(world):
    staff = federation_staff(world["a"])
    assert access.access_person(staff, world["person_a"].pk, for_edit=True) == world["person_a"]
    with pytest.raises(Http404):
        access.access_person(staff, world["person_b"].pk)
    with pytest.raises(Http404):
        access.access_person(staff, "not-a-number")
    official = with_role(Role.GAME_OFFICIAL)
    assert access.access_person(official, world["person_b"].pk) == world["person_b"]
    with pytest.raises(PermissionDenied):
        access.access_person(official, world["person_b"].pk, for_edit=True)


def test_another_federations_passport_is_404(world):
    staff = federation_staff(world["b"])
    with pytest.raises(Http404):
        access.access_passport(staff, world["passport_a"].pk)
    assert access.access_passport(staff, world["passport_b"].pk) == world["passport_b"]


def test_access_federation_is_readable_by_all_but_changed_only_by_executives(world):
    staff = federation_staff(world["a"])
    assert access.access_federation(staff, world["a"].pk) == world["a"]
    with pytest.raises(PermissionDenied):
        access.access_federation(staff, world["a"].pk, for_edit=True)
    assert access.access_federation(with_role(Role.IHTC_EXECUTIVE), world["b"].pk, for_edit=True) == world["b"]
    with pytest.raises(Http404):
        access.access_federation(staff, 999999)


def test_people_editable_q_matches_can_edit_person(world):
    from federation.models import Person

    staff = federation_staff(world["a"])
    editable = set(Person.objects.filter(access.people_editable_q(staff)))
    assert editable == {p for p in Person.objects.all() if access.can_edit_person(staff, p)}


def test_a_team_manager_sees_only_the_people_of_the_entries_he_manages_read_only(world):
    from tests.factories import RosterEntryFactory, TeamEntryFactory
    from tournaments.models import TeamOfficial

    manager = with_role(Role.TEAM_MANAGER, federation=world["a"])
    entry = TeamEntryFactory(federation=world["a"])
    entry.managers.add(manager)
    player = RosterEntryFactory(entry=entry, person=world["person_a"]).person
    coach = PersonFactory(federation=world["a"])
    TeamOfficial.objects.create(entry=entry, person=coach, role="coach")
    # Least privilege: the roster's player and the team official, not the rest of the federation.
    assert set(access.people_visible_to(manager)) == {player, coach}
    assert access.can_see_people(manager)
    assert access.can_view_person(manager, player)
    assert access.can_view_person(manager, coach)
    assert not access.can_view_person(manager, world["passport_a"].person)
    assert not access.can_view_person(manager, world["person_b"])
    assert not access.can_edit_person(manager, player)
    assert not access.can_see_confidential(manager, player)
    assert access.passports_visible_to(manager).count() == 0


def test_a_team_manager_removed_from_the_entry_no_longer_sees_its_people(world):
    from tests.factories import RosterEntryFactory, TeamEntryFactory

    manager = with_role(Role.TEAM_MANAGER, federation=world["a"])
    entry = TeamEntryFactory(federation=world["a"])
    entry.managers.add(manager)
    RosterEntryFactory(entry=entry, person=world["person_a"])
    assert access.can_view_person(manager, world["person_a"])
    entry.managers.remove(manager)
    roles.forget_roles(manager)
    assert access.people_visible_to(manager).count() == 0
    assert not access.can_view_person(manager, world["person_a"])
