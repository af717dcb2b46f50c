"""The signature of a webhook delivery: HMAC-SHA256 over the timestamp and the body (docs/webhooks.md).

A pure core: no Django import and no wall-clock read; the time is an argument. The portal signs each request with
the endpoint's secret; the receiver recomputes the signature over the body as received and refuses one that does
not match or is older than its tolerance (a replayed request).

Header: ``X-Portal-Signature: t=<unix seconds>,v1=<hex of hmac_sha256(secret, f"{t}.{body}")>``.
"""

from __future__ import annotations

import hashlib
import hmac

SIGNATURE_HEADER = "X-Portal-Signature"
EVENT_HEADER = "X-Portal-Event"
DELIVERY_HEADER = "X-Portal-Delivery"
SCHEME = "v1"
# How old a signed request a receiver accepts by default (seconds), either way of its clock.
DEFAULT_TOLERANCE = 300


class SignatureError(ValueError):
    """A signature header that is missing, malformed, does not match the body, or is too old."""


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """Return the hex HMAC-SHA256 of ``f"{timestamp}.{body}"`` under ``secret``."""
    message = str(int(timestamp)).encode("ascii") + b"." + body
    return hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


def signature_header(secret: str, timestamp: int, body: bytes) -> str:
    """Return the value of ``X-Portal-Signature`` for ``body`` sent at ``timestamp`` (unix seconds)."""
    return f"t={int(timestamp)},{SCHEME}={signature(secret, timestamp, body)}"


def parse_header(header: str) -> tuple[int, list[str]]:
    """Return the timestamp and the ``v1`` signatures of a header (several when a secret is being rotated)."""
    timestamp: int | None = None
    signatures: list[str] = []
    for part in (header or "").split(","):
        key, sep, value = part.strip().partition("=")
        if not sep:
            continue
        if key == "t":
            try:
                timestamp = int(value)
            except ValueError:
                raise SignatureError("the timestamp t= is not a whole number of seconds") from None
        elif key == SCHEME:
            signatures.append(value)
    if timestamp is None:
        raise SignatureError("the header has no timestamp t=")
    if not signatures:
        raise SignatureError(f"the header has no {SCHEME}= signature")
    return timestamp, signatures


def verify(secret: str, header: str, body: bytes, *, now: float, tolerance: int = DEFAULT_TOLERANCE) -> int:
    """Check that ``header`` signs ``body`` under ``secret`` at most ``tolerance`` seconds from ``now``; return the
    signed timestamp. Raise ``SignatureError`` otherwise. The comparison takes constant time."""
    timestamp, signatures = parse_header(header)
    if abs(now - timestamp) > tolerance:
        raise SignatureError(f"the timestamp is more than {tolerance} s from now (a replayed request?)")
    expected = signature(secret, timestamp, body)
    if not any(hmac.compare_digest(expected, candidate) for candidate in signatures):
        raise SignatureError("the signature does not match the body")
    return timestamp
