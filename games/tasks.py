"""The games app's Celery tasks."""

from __future__ import annotations

from celery import shared_task

from . import live


@shared_task(name="games.tasks.live_heartbeat", ignore_result=True)
def live_heartbeat() -> bool:
    """The scoreboard's heartbeat when nchan carries the pushes (beat runs it every ``live.HEARTBEAT_SECONDS``).

    One message on one channel that every viewer's subscription multiplexes: its cost does not grow with the
    games or the viewers. A board that hears none for ``live.STALE_SECONDS`` says it is stale.
    """
    return live.publish_heartbeat()
