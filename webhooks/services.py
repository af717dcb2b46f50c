"""Webhooks: endpoints made and removed, events recorded as deliveries, and each delivery's attempt.

Writes check who may (``webhooks.access``) whoever calls them: the pages, the API and the admin. An event becomes
one delivery per active endpoint of each federation it concerns that asked for its type, recorded and queued only
once the transaction that caused it commits; nothing is ever sent to another federation's endpoint. An attempt
signs the body (``webhooks.signing``), posts it once and records the answer; ``webhooks.tasks`` retries a 5xx or a
connection error with an exponential backoff, never a 4xx.
"""

from __future__ import annotations

import datetime
import json
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.models import Federation

from . import access, hooks, signing
from .addresses import check_endpoint_url
from .models import Delivery, DeliveryStatus, Endpoint, EventType

USER_AGENT = "IHTC-Portal-Webhooks/1"
MAX_ENDPOINTS_PER_FEDERATION = 10


# --- Endpoints -----------------------------------------------------------------------------------------------------


def check_event_types(event_types: Iterable[str] | None) -> list[str]:
    """Return the event types asked for, in the catalogue's order; a 400 names ``event_types`` otherwise."""
    asked = list(event_types or [])
    unknown = sorted({str(value) for value in asked} - set(EventType.values))
    if unknown:
        raise ValidationError({"event_types": _("Unknown event type: %(types)s.") % {"types": ", ".join(unknown)}})
    if not asked:
        raise ValidationError({"event_types": _("Choose at least one event type.")})
    return [value for value in EventType.values if value in asked]


def check_can_manage_endpoints(user, federation: Federation) -> None:
    if not access.can_manage_endpoints_of(user, federation):
        raise PermissionDenied(_("Only staff of the federation, or international staff, manage its webhooks."))


def endpoint_create(
    *, by, federation: Federation, url: str, event_types: Iterable[str], description: str = ""
) -> Endpoint:
    """Register ``url`` to receive ``federation``'s events of ``event_types``; its secret is made here (read it once
    from the returned endpoint: the pages and the API show it only in the answer that made it)."""
    check_can_manage_endpoints(by, federation)
    url = check_endpoint_url(url)
    types = check_event_types(event_types)
    description = (description or "").strip()
    if len(description) > 200:
        raise ValidationError({"description": _("At most 200 characters.")})
    with transaction.atomic():
        # Serialize the federation's endpoint creations: the limit below holds with two at once.
        Federation.objects.select_for_update().filter(pk=federation.pk).first()
        if Endpoint.objects.filter(federation=federation).count() >= MAX_ENDPOINTS_PER_FEDERATION:
            raise ValidationError(
                {"url": _("A federation has at most %(limit)s endpoints.") % {"limit": MAX_ENDPOINTS_PER_FEDERATION}}
            )
        return Endpoint.objects.create(
            federation=federation, url=url, event_types=types, description=description, created_by=by
        )


def endpoint_delete(*, by, endpoint: Endpoint) -> None:
    """Remove an endpoint and its delivery log: nothing more is sent there."""
    check_can_manage_endpoints(by, endpoint.federation)
    endpoint.delete()


# --- Events --------------------------------------------------------------------------------------------------------


def _wanted_endpoints(event_type: str, federation_ids: Iterable[int]) -> list[Endpoint]:
    ids = {pk for pk in federation_ids if pk}
    if not ids:
        return []
    endpoints = Endpoint.objects.filter(federation_id__in=ids, active=True).order_by("pk")
    return [endpoint for endpoint in endpoints if endpoint.wants(event_type)]


def _last_data(endpoint: Endpoint, event_type: str, subject: str):
    last = (
        Delivery.objects.filter(endpoint=endpoint, event_type=event_type, subject=subject)
        .order_by("-created_at", "-pk")
        .values_list("payload", flat=True)
        .first()
    )
    return None if last is None else last.get("data")


def _part(data, key: str):
    if data is None or key == "*":
        return data
    return data.get(key)


def emit(
    event_type: str,
    *,
    federation_ids: Iterable[int],
    subject: str,
    data: Mapping,
    once: bool = False,
    only_if_changed: str = "",
    now: datetime.datetime | None = None,
) -> list[Delivery]:
    """Record one event for every endpoint of ``federation_ids`` that asked for ``event_type``, and queue each
    delivery once this transaction commits. ``once``: not again to an endpoint already told of ``subject``;
    ``only_if_changed`` (a key of ``data``, or "*" for all of it): not when the endpoint's last delivery about
    ``subject`` carried the same value there (a person's name changed, their eligibility the same: no event)."""
    now = now or timezone.now()
    event_id = uuid.uuid4()
    data = json.loads(json.dumps(data, default=str))  # as stored and as sent: comparable with a stored one
    made = []
    with transaction.atomic():
        for endpoint in _wanted_endpoints(event_type, federation_ids):
            if once and Delivery.objects.filter(endpoint=endpoint, event_type=event_type, subject=subject).exists():
                continue
            if only_if_changed and _part(_last_data(endpoint, event_type, subject), only_if_changed) == _part(
                data, only_if_changed
            ):
                continue
            payload = {
                "id": str(event_id),
                "type": event_type,
                "created": now.isoformat(),
                "federation": endpoint.federation_id,
                "data": data,
            }
            made.append(
                Delivery.objects.create(
                    endpoint=endpoint, event_id=event_id, event_type=event_type, subject=subject, payload=payload
                )
            )
        for delivery in made:
            # robust: a broker down or hung loses no delivery (requeue_lost_deliveries sweeps it); the request goes on.
            transaction.on_commit(lambda pk=delivery.pk: hooks.queue_delivery(pk), robust=True)
    return made


def delivery_resend(*, by, delivery: Delivery) -> Delivery:
    """Send a delivery again (a receiver that lost it, or was down past the last retry): same event id, so a
    receiver that had it can tell (``X-Portal-Delivery``)."""
    check_can_manage_endpoints(by, delivery.endpoint.federation)
    with transaction.atomic():
        delivery = Delivery.objects.select_for_update().get(pk=delivery.pk)
        delivery.status, delivery.next_attempt_at = DeliveryStatus.PENDING, None
        delivery.save(update_fields=["status", "next_attempt_at"])
        transaction.on_commit(lambda: hooks.queue_delivery(delivery.pk), robust=True)
    return delivery


# --- Attempts ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """What one request brought back: an HTTP status, or none and the connection's error."""

    code: int | None
    error: str = ""

    @property
    def delivered(self) -> bool:
        return self.code is not None and 200 <= self.code < 300

    @property
    def transient(self) -> bool:
        """A 5xx or no answer at all is worth another try; a 4xx (or a redirect, not followed) is the receiver's
        refusal and is not."""
        return self.code is None or self.code >= 500


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    # A redirect could lead anywhere, a private address included: it is not followed, the 3xx is the answer.
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


_opener = urllib.request.build_opener(_NoRedirects)


def body_of(payload: Mapping) -> bytes:
    """The request body: compact JSON (what is signed is exactly what is sent)."""
    return json.dumps(payload, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode("utf-8")


def post(url: str, *, secret: str, payload: Mapping, event_type: str, event_id: str, timeout: float) -> Answer:
    """POST ``payload`` signed with ``secret`` to ``url`` once; return the answer (never raises on the network)."""
    body = body_of(payload)
    request = urllib.request.Request(
        url,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            signing.SIGNATURE_HEADER: signing.signature_header(secret, int(time.time()), body),
            signing.EVENT_HEADER: event_type,
            signing.DELIVERY_HEADER: event_id,
        },
    )
    try:
        with _opener.open(request, timeout=timeout) as response:
            response.read(1024)
            return Answer(response.status)
    except urllib.error.HTTPError as answer:
        return Answer(answer.code, f"HTTP {answer.code} {answer.reason}"[:300])
    except (urllib.error.URLError, OSError, ValueError) as failure:
        reason = getattr(failure, "reason", failure)
        return Answer(None, f"{type(failure).__name__}: {reason}"[:300])


def retry_delay(retries: int) -> int:
    """Seconds before the next try after ``retries`` retries: doubling from ``WEBHOOKS_RETRY_BASE_SECONDS``."""
    return int(settings.WEBHOOKS_RETRY_BASE_SECONDS * 2**retries)


def _claim(delivery_id: int, now: datetime.datetime) -> Delivery | None:
    """Count an attempt of a delivery still to be sent (locked: two workers never both count one)."""
    with transaction.atomic():
        delivery = (
            Delivery.objects.select_for_update(of=("self",))
            .select_related("endpoint")
            .filter(pk=delivery_id, status__in=[DeliveryStatus.PENDING, DeliveryStatus.RETRYING])
            .first()
        )
        if delivery is None:
            return None
        delivery.attempts += 1
        delivery.last_attempt_at = now
        delivery.save(update_fields=["attempts", "last_attempt_at"])
        return delivery


def delivery_attempt(delivery_id: int, *, retries: int, now: datetime.datetime | None = None) -> str:
    """Send delivery ``delivery_id`` once and record the answer; return its status after the attempt, "retrying"
    when the caller should try again in ``retry_delay(retries)`` seconds. Idempotent on a delivered one."""
    now = now or timezone.now()
    delivery = _claim(delivery_id, now)
    if delivery is None:
        return "done"
    endpoint = delivery.endpoint
    last = retries >= settings.WEBHOOKS_MAX_ATTEMPTS - 1
    if not endpoint.active:
        answer = Answer(None, "The endpoint is inactive.")
        last = True
    else:
        try:
            check_endpoint_url(endpoint.url)  # again: the name may resolve to a private address by now
        except ValidationError as refusal:
            answer, last = Answer(None, "; ".join(refusal.messages)[:300]), True
        else:
            answer = post(
                endpoint.url,
                secret=endpoint.secret,
                payload=delivery.payload,
                event_type=delivery.event_type,
                event_id=str(delivery.event_id),
                timeout=settings.WEBHOOKS_TIMEOUT_SECONDS,
            )
    delivery.response_code, delivery.error = answer.code, answer.error
    if answer.delivered:
        delivery.status, delivery.delivered_at, delivery.next_attempt_at = (
            DeliveryStatus.DELIVERED,
            timezone.now(),
            None,
        )
    elif answer.transient and not last:
        delivery.status = DeliveryStatus.RETRYING
        delivery.next_attempt_at = timezone.now() + datetime.timedelta(seconds=retry_delay(retries))
    else:
        delivery.status, delivery.next_attempt_at = DeliveryStatus.FAILED, None
    delivery.save(update_fields=["response_code", "error", "status", "delivered_at", "next_attempt_at"])
    return delivery.status


def lost_delivery_ids(now: datetime.datetime | None = None) -> list[int]:
    """Deliveries whose queued attempt was lost (a worker killed, the broker down): pending for a minute, or
    retrying well past their time."""
    now = now or timezone.now()
    grace = datetime.timedelta(seconds=60 + settings.WEBHOOKS_TIMEOUT_SECONDS)
    pending = Delivery.objects.filter(status=DeliveryStatus.PENDING, created_at__lt=now - grace).filter(
        Q(last_attempt_at=None) | Q(last_attempt_at__lt=now - grace)
    )
    late = Delivery.objects.filter(status=DeliveryStatus.RETRYING, next_attempt_at__lt=now - grace)
    return sorted({*pending.values_list("pk", flat=True), *late.values_list("pk", flat=True)})
