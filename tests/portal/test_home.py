"""The home per role (issue 12): each role's section, the public page for visitors, constant query counts."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import Role
from tests.factories import TeamEntryFactory, UserFactory, with_role

pytestmark = pytest.mark.django_db


def get_home(user=None):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get("/")


def test_anonymous_sees_the_public_page():
    body = get_home().content.decode()
    assert "Championships" in body
    assert "Your teams" not in body and "Discipline committee" not in body


def test_a_user_without_roles_sees_only_the_public_page():
    body = get_home(UserFactory()).content.decode()
    assert "Your teams" not in body and "Your next games" not in body


def test_team_manager_sees_their_section_with_an_empty_state():
    manager = with_role(Role.TEAM_MANAGER)
    TeamEntryFactory().managers.add(manager)
    body = get_home(manager).content.decode()
    assert "Your teams" in body and "Nothing waits for you." in body
    assert "Discipline committee" not in body


def test_committee_member_who_also_manages_sees_both_sections():
    user = with_role(Role.DISCIPLINE_COMMITTEE)
    from accounts.models import RoleAssignment

    RoleAssignment.objects.create(user=user, role=Role.TEAM_MANAGER)
    TeamEntryFactory().managers.add(user)
    body = get_home(user).content.decode()
    assert "Your teams" in body and "Discipline committee" in body


def test_manager_home_query_count_does_not_grow_with_entries():
    manager = with_role(Role.TEAM_MANAGER)
    TeamEntryFactory().managers.add(manager)
    client = Client()
    client.force_login(manager)
    client.get("/")
    with CaptureQueriesContext(connection) as one:
        client.get("/")
    for _ in range(5):
        TeamEntryFactory().managers.add(manager)
    with CaptureQueriesContext(connection) as many:
        client.get("/")
    assert len(many) == len(one)


@pytest.fixture(scope="class")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    """The demo world, built once for the class and rolled back afterwards (tests/demo_world.py)."""
    from tests.demo_world import built_demo

    with built_demo(django_db_blocker, tmp_path_factory.mktemp("demo-home")) as built:
        yield built


class TestTheDemoHomes:
    @pytest.mark.django_db
    @pytest.mark.parametrize(
        "username, row",
        [
            ("ita.manager", "Protest #"),
            ("referee", "Game #"),
            ("discipline", "/discipline/cases/"),
        ],
    )
    def test_each_demo_login_sees_its_section(self, demo, username, row):
        from django.contrib.auth import get_user_model

        body = get_home(get_user_model().objects.get(username=username)).content.decode()
        assert row in body


def test_official_sees_next_games_and_query_count_is_constant():
    import datetime

    from django.utils import timezone

    from games.models import GameOfficial, OfficialAccount
    from tests.factories import GameFactory, PersonFactory

    official = with_role(Role.GAME_OFFICIAL)
    person = PersonFactory()
    OfficialAccount.objects.create(person=person, user=official)

    def assign():
        game = GameFactory(start_at=timezone.now() + datetime.timedelta(days=1))
        GameOfficial.objects.create(game=game, person=person, duty="referee", assigned_at=timezone.now())
        return game

    first = assign()
    client = Client()
    client.force_login(official)
    body = client.get("/").content.decode()
    assert "Your next games" in body and f"Game #{first.number}" in body
    with CaptureQueriesContext(connection) as one:
        client.get("/")
    for _ in range(4):
        assign()
    with CaptureQueriesContext(connection) as many:
        client.get("/")
    assert len(many) == len(one)
