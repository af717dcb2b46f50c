"""Login lockout (django-axes): per login and address, and per login from any address (issue 23).

Two counts of failed passwords (the login page, the admin's, the "API tokens" page), over the last
``AXES_COOLOFF_TIME`` hours:

- per login and address (``AXES_FAILURE_LIMIT``, 5): a guesser at one address is stopped quickly, and the real
  person elsewhere can still sign in;
- per login from any address (``AXES_ACCOUNT_FAILURE_LIMIT``, 10): a guesser who changes address with every try
  (rotating ``X-Forwarded-For`` from an address the server trusts, or many machines) is stopped too.

django-axes compares one number with one limit, so ``LockoutHandler.get_failures`` answers the failures that
count toward the lock: the per-address count, raised to the per-address limit once the per-login count has
reached its own. ``AXES_LOCKOUT_PARAMETERS`` lists the two in that order. The lockout page
(``lockout_response``) says for how long, and how to be unlocked sooner; an API client (the token exchange,
``accounts.token_api``) is answered the same in JSON, with a 403.

Which address a request comes from is uvicorn's to say: it believes ``X-Forwarded-For`` only from the proxies in
``FORWARDED_ALLOW_IPS`` (scripts/production, scripts/topology's nginx); ``make run`` has no proxy and believes
none.
"""

from __future__ import annotations

from axes.handlers.database import AxesDatabaseHandler
from django.conf import settings
from django.db.models import Sum
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext, ngettext


def failures_toward_lockout(per_address: int, per_account: int, *, address_limit: int, account_limit: int) -> int:
    """The one number django-axes compares with ``address_limit``: at or over it, the login is locked."""
    if per_account >= account_limit:
        return max(per_address, address_limit)
    return per_address


class LockoutHandler(AxesDatabaseHandler):
    """django-axes' database handler with the per-login limit beside the per-address one (``AXES_HANDLER``)."""

    def get_failures(self, request, credentials=None) -> int:
        # One queryset per entry of AXES_LOCKOUT_PARAMETERS: [["username", "ip_address"], ["username"]].
        per_address, per_account = (
            attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            for attempts in self.get_user_attempts(request, credentials)
        )
        return failures_toward_lockout(
            per_address,
            per_account,
            address_limit=settings.AXES_FAILURE_LIMIT,
            account_limit=settings.AXES_ACCOUNT_FAILURE_LIMIT,
        )


def is_locked_out(request) -> bool:
    """Whether django-axes refused this request's password check, or locked the login with it (its flag)."""
    return bool(getattr(request, "axes_locked_out", False))


def lockout_message() -> str:
    """What a locked-out login is told: for how long, and how to be unlocked sooner (the page's words)."""
    hours = settings.AXES_COOLOFF_TIME
    locked = ngettext(
        "Too many wrong passwords for this login: it is locked for %(hours)s hour (%(address_limit)s failures from "
        "one address, or %(account_limit)s from any addresses).",
        "Too many wrong passwords for this login: it is locked for %(hours)s hours (%(address_limit)s failures "
        "from one address, or %(account_limit)s from any addresses).",
        hours,
    ) % {
        "hours": hours,
        "address_limit": settings.AXES_FAILURE_LIMIT,
        "account_limit": settings.AXES_ACCOUNT_FAILURE_LIMIT,
    }
    return f"{locked} {gettext('Wait until then, or ask an IHTC executive to unlock it now.')}"


def lockout_response(request, original_response=None, credentials=None):
    """The answer to a locked-out login (``AXES_LOCKOUT_CALLABLE``): the page (429), how long, and how to be
    unlocked now; to an API client (the view answered JSON), a 403 with ``lockout_message`` as its ``detail``."""
    if original_response is not None and original_response.get("Content-Type", "").startswith("application/json"):
        return JsonResponse({"detail": lockout_message()}, status=403)
    return render(
        request,
        "registration/locked_out.html",
        {
            "hours": settings.AXES_COOLOFF_TIME,
            "address_limit": settings.AXES_FAILURE_LIMIT,
            "account_limit": settings.AXES_ACCOUNT_FAILURE_LIMIT,
        },
        status=settings.AXES_HTTP_RESPONSE_CODE,
    )
