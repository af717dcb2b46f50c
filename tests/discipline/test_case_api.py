"""Opening a case through the API (issue 29): POST /api/cases/ calls the same service as the report's and the
protest's pages (``discipline.cases.open_case``), with the same refusals (R-53, 9.1 C)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from accounts.models import Role
from discipline import protests as svc
from discipline.models import Case, IncidentReport, ReportStatus
from tests.factories import client_for, international_staff, with_role

from .protest_helpers import INCIDENT_AT, world
from .test_suspensions import receive

pytestmark = pytest.mark.django_db
URL = "/api/v1/cases/"


@pytest.fixture
def report(offence):
    game, player = offence
    receive(game, player, kind="match", article="6.1.6", infraction="attempt_to_injure")
    return IncidentReport.objects.get()


def test_the_committee_opens_a_case_from_an_incident_report(report):
    committee = client_for(with_role(Role.DISCIPLINE_COMMITTEE))
    response = committee.post(URL, {"title": "Attempt to injure", "reports": [report.pk]}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    case = Case.objects.get()
    assert body["id"] == case.pk and body["title"] == "Attempt to injure" and body["status"] == "open"
    assert [r["id"] for r in body["reports"]] == [report.pk]
    report.refresh_from_db()
    assert report.status == ReportStatus.IN_CASE and report.case == case
    # The same refusal as the page: a report already in a case is not gathered into a new one.
    again = committee.post(URL, {"reports": [report.pk]}, format="json")
    assert again.status_code == 400 and "R-53" in again.json()["reports"][0]
    assert Case.objects.count() == 1


def test_a_protest_opens_a_case_and_is_in_no_other():
    w = world()
    protest = svc.protest_file(
        by=w.home_manager, game=w.game, entry=w.game.home, kind="ruling", incident=w.on_rink_protest,
        statement="The goal was scored after the whistle.", now=INCIDENT_AT + datetime.timedelta(hours=1),
    )  # fmt: skip
    committee = client_for(w.committee)
    response = committee.post(URL, {"protests": [protest.pk]}, format="json")
    assert response.status_code == 201
    assert response.json()["protests"] == [protest.pk]
    assert response.json()["title"].startswith("Case: Protest #")
    again = committee.post(URL, {"protests": [protest.pk]}, format="json")
    assert again.status_code == 400 and "already" in again.json()["protest"][0]
    # The protest's own page links to the same case.
    protest.refresh_from_db()
    assert protest.case_id == response.json()["id"]


def test_refusals_name_the_field_and_store_nothing(report):
    committee = client_for(with_role(Role.DISCIPLINE_COMMITTEE))
    empty = committee.post(URL, {"title": "Nothing"}, format="json")
    assert empty.status_code == 400 and "R-53" in empty.json()["reports"][0]
    unknown = committee.post(URL, {"reports": [999999]}, format="json")
    assert unknown.status_code == 400 and "999999" in unknown.json()["reports"][0]
    unknown = committee.post(URL, {"protests": [999999]}, format="json")
    assert unknown.status_code == 400 and "999999" in unknown.json()["protests"][0]
    too_long = committee.post(URL, {"title": "x" * 201, "reports": [report.pk]}, format="json")
    assert too_long.status_code == 400 and "title" in too_long.json()
    wrong = committee.post(URL, {"reports": ["٣"]}, format="json")
    assert wrong.status_code == 400 and "reports" in wrong.json()
    assert not Case.objects.exists()


@pytest.mark.parametrize(
    "make_user",
    [lambda: with_role(Role.TEAM_MANAGER), lambda: with_role(Role.GAME_OFFICIAL), international_staff],
    ids=["team_manager", "game_official", "international_staff"],
)
def test_only_the_committee_and_the_executive_open_a_case(report, make_user):
    response = client_for(make_user()).post(URL, {"reports": [report.pk]}, format="json")
    assert response.status_code == 403 and "R-53" in response.json()["detail"]
    assert client_for(None).post(URL, {"reports": [report.pk]}, format="json").status_code == 403
    assert not Case.objects.exists()
    executive = client_for(with_role(Role.IHTC_EXECUTIVE))
    assert executive.post(URL, {"reports": [report.pk]}, format="json").status_code == 201


def test_the_route_is_named_for_reverse():
    assert reverse("discipline-api:cases") == URL


def test_a_case_opened_from_a_report_without_a_title_is_named_in_the_readers_language(report):
    committee = client_for(with_role(Role.DISCIPLINE_COMMITTEE))
    response = committee.post(URL, {"title": "", "reports": [report.pk]}, format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 201, response.json()
    case = Case.objects.get()
    assert case.title == f"Case: {report.game}: Match penalty (6.1.6) (6.1.6)"
    assert response.json()["title"] == f"Dossier : {report.game} : Pénalité de match (6.1.6) (6.1.6)"
