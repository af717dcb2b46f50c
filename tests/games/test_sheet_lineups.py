"""The sheet's teams come from the game's line-ups (5.1 A-B, 5.3 B), the frozen roster only where a team gave none."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError

from games import services
from games.models import GameSheet
from games.sheet import engine_teams, record_events
from tests.factories import PersonFactory, international_staff
from tournaments.models import OfficialRole, Position, RosterEntry, TeamOfficial

from .sheet_helpers import entry, sheet_game, sign_in

pytestmark = pytest.mark.django_db

BEFORE = datetime.datetime(2027, 6, 30, 9, 0, tzinfo=datetime.UTC)


@pytest.fixture
def director():
    return international_staff()


@pytest.fixture(autouse=True)
def console(game, director):
    """The director's console "t" is signed in (entries come only from a signed-in device)."""
    sign_in(game, director, device="t")


@pytest.fixture
def game():
    game = sheet_game()
    RosterEntry.objects.filter(entry__in=[game.home, game.away]).update(confirmed=True)
    return game


def give_lineup(game, team, numbers, *, by, captain=None, officials=()):
    """The team's line-up of the roster lines with these numbers (``captain``: the captain's, else the first),
    with these team officials on the bench."""
    captain = numbers[0] if captain is None else captain
    lines = RosterEntry.objects.filter(entry=team, number__in=[str(n) for n in numbers])
    return services.lineup_submit(
        game=game,
        entry=team,
        players=[
            services.LineupChoice(person_id=line.person_id, captain=line.number == str(captain)) for line in lines
        ],
        bench_officials=[official.person_id for official in officials],
        by=by,
        now=BEFORE,
    )


def team_official(team, role, first_name, last_name):
    return TeamOfficial.objects.create(
        entry=team,
        person=PersonFactory(
            federation=team.federation, first_name=first_name, last_name=last_name, is_team_official=True
        ),
        role=role,
    )


def test_the_sheet_reads_both_line_ups_when_both_are_given_5_1_a(game, director):
    give_lineup(game, game.home, [2, 3, 4, 5, 9, 1], by=director, captain=9)
    give_lineup(game, game.away, [12, 13, 14, 15, 31], by=director, captain=12)
    teams = engine_teams(game)
    assert teams["home"] == {
        "name": game.home.name,
        "players": [2, 3, 4, 5, 9],
        "goalkeepers": [1],
        "captain": 9,
        "staff": [],
        "source": "lineup",
    }
    assert teams["away"]["players"] == [12, 13, 14, 15] and teams["away"]["goalkeepers"] == [31]
    assert teams["away"]["source"] == "lineup"


def test_a_team_without_a_line_up_is_read_from_its_frozen_roster_and_marked(game, director):
    give_lineup(game, game.home, [2, 3, 4, 5, 1], by=director)
    teams = engine_teams(game)
    assert teams["home"]["source"] == "lineup" and teams["home"]["captain"] == 2
    assert teams["away"]["source"] == "roster"
    assert teams["away"]["players"] == list(range(12, 22)) and teams["away"]["goalkeepers"] == [31, 35]
    assert teams["away"]["captain"] == 12
    assert teams["away"]["staff"] == []  # 5.1 A: a list on paper names no bench official the sheet knows


def test_an_event_naming_a_rostered_player_off_the_line_up_is_refused_5_1_b(game, director):
    give_lineup(game, game.home, [2, 3, 4, 5, 9, 1], by=director, captain=9)
    give_lineup(game, game.away, [12, 13, 14, 15, 31], by=director, captain=12)
    start = entry("period_start", period=1)
    record_events(
        game=game, by=director, device="t", events=[start, entry("shot", period=1, time="1:00", team="home", player=9)]
    )
    with pytest.raises(ValidationError) as refused:
        # 10 is on the home roster, not on its line-up.
        record_events(
            game=game, by=director, device="t", events=[entry("goal", period=1, time="2:00", team="home", player=10)]
        )
    assert "Rule 5.1 B" in str(refused.value) and "10" in str(refused.value)
    assert GameSheet.objects.get(game=game).teams["home"]["source"] == "lineup"


def test_the_period_start_counts_the_line_up_as_the_readiness_check_does_5_3_b(game, director):
    give_lineup(game, game.home, [2, 3, 4, 1], by=director)  # three floor players
    give_lineup(game, game.away, [12, 13, 14, 15, 31], by=director)
    problems = services.game_start_problems(game)
    with pytest.raises(ValidationError) as refused:
        record_events(game=game, by=director, device="t", events=[entry("period_start", period=1)])
    assert problems["home"] in str(refused.value)
    assert not GameSheet.objects.filter(game=game).exists()


def test_no_line_up_is_given_once_the_sheet_is_open_5_1_c(game, director):
    record_events(game=game, by=director, device="t", events=[entry("period_start", period=1)])
    with pytest.raises(ValidationError) as refused:
        give_lineup(game, game.home, [2, 3, 4, 5, 1], by=director)
    assert "5.1 C" in str(refused.value)
    assert not game.lineups.exists()


def test_a_goalkeeper_replaced_under_5_1_c_leaves_the_sheets_teams_and_the_replacement_is_in_goal(game, director):
    lineup = give_lineup(game, game.home, [2, 3, 4, 5, 6, 1], by=director)
    give_lineup(game, game.away, [12, 13, 14, 15, 31], by=director)
    after = datetime.datetime(2027, 7, 1, 8, 30, tzinfo=datetime.UTC)
    goalkeeper = lineup.players.get(position=Position.GOALKEEPER)
    skater = lineup.players.get(number="6")
    services.lineup_replace_injured_goalkeeper(
        lineup=lineup, goalkeeper_id=goalkeeper.person_id, replacement_id=skater.person_id, by=director, now=after
    )
    teams = engine_teams(game)
    assert teams["home"]["players"] == [2, 3, 4, 5] and teams["home"]["goalkeepers"] == [6]


def test_the_line_ups_bench_officials_are_the_engines_staff_6_4_28_b(game, director):
    coach = team_official(game.home, OfficialRole.COACH, "Marco", "Rossi")
    manager = team_official(game.home, OfficialRole.MANAGER, "Luca", "Bianchi")
    team_official(game.home, OfficialRole.TRAINER, "Paolo", "Verdi")  # registered, not on this game's bench
    give_lineup(game, game.home, [2, 3, 4, 5, 9, 1], by=director, captain=9, officials=[coach, manager])
    give_lineup(game, game.away, [12, 13, 14, 15, 31], by=director, captain=12)
    teams = engine_teams(game)
    assert teams["home"]["staff"] == ["BIANCHI Luca", "ROSSI Marco"]
    assert teams["away"]["staff"] == []


def test_two_bench_officials_of_one_name_are_told_apart(game, director):
    first = team_official(game.home, OfficialRole.COACH, "Marco", "Rossi")
    second = team_official(game.home, OfficialRole.ASSISTANT_COACH, "Marco", "Rossi")
    give_lineup(game, game.home, [2, 3, 4, 5, 9, 1], by=director, officials=[first, second])
    staff = engine_teams(game)["home"]["staff"]
    assert sorted(staff) == sorted([f"ROSSI Marco ({first.person_id})", f"ROSSI Marco ({second.person_id})"])


def test_a_bench_minor_to_the_named_coach_is_accepted_and_counted_on_him_6_4_28_b_8_2_c(game, director):
    coach = team_official(game.home, OfficialRole.COACH, "Marco", "Rossi")
    give_lineup(game, game.home, [2, 3, 4, 5, 9, 1], by=director, captain=9, officials=[coach])
    give_lineup(game, game.away, [12, 13, 14, 15, 31], by=director, captain=12)
    start, stop = entry("period_start", period=1), entry("clock_stop", period=1, time="6:00")
    bench = entry(
        "penalty",
        period=1,
        time="6:00",
        team="home",
        staff="ROSSI Marco",
        penalty="bench_minor",
        infraction="throwing_stick_from_bench",
        served_by=5,
    )
    answer = record_events(game=game, by=director, device="t", events=[start, stop, bench])
    home = answer.state["teams"]["home"]
    assert home["staff"] == {"ROSSI Marco": {"minutes": 2, "out_of_game_by": None}}
    assert home["bench_minutes"] == 0 and answer.state["players"]["home"]["5"]["minutes"] == 0
    [record] = answer.state["penalties"]
    assert (record["staff"], record["player"], record["served_by"]) == ("ROSSI Marco", None, 5)
    assert [s["player"] for s in home["box"]] == [5]
    # 8.2 C: a game misconduct sends him off; the sheet refuses a penalty naming him at a later stoppage.
    misconduct = entry(
        "penalty",
        period=1,
        time="6:00",
        team="home",
        staff="ROSSI Marco",
        penalty="game_misconduct",
        infraction="throwing_stick_from_bench",
    )
    resume, later = entry("clock_start", period=1, time="6:00"), entry("clock_stop", period=1, time="7:00")
    answer = record_events(game=game, by=director, device="t", events=[misconduct, resume, later])
    assert answer.state["teams"]["home"]["staff"]["ROSSI Marco"] == {"minutes": 12, "out_of_game_by": "6.4.32 A"}
    with pytest.raises(ValidationError) as refused:
        record_events(
            game=game,
            by=director,
            device="t",
            events=[entry("penalty", period=1, time="7:00", team="home", staff="ROSSI Marco", penalty="minor")],
        )
    assert "out of the game" in str(refused.value)


def test_a_penalty_naming_someone_off_the_bench_is_refused_5_1_b(game, director):
    coach = team_official(game.home, OfficialRole.COACH, "Marco", "Rossi")
    team_official(game.home, OfficialRole.TRAINER, "Paolo", "Verdi")
    give_lineup(game, game.home, [2, 3, 4, 5, 9, 1], by=director, captain=9, officials=[coach])
    give_lineup(game, game.away, [12, 13, 14, 15, 31], by=director, captain=12)
    start, stop = entry("period_start", period=1), entry("clock_stop", period=1, time="6:00")
    record_events(game=game, by=director, device="t", events=[start, stop])
    with pytest.raises(ValidationError) as refused:
        record_events(
            game=game,
            by=director,
            device="t",
            events=[entry("penalty", period=1, time="6:00", team="home", staff="VERDI Paolo", penalty="bench_minor")],
        )
    assert "5.1 B" in str(refused.value) and "VERDI Paolo" in str(refused.value)
    assert GameSheet.objects.get(game=game).teams["home"]["staff"] == ["ROSSI Marco"]
