"""What the site's navigation needs of the federation app: whether the user has the approvals queue."""

from __future__ import annotations

from federation.access import can_use_approvals_queue


def nav(request) -> dict:
    """``nav_approvals``: asked only when a page renders the navigation (the roles, read once per request)."""
    user = getattr(request, "user", None)

    def approvals() -> bool:
        return user is not None and user.is_authenticated and can_use_approvals_queue(user)

    return {"nav_approvals": approvals}
