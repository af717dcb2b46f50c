"""Search across people, teams, games and championships (issue 12): what each person may open, and no more."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from hub.search import LIMIT, site_search
from tests.factories import (
    ChampionshipFactory,
    FederationFactory,
    GameFactory,
    PersonFactory,
    TeamEntryFactory,
    federation_staff,
    international_staff,
)

pytestmark = pytest.mark.django_db


def test_national_staff_find_their_federations_people_not_anothers():
    mine, other = FederationFactory(), FederationFactory()
    rossi = PersonFactory(federation=mine, first_name="Marco", last_name="Rossi")
    PersonFactory(federation=other, first_name="Mario", last_name="Rossi")
    found = site_search(federation_staff(mine), "rossi")
    assert found.people.rows == [rossi]
    assert len(site_search(international_staff(), "rossi").people.rows) == 2


def test_every_word_must_match_and_a_number_finds_the_game():
    championship = ChampionshipFactory(name="World Championship Vicenza")
    italy = TeamEntryFactory(championship=championship, name="Italy")
    spain = TeamEntryFactory(championship=championship, name="Spain")
    game = GameFactory(championship=championship, home=italy, away=spain, number=17)
    GameFactory(championship=championship, home=spain, number=18)
    staff = international_staff()
    assert site_search(staff, "italy spain").games.rows == [game]
    assert site_search(staff, "#17").games.rows == [game]
    assert site_search(staff, "italy").teams.rows == [italy]
    assert site_search(staff, "vicenza").championships.rows == [championship]
    assert site_search(staff, "italy vicenza").teams.rows == []  # a team's name or federation, not its championship


def test_a_draft_championships_teams_and_games_are_found_by_its_directors_only():
    sanctioning = FederationFactory()
    draft = ChampionshipFactory(name="Draft Cup", published=False, sanctioning_body=sanctioning)
    entry = TeamEntryFactory(championship=draft, name="Draftland")
    GameFactory(championship=draft, home=entry)
    stranger = federation_staff(FederationFactory())
    found = site_search(stranger, "draft")
    assert (found.teams.rows, found.games.rows, found.championships.rows) == ([], [], [])
    director = federation_staff(sanctioning)
    found = site_search(director, "draft")
    assert found.teams.rows == [entry] and len(found.games.rows) == 1 and found.championships.rows == [draft]


def test_a_login_that_sees_nobody_gets_no_people_list_and_anonymous_is_sent_to_log_in(client):
    from tests.factories import UserFactory

    assert site_search(UserFactory(), "rossi").people is None  # no role: the people list is not theirs
    answer = client.get(reverse("search"), {"q": "rossi"})
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]


def test_the_page_lists_what_was_found_and_says_when_there_is_more(client):
    federation = FederationFactory()
    for n in range(LIMIT + 1):
        PersonFactory(federation=federation, last_name=f"Bianchi{n:02d}")
    staff = federation_staff(federation)
    client.force_login(staff)
    page = client.get(reverse("search"), {"q": "bianchi"}).content.decode()
    assert page.lower().count("bianchi") >= LIMIT and f"More than {LIMIT} people" in page
    assert "Nothing you may open matches" in client.get(reverse("search"), {"q": "zzzz"}).content.decode()
    assert client.get(reverse("search")).status_code == 200  # the empty box


def test_a_search_runs_the_same_number_of_queries_whatever_the_data(client):
    staff = international_staff()
    client.force_login(staff)

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("search"), {"q": "team 1"}).status_code == 200
        return len(queries)

    championship = ChampionshipFactory(name="Team 1 Cup")
    GameFactory(championship=championship, home=TeamEntryFactory(championship=championship, name="Team 1"))
    few = count()
    federation = FederationFactory()
    for n in range(8):
        entry = TeamEntryFactory(championship=championship, name=f"Team 1 B{n}")
        GameFactory(championship=championship, home=entry)
        PersonFactory(federation=federation, first_name="Team", last_name="1")
    assert count() == few
