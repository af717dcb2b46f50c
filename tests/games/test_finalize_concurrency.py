"""The last two signatures made at once on two connections: the sheet is finalized exactly once (PostgreSQL).

Runs against PostgreSQL when DATABASE_URL points at one (see tests/games/test_sheet_concurrency.py); skipped on
SQLite, whose writers BEGIN IMMEDIATE serializes instead of row locks.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from discipline.models import GameConsequence
from games.finalize import sheet_sign, signers
from games.models import GameReportRequest, GameSheet, SheetSignature, SheetStatus
from tests.factories import TEST_PIN, international_staff
from tournaments.models import Game, GameStatus, GoalRecord

from .endgame_helpers import AFTER_GAME, played_game, post_log, whole_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (set DATABASE_URL)"),
]


def test_the_two_captains_signing_at_once_finalize_the_game_once():
    director = international_staff()
    game, scorer = played_game(director)
    post_log(game, scorer, whole_game())
    for signer in signers(game):
        if signer.role in ("referee", "scorer"):
            sheet_sign(
                game=game,
                by=director,
                role=signer.role,
                person=signer.person,
                device="desk",
                pin=TEST_PIN,
                now=AFTER_GAME,
            )
    captains = [s for s in signers(game) if s.role.endswith("_captain")]
    barrier = threading.Barrier(len(captains))
    finalized: list[bool] = []
    errors: list[BaseException] = []

    def sign(captain) -> None:
        try:
            the_game = Game.objects.select_related("championship__sanctioning_body", "phase", "home", "away").get(
                pk=game.pk
            )
            barrier.wait()
            _, result = sheet_sign(
                game=the_game,
                by=director,
                role=captain.role,
                person=captain.person,
                device="desk",
                pin=TEST_PIN,
                now=AFTER_GAME,
            )
            finalized.append(result is not None)
        except BaseException as exc:  # reported below: a thread's failure must fail the test
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=sign, args=(c,)) for c in captains]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    assert sorted(finalized) == [False, True]  # the second waited for the first, then completed the report
    assert GameSheet.objects.get(game=game).status == SheetStatus.FINAL
    assert SheetSignature.objects.filter(sheet__game=game).count() == 5
    game.refresh_from_db()
    assert game.status == GameStatus.FINAL and GoalRecord.objects.filter(game=game).count() == 3
    assert GameReportRequest.objects.filter(game=game).count() == 1
    assert GameConsequence.objects.filter(game=game).count() == 1
