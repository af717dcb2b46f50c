"""Notifications (issue 10): one per person and occasion, e-mailed once through Celery, read on /notifications/."""

from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.core import mail
from django.db import transaction
from django.test import override_settings
from django.urls import reverse

from portal.models import EmailStatus, Notification
from portal.notifications import MAX_EMAIL_ATTEMPTS, email_notification, mark_read, notify, pending_email_ids
from portal.tasks import NOTIFICATION_SWEEP_GRACE, send_notification_email, send_pending_notifications
from tests.factories import UserFactory

NOON = datetime(2026, 7, 1, 12, 0, tzinfo=UTC)
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("_locmem_mail")]


@pytest.fixture
def _locmem_mail(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.PORTAL_BASE_URL = "https://portal.example"


def _told(users, key="protest:1:filed", **kwargs):
    return notify(users=users, key=key, subject="Protest filed", body="Italy protests game #9.", url="/x/", **kwargs)


def test_it_tells_each_person_once_per_occasion():
    ana, ben = UserFactory(), UserFactory()
    first = _told([ana, ben, ana], now=NOON)
    again = _told([ana, ben], now=NOON + timedelta(minutes=5))
    assert sorted(n.user_id for n in first) == sorted([ana.pk, ben.pk])
    assert again == []
    assert Notification.objects.count() == 2
    assert set(Notification.objects.values_list("created_at", flat=True)) == {NOON}


def test_another_occasion_is_another_notification():
    ana = UserFactory()
    _told([ana])
    _told([ana], key="protest:1:decided")
    assert Notification.objects.filter(user=ana).count() == 2


def test_inactive_logins_and_nobody_are_not_told():
    assert _told([UserFactory(is_active=False), None]) == []
    assert not Notification.objects.exists()


def test_the_email_is_queued_when_the_change_commits_and_sent_once(django_capture_on_commit_callbacks):
    ana = UserFactory(email="ana@example.org")
    with (
        mock.patch.object(send_notification_email, "delay") as delay,
        django_capture_on_commit_callbacks(execute=True),
    ):
        (made,) = _told([ana])
    delay.assert_called_once_with(made.pk)
    assert email_notification(made.pk, now=NOON) == EmailStatus.SENT
    assert email_notification(made.pk, now=NOON) == EmailStatus.SENT  # the same task again sends nothing
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert (message.to, message.subject) == (["ana@example.org"], "Protest filed")
    assert "Italy protests game #9." in message.body and "https://portal.example/x/" in message.body
    made.refresh_from_db()
    assert (made.email_status, made.emailed_at, made.email_attempts) == (EmailStatus.SENT, NOON, 1)


def test_a_rolled_back_change_tells_nobody(django_capture_on_commit_callbacks):
    ana = UserFactory()
    with (
        mock.patch.object(send_notification_email, "delay") as delay,
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        _told([ana])
        raise RuntimeError("the service refused")
    delay.assert_not_called()
    assert not Notification.objects.exists()


def test_a_broker_that_is_down_loses_nothing_the_sweep_sends_it(django_capture_on_commit_callbacks):
    ana = UserFactory()
    with (
        mock.patch.object(send_notification_email, "delay", side_effect=ConnectionError("broker down")),
        django_capture_on_commit_callbacks(execute=True),
    ):
        (made,) = _told([ana], now=NOON)
    assert made.email_status == EmailStatus.PENDING and mail.outbox == []
    assert pending_email_ids(older_than=NOTIFICATION_SWEEP_GRACE, now=NOON) == []  # not yet the sweep's
    assert pending_email_ids(older_than=NOTIFICATION_SWEEP_GRACE, now=NOON + NOTIFICATION_SWEEP_GRACE) == [made.pk]
    Notification.objects.filter(pk=made.pk).update(created_at=NOON - timedelta(hours=1))
    assert send_pending_notifications() == {str(made.pk): EmailStatus.SENT}
    assert send_pending_notifications() == {}  # run twice: the second run sends nothing
    assert len(mail.outbox) == 1


def test_a_login_without_address_is_recorded_not_retried():
    (made,) = _told([UserFactory(email="")])
    assert email_notification(made.pk) == EmailStatus.NO_ADDRESS
    assert pending_email_ids(older_than=timedelta(0), now=NOON + timedelta(days=1)) == []
    assert mail.outbox == []


@override_settings(EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend", EMAIL_HOST="127.0.0.1", EMAIL_PORT=9)
def test_a_refusing_mail_server_is_retried_then_given_up():
    (made,) = _told([UserFactory()])
    statuses = [email_notification(made.pk) for _ in range(MAX_EMAIL_ATTEMPTS)]
    assert statuses == [EmailStatus.PENDING] * (MAX_EMAIL_ATTEMPTS - 1) + [EmailStatus.FAILED]
    made.refresh_from_db()
    assert made.email_attempts == MAX_EMAIL_ATTEMPTS and made.email_error
    assert email_notification(made.pk) == EmailStatus.FAILED  # given up: no sixth attempt
    made.refresh_from_db()
    assert made.email_attempts == MAX_EMAIL_ATTEMPTS


def test_a_missing_notification_is_reported_not_raised():
    assert email_notification(987654) == "missing"


def test_mark_read_touches_only_the_persons_own():
    ana, ben = UserFactory(), UserFactory()
    (mine,) = _told([ana])
    (theirs,) = _told([ben])
    assert mark_read(ana, ids=[theirs.pk]) == 0
    assert mark_read(ana, ids=[mine.pk], now=NOON) == 1
    theirs.refresh_from_db()
    mine.refresh_from_db()
    assert (mine.read_at, theirs.read_at) == (NOON, None)


def test_the_page_shows_only_the_persons_own_and_marks_them_read(client):
    ana, ben = UserFactory(), UserFactory()
    _told([ana], key="a")
    notify(users=[ben], key="b", subject="Ben's secret", body="for Ben", url="")
    client.force_login(ana)
    page = client.get(reverse("notifications"))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Protest filed" in text and "Ben's secret" not in text
    assert 'aria-label="1 unread"' in text
    response = client.post(reverse("notifications-read"))
    assert response.status_code == 302
    assert not Notification.objects.filter(user=ana, read_at__isnull=True).exists()
    assert Notification.objects.filter(user=ben, read_at__isnull=True).exists()


def test_the_page_reads_a_constant_number_of_queries(client, django_assert_max_num_queries):
    ana = UserFactory()
    client.force_login(ana)
    for i in range(3):
        _told([ana], key=f"k{i}")
    with django_assert_max_num_queries(12) as few:
        client.get(reverse("notifications"))
    for i in range(3, 40):
        _told([ana], key=f"k{i}")
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(reverse("notifications"))


def test_anonymous_visitors_are_sent_to_log_in(client):
    response = client.get(reverse("notifications"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.post(reverse("notifications-read")).status_code == 302


def test_a_repeated_send_carries_the_first_ones_message_id(settings):
    # Issue 27: the worker dies after the mail server's 250 and before the commit, so the row stays pending and the
    # sweep sends it again: the second copy is recognisable, the same Message-ID derived from the notification.
    settings.DEFAULT_FROM_EMAIL = "IHTC Portal <portal@ihtc.example>"
    ana = UserFactory(email="ana@example.org")
    with mock.patch.object(send_notification_email, "delay"):
        (made,) = _told([ana])
    assert email_notification(made.pk, now=NOON) == EmailStatus.SENT
    Notification.objects.filter(pk=made.pk).update(email_status=EmailStatus.PENDING)  # the lost commit
    assert email_notification(made.pk, now=NOON) == EmailStatus.SENT
    first, second = (message.message()["Message-ID"] for message in mail.outbox)
    assert first == second == f"<notification-{made.pk}@ihtc.example>"
    (other,) = _told([ana], key="protest:1:decided")
    assert email_notification(other.pk, now=NOON) == EmailStatus.SENT
    assert mail.outbox[-1].message()["Message-ID"] != first
