"""The end of the game: signatures (4.2 O, 4.3 A), the finalize pipeline into results, standings, statistics,
discipline and the report, and the audited amendment of a final sheet."""

from __future__ import annotations

import pytest

from games.models import GameSheet, SheetStatus
from tests.factories import international_staff
from tournaments.models import (
    GoalkeeperRecord,
    GoalRecord,
    PenaltyRecord,
    RosterEntry,
)

from .endgame_helpers import played_game, post_log, sign_all, whole_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return international_staff()


@pytest.fixture
def crew(director):
    return played_game(director)


def person_of(game, side, number):
    entry_ = game.home if side == "home" else game.away
    return RosterEntry.objects.get(entry=entry_, number=str(number)).person


def test_a_whole_game_posted_and_signed_becomes_the_result_summary_and_statistics(crew):
    game, scorer = crew
    post_log(game, scorer, whole_game())
    result = sign_all(game, scorer)
    assert result is not None and result.changed
    game.refresh_from_db()
    assert (game.status, game.home_goals, game.away_goals, game.decided_in) == ("final", 2, 1, "regulation")
    assert GameSheet.objects.get(game=game).status == SheetStatus.FINAL
    goals = list(GoalRecord.objects.filter(game=game).order_by("period", "time_tenths"))
    assert [(g.scorer, g.assist, g.period, g.time_tenths, g.power_play) for g in goals] == [
        (person_of(game, "home", 8), person_of(game, "home", 9), 1, 3000, False),
        (person_of(game, "home", 10), None, 1, 4200, True),
        (person_of(game, "away", 15), None, 2, 1800, False),
    ]
    penalties = sorted(
        PenaltyRecord.objects.filter(game=game).values_list(
            "person__id", "infraction_code", "minutes", "gives_power_play"
        )
    )
    assert penalties == sorted(
        [
            (person_of(game, "away", 14).pk, "tripping", 2, True),
            (person_of(game, "away", 16).pk, "slashing_major", 5, True),
            (person_of(game, "away", 16).pk, "slashing_major", 10, False),  # 6.1.3 B: its game misconduct
        ]
    )
    keepers = {
        (r.goalkeeper_id, r.shots_against, r.saves, r.goals_against) for r in GoalkeeperRecord.objects.filter(game=game)
    }
    # Home 1 faced away's goal and shot (1 save); away 31 faced two goals and home's shot (1 save).
    assert keepers == {(person_of(game, "home", 1).pk, 2, 1, 1), (person_of(game, "away", 31).pk, 3, 1, 2)}
