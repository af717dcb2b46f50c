"""An official is at one game at a time (4.1): overlapping assignments are refused, naming the other game."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError

from games import services
from games.models import GameOfficial
from tests.factories import GameFactory, PersonFactory, PhaseFactory, client_for
from tournaments.models import PhaseKind
from tournaments.ruleset import GameRules

pytestmark = pytest.mark.django_db


def later(game, minutes, **kwargs):
    """A game of the same championship starting ``minutes`` after ``game``."""
    return GameFactory(
        championship=game.championship, start_at=game.start_at + datetime.timedelta(minutes=minutes), **kwargs
    )


def test_a_game_lasts_at_least_its_periods_and_half_time_and_overtime_when_played_to_a_winner():
    rules = GameRules()
    assert rules.expected_minutes(elimination=False) == 45  # 2 x 20 + 5 (1.2 A)
    assert rules.expected_minutes(elimination=True) == 58  # + 3 rest + 10 overtime (1.3 B)
    assert GameRules(period_minutes=15, halftime_minutes=3).expected_minutes(elimination=False) == 33


@pytest.mark.parametrize(("minutes", "ok"), [(44, False), (45, True), (-44, False), (-45, True)])
def test_a_referee_of_a_game_is_refused_for_another_that_overlaps_it_4_1(game, director, referee, minutes, ok):
    services.official_assign(game=game, person=referee, duty="referee", by=director)
    other = later(game, minutes)
    if ok:
        services.official_assign(game=other, person=referee, duty="referee", by=director)
        assert GameOfficial.objects.filter(person=referee).count() == 2
    else:
        with pytest.raises(ValidationError) as exc:
            services.official_assign(game=other, person=referee, duty="referee", by=director)
        message = exc.value.message_dict["person"][0]
        assert message.startswith("Rule 4.1") and f"game {game.number} " in message and "45 minutes" in message
        assert not GameOfficial.objects.filter(game=other).exists()


def test_any_duty_counts_a_timekeeper_cannot_referee_a_game_at_the_same_time(game, director):
    person = PersonFactory(is_referee=True, is_official=True)
    services.official_assign(game=game, person=person, duty="timekeeper", by=director)
    with pytest.raises(ValidationError) as exc:
        services.official_assign(game=later(game, 30), person=person, duty="referee", by=director)
    assert "already game timekeeper of game" in exc.value.message_dict["person"][0]


def test_an_elimination_game_runs_into_its_overtime(game, director, referee):
    """The elimination game takes 58 minutes at least: one starting 50 minutes after it overlaps."""
    playoff = GameFactory(
        championship=game.championship,
        phase=PhaseFactory(championship=game.championship, kind=PhaseKind.ELIMINATION, order=2),
        start_at=game.start_at + datetime.timedelta(hours=3),
    )
    services.official_assign(game=playoff, person=referee, duty="referee", by=director)
    with pytest.raises(ValidationError):
        services.official_assign(game=later(playoff, 50), person=referee, duty="referee", by=director)
    services.official_assign(game=later(playoff, 58), person=referee, duty="referee", by=director)


def test_games_of_another_championship_count_too(game, director, referee):
    services.official_assign(game=game, person=referee, duty="referee", by=director)
    elsewhere = GameFactory(start_at=game.start_at + datetime.timedelta(minutes=10))
    with pytest.raises(ValidationError) as exc:
        services.official_assign(game=elsewhere, person=referee, duty="referee", by=director)
    assert str(game.championship) in exc.value.message_dict["person"][0]


def test_the_api_answers_the_double_booking_with_a_400_naming_person(game, director, referee):
    services.official_assign(game=game, person=referee, duty="referee", by=director)
    other = later(game, 20)
    response = client_for(director).post(
        "/api/game-officials/", {"game": other.pk, "person": referee.pk, "duty": "referee"}, format="json"
    )
    assert response.status_code == 400
    assert "Rule 4.1" in response.json()["person"][0]
    assert not GameOfficial.objects.filter(game=other).exists()
