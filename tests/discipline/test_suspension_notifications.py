"""Suspensions are told end to end (R-53): imposed, served, ended by beat, each once, by e-mail through the Celery
task (eager here) and in the portal, to the managers of the person's teams and the sanctioning body's staff."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.core import mail

from accounts.models import Role
from discipline import tasks
from discipline.models import Suspension, SuspensionStatus
from portal.celery import app
from portal.models import EmailStatus, Notification
from tests.discipline.test_suspensions import HOUR, later, make_final, receive
from tests.factories import TeamEntryFactory, federation_staff, with_role

pytestmark = pytest.mark.django_db


@pytest.fixture
def told(offence):
    """The offence's game and player, a manager of his team and the body's staff: those told of his suspension."""
    game, player = offence
    manager = with_role(Role.TEAM_MANAGER, email="manager@example.org")
    game.home.managers.add(manager)
    staff = federation_staff(game.championship.sanctioning_body, email="staff@example.org")
    outsider = with_role(Role.TEAM_MANAGER, email="outsider@example.org")
    TeamEntryFactory().managers.add(outsider)
    return game, player, manager, staff


def _mailed_to(subject_part: str) -> set[str]:
    return {address for m in mail.outbox if subject_part in m.subject for address in m.to}


def test_an_imposed_suspension_is_mailed_once_to_the_teams_managers_and_the_bodys_staff(
    told, django_capture_on_commit_callbacks
):
    game, player, manager, staff = told
    with django_capture_on_commit_callbacks(execute=True):
        receive(game, player)
    assert _mailed_to("is suspended") == {"manager@example.org", "staff@example.org"}
    assert len(mail.outbox) == 2
    assert all(str(player) in m.subject and "8.2 A" in m.body for m in mail.outbox)
    assert set(Notification.objects.values_list("email_status", flat=True)) == {EmailStatus.SENT}
    with django_capture_on_commit_callbacks(execute=True):
        receive(game, player)  # the same consequence received again: same terms, nobody told twice
    assert len(mail.outbox) == 2


def test_a_served_suspension_is_told_so_nobody_stays_blocked_by_mistake(
    told, director, django_capture_on_commit_callbacks
):
    game, player, manager, staff = told
    receive(game, player)
    next_game = later(game, 24)
    with django_capture_on_commit_callbacks(execute=True):
        make_final(next_game, director)
    assert Suspension.objects.get().status == SuspensionStatus.SERVED
    assert _mailed_to("has served") == {"manager@example.org", "staff@example.org"}
    assert Notification.objects.filter(user=manager, key__endswith=":served").count() == 1


def test_beat_ends_a_rest_of_tournament_suspension_once_and_tells_it_8_2_c(told, django_capture_on_commit_callbacks):
    game, player, manager, staff = told
    receive(game, player, kind="match", article="6.4.28 A, B", infraction="physical_abuse_of_officials")
    suspension = Suspension.objects.get()
    assert suspension.kind == "rest_of_tournament"
    mail.outbox.clear()
    assert tasks.end_finished_suspensions.delay().get() == 0  # the championship is not over yet
    over = datetime.datetime.combine(game.championship.end_date, datetime.time(), tzinfo=datetime.UTC) + 24 * HOUR
    from discipline.suspensions import end_finished

    with django_capture_on_commit_callbacks(execute=True):
        assert end_finished(now=over) == 1
    suspension.refresh_from_db()
    assert suspension.status == SuspensionStatus.ENDED
    assert _mailed_to("is no longer suspended") == {"manager@example.org", "staff@example.org"}
    with django_capture_on_commit_callbacks(execute=True):
        assert end_finished(now=over) == 0  # run twice: nothing changes, nothing is sent
    assert len(mail.outbox) == 2


def test_beat_schedules_the_end_of_finished_suspensions():
    entry = next(e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == tasks.end_finished_suspensions.name)
    assert entry["schedule"] <= 3600  # an ended suspension is lifted within the hour
    assert tasks.end_finished_suspensions.name in app.tasks
