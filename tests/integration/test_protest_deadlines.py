"""A protest deadline passed while no worker ran: real beat and worker on PostgreSQL + Redis catch up (R-51).

The protest is due a minute ago, without its fee, when the worker and beat start: the first sweep lapses it by
the database's clock and tells both teams; further sweeps change and send nothing more (idempotent tasks).
"""

import datetime
import time

import pytest
from django.db import connection
from django.utils import timezone
from djmoney.money import Money

from accounts.models import Role
from discipline.models import Deadline, Protest, ProtestStatus
from portal.models import Notification
from tests.factories import GameFactory, SuperuserFactory, with_role

from .conftest import beat, worker
from .test_celery_postgres_redis import services  # noqa: F401 - the fixture

pytestmark = pytest.mark.integration


def _overdue_protest() -> Protest:
    game = GameFactory()
    for entry in (game.home, game.away):
        entry.managers.add(with_role(Role.TEAM_MANAGER, entry.federation))
    now = timezone.now()
    anchor = now - datetime.timedelta(hours=3, minutes=1)
    protest = Protest.objects.create(
        kind="ruling",
        game=game,
        entry=game.home,
        incident="On-rink protest",
        incident_at=anchor,
        statement="Written.",
        filed_by=SuperuserFactory(),
        filed_at=anchor,
        fee_due=Money(200, "USD"),
    )
    Deadline.objects.create(
        protest=protest,
        kind="protest",
        article="9.1 A, D",
        anchor_at=anchor,
        due_at=anchor + datetime.timedelta(hours=3),
    )
    return protest


@pytest.mark.django_db(transaction=True)
def test_a_worker_down_past_a_deadline_lapses_the_protest_when_it_restarts(services, worker_name, tmp_path):  # noqa: F811
    assert connection.vendor == "postgresql"
    protest = _overdue_protest()
    (tmp_path / "celery").mkdir()
    env = {**services, "PORTAL_DEADLINE_SWEEP_SECONDS": "2", "PORTAL_DATA_DIR": str(tmp_path)}
    with worker(env=env, name=worker_name) as w, beat(env=env) as b:
        w.wait_ready()
        b.wait_ready()
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            protest.refresh_from_db()
            if protest.status == ProtestStatus.LAPSED:
                break
            time.sleep(1)
        assert protest.status == ProtestStatus.LAPSED, w.output + b.output
        told = Notification.objects.filter(key=f"protest:{protest.pk}:lapsed").count()
        transitions = protest.transitions.count()
        time.sleep(6)  # two or three more sweeps
    assert told == 2
    assert Notification.objects.filter(key=f"protest:{protest.pk}:lapsed").count() == 2
    assert protest.transitions.count() == transitions == 1
    assert protest.deadlines.get().status == "lapsed"
