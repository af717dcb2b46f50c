"""The load test's traffic (locust), run by tests/bench/load/run.py against scripts/topology's proxy.

- Visitors read the public pages of the championship: standings, schedule and the live scoreboard page.
- API clients read the public API (championships, the championship's standings, a game's sheet) and, logged in,
  the people register (an authenticated endpoint).
- One official per live game enters the game from a signed-in console device, as games/static/games/console.js
  does: `POST /api/games/{id}/sheet/events/` with the device's id and one event (a UUID made here, the device's
  time), with the session's cookie and CSRF token. One entry a second per game: shots, goals, penalties and clock
  stoppages, in game-time order.

LOAD_WORLD names the world's JSON (tests/bench/load/world.py); LOAD_GAMES_FROM and LOAD_GAMES say which of its
games this run scores (every configuration scores fresh games).
"""

from __future__ import annotations

import datetime
import itertools
import json
import os
import random
import time
import uuid
from pathlib import Path

from locust import FastHttpUser, constant, constant_pacing, events, task

WORLD = json.loads(Path(os.environ["LOAD_WORLD"]).read_text())
FIRST = int(os.environ.get("LOAD_GAMES_FROM", "0"))
GAMES = WORLD["games"][FIRST : FIRST + int(os.environ.get("LOAD_GAMES", "4"))]
CHAMPIONSHIP = WORLD["championship"]
STEP = 5  # seconds of game time between two entries

# One cycle of entries (16, 80 s of game time): a minor to each team every other cycle (160 s apart, longer than
# the 2:00 it runs), so no team is ever two players short; every stoppage is followed by a clock_start.
CYCLE = ["shot:home", "shot:away", "goal:home", "clock_start", "shot:home", "clock_stop", "clock_start",
         "shot:away", "penalty", "clock_start", "shot:home", "goal:away", "clock_start", "shot:away",
         "clock_stop", "clock_start"]  # fmt: skip
SCORERS = {"home": [2, 3, 4, 5], "away": [12, 13, 14, 15]}
PENALIZED = {"home": 11, "away": 21}

# Every request's kind, response time and outcome, written when locust stops (LOAD_SAMPLES-<pid>.jsonl): run.py
# computes each kind's figures from them (exact percentiles, one window for every kind).
_samples: list[dict] = []


@events.request.add_listener
def _keep(request_type, name, response_time, response_length, exception=None, **kwargs):
    _samples.append({"name": name, "ms": response_time, "error": exception is not None, "t": time.time()})


@events.quitting.add_listener
def _write(environment, **kwargs):
    if _samples and os.environ.get("LOAD_SAMPLES"):
        lines = "".join(json.dumps(sample) + "\n" for sample in _samples)
        Path(f"{os.environ['LOAD_SAMPLES']}-{os.getpid()}.jsonl").write_text(lines)


class Visitor(FastHttpUser):
    """A spectator browsing the championship's public pages, without think time (the load is closed-loop)."""

    weight = 3
    wait_time = constant(0)

    @task(2)
    def standings(self):
        self.client.get(f"/tournaments/{CHAMPIONSHIP}/standings/", name="page: standings")

    @task(2)
    def schedule(self):
        self.client.get(f"/tournaments/{CHAMPIONSHIP}/schedule/", name="page: schedule")

    @task(1)
    def scoreboard(self):
        game = random.choice(GAMES)["game"]
        self.client.get(f"/games/{game}/live/", name="page: scoreboard")


class ApiClient(FastHttpUser):
    """Another system reading the API: the public GET endpoints, and one that needs a login."""

    weight = 1
    wait_time = constant(0)

    @task(1)
    def championships(self):
        self.client.get("/api/championships/", name="api: championships")

    @task(1)
    def standings(self):
        self.client.get(f"/api/championships/{CHAMPIONSHIP}/standings/", name="api: standings")

    @task(2)
    def sheet(self):
        game = random.choice(GAMES)["game"]
        self.client.get(f"/api/games/{game}/sheet/", name="api: game sheet")

    @task(1)
    def people(self):
        self.client.get("/api/people/", headers=WORLD["reader"]["headers"], name="api (logged in): people")


_assignments = itertools.count()


class Official(FastHttpUser):
    """The officials' table of one live game: one entry a second, as fast as a busy table types."""

    fixed_count = len(GAMES)
    wait_time = constant_pacing(1)

    def on_start(self):
        self.game = GAMES[next(_assignments) % len(GAMES)]
        sheet = self.client.get(f"/api/games/{self.game['game']}/sheet/", name="api: game sheet").json()
        self.period_length = sheet["clock"]["period_length_tenths"] // 10
        self.period, self.elapsed, self.step = 1, 0, 0
        self.penalty_team = itertools.cycle(["away", "home"])
        self.scorer = {side: itertools.cycle(numbers) for side, numbers in SCORERS.items()}
        # As the console's outbox: an entry not acknowledged is sent again (same id) before the next one.
        self.outbox = [("entry: clock", self.event("period_start"))]

    def event(self, kind: str, **fields) -> dict:
        event = {"id": str(uuid.uuid4()), "type": kind, "period": self.period,
                 "device_time": datetime.datetime.now(datetime.UTC).isoformat(), "clock_offset_ms": 0, **fields}  # fmt: skip
        if kind != "period_start":
            event["time"] = f"{self.elapsed // 60}:{self.elapsed % 60:02d}"
        return event

    def plan(self) -> list[tuple[str, dict]]:
        """The next entries of the game: one of CYCLE, or the end of period 1 and the start of period 2."""
        if self.elapsed + STEP >= self.period_length:
            if self.period == 2:
                return []  # the game is over; a run is far shorter than two periods of entries
            self.elapsed = self.period_length
            end = ("entry: clock", self.event("period_end"))
            self.period, self.elapsed = 2, 0
            return [end, ("entry: clock", self.event("period_start"))]
        kind = CYCLE[self.step % len(CYCLE)]
        self.step += 1
        if kind == "clock_start":
            # Play resumes at the time of the stoppage: the clock does not run while stopped.
            return [("entry: clock", self.event("clock_start"))]
        self.elapsed += STEP
        if kind.startswith("shot:"):
            return [("entry: shot", self.event("shot", team=kind[5:]))]
        if kind.startswith("goal:"):
            side = kind[5:]
            return [("entry: goal", self.event("goal", team=side, player=next(self.scorer[side])))]
        if kind == "penalty":
            side = next(self.penalty_team)
            event = self.event("penalty", team=side, player=PENALIZED[side], penalty="minor", infraction="tripping")
            return [("entry: penalty", event)]
        return [("entry: clock", self.event(kind))]

    @task
    def next_entry(self):
        if not self.outbox:
            self.outbox = self.plan()
        if not self.outbox:
            return
        name, event = self.outbox[0]
        body = {"device": self.game["device"], "events": [event]}
        url = f"/api/games/{self.game['game']}/sheet/events/"
        with self.client.post(url, json=body, headers=self.game["headers"], name=name, catch_response=True) as answer:
            if answer.status_code == 200:
                self.outbox.pop(0)
            else:
                answer.failure(f"{answer.status_code}: {answer.text[:300]}")
