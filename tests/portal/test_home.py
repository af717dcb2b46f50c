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
            ("ita.staff", "Your federation"),
            ("ihtc.exec", "The championships at a glance"),
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


# --- Issue 12: federation staff, the IHTC executive, rosters and line-ups due, the console ----------------------------


def _running_championship(**kwargs):
    """A championship running today (its first day yesterday, its last in three days)."""
    import datetime

    from django.utils import timezone

    from tests.factories import ChampionshipFactory

    today = timezone.localdate()
    return ChampionshipFactory(
        start_date=today - datetime.timedelta(days=1),
        end_date=today + datetime.timedelta(days=3),
        entry_closing_date=today - datetime.timedelta(days=10),
        **kwargs,
    )


def _unpaid_entry(**kwargs):
    from tournaments.models import EntryStatus

    return TeamEntryFactory(
        status=EntryStatus.ENTERED, fee_paid=False, fee_paid_amount=None, fee_paid_at=None, **kwargs
    )


def _waiting_in(federation, tag: str):
    """One of each thing federation staff act on, in ``federation``: a player without a passport (1.1 B) on the
    roster of an entry, a passport expiring in a month, a protective device request (3.2.8 C), an entry with the
    fee unpaid (1.1 A)."""
    import datetime

    from django.utils import timezone

    from tests.factories import PassportFactory, PersonFactory, ProtectiveDeviceRequestFactory, RosterEntryFactory

    nopass = PersonFactory(federation=federation, last_name=f"Nopass{tag}")
    PassportFactory(
        person=PersonFactory(federation=federation, last_name=f"Expiring{tag}"),
        expiry_date=timezone.localdate() + datetime.timedelta(days=30),
    )
    ProtectiveDeviceRequestFactory(
        person=PassportFactory(person=PersonFactory(federation=federation, last_name=f"Brace{tag}")).person
    )
    entry = _unpaid_entry(federation=federation, name=f"Team {tag}")
    RosterEntryFactory(entry=entry, person=nopass)
    return entry


def test_federation_staff_see_what_waits_in_their_own_federation_only():
    from tests.factories import FederationFactory, federation_staff

    mine, other = FederationFactory(), FederationFactory()
    entry = _waiting_in(mine, "Mine")
    _waiting_in(other, "Other")
    body = get_home(federation_staff(mine)).content.decode()
    assert "Your federation" in body
    assert "NOPASSMINE" in body and "Rule 1.1 B / R-03" in body  # the eligibility core's own reason
    assert "EXPIRINGMINE" in body and "BRACEMINE" in body
    assert f"/tournaments/entries/{entry.pk}/" in body and "fee not yet paid (1.1 A)" in body
    assert "roster not confirmed (1 line)" in body
    assert "/admin/federation/protectivedevicerequest/" in body
    assert "OTHER" not in body  # another federation's people and entries stay out of sight
    assert "The championships at a glance" not in body and "Your teams" not in body


def test_federation_staff_with_nothing_waiting_see_the_empty_states():
    from tests.factories import federation_staff

    body = get_home(federation_staff()).content.decode()
    assert "Your federation" in body and body.count("Nothing waits for you.") == 4


def test_the_executive_sees_the_running_championship_at_a_glance():
    import datetime

    from django.utils import timezone

    from discipline.models import Case
    from tests.factories import GameFactory

    executive = with_role(Role.IHTC_EXECUTIVE)
    running = _running_championship(name="Running Cup")
    finished = _running_championship(name="Old Cup")
    finished.start_date, finished.end_date = datetime.date(2020, 7, 1), datetime.date(2020, 7, 10)
    finished.entry_closing_date = datetime.date(2020, 5, 1)
    finished.save()
    _unpaid_entry(championship=running)
    game = GameFactory(championship=running, start_at=timezone.now())
    Case.objects.create(title="Fight", championship=running, opened_at=timezone.now(), opened_by=executive)
    body = get_home(executive).content.decode()
    assert "The championships at a glance" in body and "Running Cup" in body and "Old Cup" not in body
    assert "1 fee unpaid" in body and "Open discipline cases: 1; protests open: 0" in body
    assert f"/games/{game.pk}/live/" in body and "Scheduled" in body
    assert "Your federation" not in body


def test_the_executive_section_is_the_executives_only():
    _running_championship()
    for user in (with_role(Role.DISCIPLINE_COMMITTEE), with_role(Role.GAME_OFFICIAL), UserFactory()):
        assert "The championships at a glance" not in get_home(user).content.decode()


def test_staff_who_also_manage_a_team_see_both_sections():
    from accounts.models import RoleAssignment
    from tests.factories import FederationFactory, federation_staff

    federation = FederationFactory()
    user = federation_staff(federation)
    RoleAssignment.objects.create(user=user, role=Role.TEAM_MANAGER)
    TeamEntryFactory(federation=federation).managers.add(user)
    body = get_home(user).content.decode()
    assert "Your federation" in body and "Your teams" in body


def test_manager_sees_roster_status_and_the_line_ups_due():
    from django.utils import timezone

    from games.models import Lineup
    from tests.factories import GameFactory, RosterEntryFactory

    manager = with_role(Role.TEAM_MANAGER)
    entry = TeamEntryFactory()
    entry.managers.add(manager)
    RosterEntryFactory(entry=entry, number="7")
    RosterEntryFactory(entry=entry, number="9")
    game = GameFactory(championship=entry.championship, home=entry)
    body = get_home(manager).content.decode()
    assert "2 lines, not confirmed, open to changes" in body
    assert f"/games/{game.pk}/lineup/{entry.pk}/" in body and f"for game #{game.number}" in body
    Lineup.objects.create(game=game, entry=entry, submitted_at=timezone.now())
    assert f"/games/{game.pk}/lineup/{entry.pk}/" not in get_home(manager).content.decode()


def test_a_begun_championships_roster_is_frozen_on_the_home():
    manager = with_role(Role.TEAM_MANAGER)
    TeamEntryFactory(championship=_running_championship()).managers.add(manager)
    assert "frozen (3.1.1 B)" in get_home(manager).content.decode()  # begun, so frozen


def test_the_console_link_is_for_the_officials_table_only():
    import datetime

    from django.utils import timezone

    from games.models import GameOfficial, OfficialAccount
    from tests.factories import GameFactory, PersonFactory

    official = with_role(Role.GAME_OFFICIAL)
    person = PersonFactory()
    OfficialAccount.objects.create(person=person, user=official)
    soon = timezone.now() + datetime.timedelta(days=1)
    scored, refereed = GameFactory(start_at=soon), GameFactory(start_at=soon)
    GameOfficial.objects.create(game=scored, person=person, duty="scorer", assigned_at=timezone.now())
    GameOfficial.objects.create(game=refereed, person=person, duty="referee", assigned_at=timezone.now())
    body = get_home(official).content.decode()
    assert f"/games/{scored.pk}/console/" in body  # 4.3: the official scorer keeps the sheet
    assert f"/games/{refereed.pk}/console/" not in body


def test_an_official_with_two_duties_in_a_game_sees_it_once_with_both():
    """4.1 B: a timekeeper who also keeps the score has one game, not two (issue 25)."""
    import datetime

    from django.utils import timezone

    from games.models import GameOfficial, OfficialAccount
    from tests.factories import GameFactory, PersonFactory

    official = with_role(Role.GAME_OFFICIAL)
    person = PersonFactory(is_official=True)
    OfficialAccount.objects.create(person=person, user=official)
    game = GameFactory(start_at=timezone.now() + datetime.timedelta(days=1))
    for duty in ("timekeeper", "scorer"):
        GameOfficial.objects.create(game=game, person=person, duty=duty, assigned_at=timezone.now())
    body = get_home(official).content.decode()
    section = body[body.index("Your next games") :]
    assert section.count(f"Game #{game.number}</a>") == 1
    assert "Game timekeeper (4.4)" in section and "Official scorer (4.3)" in section
    assert section.count(f"/games/{game.pk}/console/") == 1


def _count(client) -> int:
    with CaptureQueriesContext(connection) as queries:
        client.get("/")
    return len(queries)


def test_staff_executive_and_manager_homes_run_the_same_queries_with_2_or_10_rows():
    from django.utils import timezone

    from accounts.models import RoleAssignment
    from tests.factories import (
        FederationFactory,
        GameFactory,
        PassportFactory,
        PersonFactory,
        ProtectiveDeviceRequestFactory,
        RosterEntryFactory,
        federation_staff,
    )

    federation = FederationFactory()
    user = federation_staff(federation)
    for role in (Role.IHTC_EXECUTIVE, Role.TEAM_MANAGER):
        RoleAssignment.objects.create(user=user, role=role)
    running = _running_championship()
    other, home, away = FederationFactory(), _unpaid_entry(championship=running), TeamEntryFactory(championship=running)

    def grow(n: int):
        for i in range(n):
            tag = f"{n}{i}"
            _waiting_in(other, f"X{tag}")  # another federation's rows: none shown
            PersonFactory(federation=federation, last_name=f"Nopass{tag}")
            ProtectiveDeviceRequestFactory(person=PassportFactory(person=PersonFactory(federation=federation)).person)
            entry = _unpaid_entry(federation=federation)  # each in its own championship: the frozen check is batched
            entry.managers.add(user)
            RosterEntryFactory(entry=entry)
            GameFactory(
                championship=entry.championship,
                home=entry,
                away=TeamEntryFactory(championship=entry.championship, federation=other),
            )
            GameFactory(championship=running, home=home, away=away, start_at=timezone.now())

    client = Client()
    client.force_login(user)
    grow(2)
    client.get("/")
    two = _count(client)
    grow(8)
    ten = _count(client)
    body = client.get("/").content.decode()
    assert "Your federation" in body and "Your teams" in body and "The championships at a glance" in body
    assert ten == two


def test_official_home_with_console_links_runs_the_same_queries_with_2_or_10_games():
    import datetime

    from django.utils import timezone

    from games.models import GameOfficial, OfficialAccount
    from tests.factories import GameFactory, PersonFactory

    official = with_role(Role.GAME_OFFICIAL)
    person = PersonFactory()
    OfficialAccount.objects.create(person=person, user=official)

    def assign(n):
        for _ in range(n):
            game = GameFactory(start_at=timezone.now() + datetime.timedelta(days=1))
            GameOfficial.objects.create(game=game, person=person, duty="scorer", assigned_at=timezone.now())

    client = Client()
    client.force_login(official)
    assign(2)
    client.get("/")
    two = _count(client)
    assign(8)
    assert _count(client) == two
    assert client.get("/").content.decode().count("/console/") == 10


def test_game_times_on_the_home_are_the_venues():
    import datetime
    import zoneinfo

    from django.utils import timezone

    from games.models import GameOfficial, OfficialAccount
    from tests.factories import GameFactory, PersonFactory

    official = with_role(Role.GAME_OFFICIAL)
    person = PersonFactory()
    OfficialAccount.objects.create(person=person, user=official)
    start = datetime.datetime(2027, 7, 2, 18, 30, tzinfo=zoneinfo.ZoneInfo("Europe/Rome"))  # 16:30 UTC
    GameOfficial.objects.create(
        game=GameFactory(start_at=start), person=person, duty="referee", assigned_at=timezone.now()
    )
    body = get_home(official).content.decode()
    assert "Fri 2 Jul 2027, 18:30" in body and body.count("Times are local to each game&#x27;s venue.") == 1
    assert "UTC" not in body and "CEST" not in body


def test_federation_staff_see_the_players_not_eligible_for_the_championships_they_are_entered_in_now():
    """Issue 25: a player on the roster of a running championship who is not eligible for it (1.1 B: no passport)
    is listed with the team and championship; nobody is checked against an imagined championship."""
    from tests.factories import FederationFactory, PersonFactory, RosterEntryFactory, federation_staff

    germany = FederationFactory()
    running = _running_championship(name="Running Cup")
    entry = TeamEntryFactory(championship=running, federation=germany, name="Germany A")
    RosterEntryFactory(entry=entry, person=PersonFactory(federation=germany, last_name="Rostered"))
    PersonFactory(federation=germany, last_name="Nowhere")  # on no roster: nothing to do for a championship
    body = get_home(federation_staff(germany)).content.decode()
    section = body[body.index("People with an eligibility problem") : body.index("Passports expiring soon")]
    assert "ROSTERED" in section and "Germany A, Running Cup" in section and "Rule 1.1 B / R-03" in section
    assert "NOWHERE" not in section and "Nothing waits for you." not in section
