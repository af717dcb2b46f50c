"""The scorer's console page (issue 9): who opens it, what it carries for offline use, the server's clock."""

from __future__ import annotations

import datetime
import json

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Role
from games import services
from games.engine.penalty_index import INFRACTIONS
from games.models import OfficialAccount
from portal.i18n import catalogue_url
from tests.factories import PersonFactory, UserFactory, federation_staff, with_role
from tests.games.sheet_helpers import DEVICE_TIME, sheet_game

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def game(db):
    return sheet_game()


def official_login(game, director, duty: str):
    person = PersonFactory(is_official=True, is_referee=True)
    services.official_assign(
        game=game, person=person, duty=duty, by=director, now=DEVICE_TIME - datetime.timedelta(days=30)
    )
    login = with_role(Role.GAME_OFFICIAL)
    OfficialAccount.objects.create(person=person, user=login)
    return login


def console_url(game) -> str:
    return reverse("games:console", args=[game.pk])


def page_data(response) -> dict:
    html = response.content.decode()
    start = html.index('<script id="console-data" type="application/json">') + len(
        '<script id="console-data" type="application/json">'
    )
    return json.loads(html[start : html.index("</script>", start)])


@pytest.mark.parametrize(
    ("duty", "opens"),
    [("timekeeper", True), ("penalty_timekeeper", True), ("scorer", True), ("referee", False), ("goal_judge", False)],
)
def test_the_games_table_officials_open_its_console_and_no_other_official(game, director, duty, opens):
    """4.3-4.5: the timekeeper, the penalty timekeeper and the scorer keep the sheet on the console."""
    login = official_login(game, director, duty)
    response = logged_in(login).get(console_url(game))
    assert response.status_code == (200 if opens else 403)
    other = sheet_game(championship=game.championship)
    assert logged_in(login).get(console_url(other)).status_code == 403
    if opens:
        assert page_data(response)["user"]["duties"] == [duty]


def test_the_championships_directors_open_the_console_others_do_not(game, director):
    assert logged_in(director).get(console_url(game)).status_code == 200
    other_staff = federation_staff()
    assert logged_in(other_staff).get(console_url(game)).status_code == 403
    assert logged_in(UserFactory()).get(console_url(game)).status_code == 403
    anonymous = Client().get(console_url(game))
    assert anonymous.status_code == 302
    assert reverse("login") in anonymous["Location"]


def test_the_console_carries_the_penalty_index_the_teams_and_the_engines_event_types(game, director):
    from games.engine.events import EVENT_TYPES

    response = logged_in(director).get(console_url(game))
    data = page_data(response)
    assert [line["code"] for line in data["index"]] == list(INFRACTIONS)
    slashing = next(line for line in data["index"] if line["code"] == "slashing")
    assert slashing == {
        "code": "slashing",
        "name": "Slashing",
        "article": "6.4.30 A",
        "penalties": ["2'"],
        "kinds": ["minor"],
        "stick": True,
        "signal": INFRACTIONS["slashing"].signal,
    }
    # 6.1.3 B: the index's "5'+GM" is entered as the major; the engine adds the game misconduct.
    assert next(line for line in data["index"] if line["code"] == "slashing_major")["kinds"] == ["major"]
    assert data["teams"]["home"]["players"] == list(range(2, 12))
    assert data["teams"]["away"]["goalkeepers"] == [31, 35]
    # The buttons are rendered from the engine's event types: a new engine event (9.1 A protest) shows up.
    assert data["event_types"] == list(EVENT_TYPES)
    assert data["rules"]["calls_for_misconduct"] == 3
    assert data["urls"]["events"] == f"/api/v1/games/{game.pk}/sheet/events/"
    # Its files, and the scripts' strings in the reader's language (issue 26): kept offline with the page.
    assert [asset for asset in data["assets"] if not asset.startswith("/static/")] == [catalogue_url("en")]
    html = response.content.decode()
    assert "games/console.js" in html
    assert "https://" not in html and "http://" not in html  # no CDN: the console works without the internet


def test_the_console_links_the_end_of_game_signing_and_the_log(game, director):
    """4.2 O, 4.3 A: the sheet is signed on the device after the game; the log shows who entered what."""
    page = logged_in(director).get(console_url(game)).content.decode()
    assert reverse("games:sheet-sign", args=[game.pk]) in page
    assert reverse("games:sheet-log", args=[game.pk]) in page


def test_the_console_of_a_game_without_its_teams_is_not_found(director):
    game = sheet_game()
    game.away = None
    game.save()
    assert logged_in(director).get(console_url(game)).status_code == 404


def test_the_console_page_runs_a_constant_number_of_queries(director, django_assert_max_num_queries):
    game = sheet_game()
    client = logged_in(director)
    with django_assert_max_num_queries(20):
        assert client.get(console_url(game)).status_code == 200


def test_the_service_worker_is_served_from_games_for_its_scope(client):
    response = client.get(reverse("games:console-worker"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert reverse("games:console-worker").startswith("/games/")
    body = response.content.decode()
    assert 'const STATIC_PREFIX = "/static/"' in body
    # The scripts' strings are kept offline too, one copy per language (issue 26).
    assert 'const CATALOGUE_PREFIX = "/jsi18n/"' in body
    assert "/api/" not in body.replace("touches the API", "")  # entries never go through a cache


def test_the_server_clock_answers_its_time_uncached(client):
    before = timezone.now()
    response = client.get("/api/clock/")
    after = timezone.now()
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    server_time = datetime.datetime.fromisoformat(response.json()["server_time"])
    assert before <= server_time <= after


def test_my_games_links_the_console_for_the_duties_that_keep_the_sheet(game, director):
    scorer = official_login(game, director, "scorer")
    page = logged_in(scorer).get(reverse("games:my-games")).content.decode()
    assert console_url(game) in page
    referee = official_login(game, director, "referee")
    page = logged_in(referee).get(reverse("games:my-games")).content.decode()
    assert console_url(game) not in page
