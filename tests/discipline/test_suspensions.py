"""Suspensions (8.2, 7.1, 6.4.19 H; R-53): provisional ones from final games, served games, the committee's
decision, the person followed across teams and championships of the same sanctioning body."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError

from accounts.models import Role
from discipline import cases
from discipline.models import IncidentReport, ReportStatus, ServedGame, Suspension, SuspensionStatus
from discipline.services import active_suspensions, count_served_games, receive_game_consequences
from discipline.suspensions import end_finished, recipients
from tests.factories import (
    ChampionshipFactory,
    GameFactory,
    RosterEntryFactory,
    TeamEntryFactory,
    federation_staff,
    game_consequence,
    with_role,
)
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

HOUR = datetime.timedelta(hours=1)


def later(game, hours):
    """A game of the same championship ``hours`` after ``game``, between ``home`` and a new opponent."""
    return GameFactory(
        championship=game.championship, phase=game.phase, home=game.home, start_at=game.start_at + hours * HOUR
    )


def make_final(game, by):
    return tournament_services.game_record_result(
        game=game, home_goals=0, away_goals=0, by=by, now=game.start_at + 2 * HOUR
    )


def consequence(game, person, *, kind="game_misconduct", article="6.1.3 B", infraction="", penalty_id="p1"):
    return game_consequence(
        game,
        person,
        kind=kind,
        article=article,
        infraction=infraction,
        penalty_id=penalty_id,
        period=2,
        time_tenths=6150,
    )


def receive(game, player, **kwargs):
    return receive_game_consequences(
        game=game, consequences=[consequence(game, player, **kwargs)], now=game.start_at + 2 * HOUR
    )


def test_major_and_game_misconduct_blocks_exactly_the_next_game_and_carries_over_a_bye_8_2_a(offence, director):
    game, player = offence
    receive(game, player)
    suspension = Suspension.objects.get()
    assert (suspension.provisional, suspension.kind, suspension.games_required, suspension.article) == (
        True, "games", 1, "8.2 A",
    )  # fmt: skip
    # Round 2 is the home team's bye: two other teams play; nothing of his team is served.
    bye_round = GameFactory(championship=game.championship, phase=game.phase, start_at=game.start_at + 24 * HOUR)
    make_final(bye_round, director)
    assert not ServedGame.objects.exists()
    next_game = later(game, 48)
    after = later(game, 72)
    assert active_suspensions(game=next_game, person_ids=[player.pk])[player.pk].description.startswith("Rule 8.2 A")
    make_final(next_game, director)
    suspension.refresh_from_db()
    assert suspension.status == SuspensionStatus.SERVED and suspension.closed_at is not None
    assert list(ServedGame.objects.values_list("game", flat=True)) == [next_game.pk]
    assert active_suspensions(game=after, person_ids=[player.pk]) == {}


def test_served_games_are_counted_only_when_final_and_once(offence, director):
    game, player = offence
    receive(game, player)
    next_game = later(game, 24)
    assert count_served_games(game=next_game) == []  # scheduled, not final
    make_final(next_game, director)
    next_game.refresh_from_db()
    assert count_served_games(game=next_game) == []  # counted once: again changes nothing
    assert ServedGame.objects.count() == 1


def test_a_forfeit_serves_nothing_for_either_team_and_the_lineup_of_the_next_game_played_refuses_r_55(director):
    """R-55: a game won or lost by forfeit (8.1) is no game served; the suspension carries over, as over a bye."""
    from django.core.exceptions import ValidationError

    from games import services as games_services
    from tests.discipline.protest_helpers import manager_of
    from tournaments.models import DecidedIn

    game = GameFactory()
    make_final(game, director)
    offender = RosterEntryFactory(entry=game.home, number="7").person
    opponent = RosterEntryFactory(entry=game.away, number="9").person
    receive_game_consequences(
        game=game,
        consequences=[consequence(game, offender), consequence(game, opponent, penalty_id="p2")],
        now=game.start_at + 2 * HOUR,
    )
    # Round 2: the home team against a third team, which forfeits; the home team wins 1-0 (8.1 B).
    forfeited = later(game, 24)
    RosterEntryFactory(entry=forfeited.home, number="1", captain=True)
    tournament_services.game_record_result(
        game=forfeited, decided_in=DecidedIn.FORFEIT, forfeited_by=forfeited.away, by=director,
        now=forfeited.start_at + 2 * HOUR,
    )  # fmt: skip
    # Round 2 for the away team: it forfeits its own game.
    lost = GameFactory(
        championship=game.championship, phase=game.phase, home=game.away, start_at=game.start_at + 24 * HOUR
    )
    RosterEntryFactory(entry=lost.away, number="1", captain=True)
    tournament_services.game_record_result(
        game=lost, decided_in=DecidedIn.FORFEIT, forfeited_by=game.away, by=director, now=lost.start_at + 2 * HOUR
    )
    assert not ServedGame.objects.exists()
    assert set(Suspension.objects.values_list("status", flat=True)) == {SuspensionStatus.ACTIVE}
    # Round 3 is played: the winner's suspended player is still refused on its line-up.
    next_game = later(game, 48)
    manager = manager_of(game.home)
    with pytest.raises(ValidationError) as refused:
        games_services.lineup_submit(
            game=next_game,
            entry=game.home,
            players=[games_services.LineupChoice(person_id=offender.pk, captain=True, starting=False)],
            by=manager,
            now=game.start_at,
        )
    assert "Rule 8.2 A: suspended (provisional) for 1 game(s), 0 served" in str(refused.value)
    make_final(next_game, director)
    served = Suspension.objects.get(person=offender)
    assert served.status == SuspensionStatus.SERVED
    assert list(served.served_games.values_list("game", flat=True)) == [next_game.pk]


def test_match_penalty_blocks_until_the_committee_decides_7_1(offence, director):
    game, player = offence
    receive(game, player, kind="match", article="6.1.6", infraction="attempt_to_injure")
    g2, g3, g4 = later(game, 24), later(game, 48), later(game, 72)
    make_final(g2, director)  # the rest of the tournament: a final game serves nothing of it
    assert active_suspensions(game=g3, person_ids=[player.pk])[player.pk].description.startswith("Rule 7.1")
    elsewhere = GameFactory(championship=ChampionshipFactory(sanctioning_body=game.championship.sanctioning_body))
    RosterEntryFactory(entry=elsewhere.home, person=player, number="7")
    assert active_suspensions(game=elsewhere, person_ids=[player.pk]) == {}  # the rest of *that* tournament

    committee = with_role(Role.DISCIPLINE_COMMITTEE)
    report = IncidentReport.objects.get()
    case = cases.open_case(reports=[report], title="Attempt to injure", by=committee)
    cases.decide_case(
        case=case, outcome="sanctions", reasons="Deliberate.", by=committee,
        sanctions=[cases.Sanction(person_id=player.pk, kind="games", games=2, article="7.1")],
    )  # fmt: skip
    provisional = Suspension.objects.get(provisional=True)
    decided = Suspension.objects.get(provisional=False)
    assert provisional.status == SuspensionStatus.REPLACED
    assert decided.games_served == 1  # g2, sat out under the provisional suspension, counts
    assert active_suspensions(game=g3, person_ids=[player.pk])[player.pk].description.startswith("Rule 7.1")
    make_final(g3, director)
    decided.refresh_from_db()
    assert decided.status == SuspensionStatus.SERVED
    assert active_suspensions(game=g4, person_ids=[player.pk]) == {}


def test_holding_or_striking_an_official_suspends_for_the_rest_of_the_tournament_8_2_c(offence, director):
    game, player = offence
    receive(game, player, kind="match", article="6.4.28 A, B", infraction="physical_abuse_of_officials")
    suspension = Suspension.objects.get()
    assert (suspension.kind, suspension.article) == ("rest_of_tournament", "8.2 C")
    assert player.pk in active_suspensions(game=later(game, 24), person_ids=[player.pk])
    over = datetime.datetime.combine(game.championship.end_date, datetime.time(), tzinfo=datetime.UTC) + 24 * HOUR
    assert end_finished(now=over) == 1
    suspension.refresh_from_db()
    assert suspension.status == SuspensionStatus.ENDED


def test_a_suspension_follows_the_person_to_another_championship_and_team_of_the_same_body(offence, director):
    game, player = offence
    receive(game, player)
    body = game.championship.sanctioning_body
    other = ChampionshipFactory(
        sanctioning_body=body,
        start_date=datetime.date(2027, 8, 1),
        end_date=datetime.date(2027, 8, 9),
        entry_closing_date=datetime.date(2027, 6, 1),
    )
    club = TeamEntryFactory(championship=other)
    RosterEntryFactory(entry=club, person=player, number="11")
    there = GameFactory(championship=other, home=club)
    assert active_suspensions(game=there, person_ids=[player.pk])[player.pk].description.startswith("Rule 8.2 A")
    another_body = GameFactory()
    RosterEntryFactory(entry=another_body.home, person=player, number="11")
    assert active_suspensions(game=another_body, person_ids=[player.pk]) == {}
    make_final(there, director)  # served with the other team
    assert Suspension.objects.get().status == SuspensionStatus.SERVED
    assert ServedGame.objects.get().entry == club


def test_every_team_and_championship_the_person_is_in_is_told(offence):
    game, player = offence
    receive(game, player)
    suspension = Suspension.objects.get()
    manager = with_role(Role.TEAM_MANAGER)
    game.home.managers.add(manager)
    other = TeamEntryFactory(championship=ChampionshipFactory(sanctioning_body=game.championship.sanctioning_body))
    RosterEntryFactory(entry=other, person=player, number="5")
    other_manager = with_role(Role.TEAM_MANAGER)
    other.managers.add(other_manager)
    director = federation_staff(game.championship.sanctioning_body)
    stranger = with_role(Role.TEAM_MANAGER)
    GameFactory().home.managers.add(stranger)
    told = recipients(suspension)
    assert {manager, other_manager, director} <= set(told) and stranger not in told


def test_an_amendment_that_removes_the_penalty_withdraws_report_and_suspension(offence):
    game, player = offence
    receive(game, player)
    receive_game_consequences(game=game, consequences=[], now=game.start_at + 3 * HOUR)
    assert Suspension.objects.get().status == SuspensionStatus.WITHDRAWN
    assert IncidentReport.objects.get().status == ReportStatus.WITHDRAWN
    receive(game, player)  # it comes back
    assert Suspension.objects.get().status == SuspensionStatus.ACTIVE
    assert IncidentReport.objects.get().status == ReportStatus.OPEN


def test_active_suspensions_is_one_query(offence, django_assert_num_queries):
    game, player = offence
    others = [RosterEntryFactory(entry=game.home, number=str(20 + i)).person for i in range(5)]  # not #7
    given = [consequence(game, p, penalty_id=f"x{i}") for i, p in enumerate([player, *others])]
    receive_game_consequences(game=game, consequences=given, now=game.start_at + 2 * HOUR)
    nxt = later(game, 24)
    with django_assert_num_queries(1):
        found = active_suspensions(game=nxt, person_ids=[player.pk, *(p.pk for p in others)])
    assert len(found) == 6


def test_the_committee_checks_its_sanction_naming_the_rule(offence):
    game, player = offence
    receive(game, player, kind="match", article="6.1.6", infraction="attempt_to_injure")
    committee = with_role(Role.DISCIPLINE_COMMITTEE)
    case = cases.open_case(reports=[IncidentReport.objects.get()], title="c", by=committee)
    soon = game.start_at + 24 * HOUR
    with pytest.raises(ValidationError) as exc:
        cases.decide_case(
            case=case, outcome="sanctions", reasons="r", by=committee, now=game.start_at,
            sanctions=[cases.Sanction(person_id=player.pk, kind="period", until=soon, article="8.2 B")],
        )  # fmt: skip
    assert "Rule 8.2 B" in exc.value.message_dict["sanctions"][0]
    assert Suspension.objects.get().status == SuspensionStatus.ACTIVE  # nothing stored
