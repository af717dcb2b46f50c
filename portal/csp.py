"""The Content-Security-Policy header: django-csp's middleware, plus the WebSocket of the page's own host.

``connect-src 'self'`` covers ws:/wss: of the same host in CSP Level 3 browsers only; the live console and
scoreboards open ``ws(s)://<host>/ws/...``, so the host the request came to is named explicitly.
"""

from __future__ import annotations

from csp.middleware import CSPMiddleware, PolicyParts
from django.core.exceptions import DisallowedHost


class PortalCSPMiddleware(CSPMiddleware):
    def get_policy_parts(self, request, response, report_only: bool = False) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        try:
            host = request.get_host()
        except DisallowedHost:
            return parts
        update = dict(parts.update or {})
        update["connect-src"] = [*update.get("connect-src", []), f"ws://{host}", f"wss://{host}"]
        parts.update = update
        return parts


# --- the headers of responses Django's middleware never sees -------------------------------------------------------

# The middleware of settings.MIDDLEWARE that only add headers to a response: the live stream (portal.asgi) is a plain
# ASGI application beside Django, so ``SecurityHeadersASGI`` runs these on its responses (issue 23).
HEADER_MIDDLEWARE = (
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "portal.csp.PortalCSPMiddleware",
)


def security_headers(scope, content_type: str) -> list[tuple[bytes, bytes]]:
    """The security headers Django's own middleware gives a response of ``content_type`` to the request of
    ``scope`` (Content-Security-Policy, X-Content-Type-Options, Referrer-Policy, X-Frame-Options, HSTS,
    Cross-Origin-Opener-Policy): the same classes and settings, so the two kinds of response cannot drift apart."""
    import io

    from django.core.handlers.asgi import ASGIRequest
    from django.http import HttpResponse
    from django.utils.module_loading import import_string

    request = ASGIRequest(scope, io.BytesIO())
    response = HttpResponse(content_type=content_type)
    for path in HEADER_MIDDLEWARE:
        middleware = import_string(path)(HttpResponse)  # get_response is never called: only process_response
        if path == "portal.csp.PortalCSPMiddleware":
            middleware.process_request(request)  # the nonce the policy names
        response = middleware.process_response(request, response)
    return [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in response.items()]


class SecurityHeadersASGI:
    """An ASGI wrapper that adds ``security_headers`` to each HTTP response of ``app`` (the live stream's, which
    bypasses Django's middleware); a header the application sets itself (its Content-Type) is kept."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                own = list(message.get("headers", []))
                names = {name.lower() for name, _ in own}
                content_type = next((v.decode("latin-1") for n, v in own if n.lower() == b"content-type"), "")
                added = [(n, v) for n, v in security_headers(scope, content_type) if n not in names]
                message = {**message, "headers": own + added}
            await send(message)

        return await self.app(scope, receive, send_with_headers)
