import datetime

import pytest

from tests.factories import (
    ChampionshipFactory,
    PassportFactory,
    PersonFactory,
    RosterEntryFactory,
    SuperuserFactory,
    TeamEntryFactory,
)
from tournaments.models import Position

# Before the championship (1-10 July 2027) and before its entries close (1 May 2027).
BEFORE_CLOSING = datetime.datetime(2027, 3, 1, 9, 0, tzinfo=datetime.UTC)
BEFORE_START = datetime.datetime(2027, 6, 20, 9, 0, tzinfo=datetime.UTC)
DURING = datetime.datetime(2027, 7, 2, 12, 0, tzinfo=datetime.UTC)


def eligible_person(federation, **kwargs):
    """A Senior Men player of the federation's country with a valid passport (1.1 B, F)."""
    person = PersonFactory(federation=federation, **kwargs)
    PassportFactory(person=person)
    return person


def full_roster(entry, *, skaters=6, goalkeepers=2, confirmed=False):
    """Build a roster within R-04: the first skater is captain, number 1 upwards."""
    lines = []
    for i in range(skaters):
        lines.append(
            RosterEntryFactory(
                entry=entry,
                person=eligible_person(entry.federation),
                number=str(i + 10),
                position=Position.PLAYER,
                captain=i == 0,
                confirmed=confirmed,
            )
        )
    for i in range(goalkeepers):
        lines.append(
            RosterEntryFactory(
                entry=entry,
                person=eligible_person(entry.federation, is_goalkeeper=True),
                number=str(i + 1),
                position=Position.GOALKEEPER,
                confirmed=confirmed,
            )
        )
    return lines


@pytest.fixture
def director(db):
    return SuperuserFactory()


@pytest.fixture
def championship(db):
    return ChampionshipFactory()


@pytest.fixture
def entry(championship):
    return TeamEntryFactory(championship=championship)
