"""Results, forfeits (8.1 B-D; R-41, R-43), shoot-outs (9.3 G) and the standings selector."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from tests.factories import GameFactory, PhaseFactory, TeamEntryFactory
from tournaments import services
from tournaments.models import (
    DecidedIn,
    Disqualification,
    EntryStatus,
    GameStatus,
    GoalkeeperRecord,
    GoalRecord,
    PhaseKind,
    Position,
    StandingsShootout,
)
from tournaments.selectors import championship_standings, standings_for_pool

from .conftest import AFTER, full_roster, goal_lines, make_pool, round_robin_games

pytestmark = pytest.mark.django_db


def messages(exc, field):
    return " ".join(exc.value.message_dict[field])


def result(game, director, home, away, **kwargs):
    """Record ``home``-``away`` after the games, with the summary's goal lines it adds up to (5.5.11 B)."""
    goal_lines(game, home, away)
    return services.game_record_result(game=game, home_goals=home, away_goals=away, by=director, now=AFTER, **kwargs)


def forfeit(game, director, team):
    return services.game_record_result(
        game=game, decided_in=DecidedIn.FORFEIT, forfeited_by=team, by=director, now=AFTER
    )


def test_a_forfeit_is_recorded_1_0_with_the_goal_to_the_winners_captain_and_no_assist_8_1_b(championship, director):
    pool = make_pool(championship, 2)
    (home, away), games = round_robin_games(pool)
    roster = full_roster(home)
    captain = next(line.person for line in roster if line.captain)
    game = forfeit(games[(home.name, away.name)], director, away)
    assert (game.home_goals, game.away_goals, game.status) == (1, 0, GameStatus.FINAL)
    goal = GoalRecord.objects.get(game=game)
    assert goal.scorer == captain and goal.entry == home
    assert goal.assist is None and goal.forfeit_award


def test_a_forfeit_credits_no_goalkeeper_statistics_8_1_b(championship, director):
    pool = make_pool(championship, 2)
    (home, away), games = round_robin_games(pool)
    full_roster(home)
    roster = full_roster(away)
    goalkeeper = next(line.person for line in roster if line.position == Position.GOALKEEPER)
    game = forfeit(games[(home.name, away.name)], director, away)
    with pytest.raises(ValidationError) as exc:
        services.goalkeeper_record_set(
            game=game, entry=away, goalkeeper=goalkeeper, shots_against=1, saves=0, goals_against=1, by=director
        )
    assert "Rule 8.1 B" in messages(exc, "game")
    assert not GoalkeeperRecord.objects.exists()


def test_a_forfeit_is_refused_when_the_winner_has_no_captain(championship, director):
    pool = make_pool(championship, 2)
    (home, away), games = round_robin_games(pool)
    with pytest.raises(ValidationError) as exc:
        forfeit(games[(home.name, away.name)], director, away)
    assert "Rule 8.1 B" in messages(exc, "forfeited_by")
    games[(home.name, away.name)].refresh_from_db()
    assert games[(home.name, away.name)].status == GameStatus.SCHEDULED


def test_one_forfeit_in_the_round_robin_does_not_disqualify_and_a_second_does_8_1_c(championship, director):
    pool = make_pool(championship, 3)
    (a, b, c), games = round_robin_games(pool)
    full_roster(a)
    full_roster(b)
    forfeit(games[(a.name, c.name)], director, c)
    c.refresh_from_db()
    assert c.status == EntryStatus.CONFIRMED
    forfeit(games[(b.name, c.name)], director, c)
    c.refresh_from_db()
    assert c.status == EntryStatus.DISQUALIFIED
    disqualification = Disqualification.objects.get(entry=c)
    assert "8.1 C" in disqualification.reason
    assert disqualification.game == games[(b.name, c.name)]


def test_a_single_forfeit_after_the_round_robin_disqualifies_8_1_c(championship, director):
    a, b = TeamEntryFactory(championship=championship), TeamEntryFactory(championship=championship)
    full_roster(a)
    semi = GameFactory(
        championship=championship,
        phase=PhaseFactory(championship=championship, kind=PhaseKind.ELIMINATION, name="Semi-finals", order=2),
        home=a,
        away=b,
        bracket_slot="SF1",
    )
    forfeit(semi, director, b)
    b.refresh_from_db()
    assert b.status == EntryStatus.DISQUALIFIED


def test_a_disqualified_teams_games_leave_the_standings_kept_and_marked_8_1_d(championship, director):
    pool = make_pool(championship, 4)
    (a, b, c, d), games = round_robin_games(pool)
    for team in (a, b, c):
        full_roster(team)
    result(games[(a.name, b.name)], director, 3, 0)
    result(games[(a.name, c.name)], director, 1, 1)
    result(games[(b.name, c.name)], director, 2, 1)
    result(games[(c.name, d.name)], director, 0, 5)  # D beat C before it was removed
    forfeit(games[(a.name, d.name)], director, d)
    forfeit(games[(b.name, d.name)], director, d)

    standings = standings_for_pool(pool)
    assert standings.order == (a.name, b.name, c.name, d.name)
    row_d = standings.row(d.name)
    assert row_d.disqualified and row_d.points == 0 and row_d.position == 4
    # 8.1 D 2): C's loss to D is erased as though the game had not been played.
    row_c = standings.row(c.name)
    assert (row_c.played, row_c.goals_against, row_c.points) == (2, 3, 1)
    row_a = standings.row(a.name)
    assert (row_a.played, row_a.points) == (2, 3)
    # The records stay.
    assert games[(c.name, d.name)].__class__.objects.filter(status=GameStatus.FINAL).count() == 6


def test_forfeit_points_are_minus_two_in_the_table_r_41(championship, director):
    pool = make_pool(championship, 3)
    (a, b, c), games = round_robin_games(pool)
    full_roster(a)
    forfeit(games[(a.name, c.name)], director, c)
    row = standings_for_pool(pool).row(c.name)
    assert (row.forfeits, row.points, row.goals_for, row.goals_against) == (1, -2, 0, 1)


def test_a_round_robin_game_stays_tied_and_takes_no_overtime_1_3_d(championship, director):
    pool = make_pool(championship, 2)
    (a, b), games = round_robin_games(pool)
    with pytest.raises(ValidationError) as exc:
        result(games[(a.name, b.name)], director, 3, 2, decided_in=DecidedIn.OVERTIME)
    assert "Rule 1.3 D" in messages(exc, "decided_in")
    game = result(games[(a.name, b.name)], director, 2, 2)
    assert game.is_final


def test_an_elimination_game_cannot_end_tied_1_3_b(championship, director):
    a, b = TeamEntryFactory(championship=championship), TeamEntryFactory(championship=championship)
    final = GameFactory(
        championship=championship,
        phase=PhaseFactory(championship=championship, kind=PhaseKind.ELIMINATION, name="Final", order=3),
        home=a,
        away=b,
        bracket_slot="F",
    )
    with pytest.raises(ValidationError) as exc:
        result(final, director, 2, 2)
    assert "Rule 1.3 B" in messages(exc, "decided_in")
    with pytest.raises(ValidationError):
        result(final, director, 4, 2, decided_in=DecidedIn.OVERTIME)
    with pytest.raises(ValidationError):
        result(final, director, 2, 2, decided_in=DecidedIn.SHOOTOUT)
    game = result(final, director, 2, 2, decided_in=DecidedIn.SHOOTOUT, shootout_home_goals=2, shootout_away_goals=1)
    assert game.is_final


def test_a_final_game_cannot_be_recorded_twice(championship, director):
    pool = make_pool(championship, 2)
    (a, b), games = round_robin_games(pool)
    result(games[(a.name, b.name)], director, 1, 0)
    with pytest.raises(ValidationError):
        result(games[(a.name, b.name)], director, 2, 0)


def _three_way_tie(championship, director):
    """Three teams, every game 2-2: 9.3 C-F cannot separate them."""
    pool = make_pool(championship, 3)
    (a, b, c), games = round_robin_games(pool)
    for game in games.values():
        result(game, director, 2, 2)
    return pool, (a, b, c)


def test_a_table_that_only_a_shootout_can_break_says_so_and_accepts_the_result_9_3_g(championship, director):
    pool, (a, b, c) = _three_way_tie(championship, director)
    standings = standings_for_pool(pool)
    assert {frozenset(group) for group in standings.unresolved} == {frozenset({a.name, b.name, c.name})}
    assert all(row.needs_shootout for row in standings.rows)

    with pytest.raises(ValidationError) as exc:
        services.standings_shootout_enter(pool=pool, ordered_entries=[a, b], by=director)
    assert "Rule 9.3 G" in messages(exc, "ordered_entries")
    assert not StandingsShootout.objects.exists()

    services.standings_shootout_enter(pool=pool, ordered_entries=[c, a, b], by=director)
    standings = standings_for_pool(pool)
    assert standings.complete
    assert standings.order == (c.name, a.name, b.name)
    assert "9.3 G" in standings.row(c.name).decided_by


def _championship_with_pools(championship, director, *, pools: int, teams: int):
    for index in range(pools):
        pool = make_pool(championship, teams, name=chr(ord("A") + index))
        _, games = round_robin_games(pool)
        for n, game in enumerate(games.values()):
            result(game, director, n % 4, (n + 1) % 3)
    return championship


@pytest.mark.parametrize(("pools", "teams"), [(1, 4), (8, 4)])
def test_championship_standings_run_a_constant_number_of_queries(
    championship, director, django_assert_num_queries, pools, teams
):
    _championship_with_pools(championship, director, pools=pools, teams=teams)
    with django_assert_num_queries(4):  # pools, members, games, shoot-outs
        tables = championship_standings(championship)
    assert len(tables) == pools
    assert all(len(t.standings.rows) == teams for t in tables)


@pytest.mark.parametrize("teams", [4, 8])
def test_standings_for_pool_runs_a_constant_number_of_queries(championship, director, django_assert_num_queries, teams):
    _championship_with_pools(championship, director, pools=1, teams=teams)
    pool = championship.pools.select_related("championship__venue").get()
    with django_assert_num_queries(3):  # members, games, shoot-outs
        standings = standings_for_pool(pool)
    assert len(standings.rows) == teams


def test_moving_a_game_refuses_a_team_playing_twice_at_the_same_time(championship, director):
    pool = make_pool(championship, 3)
    (a, b, c), games = round_robin_games(pool)
    first, second = games[(a.name, b.name)], games[(a.name, c.name)]
    with pytest.raises(ValidationError) as exc:
        services.game_move(game=second, start_at=first.start_at + datetime.timedelta(minutes=30), by=director)
    assert "also plays" in messages(exc, "start_at")
    moved = services.game_move(game=second, start_at=first.start_at + datetime.timedelta(hours=8), by=director)
    assert moved.start_at == first.start_at + datetime.timedelta(hours=8)


def test_a_disqualified_team_plays_no_more_games_8_1_c(championship, director):
    pool = make_pool(championship, 4)
    (a, b, c, d), games = round_robin_games(pool)
    full_roster(a)
    full_roster(b)
    forfeit(games[(a.name, d.name)], director, d)
    forfeit(games[(b.name, d.name)], director, d)
    with pytest.raises(ValidationError) as exc:
        result(games[(c.name, d.name)], director, 1, 0)
    assert "Rule 8.1 C" in messages(exc, "away")


def test_the_iihf_preset_lets_a_round_robin_game_go_to_overtime(championship, director):
    championship.standings_preset = "iihf"
    championship.save()
    pool = make_pool(championship, 2)
    (a, b), games = round_robin_games(pool)
    result(games[(a.name, b.name)], director, 3, 2, decided_in=DecidedIn.OVERTIME)
    row = standings_for_pool(pool).row(a.name)
    assert row.points == 2  # IIHF: an overtime win is worth 2


def test_the_result_is_recorded_in_the_audit_trail_with_who_entered_it(championship, director):
    pool = make_pool(championship, 2)
    (a, b), games = round_robin_games(pool)
    game = result(games[(a.name, b.name)], director, 1, 0)
    latest = game.history.latest()
    assert latest.history_user == director and latest.status == GameStatus.FINAL


def test_a_rink_holds_one_game_at_a_time(championship, director):
    from tests.factories import RinkFactory

    rink = RinkFactory(venue=championship.venue)
    pool = make_pool(championship, 4)
    (a, b, c, d), games = round_robin_games(pool)
    first, other = games[(a.name, b.name)], games[(c.name, d.name)]
    services.game_move(game=first, rink=rink, by=director)
    with pytest.raises(ValidationError) as exc:
        services.game_move(game=other, start_at=first.start_at, rink=rink, by=director)
    assert "hosts game" in messages(exc, "start_at")


def test_a_shootout_win_is_recorded_beside_the_tied_score_r_40(championship, director):
    a, b = TeamEntryFactory(championship=championship), TeamEntryFactory(championship=championship)
    final = GameFactory(
        championship=championship,
        phase=PhaseFactory(championship=championship, kind=PhaseKind.ELIMINATION, name="Final", order=3),
        home=a,
        away=b,
        bracket_slot="F",
    )
    game = result(final, director, 1, 1, decided_in=DecidedIn.SHOOTOUT, shootout_home_goals=1, shootout_away_goals=2)
    assert (game.home_goals, game.away_goals) == (1, 1)
    assert game.shootout_winner == b
