"""What the site's navigation needs of the portal itself: the person's unread notifications."""

from __future__ import annotations

from .notifications import unread_count


def nav(request) -> dict:
    """``nav_unread_notifications``: counted (one query) only when a page renders the navigation."""
    user = getattr(request, "user", None)

    def unread() -> int:
        return unread_count(user) if user is not None and user.is_authenticated else 0

    return {"nav_unread_notifications": unread}
