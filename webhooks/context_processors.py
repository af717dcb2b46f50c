"""What the site's navigation needs of the webhooks: whether the user has the webhooks pages."""

from __future__ import annotations

from .access import uses_webhooks


def nav(request) -> dict:
    """``nav_webhooks``: asked only when a page renders the navigation."""
    user = getattr(request, "user", None)
    return {"nav_webhooks": lambda: user is not None and uses_webhooks(user)}
