"""Game records entered by staff: who scores (5.1 B, 1.1), the score is the goal lines (5.5.11 B, 8.1 B),
no result before the start (5.1 A), audited amendments, the venue's rinks (2.1 F) and the championship's dates."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from tests.factories import (
    ChampionshipFactory,
    EligibilityWaiverFactory,
    GameFactory,
    PersonFactory,
    RinkFactory,
    RosterEntryFactory,
    VenueFactory,
    client_for,
    federation_staff,
    international_staff,
)
from tournaments import services
from tournaments.models import (
    DecidedIn,
    Game,
    GameStatus,
    GoalRecord,
    PenaltyRecord,
    Position,
    ResultAmendment,
)
from tournaments.selectors import standings_for_pool

from .conftest import AFTER, DURING, eligible_person, full_roster, make_pool, round_robin_games

pytestmark = pytest.mark.django_db


def messages(exc, field):
    return " ".join(exc.value.message_dict[field])


@pytest.fixture
def director():
    return international_staff()


@pytest.fixture
def pool_of_two(championship):
    """Two teams with registered (confirmed) rosters of eligible players, their game not yet recorded."""
    pool = make_pool(championship, 2)
    (home, away), games = round_robin_games(pool)
    rosters = {entry.pk: full_roster(entry, confirmed=True) for entry in (home, away)}
    return pool, home, away, games[(home.name, away.name)], rosters


def skaters(rosters, entry):
    return [line.person for line in rosters[entry.pk] if line.position == Position.PLAYER]


def goal(game, entry, scorer, director, **fields):
    fields.setdefault("period", 1)
    fields.setdefault("time_tenths", 600)
    return services.goal_add(game=game, entry=entry, scorer=scorer, by=director, now=AFTER, **fields)


# --- 1. who is named in a summary: the registered roster, eligible or waived (5.1 B, R-07, 1.1, R-03) ---------------


def test_an_unconfirmed_ineligible_fourteen_year_old_is_refused_as_scorer_5_1_b(pool_of_two, director):
    pool, home, away, game, rosters = pool_of_two
    child = PersonFactory(federation=home.federation, date_of_birth=datetime.date(2013, 1, 1))
    RosterEntryFactory(entry=home, person=child, number="77")
    with pytest.raises(ValidationError) as exc:
        goal(game, home, child, director)
    assert "Rule 5.1 B" in messages(exc, "scorer") and "not confirmed" in messages(exc, "scorer")
    assert not GoalRecord.objects.exists()


def test_a_confirmed_but_ineligible_player_is_refused_citing_1_1(pool_of_two, director):
    pool, home, away, game, rosters = pool_of_two
    child = PersonFactory(federation=home.federation, date_of_birth=datetime.date(2013, 1, 1))
    RosterEntryFactory(entry=home, person=child, number="77", confirmed=True)
    with pytest.raises(ValidationError) as exc:
        goal(game, home, skaters(rosters, home)[0], director, assist=child)
    assert "Rule 1.1" in messages(exc, "assist") and "no waiver" in messages(exc, "assist")
    with pytest.raises(ValidationError) as exc:
        services.penalty_add(
            game=game, entry=home, person=child, infraction_code="tripping", minutes=2, period=1, time_tenths=10,
            by=director, now=AFTER,
        )  # fmt: skip
    assert "Rule 1.1" in messages(exc, "person")
    assert not GoalRecord.objects.exists() and not PenaltyRecord.objects.exists()


def test_a_player_with_a_waiver_scores_r_03(pool_of_two, director):
    pool, home, away, game, rosters = pool_of_two
    without_passport = PersonFactory(federation=home.federation)
    EligibilityWaiverFactory(person=without_passport)
    RosterEntryFactory(entry=home, person=without_passport, number="88", confirmed=True)
    assert goal(game, home, without_passport, director).scorer == without_passport


def test_a_player_of_the_other_team_is_refused_as_scorer(pool_of_two, director):
    pool, home, away, game, rosters = pool_of_two
    with pytest.raises(ValidationError) as exc:
        goal(game, home, skaters(rosters, away)[0], director)
    assert "not on the roster" in messages(exc, "scorer")


def test_the_api_refuses_an_unregistered_scorer_with_a_400_naming_the_field(pool_of_two, director, after_the_games):
    pool, home, away, game, rosters = pool_of_two
    child = PersonFactory(federation=home.federation, date_of_birth=datetime.date(2013, 1, 1))
    RosterEntryFactory(entry=home, person=child, number="77")
    body = {"game": game.pk, "entry": home.pk, "scorer": child.pk, "period": 1, "time_tenths": 60}
    response = client_for(director).post("/api/goals/", body, format="json")
    assert response.status_code == 400 and "5.1 B" in response.json()["scorer"][0]
    assert not GoalRecord.objects.exists()


# --- 2. the final score is the goal lines (5.5.11 B), a forfeit aside (8.1 B, R-41) ---------------------------------


def test_a_score_other_than_the_goal_lines_is_refused_5_5_11_b(pool_of_two, director):
    pool, home, away, game, rosters = pool_of_two
    goal(game, home, skaters(rosters, home)[0], director)
    with pytest.raises(ValidationError) as exc:
        services.game_record_result(game=game, home_goals=2, away_goals=0, by=director, now=AFTER)
    assert "Rule 5.5.11 B" in messages(exc, "home_goals")
    game.refresh_from_db()
    assert game.status == GameStatus.SCHEDULED
    recorded = services.game_record_result(game=game, home_goals=1, away_goals=0, by=director, now=AFTER)
    assert recorded.is_final


def test_a_forfeit_is_refused_once_goals_are_entered_8_1_b(pool_of_two, director):
    pool, home, away, game, rosters = pool_of_two
    goal(game, away, skaters(rosters, away)[0], director)
    with pytest.raises(ValidationError) as exc:
        services.game_record_result(game=game, decided_in=DecidedIn.FORFEIT, forfeited_by=away, by=director, now=AFTER)
    assert "Rule 8.1 B" in messages(exc, "decided_in")


def test_a_final_game_takes_no_more_goals_except_by_an_amendment(pool_of_two, director):
    pool, home, away, game, rosters = pool_of_two
    services.game_record_result(game=game, home_goals=0, away_goals=0, by=director, now=AFTER)
    with pytest.raises(ValidationError) as exc:
        goal(game, home, skaters(rosters, home)[0], director)
    assert "amendment" in messages(exc, "game")
    assert not GoalRecord.objects.exists()


# --- 4. no result before the game has started (5.1 A, 1.2 A) --------------------------------------------------------


def test_a_result_is_refused_before_the_game_starts(pool_of_two, director):
    pool, home, away, game, rosters = pool_of_two
    before = game.start_at - datetime.timedelta(minutes=1)
    with pytest.raises(ValidationError) as exc:
        services.game_record_result(game=game, home_goals=0, away_goals=0, by=director, now=before)
    assert "Rule 5.1 A" in messages(exc, "start_at")
    with pytest.raises(ValidationError) as exc:
        services.goal_add(
            game=game, entry=home, scorer=skaters(rosters, home)[0], period=1, time_tenths=10, by=director, now=before
        )
    assert "Rule 5.1 A" in messages(exc, "start_at")
    game.refresh_from_db()
    assert game.status == GameStatus.SCHEDULED and not GoalRecord.objects.exists()
    assert services.game_record_result(game=game, home_goals=0, away_goals=0, by=director, now=game.start_at).is_final


def test_the_api_refuses_a_result_of_a_game_not_started_with_a_400(pool_of_two, director):
    pool, home, away, game, rosters = pool_of_two
    # The real clock: 2027's championship has not started.
    response = client_for(director).post(f"/api/games/{game.pk}/result/", {"home_goals": 0, "away_goals": 0})
    assert response.status_code == 400 and "5.1 A" in response.json()["start_at"][0]
    assert Game.objects.get(pk=game.pk).status == GameStatus.SCHEDULED


def test_a_game_without_a_time_has_not_started(championship, director):
    game = GameFactory(championship=championship, start_at=None)
    with pytest.raises(ValidationError) as exc:
        services.game_record_result(game=game, home_goals=0, away_goals=0, by=director, now=AFTER)
    assert "no scheduled start" in messages(exc, "start_at")


# --- 3. amendments: who, when, why; the score follows the goal lines; standings follow ------------------------------


def played_2_1(pool_of_two, director):
    pool, home, away, game, rosters = pool_of_two
    goal(game, home, skaters(rosters, home)[0], director, time_tenths=100)
    goal(game, home, skaters(rosters, home)[1], director, time_tenths=200)
    goal(game, away, skaters(rosters, away)[0], director, time_tenths=300)
    return services.game_record_result(game=game, home_goals=2, away_goals=1, by=director, now=AFTER)


def test_an_amendment_corrects_the_goal_lines_and_the_standings_follow(pool_of_two, director):
    pool, home, away, game, rosters = pool_of_two
    played_2_1(pool_of_two, director)
    assert standings_for_pool(pool).order == (home.name, away.name)
    wrong = GoalRecord.objects.filter(game=game, entry=home).order_by("time_tenths")
    added = [
        {"entry": away, "scorer": skaters(rosters, away)[1], "period": 2, "time_tenths": 900},
        {"entry": away, "scorer": skaters(rosters, away)[2], "period": 2, "time_tenths": 1000},
    ]
    amendment = services.result_amend(
        game=game, reason="Referees' report: two goals credited to the wrong team", remove_goals=list(wrong),
        add_goals=added, by=director, now=AFTER,
    )  # fmt: skip
    game.refresh_from_db()
    assert (game.home_goals, game.away_goals) == (0, 3)
    assert (amendment.amended_by, amendment.amended_at) == (director, AFTER)
    assert amendment.before["home_goals"] == 2 and amendment.after["away_goals"] == 3
    assert len(amendment.before["goals"]) == 3 and len(amendment.after["goals"]) == 3
    standings = standings_for_pool(pool)
    assert standings.order == (away.name, home.name)
    assert standings.row(away.name).points == 2 and standings.row(home.name).goals_for == 0
    assert game.history.latest().history_user == director


def test_an_amendment_needs_a_reason(pool_of_two, director):
    pool, home, away, game, rosters = pool_of_two
    played_2_1(pool_of_two, director)
    with pytest.raises(ValidationError) as exc:
        services.result_amend(game=game, reason="  ", remove_goals=list(game.goals.all()[:1]), by=director)
    assert "reason" in messages(exc, "reason")
    assert GoalRecord.objects.filter(game=game).count() == 3 and not ResultAmendment.objects.exists()


def test_an_amendment_that_leaves_an_elimination_game_tied_is_refused_1_3_b(championship, director):
    from tests.factories import PhaseFactory
    from tournaments.models import PhaseKind

    final = GameFactory(
        championship=championship,
        phase=PhaseFactory(championship=championship, kind=PhaseKind.ELIMINATION, name="Final", order=3),
        bracket_slot="F",
    )
    rosters = {entry.pk: full_roster(entry, confirmed=True) for entry in (final.home, final.away)}
    goal(final, final.home, skaters(rosters, final.home)[0], director)
    services.game_record_result(game=final, home_goals=1, away_goals=0, by=director, now=AFTER)
    with pytest.raises(ValidationError) as exc:
        services.result_amend(
            game=final, reason="No goal", remove_goals=list(final.goals.all()), by=director, now=AFTER
        )
    assert "Rule 1.3 B" in messages(exc, "decided_in")
    assert final.goals.count() == 1


def test_only_the_championships_directors_amend_a_result(pool_of_two, director):
    pool, home, away, game, rosters = pool_of_two
    played_2_1(pool_of_two, director)
    for outsider in (federation_staff(home.federation), federation_staff()):
        with pytest.raises(PermissionDenied):
            services.result_amend(
                game=game, reason="Mine", remove_goals=list(game.goals.all()[:1]), by=outsider, now=AFTER
            )
    assert not ResultAmendment.objects.exists()
    # Staff of the sanctioning body direct it.
    own = federation_staff(game.championship.sanctioning_body)
    services.result_amend(
        game=game, reason="Report", remove_goals=list(game.goals.filter(entry=away)), by=own, now=AFTER
    )
    game.refresh_from_db()
    assert (game.home_goals, game.away_goals) == (2, 0)


def test_a_forfeit_and_a_game_not_final_are_not_amended(pool_of_two, director):
    pool, home, away, game, rosters = pool_of_two
    with pytest.raises(ValidationError) as exc:
        services.result_amend(game=game, reason="Early", by=director)
    assert "no final result" in messages(exc, "game")
    services.game_record_result(game=game, decided_in=DecidedIn.FORFEIT, forfeited_by=away, by=director, now=AFTER)
    with pytest.raises(ValidationError) as exc:
        services.result_amend(game=game, reason="Late", remove_goals=list(game.goals.all()), by=director)
    assert "Rule 8.1 B-C" in messages(exc, "decided_in")


def test_the_api_amends_a_result_and_refuses_one_without_reason(pool_of_two, director, after_the_games):
    pool, home, away, game, rosters = pool_of_two
    played_2_1(pool_of_two, director)
    api = client_for(director)
    away_goal = game.goals.get(entry=away)
    response = api.post(f"/api/games/{game.pk}/amend/", {"reason": "", "remove_goals": [away_goal.pk]}, format="json")
    assert response.status_code == 400 and "reason" in response.json()
    added = {"entry": home.pk, "scorer": skaters(rosters, home)[2].pk, "period": 2, "time_tenths": 50}
    body = {"reason": "Video review", "remove_goals": [away_goal.pk], "add_goals": [added]}
    response = api.post(f"/api/games/{game.pk}/amend/", body, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["after"]["home_goals"] == 3 and response.json()["reason"] == "Video review"
    assert api.get(f"/api/games/{game.pk}/").json()["away_goals"] == 0
    response = api.post(f"/api/games/{game.pk}/amend/", {"reason": "x", "remove_goals": [10**6]}, format="json")
    assert response.status_code == 400 and "remove_goals" in response.json()


def test_the_game_page_amends_a_result(pool_of_two, director, after_the_games, client):
    pool, home, away, game, rosters = pool_of_two
    played_2_1(pool_of_two, director)
    client.force_login(director)
    url = reverse("tournaments:game-manage", args=[game.pk])
    away_goal = game.goals.get(entry=away)
    response = client.post(url, {"action": "amend", "reason": "", "remove_goals": [away_goal.pk]})
    assert response.status_code == 200 and "reason" in response.context["amend"].errors
    response = client.post(
        url,
        {"action": "amend", "reason": "Scorer was on the other team", "remove_goals": [away_goal.pk],
         "add_goal": "on", "add-entry": home.pk, "add-scorer": skaters(rosters, home)[3].pk, "add-period": 2,
         "add-minute": 5, "add-second": 0},
    )  # fmt: skip
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.home_goals, game.away_goals) == (3, 0)
    page = client.get(url)
    title = page.text.split("<title>")[1].split("</title>")[0]
    assert "Game" in title and "<section>" not in title
    assert '<td><span class="their-words" translate="no">Scorer was on the other team</span></td>' in page.text


# --- 5. rinks of the championship's venue (2.1 F) -------------------------------------------------------------------


def test_a_rink_of_another_venue_is_refused_2_1_f(championship, director):
    pool = make_pool(championship, 2)
    _, games = round_robin_games(pool)
    game = next(iter(games.values()))
    elsewhere = RinkFactory(venue=VenueFactory())
    with pytest.raises(ValidationError) as exc:
        services.game_move(game=game, rink=elsewhere, by=director)
    assert "Rule 2.1 F" in messages(exc, "rink")
    assert Game.objects.get(pk=game.pk).rink is None
    response = client_for(director).post(f"/api/games/{game.pk}/move/", {"rink": elsewhere.pk}, format="json")
    assert response.status_code == 400 and "2.1 F" in response.json()["rink"][0]


def test_the_schedule_is_not_generated_on_a_rink_of_another_venue_2_1_f(championship, director):
    make_pool(championship, 2)
    elsewhere = RinkFactory(venue=VenueFactory())
    with pytest.raises(ValidationError) as exc:
        services.schedule_generate(
            championship=championship, days=[championship.start_date], slot_times=[datetime.time(10)],
            rinks=[elsewhere], by=director,
        )  # fmt: skip
    assert "Rule 2.1 F" in messages(exc, "rinks")
    assert not Game.objects.exists()


def test_the_venue_does_not_change_under_games_on_its_rinks_2_1_f(championship, director):
    rink = RinkFactory(venue=championship.venue)
    GameFactory(championship=championship, rink=rink)
    with pytest.raises(ValidationError) as exc:
        services.championship_update(championship=championship, venue=VenueFactory(), by=director)
    assert "Rule 2.1 F" in messages(exc, "venue")


# --- 6. the championship's dates keep its games -------------------------------------------------------------------


def test_dates_that_leave_a_game_outside_are_refused(championship, director):
    game = GameFactory(championship=championship)  # 1 July 2027, 10:00 at the venue
    with pytest.raises(ValidationError) as exc:
        services.championship_update(championship=championship, start_date=datetime.date(2027, 7, 2), by=director)
    assert f"Game #{game.number}" in messages(exc, "start_date")
    late = GameFactory(championship=championship, start_at=datetime.datetime(2027, 7, 10, 20, tzinfo=datetime.UTC))
    with pytest.raises(ValidationError) as exc:
        services.championship_update(championship=championship, end_date=datetime.date(2027, 7, 9), by=director)
    assert f"Game #{late.number}" in messages(exc, "end_date")
    championship.refresh_from_db()
    assert (championship.start_date, championship.end_date) == (datetime.date(2027, 7, 1), datetime.date(2027, 7, 10))
    # Moving dates that still hold every game is fine.
    services.championship_update(championship=championship, end_date=datetime.date(2027, 7, 12), by=director)


def test_the_api_refuses_dates_outside_the_games_with_a_400(director):
    championship = ChampionshipFactory()
    GameFactory(championship=championship)
    response = client_for(director).patch(
        f"/api/championships/{championship.pk}/", {"start_date": "2027-07-03"}, format="json"
    )
    assert response.status_code == 400 and "start_date" in response.json()


def test_during_the_championship_a_game_already_started_takes_its_result(pool_of_two, director):
    pool, home, away, game, rosters = pool_of_two
    assert game.start_at < DURING
    assert services.game_record_result(game=game, home_goals=0, away_goals=0, by=director, now=DURING).is_final


def test_an_eligible_team_official_may_take_a_bench_penalty(pool_of_two, director):
    from tournaments.models import OfficialRole, TeamOfficial

    pool, home, away, game, rosters = pool_of_two
    coach = eligible_person(home.federation, is_player=False)
    TeamOfficial.objects.create(entry=home, person=coach, role=OfficialRole.COACH)
    penalty = services.penalty_add(
        game=game, entry=home, person=coach, infraction_code="tripping", minutes=2, period=1, time_tenths=10,
        by=director, now=AFTER,
    )  # fmt: skip
    assert penalty.person == coach
