"""The public pages and their API answers come from the cache, at the data's version (issue 27, portal.page_cache).

A result recorded through the service (tournaments.services.results) bumps the championship's data version in its
transaction, so the next read shows it; a second read at the same version is a hit (fewer queries); the cached
content is per language; logged-in staff get their page rendered afresh (their links are not cached for anyone).
"""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from portal import page_cache
from tests.factories import ChampionshipFactory, SuperuserFactory
from tests.tournaments.conftest import AFTER, goal_lines, make_pool, round_robin_games
from tournaments import services
from tournaments.models import Championship, DecidedIn

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(after_the_games):
    """A pool of two with its one game's goal lines entered (3-1), its result not recorded yet."""
    championship = ChampionshipFactory()
    pool = make_pool(championship, 2)
    (home, away), games = round_robin_games(pool)
    game = next(iter(games.values()))
    goal_lines(game, 3, 1)
    return championship, game


def _record(game) -> None:
    services.game_record_result(
        game=game, home_goals=3, away_goals=1, decided_in=DecidedIn.REGULATION, by=SuperuserFactory(), now=AFTER
    )


def _main(page: str) -> str:
    return re.split(r"<main\b[^>]*>", page, maxsplit=1)[1].split("</main>", 1)[0]


def _queries(client: Client, url: str) -> tuple[str, int]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return response.content.decode(), len(queries.captured_queries)


def test_a_result_recorded_through_the_service_is_on_the_next_read_of_every_page(played):
    championship, game = played
    client = Client()
    pages = {
        "results": reverse("tournaments:results", args=[championship.pk]),
        "schedule": reverse("tournaments:schedule", args=[championship.pk]),
        "team": reverse("tournaments:team", args=[game.home_id]),
    }
    for url in pages.values():
        assert "3–1" not in client.get(url).text  # cached at the version before the result
    version = Championship.objects.get(pk=championship.pk).data_version
    _record(game)
    assert Championship.objects.get(pk=championship.pk).data_version == version + 1
    for name, url in pages.items():
        assert "3–1" in client.get(url).text, name
    # The standings read at once: the winner has played one game and has two points.
    standings = client.get(reverse("tournaments:standings", args=[championship.pk])).text
    assert "<strong>2</strong>" in standings
    # The game's own page exists once it is final, and shows the score.
    assert "3–1" in client.get(reverse("reports:game-page", args=[game.pk])).text


def test_a_second_read_at_the_same_version_is_a_hit_with_fewer_queries(played, django_assert_max_num_queries):
    championship, game = played
    _record(game)
    client = Client()
    for url, hit_queries in (
        (reverse("tournaments:standings", args=[championship.pk]), 1),  # the championship, with its version
        (reverse("tournaments:leaders", args=[championship.pk]), 1),
        (reverse("tournaments:bracket", args=[championship.pk]), 1),
        (reverse("tournaments:championship-detail", args=[championship.pk]), 1),
        (reverse("reports:game-page", args=[game.pk]), 1),  # the game, with its sheet's sequence
        (reverse("games:game-live", args=[game.pk]), 1),
        (reverse("games:championship-live", args=[championship.pk]), 2),  # the championship, its sheets' sum
    ):
        first, miss = _queries(client, url)
        with django_assert_max_num_queries(hit_queries):
            second = client.get(url).content.decode()
        assert _main(second) == _main(first), url  # the frame is each request's own (its CSRF token)
        assert miss > hit_queries, url


def test_the_cached_content_is_per_language(played):
    championship, game = played
    _record(game)
    url = reverse("tournaments:standings", args=[championship.pk])
    english = Client().get(url).text
    french = Client(headers={"accept-language": "fr"}).get(url).text
    assert "Goals for" in english and "Buts pour" not in english
    assert "Buts pour" in french and "Goals for" not in french
    assert "Goals for" in Client().get(url).text  # the English content is still English after the French read


def test_staff_get_their_page_rendered_afresh_and_their_links_are_not_cached(played):
    championship, game = played
    url = reverse("tournaments:schedule", args=[championship.pk])
    entries = reverse("tournaments:entries", args=[championship.pk])
    anonymous, director = Client(), Client()
    director.force_login(SuperuserFactory())
    assert entries not in anonymous.get(url).text
    assert entries in director.get(url).text  # the director's tab, though the anonymous page is cached
    assert entries not in anonymous.get(url).text  # and the director's page is not served to anyone else


def test_the_public_api_answers_follow_the_result_at_once(played, django_assert_max_num_queries):
    championship, game = played
    client = Client()
    url = reverse("tournaments-api:championship-standings", args=[championship.pk])
    games_url = reverse("tournaments-api:game-list") + f"?championship={championship.pk}"
    before = client.get(url).json()
    assert before[0]["rows"][0]["played"] == 0
    assert client.get(games_url).json()["results"][0]["home_goals"] is None
    _record(game)
    after = client.get(url).json()
    assert after[0]["rows"][0]["played"] == 1
    assert client.get(games_url).json()["results"][0]["home_goals"] == 3
    with django_assert_max_num_queries(1):
        assert client.get(url).json() == after


def test_one_render_per_version_and_the_previous_version_while_another_renders():
    renders = []

    def produce(text):
        def render():
            renders.append(text)
            return text

        return render

    key = page_cache.page_key("test", 1)
    assert page_cache.cached(key, (1,), produce("v1")) == "v1"
    assert page_cache.cached(key, (1,), produce("again")) == "v1"  # a hit: not rendered again
    # Another request holds the lock of version 2 (it renders): the others get version 1 meanwhile.
    assert cache.add(f"{key}:lock:2", 1, page_cache.LOCK_SECONDS)
    assert page_cache.cached(key, (2,), produce("v2 by a waiting viewer")) == "v1"
    cache.delete(f"{key}:lock:2")
    assert page_cache.cached(key, (2,), produce("v2")) == "v2"
    assert renders == ["v1", "v2"]


def test_with_nothing_cached_a_viewer_waits_for_the_render_then_renders_itself(monkeypatch):
    monkeypatch.setattr(page_cache, "WAIT_SECONDS", 0.05)
    key = page_cache.page_key("test", 2)
    assert cache.add(f"{key}:lock:1", 1, page_cache.LOCK_SECONDS)  # a render that never finishes (a crash)
    assert page_cache.cached(key, (1,), lambda: "rendered") == "rendered"


def test_a_fragment_with_the_request_s_nonce_or_csrf_token_is_not_cached():
    request = RequestFactory().get("/")
    request._csp_nonce = "n0nce"
    assert page_cache._uncacheable(request, {"content": '<script nonce="n0nce"></script>'})
    assert page_cache._uncacheable(request, {"content": '<input name="csrfmiddlewaretoken" value="x">'})
    assert not page_cache._uncacheable(request, {"content": "<p>Standings</p>"})


class _FailingCache:
    """A cache whose Redis is down or hung (django-redis raises ConnectionInterrupted once its timeout expires)."""

    def __init__(self, fail_on: set[str]):
        self.fail_on = fail_on
        self.stored: dict = {}

    def _call(self, name: str, *args):
        if name in self.fail_on:
            from django_redis.exceptions import ConnectionInterrupted

            raise ConnectionInterrupted(connection=None) from TimeoutError("Timeout reading from socket")
        return getattr(cache, name)(*args)

    def get(self, *args):
        return self._call("get", *args)

    def add(self, *args):
        return self._call("add", *args)

    def set(self, *args):
        return self._call("set", *args)

    def delete(self, *args):
        return self._call("delete", *args)


@pytest.mark.parametrize("failing", [{"get", "add", "set", "delete"}, {"add"}, {"set", "delete"}])
def test_a_cache_that_fails_is_logged_and_the_page_rendered_once_without_it(monkeypatch, caplog, failing):
    """Redis refused or hung (its read timeout expired): the viewer gets the page, rendered once, never an error."""
    monkeypatch.setattr(page_cache, "cache", _FailingCache(failing))
    renders = []

    def produce():
        renders.append(1)
        return "rendered"

    assert page_cache.cached(page_cache.page_key("failing", 1), (1,), produce) == "rendered"
    assert renders == [1]
    assert "page cache unavailable" in caplog.text


def test_an_error_of_the_render_is_not_taken_for_the_cache_s(monkeypatch):
    monkeypatch.setattr(page_cache, "cache", _FailingCache(set()))

    def produce():
        raise OSError("a template's file is missing")

    with pytest.raises(OSError, match="template"):
        page_cache.cached(page_cache.page_key("render-error", 1), (1,), produce)
