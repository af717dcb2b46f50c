"""Public championship pages: overview, schedule, results, standings, bracket, leaders."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from tests.factories import ChampionshipFactory, RinkFactory, SuperuserFactory
from tournaments import selectors, services
from tournaments.models import (
    DecidedIn,
    Game,
    GameStatus,
    GoalkeeperRecord,
    GoalRecord,
    PenaltyRecord,
)
from tournaments.selectors import championship_statistics, standings_for_pool
from tournaments.versions import championship_changed

from .conftest import full_roster, make_pool, round_robin_games

pytestmark = pytest.mark.django_db


def finish(game, home_goals, away_goals, decided_in=DecidedIn.REGULATION, **extra):
    """Record a final score straight on the row (the services are tested on their own)."""
    Game.objects.filter(pk=game.pk).update(
        status=GameStatus.FINAL, home_goals=home_goals, away_goals=away_goals, decided_in=decided_in, **extra
    )
    game.refresh_from_db()
    return game


def build_championship(teams: int, *, with_summaries: bool = True):
    """A championship of ``teams`` teams in pools of four, every round-robin game played.

    The better seed (named first, at home) always wins 3-1, so every table is
    decided on points; each game has its goals, a penalty and both goalkeepers' lines.
    """
    championship = ChampionshipFactory()
    RinkFactory(venue=championship.venue, name="Main rink")
    pools = []
    for index in range(teams // 4):
        pool = make_pool(championship, 4, name=chr(ord("A") + index))
        entries, games = round_robin_games(pool)
        rosters = {e.pk: full_roster(e, skaters=3, goalkeepers=1) for e in entries}
        for game in games.values():
            finish(game, 3, 1)
            if not with_summaries:
                continue
            home, away = rosters[game.home_id], rosters[game.away_id]
            for scorer, assist in ((home[0], home[1]), (home[1], home[2]), (home[2], None)):
                GoalRecord.objects.create(
                    game=game, entry=game.home, scorer=scorer.person, assist=assist and assist.person,
                    period=1, time_tenths=600,
                )  # fmt: skip
            GoalRecord.objects.create(game=game, entry=game.away, scorer=away[0].person, period=2, time_tenths=1200)
            PenaltyRecord.objects.create(
                game=game, entry=game.away, person=away[1].person, infraction_code="tripping", minutes=2,
                gives_power_play=True, period=1, time_tenths=500,
            )  # fmt: skip
            for entry, roster, against in ((game.home, home, 1), (game.away, away, 3)):
                GoalkeeperRecord.objects.create(
                    game=game, entry=entry, goalkeeper=roster[-1].person, shots_against=against + 10, saves=10,
                    goals_against=against,
                )  # fmt: skip
        pools.append(pool)
    return championship, pools


# --- list and overview ---------------------------------------------------------------------------------------------


def test_anyone_reads_the_championship_list(client):
    championship = ChampionshipFactory(name="World Championship Roccaraso")
    response = client.get(reverse("tournaments:championship-list"))
    assert response.status_code == 200
    assert "World Championship Roccaraso" in response.text
    assert reverse("tournaments:championship-detail", args=[championship.pk]) in response.text


def test_the_overview_publishes_rink_dimensions_and_a_rink_below_the_level(client):
    """2.1 F: dimensions are published; 2.1 C: a 40 x 20 m rink is below the world minimum."""
    championship = ChampionshipFactory()
    RinkFactory(venue=championship.venue, name="Main rink")
    RinkFactory(venue=championship.venue, name="Practice rink", length_m=Decimal(40), width_m=Decimal(20))
    response = client.get(reverse("tournaments:championship-detail", args=[championship.pk]))
    assert response.status_code == 200
    text = response.text
    assert "50.00 × 25.00 m" in text
    assert "40.00 × 20.00 m" in text
    assert "smaller than 50 × 25 m" in text
    practice = services.rink_violations(championship.venue.rinks.get(name="Practice rink"), level=championship.level)
    assert practice, "the practice rink must fail 2.1 C for a world championship"
    assert all(v.message in text for v in practice)
    assert "Meets the level" in text


def test_an_unknown_championship_is_a_404(client):
    assert client.get(reverse("tournaments:championship-detail", args=[999999])).status_code == 404


# --- schedule and results ------------------------------------------------------------------------------------------


def test_the_schedule_shows_venue_times_and_names_the_home_team_first(client):
    """5.4 D: the home team is the first named; times are the venue's (Europe/Rome, UTC+2 in July)."""
    championship = ChampionshipFactory()
    pool = make_pool(championship, 2)
    (home, away), games = round_robin_games(pool)
    game = next(iter(games.values()))
    Game.objects.filter(pk=game.pk).update(start_at=datetime.datetime(2027, 7, 1, 16, 30, tzinfo=datetime.UTC))
    response = client.get(reverse("tournaments:schedule", args=[championship.pk]))
    text = response.text
    assert ">18:30<" in text
    assert "Thursday 1 July 2027" in text
    assert text.index(home.name) < text.index(away.name)
    assert "Europe/Rome" in text


def test_results_list_final_games_only_and_mark_a_forfeit(client):
    championship = ChampionshipFactory()
    pool = make_pool(championship, 3)
    entries, games = round_robin_games(pool)
    played, forfeited, unplayed = games.values()
    finish(played, 4, 2)
    finish(forfeited, 1, 0, DecidedIn.FORFEIT, forfeited_by=forfeited.away)
    response = client.get(reverse("tournaments:results", args=[championship.pk]))
    text = response.text
    assert "4–2" in text
    assert "Rule 8.1 B: forfeit by" in text
    assert f">{unplayed.number}<" not in text


# --- standings -----------------------------------------------------------------------------------------------------


def test_standings_say_which_criterion_broke_each_tie(client):
    """9.3 C: A, B and C beat each other in a circle; the head-to-head is level, 9.3 D (goals allowed) splits."""
    championship = ChampionshipFactory()
    pool = make_pool(championship, 3)
    (a, b, c), games = round_robin_games(pool)
    finish(games[(a.name, b.name)], 1, 0)
    finish(games[(b.name, c.name)], 3, 0)
    finish(games[(a.name, c.name)], 0, 5)
    standings = standings_for_pool(pool)
    decided = [row.decided_by for row in standings.rows if row.decided_by]
    assert decided, "the tie must be broken by a criterion"
    response = client.get(reverse("tournaments:standings", args=[championship.pk]))
    text = response.text
    for line in [*decided, *standings.explanations]:
        assert line in text
    assert "9.3 D" in text


def test_standings_say_that_a_table_needs_a_shootout(client):
    """9.3 G: two teams level on everything share the position until a shoot-out is entered."""
    championship = ChampionshipFactory()
    pool = make_pool(championship, 2)
    (a, b), games = round_robin_games(pool)
    finish(next(iter(games.values())), 2, 2)
    response = client.get(reverse("tournaments:standings", args=[championship.pk]))
    assert f"Rule 9.3 G: {a.name}, {b.name} remain tied and need a shoot-out." in response.text
    assert "shoot-out needed (9.3 G)" in response.text
    # The public sees no staff link.
    assert reverse("tournaments:standings-shootout", args=[pool.pk]) not in response.text


def test_the_standings_legend_gives_the_presets_points_and_keeps_the_forfeit_column_on_a_phone(client):
    """9.3 A / R-41: win 2, tie 1, loss 0, forfeit -2; the phone layout hides only `.wide` columns."""
    championship = ChampionshipFactory()
    make_pool(championship, 2)
    text = client.get(reverse("tournaments:standings", args=[championship.pk])).text
    assert "win 2, tie 1, loss 0, forfeit -2" in text
    assert '<th class="num" title="Forfeits">FF</th>' in text


def test_a_disqualified_team_is_kept_and_marked_at_the_bottom(client):
    """8.1 D: the team's games leave the table; its row stays, marked."""
    championship = ChampionshipFactory()
    pool = make_pool(championship, 3)
    (a, b, c), games = round_robin_games(pool)
    finish(games[(a.name, b.name)], 5, 0)
    a.status = "disqualified"
    a.save(update_fields=["status"])
    response = client.get(reverse("tournaments:standings", args=[championship.pk]))
    assert "disqualified (8.1 D)" in response.text
    assert response.text.rindex(a.name) > response.text.index(b.name)


# the championship; pools, their teams, their final games, entered shoot-outs
STANDINGS_PAGE_QUERIES = 5
# the championship; entries, games, roster, line-ups, goals, penalties, goalkeeper lines, people
LEADERS_PAGE_QUERIES = 9


@pytest.mark.parametrize("teams", [4, 32])
def test_the_standings_page_runs_the_same_queries_for_4_and_32_teams(client, django_assert_num_queries, teams):
    championship, _ = build_championship(teams, with_summaries=False)
    with django_assert_num_queries(STANDINGS_PAGE_QUERIES):
        response = client.get(reverse("tournaments:standings", args=[championship.pk]))
    assert response.text.count('class="standings keep-table"') == teams // 4


# the championship; its games with teams, rink, pool and phase
SCHEDULE_PAGE_QUERIES = 2


@pytest.mark.parametrize("name", ["schedule", "results"])
@pytest.mark.parametrize("teams", [4, 32])
def test_the_schedule_and_results_pages_run_the_same_queries_for_4_and_32_teams(
    client, django_assert_num_queries, teams, name
):
    championship, _ = build_championship(teams, with_summaries=False)
    with django_assert_num_queries(SCHEDULE_PAGE_QUERIES):
        response = client.get(reverse(f"tournaments:{name}", args=[championship.pk]))
    assert response.text.count("3–1") == teams // 4 * 6


# --- leaders -------------------------------------------------------------------------------------------------------


def test_leaders_rank_points_goals_assists_penalties_goalkeepers_and_special_teams(client):
    championship, (pool,) = build_championship(4)
    response = client.get(reverse("tournaments:leaders", args=[championship.pk]))
    text = response.text
    stats = championship_statistics(championship)
    best = max(stats.players, key=lambda p: (p.points, p.goals))
    assert str(stats.people[best.person]) in text
    for heading in ("Points", "Goals", "Assists", "Penalty minutes", "Goalkeepers", "Special teams"):
        assert f"<h2>{heading}</h2>" in text
    # Each goalkeeper faced 11 or 13 shots with 10 saves: 90.9 % or 76.9 % (4.6 note).
    keeper = stats.goalkeepers[0]
    assert f"{keeper.save_percentage:.1f}" in text
    team = stats.teams[0]
    assert team.team in text


@pytest.mark.parametrize("teams", [4, 32])
def test_the_leaders_page_runs_the_same_queries_for_4_and_32_teams(client, django_assert_num_queries, teams):
    championship, _ = build_championship(teams)
    with django_assert_num_queries(LEADERS_PAGE_QUERIES):
        response = client.get(reverse("tournaments:leaders", args=[championship.pk]))
    assert response.text.count("<tr>") > teams


# --- bracket -------------------------------------------------------------------------------------------------------


def test_the_bracket_fills_in_from_the_standings_and_results(client):
    championship, (pool_a, pool_b) = build_championship(8, with_summaries=False)
    director = SuperuserFactory()
    services.bracket_generate(championship=championship, qualifiers=2, by=director)
    response = client.get(reverse("tournaments:bracket", args=[championship.pk]))
    text = response.text
    winner_a = pool_a.members.get(seed=1).entry.name
    second_b = pool_b.members.get(seed=2).entry.name
    assert "SF1" in text
    assert winner_a in text
    assert second_b in text
    assert "W SF1" in text  # the final waits for the semi-finals


def test_the_bracket_marks_pairings_that_depend_on_a_pool_still_playing_as_provisional(client):
    championship, (pool_a, pool_b) = build_championship(8, with_summaries=False)
    services.bracket_generate(championship=championship, qualifiers=2, by=SuperuserFactory())
    url = reverse("tournaments:bracket", args=[championship.pk])
    assert "provisional" not in client.get(url).text  # both pools played out: the pairings are settled

    # Pool B's last game goes back to scheduled: every semi-final shows a team of pool B (1A v 2B, 1B v 2A).
    last_b = Game.objects.filter(pool=pool_b).order_by("-start_at").first()
    Game.objects.filter(pk=last_b.pk).update(status=GameStatus.SCHEDULED, home_goals=None, away_goals=None)
    championship_changed(championship.pk)  # as a service does with its change: the cached page is renewed
    bracket = selectors.bracket_for(championship)
    assert {g.code for g in bracket.games if g.provisional} == {"SF1", "SF2"}
    text = client.get(url).text
    assert text.count('class="provisional"') == 2
    assert "still has games to play" in text
    assert pool_a.members.get(seed=1).entry.name in text  # the teams are still shown, marked


def test_the_bracket_page_before_the_draw_says_so(client):
    championship = ChampionshipFactory()
    assert "not drawn yet" in client.get(reverse("tournaments:bracket", args=[championship.pk])).text


def test_every_public_page_answers_without_login(client):
    championship, _ = build_championship(4)
    for name in ("championship-detail", "schedule", "results", "standings", "bracket", "leaders"):
        response = client.get(reverse(f"tournaments:{name}", args=[championship.pk]))
        assert response.status_code == 200, name
        assert 'name="viewport"' in response.text
