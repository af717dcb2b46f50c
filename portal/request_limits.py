"""The size of a request's body: at most ``PORTAL_MAX_REQUEST_BYTES`` (12 MB), refused with 413 before it is read.

The production topology's nginx refuses larger bodies itself (``client_max_body_size 12m``, scripts/topology), but
the portal also runs without it (``make run``, ``scripts/production`` on its own), and uvicorn has no body-size
limit of its own. Django's ASGI handler reads the whole body into a file before any middleware runs, so the
guard is an ASGI wrapper around the application (``RequestBodyLimit``, portal.asgi):

- a ``Content-Length`` over the limit is answered 413 at once, without reading a byte of the body;
- a body sent without one (chunked) is counted as it arrives and refused with 413 as soon as it passes the limit.

``RequestBodyLimitMiddleware`` (first in ``MIDDLEWARE``) does the first check for a WSGI server and the tests'
client. Below the limit Django's own limits still apply (``DATA_UPLOAD_MAX_MEMORY_SIZE`` for form fields, each
upload field's check, e.g. 5 MB for a passport scan), each with its own error.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext


class BodyTooLarge(Exception):
    """The body passed the limit while it was arriving."""


def max_request_bytes() -> int:
    return settings.PORTAL_MAX_REQUEST_BYTES


def declared_too_large(content_length: str | bytes | None) -> bool:
    """Whether a ``Content-Length`` header says more than the limit (a malformed one is left to the server)."""
    try:
        return int(content_length or 0) > max_request_bytes()
    except ValueError:
        return False


def _refusal() -> tuple[str, dict]:
    megabytes = max_request_bytes() // (1024 * 1024)
    detail = gettext("The request is too large: at most %(mb)s MB may be sent at once.") % {"mb": megabytes}
    return detail, {"detail": detail, "code": "request_too_large"}


def refusal_response(path: str) -> HttpResponse:
    detail, body = _refusal()
    if path.startswith("/api/"):
        return JsonResponse(body, status=413)
    return HttpResponse(detail, status=413, content_type="text/plain; charset=utf-8")


class RequestBodyLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if declared_too_large(request.META.get("CONTENT_LENGTH")):
            return refusal_response(request.path)
        return self.get_response(request)


class RequestBodyLimit:
    """ASGI wrapper: 413 for a body over the limit, declared or counted, before the application reads it whole."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        if declared_too_large(headers.get(b"content-length")):
            return await self._refuse(scope, send)
        received = 0
        started = False

        async def counted_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > max_request_bytes():
                    raise BodyTooLarge
            return message

        async def watched_send(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted_receive, watched_send)
        except BodyTooLarge:
            if not started:
                await self._refuse(scope, send)

    async def _refuse(self, scope, send):
        detail, body = _refusal()
        if scope.get("path", "").startswith("/api/"):
            content, content_type = json.dumps(body).encode(), b"application/json"
        else:
            content, content_type = detail.encode(), b"text/plain; charset=utf-8"
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                # The rest of the body is not read: the connection is closed after the answer.
                "headers": [(b"content-type", content_type), (b"connection", b"close")],
            }
        )
        await send({"type": "http.response.body", "body": content})
