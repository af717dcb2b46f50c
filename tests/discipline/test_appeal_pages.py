"""The appeal pages (9.2 A; R-54): lodge an appeal against a decision (the IHTC General Assembly, then the FIRS
Congress), read it (filer, grounds, fee, deadline in the venue's time zone), record its decision; refusals by role,
bad input as a 400 naming the field and the rule with nothing stored."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from djmoney.money import Money

from accounts.models import Role
from discipline.models import Appeal, AppealStatus, Suspension, SuspensionStatus
from tests.discipline.appeal_helpers import decided_case
from tests.factories import federation_staff, with_role

pytestmark = pytest.mark.django_db

DAY = datetime.timedelta(days=1)


@pytest.fixture
def decided():
    """The committee's decision suspending a home player for 3 games (7.1), and who is who around it."""
    decision, player, committee = decided_case()
    game = decision.case.incident_reports.get().game
    manager = with_role(Role.TEAM_MANAGER, game.home.federation)
    game.home.managers.add(manager)
    return {
        "decision": decision, "case": decision.case, "game": game,
        "staff": federation_staff(player.federation), "manager": manager, "committee": committee,
        "executive": with_role(Role.IHTC_EXECUTIVE), "other_staff": federation_staff(),
        "official": with_role(Role.GAME_OFFICIAL),
    }  # fmt: skip


def _client(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _lodge_url(decision) -> str:
    return reverse("discipline:appeal-lodge", args=[decision.pk])


def _lodge(user, decision, **data):
    post = {"level": "general_assembly", "grounds": "Self-defence.", "fee_0": "", "fee_1": "USD", **data}
    return _client(user).post(_lodge_url(decision), post)


def _decide(user, appeal, **data):
    return _client(user).post(reverse("discipline:appeal-decide", args=[appeal.pk]), data)


def test_an_appeal_is_lodged_read_and_decided_then_taken_to_the_congress(decided):
    decision, staff, executive = decided["decision"], decided["staff"], decided["executive"]
    form = _client(staff).get(_lodge_url(decision))
    assert (
        form.status_code == 200
        and "No appeal deadline is set for this championship." in form.text
        and "ruleset" not in form.text
    )
    lodged = _lodge(staff, decision, fee_0="200.00", fee_1="USD")
    appeal = Appeal.objects.get()
    assert lodged.status_code == 302 and lodged["Location"] == reverse("discipline:appeal", args=[appeal.pk])
    assert (appeal.filer, appeal.grounds, appeal.fee, appeal.level) == (
        staff, "Self-defence.", Money(200, "USD"), "general_assembly"
    )  # fmt: skip
    page = _client(staff).get(reverse("discipline:appeal", args=[appeal.pk]))
    assert page.status_code == 200
    assert "Self-defence." in page.text and "200.00 USD" in page.text and "Filed" in page.text
    assert "Record the decision" not in page.text  # the filer reads; the executive decides (9.2 A)
    assert "Record the decision" in _client(executive).get(reverse("discipline:appeal", args=[appeal.pk])).text
    assert _decide(executive, appeal, outcome="dismissed", reasons="The video shows a kick.").status_code == 302
    appeal.refresh_from_db()
    assert (appeal.status, appeal.reasons, appeal.decided_by) == ("dismissed", "The video shows a kick.", executive)
    # The Assembly dismissed it: the FIRS Congress is open, without a fee this time.
    assert _client(decided["manager"]).get(_lodge_url(decision)).context["form"].initial["level"] == "firs_congress"
    assert _lodge(decided["manager"], decision, level="firs_congress", grounds="Again.").status_code == 302
    congress = Appeal.objects.get(level="firs_congress")
    assert (congress.previous, congress.fee) == (appeal, None)
    assert _decide(executive, congress, outcome="upheld", reasons="Doubt.").status_code == 302
    assert Suspension.objects.get(provisional=False).status == SuspensionStatus.ANNULLED
    final = _client(staff).get(reverse("discipline:appeal", args=[congress.pk])).text
    assert "final and binding" in final and "Doubt." in final


def test_the_deadline_shows_in_the_venues_time_zone_with_its_article(decided):
    decision = decided["decision"]
    championship = decision.case.championship
    championship.ruleset = {"appeals": {"general_assembly_days": 7}}
    championship.save()
    zone = championship.venue.zone
    due = (decision.decided_at + 7 * DAY).astimezone(zone)
    expected = f"{due:%a} {due.day} {due:%b %Y}, {due:%H:%M}"  # tournaments.venue_time.VENUE_FORMAT
    form = _client(decided["staff"]).get(_lodge_url(decision)).text
    assert "Deadline (R-54)" in form and expected in form and str(zone) in form
    _lodge(decided["staff"], decision)
    page = _client(decided["staff"]).get(reverse("discipline:appeal", args=[Appeal.objects.get().pk])).text
    assert "Rule 9.2 A / R-54" in page and expected in page


def test_who_may_lodge_read_and_decide(decided):
    decision = decided["decision"]
    # Not concerned: the decision and the appeal are no such thing for them.
    for who in ("other_staff", "official"):
        user = decided[who]
        assert _client(user).get(_lodge_url(decision)).status_code == 404, who
        assert _lodge(user, decision).status_code == 404, who
    assert not Appeal.objects.exists()
    assert _client(None).get(_lodge_url(decision)).status_code == 302  # to the login page
    assert _lodge(decided["committee"], decision).status_code == 302
    appeal = Appeal.objects.get()
    for who in ("other_staff", "official"):
        assert _client(decided[who]).get(reverse("discipline:appeal", args=[appeal.pk])).status_code == 404, who
        assert _decide(decided[who], appeal, outcome="upheld", reasons="r").status_code == 404, who
    # The filer's side and the committee read it; only the IHTC executive records the decision (9.2 A).
    for who in ("staff", "manager", "committee"):
        assert _client(decided[who]).get(reverse("discipline:appeal", args=[appeal.pk])).status_code == 200, who
        refused = _decide(decided[who], appeal, outcome="upheld", reasons="r")
        assert refused.status_code == 403, who
    appeal.refresh_from_db()
    assert appeal.status == AppealStatus.FILED and appeal.decided_by is None


@pytest.mark.parametrize(
    "data, field, rule",
    [
        ({"grounds": ""}, "grounds", "Rule 9.2 A: the appeal gives its grounds."),
        ({"level": "fiba"}, "level", "Rule 9.2 A: an appeal goes to the IHTC General Assembly"),
        ({"level": "firs_congress"}, "level", "Rule 9.2 A: the FIRS Congress hears an appeal the IHTC General"),
        ({"fee_0": "lots"}, "fee", "Rule 9.2 A: the fee is an amount"),
        ({"fee_0": "-5"}, "fee", "Rule 9.2 A: the fee is an amount of 0 or more."),
        ({"fee_0": "10", "fee_1": "XXX"}, "fee", "Rule 9.2 A: the currency of the fee"),
    ],
)
def test_bad_input_to_the_lodge_form_is_a_400_naming_the_field_and_the_rule_and_stores_nothing(
    decided, data, field, rule
):
    response = _lodge(decided["staff"], decided["decision"], **data)
    assert response.status_code == 400
    assert any(rule in message for message in response.context["form"].errors[field]), response.context["form"].errors
    assert rule in response.text
    assert not Appeal.objects.exists()


def test_a_late_appeal_is_refused_by_the_deadline_r_54(decided):
    decision = decided["decision"]
    championship = decision.case.championship
    championship.ruleset = {"appeals": {"general_assembly_days": 7}}
    championship.save()
    decision.decided_at = timezone.now() - 8 * DAY
    decision.save()
    response = _lodge(decided["staff"], decision)
    assert response.status_code == 400
    assert "Rule 9.2 A / R-54: the appeal's deadline was" in response.context["form"].errors["level"][0]
    assert not Appeal.objects.exists()


@pytest.mark.parametrize(
    "data, field, rule",
    [
        ({"outcome": "upheld"}, "reasons", "Rule 9.2 A: the decision gives its reasons."),
        ({"outcome": "quashed", "reasons": "r"}, "outcome", "Rule 9.2 A: the appeal is upheld or dismissed."),
    ],
)
def test_bad_input_to_the_decision_is_a_400_naming_the_field_and_the_rule_and_stores_nothing(
    decided, data, field, rule
):
    _lodge(decided["staff"], decided["decision"])
    appeal = Appeal.objects.get()
    response = _decide(decided["executive"], appeal, **data)
    assert response.status_code == 400 and rule in response.context["form"].errors[field][0]
    appeal.refresh_from_db()
    assert (appeal.status, appeal.reasons, appeal.decided_at) == (AppealStatus.FILED, "", None)


def test_a_decided_appeal_is_not_decided_again(decided):
    _lodge(decided["staff"], decided["decision"])
    appeal = Appeal.objects.get()
    assert _decide(decided["executive"], appeal, outcome="upheld", reasons="Doubt.").status_code == 302
    again = _decide(decided["executive"], appeal, outcome="dismissed", reasons="Second thoughts.")
    assert again.status_code == 400 and "Rule 9.2 A: this appeal is decided." in again.text
    appeal.refresh_from_db()
    assert (appeal.status, appeal.reasons) == (AppealStatus.UPHELD, "Doubt.")


def test_the_case_page_links_to_lodging_an_appeal_while_one_is_open(decided):
    committee, case, decision = decided["committee"], decided["case"], decided["decision"]
    link = _lodge_url(decision)
    assert link in _client(committee).get(reverse("discipline:case", args=[case.pk])).text
    _lodge(committee, decision)
    _decide(decided["executive"], Appeal.objects.get(), outcome="upheld", reasons="Doubt.")
    # Upheld by the Assembly: no appeal is open any more (9.2 A), so no link.
    page = _client(committee).get(reverse("discipline:case", args=[case.pk])).text
    assert link not in page and reverse("discipline:appeal", args=[Appeal.objects.get().pk]) in page


def test_the_suspension_lists_link_the_appeal_of_a_decided_suspension_to_those_who_may_lodge_it(decided):
    """A federation or a team learns of a decision from its suspension list (the case page is the committee's):
    the list links the appeal (9.2 A) for those ``can_file_appeal`` allows, one query for the whole list."""
    decision, game = decided["decision"], decided["game"]
    link = f'href="{_lodge_url(decision)}"'
    mine = _client(decided["manager"]).get(reverse("discipline:suspensions"))
    assert mine.status_code == 200 and link in mine.text
    staff_list = reverse("discipline:championship-suspensions", args=[game.championship_id])
    assert link in _client(decided["executive"]).get(staff_list).text
    director = federation_staff(game.championship.sanctioning_body)  # sees the list, appeals for nobody here
    page = _client(director).get(staff_list)
    assert page.status_code == 200 and str(decided["decision"].suspensions.get().person) in page.text
    from discipline.access import appealable_decision_ids, can_file_appeal

    assert (link in page.text) == can_file_appeal(director, decision)
    assert appealable_decision_ids(decided["other_staff"], [decision.pk]) == set()
    assert appealable_decision_ids(decided["staff"], [decision.pk, None]) == {decision.pk}
