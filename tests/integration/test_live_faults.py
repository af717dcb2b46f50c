"""Faults in a live game (issues 13 and 27): a web process killed, Redis stopped, Redis hung, in the middle of a game.

Each test runs the portal as uvicorn child processes (tests/live_servers.py, as `make production` serves it, with
DEBUG off) on the test's PostgreSQL database, and drives Debian's chromium with Playwright: the officials' console
(tests/e2e/live_helpers.py) in the first, the public scoreboard in the second. `make test` runs them with the
integration tests (DATABASE_URL, REDIS_URL and REDIS_KEY_PREFIX set, PORTAL_TESTS_STRICT=1: a missing service or
browser fails the run). The figures they print (`-s`) are those of docs/operations.md, "Faults in a live game".
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import pytest
import redis
from django.conf import settings
from django.db import connection, connections
from django.urls import reverse
from playwright.sync_api import expect

from games.models import SheetEvent
from games.sheet import sheet_state
from tests.e2e.conftest import CHROMIUM_ARGS
from tests.e2e.live_helpers import goal, minutes, open_console, penalty, space, waiting
from tests.factories import international_staff
from tests.games.sheet_helpers import entry, sheet_game, sign_in
from tests.live_servers import DEVICE, Session, WebNode, free_port, node_env, post_entries

from .conftest import delete_own_keys, require, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _orm_beside_playwright(monkeypatch):
    """Playwright's sync API runs an event loop in this thread; the test's ORM calls run beside it."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


OUTAGE_SECONDS = 30  # the Redis outage
HANG_SECONDS = 15  # Redis hung (SIGSTOP): longer than the channel layer's read timeout (8 s), so its relays notice
ANSWER_SECONDS = 1.0  # what an official's entry may take while Redis hangs (issue 27)


def _require_postgres():
    require(connection.vendor == "postgresql", "DATABASE_URL must point at PostgreSQL for this test")


@pytest.fixture
def chromium():
    executable = shutil.which("chromium")
    require(executable, "Debian's chromium is not installed: `make test` installs it (scripts/chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
        # The ORM calls made while Playwright's loop ran opened their own connection: closed here, so the test
        # database can be dropped at the end of the run.
        connections.close_all()


def _tab(browser, node: WebNode, session: Session | None = None):
    """A tab of a browser context of its own on ``node``, logged in as ``session``'s user when given."""
    context = browser.new_context(base_url=node.url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    if session is not None:
        cookies = dict(part.split("=", 1) for part in session.headers["Cookie"].split("; "))
        context.add_cookies([{"name": k, "value": v, "url": node.url} for k, v in cookies.items()])
    return context.new_page()


def _stored(game) -> list[dict]:
    """The sheet's log in sequence order: each entry's id and event as stored."""
    return [
        {**row.payload, "id": str(row.event_id)}
        for row in SheetEvent.objects.filter(sheet__game=game).order_by("sequence")
    ]


def _by_side(state: dict) -> dict:
    """An engine state with each team named by its side: two games of the same entries differ only in names."""
    return {**state, "teams": {side: {**team, "name": side} for side, team in state["teams"].items()}}


def _made_on_the_device(page) -> list[dict]:
    """The console's entries in the order made (its log in IndexedDB), as it sent them."""
    rows = page.evaluate("window.ihtcConsole.db.all('log')")
    return [row["entry"] for row in sorted(rows, key=lambda row: row["n"])]


# --- 1. a web process killed mid-game ---------------------------------------------------------------------------------


@pytest.fixture
def shared_redis_env():
    _require_postgres()
    require(bool(settings.REDIS_URL), "REDIS_URL must be set for this test")
    require(bool(settings.REDIS_KEY_PREFIX), "REDIS_KEY_PREFIX must be set: the test deletes only its own keys")
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        client.ping()
    except redis.ConnectionError as error:
        require(False, f"Redis at {settings.REDIS_URL} does not answer: {error}")
    delete_own_keys(client, settings.REDIS_KEY_PREFIX)
    return node_env(redis_url=settings.REDIS_URL, redis_key_prefix=settings.REDIS_KEY_PREFIX)


def _settled_waiting(page, *, steady: float = 2.0, timeout: float = 20.0) -> int:
    """The console's waiting count once its counter and its log's waiting lines agree and stay unchanged for
    ``steady`` seconds (an entry still on its way or being stored changes them)."""
    seen, since, deadline = None, time.monotonic(), time.monotonic() + timeout
    while time.monotonic() < deadline:
        count = int(page.locator("#waiting").get_attribute("data-count") or -1)
        shown = page.locator("#log li[data-status=waiting]").count()
        now = (count, shown)
        if now != seen:
            seen, since = now, time.monotonic()
        elif count == shown and time.monotonic() - since >= steady:
            return count
        page.wait_for_timeout(200)
    raise AssertionError(f"the console's waiting count never settled: counter and log {seen}")


def test_a_web_process_killed_mid_game_loses_and_doubles_no_console_entry(shared_redis_env, chromium):
    director = international_staff(username="director-fault")
    game = sheet_game()
    reference = sheet_game(championship=game.championship)  # the same entries, run without a fault
    session = Session(director)
    node = WebNode(shared_redis_env).__enter__()
    try:
        page = _tab(chromium, node, session)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.clock.install()
        open_console(page, game)

        # Period 1 on a running server: the start, a shot, a goal with its assist, a penalty.
        space(page)
        minutes(page, "02:00")
        page.locator("body").press("s")  # a home shot on goal: the key shows the team first, Enter sends it
        expect(page.locator("#entry-title")).to_contain_text(game.home.name)
        page.keyboard.press("Enter")
        minutes(page, "01:00")
        goal(page, "home", 8, assist=9)
        space(page)
        minutes(page, "00:20")
        penalty(page, "away", "tripping", 14)
        space(page)
        waiting(page, 0)
        before_kill = len(_stored(game))

        # A goal, and the web process is killed at once (SIGKILL: no shutdown, an answer may be lost on the way).
        minutes(page, "00:30")
        goal(page, "home", 10)
        node.process.send_signal(signal.SIGKILL)
        node.process.wait(timeout=10)
        killed_at = time.monotonic()
        # The officials go on: each entry waits in the console's outbox, shown as waiting, none lost.
        space(page)
        minutes(page, "00:40")
        page.locator("[data-actions=away] [data-type=shot]").click()
        minutes(page, "00:30")
        goal(page, "away", 12, assist=13)
        space(page)
        minutes(page, "00:30")
        penalty(page, "home", "slashing", 4)
        expect(page.locator("#net")).to_contain_text("Offline")
        # The goal sent just before the kill may still be on its way, and the last entry still being written to the
        # device's store: read the count once the waiting counter and the log's waiting lines agree and have stayed
        # the same for two seconds.
        queued = _settled_waiting(page)
        # The five entries made after the kill wait; the goal entered just before it waits too unless its answer
        # came back before the kill. Stored or not, it is stored once in the end (checked below).
        assert queued in (5, 6), f"{queued} entries waiting after the kill"
        assert len(_stored(game)) in (before_kill, before_kill + 1)  # that goal, stored with its answer lost or not
        expect(page.locator("#log li[data-status=waiting]")).to_have_count(queued)
        expect(page.locator("#score-away")).to_have_text("0")  # the server's state: the waiting goal is not in it

        # The web process comes back on the same address; the console sends what waits by itself.
        node = WebNode(shared_redis_env, port=node.port).__enter__()
        back_at = time.monotonic()
        waiting(page, 0)
        drained_at = time.monotonic()
        expect(page.locator("#net")).to_have_text("Online")
        expect(page.locator("#score-away")).to_have_text("1")
        space(page)
        minutes(page, "01:00")
        page.locator("[data-actions=home] [data-type=shot]").click()
        waiting(page, 0)

        # Every entry made on the device is stored exactly once, in the order made.
        made = _made_on_the_device(page)
        log = _stored(game)
        assert [e["id"] for e in log] == [e["id"] for e in made]
        assert len({e["id"] for e in log}) == len(log) == len(made)
        assert page.locator("#log li[data-status=waiting]").count() == 0
        assert errors == []

        # The uninterrupted run: the same entries (ids, times and offsets included) sent one by one, in the order
        # made, to another game of the same championship on the same server, with nothing killed.
        sign_in(reference, director, device=DEVICE)
        for made_entry in made:
            post_entries(node.url, reference.pk, [made_entry], session=session)
        faulted, uninterrupted = sheet_state(game), sheet_state(reference)
        assert _stored(reference) == log
        assert faulted.sequence == uninterrupted.sequence == len(made)
        assert _by_side(faulted.state) == _by_side(uninterrupted.state)
        assert faulted.clock == uninterrupted.clock
        assert faulted.state["score"] == {"home": 2, "away": 1}
        assert [p["infraction"] for p in faulted.state["penalties"]] == ["tripping", "slashing"]
        print(
            f"\nweb process killed: {len(made)} entries made, {before_kill} stored before the kill, {queued} queued "
            f"while it was down ({back_at - killed_at:.1f} s down, restart included), outbox drained "
            f"{drained_at - back_at:.1f} s after it answered again; stored {len(log)}, doubled 0"
        )
    finally:
        node.__exit__()


# --- 2. Redis stopped for 30 seconds ------------------------------------------------------------------------------------


class PrivateRedis:
    """A redis-server of this test's own (own port, own folder, nothing persisted): stopped and started at will."""

    def __init__(self):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.folder = tempfile.mkdtemp(prefix="faultlive-redis-")
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        executable = shutil.which("redis-server")
        require(executable, "redis-server is not installed (apt-get install redis-server)")
        self.process = subprocess.Popen(
            [
                executable,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                self.folder,
                "--save",
                "",
                "--appendonly",
                "no",
            ],  # fmt: skip
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis.from_url(self.url)

        def answers() -> bool:
            with contextlib.suppress(redis.ConnectionError):
                return bool(client.ping())
            return False

        wait_until(answers, timeout=15, what=f"the private redis-server on port {self.port} answers")

    def hang(self) -> None:
        """Stop the process (SIGSTOP): connections are still accepted by the kernel, nothing is answered."""
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.resume()  # a stopped process would not act on SIGTERM
            self.process.terminate()
            self.process.wait(timeout=15)

    def __enter__(self) -> PrivateRedis:
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
        return False


def test_redis_stopped_30_seconds_mid_game_officials_keep_entering_and_viewers_catch_up(chromium):
    _require_postgres()
    director = international_staff(username="director-redis")
    game = sheet_game()
    sign_in(game, director, device=DEVICE)
    session = Session(director)
    posted: list[dict] = []
    period_time = [0]  # tenths elapsed in period 1, as the entries go

    def post(type_: str, **fields) -> dict:
        made = entry(type_, seconds=period_time[0] / 10, **fields)
        answer = post_entries(node.url, game.pk, [made], session=session)
        assert [a["id"] for a in answer["acknowledged"]] == [made["id"]]
        posted.append(made)
        return answer

    def play(seconds: int) -> int:
        period_time[0] += seconds * 10
        return period_time[0]

    with PrivateRedis() as private, WebNode(node_env(redis_url=private.url, redis_key_prefix="faultlive:")) as node:
        viewer = _tab(chromium, node)
        viewer.goto(f"/games/{game.pk}/live/")
        board = viewer.locator("[data-board]")
        expect(viewer.locator("[data-status]")).to_have_attribute("data-state", "live")

        post("period_start", period=1)
        post("shot", period=1, time=play(60), team="home")
        expect(board).to_have_attribute("data-sequence", "2")  # pushed through Redis

        # Redis stops. The officials go on entering for 30 s: every entry is stored (PostgreSQL) and answered.
        private.stop()
        stopped_at = time.monotonic()
        during, slowest = 0, 0.0
        goals = {"home": 0, "away": 0}
        while time.monotonic() - stopped_at < OUTAGE_SECONDS - 2:
            side = "away" if during % 2 else "home"
            sent = time.monotonic()
            try:
                if during % 4 == 3:
                    answer = post("goal", period=1, time=play(30), team=side, player=8 if side == "home" else 12)
                    goals[side] += 1
                    answer = post("clock_start", period=1, time=period_time[0])
                else:
                    answer = post("shot", period=1, time=play(30), team=side)
            except urllib.error.HTTPError as error:
                pytest.fail(f"an entry failed while Redis was down: {error.code} {error.read()[:500]!r}\n{node.output}")
            slowest = max(slowest, time.monotonic() - sent)
            during += 1
            time.sleep(1.5)
        entered_during = len(posted) - 2
        assert answer["sequence"] == len(posted)
        assert SheetEvent.objects.filter(sheet__game=game).count() == len(posted)
        time.sleep(max(0.0, OUTAGE_SECONDS - (time.monotonic() - stopped_at)))

        # Redis returns (empty: nothing persisted). The viewer, without a new entry, catches up with the state.
        restarted_at = time.monotonic()
        private.start()
        outage = restarted_at - stopped_at
        expect(board).to_have_attribute("data-sequence", str(len(posted)), timeout=30_000)
        caught_up = time.monotonic() - restarted_at
        expect(board.locator('[data-score="home"]')).to_have_text(str(goals["home"]))
        expect(board.locator('[data-score="away"]')).to_have_text(str(goals["away"]))
        expect(board.locator("[data-goals] li")).to_have_count(goals["home"] + goals["away"])

        # Pushes flow again: the next entry reaches the viewer as a delta.
        sent = time.monotonic()
        post("shot", period=1, time=play(30), team="home")
        expect(board).to_have_attribute("data-sequence", str(len(posted)), timeout=10_000)
        next_push = time.monotonic() - sent
        sent = time.monotonic()
        post("shot", period=1, time=play(30), team="away")
        expect(board).to_have_attribute("data-sequence", str(len(posted)), timeout=10_000)
        then_push = time.monotonic() - sent
        expect(viewer.locator("[data-status]")).to_have_attribute("data-state", "live")

    # No entry lost, none doubled: the stored log is the entries posted, once each, in the order posted.
    assert [e["id"] for e in _stored(game)] == [e["id"] for e in posted]
    final = sheet_state(game)
    assert final.state["score"] == goals
    assert final.state["teams"]["home"]["shots"] + final.state["teams"]["away"]["shots"] == sum(
        1 for e in posted if e["type"] == "shot"
    ) + sum(goals.values())
    print(
        f"\nredis stopped {outage:.1f} s: {entered_during} entries entered and stored while it was down (slowest "
        f"answer {slowest * 1000:.0f} ms), {len(posted)} in all, lost 0, doubled 0; the viewer caught up "
        f"{caught_up:.1f} s after Redis returned; the next entry's push reached it in {next_push * 1000:.0f} ms, the one after in "
        f"{then_push * 1000:.0f} ms"
    )


# --- 3. Redis hung (SIGSTOP) --------------------------------------------------------------------------------------------


def test_redis_hung_mid_game_entries_answer_within_a_second_and_viewers_catch_up(chromium):
    """Redis stopped by SIGSTOP, not refused: the kernel still accepts its connections and nothing answers. Every
    client of the web process gives up by its timeout (portal.settings, games.live's push deadline), so an
    official's entry is answered within a second and stored once; the board catches up when Redis resumes."""
    _require_postgres()
    director = international_staff(username="director-hang")
    game = sheet_game()
    sign_in(game, director, device=DEVICE)
    session = Session(director)
    posted: list[dict] = []
    period_time = [0]

    def post(type_: str, **fields) -> float:
        made = entry(type_, seconds=period_time[0] / 10, **fields)
        sent = time.monotonic()
        try:
            answer = post_entries(node.url, game.pk, [made], session=session)
        except urllib.error.HTTPError as error:
            pytest.fail(f"an entry failed while Redis hung: {error.code} {error.read()[:500]!r}\n{node.output}")
        took = time.monotonic() - sent
        assert [a["id"] for a in answer["acknowledged"]] == [made["id"]]
        assert answer["sequence"] == len(posted) + 1
        posted.append(made)
        return took

    def play(seconds: int) -> int:
        period_time[0] += seconds * 10
        return period_time[0]

    standings = reverse("tournaments:standings", args=[game.championship_id])
    with PrivateRedis() as private, WebNode(node_env(redis_url=private.url, redis_key_prefix="hanglive:")) as node:
        viewer = _tab(chromium, node)
        viewer.goto(f"/games/{game.pk}/live/")
        board = viewer.locator("[data-board]")
        expect(viewer.locator("[data-status]")).to_have_attribute("data-state", "live")
        post("period_start", period=1)
        post("shot", period=1, time=play(60), team="home")
        expect(board).to_have_attribute("data-sequence", "2")  # pushed through Redis
        with urllib.request.urlopen(node.url + standings, timeout=30) as page:  # cached while Redis answers
            assert page.status == 200

        # Redis hangs. The officials go on entering: each entry is answered within a second and stored once.
        private.hang()
        hung_at = time.monotonic()
        answers: list[float] = []
        goals = {"home": 0, "away": 0}
        while time.monotonic() - hung_at < HANG_SECONDS - 2:
            side = "away" if len(answers) % 2 else "home"
            if len(answers) % 4 == 3:
                answers.append(post("goal", period=1, time=play(30), team=side, player=8 if side == "home" else 12))
                goals[side] += 1
                answers.append(post("clock_start", period=1, time=period_time[0]))
            else:
                answers.append(post("shot", period=1, time=play(30), team=side))
            time.sleep(0.7)
        # A public page read while Redis hangs: its cache gives up after its read timeout, the page is rendered.
        sent = time.monotonic()
        with urllib.request.urlopen(node.url + standings, timeout=30) as page:
            assert page.status == 200
        page_view = time.monotonic() - sent
        assert SheetEvent.objects.filter(sheet__game=game).count() == len(posted)
        expect(board).to_have_attribute("data-sequence", "2")  # no push got through: the board waits
        time.sleep(max(0.0, HANG_SECONDS - (time.monotonic() - hung_at)))

        # Redis resumes (its data intact). The viewer, without a new entry, catches up with the stored state.
        resumed_at = time.monotonic()
        private.resume()
        hung = resumed_at - hung_at
        expect(board).to_have_attribute("data-sequence", str(len(posted)), timeout=20_000)
        caught_up = time.monotonic() - resumed_at
        expect(board.locator('[data-score="home"]')).to_have_text(str(goals["home"]))
        expect(board.locator('[data-score="away"]')).to_have_text(str(goals["away"]))

        # Pushes flow again (after the pause a timed-out push starts, PUSH_PAUSE_SECONDS).
        time.sleep(3)
        sent = time.monotonic()
        after = post("shot", period=1, time=play(30), team="home")
        expect(board).to_have_attribute("data-sequence", str(len(posted)), timeout=10_000)
        next_push = time.monotonic() - sent
        expect(viewer.locator("[data-status]")).to_have_attribute("data-state", "live")

    slowest = max(answers)
    assert slowest < ANSWER_SECONDS, f"entries answered in {[round(a, 2) for a in answers]} s while Redis hung"
    assert page_view < 3.0, f"a public page took {page_view:.1f} s while Redis hung"
    assert [e["id"] for e in _stored(game)] == [e["id"] for e in posted]  # each once, in the order posted
    assert sheet_state(game).state["score"] == goals
    ordered = sorted(answers)
    print(
        f"\nredis hung {hung:.1f} s (SIGSTOP): {len(answers)} entries answered while it hung, median "
        f"{ordered[len(ordered) // 2] * 1000:.0f} ms, slowest {slowest * 1000:.0f} ms; {len(posted)} stored in all, "
        f"lost 0, doubled 0; a public page {page_view * 1000:.0f} ms; the viewer caught up {caught_up:.1f} s after "
        f"SIGCONT; the next entry ({after * 1000:.0f} ms) reached it in {next_push * 1000:.0f} ms"
    )
