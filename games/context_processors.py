"""What the site's navigation needs of the games app: whether the user is a registered official ("My games")."""

from __future__ import annotations

from accounts.models import Role
from accounts.roles import has_role

from .access import official_person_id


def nav(request) -> dict:
    """``nav_official``: asked only when a page renders the navigation.

    Only a holder of the game-official role can have an official account (``check_official_account_link``), so
    the account is read for those users only; the roles are read once per request and most pages read them.
    """
    user = getattr(request, "user", None)

    def official() -> bool:
        return has_role(user, Role.GAME_OFFICIAL) and official_person_id(user) is not None

    return {"nav_official": official}
