"""Incident reports made when a game becomes final, confidential reports and their audience (4.2 P, 6.1.5 A,
6.4.29 note; R-53), and the game served on the sheet's path."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from accounts.models import Role
from discipline import access, cases
from discipline.models import Attachment, CaseTransition, ConfidentialReport, IncidentReport, Suspension
from games.models import GameOfficial, OfficialAccount
from tests.factories import GameFactory, html_upload, international_staff, pdf_upload, with_role
from tests.games.endgame_helpers import AFTER_GAME, played_game, post_log, sign_all, whole_game
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return international_staff()


@pytest.fixture
def signed(director):
    game, scorer = played_game(director)
    post_log(game, scorer, whole_game())
    sign_all(game, scorer)
    return game, scorer


def referee_login(game):
    """The login of the game's first referee (tests.games.endgame_helpers.played_game links one to sign)."""
    referee = GameOfficial.objects.filter(game=game, duty="referee").first().person
    login = OfficialAccount.objects.get(person=referee).user
    assert login.role_assignments.filter(role=Role.GAME_OFFICIAL).exists()
    return login


def test_a_signed_sheet_makes_the_incident_report_with_the_games_facts_4_2_p(signed, director):
    game, _ = signed
    report = IncidentReport.objects.get()
    assert (report.game, report.entry, report.kind, report.article, report.period, report.time_tenths) == (
        game, game.away, "game_misconduct", "6.1.3 B", 2, 7200,
    )  # fmt: skip
    assert report.clock == "P2 12:00" and report.officials.count("Referee") == 2 and "scorer" in report.officials
    suspension = Suspension.objects.get()
    assert (suspension.person, suspension.article) == (report.person, "8.2 A")
    # The team's next game, recorded by staff without a sheet: served on that path too.
    nxt = GameFactory(
        championship=game.championship, phase=game.phase, home=game.away, start_at=game.start_at.replace(day=2)
    )
    tournament_services.game_record_result(
        game=nxt, home_goals=0, away_goals=0, by=director, now=AFTER_GAME.replace(day=3)
    )
    suspension.refresh_from_db()
    assert suspension.status == "served"


def test_confidential_reports_are_read_by_the_committee_the_executive_and_the_author_only(signed):
    game, scorer = signed
    referee = referee_login(game)
    report = cases.file_confidential_report(
        game=game, kind="referee", text="No. 16 slashed deliberately.", by=referee, attachments=[pdf_upload()],
        incident_report=IncidentReport.objects.get(),
    )  # fmt: skip
    assert Attachment.objects.get().content_type == "application/pdf"
    readers = {
        "committee": with_role(Role.DISCIPLINE_COMMITTEE),
        "executive": with_role(Role.IHTC_EXECUTIVE),
        "author": referee,
    }
    others = {"scorer": scorer, "staff": international_staff(), "manager": with_role(Role.TEAM_MANAGER)}
    for who, user in readers.items():
        assert access.access_confidential_report(user, report.pk) == report, who
        assert access.access_attachment(user, Attachment.objects.get().pk).report == report, who
    for who, user in others.items():
        with pytest.raises(Exception, match="No such"):
            access.access_confidential_report(user, report.pk)
        with pytest.raises(Exception, match="No such"):
            access.access_attachment(user, Attachment.objects.get().pk)
        assert not access.confidential_reports_visible_to(user).exists(), who


def test_who_files_which_report_4_2_p_6_4_29(signed):
    game, scorer = signed
    manager = with_role(Role.TEAM_MANAGER)
    game.home.managers.add(manager)
    stranger = with_role(Role.TEAM_MANAGER)
    with pytest.raises(PermissionDenied, match="4.2 P"):
        cases.file_confidential_report(game=game, kind="referee", text="x", by=scorer)
    assert cases.file_confidential_report(game=game, kind="6.4.29", text="Obscene gestures by 12.", by=scorer)
    assert cases.file_confidential_report(game=game, kind="6.4.29", text="Abuse from the away bench.", by=manager)
    with pytest.raises(PermissionDenied, match="6.4.29"):
        cases.file_confidential_report(game=game, kind="6.4.29", text="x", by=stranger)
    with pytest.raises(ValidationError) as exc:
        cases.file_confidential_report(game=game, kind="6.4.29", text="x", by=manager, attachments=[html_upload()])
    assert "attachments" in exc.value.message_dict
    assert ConfidentialReport.objects.count() == 2  # nothing stored by the refusals


def test_a_case_gathers_reports_has_a_hearing_and_a_decision_audited(signed):
    game, _ = signed
    committee = with_role(Role.DISCIPLINE_COMMITTEE)
    report = IncidentReport.objects.get()
    with pytest.raises(PermissionDenied):
        cases.open_case(reports=[report], title="x", by=with_role(Role.TEAM_MANAGER))
    case = cases.open_case(reports=[report], title="Slashing, away 16", by=committee)
    cases.schedule_hearing(case=case, hearing_at=AFTER_GAME.replace(day=2), by=committee)
    cases.add_statement(case=case, text="The player regrets it.", by=committee, attachments=[pdf_upload()])
    decision = cases.decide_case(case=case, outcome="no_action", reasons="The provisional game suffices.", by=committee)
    assert decision.case.status == "decided"
    assert list(CaseTransition.objects.values_list("from_status", "to_status", "by")) == [
        ("", "open", committee.pk), ("open", "hearing", committee.pk), ("hearing", "decided", committee.pk),
    ]  # fmt: skip
    assert Suspension.objects.get().status == "active"  # 8.2 A is automatic: no action leaves it standing
    with pytest.raises(ValidationError) as exc:
        cases.decide_case(case=case, outcome="no_action", reasons="again", by=committee)
    assert "R-53" in exc.value.message_dict["status"][0]
