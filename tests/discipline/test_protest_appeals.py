"""Appeals of protest decisions (9.2 A; R-56): the IHTC's decision on a protest (9.1 A) is appealed as a committee's
decision is (R-54): the same steps (the IHTC General Assembly, then the FIRS Congress), the same deadlines (the
ruleset's parameters) and the same parties (the teams of the game and their federations), through the same
service (``discipline.appeals``), pages and API."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from djmoney.money import Money

from accounts.models import Role
from discipline import access, appeals
from discipline import protests as svc
from discipline.models import Appeal, AppealStatus, ProtestStatus
from portal.models import Notification
from tests.factories import client_for, federation_staff, international_staff, with_role

from .protest_helpers import INCIDENT_AT, file_as_home, manager_of, world

pytestmark = pytest.mark.django_db

DAY = datetime.timedelta(days=1)
HOUR = datetime.timedelta(hours=1)


@pytest.fixture
def w():
    return world()


def decided_protest(w, *, days=None):
    """The home team's ruling protest, its fee in, reviewed and rejected by the committee (9.1 A, R-52);
    ``days``: the ruleset's appeals.general_assembly_days (no default, R-54)."""
    if days is not None:
        championship = w.game.championship
        championship.ruleset = {"appeals": {"general_assembly_days": days}}
        championship.save()
    protest = file_as_home(w, "ruling", w.on_rink_protest, now=INCIDENT_AT + HOUR, statement="After the whistle.")
    svc.protest_record_fee(by=w.staff, protest=protest, amount=Money(200, "USD"), method="cash")
    svc.protest_start_review(by=w.committee, protest=protest)
    return svc.protest_reject(by=w.committee, protest=protest, reason="The whistle came after the goal.")


def test_a_protests_decision_is_appealed_to_the_assembly_then_the_congress_as_a_committees_r_56(w):
    protest = decided_protest(w)
    executive = with_role(Role.IHTC_EXECUTIVE)
    with pytest.raises(ValidationError, match="General Assembly dismissed"):
        appeals.file_appeal(protest=protest, level="firs_congress", grounds="g", by=w.home_manager)
    first = appeals.file_appeal(
        protest=protest, level="general_assembly", grounds="The video.", by=w.home_manager, fee=Money(200, "USD")
    )
    assert (first.protest, first.decision, first.deadline) == (protest, None, None)  # no default deadline
    assert appeals.next_appeal(protest) is None  # the Assembly's step is taken
    with pytest.raises(ValidationError, match="is filed"):
        appeals.file_appeal(protest=protest, level="general_assembly", grounds="Again.", by=w.away_manager)
    with pytest.raises(PermissionDenied):
        appeals.decide_appeal(appeal=first, outcome="dismissed", reasons="r", by=w.committee)
    appeals.decide_appeal(appeal=first, outcome="dismissed", reasons="The referee was right.", by=executive)
    second = appeals.file_appeal(protest=protest, level="firs_congress", grounds="Still the video.", by=w.home_manager)
    assert second.previous == first and appeals.next_appeal(protest) is None
    appeals.decide_appeal(appeal=second, outcome="upheld", reasons="Doubt.", by=executive)
    second.refresh_from_db()
    assert second.status == AppealStatus.UPHELD
    protest.refresh_from_db()
    assert protest.status == ProtestStatus.REJECTED  # the protest's record stays; the appeal records the outcome
    # Both teams are told each step, once (R-56: both are parties).
    told = set(Notification.objects.filter(key__contains=":appeal:").values_list("key", "user_id"))
    managers = {w.home_manager.pk, w.away_manager.pk}
    for key in (f"appeal:{first.pk}:filed", f"appeal:{first.pk}:dismissed", f"appeal:{second.pk}:upheld"):
        assert {user for k, user in told if k == f"protest:{protest.pk}:{key}"} == managers


def test_an_appeal_against_a_protests_decision_within_the_deadline_is_taken_and_one_second_late_refused_r_56(w):
    protest = decided_protest(w, days=7)
    deadline = protest.decided_at + 7 * DAY
    with pytest.raises(ValidationError) as late:
        appeals.file_appeal(
            protest=protest,
            level="general_assembly",
            grounds="g",
            by=w.away_manager,
            now=deadline + datetime.timedelta(seconds=1),
        )
    assert "Rule 9.2 A / R-56: the appeal's deadline was" in late.value.message_dict["level"][0]
    assert not Appeal.objects.exists()
    appeal = appeals.file_appeal(
        protest=protest, level="general_assembly", grounds="g", by=w.away_manager, now=deadline
    )
    assert appeal.deadline == deadline


def test_the_games_teams_their_federations_and_the_committee_appeal_a_protests_decision_and_no_one_else_r_56(w):
    protest = decided_protest(w)
    allowed = [
        w.home_manager, w.away_manager, federation_staff(w.game.home.federation),
        federation_staff(w.game.away.federation), international_staff(), w.committee, with_role(Role.IHTC_EXECUTIVE),
    ]  # fmt: skip
    for user in allowed:
        assert access.can_file_appeal(user, protest), user
    refused = [
        manager_of(type(w.game.home).objects.exclude(pk__in=[w.game.home_id, w.game.away_id]).first() or _team()),
        federation_staff(),  # another federation
        _national_body_staff(w),  # reads the protest (its championship's staff), is no party
        with_role(Role.GAME_OFFICIAL),
    ]
    for user in refused:
        assert not access.can_file_appeal(user, protest), user
        with pytest.raises(PermissionDenied, match="R-56"):
            appeals.file_appeal(protest=protest, level="general_assembly", grounds="g", by=user)
    assert not Appeal.objects.exists()
    # Only the IHTC's decision is appealed: a protest not yet upheld or rejected is refused, naming the rule.
    pending = file_as_home(w, "federation", w.penalty, now=INCIDENT_AT + HOUR, statement="A trip.")
    with pytest.raises(ValidationError, match=r"R-56: a protest is appealed once the IHTC has upheld or rejected"):
        appeals.file_appeal(protest=pending, level="general_assembly", grounds="g", by=w.home_manager)
    assert not appeals.may_appeal_now(w.home_manager, pending)


def _national_body_staff(w):
    """Staff of a national federation made the championship's sanctioning body: they read its protests (they keep
    the fees, R-52) but are no party to the game (R-56)."""
    from tests.factories import FederationFactory

    championship = w.game.championship
    championship.sanctioning_body = FederationFactory()
    championship.save()
    return federation_staff(championship.sanctioning_body)


def _team():
    from tests.factories import TeamEntryFactory

    return TeamEntryFactory()


def test_an_appeal_is_against_a_decision_or_a_protest_never_both_nor_neither(w):
    protest = decided_protest(w)
    appeal = appeals.file_appeal(protest=protest, level="general_assembly", grounds="g", by=w.home_manager)
    from tests.discipline.appeal_helpers import decided_case

    decision, _, _ = decided_case()
    for decision_id, protest_id in ((decision.pk, protest.pk), (None, None)):
        with pytest.raises(IntegrityError), transaction.atomic():
            Appeal.objects.filter(pk=appeal.pk).update(decision_id=decision_id, protest_id=protest_id)


def _browser(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def _post(client, url, data):
    """Post ``data`` as the page's form does: form-encoded, with the CSRF token of the page just read."""
    return client.post(url, {**data, "csrfmiddlewaretoken": client.cookies["csrftoken"].value})


def test_the_protest_page_lodges_the_appeal_and_the_executive_decides_it_r_56(w):
    protest = decided_protest(w)
    away = _browser(w.away_manager)
    page = away.get(reverse("discipline:protest-detail", args=[protest.pk]))
    lodge_url = reverse("discipline:protest-appeal-lodge", args=[protest.pk])
    assert page.status_code == 200 and lodge_url in page.content.decode()
    form = away.get(lodge_url)
    assert form.status_code == 200 and "R-56" in form.content.decode()
    # Bad input: a 400 naming the field and the rule, nothing stored.
    blank = _post(away, lodge_url, {"level": "general_assembly", "grounds": "", "fee_0": "", "fee_1": "USD"})
    assert blank.status_code == 400 and "Rule 9.2 A: the appeal gives its grounds." in blank.content.decode()
    assert not Appeal.objects.exists()
    lodged = _post(
        away, lodge_url, {"level": "general_assembly", "grounds": "We answered.", "fee_0": "200", "fee_1": "USD"}
    )
    appeal = Appeal.objects.get()
    assert lodged.status_code == 302 and lodged.url == reverse("discipline:appeal", args=[appeal.pk])
    assert (appeal.protest, appeal.filer, appeal.fee) == (protest, w.away_manager, Money(200, "USD"))
    shown = away.get(lodged.url).content.decode()
    assert f"protest #{protest.pk}" in shown and "We answered." in shown
    assert lodge_url not in away.get(reverse("discipline:protest-detail", args=[protest.pk])).content.decode()
    executive = _browser(with_role(Role.IHTC_EXECUTIVE))
    executive.get(lodged.url)
    decided = _post(
        executive, reverse("discipline:appeal-decide", args=[appeal.pk]), {"outcome": "dismissed", "reasons": "No."}
    )
    appeal.refresh_from_db()
    assert decided.status_code == 302 and appeal.status == AppealStatus.DISMISSED
    # Who reads the protest without being a party (the sanctioning body's staff) is refused; the rest may not
    # learn the protest exists.
    body_staff = _browser(_national_body_staff(w))
    assert body_staff.get(lodge_url).status_code == 403
    assert _browser(federation_staff()).get(lodge_url).status_code == 404
    assert _browser(federation_staff()).get(lodged.url).status_code == 404


def test_the_api_lodges_an_appeal_against_a_protests_decision_and_decides_it_r_56(w):
    protest = decided_protest(w, days=7)
    url = reverse("discipline-api:protest-appeals", args=[protest.pk])
    body = {"level": "general_assembly", "grounds": "The video.", "fee_amount": "200.00", "fee_currency": "USD"}
    assert client_for(federation_staff()).post(url, body, format="json").status_code == 404
    assert client_for(_national_body_staff(w)).post(url, body, format="json").status_code == 403
    filed = client_for(federation_staff(w.game.home.federation)).post(url, body, format="json")
    assert filed.status_code == 201, filed.content
    answer = filed.json()
    assert (answer["protest"], answer["decision"], answer["status"]) == (protest.pk, None, "filed")
    assert answer["deadline"] is not None
    again = client_for(w.away_manager).post(url, body, format="json")
    assert again.status_code == 400 and "Rule 9.2 A" in again.json()["level"][0]
    decide = reverse("discipline-api:appeal-decision", args=[answer["id"]])
    decided = client_for(with_role(Role.IHTC_EXECUTIVE)).post(
        decide, {"outcome": "upheld", "reasons": "Yes."}, format="json"
    )
    assert decided.status_code == 200 and decided.json()["status"] == "upheld"
