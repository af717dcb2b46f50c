"""What the site's navigation needs of the accounts app: whether the person keeps the teams' logins."""

from __future__ import annotations

from . import roles


def nav(request) -> dict:
    """``nav_logins``: federation staff and international staff see the "Logins" page (accounts.login_views)."""
    user = getattr(request, "user", None)
    return {"nav_logins": bool(user is not None and user.is_authenticated and roles.is_federation_staff(user))}
