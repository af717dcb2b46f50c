"""The portal's answer to an uncaught error (``handler500``): a database that cannot be reached is a 503.

When PostgreSQL restarts or is down, the request in flight fails with Django's ``OperationalError`` or
``InterfaceError`` (the connection was closed under it, or cannot be opened). That is no bug of the portal and not
the visitor's doing: it answers ``503 Service Unavailable`` with ``Retry-After``, as JSON under ``/api/`` and as a
page elsewhere, saying the database is unavailable and the request was not completed. Every multi-row write runs
in one transaction, so a failed request has saved nothing. The next request checks its connection first
(``CONN_HEALTH_CHECKS``) and reconnects once the database is back: no restart of the web process is needed.

Any other error is a 500: JSON under ``/api/`` (``{"detail": ..., "code": "server_error"}``, the API's error body,
never an HTML page to a client that reads JSON), Django's own 500 page (templates/500.html) elsewhere.
"""

from __future__ import annotations

import logging
import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template import loader
from django.utils.translation import gettext
from django.views.decorators.csrf import requires_csrf_token
from django.views.defaults import server_error as django_server_error

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 10


def database_unavailable(error: BaseException | None) -> bool:
    """Whether ``error`` (or an error it was raised from) says the database could not be reached or used."""
    seen = 0
    while error is not None and seen < 5:
        if isinstance(error, (OperationalError, InterfaceError)):
            return True
        error, seen = error.__cause__ or error.__context__, seen + 1
    return False


def _wants_json(request) -> bool:
    return request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", "")


@requires_csrf_token
def server_error(request, template_name="500.html"):
    """``handler500``: 503 when the database is unavailable, a 500 otherwise (JSON under /api/, a page elsewhere)."""
    error = sys.exc_info()[1]
    if not database_unavailable(error):
        if _wants_json(request):
            detail = gettext("A server error occurred: the request was not completed and nothing was saved.")
            return JsonResponse({"detail": detail, "code": "server_error"}, status=500)
        return django_server_error(request, template_name)
    logger.warning("Database unavailable during %s %s: %s", request.method, request.path, error)
    if _wants_json(request):
        response = JsonResponse(
            {
                "detail": gettext(
                    "The database is unavailable at the moment: the request was not completed and nothing was "
                    "saved. Try again in a few seconds."
                ),
                "code": "database_unavailable",
            },
            status=503,
        )
    else:
        # Rendered without a request, like the 500 page: nothing on it may query the database.
        response = HttpResponse(loader.get_template("503.html").render(), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
