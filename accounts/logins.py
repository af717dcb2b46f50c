"""The logins of the teams' people (issue 25): federation staff see the logins holding a team role of their
federation, international staff those of every federation, and either may revoke such a role.

A revoked role takes effect at once (``end_access``): every open session of the login ends on its next request
and each of its API tokens is revoked.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils.translation import gettext

from portal.services import audited_delete

from . import roles
from .hooks import role_revoked
from .models import Role, RoleAssignment, User, revoke_api_tokens

# The team roles whose logins federation staff keep (a team's manager and officials hold the team manager role).
TEAM_ROLES = [Role.TEAM_MANAGER]


def visible_assignments(user, query: str = "") -> QuerySet[RoleAssignment]:
    """The team role assignments ``user`` may see and revoke, searched by username, name or e-mail."""
    assignments = RoleAssignment.objects.filter(role__in=TEAM_ROLES).select_related("user", "federation")
    if not roles.is_international_staff(user):
        assignments = assignments.filter(federation_id__in=roles.staff_federation_ids(user))
    query = query.strip()
    if query:
        assignments = assignments.filter(
            Q(user__username__icontains=query)
            | Q(user__first_name__icontains=query)
            | Q(user__last_name__icontains=query)
            | Q(user__email__icontains=query)
        )
    return assignments.order_by("federation__name", "user__last_name", "user__username")


def may_revoke(user, assignment: RoleAssignment) -> bool:
    if assignment.role not in TEAM_ROLES:
        return roles.can_manage_accounts(user)
    return roles.is_international_staff(user) or assignment.federation_id in roles.staff_federation_ids(user)


def end_access(user: User) -> int:
    """End every open session of ``user`` (each is logged out on its next request) and revoke each of its API
    tokens; return how many tokens were revoked."""
    User.objects.filter(pk=user.pk).update(session_generation=F("session_generation") + 1)
    user.refresh_from_db(fields=["session_generation"])
    return revoke_api_tokens(user)


def revoke_role(assignment: RoleAssignment, *, by: User) -> int:
    """Take ``assignment``'s role away (and what it gave in the other apps), ending the login's sessions and
    tokens at once; return how many tokens were revoked."""
    if not may_revoke(by, assignment):
        raise PermissionDenied(gettext("Only staff of the role's federation or international staff revoke it."))
    target = assignment.user
    with transaction.atomic():
        role, federation_id = assignment.role, assignment.federation_id
        audited_delete(assignment, by)
        role_revoked(target, role, federation_id, by)
        revoked = end_access(target)
    roles.forget_roles(target)
    return revoked
