"""What the site's navigation needs of the tournaments app: whether the login has teams ("My teams")."""

from __future__ import annotations

from accounts.models import Role
from accounts.roles import has_role, is_federation_staff


def nav(request) -> dict:
    """``nav_teams``: team managers and staff of a federation (who enter its teams and keep their rosters) have
    "My teams" in the menu; asked only when a page renders the navigation (the roles are read once per request)."""
    user = getattr(request, "user", None)

    def teams() -> bool:
        if user is None or not user.is_authenticated:
            return False
        return has_role(user, Role.TEAM_MANAGER) or is_federation_staff(user)

    return {"nav_teams": teams}
