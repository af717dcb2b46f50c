"""The tournaments app's answers to the accounts app's invitation hooks (``accounts.hooks``; issue 25).

An invitation to a team entry makes its invitee one of the entry's managers (the team manager role of the entry's
federation comes with the invitation); a revoked team role takes the login off the entries of that federation.
"""

from __future__ import annotations

from accounts.models import Role, RoleAssignment
from tournaments.models import TeamEntry


def team_entry_label(entry_id: int) -> str | None:
    entry = TeamEntry.objects.select_related("championship").filter(pk=entry_id).first()
    return None if entry is None else f"{entry.name}, {entry.championship.name}"


def team_entry_accept(entry_id: int, user, by) -> None:
    entry = TeamEntry.objects.filter(pk=entry_id).first()
    if entry is None:
        return
    entry._history_user = by
    entry.managers.add(user)


def role_revoked(user, role: str, federation_id: int | None, by) -> None:
    """A login that lost its team manager role of a federation no longer manages that federation's entries."""
    if role != Role.TEAM_MANAGER:
        return
    still = set(
        RoleAssignment.objects.filter(user=user, role=Role.TEAM_MANAGER).values_list("federation_id", flat=True)
    )
    if None in still:
        return  # an unscoped team manager role is left: the entries stay his
    for entry in TeamEntry.objects.filter(managers=user).exclude(federation_id__in=still):
        if federation_id is None or entry.federation_id == federation_id:
            entry._history_user = by
            entry.managers.remove(user)
