"""Object permissions (accounts/rules.py) answer through user.has_perm, for the API, pages and admin alike."""

import pytest

from accounts.models import Role
from tests.factories import (
    FederationFactory,
    PassportFactory,
    PersonFactory,
    SuperuserFactory,
    federation_staff,
    with_role,
)

pytestmark = pytest.mark.django_db


def test_national_staff_may_view_and_change_their_own_people_only():
    mine, other = PersonFactory(), PersonFactory()
    staff = federation_staff(mine.federation)
    assert staff.has_perm("federation.view_person", mine)
    assert staff.has_perm("federation.change_person", mine)
    assert not staff.has_perm("federation.view_person", other)
    assert not staff.has_perm("federation.change_person", other)
    assert staff.has_perm("federation.add_person")


def test_another_federations_passport_scan_permission_is_refused():
    passport = PassportFactory()
    staff_b = federation_staff(FederationFactory())
    assert not staff_b.has_perm("federation.view_passport_scan", passport)
    assert federation_staff(passport.person.federation).has_perm("federation.view_passport_scan", passport)


def test_game_officials_may_view_people_but_not_passports_or_changes():
    person = PersonFactory()
    passport = PassportFactory(person=person)
    official = with_role(Role.GAME_OFFICIAL)
    assert official.has_perm("federation.view_person", person)
    assert not official.has_perm("federation.change_person", person)
    assert not official.has_perm("federation.view_passport", passport)
    assert not official.has_perm("federation.view_passport")


def test_only_executives_and_superusers_change_federations():
    federation = FederationFactory()
    assert with_role(Role.IHTC_EXECUTIVE).has_perm("federation.change_federation", federation)
    assert SuperuserFactory().has_perm("federation.add_federation")
    assert not federation_staff(federation).has_perm("federation.change_federation", federation)
    assert federation_staff(federation).has_perm("federation.view_federation", federation)


def test_team_managers_have_no_access_to_the_register():
    manager = with_role(Role.TEAM_MANAGER)
    assert not manager.has_perm("federation.view_person")
    assert not manager.has_perm("federation.view_passport")
    assert not manager.has_module_perms("federation")
    assert with_role(Role.DISCIPLINE_COMMITTEE).has_module_perms("federation")
