"""The scoreboard's fan-out through nginx's nchan (``LIVE_FANOUT = "nchan"``, games.live): one publish per entry,
after the commit, with the very message text the Channels path sends; a publish that fails or hangs is logged and
never the entry's error; drafts keep to the channel layer; the heartbeat task; the pages' feed paths.

nchan is replaced by a fake ``http.client.HTTPConnection`` (and, for the timeout, a socket that never answers).
"""

from __future__ import annotations

import http.client
import json
import socket
import time

import pytest
from channels.layers import channel_layers

from games import live
from games.models import SheetEvent
from games.sheet import record_events
from games.tasks import live_heartbeat
from tests.factories import ChampionshipFactory, international_staff

from .sheet_helpers import entry, sheet_game, sign_in

pytestmark = pytest.mark.django_db

PUBLISH_URL = "http://127.0.0.1:8079/pub/"


class FakeNchan:
    """Stands for ``http.client.HTTPConnection``: notes each publish; answers ``status`` or raises ``error``."""

    def __init__(self, status: int = 201, error: Exception | None = None):
        self.status, self.error = status, error
        self.published: list[dict] = []

    def __call__(self, host, port, timeout):
        fake = self

        class Connection:
            def request(self, method, path, body, headers):
                if fake.error is not None:
                    raise fake.error
                fake.published.append({"host": host, "port": port, "timeout": timeout, "method": method,
                                       "path": path, "body": body, "headers": headers})  # fmt: skip

            def getresponse(self):
                return type("Answer", (), {"status": fake.status, "reason": "", "read": lambda self: b""})()

            def close(self):
                pass

        return Connection()


class RecordingLayer:
    """A channel layer that keeps what it is sent."""

    def __init__(self):
        self.sent: list[tuple[str, dict]] = []

    async def group_send(self, group, message):
        self.sent.append((group, message))


def _drain_pusher():
    """Wait until the pusher thread has made every publish handed to it."""
    live._PUSHER.submit(lambda: None).result(timeout=10)


@pytest.fixture
def nchan(settings, monkeypatch):
    settings.LIVE_FANOUT = "nchan"
    settings.LIVE_NCHAN_PUBLISH_URL = PUBLISH_URL
    settings.LIVE_NCHAN_TIMEOUT = 0.5
    fake = FakeNchan()
    monkeypatch.setattr(http.client, "HTTPConnection", fake)
    return fake


@pytest.fixture
def layer(monkeypatch):
    recording = RecordingLayer()
    monkeypatch.setattr(live, "get_channel_layer", lambda: recording)
    yield recording
    channel_layers.backends.clear()


@pytest.fixture
def director():
    return international_staff()


def _enter(game, director, capture, *events):
    sign_in(game, director)
    with capture(execute=True):
        answer = record_events(game=game, by=director, device="table-1", events=list(events))
    _drain_pusher()
    return answer


def test_an_entry_is_published_once_to_the_game_and_championship_channels_after_the_commit(
    nchan, layer, director, django_capture_on_commit_callbacks
):
    game = sheet_game()
    sign_in(game, director)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        answer = record_events(game=game, by=director, device="table-1", events=[entry("period_start", period=1)])
    _drain_pusher()
    assert nchan.published == []  # nothing before the commit
    for callback in callbacks:
        callback()
    _drain_pusher()

    assert len(nchan.published) == 1 and layer.sent == []  # one request, whatever the viewers; no channel layer
    request = nchan.published[0]
    assert (request["host"], request["port"], request["method"]) == ("127.0.0.1", 8079, "POST")
    assert request["path"] == f"/pub/game.{game.pk},championship.{game.championship_id}"
    assert request["timeout"] == 0.5 and request["headers"]["Content-Type"] == "application/json"
    message = json.loads(request["body"])
    assert message["kind"] == "delta" and message["game"] == game.pk and message["sequence"] == answer.sequence == 1
    assert message["sheet"]["state"]["status"] == "in_progress"


def test_the_published_body_is_the_text_the_channels_path_sends(nchan, layer, settings, director):
    game = sheet_game()
    sign_in(game, director)
    answer = record_events(game=game, by=director, device="table-1", events=[entry("period_start", period=1)])

    live.publish_sheet(answer, championship_id=game.championship_id)
    _drain_pusher()
    settings.LIVE_FANOUT = "channels"
    live.publish_sheet(answer, championship_id=game.championship_id)

    assert [group for group, _ in layer.sent] == [
        live.game_group(game.pk),
        live.championship_group(game.championship_id),
    ]
    texts = {event["text"] for _, event in layer.sent}
    assert len(texts) == 1
    assert nchan.published[0]["body"] == texts.pop().encode()


def test_a_publish_nchan_refuses_or_that_fails_leaves_the_entry_stored_and_is_logged(
    nchan, layer, director, caplog, django_capture_on_commit_callbacks
):
    game = sheet_game()
    nchan.status = 500
    answer = _enter(game, director, django_capture_on_commit_callbacks, entry("period_start", period=1))
    assert answer.sequence == 1 and "live publish" in caplog.text and "refused: 500" in caplog.text

    caplog.clear()
    nchan.error = ConnectionRefusedError("nginx is down")
    answer = _enter(game, director, django_capture_on_commit_callbacks,
                    entry("goal", period=1, time="2:00", team="home", player=8, seconds=120))  # fmt: skip
    assert answer.sequence == 2 and SheetEvent.objects.filter(sheet__game=game).count() == 2
    assert "live publish" in caplog.text and "failed" in caplog.text
    assert layer.sent == []  # no fallback that would send the message twice


def test_a_publish_that_hangs_is_given_up_after_the_timeout(settings, caplog):
    """A publisher that accepts the connection and never answers: the pusher gives up after LIVE_NCHAN_TIMEOUT."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        settings.LIVE_NCHAN_PUBLISH_URL = f"http://127.0.0.1:{silent.getsockname()[1]}/pub/"
        settings.LIVE_NCHAN_TIMEOUT = 0.3
        started = time.monotonic()
        assert live.publish_nchan(["game.1", "championship.1"], '{"kind":"delta"}') is False
        assert time.monotonic() - started < 2
    assert "live publish" in caplog.text


def test_an_entry_does_not_wait_for_the_publish(
    nchan, layer, director, monkeypatch, django_capture_on_commit_callbacks
):
    """The publish runs on the pusher thread: the official's answer comes while nchan is still being asked."""
    game = sheet_game()
    slow = live.publish_nchan

    def publish_slowly(channels, text):
        time.sleep(0.4)
        return slow(channels, text)

    monkeypatch.setattr(live, "publish_nchan", publish_slowly)
    sign_in(game, director)
    started = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        record_events(game=game, by=director, device="table-1", events=[entry("period_start", period=1)])
    assert time.monotonic() - started < 0.4
    _drain_pusher()
    assert len(nchan.published) == 1


def test_a_drafts_pushes_keep_to_the_channel_layer(nchan, layer, director, django_capture_on_commit_callbacks):
    """Anyone may subscribe to an nchan channel: a draft's game (its directors' only) is never published there."""
    game = sheet_game(championship=ChampionshipFactory(published=False))
    _enter(game, director, django_capture_on_commit_callbacks, entry("period_start", period=1))
    assert nchan.published == []
    assert [group for group, _ in layer.sent] == [
        live.game_group(game.pk),
        live.championship_group(game.championship_id),
    ]


def test_the_end_of_a_game_is_published_once_as_well(nchan, layer):
    game = sheet_game()
    live.publish_game_final(game.pk, championship_id=game.championship_id)
    _drain_pusher()
    assert [json.loads(r["body"]) for r in nchan.published] == [
        {"kind": "final", "game": game.pk, "championship": game.championship_id}
    ]


def test_the_heartbeat_task_publishes_one_heartbeat_on_the_channel_every_viewer_hears(nchan, settings):
    assert live_heartbeat() is True
    assert [r["path"] for r in nchan.published] == ["/pub/heartbeat"]
    message = json.loads(nchan.published[0]["body"])
    assert message["kind"] == "heartbeat" and message["server_time"]

    settings.LIVE_FANOUT = "channels"  # the Channels relays beat by themselves
    assert live_heartbeat() is False and len(nchan.published) == 1


def test_beat_runs_the_heartbeat_only_with_nchan(settings):
    assert "live-heartbeat" not in settings.CELERY_BEAT_SCHEDULE  # the tests' settings: Channels
    from importlib import reload

    import portal.settings as portal_settings

    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("LIVE_FANOUT", "nchan")
            reload(portal_settings)
            schedule = portal_settings.CELERY_BEAT_SCHEDULE["live-heartbeat"]
        assert schedule["task"] == "games.tasks.live_heartbeat" and schedule["schedule"] == live.HEARTBEAT_SECONDS
    finally:
        reload(portal_settings)


def test_the_pages_follow_nchan_for_a_published_championship_and_channels_for_a_draft(settings, client, director):
    settings.LIVE_FANOUT = "nchan"
    settings.PAGE_CACHE_NAMESPACE = "test-live-nchan"
    game = sheet_game()
    page = client.get(f"/games/{game.pk}/live/").content.decode()
    assert '"transport": "nchan"' in page and f'"socket": "/live/nchan/games/{game.pk}/"' in page
    page = client.get(f"/tournaments/{game.championship_id}/standings/").content.decode()
    assert f'data-socket="/live/nchan/championships/{game.championship_id}/"' in page
    assert 'data-transport="nchan"' in page

    draft = sheet_game(championship=ChampionshipFactory(published=False))
    client.force_login(director)
    page = client.get(f"/games/{draft.pk}/live/").content.decode()
    assert '"transport": "channels"' in page and f'"socket": "/live/games/{draft.pk}/"' in page
    assert f'"stream": "/live/games/{draft.pk}/stream/"' in page
