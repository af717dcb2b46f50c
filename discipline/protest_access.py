"""Who may see and do what with protests (9.1): the access layer's questions for the discipline module.

Built on ``accounts.access`` (roles, federation staff scopes). Pages, API and admin ask these; the services of
``discipline.protests`` ask them again with the acting user.

- team managers: file for an entry they manage; see the protests of the games their entries play (filed by or
  against them); withdraw their own team's; answer one filed against their team;
- the fee: recorded by staff of the championship's sanctioning body, international staff, IHTC executives;
- the review and the decision: discipline committee members and IHTC executives (9.1 A: "the IHTC will then
  investigate");
- everybody else (game officials, other teams, anonymous): nothing.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404

from accounts import access
from accounts.models import Role

from .models import Protest


def _active(user) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.is_active)


def decides_protests(user) -> bool:
    """Discipline committee members, IHTC executives and superusers review and decide protests."""
    return _active(user) and (
        access.is_superuser(user)
        or access.has_role(user, Role.DISCIPLINE_COMMITTEE)
        or access.has_role(user, Role.IHTC_EXECUTIVE)
    )


def keeps_protest_fees(user, championship=None) -> bool:
    """Staff of the championship's sanctioning body, international staff and IHTC executives record fees.

    Without a championship: whether the user keeps the fees of some championship (list pages)."""
    if not _active(user):
        return False
    if access.is_international_staff(user):
        return True
    if championship is None:
        return access.is_federation_staff(user)
    return championship.sanctioning_body_id in access.staff_federation_ids(user)


def manages_entry(user, entry) -> bool:
    """A team manager named on the entry (``TeamEntry.managers``)."""
    if not _active(user) or entry is None or not access.has_role(user, Role.TEAM_MANAGER):
        return False
    return entry.managers.filter(pk=user.pk).exists()


def protests_visible_to(user) -> QuerySet[Protest]:
    """Protests a user may read: all for deciders and international staff; the sanctioning body's for its staff;
    the games of their entries for team managers."""
    if not _active(user):
        return Protest.objects.none()
    if decides_protests(user) or access.is_international_staff(user):
        return Protest.objects.all()
    q = Q(pk__in=[])
    ids = access.staff_federation_ids(user)
    if ids:
        q |= Q(game__championship__sanctioning_body_id__in=ids)
    if access.manages_entries(user):
        managed = user.managed_entries.values("pk")
        q |= Q(entry__in=managed) | Q(game__home__in=managed) | Q(game__away__in=managed)
    return Protest.objects.filter(q)


def can_see_protests(user) -> bool:
    """Whether the protest list is open to the user at all."""
    return decides_protests(user) or keeps_protest_fees(user) or access.manages_entries(user)


def access_protest(user, protest_id) -> Protest:
    """Return the protest if the user may see it (404 otherwise: not even its existence is told)."""
    try:
        return (
            protests_visible_to(user)
            .select_related(
                "game__championship__venue", "game__home", "game__away", "entry", "filed_by", "protest_mark"
            )
            .get(pk=protest_id)
        )
    except (Protest.DoesNotExist, ValueError, TypeError):
        raise Http404("No such protest.") from None


def require(allowed: bool, message: str) -> None:
    if not allowed:
        raise PermissionDenied(message)
