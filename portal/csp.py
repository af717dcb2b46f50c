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
