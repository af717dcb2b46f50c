"""The public scoreboard's pages: a game's board, the arena display, a championship's live games."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.sheet import record_events
from tests.factories import ChampionshipFactory, international_staff

from .sheet_helpers import entry, sheet_game, sign_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return international_staff()


def _snapshot(response) -> dict:
    html = response.content.decode()
    start = html.index('<script id="board-snapshot" type="application/json">') + len(
        '<script id="board-snapshot" type="application/json">'
    )
    return json.loads(html[start : html.index("</script>", start)])


def test_the_board_of_a_game_shows_the_stored_state_to_anyone(director):
    game = sheet_game()
    sign_in(game, director, device="t")
    record_events(game=game, by=director, device="t", events=[entry("period_start", period=1),
                  entry("goal", period=1, time="2:00", team="home", player=8)])  # fmt: skip
    response = Client().get(f"/games/{game.pk}/live/")
    assert response.status_code == 200
    page = response.content.decode()
    assert game.home.name in page and game.away.name in page
    assert "scoreboard.js" in page and 'class="scoreboard"' in page
    snapshot = _snapshot(response)
    assert snapshot["sequence"] == 2 and snapshot["sheet"]["state"]["score"] == {"home": 1, "away": 0}
    settings = json.loads(page.split('<script id="board-settings" type="application/json">')[1].split("</script>")[0])
    # The board's words for the outcomes (R-58, R-69, R-70) and the penalty kinds are games.live_views.board_words' own
    # (tested beside it).
    words = {key: settings.pop(key) for key in ("outcomes", "kinds", "period_ends", "team_names")}
    assert settings == {"transport": "channels", "socket": f"/live/games/{game.pk}/",
                        "stream": f"/live/games/{game.pk}/stream/", "heartbeat_seconds": 5, "stale_seconds": 10,
                        "sheet_url": f"/api/v1/games/{game.pk}/sheet/"}  # fmt: skip
    assert words["period_ends"]["periods"] == 2 and words["outcomes"]
    assert words["kinds"]["double_minor"] == "Double minor"
    # Issue 26: each stored team name with the one the reader reads (here the same: not a country's name).
    assert words["team_names"] == {game.home.name: game.home.name, game.away.name: game.away.name}


def test_the_arena_display_is_the_board_in_arena_mode_with_a_full_screen_button():
    game = sheet_game()
    for url in (f"/games/{game.pk}/arena/", f"/games/{game.pk}/live/?arena=1"):
        page = Client().get(url).content.decode()
        assert 'class="scoreboard arena"' in page and "data-fullscreen" in page


def test_a_draft_championships_board_is_a_404_for_the_public_and_shown_to_its_directors(director):
    game = sheet_game(championship=ChampionshipFactory(published=False))
    assert Client().get(f"/games/{game.pk}/live/").status_code == 404
    assert Client().get(f"/games/championships/{game.championship_id}/live/").status_code == 404
    staff = Client()
    staff.force_login(director)
    assert staff.get(f"/games/{game.pk}/live/").status_code == 200


def test_a_bracket_game_without_its_teams_says_why_the_board_is_empty():
    game = sheet_game()
    game.home = None
    game.home_source = "Winner of game 1"
    game.save()
    response = Client().get(f"/games/{game.pk}/live/")
    assert response.status_code == 200
    assert "R-10" in response.content.decode()


def test_the_championships_live_games_are_the_open_sheets_in_constant_queries(director, django_assert_max_num_queries):
    first = sheet_game()
    sign_in(first, director, device="t")
    record_events(game=first, by=director, device="t", events=[entry("period_start", period=1)])
    url = f"/games/championships/{first.championship_id}/live/"
    with django_assert_max_num_queries(8):
        one = Client().get(url)
    for _ in range(3):
        game = sheet_game(championship=first.championship)
        sign_in(game, director, device="t")
        record_events(game=game, by=director, device="t", events=[entry("period_start", period=1)])
    sheet_game(championship=first.championship)  # no sheet yet: not live
    with django_assert_max_num_queries(8):
        four = Client().get(url)
    assert len(_snapshot(one)["games"]) == 1
    assert len(_snapshot(four)["games"]) == 4
    assert 'aria-current="page">Live' in four.content.decode()


def test_results_and_standings_pages_listen_for_games_ending():
    championship = ChampionshipFactory()
    for name in ("results", "standings"):
        page = Client().get(f"/tournaments/{championship.pk}/{name}/").content.decode()
        assert f'data-socket="/live/championships/{championship.pk}/"' in page and "scoreboard.js" in page
