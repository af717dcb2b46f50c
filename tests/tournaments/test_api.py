"""Championship API reads: public access, content, filters, constant query counts (4 vs 32 teams)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import ChampionshipFactory, SuperuserFactory, UserFactory
from tournaments import services
from tournaments.models import GameStatus, RosterEntry
from tournaments.selectors import championship_statistics, standings_for_pool

from .conftest import make_pool, round_robin_games
from .test_views import build_championship, finish

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


def test_championships_are_public_and_publish_their_rinks_against_the_level(api):
    """2.1 F: the dimensions are published; each rink says what keeps it from the championship's level."""
    championship, _ = build_championship(4, with_summaries=False)
    response = api.get("/api/v1/championships/")
    assert response.status_code == 200
    row = next(c for c in response.json()["results"] if c["id"] == championship.pk)
    assert row["venue"]["time_zone"] == "Europe/Rome"
    (rink,) = row["rinks"]
    assert (rink["length_m"], rink["width_m"], rink["violations"]) == ("50.00", "25.00", [])
    assert row["entry_fee"] == "500.00" and row["entry_fee_currency"] == "USD"


def test_the_championship_list_filters_by_level_and_refuses_a_bad_value(api):
    ChampionshipFactory(level="national")
    world = ChampionshipFactory()
    ids = [c["id"] for c in api.get("/api/v1/championships/", {"level": "world"}).json()["results"]]
    assert world.pk in ids and len(ids) == 1
    response = api.get("/api/v1/championships/", {"level": "galactic"})
    assert response.status_code == 400
    assert "level" in response.json()


def test_games_list_the_schedule_with_venue_times_home_team_first(api):
    """5.4 D: the home team is the first named; the start is given in UTC and at the venue."""
    championship = ChampionshipFactory()
    pool = make_pool(championship, 2)
    (home, away), games = round_robin_games(pool)
    response = api.get("/api/v1/games/", {"championship": championship.pk})
    (game,) = response.json()["results"]
    assert (game["home_name"], game["away_name"]) == (home.name, away.name)
    start = datetime.datetime.fromisoformat(game["local_start"])
    assert start.utcoffset() == datetime.timedelta(hours=2)
    assert game["status"] == GameStatus.SCHEDULED


def test_a_start_in_a_zones_local_mean_time_is_still_an_rfc_3339_date_time(api):
    """Rome kept local mean time (+00:49:56) before 1866: no RFC 3339 offset, so the instant is given in UTC."""
    from tournaments.models import Game

    championship = ChampionshipFactory()
    round_robin_games(make_pool(championship, 2))
    game = Game.objects.get(championship=championship)
    Game.objects.filter(pk=game.pk).update(start_at=datetime.datetime(1600, 9, 26, 8, 19, 49, tzinfo=datetime.UTC))
    (row,) = api.get("/api/v1/games/", {"championship": championship.pk}).json()["results"]
    assert row["local_start"] == "1600-09-26T08:19:49+00:00"


def test_games_filter_by_team_and_status(api):
    championship = ChampionshipFactory()
    pool = make_pool(championship, 3)
    (a, b, c), games = round_robin_games(pool)
    finish(games[(a.name, b.name)], 2, 1)
    rows = api.get("/api/v1/games/", {"team": c.pk}).json()["results"]
    assert len(rows) == 2
    rows = api.get("/api/v1/games/", {"championship": championship.pk, "status": "final"}).json()["results"]
    assert [r["home_goals"] for r in rows] == [2]
    assert api.get("/api/v1/games/", {"starts_after": "yesterday"}).status_code == 400


def test_pool_standings_explain_the_tie_breaks(api):
    championship = ChampionshipFactory()
    pool = make_pool(championship, 3)
    (a, b, c), games = round_robin_games(pool)
    finish(games[(a.name, b.name)], 1, 0)
    finish(games[(b.name, c.name)], 3, 0)
    finish(games[(a.name, c.name)], 0, 5)
    expected = standings_for_pool(pool)
    data = api.get(f"/api/pools/{pool.pk}/standings/").json()
    assert [row["team"] for row in data["rows"]] == list(expected.order)
    assert [row["decided_by"] for row in data["rows"]] == [row.decided_by for row in expected.rows]
    assert data["explanations"] == list(expected.explanations)
    assert data["rows"][0]["entry"] in (a.pk, b.pk, c.pk)
    assert data["complete"] is True


def test_pool_standings_say_a_shootout_is_needed(api):
    championship = ChampionshipFactory()
    pool = make_pool(championship, 2)
    (a, b), games = round_robin_games(pool)
    finish(next(iter(games.values())), 2, 2)
    data = api.get(f"/api/pools/{pool.pk}/standings/").json()
    assert data["unresolved"] == [[a.name, b.name]]
    assert all(row["needs_shootout"] for row in data["rows"])
    assert data["complete"] is False


# Query counts: constant whatever the size of the championship.
# championship; pools, their teams, their final games, entered shoot-outs
STANDINGS_QUERIES = 5
# championship; entries, games, roster, line-ups, goals, penalties, goalkeeper lines, people
STATISTICS_QUERIES = 9
# the championship's data version (the answer's cache key: portal.page_cache, read on a miss), the championship
# filter's lookup; count, games with their championship, venue, phase, teams and rink
GAMES_QUERIES = 4
# the championship filter's lookup; count, pools, their teams
POOLS_QUERIES = 4
# the championship filter's lookup; count, entries with federation and pool
ENTRIES_QUERIES = 3


@pytest.mark.parametrize("teams", [4, 32])
def test_the_standings_endpoint_runs_a_constant_number_of_queries(api, django_assert_num_queries, teams):
    championship, _ = build_championship(teams, with_summaries=False)
    with django_assert_num_queries(STANDINGS_QUERIES):
        response = api.get(f"/api/championships/{championship.pk}/standings/")
    assert len(response.json()) == teams // 4


@pytest.mark.parametrize("teams", [4, 32])
def test_the_statistics_endpoint_runs_a_constant_number_of_queries(api, django_assert_num_queries, teams):
    championship, _ = build_championship(teams)
    with django_assert_num_queries(STATISTICS_QUERIES):
        response = api.get(f"/api/championships/{championship.pk}/statistics/")
    data = response.json()
    assert len(data["teams"]) == teams


@pytest.mark.parametrize("teams", [4, 32])
def test_list_endpoints_run_a_constant_number_of_queries(api, django_assert_num_queries, teams):
    championship, _ = build_championship(teams, with_summaries=False)
    with django_assert_num_queries(GAMES_QUERIES):
        games = api.get("/api/v1/games/", {"championship": championship.pk}).json()
    assert games["count"] == teams // 4 * 6
    with django_assert_num_queries(POOLS_QUERIES):
        pools = api.get("/api/v1/pools/", {"championship": championship.pk}).json()
    assert sum(len(p["teams"]) for p in pools["results"]) == teams
    with django_assert_num_queries(ENTRIES_QUERIES):
        entries = api.get("/api/v1/entries/", {"championship": championship.pk}).json()
    assert entries["count"] == teams


def test_statistics_match_the_selector(api):
    championship, _ = build_championship(4)
    data = api.get(f"/api/championships/{championship.pk}/statistics/").json()
    stats = championship_statistics(championship)
    top = max(stats.players, key=lambda p: (p.points, p.goals))
    assert data["players"][0]["points"] == top.points
    assert data["players"][0]["name"]
    keeper = data["goalkeepers"][0]
    assert keeper["save_percentage"] == max(g.save_percentage for g in stats.goalkeepers)
    assert {t["team"] for t in data["teams"]} == {t.team for t in stats.teams}
    assert all(t["power_play_percentage"] is not None for t in data["teams"] if t["power_plays"])


def test_the_api_and_the_leaders_page_list_players_and_goalkeepers_in_the_cores_order(api, client):
    """One order for the official tables (4.3, 4.6 note): the statistics core's, on the API and the page."""
    championship, _ = build_championship(4)
    data = api.get(f"/api/championships/{championship.pk}/statistics/").json()
    stats = championship_statistics(championship)
    assert [p["person"] for p in data["players"]] == [p.person for p in stats.players]
    assert [g["goalkeeper"] for g in data["goalkeepers"]] == [g.goalkeeper for g in stats.goalkeepers]
    page = client.get(reverse("tournaments:leaders", args=[championship.pk]))
    assert [g for g, _ in page.context["goalkeepers"]] == list(stats.goalkeepers)
    assert [p for p, _ in page.context["points"]] == [p for p in stats.players if p.points][:20]


def test_the_bracket_endpoint_fills_in_from_the_standings(api):
    championship, (pool_a, pool_b) = build_championship(8, with_summaries=False)
    assert api.get(f"/api/championships/{championship.pk}/bracket/").status_code == 404
    services.bracket_generate(championship=championship, qualifiers=2, by=SuperuserFactory())
    data = api.get(f"/api/championships/{championship.pk}/bracket/").json()
    semi = next(g for g in data["games"] if g["code"] == "SF1")
    assert semi["home"] == pool_a.members.get(seed=1).entry.name
    assert data["complete"] is False


def test_rosters_are_public_but_eligibility_is_for_the_teams_managers(api):
    championship, _ = build_championship(4, with_summaries=False)
    line = RosterEntry.objects.filter(entry__championship=championship).select_related("entry").first()
    rows = api.get("/api/v1/roster-entries/", {"entry": line.entry_id}).json()["results"]
    assert {r["number"] for r in rows} >= {line.number}
    assert "eligibility" not in rows[0]
    assert api.get(f"/api/entries/{line.entry_id}/roster/").status_code in (401, 403)
    api.force_authenticate(UserFactory())
    assert api.get(f"/api/entries/{line.entry_id}/roster/").status_code == 403


def test_goals_and_penalties_are_listed_per_game(api):
    championship, _ = build_championship(4)
    game = championship.games.order_by("number").first()
    goals = api.get("/api/v1/goals/", {"game": game.pk}).json()["results"]
    assert len(goals) == 4
    assert sum(1 for g in goals if g["assist"]) == 2
    penalties = api.get("/api/v1/penalties/", {"championship": championship.pk}).json()
    assert penalties["count"] == 6


def test_venues_list_their_rinks(api):
    championship, _ = build_championship(4, with_summaries=False)
    data = api.get(f"/api/venues/{championship.venue_id}/").json()
    assert data["rinks"][0]["name"] == "Main rink"


TOURNAMENT_PATHS = {
    "/api/v1/championships/": {"get", "post"},
    "/api/v1/championships/{id}/": {"get", "patch"},
    "/api/v1/championships/{id}/standings/": {"get"},
    "/api/v1/championships/{id}/statistics/": {"get"},
    "/api/v1/championships/{id}/bracket/": {"get"},
    "/api/v1/championships/{id}/generate-schedule/": {"post"},
    "/api/v1/championships/{id}/generate-bracket/": {"post"},
    "/api/v1/venues/": {"get"},
    "/api/v1/entries/": {"get", "post"},
    "/api/v1/entries/{id}/fee-paid/": {"post"},
    "/api/v1/entries/{id}/managers/": {"get", "post"},
    "/api/v1/entries/{id}/roster/": {"get"},
    "/api/v1/entries/{id}/confirm-roster/": {"post"},
    "/api/v1/entries/{id}/roster-import/": {"post"},
    "/api/v1/roster-entries/": {"get", "post"},
    "/api/v1/roster-entries/{id}/": {"get", "patch", "delete"},
    "/api/v1/roster-entries/{id}/number-change-approvals/": {"post"},
    "/api/v1/pools/{id}/standings/": {"get"},
    "/api/v1/pools/{id}/shootout/": {"post"},
    "/api/v1/games/": {"get"},
    "/api/v1/games/{id}/result/": {"post"},
    "/api/v1/games/{id}/move/": {"post"},
    "/api/v1/games/{id}/goalkeeper-line/": {"post"},
    "/api/v1/goals/": {"get", "post"},
    "/api/v1/penalties/": {"get", "post"},
}


def test_the_schema_documents_every_championship_endpoint():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    for path, methods in TOURNAMENT_PATHS.items():
        assert path in schema["paths"], path
        assert methods <= set(schema["paths"][path]), (path, set(schema["paths"][path]))
    operation = schema["paths"]["/api/v1/entries/{id}/roster-import/"]["post"]
    upload = operation["requestBody"]["content"]
    assert "multipart/form-data" in upload
    # The accepted types of the upload, its limits and its errors' row numbers are documented.
    assert upload["multipart/form-data"]["encoding"]["file"]["contentType"] == (
        "text/csv, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    assert upload["multipart/form-data"]["schema"]["$ref"].endswith("/RosterImportRequest")
    assert schema["components"]["schemas"]["RosterImportRequest"]["properties"]["file"]["format"] == "binary"
    assert all(words in operation["description"] for words in ("CSV", "XLSX", "512 KB", "R-04", "Row n"))
    names = {p["name"] for p in schema["paths"]["/api/v1/games/"]["get"]["parameters"]}
    assert {"championship", "pool", "team", "status", "page"} <= names


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/api/v1/games/", {"team": 10**30}),
        ("/api/v1/games/", {"championship": 10**30}),
        ("/api/v1/roster-entries/", {"championship": 10**30}),
        ("/api/v1/goals/", {"championship": "x"}),
        ("/api/v1/championships/", {"year": 10**12}),
        ("/api/v1/games/", {"status": "postponed"}),
    ],
)
def test_a_filter_value_that_cannot_be_an_id_or_choice_is_a_400_naming_it(api, path, params):
    response = api.get(path, params)
    assert response.status_code == 400
    assert set(params) <= set(response.json())
