"""The webhooks' Celery tasks: send one delivery (with retries), queue again the lost ones, and tell the rosters
frozen since the last sweep.

``deliver`` takes the delivery's id; each run is one attempt (``services.delivery_attempt``). A 5xx or a connection
error is tried again after ``retry_delay`` (30 s, 1 min, 2 min... by default), up to ``WEBHOOKS_MAX_ATTEMPTS``
attempts; a 4xx is not. Each try is its own message carrying the count of tries made. A delivered delivery is
never sent twice by a task run twice (``acks_late``).
"""

from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError

from . import events, services
from .models import DeliveryStatus


@shared_task(name="webhooks.tasks.deliver", autoretry_for=(DatabaseError,), retry_backoff=2, max_retries=5)
def deliver(delivery_id: int, retries: int = 0) -> str:
    """Send delivery ``delivery_id`` once (after ``retries`` tries); when the answer was transient, queue the next
    try after ``retry_delay(retries)`` (a new message, so a worker's own retry of a database error stays apart)."""
    status = services.delivery_attempt(delivery_id, retries=retries)
    if status == DeliveryStatus.RETRYING:
        deliver.apply_async((delivery_id,), {"retries": retries + 1}, countdown=services.retry_delay(retries))
    return status


@shared_task(name="webhooks.tasks.requeue_lost_deliveries")
def requeue_lost_deliveries() -> int:
    """Queue again every delivery whose attempt was lost; beat, every minute."""
    ids = services.lost_delivery_ids()
    for delivery_id in ids:
        queue_delivery(delivery_id)
    return len(ids)


@shared_task(name="webhooks.tasks.announce_frozen_rosters")
def announce_frozen_rosters() -> int:
    """Tell each federation of its rosters frozen since the last sweep (3.1.1 B, R-05); beat, every minute."""
    return events.announce_frozen_rosters()


def queue_delivery(delivery_id: int) -> None:
    """Queue one delivery: the answer of ``webhooks.hooks.queue_delivery``."""
    deliver.delay(delivery_id)
