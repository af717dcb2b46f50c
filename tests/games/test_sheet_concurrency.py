"""Two devices posting at once: each event id stored exactly once, no entry lost (PostgreSQL row locks).

Runs in the unit suite against PostgreSQL when DATABASE_URL points at one, e.g.
``DATABASE_URL=postgres://postgres@127.0.0.1:5432/portalsuite_sheet pytest tests/games/test_sheet_concurrency.py``.
On SQLite it is skipped: the test database lives in memory with a shared cache, whose table locks fail at once
instead of waiting; there, writers are serialized by BEGIN IMMEDIATE (portal/settings.py) instead of row locks.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from games.access import SHEET_DUTIES
from games.models import GameSheet, SheetEvent
from games.sheet import record_events, sheet_state
from tests.factories import international_staff
from tournaments.models import Game

from .sheet_helpers import entry, sheet_game, sign_in

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (set DATABASE_URL)"),
]

DEVICES = 2
ROUNDS = 15


def test_two_connections_posting_the_same_and_different_events_at_once_store_each_once():
    game = sheet_game()
    user = international_staff()
    # Round 0 opens the sheet from both devices at once; every round both send the shared entry and their own.
    shared = [entry("period_start", period=1)] + [
        entry("shot", period=1, time=100 * r, team="home") for r in range(1, ROUNDS)
    ]
    own = [[entry("shot", period=1, time=100 * r + 1 + d, team="away") for r in range(ROUNDS)] for d in range(DEVICES)]
    barrier = threading.Barrier(DEVICES)
    answers: list[list] = [[] for _ in range(DEVICES)]
    errors: list[BaseException] = []

    def device(n: int) -> None:
        try:
            the_game = Game.objects.select_related("championship__sanctioning_body", "phase", "home", "away").get(
                pk=game.pk
            )
            sign_in(the_game, user, device=f"device-{n}", duties=[SHEET_DUTIES[n % len(SHEET_DUTIES)]])
            barrier.wait()
            for r in range(ROUNDS):
                batch = [shared[r], own[n][r]] if n % 2 == 0 else [own[n][r], shared[r]]
                answers[n].append(record_events(game=the_game, by=user, device=f"device-{n}", events=batch))
        except BaseException as exc:  # reported below: a thread's failure must fail the test
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=device, args=(n,)) for n in range(DEVICES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors

    rows = list(SheetEvent.objects.filter(sheet__game=game).order_by("sequence").values_list("event_id", "sequence"))
    expected = {e["id"] for e in shared} | {e["id"] for batch in own for e in batch}
    assert len(rows) == len(expected) == ROUNDS + DEVICES * ROUNDS
    assert {str(event_id) for event_id, _ in rows} == expected
    assert [sequence for _, sequence in rows] == list(range(1, len(rows) + 1))  # no gap, no sequence twice
    assert GameSheet.objects.get(game=game).sequence == len(rows)
    # Each shared entry was stored by one device and acknowledged to the other as a duplicate.
    for r, shared_entry in enumerate(shared):
        acks = [a for n in range(DEVICES) for a in answers[n][r].acknowledged if a.id == shared_entry["id"]]
        assert sorted(a.duplicate for a in acks) == [False, True]
        assert len({a.sequence for a in acks}) == 1
    # No lost update: the latest state counts every shot of both devices.
    state = sheet_state(game).state
    assert state["teams"]["home"]["shots"] == ROUNDS - 1
    assert state["teams"]["away"]["shots"] == DEVICES * ROUNDS
