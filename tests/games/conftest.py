import datetime

import pytest

from accounts.models import Role
from tests.factories import (
    GameFactory,
    PersonFactory,
    RosterEntryFactory,
    international_staff,
    with_role,
)
from tournaments.models import OfficialRole, Position, TeamOfficial

# The game is at 10:00 in Rome on 1 July 2027 (08:00 UTC).
BEFORE = datetime.datetime(2027, 6, 30, 9, 0, tzinfo=datetime.UTC)
AFTER = datetime.datetime(2027, 7, 1, 8, 30, tzinfo=datetime.UTC)


def roster(entry, *, skaters=16, goalkeepers=3, confirmed=True):
    """Registered lines of the entry: skaters numbered 10 up, goalkeepers 1 up (more than a line-up may hold)."""
    lines = [
        RosterEntryFactory(entry=entry, number=str(10 + i), position=Position.PLAYER, confirmed=confirmed)
        for i in range(skaters)
    ]
    lines += [
        RosterEntryFactory(
            entry=entry,
            person=PersonFactory(federation=entry.federation, is_goalkeeper=True),
            number=str(1 + i),
            position=Position.GOALKEEPER,
            confirmed=confirmed,
        )
        for i in range(goalkeepers)
    ]
    return lines


def team_officials(entry, count=6):
    return [
        TeamOfficial.objects.create(
            entry=entry,
            person=PersonFactory(federation=entry.federation, is_team_official=True),
            role=OfficialRole.COACH,
        )
        for _ in range(count)
    ]


@pytest.fixture
def game(db):
    return GameFactory()


@pytest.fixture
def director(db):
    return international_staff()


@pytest.fixture
def a_sheet_game(db):
    """A game whose rosters match the engine's generated games (tests/games/sheet_helpers.sheet_game)."""
    from .sheet_helpers import sheet_game

    return sheet_game()


@pytest.fixture
def home_roster(game):
    return roster(game.home)


@pytest.fixture
def away_roster(game):
    return roster(game.away)


@pytest.fixture
def manager(game):
    user = with_role(Role.TEAM_MANAGER, game.home.federation)
    game.home.managers.add(user)
    return user


@pytest.fixture
def referee(db):
    return PersonFactory(is_referee=True)


def skaters_of(lines):
    return [line for line in lines if line.position == Position.PLAYER]


def goalkeepers_of(lines):
    return [line for line in lines if line.position == Position.GOALKEEPER]
