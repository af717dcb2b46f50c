"""The discipline module's hand-over point: the automatic consequences of final games, received once each."""

from __future__ import annotations

import datetime

import pytest

from discipline.models import GameConsequence
from discipline.services import Consequence, game_consequences, receive_game_consequences
from tests.factories import GameFactory, PersonFactory

pytestmark = pytest.mark.django_db

NOW = datetime.datetime(2027, 7, 1, 10, 0, tzinfo=datetime.UTC)
LATER = NOW + datetime.timedelta(hours=1)


def consequence(game, person, penalty_id="p1", kind="match", article="6.1.6"):
    return Consequence(
        penalty_id=penalty_id,
        entry_id=game.home_id,
        person_id=person.pk,
        number=7,
        kind=kind,
        article=article,
        infraction="attempt_to_injure",
        period=1,
        time_tenths=3000,
    )


def test_consequences_are_received_once_withdrawn_and_received_again():
    game = GameFactory()
    player = PersonFactory(federation=game.home.federation)
    match = consequence(game, player)
    first = receive_game_consequences(game=game, consequences=[match], now=NOW)
    assert [c.penalty_id for c in first.received] == ["p1"] and first.changed
    again = receive_game_consequences(game=game, consequences=[match], now=LATER)
    assert not again.changed and [c.penalty_id for c in again.kept] == ["p1"]
    assert GameConsequence.objects.get().received_at == NOW  # kept as first received
    withdrawn = receive_game_consequences(game=game, consequences=[], now=LATER)
    assert [c.penalty_id for c in withdrawn.withdrawn] == ["p1"] and game_consequences(game) == []
    back = receive_game_consequences(game=game, consequences=[match], now=LATER)
    assert [c.penalty_id for c in back.received] == ["p1"]
    stored = GameConsequence.objects.get()
    assert (stored.withdrawn_at, stored.received_at, stored.person, stored.kind) == (None, LATER, player, "match")


def test_a_changed_consequence_is_received_again_with_what_changed():
    game = GameFactory()
    player = PersonFactory(federation=game.home.federation)
    receive_game_consequences(game=game, consequences=[consequence(game, player)], now=NOW)
    changed = consequence(game, player, kind="game_misconduct", article="6.1.5")
    receipt = receive_game_consequences(game=game, consequences=[changed], now=LATER)
    assert [(c.kind, c.article) for c in receipt.received] == [("game_misconduct", "6.1.5")]
    assert GameConsequence.objects.count() == 1
