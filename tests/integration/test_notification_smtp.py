"""Notification e-mails through a real SMTP server on loopback (issue 10): a protest is filed, ``notify`` queues
the e-mails on commit, a real Celery worker (PostgreSQL + Redis) sends them with Django's SMTP backend to an
aiosmtpd server, and the test reads the messages back from it. A server that refuses loses nothing: the
notification stays pending, and the sweep delivers it once the server answers."""

from __future__ import annotations

import datetime
import email
import email.policy
import socket
import threading
from contextlib import contextmanager

import pytest
from aiosmtpd.controller import Controller
from django.conf import settings
from django.db import connection
from django.utils import timezone

from discipline.deadlines import moment_text
from discipline.models import DeadlineKind, Protest
from portal.models import EmailStatus, Notification
from portal.notifications import MAX_EMAIL_ATTEMPTS
from portal.tasks import send_notification_email, send_pending_notifications
from tests.discipline.protest_helpers import World, file_as_home, world_ended

from .conftest import wait_until, worker
from .test_celery_postgres_redis import services  # noqa: F401 - the fixture

pytestmark = pytest.mark.integration

# The game ended five minutes ago: the written protest of the ruling is due in about 1 h 45 min (9.1 A, D).
ENDED_AGO = datetime.timedelta(minutes=5)
TIMEOUT = 60  # seconds a worker may take for a task on this shared machine


class Mailbox:
    """An aiosmtpd handler that keeps every message it accepts: (envelope recipients, parsed message)."""

    def __init__(self):
        self.messages: list[tuple[list[str], email.message.EmailMessage]] = []
        self._changed = threading.Condition()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook name
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self._changed:
            self.messages.append((list(envelope.rcpt_tos), message))
            self._changed.notify_all()
        return "250 Message accepted for delivery"

    def wait_for(self, count: int, *, output) -> list[tuple[list[str], email.message.EmailMessage]]:
        """Block until ``count`` messages arrived (at most TIMEOUT seconds); fail with ``output()`` otherwise."""
        with self._changed:
            if not self._changed.wait_for(lambda: len(self.messages) >= count, timeout=TIMEOUT):
                pytest.fail(f"{len(self.messages)} of {count} messages arrived in {TIMEOUT} s:\n{output()}")
            return list(self.messages)


@contextmanager
def smtp_server(port: int):
    """A real SMTP server on 127.0.0.1:``port`` (aiosmtpd, in a thread of the test) for as long as the block runs."""
    mailbox = Mailbox()
    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield mailbox
    finally:
        controller.stop()


@pytest.fixture
def smtp_port():
    """A loopback port nothing listens on (yet): the kernel's choice of a free one."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def mail_env(services, smtp_port):  # noqa: F811
    """The worker's environment: the test's PostgreSQL and Redis, Django's SMTP backend at the loopback port."""
    assert connection.vendor == "postgresql"
    return {
        **services,
        "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "DJANGO_EMAIL_HOST": "127.0.0.1",
        "DJANGO_EMAIL_PORT": str(smtp_port),
        "DJANGO_EMAIL_TIMEOUT": "10",
    }


def file_protest(w: World, *, now: datetime.datetime) -> Protest:
    """The home team's manager files the ruling protest its captain made on the rink (R-50); both teams are told."""
    statement = "The referee allowed a goal scored with a high stick."
    return file_as_home(w, "ruling", w.on_rink_protest, now=now, statement=statement)


def by_recipient(messages) -> dict[str, list[email.message.EmailMessage]]:
    received: dict[str, list[email.message.EmailMessage]] = {}
    for recipients, message in messages:
        assert len(recipients) == 1 and message["To"] == recipients[0]
        received.setdefault(recipients[0], []).append(message)
    return received


def assert_told_of_filing(message, protest: Protest, w: World) -> None:
    """The e-mail of the filing: the protest in the subject, the deadline on the venue's clock and its article."""
    due = protest.deadlines.get(kind=DeadlineKind.PROTEST).due_at.astimezone(w.game.championship.venue.zone)
    assert message["From"] == settings.DEFAULT_FROM_EMAIL
    # Django folds a long non-ASCII subject onto the next line ("Subject:" then " =?utf-8?q?..."): unfolded, it
    # starts with that line's blank, which mail programs drop.
    assert message["Subject"].strip() == f"Protest #{protest.pk}, {w.game}: filed by {w.game.home}"
    body = message.get_content()
    assert f"The written protest is due by {moment_text(due)} (Rule 9.1 A, D)." in body
    assert f"/discipline/protests/{protest.pk}/" in body


@pytest.mark.django_db(transaction=True)
def test_a_filed_protest_reaches_both_managers_through_the_worker_and_smtp_once(mail_env, smtp_port, worker_name):
    w = world_ended(ENDED_AGO)
    with smtp_server(smtp_port) as mailbox, worker(env=mail_env, name=worker_name) as celery:
        celery.wait_ready()
        protest = file_protest(w, now=timezone.now())
        received = by_recipient(mailbox.wait_for(2, output=lambda: celery.output))
        notifications = list(Notification.objects.filter(key=f"protest:{protest.pk}:filed"))
        # The task ran again (a retried task, a second worker) and the sweep: each finds its row sent already.
        again = [send_notification_email.delay(n.pk).get(timeout=TIMEOUT) for n in notifications]
        swept = send_pending_notifications.delay().get(timeout=TIMEOUT)
    assert sorted(received) == sorted([w.home_manager.email, w.away_manager.email])
    for messages in received.values():
        assert len(messages) == 1
        assert_told_of_filing(messages[0], protest, w)
    assert again == [EmailStatus.SENT, EmailStatus.SENT] and swept == {}
    assert len(mailbox.messages) == 2
    for notification in notifications:
        notification.refresh_from_db()
        assert notification.email_status == EmailStatus.SENT and notification.email_attempts == 1


@pytest.mark.django_db(transaction=True)
def test_a_refused_message_stays_pending_and_the_sweep_delivers_it_once_when_the_server_answers(
    mail_env, smtp_port, worker_name
):
    w = world_ended(ENDED_AGO)
    with worker(env=mail_env, name=worker_name) as celery:
        celery.wait_ready()
        # Filed two minutes ago while the mail server was down: the queued tasks are refused, and the sweep's
        # grace (a minute) has passed when the server comes back.
        protest = file_protest(w, now=timezone.now() - datetime.timedelta(minutes=2))
        rows = Notification.objects.filter(key=f"protest:{protest.pk}:filed")
        assert rows.count() == 2
        wait_until(
            lambda: rows.filter(email_attempts__gte=1).count() == 2,
            timeout=TIMEOUT,
            what="the worker tried both e-mails",
            output=lambda: celery.output,
        )
        refused = list(rows.values_list("email_status", "email_attempts", "email_error"))
        with smtp_server(smtp_port) as mailbox:
            swept = send_pending_notifications.delay().get(timeout=TIMEOUT)
            received = by_recipient(mailbox.wait_for(2, output=lambda: celery.output))
            swept_again = send_pending_notifications.delay().get(timeout=TIMEOUT)
            delivered = len(mailbox.messages)
    assert MAX_EMAIL_ATTEMPTS > 1
    for status, attempts, error in refused:
        assert (status, attempts) == (EmailStatus.PENDING, 1)
        assert error.startswith("ConnectionRefusedError"), error
    assert swept == {str(n.pk): EmailStatus.SENT for n in rows}
    assert sorted(received) == sorted([w.home_manager.email, w.away_manager.email])
    for messages in received.values():
        assert len(messages) == 1
        assert_told_of_filing(messages[0], protest, w)
    assert swept_again == {} and delivered == 2
    assert set(rows.values_list("email_status", "email_attempts", "email_error")) == {(EmailStatus.SENT, 2, "")}
