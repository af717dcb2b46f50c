"""Championship statistics through the selector (4.3, 4.6 note, 8.1 B-D; R-21, R-32, R-43)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.factories import RosterEntryFactory
from tournaments import services
from tournaments.models import DecidedIn, GoalkeeperRecord, GoalRecord, PenaltyRecord, Position
from tournaments.selectors import championship_statistics

from .conftest import AFTER, full_roster, make_pool, round_robin_games

pytestmark = pytest.mark.django_db


def messages(exc, field):
    return " ".join(exc.value.message_dict[field])


def lines(roster):
    skaters = [line.person for line in roster if line.position == Position.PLAYER]
    keepers = [line.person for line in roster if line.position == Position.GOALKEEPER]
    return skaters, keepers


@pytest.fixture
def played(championship, director):
    """Pool of three; A beats B 2-1 with summaries entered; C forfeits to A."""
    pool = make_pool(championship, 3)
    (a, b, c), games = round_robin_games(pool)
    rosters = {team.name: lines(full_roster(team, confirmed=True)) for team in (a, b, c)}
    game = games[(a.name, b.name)]
    a_skaters, a_keepers = rosters[a.name]
    b_skaters, b_keepers = rosters[b.name]
    services.goal_add(
        game=game, entry=a, scorer=a_skaters[1], assist=a_skaters[2], period=1, time_tenths=3000, by=director,
        now=AFTER,
    )  # fmt: skip
    services.goal_add(
        game=game, entry=a, scorer=a_skaters[1], period=2, time_tenths=600, power_play=True, by=director, now=AFTER
    )
    services.goal_add(game=game, entry=b, scorer=b_skaters[3], period=2, time_tenths=9000, by=director, now=AFTER)
    services.penalty_add(
        game=game, entry=b, person=b_skaters[0], infraction_code="tripping", minutes=2, period=2, time_tenths=500,
        gives_power_play=True, by=director, now=AFTER,
    )  # fmt: skip
    # The score is the goal lines entered above (5.5.11 B).
    services.game_record_result(game=game, home_goals=2, away_goals=1, by=director, now=AFTER)
    services.goalkeeper_record_set(
        game=game, entry=b, goalkeeper=b_keepers[0], shots_against=20, saves=18, goals_against=2, by=director,
        now=AFTER,
    )  # fmt: skip
    services.goalkeeper_record_set(
        game=game, entry=a, goalkeeper=a_keepers[0], shots_against=10, saves=9, goals_against=1, by=director,
        now=AFTER,
    )  # fmt: skip
    services.game_record_result(
        game=games[(a.name, c.name)], decided_in=DecidedIn.FORFEIT, forfeited_by=c, by=director, now=AFTER
    )
    return {"teams": (a, b, c), "rosters": rosters, "games": games}


def test_goals_assists_and_penalty_minutes_are_counted_per_player(played):
    a, b, _ = played["teams"]
    a_skaters, _ = played["rosters"][a.name]
    b_skaters, _ = played["rosters"][b.name]
    stats = championship_statistics(a.championship)
    by_person = {row.person: row for row in stats.players}
    scorer = by_person[a_skaters[1].pk]
    assert (scorer.goals, scorer.assists, scorer.points, scorer.power_play_goals) == (2, 0, 2, 1)
    assert by_person[a_skaters[2].pk].assists == 1
    assert by_person[b_skaters[0].pk].penalty_minutes == 2
    assert stats.players[0].person == a_skaters[1].pk  # leaders first
    assert stats.people[a_skaters[1].pk] == a_skaters[1]


def test_a_forfeit_gives_the_winners_captain_one_goal_and_no_goalkeeper_line_8_1_b(played):
    a, _, _ = played["teams"]
    captain = played["rosters"][a.name][0][0]  # the first skater is captain
    stats = championship_statistics(a.championship)
    row = next(r for r in stats.players if r.person == captain.pk)
    assert (row.goals, row.assists) == (1, 0)
    # A's goalkeeper has only the game against B.
    keeper = next(k for k in stats.goalkeepers if k.team == a.name)
    assert (keeper.games, keeper.shots_against) == (1, 10)


def test_save_percentage_is_saves_over_shots_that_would_have_entered_4_6(played):
    _, b, _ = played["teams"]
    stats = championship_statistics(b.championship)
    keeper = next(k for k in stats.goalkeepers if k.team == b.name)
    assert keeper.save_percentage == pytest.approx(90.0)


def test_power_play_and_penalty_kill_percentages(played):
    a, b, _ = played["teams"]
    stats = championship_statistics(a.championship)
    teams = {t.team: t for t in stats.teams}
    assert teams[a.name].power_play_percentage == pytest.approx(100.0)
    assert teams[b.name].penalty_kill_percentage == pytest.approx(0.0)


def test_a_goalkeeper_line_must_add_up_4_6(played, director):
    a, b, _ = played["teams"]
    game = played["games"][(a.name, b.name)]
    keeper = played["rosters"][b.name][1][1]
    with pytest.raises(ValidationError) as exc:
        services.goalkeeper_record_set(
            game=game, entry=b, goalkeeper=keeper, shots_against=10, saves=9, goals_against=2, by=director, now=AFTER
        )
    assert "Rule 4.6" in messages(exc, "shots_against")


def test_an_own_goal_has_no_assist_5_5_11_d(played, director):
    a, b, c = played["teams"]
    game = played["games"][(b.name, c.name)]  # not recorded yet
    b_skaters, _ = played["rosters"][b.name]
    with pytest.raises(ValidationError) as exc:
        services.goal_add(
            game=game, entry=b, scorer=b_skaters[3], assist=b_skaters[4], own_goal=True, period=1, time_tenths=10,
            by=director, now=AFTER,
        )  # fmt: skip
    assert "Rule 5.5.11 D" in messages(exc, "assist")


def test_a_scorer_must_be_on_the_teams_roster(played, director):
    a, b, c = played["teams"]
    game = played["games"][(b.name, c.name)]  # not recorded yet
    a_skaters, _ = played["rosters"][a.name]
    with pytest.raises(ValidationError) as exc:
        services.goal_add(game=game, entry=b, scorer=a_skaters[0], period=1, time_tenths=10, by=director, now=AFTER)
    assert "roster" in messages(exc, "scorer")


def test_game_time_beyond_the_period_is_refused_r_10(played, director):
    a, b, c = played["teams"]
    game = played["games"][(b.name, c.name)]  # not recorded yet
    b_skaters, _ = played["rosters"][b.name]
    with pytest.raises(ValidationError) as exc:
        services.goal_add(game=game, entry=b, scorer=b_skaters[0], period=1, time_tenths=12001, by=director, now=AFTER)
    assert "R-10" in messages(exc, "time_tenths")
    with pytest.raises(ValidationError):
        services.goal_add(game=game, entry=b, scorer=b_skaters[0], period=3, time_tenths=10, by=director, now=AFTER)


def test_a_disqualified_teams_statistics_leave_the_tables_8_1_d(played, director):
    a, b, c = played["teams"]
    services.game_record_result(
        game=played["games"][(b.name, c.name)], decided_in=DecidedIn.FORFEIT, forfeited_by=c, by=director, now=AFTER
    )
    stats = championship_statistics(a.championship)
    # C is out: A's and B's forfeit wins against C are erased; the A-B game stands.
    captain = played["rosters"][a.name][0][0]
    row = next(r for r in stats.players if r.person == captain.pk)
    assert (row.games, row.goals) == (1, 0)
    assert {t.team for t in stats.teams} == {a.name, b.name}
    scorer = next(r for r in stats.players if r.person == played["rosters"][a.name][0][1].pk)
    assert scorer.goals == 2


def _fill(championship, director, *, pools):
    for index in range(pools):
        pool = make_pool(championship, 4, name=chr(ord("A") + index))
        entries, games = round_robin_games(pool)
        people = {}
        for entry in entries:
            skater = RosterEntryFactory(entry=entry, number="10", captain=True).person
            keeper = RosterEntryFactory(entry=entry, number="1", position=Position.GOALKEEPER).person
            people[entry.pk] = (skater, keeper)
        for game in games.values():
            GoalRecord.objects.create(
                game=game, entry=game.home, scorer=people[game.home_id][0], period=1, time_tenths=1
            )
            services.game_record_result(game=game, home_goals=1, away_goals=0, by=director, now=AFTER)
            PenaltyRecord.objects.create(
                game=game, entry=game.away, person=people[game.away_id][0], infraction_code="tripping", minutes=2,
                period=1, time_tenths=2,
            )  # fmt: skip
            GoalkeeperRecord.objects.create(
                game=game, entry=game.away, goalkeeper=people[game.away_id][1], shots_against=5, saves=4,
                goals_against=1,
            )  # fmt: skip
            listed(game, game.home, people[game.home_id])  # the home teams gave line-ups, the visitors none


@pytest.mark.parametrize("pools", [1, 8])  # 4 teams, then 32
def test_championship_statistics_run_a_constant_number_of_queries(
    championship, director, django_assert_num_queries, pools
):
    _fill(championship, director, pools=pools)
    # entries, games, roster, line-ups, goals, penalties, goalkeeper lines, people
    with django_assert_num_queries(8):
        stats = championship_statistics(championship)
    assert len(stats.teams) == 4 * pools
    assert len(stats.goalkeepers) == 3 * pools  # the first seed is at home in all its games


def test_the_forfeit_goal_stays_with_the_captain_of_the_day_8_1_b(played, director):
    a, _, _ = played["teams"]
    captain = played["rosters"][a.name][0][0]
    line = a.roster.get(person=captain)
    services.roster_update(roster_entry=line, captain=False, by=director)
    stats = championship_statistics(a.championship)
    row = next(r for r in stats.players if r.person == captain.pk)
    assert row.goals == 1


def listed(game, entry, people):
    """The team's line-up for the game, as the games app stores it (5.1 A): these people, the first a skater."""
    from games.models import Lineup, LineupPlayer

    lineup = Lineup.objects.create(game=game, entry=entry, submitted_at=AFTER)
    for n, person in enumerate(people):
        position = Position.PLAYER if n == 0 else Position.GOALKEEPER if person.is_goalkeeper else Position.PLAYER
        LineupPlayer.objects.create(lineup=lineup, person=person, number=str(n + 1), position=position)
    return lineup


def test_a_game_counts_for_the_players_on_its_line_up_not_the_whole_roster_5_1_a(played):
    a, b, _ = played["teams"]
    a_skaters, a_keepers = played["rosters"][a.name]
    b_skaters, b_keepers = played["rosters"][b.name]
    game = played["games"][(a.name, b.name)]
    listed(game, a, [a_skaters[1], a_skaters[2], a_keepers[0]])
    listed(game, b, b_skaters[:4] + b_keepers[:1])
    stats = championship_statistics(a.championship)
    games = {row.person: row.games for row in stats.players}
    assert games[a_skaters[1].pk] == 2  # listed against B, and A's forfeit win over C (no line-up: the roster)
    assert games[a_skaters[3].pk] == 1  # not listed against B: only the forfeit counts
    assert games[b_skaters[0].pk] == 1 and games.get(b_skaters[5].pk, 0) == 0  # b_skaters[5] was never listed
    assert stats.roster_games == 2  # A and C in their forfeit game


def test_a_team_without_a_line_up_counts_its_roster_and_the_leaders_page_says_so(played, client):
    a, _, _ = played["teams"]
    stats = championship_statistics(a.championship)
    assert stats.roster_games == 4  # two final games, no line-up given
    a_skaters, _ = played["rosters"][a.name]
    assert {row.person: row.games for row in stats.players}[a_skaters[5].pk] == 2
    page = client.get(reverse("tournaments:leaders", args=[a.championship.pk]))
    assert page.status_code == 200
    assert "4 team games without a line-up" in page.content.decode()
