"""The end of the game: signatures (4.2 O, 4.3 A), the finalize pipeline into results, standings, statistics,
discipline and the report, and the audited amendment of a final sheet."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from discipline.models import GameConsequence
from games.finalize import finalize_game, sheet_amend, sheet_sign, signatures_state, signers
from games.models import GameReportRequest, GameSheet, SheetAmendment, SheetEvent, SheetSignature, SheetStatus
from tests.factories import TEST_PIN, PersonFactory, federation_staff, international_staff
from tournaments import services as tournament_services
from tournaments.models import (
    DecidedIn,
    Game,
    GoalkeeperRecord,
    GoalRecord,
    PenaltyRecord,
    ResultAmendment,
    RosterEntry,
)
from tournaments.selectors import standings_for_pool

from .endgame_helpers import AFTER_GAME, DEVICE, played_game, post_log, sign_all, whole_game
from .sheet_helpers import entry

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
    # The time in goal: each team's first goalkeeper played both periods (40:00).
    assert set(GoalkeeperRecord.objects.filter(game=game).values_list("seconds_played", flat=True)) == {2400}


def with_pool(game):
    from tests.factories import PoolFactory, PoolTeamFactory

    pool = PoolFactory(championship=game.championship)
    PoolTeamFactory(pool=pool, entry=game.home, seed=1)
    PoolTeamFactory(pool=pool, entry=game.away, seed=2)
    Game.objects.filter(pk=game.pk).update(pool=pool)
    return pool


def test_standings_and_statistics_follow_the_signed_sheet(crew):
    from tournaments.selectors import championship_statistics

    game, scorer = crew
    pool = with_pool(game)
    post_log(game, scorer, whole_game())
    sign_all(game, scorer)
    standings = standings_for_pool(pool)
    assert (standings.row(game.home.name).points, standings.row(game.away.name).points) == (2, 0)
    assert standings.row(game.home.name).goals_for == 2
    stats = championship_statistics(game.championship)
    eight = next(p for p in stats.players if p.person == person_of(game, "home", 8).pk)
    assert (eight.goals, eight.assists, eight.points) == (1, 0, 1)
    sixteen = next(p for p in stats.players if p.person == person_of(game, "away", 16).pk)
    assert sixteen.penalty_minutes == 15  # the major's 5 and its game misconduct's 10
    keeper = next(k for k in stats.goalkeepers if k.goalkeeper == person_of(game, "away", 31).pk)
    assert (keeper.shots_against, keeper.saves, keeper.seconds_played) == (3, 1, 2400)


def test_the_consequences_go_to_discipline_once_and_finalizing_again_changes_nothing(crew, director):
    game, scorer = crew
    post_log(game, scorer, whole_game())
    first = sign_all(game, scorer)
    assert [(c.kind, c.article) for c in first.consequences.received] == [("game_misconduct", "6.1.3 B")]
    consequence = GameConsequence.objects.get(game=game)
    assert (consequence.person, consequence.number, consequence.infraction) == (
        person_of(game, "away", 16),
        16,
        "slashing_major",
    )
    assert GameReportRequest.objects.filter(game=game).count() == 1
    history = {model: model.history.count() for model in (GoalRecord, PenaltyRecord, GoalkeeperRecord, Game)}
    again = finalize_game(game, by=director, now=AFTER_GAME)
    assert not again.changed and not again.consequences.changed and again.report is None
    assert GameConsequence.objects.filter(game=game).count() == 1
    assert GameReportRequest.objects.filter(game=game).count() == 1
    assert {model: model.history.count() for model in history} == history


def test_a_forfeit_on_the_sheet_is_the_8_1_b_result_with_its_penalties_kept(crew):
    game, scorer = crew
    post_log(
        game,
        scorer,
        [
            entry("period_start", period=1),
            entry("penalty", period=1, time="2:00", team="home", player=5, penalty="misconduct", infraction="protest"),
            entry("clock_start", period=1, time="2:00"),
            entry("goal", period=1, time="3:00", team="away", player=13),
            entry("forfeit", period=1, time="3:00", team="home", note="8.1 A: the team refused to play"),
        ],
    )
    result = sign_all(game, scorer)
    game.refresh_from_db()
    assert (game.decided_in, game.forfeited_by, game.home_goals, game.away_goals) == (
        DecidedIn.FORFEIT,
        game.home,
        0,
        1,
    )
    assert result.summary.forfeit_reason == "8.1 A: the team refused to play"
    # 8.1 B: one goal, the winner's captain's, no assist; no goalkeeper line; the misconduct stays (6.1.5 C).
    assert list(GoalRecord.objects.filter(game=game).values_list("scorer", "assist", "forfeit_award")) == [
        (person_of(game, "away", 12).pk, None, True)
    ]
    assert not GoalkeeperRecord.objects.filter(game=game).exists()
    assert list(PenaltyRecord.objects.filter(game=game).values_list("infraction_code", "minutes")) == [("protest", 10)]


def test_a_final_sheet_refuses_the_staffs_manual_summary_naming_the_rule(crew, director):
    game, scorer = crew
    post_log(game, scorer, [entry("period_start", period=1)])
    with pytest.raises(ValidationError) as refused:
        tournament_services.goal_add(
            game=game,
            entry=game.home,
            scorer=person_of(game, "home", 8),
            period=1,
            time_tenths=600,
            by=director,
            now=AFTER_GAME,
        )
    assert "Rule 4.3 A" in str(refused.value) and "the sheet" in str(refused.value)
    with pytest.raises(ValidationError, match="Rule 4.3 A"):
        tournament_services.game_record_result(game=game, home_goals=0, away_goals=0, by=director, now=AFTER_GAME)
    with pytest.raises(ValidationError, match="Rule 4.3 A"):
        tournament_services.penalty_add(
            game=game, entry=game.home, infraction_code="tripping", minutes=2, period=1, time_tenths=10, by=director,
            now=AFTER_GAME,
        )  # fmt: skip
    assert not GoalRecord.objects.filter(game=game).exists() and not PenaltyRecord.objects.exists()
    # Nor may anyone derive it from a sheet that is not final (4.2 O).
    with pytest.raises(ValidationError, match="Rule 4.2 O"):
        tournament_services.goal_add(
            game=game, entry=game.home, scorer=person_of(game, "home", 8), period=1, time_tenths=600, by=director,
            now=AFTER_GAME, from_sheet=True,
        )  # fmt: skip


def test_manual_lines_entered_before_the_sheet_opened_give_way_to_the_sheet(crew, director):
    game, scorer = crew
    tournament_services.penalty_add(
        game=game, entry=game.home, infraction_code="holding", minutes=2, period=1, time_tenths=10, by=director,
        now=AFTER_GAME,
    )  # fmt: skip
    post_log(game, scorer, whole_game())
    sign_all(game, scorer)
    assert not PenaltyRecord.objects.filter(game=game, infraction_code="holding").exists()
    assert PenaltyRecord.objects.filter(game=game).count() == 3


# --- signatures (4.2 O, 4.3 A) --------------------------------------------------------------------------------


def test_the_report_is_final_only_with_every_referee_the_scorer_and_each_teams_captain_or_coach(crew):
    game, scorer = crew
    post_log(game, scorer, whole_game())
    by_role = {}
    for signer in signers(game):
        by_role.setdefault(signer.role, []).append(signer.person)
    assert len(by_role["referee"]) == 2 and len(by_role["home_coach"]) == 1
    steps = [
        ("referee", by_role["referee"][0]),
        ("referee", by_role["referee"][1]),
        ("scorer", by_role["scorer"][0]),
        ("home_coach", by_role["home_coach"][0]),  # 4.3 A: the captain and/or the coach
    ]
    for role, person in steps:
        _, finalized = sheet_sign(
            game=game, by=scorer, role=role, person=person, device=DEVICE, pin=TEST_PIN, now=AFTER_GAME
        )
        assert finalized is None
        assert GameSheet.objects.get(game=game).status == SheetStatus.OPEN
    missing = signatures_state(game, user=scorer).missing
    assert missing == [f"Rule 4.2 O / 4.3 A: {game.away}'s captain or coach"]
    _, finalized = sheet_sign(
        game=game,
        by=scorer,
        role="away_captain",
        person=by_role["away_captain"][0],
        device=DEVICE,
        pin=TEST_PIN,
        now=AFTER_GAME,
    )
    assert finalized is not None and GameSheet.objects.get(game=game).status == SheetStatus.FINAL
    assert SheetSignature.objects.filter(sheet__game=game).count() == 5


def test_a_game_is_signed_only_once_it_has_ended(crew):
    game, scorer = crew
    post_log(game, scorer, whole_game()[:5])
    referee = next(s.person for s in signers(game) if s.role == "referee")
    with pytest.raises(ValidationError) as refused:
        sheet_sign(game=game, by=scorer, role="referee", person=referee, device=DEVICE, pin=TEST_PIN, now=AFTER_GAME)
    assert "Rule 4.2 O" in str(refused.value) and "the game is in progress" in str(refused.value)
    assert not SheetSignature.objects.exists()


def test_only_the_games_signers_sign_in_their_role(crew):
    game, scorer = crew
    post_log(game, scorer, whole_game())
    stranger = PersonFactory()
    home_captain = next(s.person for s in signers(game) if s.role == "home_captain")
    for role, person in (("referee", stranger), ("away_captain", home_captain)):
        with pytest.raises(ValidationError) as refused:
            sheet_sign(game=game, by=scorer, role=role, person=person, device=DEVICE, pin=TEST_PIN, now=AFTER_GAME)
        assert "Rule 4.2 O / 4.3 A" in refused.value.message_dict["person"][0]
    with pytest.raises(ValidationError) as refused:
        sheet_sign(
            game=game, by=scorer, role="umpire", person=home_captain, device=DEVICE, pin=TEST_PIN, now=AFTER_GAME
        )
    assert "role" in refused.value.message_dict
    assert not SheetSignature.objects.exists()


def test_an_entry_after_a_signature_calls_for_it_again(crew):
    game, scorer = crew
    events = whole_game()
    post_log(game, scorer, events[:-1])
    # The last period is not over yet: enter its end, then the referee signs; a correction follows.
    post_log(game, scorer, events[-1:])
    referee = next(s.person for s in signers(game) if s.role == "referee")
    sheet_sign(game=game, by=scorer, role="referee", person=referee, device=DEVICE, pin=TEST_PIN, now=AFTER_GAME)
    shot = next(e for e in events if e["type"] == "shot")
    post_log(game, scorer, [entry("correction", voids=shot["id"])])
    state = signatures_state(game, user=scorer)
    assert [s.person for s in state.stale] == [referee] and not state.signed
    sheet_sign(game=game, by=scorer, role="referee", person=referee, device=DEVICE, pin=TEST_PIN, now=AFTER_GAME)
    assert [s.person for s in signatures_state(game, user=scorer).signed] == [referee]


def test_a_game_without_a_referee_cannot_be_signed_4_2_a(director):
    game, scorer = played_game(director, referees=0)
    post_log(game, scorer, whole_game())
    assert "Rule 4.2 A / 4.2 O" in signatures_state(game, user=scorer).missing[0]
    sign_all(game, scorer)
    assert GameSheet.objects.get(game=game).status == SheetStatus.OPEN


def test_a_final_sheet_takes_no_signature_and_no_entry(crew):
    game, scorer = crew
    post_log(game, scorer, whole_game())
    sign_all(game, scorer)
    referee = next(s.person for s in signers(game) if s.role == "referee")
    with pytest.raises(ValidationError, match="final"):
        sheet_sign(game=game, by=scorer, role="referee", person=referee, device=DEVICE, pin=TEST_PIN, now=AFTER_GAME)
    with pytest.raises(ValidationError, match="4.2 O"):
        post_log(game, scorer, [entry("shot", period=2, time="19:00", team="home")])


def test_who_may_record_signatures(crew):
    game, scorer = crew
    post_log(game, scorer, whole_game())
    referee = next(s.person for s in signers(game) if s.role == "referee")
    outsider = federation_staff()
    with pytest.raises(PermissionDenied):
        sheet_sign(game=game, by=outsider, role="referee", person=referee, device=DEVICE, pin=TEST_PIN, now=AFTER_GAME)


def test_a_penalty_without_its_infraction_keeps_the_report_from_being_signed_4_3_a(crew):
    game, scorer = crew
    events = whole_game()
    events.insert(4, entry("penalty", period=1, time="6:00", team="home", player=4, penalty="minor"))
    post_log(game, scorer, events)
    problems = signatures_state(game, user=scorer).problems
    assert any("Rule 4.3 A / R-20" in p and "home 4" in p for p in problems)


# --- the audited amendment of a final sheet ---------------------------------------------------------------------


def test_an_amendment_is_audited_and_the_result_standings_and_consequences_follow(crew, director):
    game, scorer = crew
    pool = with_pool(game)
    events = whole_game()
    post_log(game, scorer, events)
    sign_all(game, scorer)
    second_goal = events[5]
    major = events[13]
    amendment, finalized = sheet_amend(
        game=game,
        by=director,
        reason="Video review: home's second goal was kicked in; the major was a minor.",
        events=[
            entry("correction", voids=second_goal["id"]),
            entry("correction", voids=major["id"]),
            entry("penalty", period=2, time="12:00", team="away", player=16, penalty="minor", infraction="slashing"),
            entry("clock_start", period=2, time="12:00"),
        ],
        now=AFTER_GAME,
    )
    game.refresh_from_db()
    assert (game.home_goals, game.away_goals) == (1, 1)
    standings = standings_for_pool(pool)
    assert (standings.row(game.home.name).points, standings.row(game.away.name).points) == (1, 1)
    assert (amendment.amended_by, amendment.reason.startswith("Video review")) == (director, True)
    assert (amendment.before["home_goals"], amendment.after["home_goals"]) == (2, 1)
    assert len(amendment.event_ids) == 4
    assert SheetEvent.objects.filter(sheet__game=game, event_id__in=amendment.event_ids).count() == 4
    assert amendment.result_amendment == ResultAmendment.objects.get(game=game)
    # The major's game misconduct is withdrawn from discipline; a new report version is requested.
    consequence = GameConsequence.objects.get(game=game)
    assert consequence.withdrawn_at is not None and finalized.consequences.withdrawn == (consequence,)
    assert GameReportRequest.objects.filter(game=game).count() == 2
    assert finalized.report.amendment == amendment
    assert sorted(PenaltyRecord.objects.filter(game=game).values_list("infraction_code", "minutes")) == [
        ("slashing", 2),
        ("tripping", 2),
    ]


def test_an_amendment_needs_directing_staff_a_reason_and_a_change(crew, director):
    game, scorer = crew
    events = whole_game()
    post_log(game, scorer, events)
    sign_all(game, scorer)
    stored = SheetEvent.objects.filter(sheet__game=game).count()
    shot = entry("shot", period=2, time="19:00", team="home")
    with pytest.raises(PermissionDenied):
        sheet_amend(game=game, by=scorer, reason="More shots", events=[shot], now=AFTER_GAME)
    with pytest.raises(ValidationError) as refused:
        sheet_amend(game=game, by=director, reason="  ", events=[shot], now=AFTER_GAME)
    assert "reason" in refused.value.message_dict
    # A shot in the last minute changes the home goalkeeper's... nothing: the away goalkeeper's saves.
    note = entry("shot", period=2, time="19:00", team="home", note="changes away 31's saves")
    sheet_amend(game=game, by=director, reason="A shot was missed", events=[note], now=AFTER_GAME)
    away_keeper = GoalkeeperRecord.objects.get(game=game, goalkeeper=person_of(game, "away", 31))
    assert (away_keeper.shots_against, away_keeper.saves) == (4, 2)
    assert not ResultAmendment.objects.filter(game=game).exists()  # the result did not change
    # A correction that voids a correction of nothing: the engine refuses it, nothing stored.
    with pytest.raises(ValidationError):
        sheet_amend(
            game=game, by=director, reason="Void the end", events=[entry("correction", voids=events[-1]["id"])],
            now=AFTER_GAME,
        )  # fmt: skip
    assert SheetEvent.objects.filter(sheet__game=game).count() == stored + 1
    assert SheetAmendment.objects.filter(sheet__game=game).count() == 1


def test_an_amendment_cannot_turn_a_played_game_into_a_forfeit_8_1(crew, director):
    game, scorer = crew
    events = whole_game()
    post_log(game, scorer, events)
    sign_all(game, scorer)
    with pytest.raises(ValidationError, match="8.1 B-C"):
        sheet_amend(
            game=game,
            by=director,
            reason="Home refused to play on",
            events=[entry("correction", voids=events[-1]["id"]), entry("forfeit", period=2, time="20:00", team="home")],
            now=AFTER_GAME,
        )
    game.refresh_from_db()
    assert game.decided_in == DecidedIn.REGULATION and not SheetAmendment.objects.exists()


def test_the_signed_sheet_and_its_amendment_each_tell_the_pages_once(crew, director, monkeypatch):
    """After the commit, the results and standings pages and the scoreboard hear that the game's final version
    changed (games.live.publish_game_final): once at the signing, once per amendment, never twice for one."""
    import games.finalize as finalize
    import games.live as live

    told: list[tuple[int, int]] = []

    def record(game_id, *, championship_id):
        told.append((game_id, championship_id))

    monkeypatch.setattr(finalize, "publish_game_final", record)
    monkeypatch.setattr(live, "publish_game_final", record)  # the results services' own announcement
    game, scorer = crew
    events = whole_game()
    post_log(game, scorer, events)
    told.clear()  # the sheet's end of game is announced with its entry (games.live.publish_sheet)
    with _on_commit_runs():
        sign_all(game, scorer)
    assert told == [(game.pk, game.championship_id)]
    with _on_commit_runs():
        sheet_amend(
            game=game,
            by=director,
            reason="Video review: home's second goal was kicked in.",
            events=[entry("correction", voids=events[5]["id"])],
            now=AFTER_GAME,
        )
    assert told == [(game.pk, game.championship_id)] * 2


def _on_commit_runs():
    from django.test import TestCase

    return TestCase.captureOnCommitCallbacks(execute=True)
