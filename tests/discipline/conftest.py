"""Fixtures of the discipline tests: a final game with an offence, and the director who records results."""

from __future__ import annotations

import pytest

from tests.discipline.test_suspensions import make_final
from tests.factories import GameFactory, RosterEntryFactory, international_staff


@pytest.fixture
def director():
    return international_staff()


@pytest.fixture
def offence(director):
    """Game 1 final, home #7 given a major and its game misconduct (6.1.3 B) in it."""
    game = GameFactory()
    player = RosterEntryFactory(entry=game.home, number="7").person
    make_final(game, director)
    return game, player
