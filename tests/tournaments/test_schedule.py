"""Schedule generation (2.1 C rinks, 5.4 D home first), game moves and the elimination bracket."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from tests.factories import RinkFactory
from tournaments import services
from tournaments.models import Game, GameStatus, Level, PhaseKind
from tournaments.selectors import bracket_for

from .conftest import AFTER, full_roster, goal_lines, make_pool

pytestmark = pytest.mark.django_db

DAYS = [datetime.date(2027, 7, 1), datetime.date(2027, 7, 2), datetime.date(2027, 7, 3)]
SLOTS = [datetime.time(10), datetime.time(12), datetime.time(14), datetime.time(16), datetime.time(18)]


def messages(exc, field):
    return " ".join(exc.value.message_dict[field])


def two_pools(championship, teams=4):
    return [make_pool(championship, teams, name=name) for name in ("A", "B")]


def test_it_schedules_every_pool_pairing_once_with_no_team_twice_at_the_same_time(championship, director):
    two_pools(championship)
    rinks = [RinkFactory(venue=championship.venue), RinkFactory(venue=championship.venue)]
    games = services.schedule_generate(championship=championship, days=DAYS, slot_times=SLOTS, rinks=rinks, by=director)
    assert len(games) == 12  # two pools of four: 6 games each
    stored = list(Game.objects.filter(championship=championship).select_related("home", "away"))
    assert len(stored) == 12
    pairs = {frozenset((g.home_id, g.away_id)) for g in stored}
    assert len(pairs) == 12
    busy = set()
    for game in stored:
        for team in (game.home_id, game.away_id):
            assert (team, game.start_at) not in busy
            busy.add((team, game.start_at))
        assert game.phase.kind == PhaseKind.ROUND_ROBIN
        assert game.pool is not None
    # Slot times are the venue's (Europe/Rome, UTC+2 in July), stored in UTC.
    first = min(g.start_at for g in stored)
    assert first == datetime.datetime(2027, 7, 1, 8, 0, tzinfo=datetime.UTC)


def test_it_refuses_a_rink_below_the_world_minimum_and_schedules_nothing_2_1_c(championship, director):
    two_pools(championship)
    small = RinkFactory(venue=championship.venue, length_m=Decimal("44.00"), width_m=Decimal("22.00"))
    with pytest.raises(ValidationError) as exc:
        services.schedule_generate(
            championship=championship,
            days=DAYS,
            slot_times=SLOTS,
            rinks=[RinkFactory(venue=championship.venue), small],
            by=director,
        )
    text = messages(exc, "rinks")
    assert "Rule 2.1 C" in text and str(small) in text
    assert not Game.objects.exists()


def test_the_same_rink_hosts_a_continental_championship(championship, director):
    championship.level = Level.CONTINENTAL
    championship.save()
    two_pools(championship)
    rink = RinkFactory(venue=championship.venue, length_m=Decimal("44.00"), width_m=Decimal("22.00"))
    games = services.schedule_generate(
        championship=championship, days=DAYS, slot_times=SLOTS, rinks=[rink], by=director
    )
    assert len(games) == 12


def test_it_refuses_boards_outside_101_122_cm_2_1_e(championship, director):
    two_pools(championship)
    low = RinkFactory(venue=championship.venue, board_height_m=Decimal("0.95"))
    with pytest.raises(ValidationError) as exc:
        services.schedule_generate(championship=championship, days=DAYS, slot_times=SLOTS, rinks=[low], by=director)
    assert "Rule 2.1 E" in messages(exc, "rinks")


def test_it_names_what_is_missing_when_the_games_do_not_fit(championship, director):
    two_pools(championship)
    with pytest.raises(ValidationError) as exc:
        services.schedule_generate(
            championship=championship,
            days=DAYS[:1],
            slot_times=SLOTS[:1],
            rinks=[RinkFactory(venue=championship.venue)],
            by=director,
        )
    assert exc.value.message_dict
    assert not Game.objects.exists()


def test_moving_a_game_to_a_rink_below_the_level_is_refused_2_1_c(championship, director):
    two_pools(championship)
    services.schedule_generate(
        championship=championship, days=DAYS, slot_times=SLOTS, rinks=[RinkFactory(venue=championship.venue)],
        by=director,
    )  # fmt: skip
    game = Game.objects.filter(championship=championship).first()
    small = RinkFactory(venue=championship.venue, length_m=Decimal("44.00"), width_m=Decimal("22.00"))
    with pytest.raises(ValidationError) as exc:
        services.game_move(game=game, rink=small, by=director)
    assert "Rule 2.1 C" in messages(exc, "rink")


def _play_pools(championship, director):
    """Home team wins every pool game by its seed difference: the seed order is the table's order."""
    for game in Game.objects.filter(championship=championship, pool__isnull=False).select_related("home", "away"):
        goal_lines(game, 3, 1)
        services.game_record_result(game=game, home_goals=3, away_goals=1, by=director, now=AFTER)


def test_the_bracket_fills_from_the_standings_and_results(championship, director):
    pools = two_pools(championship)
    services.schedule_generate(
        championship=championship, days=DAYS, slot_times=SLOTS, rinks=[RinkFactory(venue=championship.venue)],
        by=director,
    )  # fmt: skip
    games = services.bracket_generate(championship=championship, qualifiers=2, by=director)
    assert {g.bracket_slot for g in games} == {"SF1", "SF2", "F", "P3"}
    bracket = bracket_for(championship)
    assert all(g.home is None for g in bracket.games)  # no result yet: nothing guessed

    _play_pools(championship, director)
    services.bracket_fill(championship=championship, by=director)
    bracket = bracket_for(championship)
    semi = bracket.game("SF1")
    tables = {p.name: services_table(p) for p in pools}
    assert {semi.home, semi.away} <= set(tables["A"][:2]) | set(tables["B"][:2])
    sf1 = Game.objects.get(championship=championship, bracket_slot="SF1")
    assert sf1.home is not None and sf1.away is not None

    for entry in (sf1.home, sf1.away):
        full_roster(entry)
    # The semi-final gets its time, is played, and its score is its goal lines (5.5.11 B).
    sf1 = services.game_move(game=sf1, start_at=datetime.datetime(2027, 7, 9, 16, 0, tzinfo=datetime.UTC), by=director)
    goal_lines(sf1, 2, 1)
    services.game_record_result(game=sf1, home_goals=2, away_goals=1, by=director, now=AFTER)
    services.bracket_fill(championship=championship, by=director)
    final = Game.objects.get(championship=championship, bracket_slot="F")
    bronze = Game.objects.get(championship=championship, bracket_slot="P3")
    assert final.home == sf1.home and final.status == GameStatus.SCHEDULED
    assert bronze.home == sf1.away


def test_a_bracket_made_after_the_pools_are_played_starts_filled_1_3_b(championship, director):
    """bracket_generate puts in the teams the standings already decide, for the page and the API alike."""
    pools = two_pools(championship)
    services.schedule_generate(
        championship=championship, days=DAYS, slot_times=SLOTS, rinks=[RinkFactory(venue=championship.venue)],
        by=director,
    )  # fmt: skip
    _play_pools(championship, director)
    services.bracket_generate(championship=championship, qualifiers=2, by=director)
    tables = {p.name: services_table(p) for p in pools}
    for slot in ("SF1", "SF2"):
        semi = Game.objects.select_related("home", "away").get(championship=championship, bracket_slot=slot)
        assert {semi.home.name, semi.away.name} <= set(tables["A"][:2]) | set(tables["B"][:2])
    assert Game.objects.get(championship=championship, bracket_slot="F").home is None


def services_table(pool):
    from tournaments.selectors import standings_for_pool

    return standings_for_pool(pool).order


@pytest.mark.parametrize("pools", [2, 8])
def test_bracket_for_runs_a_constant_number_of_queries(championship, director, django_assert_num_queries, pools):
    for index in range(pools):
        make_pool(championship, 4, name=chr(ord("A") + index))
    services.bracket_generate(championship=championship, qualifiers=2, by=director)
    with django_assert_num_queries(5):  # elimination games; pools, members, pool games, shoot-outs
        bracket = bracket_for(championship)
    assert len(bracket.games) > 0
