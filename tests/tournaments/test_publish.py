"""Draft championships: seen by their directors and international staff only, until they are published."""

from __future__ import annotations

import datetime

import pytest
from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import Role, User
from tests.factories import (
    ChampionshipFactory,
    FederationFactory,
    GameFactory,
    PersonFactory,
    PoolFactory,
    PoolTeamFactory,
    RosterEntryFactory,
    SuperuserFactory,
    TeamEntryFactory,
    client_for,
    federation_staff,
    ids,
    international_staff,
    with_role,
)
from tournaments import selectors, services
from tournaments.models import Championship, GoalRecord, PenaltyRecord

from .conftest import BEFORE_CLOSING

pytestmark = pytest.mark.django_db


def GoalRecordFactory(*, game):  # noqa: N802 (reads like the factories)
    return GoalRecord.objects.create(game=game, entry=game.home, scorer=PersonFactory(), period=1, time_tenths=10)


def PenaltyRecordFactory(*, game):  # noqa: N802
    return PenaltyRecord.objects.create(
        game=game, entry=game.home, infraction_code="tripping", minutes=2, period=1, time_tenths=10
    )


PAGES = ["championship-detail", "schedule", "results", "standings", "bracket", "leaders"]


@pytest.fixture
def body():
    """The national federation that sanctions the draft: its staff direct it."""
    return FederationFactory()


@pytest.fixture
def draft(body):
    """A draft with an entry, a roster line, a pool and a game with a goal and a penalty."""
    championship = ChampionshipFactory(published=False, sanctioning_body=body)
    pool = PoolFactory(championship=championship)
    game = GameFactory(championship=championship, pool=pool)
    PoolTeamFactory(pool=pool, entry=game.home)
    RosterEntryFactory(entry=game.home, number="9")
    GoalRecordFactory(game=game)
    PenaltyRecordFactory(game=game)
    return championship


@pytest.fixture
def other_manager(draft):
    """A team manager of an entry of another (published) championship."""
    entry = TeamEntryFactory(championship=ChampionshipFactory())
    manager = with_role(Role.TEAM_MANAGER, entry.federation)
    entry.managers.add(manager)
    return manager


def _readers(body):
    return {
        "director": federation_staff(body),
        "international staff": international_staff(),
        "superuser": SuperuserFactory(),
        "IHTC executive": with_role(Role.IHTC_EXECUTIVE),
    }


def _api_urls(draft):
    game = draft.games.get()
    pool = draft.pools.get()
    entry = game.home
    return [
        f"/api/championships/{draft.pk}/",
        f"/api/championships/{draft.pk}/standings/",
        f"/api/championships/{draft.pk}/statistics/",
        f"/api/entries/{entry.pk}/",
        f"/api/roster-entries/{entry.roster.get().pk}/",
        f"/api/pools/{pool.pk}/",
        f"/api/pools/{pool.pk}/standings/",
        f"/api/games/{game.pk}/",
        f"/api/goals/{game.goals.get().pk}/",
        f"/api/penalties/{game.penalties.get().pk}/",
    ]


LISTS = {
    "/api/championships/": lambda d: {d.pk},
    "/api/entries/": lambda d: set(d.entries.values_list("pk", flat=True)),
    "/api/roster-entries/": lambda d: set(d.entries.values_list("roster__pk", flat=True)) - {None},
    "/api/pools/": lambda d: set(d.pools.values_list("pk", flat=True)),
    "/api/games/": lambda d: set(d.games.values_list("pk", flat=True)),
    "/api/goals/": lambda d: set(d.games.values_list("goals__pk", flat=True)) - {None},
    "/api/penalties/": lambda d: set(d.games.values_list("penalties__pk", flat=True)) - {None},
}


def test_a_new_championship_is_a_draft(body):
    championship = services.championship_create(
        name="Nationals",
        category="senior_men",
        level="national",
        start_date=datetime.date(2027, 7, 1),
        end_date=datetime.date(2027, 7, 3),
        venue=ChampionshipFactory().venue,
        entry_closing_date=datetime.date(2027, 5, 1),
        entry_fee=services.money(100, "EUR"),
        sanctioning_body=body,
        by=federation_staff(body),
    )
    assert championship.published is False
    assert not selectors.visible_championships(None).filter(pk=championship.pk).exists()


def test_the_public_pages_of_a_draft_answer_404_to_anonymous_and_unrelated_users(draft, other_manager):
    for user in (None, other_manager, federation_staff(FederationFactory()), with_role(Role.GAME_OFFICIAL)):
        client = Client()
        if user is not None:
            client.force_login(user)
        for name in PAGES:
            assert client.get(reverse(f"tournaments:{name}", args=[draft.pk])).status_code == 404, (name, user)
        listing = client.get(reverse("tournaments:championship-list"))
        assert draft.name not in listing.content.decode()


def test_directors_and_staff_see_the_draft_marked_as_a_draft(draft, body):
    for who, user in _readers(body).items():
        client = Client()
        client.force_login(user)
        for name in PAGES:
            assert client.get(reverse(f"tournaments:{name}", args=[draft.pk])).status_code == 200, (name, who)
        listing = client.get(reverse("tournaments:championship-list")).content.decode()
        assert draft.name in listing and "draft" in listing, who
        detail = client.get(reverse("tournaments:championship-detail", args=[draft.pk])).content.decode()
        assert "Only its directors see this championship" in detail
        assert reverse("tournaments:championship-publish-confirm", args=[draft.pk]) in detail


def test_the_api_answers_404_for_every_row_of_a_draft_to_anonymous_and_unrelated_readers(draft, other_manager):
    for user in (None, other_manager, federation_staff(FederationFactory())):
        client = client_for(user)
        for url in _api_urls(draft):
            assert client.get(url).status_code == 404, (url, user)
        for url, rows in LISTS.items():
            response = client.get(url)
            assert response.status_code == 200
            assert not ids(response) & rows(draft), (url, user)


def test_unpublished_roster_lines_are_not_public(draft):
    """Roster lines (names, numbers) of a championship that has not been published stay with its directors."""
    line = RosterEntryFactory(entry=draft.entries.first(), number="77")
    anonymous = client_for(None)
    assert anonymous.get(f"/api/roster-entries/{line.pk}/").status_code == 404
    assert line.pk not in ids(anonymous.get(f"/api/roster-entries/?championship={draft.pk}"))
    assert line.pk not in ids(anonymous.get(f"/api/roster-entries/?entry={line.entry_id}"))
    services.championship_publish(championship=draft, by=international_staff())
    assert anonymous.get(f"/api/roster-entries/{line.pk}/").json()["number"] == "77"


def test_directors_and_staff_read_every_row_of_the_draft_through_the_api(draft, body):
    for who, user in _readers(body).items():
        client = client_for(user)
        for url in _api_urls(draft):
            assert client.get(url).status_code == 200, (url, who)
        for url, rows in LISTS.items():
            assert rows(draft) <= ids(client.get(url)), (url, who)
        assert client.get(f"/api/championships/{draft.pk}/").json()["published"] is False


def test_the_api_and_pages_show_a_published_championship_to_everyone(draft):
    services.championship_publish(championship=draft, by=international_staff())
    for url in _api_urls(draft):
        assert client_for(None).get(url).status_code == 200, url
    for name in PAGES:
        assert Client().get(reverse(f"tournaments:{name}", args=[draft.pk])).status_code == 200, name


def test_the_visibility_of_a_draft_is_the_directors_check(draft, body, other_manager):
    """The queryset form and ``services.check_can_direct`` give the same answer for every role."""
    users = [
        None,
        other_manager,
        federation_staff(FederationFactory()),
        with_role(Role.DISCIPLINE_COMMITTEE),
        *_readers(body).values(),
    ]
    for user in users:
        try:
            services.check_can_direct(user, draft)
        except PermissionDenied:
            directs = False
        else:
            directs = True
        assert selectors.visible_championships(user).filter(pk=draft.pk).exists() == directs, user


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


@pytest.mark.parametrize("url", list(LISTS))
def test_lists_take_as_many_queries_for_many_championships_as_for_one(url, body):
    director = federation_staff(body)
    for _ in range(2):
        ChampionshipFactory(published=False, sanctioning_body=body)
    game = GameFactory()
    RosterEntryFactory(entry=game.home, number="9")
    GoalRecordFactory(game=game)
    PenaltyRecordFactory(game=game)
    PoolFactory(championship=game.championship)
    # A fresh user object each time: it reads its roles again, as on every request.
    clients = {
        "anonymous": lambda: client_for(None),
        "director": lambda: client_for(User.objects.get(pk=director.pk)),
    }
    before = {who: _queries(client(), url) for who, client in clients.items()}
    for published in (False, False, True, True):
        game = GameFactory(championship=ChampionshipFactory(published=published, sanctioning_body=body))
        RosterEntryFactory(entry=game.home, number="9")
        GoalRecordFactory(game=game)
        PenaltyRecordFactory(game=game)
        PoolFactory(championship=game.championship)
    for who, client in clients.items():
        assert _queries(client(), url) == before[who], who


# --- publishing ---------------------------------------------------------------------------------------------------


def test_a_director_publishes_the_draft_and_the_history_names_him(draft, body):
    director = federation_staff(body)
    published = services.championship_publish(championship=draft, by=director)
    assert published.published is True
    assert Championship.objects.get(pk=draft.pk).published is True
    assert draft.history.latest().history_user == director


def test_only_directors_publish(draft, other_manager):
    for user in (other_manager, federation_staff(FederationFactory())):
        with pytest.raises(PermissionDenied):
            services.championship_publish(championship=draft, by=user)
    assert Championship.objects.get(pk=draft.pk).published is False


def test_publishing_a_published_championship_is_refused_naming_the_field(draft, body):
    services.championship_publish(championship=draft, by=federation_staff(body))
    with pytest.raises(ValidationError) as refused:
        services.championship_publish(championship=draft, by=federation_staff(body))
    assert "already published" in refused.value.message_dict["published"][0]


def test_the_api_publishes_for_directors_and_answers_404_to_those_who_may_not_see_the_draft(draft, body, other_manager):
    url = f"/api/championships/{draft.pk}/publish/"
    assert client_for(None).post(url).status_code == 403
    assert client_for(other_manager).post(url).status_code == 404
    response = client_for(federation_staff(body)).post(url)
    assert response.status_code == 200 and response.json()["published"] is True
    again = client_for(federation_staff(body)).post(url)
    assert again.status_code == 400 and "published" in again.json()
    # Published: seen, but still not published by someone who does not direct it.
    assert client_for(other_manager).post(url).status_code == 403


def test_the_page_publishes_for_directors(draft, body):
    client = Client()
    client.force_login(federation_staff(body))
    response = client.post(reverse("tournaments:championship-publish", args=[draft.pk]), follow=True)
    assert "is published" in response.content.decode()
    assert Championship.objects.get(pk=draft.pk).published is True


def test_the_admin_action_publishes_through_the_service(draft):
    client = Client()
    client.force_login(SuperuserFactory())
    url = reverse("admin:tournaments_championship_changelist")
    response = client.post(url, {"action": "publish", admin.helpers.ACTION_CHECKBOX_NAME: [draft.pk]}, follow=True)
    assert response.status_code == 200
    assert Championship.objects.get(pk=draft.pk).published is True
    # Again: the service's refusal is shown, nothing changes.
    again = client.post(url, {"action": "publish", admin.helpers.ACTION_CHECKBOX_NAME: [draft.pk]}, follow=True)
    assert "already published" in again.content.decode()


def test_a_draft_takes_no_entries(draft):
    """Federations are invited once the championship is published; before that an entry is refused."""
    nation = FederationFactory()
    with pytest.raises(ValidationError) as refused:
        services.entry_create(championship=draft, federation=nation, by=federation_staff(nation), now=BEFORE_CLOSING)
    assert "not published" in refused.value.message_dict["championship"][0]
    services.championship_publish(championship=draft, by=international_staff())
    draft.refresh_from_db()
    entry = services.entry_create(
        championship=draft, federation=nation, by=federation_staff(nation), now=BEFORE_CLOSING
    )
    assert entry.championship_id == draft.pk


def test_the_api_does_not_let_an_unrelated_federation_enter_a_draft(draft):
    nation = FederationFactory()
    response = client_for(federation_staff(nation)).post(
        "/api/entries/", {"championship": draft.pk, "federation": nation.pk}, format="json"
    )
    assert response.status_code == 400 and "championship" in response.json()
    assert not draft.entries.filter(federation=nation).exists()


@pytest.mark.sqlite  # a data migration: run on both databases (Makefile, SQLITE_TESTS)
@pytest.mark.django_db(transaction=True)
def test_the_migration_publishes_the_championships_stored_before_the_flag(migrations_applied):
    """Nothing that was public disappears: championships stored before 0006 come out published."""
    from django.db.migrations.executor import MigrationExecutor

    before = [("tournaments", "0005_result_amendment")]
    after = [("tournaments", "0006_championship_published")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    federation = apps.get_model("federation", "Federation").objects.create(name="FIRS", level="international")
    venue = apps.get_model("tournaments", "Venue").objects.create(
        name="Arena", city="Roccaraso", country="IT", time_zone="Europe/Rome"
    )
    apps.get_model("tournaments", "Championship").objects.create(
        name="Stored before",
        category="senior_men",
        level="world",
        start_date=datetime.date(2027, 7, 1),
        end_date=datetime.date(2027, 7, 10),
        venue=venue,
        entry_closing_date=datetime.date(2027, 5, 1),
        entry_fee=500,
        entry_fee_currency="USD",
        sanctioning_body=federation,
    )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Championship.objects.get(name="Stored before").published is True
    assert Championship._meta.get_field("published").default is False


def test_my_teams_lists_no_entry_of_a_draft_its_federation_may_not_see(draft):
    entry = draft.entries.first()
    staff = federation_staff(entry.federation)
    assert not selectors.entries_managed_by(staff).filter(pk=entry.pk).exists()
    services.championship_publish(championship=draft, by=international_staff())
    assert selectors.entries_managed_by(staff).filter(pk=entry.pk).exists()
