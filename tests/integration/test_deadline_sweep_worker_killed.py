"""A worker killed (SIGKILL) in the middle of a deadline sweep on PostgreSQL + Redis: when a worker returns, each
protest lapsed once, each notification and reminder was e-mailed exactly once (issue 13, "Faults survived").

Twelve protests are overdue without their fee and six are due within the reminder time when a worker and beat
(a sweep every 2 s) start. The kill lands at a chosen point: the test holds uncommitted notification rows of the
seventh overdue protest, so the worker's lapse of it waits on the unique index *after* it changed the protest and
its deadline in its transaction. The worker is killed there; its transaction rolls back (the protest is still
filed, nobody told), the task's message is lost with it, and the next sweep of a second worker queues the lapse
again. E-mails go to a real SMTP server on loopback.
"""

from __future__ import annotations

import datetime
import time

import psycopg
import pytest
from django.db import connection
from django.utils import timezone
from djmoney.money import Money

from accounts.models import Role
from discipline.models import Deadline, Protest, ProtestStatus
from portal.models import EmailStatus, Notification
from tests.factories import GameFactory, SuperuserFactory, with_role

from .conftest import beat, wait_until, worker
from .test_celery_postgres_redis import _database_url, services  # noqa: F401 - the fixture
from .test_notification_smtp import by_recipient, mail_env, smtp_port, smtp_server  # noqa: F401 - fixtures

pytestmark = pytest.mark.integration

OVERDUE, NEAR = 12, 6
KILLED_AT = 6  # index of the overdue protest whose lapse the kill interrupts


def _protests():
    """Two games, one manager per team; OVERDUE protests past their deadline (oldest first), NEAR due in 10 min."""
    games = [GameFactory(), GameFactory()]
    for game in games:
        for entry in (game.home, game.away):
            entry.managers.add(with_role(Role.TEAM_MANAGER, entry.federation))
    filer = SuperuserFactory()
    now = timezone.now()
    made = []
    for n in range(OVERDUE + NEAR):
        game = games[n % 2]
        # The overdue ones an hour ago and after (oldest first), the others in 10 to 27 minutes.
        due = now + datetime.timedelta(minutes=n - 60 if n < OVERDUE else 10 + n)
        anchor = due - datetime.timedelta(hours=3)
        protest = Protest.objects.create(
            kind="ruling",
            game=game,
            entry=game.home,
            incident=f"On-rink protest {n}",
            incident_at=anchor,
            statement="Written.",
            filed_by=filer,
            filed_at=anchor,
            fee_due=Money(200, "USD"),
        )
        Deadline.objects.create(protest=protest, kind="protest", article="9.1 A, D", anchor_at=anchor, due_at=due)
        made.append(protest)
    return made[:OVERDUE], made[OVERDUE:]


def _block_lapse_notice(protest: Protest) -> psycopg.Connection:
    """Insert (uncommitted) the lapse notifications of ``protest`` on a connection of the test's own: the worker's
    insert of the same (user, key) waits for this transaction."""
    blocker = psycopg.connect(_database_url())
    users = [protest.game.home.managers.get().pk, protest.game.away.managers.get().pk]
    with blocker.cursor() as cursor:
        for user_id in users:
            cursor.execute(
                "INSERT INTO portal_notification (user_id, key, subject, body, url, created_at, email_status,"
                " email_attempts, email_error) VALUES (%s, %s, 'held', '', '', now(), 'pending', 0, '')",
                (user_id, f"protest:{protest.pk}:lapsed"),
            )
    return blocker


def _worker_waits_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0] > 0


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_sweep_lapses_each_protest_once_and_mails_each_notice_once(
    mail_env,  # noqa: F811
    smtp_port,  # noqa: F811
    worker_name,
    tmp_path,
):
    assert connection.vendor == "postgresql"
    overdue, near = _protests()
    env = {**mail_env, "PORTAL_DEADLINE_SWEEP_SECONDS": "2", "PORTAL_DATA_DIR": str(tmp_path)}
    started = time.monotonic()
    blocker = _block_lapse_notice(overdue[KILLED_AT])
    with smtp_server(smtp_port) as mailbox, beat(env=env) as scheduler:
        with worker(env=env, name=worker_name) as first:
            first.wait_ready()
            wait_until(
                _worker_waits_on_a_lock,
                timeout=60,
                what="the worker reached the held lapse",
                output=lambda: first.output,
            )
            lapsed_before = Protest.objects.filter(status=ProtestStatus.LAPSED).count()
            first.process.kill()  # SIGKILL: no warm shutdown, in the middle of the lapse's transaction
            first.process.wait(timeout=10)
        blocker.rollback()  # the killed worker's transaction goes on, finds its client gone, and rolls back
        blocker.close()
        time.sleep(1.0)
        killed = Protest.objects.get(pk=overdue[KILLED_AT].pk)
        assert killed.status == ProtestStatus.FILED and killed.transitions.count() == 0
        assert not Notification.objects.filter(key=f"protest:{killed.pk}:lapsed").exists()
        killed_at = time.monotonic() - started

        expected = 2 * OVERDUE + NEAR  # both teams told of each lapse; the protesting team reminded
        with worker(env=env, name=f"second-{worker_name}") as second:
            second.wait_ready()
            mailbox.wait_for(expected, output=lambda: second.output + scheduler.output)
            recovered_at = time.monotonic() - started
            time.sleep(4)  # two more sweeps: nothing more is lapsed nor sent
    assert 0 < lapsed_before == KILLED_AT, "the kill did not land in the middle of the sweep"
    assert len(mailbox.messages) == expected
    subjects = [
        (rcpt, message["Subject"].strip())
        for rcpt, messages in by_recipient(mailbox.messages).items()
        for message in messages
    ]
    assert len(set(subjects)) == expected  # no e-mail twice
    for protest in overdue:
        protest.refresh_from_db()
        assert protest.status == ProtestStatus.LAPSED
        assert protest.transitions.count() == 1
        assert protest.deadlines.get().status == "lapsed"
        told = Notification.objects.filter(key=f"protest:{protest.pk}:lapsed")
        assert told.count() == 2 and set(told.values_list("email_status", flat=True)) == {EmailStatus.SENT}
        assert any(f"Protest #{protest.pk}," in s and s.endswith("lapsed") for _, s in subjects)
    for protest in near:
        protest.refresh_from_db()
        assert protest.status == ProtestStatus.FILED and protest.deadlines.get().reminder_sent_at is not None
        reminded = Notification.objects.get(key=f"protest:{protest.pk}:reminder:protest")
        assert reminded.email_status == EmailStatus.SENT and reminded.email_attempts == 1
    print(
        f"\nkilled after {killed_at:.1f} s with {lapsed_before} of {OVERDUE} lapsed; {expected} e-mails, each once, "
        f"{recovered_at - killed_at:.1f} s after the kill"
    )
