"""The games API: 400s naming the field and the rule (nothing stored), who may, constant queries of the lists."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import Role
from games import services
from games.models import GameOfficial, Lineup, OfficialAccount, OfficialDuty
from tests.factories import GameFactory, PersonFactory, client_for, with_role

from .conftest import BEFORE, goalkeepers_of, roster, skaters_of

pytestmark = pytest.mark.django_db

OFFICIALS = reverse("games-api:game-official-list")
LINEUPS = reverse("games-api:lineup-list")


@pytest.fixture(autouse=True)
def before_the_game(monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: BEFORE)


def lineup_body(game, entry, lines, **extra):
    return {
        "game": game.pk,
        "entry": entry.pk,
        "players": [{"person": line.person_id, "captain": i == 0} for i, line in enumerate(lines)],
        **extra,
    }


def test_a_director_assigns_the_lead_referee(game, director, referee):
    response = client_for(director).post(
        OFFICIALS, {"game": game.pk, "person": referee.pk, "duty": "referee"}, format="json"
    )
    assert response.status_code == 201, response.content
    assert (response.json()["position"], response.json()["is_lead"]) == (1, True)


def test_a_referee_of_a_teams_federation_is_a_400_naming_person_and_r_08(game, director):
    referee = PersonFactory(federation=game.home.federation, is_referee=True)
    response = client_for(director).post(
        OFFICIALS, {"game": game.pk, "person": referee.pk, "duty": "referee"}, format="json"
    )
    assert response.status_code == 400
    assert "R-08" in response.json()["person"][0]
    assert not GameOfficial.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": None}, "game"),
        ({"game": 999999, "person": 1, "duty": "referee"}, "game"),
        ({"game": 2**40, "person": 1, "duty": "referee"}, "game"),
        ({"duty": "coach"}, "duty"),
        ({"position": 3}, "position"),
    ],
)
def test_bad_assignment_input_is_a_400_naming_the_field(game, director, referee, body, field):
    data = {"game": game.pk, "person": referee.pk, "duty": "referee", **body}
    response = client_for(director).post(OFFICIALS, data, format="json")
    assert response.status_code == 400
    assert field in response.json()


def test_a_team_manager_may_not_assign(game, manager, referee):
    response = client_for(manager).post(
        OFFICIALS, {"game": game.pk, "person": referee.pk, "duty": "referee"}, format="json"
    )
    assert response.status_code == 403


def test_an_official_reads_the_assignments_of_his_games_only(game, director, referee):
    services.official_assign(game=game, person=referee, duty=OfficialDuty.REFEREE, by=director)
    other = services.official_assign(
        game=GameFactory(championship=game.championship),
        person=PersonFactory(is_referee=True),
        duty="referee",
        by=director,
    )
    login = with_role(Role.GAME_OFFICIAL)
    OfficialAccount.objects.create(person=referee, user=login)
    rows = client_for(login).get(OFFICIALS).json()["results"]
    assert [row["person"] for row in rows] == [referee.pk]
    assert client_for(login).get(reverse("games-api:game-official-detail", args=[other.pk])).status_code == 404


def test_a_lineup_over_the_limit_is_a_400_naming_players_and_r_07(game, manager):
    lines = roster(game.home, skaters=15, goalkeepers=2)
    response = client_for(manager).post(LINEUPS, lineup_body(game, game.home, lines), format="json")
    assert response.status_code == 400
    assert any("5.1 A" in m and "R-07" in m for m in response.json()["players"])
    assert not Lineup.objects.exists()


def test_a_bench_over_five_is_a_400_naming_bench_officials(game, manager, home_roster):
    from .conftest import team_officials

    officials = team_officials(game.home, count=6)
    body = lineup_body(game, game.home, home_roster[:6], bench_officials=[o.person_id for o in officials])
    response = client_for(manager).post(LINEUPS, body, format="json")
    assert response.status_code == 400
    assert "5.4 F" in response.json()["bench_officials"][0]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"game": 999999}, "game"),
        ({"entry": "x"}, "entry"),
        ({"players": [{"person": -1}]}, "players"),
        ({"players": "all"}, "players"),
        ({"bench_officials": [0]}, "bench_officials"),
    ],
)
def test_bad_lineup_input_is_a_400_naming_the_field(game, manager, home_roster, change, field):
    body = {**lineup_body(game, game.home, home_roster[:6]), **change}
    response = client_for(manager).post(LINEUPS, body, format="json")
    assert response.status_code == 400
    assert field in response.json()


def test_the_manager_gives_his_lineup_and_the_opponent_does_not_see_it_before_the_start(game, manager, home_roster):
    response = client_for(manager).post(LINEUPS, lineup_body(game, game.home, home_roster[:8]), format="json")
    assert response.status_code == 201, response.content
    assert len(response.json()["players"]) == 8
    opponent = with_role(Role.TEAM_MANAGER, game.away.federation)
    game.away.managers.add(opponent)
    assert client_for(opponent).get(LINEUPS).json()["results"] == []
    assert client_for(None).get(LINEUPS).json()["results"] == []
    assert len(client_for(manager).get(LINEUPS).json()["results"]) == 1


def test_lineups_are_public_once_the_game_has_started(game, manager, home_roster, monkeypatch):
    services.lineup_submit(
        game=game,
        entry=game.home,
        players=[
            services.LineupChoice(person_id=line.person_id, captain=i == 0) for i, line in enumerate(home_roster[:6])
        ],
        by=manager,
    )
    monkeypatch.setattr(timezone, "now", lambda: game.start_at + datetime.timedelta(minutes=1))
    assert len(client_for(None).get(LINEUPS).json()["results"]) == 1


def test_the_goalkeeper_replacement_after_the_start_is_a_400_naming_replacement_5_1_c(
    game, manager, home_roster, monkeypatch
):
    lines = skaters_of(home_roster)[:6] + goalkeepers_of(home_roster)[:1]
    response = client_for(manager).post(LINEUPS, lineup_body(game, game.home, lines), format="json")
    lineup_id = response.json()["id"]
    monkeypatch.setattr(timezone, "now", lambda: game.start_at + datetime.timedelta(minutes=5))
    url = reverse("games-api:lineup-replace-goalkeeper", args=[lineup_id])
    outsider = goalkeepers_of(home_roster)[2]
    body = {"goalkeeper": lines[-1].person_id, "replacement": outsider.person_id}
    refused = client_for(manager).post(url, body, format="json")
    assert refused.status_code == 400
    assert "5.1 C" in refused.json()["replacement"][0]
    accepted = client_for(manager).post(url, {**body, "replacement": lines[1].person_id}, format="json")
    assert accepted.status_code == 200
    assert {p["person"]: p["position"] for p in accepted.json()["players"]}[lines[1].person_id] == "goalkeeper"
    late = client_for(manager).post(LINEUPS, lineup_body(game, game.home, lines[:5]), format="json")
    assert late.status_code == 400
    assert "5.1 C" in late.json()["players"][0]


def test_the_readiness_says_which_team_cannot_start_5_3_b(game, director, manager, home_roster):
    lines = skaters_of(home_roster)[:3] + goalkeepers_of(home_roster)[:1]
    client_for(manager).post(LINEUPS, lineup_body(game, game.home, lines), format="json")
    url = reverse("games-api:game-readiness-detail", args=[game.pk])
    answer = client_for(director).get(url).json()
    assert answer["can_start"] is False
    assert answer["problems"]["home"].startswith("Rule 5.3 B")
    assert client_for(manager).get(url).status_code == 403


# --- constant query counts of the lists ------------------------------------------------------------------------


def _count(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def _games_with_officials(championship, director, n):
    for _ in range(n):
        game = GameFactory(championship=championship)
        for duty in ("referee", "referee", "scorer"):
            services.official_assign(
                game=game, person=PersonFactory(is_referee=True, is_official=True), duty=duty, by=director
            )


def _games_with_lineups(championship, director, n):
    for _ in range(n):
        game = GameFactory(championship=championship)
        for entry in (game.home, game.away):
            lines = roster(entry, skaters=6, goalkeepers=2)
            services.lineup_submit(
                game=game,
                entry=entry,
                players=[
                    services.LineupChoice(person_id=line.person_id, captain=i == 0) for i, line in enumerate(lines)
                ],
                by=director,
            )


@pytest.mark.parametrize(("url", "make"), [(OFFICIALS, _games_with_officials), (LINEUPS, _games_with_lineups)])
def test_list_endpoint_query_count_does_not_grow_with_the_data(game, director, url, make):
    client = client_for(director)
    make(game.championship, director, 1)
    small = _count(client, url)
    make(game.championship, director, 4)
    assert _count(client, url) == small


def test_a_drafts_lineups_stay_with_its_directors_after_the_start(game, manager, home_roster, monkeypatch):
    """A draft championship (not published) shows nothing to the public, its started games' line-ups included."""
    services.lineup_submit(
        game=game,
        entry=game.home,
        players=[
            services.LineupChoice(person_id=line.person_id, captain=i == 0) for i, line in enumerate(home_roster[:6])
        ],
        by=manager,
    )
    type(game.championship).objects.filter(pk=game.championship_id).update(published=False)
    monkeypatch.setattr(timezone, "now", lambda: game.start_at + datetime.timedelta(minutes=1))
    assert client_for(None).get(LINEUPS).json()["results"] == []
    lineup = Lineup.objects.get(game=game)
    detail = reverse("games-api:lineup-detail", args=[lineup.pk])
    assert client_for(None).get(detail).status_code == 404
    assert client_for(with_role(Role.TEAM_MANAGER)).get(detail).status_code == 404
