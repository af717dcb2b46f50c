"""The discipline module's documents (issue 11): the protest decision letter (9.1 A, R-52), the committee decision
letter (R-53, 9.2 A, R-54) and a championship's suspension list (8.2), rendered from the demo data and read back
with pdftotext; who reads them, from when, and which version is current."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from accounts.models import Role
from discipline import appeals, cases
from discipline import protests as protest_services
from discipline.models import (
    Case,
    CaseStatus,
    ConfidentialReport,
    IncidentReport,
    Protest,
    ProtestStatus,
    Suspension,
    SuspensionKind,
)
from reports import services
from reports.models import DocumentKind, DocumentStatus
from tests.discipline.appeal_helpers import DAY, decided_case
from tests.discipline.protest_helpers import stored_protest
from tests.factories import GameFactory, TeamEntryFactory, UserFactory, with_role

from .helpers import flat, rendered, rendered_text


def _row(*cells: str) -> re.Pattern:
    """A table row's cells in order, whatever the page put between them (a wrapped cell's other lines)."""
    return re.compile(".*?".join(re.escape(cell) for cell in cells))


@pytest.mark.django_db
class TestTheDemoDisciplineDocuments:
    def test_the_rejected_protest_letter_has_the_decision_its_reasons_and_the_forfeited_fee(self, demo, tmp_path):
        protest = Protest.objects.select_related("entry__federation", "game").get(status=ProtestStatus.REJECTED)
        text = rendered_text(DocumentKind.PROTEST_DECISION, protest, tmp_path)
        assert protest.entry.federation.name in text and protest.entry.name in text
        assert f"Decision on your protest (Protest #{protest.pk}): game {protest.game.number}" in text
        assert "The protest is REJECTED." in text
        assert flat(protest.decision_reason) in text
        assert "The protest fee of USD 200.00 is forfeited (9.1 A, R-52: the protest is found unjustified)." in text
        assert (
            "General Assembly of the IHTC" in text and "FIRS, whose decision is final and binding (9.2 A, R-54)" in text
        )
        assert "No appeal deadline is set for this championship." in text and "parameter" not in text

    def test_the_committee_letter_has_the_outcome_each_sanction_the_reasons_and_the_appeal_route(self, demo, tmp_path):
        case = Case.objects.get(status=CaseStatus.DECIDED)
        decision = case.decision
        text = rendered_text(DocumentKind.CASE_DECISION, case, tmp_path)
        assert f"Decision of the IHTC Discipline Committee, Case #{case.pk}: {case.title}" in text
        assert "Outcome: Sanctions" in text
        sanctions = list(decision.suspensions.select_related("person", "entry"))
        assert sanctions
        for suspension in sanctions:
            assert _row(str(suspension.person), suspension.article, f"{suspension.games_required} games").search(text)
        # 8.2 A: the automatic suspension the decision replaced is named with its game.
        replaced = Suspension.objects.get(consequence__incident_report__case=case, provisional=True)
        assert _row(str(replaced.person), replaced.article, "1 game").search(text)
        assert flat(decision.reasons) in text
        assert "General Assembly of the IHTC" in text and "Ordinary Congress of FIRS" in text

    def test_no_letter_reads_a_confidential_report(self, demo, tmp_path):
        secrets = list(ConfidentialReport.objects.values_list("text", flat=True))
        assert secrets
        letters = [
            rendered_text(DocumentKind.CASE_DECISION, c, tmp_path) for c in Case.objects.filter(status="decided")
        ]
        letters += [
            rendered_text(DocumentKind.PROTEST_DECISION, p, tmp_path) for p in Protest.objects.filter(status="rejected")
        ]
        for letter in letters:
            for secret in secrets:
                assert flat(secret)[:40] not in letter

    def test_the_suspension_list_has_every_suspension_of_the_championship_with_article_and_games(self, demo, tmp_path):
        suspension = Suspension.objects.select_related("championship").first()
        championship = suspension.championship
        rows = list(Suspension.objects.filter(championship=championship).select_related("person"))
        assert len(rows) >= 3
        text = rendered_text(DocumentKind.SUSPENSIONS, championship, tmp_path)
        assert f"{len(rows)} suspensions" in text
        for row in rows:
            cells = [str(row.person), row.article]
            if row.kind == SuspensionKind.GAMES:
                cells.append(f"{row.games_required} game")
            assert _row(*cells).search(text), row


# --- factories: from when, who, which version ------------------------------------------------------------------


def _rejected_protest(**kwargs):
    """A ruling protest of the home team, rejected by the committee (fee forfeited); the teams' managers."""
    game = GameFactory()
    home, away = with_role(Role.TEAM_MANAGER, game.home.federation), with_role(Role.TEAM_MANAGER, game.away.federation)
    game.home.managers.add(home)
    game.away.managers.add(away)
    protest = stored_protest(game, game.home, home, at=game.start_at + datetime.timedelta(hours=1))
    Protest.objects.filter(pk=protest.pk).update(status=ProtestStatus.UNDER_REVIEW)
    committee = with_role(Role.DISCIPLINE_COMMITTEE)
    return protest, home, away, committee


def _state(client, route: str, pk: int):
    return client.get(reverse(f"reports-api:{route}", args=[pk]))


@pytest.mark.django_db
def test_a_protest_letter_is_404_until_the_protest_is_decided_then_the_protesting_team_reads_it(client):
    protest, home, away, committee = _rejected_protest()
    client.force_login(home)
    answer = _state(client, "protest-decision-letter", protest.pk)
    assert answer.status_code == 404 and "once the IHTC decides" in answer.json()["detail"]
    page = client.get(reverse("reports:protest-decision-letter", args=[protest.pk]))
    assert page.status_code == 404 and "once the IHTC decides" in page.content.decode()
    protest_services.protest_reject(by=committee, protest=protest, reason="Unfounded.", now=protest.filed_at + DAY)
    assert _state(client, "protest-decision-letter", protest.pk).status_code == 200
    assert client.get(reverse("reports:protest-decision-letter", args=[protest.pk])).status_code == 200
    detail = client.get(reverse("discipline:protest-detail", args=[protest.pk])).content.decode()
    assert reverse("reports:protest-decision-letter", args=[protest.pk]) in detail


@pytest.mark.django_db
def test_an_unrelated_manager_and_anonymous_are_refused_the_protest_letter(client):
    protest, *_, committee = _rejected_protest()
    protest_services.protest_reject(by=committee, protest=protest, reason="Unfounded.", now=protest.filed_at + DAY)
    page = reverse("reports:protest-decision-letter", args=[protest.pk])
    assert client.get(page).status_code == 302  # to the login
    assert _state(client, "protest-decision-letter", protest.pk).status_code in (401, 403)
    stranger = with_role(Role.TEAM_MANAGER)
    TeamEntryFactory(championship=protest.game.championship).managers.add(stranger)
    client.force_login(stranger)
    assert client.get(page).status_code == 404
    assert _state(client, "protest-decision-letter", protest.pk).status_code == 404


@pytest.mark.django_db
def test_an_upheld_protest_letter_returns_the_fee(tmp_path):
    protest, *_, committee = _rejected_protest()
    protest = protest_services.protest_uphold(
        by=committee, protest=protest, reason="The player was not qualified.", now=protest.filed_at + DAY
    )
    text = rendered_text(DocumentKind.PROTEST_DECISION, protest, tmp_path)
    assert "The protest is UPHELD." in text
    assert "returned in full to the complainant (9.1 A, R-52" in text
    assert f"by {committee}" in text


@pytest.mark.django_db
def test_the_committee_letter_is_404_before_the_decision_even_for_the_committee(client):
    from discipline.services import receive_game_consequences
    from tests.factories import RosterEntryFactory, game_consequence
    from tournaments.models import GameStatus

    game = GameFactory(status=GameStatus.FINAL, home_goals=1, away_goals=0)
    player = RosterEntryFactory(entry=game.home).person
    receive_game_consequences(game=game, consequences=[game_consequence(game, player)], now=game.start_at)
    committee = with_role(Role.DISCIPLINE_COMMITTEE)
    case = cases.open_case(reports=[IncidentReport.objects.get()], title="Open", by=committee)
    client.force_login(committee)
    answer = _state(client, "case-decision-letter", case.pk)
    assert answer.status_code == 404 and "once the case is decided" in answer.json()["detail"]


@pytest.mark.django_db
def test_the_committee_letter_is_read_by_the_sanctioned_players_manager_not_the_opponents_nor_strangers(client):
    decision, player, committee = decided_case()
    case, game = decision.case, decision.case.incident_reports.get().game
    page = reverse("reports:case-decision-letter", args=[case.pk])
    party = with_role(Role.TEAM_MANAGER, game.home.federation)
    game.home.managers.add(party)
    opponent = with_role(Role.TEAM_MANAGER, game.away.federation)
    game.away.managers.add(opponent)
    for user, status in ((party, 200), (committee, 200), (opponent, 404), (UserFactory(), 404)):
        client.force_login(user)
        assert client.get(page).status_code == status, user
        assert _state(client, "case-decision-letter", case.pk).status_code == status, user
    client.force_login(party)
    decision_page = client.get(reverse("discipline:appeal-lodge", args=[decision.pk])).content.decode()
    assert page in decision_page
    client.logout()
    assert client.get(page).status_code == 302
    assert _state(client, "case-decision-letter", case.pk).status_code in (401, 403)


@pytest.mark.django_db
def test_an_appeal_upheld_makes_a_new_letter_and_the_old_one_is_not_served_as_current(client, tmp_path):
    decision, player, committee = decided_case()
    case = decision.case
    old = rendered(DocumentKind.CASE_DECISION, case)
    assert "In force" in rendered_text(DocumentKind.CASE_DECISION, case, tmp_path)
    executive = with_role(Role.IHTC_EXECUTIVE)
    appeal = appeals.file_appeal(decision=decision, level="general_assembly", grounds="Too harsh.", by=committee)
    appeals.decide_appeal(appeal=appeal, outcome="upheld", reasons="The video clears him.", by=executive)
    current = services.document_current(DocumentKind.CASE_DECISION, case)
    assert current.pk != old.pk and current.version != old.version
    assert current.status == DocumentStatus.QUEUED
    client.force_login(committee)
    assert client.get(reverse("reports-api:case-decision-letter-pdf", args=[case.pk])).status_code == 409
    text = rendered_text(DocumentKind.CASE_DECISION, case, tmp_path)
    assert _row("Annulled on", "The video clears him.").search(text)


@pytest.mark.django_db
def test_the_suspension_list_is_the_championships_staff_and_committees_not_a_team_managers(client):
    decision, player, committee = decided_case()
    championship = decision.case.championship
    page = reverse("reports:suspensions-report", args=[championship.pk])
    manager = with_role(Role.TEAM_MANAGER)
    decision.case.incident_reports.get().entry.managers.add(manager)
    for user, status in ((committee, 200), (manager, 403), (UserFactory(), 403)):
        client.force_login(user)
        assert client.get(page).status_code == status, user
        assert _state(client, "suspensions-report", championship.pk).status_code == status, user
    client.force_login(committee)
    listing = client.get(reverse("discipline:championship-suspensions", args=[championship.pk])).content.decode()
    assert page in listing


@pytest.mark.django_db
def test_a_protest_letter_names_the_case_the_protest_was_joined_to(tmp_path):
    protest, *_, committee = _rejected_protest()
    case = cases.open_case(protests=[protest], title="Unqualified player", by=committee)
    protest = protest_services.protest_reject(
        by=committee, protest=protest, reason="He was qualified.", now=protest.filed_at + DAY
    )
    text = rendered_text(DocumentKind.PROTEST_DECISION, protest, tmp_path)
    assert f"Joined to case #{case.pk}: Unqualified player (R-53)" in text
