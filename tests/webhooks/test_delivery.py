"""Deliveries to a real receiving server on loopback (``http.server`` in a thread): the receiver checks the
signature as docs/webhooks.md tells a federation to; a 500 is retried and the retry delivers; a 4xx is not
retried; a connection refused is retried up to the last attempt. The Celery task runs eagerly (its retries too)."""

from __future__ import annotations

import json
import socket
import time

import pytest

from tests.factories import FederationFactory, federation_staff
from webhooks import services
from webhooks.models import Delivery, DeliveryStatus, EventType
from webhooks.signing import verify

pytestmark = pytest.mark.django_db


@pytest.fixture
def endpoint(receiver):
    federation = FederationFactory()
    return services.endpoint_create(
        by=federation_staff(federation), federation=federation, url=receiver.url, event_types=list(EventType.values)
    )


def send(endpoint, capture, data=None) -> Delivery:
    with capture(execute=True):
        [delivery] = services.emit(
            EventType.GAME_FINAL, federation_ids=[endpoint.federation_id], subject="game:1", data=data or {"game": 1}
        )
    delivery.refresh_from_db()
    return delivery


def check_signed(request, secret) -> dict:
    """What a federation's receiver does: verify the signature over the raw body, then read it."""
    verify(secret, request.headers["X-Portal-Signature"], request.body, now=time.time())
    return json.loads(request.body)


def test_a_delivery_is_signed_and_its_receiver_verifies_it(endpoint, receiver, django_capture_on_commit_callbacks):
    delivery = send(endpoint, django_capture_on_commit_callbacks, {"game": 1, "home_goals": 3})
    [request] = receiver.requests
    body = check_signed(request, endpoint.secret)
    assert body == {
        "id": str(delivery.event_id),
        "type": "game.final",
        "created": body["created"],
        "federation": endpoint.federation_id,
        "data": {"game": 1, "home_goals": 3},
    }
    assert request.path == "/hooks"
    assert request.headers["X-Portal-Event"] == "game.final"
    assert request.headers["X-Portal-Delivery"] == str(delivery.event_id)
    assert request.headers["Content-Type"] == "application/json"
    assert (delivery.status, delivery.attempts, delivery.response_code) == (DeliveryStatus.DELIVERED, 1, 200)
    assert delivery.delivered_at is not None


def test_a_500_is_retried_and_the_retry_delivers(endpoint, receiver, django_capture_on_commit_callbacks):
    receiver.answers = [500]
    delivery = send(endpoint, django_capture_on_commit_callbacks)
    first, second = receiver.requests
    assert check_signed(first, endpoint.secret) == check_signed(second, endpoint.secret)
    # One event, one idempotency id: the receiver can tell the retry from a new event.
    assert first.headers["X-Portal-Delivery"] == second.headers["X-Portal-Delivery"] == str(delivery.event_id)
    assert (delivery.status, delivery.attempts, delivery.response_code) == (DeliveryStatus.DELIVERED, 2, 200)


def test_a_4xx_is_not_retried(endpoint, receiver, django_capture_on_commit_callbacks):
    receiver.answers = [410]
    delivery = send(endpoint, django_capture_on_commit_callbacks)
    assert len(receiver.requests) == 1
    assert (delivery.status, delivery.attempts, delivery.response_code) == (DeliveryStatus.FAILED, 1, 410)


def test_an_endpoint_always_failing_gets_the_last_attempt_then_the_delivery_fails(
    endpoint, receiver, settings, django_capture_on_commit_callbacks
):
    settings.WEBHOOKS_MAX_ATTEMPTS = 3
    receiver.answers = [500, 503, 502, 500]
    delivery = send(endpoint, django_capture_on_commit_callbacks)
    assert len(receiver.requests) == 3
    assert (delivery.status, delivery.attempts, delivery.response_code) == (DeliveryStatus.FAILED, 3, 502)


def test_a_refused_connection_is_retried_then_fails(endpoint, settings, django_capture_on_commit_callbacks):
    settings.WEBHOOKS_MAX_ATTEMPTS = 2
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    endpoint.url = f"http://127.0.0.1:{port}/gone"
    endpoint.save()
    delivery = send(endpoint, django_capture_on_commit_callbacks)
    assert (delivery.status, delivery.attempts, delivery.response_code) == (DeliveryStatus.FAILED, 2, None)
    assert "Connection refused" in delivery.error or "URLError" in delivery.error


def test_the_retry_waits_longer_each_time(settings):
    settings.WEBHOOKS_RETRY_BASE_SECONDS = 30
    assert [services.retry_delay(n) for n in range(4)] == [30, 60, 120, 240]


def test_a_delivery_sent_again_carries_the_same_event_id(endpoint, receiver, django_capture_on_commit_callbacks):
    delivery = send(endpoint, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        services.delivery_resend(by=federation_staff(endpoint.federation), delivery=delivery)
    delivery.refresh_from_db()
    first, again = receiver.requests
    assert first.headers["X-Portal-Delivery"] == again.headers["X-Portal-Delivery"]
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.DELIVERED, 2)


def test_a_delivered_delivery_is_not_sent_twice_by_a_task_run_twice(
    endpoint, receiver, django_capture_on_commit_callbacks
):
    delivery = send(endpoint, django_capture_on_commit_callbacks)
    assert services.delivery_attempt(delivery.pk, retries=0) == "done"
    assert len(receiver.requests) == 1


def test_nothing_is_sent_to_an_inactive_endpoint(endpoint, receiver, django_capture_on_commit_callbacks):
    endpoint.active = False
    endpoint.save()
    with django_capture_on_commit_callbacks(execute=True):
        made = services.emit(EventType.GAME_FINAL, federation_ids=[endpoint.federation_id], subject="g", data={})
    assert made == [] and receiver.requests == []


def test_an_event_rolled_back_is_never_sent(endpoint, receiver, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.emit(EventType.GAME_FINAL, federation_ids=[endpoint.federation_id], subject="g", data={})
    assert len(callbacks) == 1 and receiver.requests == []  # queued on commit only


def test_a_broker_that_fails_to_queue_a_delivery_fails_nothing_and_the_sweep_finds_it(
    endpoint, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    """Redis refused or hung: the event's request goes on (the queuing is a robust on-commit callback, logged); the
    delivery stays pending for ``requeue_lost_deliveries``."""
    import datetime

    from django.utils import timezone

    from webhooks import tasks

    def broker_down(delivery_id):
        raise TimeoutError("Timeout reading from socket")

    monkeypatch.setattr(tasks, "queue_delivery", broker_down)
    delivery = send(endpoint, django_capture_on_commit_callbacks)
    assert delivery.status == DeliveryStatus.PENDING and delivery.attempts == 0
    assert "Timeout reading from socket" in caplog.text
    later = timezone.now() + datetime.timedelta(minutes=5)
    assert services.lost_delivery_ids(now=later) == [delivery.pk]
