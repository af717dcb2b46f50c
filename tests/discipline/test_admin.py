"""The discipline admin (discipline/admin.py): read only, scoped by the discipline access layer; CONFIDENTIAL
reports (4.2 P, 6.4.29; R-53) for their audience only, history and list counts included; no revert around the
services; lists in a constant number of queries."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from djmoney.money import Money

from accounts.models import Role
from discipline import appeals, cases
from discipline.models import (
    Case,
    ConfidentialReport,
    Deadline,
    IncidentReport,
    Protest,
    ProtestAttachment,
    ProtestTransition,
    ServedGame,
    Suspension,
)
from discipline.services import receive_game_consequences
from games.models import GameOfficial, OfficialAccount
from tests.factories import (
    GameFactory,
    PersonFactory,
    RosterEntryFactory,
    SuperuserFactory,
    federation_staff,
    game_consequence,
    international_staff,
    pdf_upload,
    with_role,
)
from tournaments.models import GameStatus

pytestmark = pytest.mark.django_db

HOUR = datetime.timedelta(hours=1)
DISCIPLINE_MODELS = [
    "protest", "protesttransition", "protestattachment", "deadline", "gameconsequence", "incidentreport",
    "confidentialreport", "attachment", "case", "casetransition", "casestatement", "decision", "suspension",
    "servedgame", "appeal",
]  # fmt: skip


def records(championship=None) -> dict:
    """One of every discipline record: a final game's match penalty (its consequence, incident report and
    provisional suspension, one game served), a referee's confidential report with a PDF by a referee who is admin
    staff, a case with a statement and a decision, an appeal, a protest with its deadline, log row and file."""
    game = GameFactory(
        status=GameStatus.FINAL, home_goals=1, away_goals=0, **({"championship": championship} if championship else {})
    )
    player = RosterEntryFactory(entry=game.home).person
    at = game.start_at + 2 * HOUR
    receive_game_consequences(
        game=game, consequences=[game_consequence(game, player, penalty_id=f"m{player.pk}")], now=at
    )
    incident = IncidentReport.objects.get(game=game)
    referee = with_role(Role.GAME_OFFICIAL, is_staff=True)
    person = PersonFactory(is_referee=True)
    GameOfficial.objects.create(game=game, person=person, duty="referee", position=1, assigned_at=game.start_at)
    OfficialAccount.objects.create(person=person, user=referee)
    report = cases.file_confidential_report(
        game=game, kind="referee", text="Deliberate elbow.", by=referee, attachments=[pdf_upload()]
    )
    committee = with_role(Role.DISCIPLINE_COMMITTEE)
    case = cases.open_case(reports=[incident], title=f"Match penalty {player.last_name}", by=committee)
    cases.add_statement(case=case, text="Seen from the bench.", by=committee)
    decision = cases.decide_case(case=case, outcome="no_action", reasons="No further action.", by=committee)
    appeal = appeals.file_appeal(decision=decision, level="general_assembly", grounds="Grounds.", by=committee)
    protest = Protest.objects.create(
        kind="ruling", game=game, entry=game.home, incident="On-rink protest", incident_at=at, statement="Written.",
        filed_by=committee, filed_at=at, fee_due=Money(200, "USD"),
    )  # fmt: skip
    Deadline.objects.create(protest=protest, kind="protest", article="9.1 A, D", anchor_at=at, due_at=at + HOUR)
    ProtestTransition.objects.create(protest=protest, to_status="filed", by=committee, at=at)
    ProtestAttachment.objects.create(
        protest=protest, file=pdf_upload(), content_type="application/pdf", name="sheet.pdf", uploaded_by=committee,
        uploaded_at=at,
    )  # fmt: skip
    suspension = Suspension.objects.get(consequence=incident.consequence)
    ServedGame.objects.create(suspension=suspension, game=game, entry=game.home, counted_at=at)
    return {
        "game": game, "report": report, "referee": referee, "case": case, "protest": protest, "appeal": appeal,
        "suspension": suspension,
    }  # fmt: skip


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _admin(model: str, view: str, *args) -> str:
    return reverse(f"admin:discipline_{model}_{view}", args=args)


def test_confidential_reports_are_read_in_the_admin_by_their_audience_only_history_and_counts_included():
    first = records()
    second = records(championship=first["game"].championship)
    report, attachment = first["report"], first["report"].attachments.get()
    audience = {
        "committee": with_role(Role.DISCIPLINE_COMMITTEE, is_staff=True),
        "executive": with_role(Role.IHTC_EXECUTIVE, is_staff=True),
        "superuser": SuperuserFactory(),
    }
    for who, user in audience.items():
        client = _client(user)
        assert client.get(_admin("confidentialreport", "changelist")).context["cl"].result_count == 2, who
        page = client.get(_admin("confidentialreport", "change", report.pk))
        assert page.status_code == 200 and "Deliberate elbow." in page.content.decode(), who
        assert client.get(_admin("confidentialreport", "history", report.pk)).status_code == 200, who
        assert client.get(_admin("attachment", "change", attachment.pk)).status_code == 200, who
    # The author (admin staff) reads his own report, and counts only it; another report is no such object.
    author = _client(first["referee"])
    listed = author.get(_admin("confidentialreport", "changelist"))
    assert listed.context["cl"].result_count == 1 and listed.context["cl"].full_result_count == 1
    assert author.get(_admin("confidentialreport", "change", report.pk)).status_code == 200
    other = second["report"]
    for url in (
        _admin("confidentialreport", "change", other.pk),
        _admin("confidentialreport", "history", other.pk),
        _admin("confidentialreport", "simple_history", other.pk, other.history.latest().history_id),
        _admin("attachment", "change", other.attachments.get().pk),
    ):
        refused = author.get(url)
        assert refused.status_code == 302 and refused["Location"] == reverse("admin:index"), url
    # The championship's staff and international staff: not the audience, whatever their other rights.
    director = federation_staff(first["game"].championship.sanctioning_body)
    for user in (director, international_staff()):
        client = _client(user)
        assert client.get(_admin("confidentialreport", "changelist")).status_code == 403
        assert client.get(_admin("attachment", "changelist")).status_code == 403
        assert client.get(_admin("confidentialreport", "change", report.pk)).status_code == 403
        history = client.get(_admin("confidentialreport", "history", report.pk))
        assert history.status_code == 302 and history["Location"] == reverse("admin:index")
        assert b"Deliberate" not in history.content


def test_nothing_is_added_changed_deleted_or_reverted_in_the_discipline_admin_and_records_link_to_their_pages():
    made = records()
    client = _client(SuperuserFactory())
    case = made["case"]
    page = client.get(_admin("case", "change", case.pk))
    assert page.status_code == 200 and not page.context["has_change_permission"]
    assert reverse("discipline:case", args=[case.pk]) in page.content.decode()
    for model, obj, portal in [
        ("protest", made["protest"], reverse("discipline:protest-detail", args=[made["protest"].pk])),
        ("appeal", made["appeal"], reverse("discipline:appeal", args=[made["appeal"].pk])),
        ("confidentialreport", made["report"], reverse("discipline:confidential", args=[made["report"].pk])),
        ("suspension", made["suspension"], reverse("discipline:championship-suspensions", args=[made["game"].championship_id])),
    ]:  # fmt: skip
        assert portal in client.get(_admin(model, "change", obj.pk)).content.decode(), model
    for model in DISCIPLINE_MODELS:
        assert client.get(_admin(model, "add")).status_code == 403, model
    assert client.get(_admin("case", "delete", case.pk)).status_code == 403
    version = case.history.earliest()
    form = client.get(_admin("case", "simple_history", case.pk, version.history_id))
    assert form.status_code == 200 and form.context["revert_disabled"]
    status = Case.objects.get(pk=case.pk).status
    refused = client.post(
        _admin("case", "simple_history", case.pk, version.history_id),
        {"title": "Reverted", "championship": case.championship_id, "status": "open", "opened_at": "2027-07-01 10:00"},
    )
    assert refused.status_code == 403
    case.refresh_from_db()
    assert (case.status, case.title) == (status, made["case"].title)


def test_protests_and_suspensions_are_scoped_like_their_pages():
    made = records()
    body = made["game"].championship.sanctioning_body
    own, other = _client(federation_staff(body)), _client(federation_staff())
    for model, obj in [("protest", made["protest"]), ("suspension", made["suspension"])]:
        assert own.get(_admin(model, "changelist")).context["cl"].result_count == 1, model
        assert own.get(_admin(model, "change", obj.pk)).status_code == 200, model
        assert other.get(_admin(model, "changelist")).context["cl"].result_count == 0, model
        hidden = other.get(_admin(model, "change", obj.pk))
        assert hidden.status_code == 302 and hidden["Location"] == reverse("admin:index"), model
    # The committee's records are not the championship's staff's.
    assert own.get(_admin("incidentreport", "changelist")).status_code == 403
    assert ConfidentialReport.objects.count() == 1


@pytest.mark.parametrize("model", DISCIPLINE_MODELS)
def test_every_discipline_changelist_reads_in_a_constant_number_of_queries(model):
    first = records()
    client = _client(SuperuserFactory())
    url = _admin(model, "changelist")
    client.get(url)  # warm the content types and the session
    with CaptureQueriesContext(connection) as few:
        assert client.get(url).status_code == 200
    for _ in range(3):
        records(championship=first["game"].championship)
    with CaptureQueriesContext(connection) as many:
        response = client.get(url)
    assert response.context["cl"].result_count >= 4
    assert len(many.captured_queries) == len(few.captured_queries), [q["sql"] for q in many.captured_queries]
