"""The discipline's stored texts in the reader's language (issue 26): a suspension's notification keeps the
committee's reasons as its own words (marked ``.their-words`` on the page, plain in the e-mail); a case's default
reason for a hearing is a stored message, its moment written in the reader's locale."""

from __future__ import annotations

import datetime

import pytest
from django.utils.translation import override

from accounts.models import Role
from discipline import cases
from discipline.models import CaseTransition, IncidentReport, Suspension
from discipline.suspensions import tell_about
from portal.models import Notification
from tests.discipline.test_incident_reports import signed as signed  # the fixture
from tests.discipline.test_suspensions import receive
from tests.factories import federation_staff, with_role

THEIR = '<span class="their-words" translate="no">'


@pytest.mark.django_db
def test_a_suspension_tells_the_committees_reasons_as_their_words(offence, client):
    game, player = offence
    staff = federation_staff(game.championship.sanctioning_body, language="fr")
    receive(game, player)
    suspension = Suspension.objects.get()
    reasons = "The slash was dangerous and came after the whistle."
    Suspension.objects.filter(pk=suspension.pk).update(reasons=reasons, reasons_message=None, games_required=2)
    suspension.refresh_from_db()
    tell_about(suspension)  # the new terms: told again
    notification = Notification.objects.filter(user=staff).order_by("-pk").first()
    assert notification.body_message["args"]["reasons"] == {"words": reasons}
    client.force_login(staff)
    page = client.get("/notifications/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert (
        f"{suspension.person} est suspendu(e). Règle 8.2 A : suspension (provisoire) pour 2 match(s), 0 purgé(s). "
        f"{THEIR}{reasons}</span>"
    ) in page
    with override("fr"):
        assert notification.shown_body.endswith(f"0 purgé(s). {reasons}")  # the e-mail's text: plain words


@pytest.mark.django_db
def test_a_hearings_default_reason_is_stored_and_said_in_the_readers_language(signed_case, client):
    case, committee = signed_case
    hearing_at = datetime.datetime(2027, 7, 3, 16, 0, tzinfo=datetime.UTC)
    cases.schedule_hearing(case=case, hearing_at=hearing_at, by=committee)
    transition = CaseTransition.objects.get(to_status="hearing")
    assert transition.why.startswith("hearing on 2027-07-03 ") and transition.why.endswith(" (venue time)")
    assert transition.why_message["msgid"] == "hearing on {moment}"
    with override("fr"):
        assert transition.shown_why.startswith("audience le sam") and "juillet 2027" in transition.shown_why
    client.force_login(committee)
    page = client.get(f"/discipline/cases/{case.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "audience le sam" in page and "hearing on" not in page


@pytest.fixture
def signed_case(signed):
    committee = with_role(Role.DISCIPLINE_COMMITTEE, language="fr")
    case = cases.open_case(reports=[IncidentReport.objects.get()], title="Slashing, away 16", by=committee)
    return case, committee
