"""Appeals (9.2 A; R-54): to the IHTC General Assembly, then the FIRS Congress (final); filer, grounds, fee,
deadline from the ruleset (none when unset), decision."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from djmoney.money import Money

from accounts.models import Role
from discipline import access, appeals
from discipline.models import Appeal, Suspension, SuspensionStatus
from tests.discipline.appeal_helpers import decided_case
from tests.factories import federation_staff, with_role

pytestmark = pytest.mark.django_db

DAY = datetime.timedelta(days=1)


@pytest.fixture
def decided():
    decision, player, _ = decided_case()
    return decision, player, federation_staff(player.federation)


def test_an_appeal_goes_to_the_general_assembly_then_to_the_congress_whose_decision_is_final(decided):
    decision, player, staff = decided
    executive = with_role(Role.IHTC_EXECUTIVE)
    with pytest.raises(ValidationError, match="General Assembly dismissed"):
        appeals.file_appeal(decision=decision, level="firs_congress", grounds="g", by=staff)
    first = appeals.file_appeal(
        decision=decision, level="general_assembly", grounds="Self-defence.", by=staff, fee=Money(200, "USD")
    )
    assert (first.filer, first.fee, first.deadline) == (staff, Money(200, "USD"), None)  # no default deadline
    with pytest.raises(PermissionDenied):
        appeals.decide_appeal(appeal=first, outcome="dismissed", reasons="r", by=staff)
    appeals.decide_appeal(appeal=first, outcome="dismissed", reasons="The video shows a kick.", by=executive)
    second = appeals.file_appeal(decision=decision, level="firs_congress", grounds="Again.", by=staff)
    assert second.previous == first
    appeals.decide_appeal(appeal=second, outcome="upheld", reasons="Doubt.", by=executive)
    assert Suspension.objects.get(provisional=False).status == SuspensionStatus.ANNULLED
    with pytest.raises(ValidationError, match="is filed"):
        appeals.file_appeal(decision=decision, level="firs_congress", grounds="Once more.", by=staff)


def test_the_ruleset_deadline_refuses_a_late_appeal_r_54(decided):
    decision, player, staff = decided
    championship = decision.case.championship
    championship.ruleset = {"appeals": {"general_assembly_days": 7}}
    championship.save()
    deadline = decision.decided_at + 7 * DAY
    late = deadline + datetime.timedelta(seconds=1)
    with pytest.raises(ValidationError) as exc:
        appeals.file_appeal(decision=decision, level="general_assembly", grounds="g", by=staff, now=late)
    assert "Rule 9.2 A / R-54" in exc.value.message_dict["level"][0]
    assert not Appeal.objects.exists()
    appeal = appeals.file_appeal(decision=decision, level="general_assembly", grounds="g", by=staff, now=deadline)
    assert appeal.deadline == deadline


def test_only_the_persons_federation_team_or_the_committee_files(decided):
    decision, player, staff = decided
    with pytest.raises(PermissionDenied, match="9.2 A"):
        appeals.file_appeal(decision=decision, level="general_assembly", grounds="g", by=with_role(Role.TEAM_MANAGER))
    assert access.can_file_appeal(with_role(Role.DISCIPLINE_COMMITTEE), decision)


def test_the_api_files_and_decides_an_appeal_with_its_fee(decided):
    from django.urls import reverse

    from tests.factories import client_for

    decision, player, staff = decided
    filed = client_for(staff).post(
        reverse("discipline-api:decision-appeals", args=[decision.pk]),
        {"level": "general_assembly", "grounds": "Self-defence.", "fee_amount": "200.00", "fee_currency": "EUR"},
        format="json",
    )
    assert filed.status_code == 201, filed.content
    assert (filed.json()["fee"], filed.json()["deadline"], filed.json()["status"]) == ("€200.00", None, "filed")
    url = reverse("discipline-api:appeal-decision", args=[filed.json()["id"]])
    assert client_for(with_role(Role.DISCIPLINE_COMMITTEE)).post(url, {}, format="json").status_code == 403
    answer = client_for(with_role(Role.IHTC_EXECUTIVE)).post(
        url, {"outcome": "dismissed", "reasons": "No."}, format="json"
    )
    assert answer.status_code == 200 and answer.json()["status"] == "dismissed"
