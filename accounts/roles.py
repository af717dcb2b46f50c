"""The role predicates: which roles a login holds, and the federations whose staff it is.

The ground of every app's access rules (``federation.access``, ``tournaments``, ``games.access``,
``discipline.access``, ``reports``): questions about the login and its role assignments only, never about another
app's records. Read once per user object (one query per request).
"""

from __future__ import annotations

from dataclasses import dataclass

from .models import Role, RoleAssignment

# The levels whose staff see every federation (``federation.models.FederationLevel``: international, continental;
# tests/accounts/test_roles.py checks the two agree). accounts sits below federation and does not import it.
_INTERNATIONAL_LEVELS = {"international", "continental"}


@dataclass(frozen=True)
class _Assignment:
    role: str
    federation_id: int | None
    federation_level: str | None


def _assignments(user) -> tuple[_Assignment, ...]:
    """Return the user's role assignments, read once per user object (one query per request)."""
    if not getattr(user, "is_authenticated", False):
        return ()
    cached = getattr(user, "_portal_assignments", None)
    if cached is None:
        cached = tuple(
            _Assignment(role, federation_id, level)
            for role, federation_id, level in RoleAssignment.objects.filter(user=user).values_list(
                "role", "federation_id", "federation__level"
            )
        )
        user._portal_assignments = cached
    return cached


def forget_roles(user) -> None:
    """Drop the roles cached on a user object (after its role assignments changed)."""
    for attr in ("_portal_assignments", "_portal_manages_entries"):
        if hasattr(user, attr):
            delattr(user, attr)


def roles_of(user) -> set[str]:
    """Return the roles a user holds."""
    return {a.role for a in _assignments(user)}


def has_role(user, role: str) -> bool:
    return role in roles_of(user)


def is_superuser(user) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.is_active and user.is_superuser)


def can_manage_federations(user) -> bool:
    """Superusers and IHTC executives keep the federation registry (affiliation, good standing, 1.1 A)."""
    return is_superuser(user) or has_role(user, Role.IHTC_EXECUTIVE)


def can_manage_accounts(user) -> bool:
    """Superusers and IHTC executives create logins and assign roles."""
    return is_superuser(user) or has_role(user, Role.IHTC_EXECUTIVE)


def oversees_documents(user) -> bool:
    """Superusers and IHTC executives see every stored document's render (the documents' admin); each document is
    read on its own page, under its kind's access check (``reports.services``)."""
    return is_superuser(user) or has_role(user, Role.IHTC_EXECUTIVE)


def is_international_staff(user) -> bool:
    """IHTC executives, superusers and staff of a non-national federation see every federation."""
    if can_manage_federations(user):
        return True
    return any(
        a.role == Role.FEDERATION_STAFF and a.federation_level in _INTERNATIONAL_LEVELS for a in _assignments(user)
    )


def staff_federation_ids(user) -> set[int]:
    """Return the ids of the federations whose staff the user is."""
    return {a.federation_id for a in _assignments(user) if a.role == Role.FEDERATION_STAFF and a.federation_id}


def is_federation_staff(user) -> bool:
    """Staff of at least one federation, or international staff."""
    return is_international_staff(user) or bool(staff_federation_ids(user))


def manages_entries(user) -> bool:
    """Whether the user is a team manager named on at least one entry (read once per user object)."""
    if not has_role(user, Role.TEAM_MANAGER):
        return False
    cached = getattr(user, "_portal_manages_entries", None)
    if cached is None:
        cached = user.managed_entries.exists()
        user._portal_manages_entries = cached
    return cached
