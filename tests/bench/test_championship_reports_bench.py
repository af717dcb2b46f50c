"""Benchmark: the 60 game reports of a championship rendered by two real workers (PostgreSQL + Redis).

Run: ``make bench`` or ``DATABASE_URL=postgres://... REDIS_URL=redis://... REDIS_KEY_PREFIX=bench: .venv/bin/pytest
tests/bench/test_championship_reports_bench.py -m bench -s``.

A championship of 12 teams (16 players each: 14 floor players, 2 goalkeepers) and 60 final games whose results
staff entered: 8 goals with assists and 6 penalties a game, each goalkeeper's line. Two Celery workers as
production runs them (solo pool, one task at a time each), started and ready before the clock starts; the 60
renders are queued at once, like a championship's games made final in a batch (or a re-render after a template
fix). Measured: the wall time from queueing to the last document done, renders per second, and the peak memory
of each worker: its own peak resident set (``VmHWM``, the worker process) and the largest resident set of a render
child it forked, with the part of it that is the child's own (``Private_Dirty``: the rest are the worker's pages,
shared copy-on-write), sampled every 20 ms from /proc. Every document is rendered exactly once (one attempt each).
"""

from __future__ import annotations

import itertools
import os
import re
import time
from pathlib import Path

import pytest
from django.db import transaction
from django.utils import timezone

from reports import services as documents
from reports.models import Document, DocumentKind, DocumentStatus
from tests.factories import ChampionshipFactory, GameFactory, PersonFactory, RosterEntryFactory, TeamEntryFactory
from tests.integration.conftest import worker
from tests.integration.test_celery_postgres_redis import services  # noqa: F401 - the fixture
from tournaments.models import GameStatus, GoalkeeperRecord, GoalRecord, PenaltyRecord, Position

# `integration`: Celery tasks go to the real workers, not in-process (tests/conftest.py::_celery_eager).
pytestmark = [pytest.mark.bench, pytest.mark.integration, pytest.mark.django_db(transaction=True)]

TEAMS = 12
GAMES = 60
WORKERS = 2
INFRACTIONS = ("tripping", "slashing", "hooking", "holding", "interference", "roughing")


def _championship():
    """12 teams with full rosters, 60 final games with staff-entered goals, penalties and goalkeepers."""
    championship = ChampionshipFactory()
    entries, players, keepers = [], {}, {}
    for _ in range(TEAMS):
        entry = TeamEntryFactory(championship=championship)
        lines = [
            RosterEntryFactory(entry=entry, person=PersonFactory(federation=entry.federation), number=str(n),
                               position=Position.GOALKEEPER if n in (1, 30) else Position.PLAYER)
            for n in (1, 30, *range(2, 16))
        ]  # fmt: skip
        entries.append(entry)
        players[entry.pk] = [line.person for line in lines[2:]]
        keepers[entry.pk] = lines[0].person
    pairs = list(itertools.combinations(entries, 2))[:GAMES]
    for number, (home, away) in enumerate(pairs, start=1):
        game = GameFactory(
            championship=championship, number=number, home=home, away=away, status=GameStatus.FINAL,
            home_goals=5, away_goals=3, decided_in="regulation", finalized_at=timezone.now(),
        )  # fmt: skip
        goals = [
            GoalRecord(
                game=game,
                entry=team,
                scorer=players[team.pk][n % 14],
                assist=players[team.pk][(n + 1) % 14],
                period=1 + n % 2,
                time_tenths=600 + n * 700,
            )  # fmt: skip
            for n, team in enumerate([home] * 5 + [away] * 3)
        ]
        GoalRecord.objects.bulk_create(goals)
        PenaltyRecord.objects.bulk_create(
            PenaltyRecord(
                game=game,
                entry=team,
                person=players[team.pk][(n * 3) % 14],
                infraction_code=INFRACTIONS[n],
                minutes=2,
                period=1 + n % 2,
                time_tenths=900 + n * 1100,
                gives_power_play=True,
            )  # fmt: skip
            for n, team in enumerate([home, away] * 3)
        )
        GoalkeeperRecord.objects.bulk_create(
            [
                GoalkeeperRecord(game=game, entry=home, goalkeeper=keepers[home.pk], shots_against=25, saves=22,
                                 goals_against=3),
                GoalkeeperRecord(game=game, entry=away, goalkeeper=keepers[away.pk], shots_against=30, saves=25,
                                 goals_against=5),
            ]
        )  # fmt: skip
    return championship


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _status_kib(pid: int, field: str, file: str = "status") -> int:
    try:
        for line in Path(f"/proc/{pid}/{file}").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def test_two_workers_render_the_60_game_reports_of_a_championship_once_each(services, tmp_path):  # noqa: F811
    championship = _championship()
    env = {**services, "PORTAL_DATA_DIR": str(tmp_path)}
    names = [f"bench-{n}-{os.getpid()}@localhost" for n in range(WORKERS)]
    with worker(env=env, name=names[0]) as first, worker(env=env, name=names[1]) as second:
        first.wait_ready()
        second.wait_ready()
        pids = [first.process.pid, second.process.pid]
        child_peak = dict.fromkeys(pids, 0)
        child_own = dict.fromkeys(pids, 0)  # the child's own pages: not shared with its worker (copy-on-write)
        started = time.perf_counter()
        with transaction.atomic():  # queued after the commit, as when the games are made final
            ids = [
                documents.document_current(DocumentKind.GAME_REPORT, game).pk
                for game in championship.games.order_by("number")
            ]
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            for pid in pids:
                for child in _children(pid):
                    child_peak[pid] = max(child_peak[pid], _status_kib(child, "VmRSS"))
                    child_own[pid] = max(child_own[pid], _status_kib(child, "Private_Dirty", "smaps_rollup"))
            if not Document.objects.filter(pk__in=ids).exclude(status=DocumentStatus.DONE).exists():
                break
            time.sleep(0.02)
        wall = time.perf_counter() - started
        worker_peak = {pid: _status_kib(pid, "VmHWM") for pid in pids}

    rows = list(Document.objects.filter(pk__in=ids).values("status", "attempts", "render_ms", "pages", "error"))
    assert len(rows) == GAMES
    assert all(row["status"] == DocumentStatus.DONE for row in rows), [r for r in rows if r["status"] != "done"]
    assert all(row["attempts"] == 1 for row in rows), "a report was rendered more than once"
    renders = sorted(row["render_ms"] for row in rows)
    received = [len(re.findall(r"render_document\[[-0-9a-f]+\] received", p.output)) for p in (first, second)]
    print(
        f"\n{GAMES} game reports ({TEAMS} teams x 16 players; 8 goals, 6 penalties a game) by {WORKERS} workers: "
        f"wall {wall:.1f} s ({GAMES / wall:.1f} reports/s); render median {renders[len(renders) // 2]} ms, "
        f"max {renders[-1]} ms; worker peak RSS {', '.join(f'{kib / 1024:.0f} MiB' for kib in worker_peak.values())}; "
        f"largest render child RSS {', '.join(f'{kib / 1024:.0f} MiB' for kib in child_peak.values())} "
        f"(its own pages, not shared with the worker: {', '.join(f'{kib / 1024:.0f} MiB' for kib in child_own.values())}); "
        f"received {received}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    # Both workers took part: each received some of the 60 renders (its log says so), and none twice.
    assert all(count > 0 for count in received) and sum(received) == GAMES, received
