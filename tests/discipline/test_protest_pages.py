"""The protest pages: filing, the detail's countdown from the server's time, the fee, the decision, the lists."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from discipline import protests as svc
from discipline.models import Protest, ProtestStatus

from .protest_helpers import INCIDENT_AT, file_as_home, world, world_ended
from .test_protests import file_ruling

pytestmark = pytest.mark.django_db
HOUR = datetime.timedelta(hours=1)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def w(monkeypatch):
    w = world()
    # The sheet's times are in July 2027: the pages' "now" is within the deadlines.
    return w


@pytest.mark.parametrize(("ended_ago", "in_time"), [(HOUR, True), (2 * HOUR, False)])
def test_a_filing_on_the_page_is_taken_in_time_and_refused_late_at_the_incident_field(ended_ago, in_time):
    """The page files by the server's clock: the on-rink protest (1 h 10 min before the game's end) is due 3 h after
    it (9.1 A, D; R-51), 50 min after a game that ended an hour ago, 10 min before now for one ended two hours ago."""
    w = world_ended(ended_ago)
    client = logged_in(w.home_manager)
    url = reverse("discipline:protest-file")
    form = client.get(url, {"game": w.game.pk})
    assert form.status_code == 200 and "ruling (9.1 A, D): On-rink protest by" in form.content.decode()
    answer = client.post(url, {"game": w.game.pk, "incident": f"ruling|{w.on_rink_protest}", "statement": "x"})
    if in_time:
        assert answer.status_code == 302
        assert Protest.objects.get().filed_by == w.home_manager
    else:
        assert answer.status_code == 400
        assert "Rule 9.1 A, D: the written protest was due by" in answer.context["form"].errors["incident"][0]
        assert not Protest.objects.exists()


def test_the_detail_counts_down_from_the_servers_time_and_the_committee_decides(w):
    protest = file_as_home(w, "federation", w.penalty, statement="Written.", now=w.game.start_at)
    protest.deadlines.update(due_at=timezone.now() + timezone.timedelta(hours=1))
    page = logged_in(w.home_manager).get(reverse("discipline:protest-detail", args=[protest.pk])).content.decode()
    assert 'class="countdown" data-due="' in page and "data-server-now=" in page and "Rule 9.1 C" in page
    assert "discipline/countdown.js" in page and "Europe/Rome" in page
    committee = logged_in(w.committee)
    assert committee.post(reverse("discipline:protest-review", args=[protest.pk]), {"reason": ""}).status_code == 302
    refused = committee.post(reverse("discipline:protest-decide", args=[protest.pk]), {"decision": "uphold"})
    assert refused.status_code == 400 and "give the reasons" in refused.content.decode()
    done = committee.post(
        reverse("discipline:protest-decide", args=[protest.pk]), {"decision": "uphold", "reason": "Right."}
    )
    assert done.status_code == 302
    protest.refresh_from_db()
    assert protest.status == ProtestStatus.UPHELD


def test_the_lists_take_constant_queries(w, django_assert_max_num_queries):
    file_as_home(w, "federation", w.penalty, now=w.game.start_at)
    client = logged_in(w.committee)
    url = reverse("discipline:protest-list")
    with django_assert_max_num_queries(12) as one:
        assert client.get(url).status_code == 200
    file_as_home(w, "ruling", w.on_rink_protest, now=w.game.start_at)
    with django_assert_max_num_queries(len(one.captured_queries)):
        page = client.get(url)
    assert page.content.decode().count("/discipline/protests/") >= 2
    mine = logged_in(w.home_manager).get(reverse("discipline:my-protests"))
    assert mine.status_code == 200 and "File a protest" in mine.content.decode()


def test_the_detail_shows_each_due_time_on_the_venues_clock(w):
    protest = file_as_home(w, "ruling", w.on_rink_protest, now=w.game.start_at)
    # 12:20 UTC is 14:20 in Rome (summer time): the page names Rome's zone, so it shows Rome's time.
    protest.deadlines.filter(kind="protest").update(due_at=INCIDENT_AT.replace(hour=12))
    page = logged_in(w.home_manager).get(reverse("discipline:protest-detail", args=[protest.pk])).content.decode()
    assert "(Rule 9.1 A, D): due Thu 1 Jul 2027, 14:20" in page
    assert page.count("Times are the venue&#x27;s local time (Europe/Rome).") == 1 and " UTC" not in page
    assert 'data-due="2027-07-01T12:20:00+00:00"' in page


def test_the_history_names_the_statuses_as_the_page_does(w):
    protest = file_as_home(w, "federation", w.penalty, statement="Written.", now=w.game.start_at)
    svc.protest_start_review(by=w.committee, protest=protest, now=w.game.start_at)
    page = logged_in(w.home_manager).get(reverse("discipline:protest-detail", args=[protest.pk])).content.decode()
    history = page[page.index("<h2>History</h2>") :]
    # The filing has no status before it: "Filed by ...", not a dash and an arrow from nothing.
    assert ": Filed by " in history and "Filed → Under review by " in history and "— →" not in history
    assert "under_review" not in history


# --- the page's fee form: the time received, on the venue's clock (R-52) ----------------------------------------


def test_the_fee_page_takes_the_time_received_on_the_venues_clock_and_refuses_a_future_one(w):
    protest = file_ruling(w)  # filed in July 2027, its fee due
    page = Client()
    page.force_login(w.staff)
    fee = reverse("discipline:protest-fee", args=[protest.pk])
    venue = w.game.championship.venue.zone
    detail = page.get(reverse("discipline:protest-detail", args=[protest.pk])).content.decode()
    assert f"clock ({venue}); blank: now" in detail and 'name="received_at"' in detail
    form = {"amount_0": "200", "amount_1": "USD", "method": "cash"}
    future = (timezone.now() + timezone.timedelta(hours=1)).astimezone(venue)
    refused = page.post(fee, {**form, "received_at": f"{future:%Y-%m-%d %H:%M}"})
    assert refused.status_code == 400
    assert refused.context["fee_form"].errors["received_at"] == ["R-52: the fee cannot be received in the future."]
    protest.refresh_from_db()
    assert protest.fee_received is None
    received = (timezone.now() - timezone.timedelta(hours=1)).astimezone(venue).replace(second=0, microsecond=0)
    assert page.post(fee, {**form, "received_at": f"{received:%Y-%m-%d %H:%M}"}).status_code == 302
    protest.refresh_from_db()
    assert protest.fee_received_at == received  # typed on the venue's clock, stored as that instant
