"""A protest in a browser (9.1 A, R-50 to R-52): the home team's manager files a ruling protest its captain made
on the rink, writes the statement and watches the countdown; staff record the fee; the discipline committee
reviews and upholds it; both teams' managers are e-mailed through the Celery task at every step."""

from __future__ import annotations

import re

import pytest
from celery.signals import task_postrun
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from discipline.models import DeadlineKind, FeeOutcome, Protest, ProtestStatus
from portal.models import EmailStatus, Notification
from tests.discipline.protest_helpers import world_ended
from tests.e2e.live_helpers import fits_the_screen

# The game ended (the sheet received its end) this long before the journey starts; the captain's on-rink
# protest was received 1 h 10 min before the end, and the written protest is due 3 h after it (9.1 A, D): about
# 1 h 45 min are left.
ENDED_AGO = timezone.timedelta(minutes=5)
COUNTDOWN = re.compile(r"^(\d+) h (\d\d) min (\d\d) s left$")
EMAIL_TASK = "portal.tasks.send_notification_email"


def countdown_seconds(text: str) -> int:
    match = COUNTDOWN.match(text.strip())
    assert match, f"the countdown reads {text!r}"
    hours, minutes, seconds = (int(part) for part in match.groups())
    return hours * 3600 + minutes * 60 + seconds


@pytest.fixture
def emailing_tasks():
    """The notification ids the e-mail task ran for (the tasks run eagerly, in the live server's thread)."""
    ran: list[int] = []

    def record(sender=None, args=(), **_):
        if sender is not None and sender.name == EMAIL_TASK:
            ran.append(args[0])

    task_postrun.connect(record, weak=False)
    yield ran
    task_postrun.disconnect(record)


@pytest.fixture
def protest_world(settings):
    # pytest-django's test environment sends to django.core.mail.outbox already (locmem): said here, because the
    # journey reads it, whichever thread (the live server's, running the tasks eagerly) sends.
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    return world_ended(ENDED_AGO)


def test_a_ruling_protest_from_filing_to_upheld_with_countdown_fee_and_emails(
    page, login_as, protest_world, emailing_tasks, screenshot, outside_requests, accessible
):
    w = protest_world
    mail.outbox.clear()

    # The home team's manager files the protest of the ruling its captain protested on the rink.
    login_as(w.home_manager)
    page.goto("/discipline/protests/mine/")
    page.get_by_role("link", name="File a protest", exact=True).click()
    page.get_by_label("Game").select_option(str(w.game.pk))
    page.wait_for_url(f"**/discipline/protests/new/?game={w.game.pk}")
    accessible(page, "the protest filing form")
    page.get_by_label(re.compile(r"On-rink protest by ")).check()
    page.get_by_role("button", name="File the protest").click()
    page.wait_for_url(re.compile(r"/discipline/protests/\d+/$"))
    protest = Protest.objects.get(game=w.game)
    assert protest.kind == "ruling" and protest.entry == w.game.home and protest.status == ProtestStatus.FILED
    assert f"Protest #{protest.pk} filed" in page.locator(".messages").inner_text()
    accessible(page, "the protest's page, to its manager")

    # The statement follows on the detail page.
    page.get_by_label("Your text").fill("The referee allowed a goal scored with a high stick (Rule 6.4.17).")
    page.get_by_role("button", name="Save the statement").click()
    page.wait_for_load_state()
    assert "scored with a high stick" in page.locator("main").inner_text()

    # The countdown of the written protest: the article, about 1 h 45 min left, ticking down.
    due = protest.deadlines.get(kind=DeadlineKind.PROTEST)
    item = page.locator(".deadlines li", has=page.locator(".countdown")).filter(has_text="Rule 9.1 A, D")
    countdown = item.locator(".countdown")
    first = countdown_seconds(countdown.inner_text())
    expected = (due.due_at - timezone.now()).total_seconds()
    assert 3600 + 40 * 60 < first <= 3600 + 45 * 60
    assert abs(first - expected) <= 15, (first, expected)
    local_due = due.due_at.astimezone(w.game.championship.venue.zone)
    # The venue's clock (tournaments.venue_time): the day and time there; the page names the zone once.
    assert f"due {local_due:%a} {local_due.day} {local_due:%b %Y, %H:%M}" in item.inner_text()
    expect(page.locator(".venue-zone").first).to_contain_text("Europe/Rome")
    page.wait_for_function(
        "([el, first]) => { const m = el.textContent.match(/(\\d+) h (\\d+) min (\\d+) s/);"
        " return m && first - (m[1] * 3600 + m[2] * 60 + +m[3]) >= 2; }",
        arg=[countdown.element_handle(), first],
        timeout=10_000,
    )
    second = countdown_seconds(countdown.inner_text())
    assert 2 <= first - second <= 10, (first, second)

    # International staff record the fee of US$200 received in cash.
    page.context.clear_cookies()  # the next person, in a fresh session
    login_as(w.staff)
    page.goto(f"/discipline/protests/{protest.pk}/")
    assert page.locator("#id_amount_0").input_value() == "200.00"
    assert page.locator("#id_amount_1").input_value() == "USD"
    accessible(page, "the protest's page, to international staff")
    page.get_by_label("Method").select_option("cash")
    page.get_by_role("button", name="Record the fee as received").click()
    page.wait_for_load_state()
    assert "Received: $200.00 (Cash at the venue)" in page.locator(".fee").inner_text()
    assert page.get_by_role("button", name="Record the fee as received").count() == 0

    # The discipline committee reviews the protest and upholds it with its reasons (9.1 A).
    page.context.clear_cookies()  # the next person, in a fresh session
    login_as(w.committee)
    page.goto(f"/discipline/protests/{protest.pk}/")
    page.get_by_role("button", name="Start the review").click()
    page.wait_for_load_state()
    assert f"Protest #{protest.pk}: {w.game.home} — Under review" in page.locator("h1").inner_text()
    page.get_by_label("Reasons").fill("The video shows the stick above the shoulder: the goal is disallowed.")
    page.get_by_role("button", name="Uphold (fee returned)").click()
    page.wait_for_load_state()
    assert "Upheld" in page.locator("h1").inner_text()
    assert "Fee: Returned (protest upheld, 9.1 A)" in page.locator(".fee").inner_text()
    assert "the goal is disallowed" in page.locator("main").inner_text()
    protest.refresh_from_db()
    assert protest.status == ProtestStatus.UPHELD and protest.fee_outcome == FeeOutcome.RETURNED

    # Both teams' managers were e-mailed, each notification once, every one by the Celery task.
    notifications = Notification.objects.filter(key__startswith=f"protest:{protest.pk}:")
    assert sorted(emailing_tasks) == sorted(n.pk for n in notifications)
    assert {n.email_status for n in notifications} == {EmailStatus.SENT}
    by_recipient: dict[str, list[str]] = {}
    for message in mail.outbox:
        assert len(message.to) == 1
        by_recipient.setdefault(message.to[0], []).append(message.subject)
    home, away = by_recipient.pop(w.home_manager.email), by_recipient.pop(w.away_manager.email)
    assert by_recipient == {}
    prefix = f"Protest #{protest.pk}, {w.game}: "
    assert home == [prefix + s for s in (f"filed by {w.game.home}", "fee received", "under review", "upheld")]
    assert away == [prefix + s for s in (f"filed by {w.game.home}", "under review", "upheld")]
    filed = next(m for m in mail.outbox if m.to == [w.away_manager.email])
    assert "The written protest is due by" in filed.body and "(Rule 9.1 A, D)" in filed.body
    assert f"/discipline/protests/{protest.pk}/" in filed.body
    upheld = mail.outbox[-1]
    assert "the goal is disallowed" in upheld.body and "The fee is returned (9.1 A, R-52)" in upheld.body

    # The decided protest on a phone: nothing wider than the screen.
    page.context.clear_cookies()  # the next person, in a fresh session
    login_as(w.away_manager)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/discipline/protests/{protest.pk}/")
    assert "Fee: Returned" in page.locator(".fee").inner_text()
    assert screenshot(page, "protest-detail-phone").stat().st_size > 0
    fits_the_screen(page)
    assert outside_requests == []


def test_a_deadline_days_ahead_counts_in_days_and_hours(page, login_as, protest_world):
    """A countdown far ahead reads in days (the answer time of a protest filed long before its game, say)."""
    from tests.discipline.protest_helpers import file_as_home

    w = protest_world
    protest = file_as_home(w, "ruling", w.on_rink_protest, now=timezone.now(), statement="Written.")
    protest.deadlines.filter(kind=DeadlineKind.ANSWER).update(due_at=timezone.now() + timezone.timedelta(days=3))
    login_as(w.home_manager)
    page.goto(f"/discipline/protests/{protest.pk}/")
    answer = page.locator(".deadlines li", has=page.locator(".countdown")).filter(has_text="answer")
    text = answer.locator(".countdown").inner_text().strip()
    assert re.fullmatch(r"(2|3) d \d{1,2} h \d\d min \d\d s left", text), text
