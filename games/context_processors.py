"""What the site's navigation needs of the games app: whether the user is a registered official ("My games")."""

from __future__ import annotations

from .services.access import official_person_id


def nav(request) -> dict:
    """``nav_official``: asked only when a page renders the navigation (one query, kept on the user object)."""
    user = getattr(request, "user", None)
    return {"nav_official": lambda: user is not None and official_person_id(user) is not None}
