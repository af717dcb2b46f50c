"""Officials of a game (4.1-4.6): neutrality of the referees (4.2 I, R-08), the lead (4.2 C), the duties' limits."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from accounts.models import Role
from games import services
from games.models import GameOfficial, OfficialDuty
from tests.factories import PersonFactory, RosterEntryFactory, UserFactory, with_role
from tournaments.models import GameStatus

from .conftest import BEFORE


def assign(game, person, duty=OfficialDuty.REFEREE, *, by, **kwargs):
    return services.official_assign(game=game, person=person, duty=duty, by=by, now=BEFORE, **kwargs)


def test_the_first_referee_listed_is_the_lead_4_2_c(game, director):
    first = assign(game, PersonFactory(is_referee=True), by=director)
    second = assign(game, PersonFactory(is_referee=True), by=director)
    assert (first.position, first.is_lead) == (1, True)
    assert (second.position, second.is_lead) == (2, False)
    assert first.history.first().history_user == director


def test_a_third_referee_is_refused_4_1_a(game, director):
    for _ in range(2):
        assign(game, PersonFactory(is_referee=True), by=director)
    with pytest.raises(ValidationError) as exc:
        assign(game, PersonFactory(is_referee=True), by=director)
    assert "Rule 4.1" in exc.value.message_dict["duty"][0]
    assert GameOfficial.objects.filter(game=game).count() == 2


@pytest.mark.parametrize("side", ["home", "away"])
def test_a_referee_of_either_teams_federation_is_refused_r_08(game, director, side):
    entry = getattr(game, side)
    referee = PersonFactory(federation=entry.federation, is_referee=True)
    with pytest.raises(ValidationError) as exc:
        assign(game, referee, by=director)
    message = exc.value.message_dict["person"][0]
    assert "4.2 I / R-08" in message and str(entry.federation) in message
    assert not GameOfficial.objects.exists()


def test_a_referee_of_a_third_federation_is_neutral_r_08(game, director, referee):
    assert assign(game, referee, by=director).person == referee


def test_a_referee_of_a_team_federation_may_keep_the_clock(game, director):
    """R-08 binds the referees; the minor officials are often the host's."""
    timekeeper = PersonFactory(federation=game.home.federation, is_official=True)
    assert assign(game, timekeeper, OfficialDuty.TIMEKEEPER, by=director).duty == OfficialDuty.TIMEKEEPER


def test_neutrality_needs_both_teams_known(director, referee):
    from tests.factories import GameFactory

    game = GameFactory(away=None, away_source="W QF1")
    with pytest.raises(ValidationError, match="R-08"):
        assign(game, referee, by=director)


def test_a_goal_judge_who_plays_for_a_team_is_refused_4_6_b(game, director):
    player = RosterEntryFactory(entry=game.away).person
    player.is_official = True
    player.save()
    with pytest.raises(ValidationError, match="4.6 B"):
        assign(game, player, OfficialDuty.GOAL_JUDGE, by=director)


def test_a_referee_must_be_registered_as_one_4_2_a(game, director):
    with pytest.raises(ValidationError, match="4.2 A"):
        assign(game, PersonFactory(is_official=True), by=director)


def test_one_person_keeps_time_penalties_and_the_score_at_a_small_event(game, director):
    person = PersonFactory(is_official=True)
    for duty in (OfficialDuty.TIMEKEEPER, OfficialDuty.PENALTY_TIMEKEEPER, OfficialDuty.SCORER):
        assign(game, person, duty, by=director)
    assert GameOfficial.objects.filter(person=person).count() == 3


def test_a_referee_holds_no_other_duty_4_1_b(game, director):
    person = PersonFactory(is_referee=True, is_official=True)
    assign(game, person, by=director)
    with pytest.raises(ValidationError, match="4.1 B"):
        assign(game, person, OfficialDuty.SCORER, by=director)


def test_a_second_timekeeper_is_refused_4_1_b(game, director):
    assign(game, PersonFactory(is_official=True), OfficialDuty.TIMEKEEPER, by=director)
    with pytest.raises(ValidationError, match="4.1"):
        assign(game, PersonFactory(is_official=True), OfficialDuty.TIMEKEEPER, by=director)


def test_a_taken_position_is_refused(game, director):
    assign(game, PersonFactory(is_referee=True), by=director, position=1)
    with pytest.raises(ValidationError) as exc:
        assign(game, PersonFactory(is_referee=True), by=director, position=1)
    assert "position" in exc.value.message_dict


def test_only_the_championships_directors_assign(game, referee):
    for user in (with_role(Role.TEAM_MANAGER, game.home.federation), with_role(Role.GAME_OFFICIAL), UserFactory()):
        with pytest.raises(PermissionDenied):
            assign(game, referee, by=user)


def test_a_final_games_officials_stay_4_2_o(game, director, referee):
    assignment = assign(game, referee, by=director)
    game.status, game.home_goals, game.away_goals = GameStatus.FINAL, 1, 0
    game.save()
    with pytest.raises(ValidationError, match="4.2 O"):
        services.official_unassign(assignment=assignment, by=director)
    with pytest.raises(ValidationError, match="4.2 O"):
        assign(game, PersonFactory(is_referee=True), by=director)


def test_withdrawing_the_lead_frees_the_first_place(game, director):
    lead = assign(game, PersonFactory(is_referee=True), by=director)
    assign(game, PersonFactory(is_referee=True), by=director)
    services.official_unassign(assignment=lead, by=director)
    assert assign(game, PersonFactory(is_referee=True), by=director).is_lead


@pytest.mark.django_db
def test_a_player_or_team_official_is_linked_to_a_login_without_a_role_to_sign_as_captain_or_coach():
    """4.2 O, 4.3 A: captains and coaches sign the game report as themselves (issue 23), with a login of their own."""
    executive = with_role(Role.IHTC_EXECUTIVE)
    captain, coach = PersonFactory(), PersonFactory(is_player=False, is_team_official=True)
    assert services.official_account_link(person=captain, user=UserFactory(), by=executive).person == captain
    assert services.official_account_link(person=coach, user=UserFactory(), by=executive).person == coach


def test_an_official_account_links_a_registered_official_with_the_official_role(referee):
    executive = with_role(Role.IHTC_EXECUTIVE)
    login = with_role(Role.GAME_OFFICIAL)
    account = services.official_account_link(person=referee, user=login, by=executive)
    assert services.official_person_id(login) == referee.pk == account.person_id
    with pytest.raises(ValidationError, match="already"):
        services.official_account_link(person=referee, user=with_role(Role.GAME_OFFICIAL), by=executive)
    with pytest.raises(ValidationError, match="role"):
        services.official_account_link(person=PersonFactory(is_referee=True), user=UserFactory(), by=executive)
    with pytest.raises(ValidationError, match="4.1"):
        services.official_account_link(
            person=PersonFactory(is_player=False), user=with_role(Role.GAME_OFFICIAL), by=executive
        )
    with pytest.raises(PermissionDenied):
        services.official_account_link(
            person=PersonFactory(is_referee=True), user=with_role(Role.GAME_OFFICIAL), by=login
        )
