"""What the site's navigation needs of the discipline module: the links a login's roles open (no query beyond the
roles, which the navigation reads anyway)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext

from accounts.models import Role
from accounts.roles import has_role

from . import access


def nav(request) -> dict:
    """``nav_discipline``: (label, url) pairs, asked only when a page renders the navigation.

    The committee and the executive: their queue of incident reports, their cases, every protest and every suspension (R-53,
    9.1 A, 8.2); staff who record protest fees: the protests (R-52); team managers: their teams' protests and
    suspensions (9.1, 8.2)."""
    user = getattr(request, "user", None)

    def links() -> list[tuple[str, str]]:
        if user is None or not user.is_authenticated:
            return []
        if access.is_committee(user):
            return [
                (gettext("Discipline"), reverse("discipline:queue")),
                (gettext("Cases"), reverse("discipline:cases")),
                (gettext("Protests"), reverse("discipline:protest-list")),
                (gettext("Suspensions"), reverse("discipline:suspensions")),
            ]
        if access.keeps_protest_fees(user):
            return [(gettext("Protests"), reverse("discipline:protest-list"))]
        if has_role(user, Role.TEAM_MANAGER):
            return [
                (gettext("Protests"), reverse("discipline:my-protests")),
                (gettext("Suspensions"), reverse("discipline:suspensions")),
            ]
        return []

    return {"nav_discipline": links}
