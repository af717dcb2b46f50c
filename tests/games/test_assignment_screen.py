"""The directors' assignment screen (4.1-4.6) and the "My games" link of the site's navigation."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import Role
from games import services
from games.models import GameOfficial, OfficialAccount
from tests.factories import FederationFactory, GameFactory, PersonFactory, federation_staff, with_role

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def url(game):
    return reverse("games:assignments", args=[game.championship_id])


def test_the_director_sees_the_games_with_their_crews_linked_from_the_championship(game, director, referee):
    services.official_assign(game=game, person=referee, duty="referee", by=director)
    client = logged_in(director)
    overview = client.get(reverse("tournaments:championship-detail", args=[game.championship_id])).content.decode()
    assert url(game) in overview
    page = client.get(url(game)).content.decode()
    assert f"Game #{game.number}: {game.home.name}" in page
    assert f"Referee (4.2) 1 (lead): {referee}" in page


def test_the_director_assigns_and_withdraws_through_the_services(game, director, referee):
    client = logged_in(director)
    response = client.post(url(game), {"action": "assign", "game": game.pk, "person": referee.pk, "duty": "referee"})
    assert response.status_code == 302
    assignment = GameOfficial.objects.get(game=game)
    assert (assignment.person, assignment.is_lead, assignment.assigned_by) == (referee, True, director)
    response = client.post(url(game), {"action": "withdraw", "game": game.pk, "assignment": assignment.pk})
    assert response.status_code == 302
    assert not GameOfficial.objects.exists()


def test_a_refused_assignment_names_the_field_and_the_rule_and_stores_nothing(game, director):
    partisan = PersonFactory(federation=game.home.federation, is_referee=True)
    body = {"action": "assign", "game": game.pk, "person": partisan.pk, "duty": "referee"}
    response = logged_in(director).post(url(game), body)
    assert response.status_code == 400
    assert "person: Rule 4.2 I / R-08" in response.content.decode()
    assert not GameOfficial.objects.exists()


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"game": "x"}, "game: Choose one"),
        ({"game": "999999"}, "game: No game 999999"),
        ({"position": "first"}, "position: Choose one"),
        ({"position": "3"}, "position: Rule 4.1"),
        ({"duty": "coach"}, "duty: Rule 4.1"),
        ({"person": ""}, "person: Choose one"),
    ],
)
def test_bad_input_is_a_form_error_naming_the_field(game, director, referee, change, says):
    body = {"action": "assign", "game": game.pk, "person": referee.pk, "duty": "referee", **change}
    response = logged_in(director).post(url(game), body)
    assert response.status_code == 400
    assert says in response.content.decode()
    assert not GameOfficial.objects.exists()


def test_only_the_championships_directors_open_it(game):
    assert logged_in(federation_staff(game.home.federation)).get(url(game)).status_code == 403
    assert logged_in(with_role(Role.GAME_OFFICIAL)).get(url(game)).status_code == 403
    assert Client().get(url(game)).status_code == 302


def test_the_screen_runs_a_constant_number_of_queries_as_games_grow(game, director):
    client = logged_in(director)
    neutral = FederationFactory()

    def add_games(count, offset):
        for n in range(count):
            other = GameFactory(
                championship=game.championship,
                home=game.home,
                away=game.away,
                start_at=game.start_at + datetime.timedelta(hours=2 * (n + offset)),
            )
            for duty in ("referee", "referee", "scorer"):
                person = PersonFactory(federation=neutral, is_referee=True, is_official=True)
                services.official_assign(game=other, person=person, duty=duty, by=director)

    add_games(2, 1)
    with CaptureQueriesContext(connection) as few:
        assert client.get(url(game)).status_code == 200
    add_games(8, 3)
    with CaptureQueriesContext(connection) as many:
        assert client.get(url(game)).status_code == 200
    assert len(many) == len(few)


def test_the_navigation_links_my_games_for_a_registered_official_only(referee):
    official = with_role(Role.GAME_OFFICIAL)
    OfficialAccount.objects.create(person=referee, user=official)
    my_games = reverse("games:my-games")
    home = reverse("tournaments:championship-list")
    assert f'href="{my_games}"' in logged_in(official).get(home).content.decode()
    assert f'href="{my_games}"' not in logged_in(with_role(Role.GAME_OFFICIAL)).get(home).content.decode()
    assert f'href="{my_games}"' not in Client().get(home).content.decode()
