"""The access layer: who may see and change what.

Every view, API endpoint and admin page that touches a protected object goes
through these functions instead of ``Model.objects.get``. ``access_*``
functions gate one object (404 when the user may not even know it exists,
403 when they may see but not change it); ``*_visible_to`` selectors scope a
queryset.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404

from federation.models import Federation, FederationLevel, Passport, Person

from .models import Role, RoleAssignment


def roles_of(user) -> set[str]:
    """Return the roles a user holds (cached on the user object for the request)."""
    if not getattr(user, "is_authenticated", False):
        return set()
    cached = getattr(user, "_portal_roles", None)
    if cached is None:
        cached = set(RoleAssignment.objects.filter(user=user).values_list("role", flat=True))
        user._portal_roles = cached
    return cached


def has_role(user, role: str) -> bool:
    return role in roles_of(user)


def is_international_staff(user) -> bool:
    """IHTC executives, superusers and staff of a non-national federation see every federation."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser or has_role(user, Role.IHTC_EXECUTIVE):
        return True
    return RoleAssignment.objects.filter(
        user=user,
        role=Role.FEDERATION_STAFF,
        federation__level__in=[FederationLevel.INTERNATIONAL, FederationLevel.CONTINENTAL],
    ).exists()


def staff_federation_ids(user) -> set[int]:
    """Return the ids of the federations whose staff the user is."""
    if not getattr(user, "is_authenticated", False):
        return set()
    return set(
        RoleAssignment.objects.filter(user=user, role=Role.FEDERATION_STAFF).values_list("federation_id", flat=True)
    )


def federations_visible_to(user) -> QuerySet[Federation]:
    """Federations a user may read. The registry itself is public information
    for logged-in users; editing is narrower (see ``can_edit_federation``)."""
    if not getattr(user, "is_authenticated", False):
        return Federation.objects.none()
    return Federation.objects.all()


def can_edit_federation(user, federation: Federation) -> bool:
    if is_international_staff(user):
        return True
    return federation.pk in staff_federation_ids(user)


def people_visible_to(user) -> QuerySet[Person]:
    """People a user may see: all for international staff, their federation's for national staff.

    Discipline committee members and game officials see every person (they
    need names across federations) but not passports: see ``passports_visible_to``.
    """
    if is_international_staff(user):
        return Person.objects.all()
    roles = roles_of(user)
    if Role.DISCIPLINE_COMMITTEE in roles or Role.GAME_OFFICIAL in roles:
        return Person.objects.all()
    ids = staff_federation_ids(user)
    if ids:
        return Person.objects.filter(federation_id__in=ids)
    return Person.objects.none()


def passports_visible_to(user) -> QuerySet[Passport]:
    """Passports (and their scans): international staff, or staff of the holder's federation."""
    if is_international_staff(user):
        return Passport.objects.all()
    ids = staff_federation_ids(user)
    if ids:
        return Passport.objects.filter(person__federation_id__in=ids)
    return Passport.objects.none()


def can_edit_person(user, person: Person) -> bool:
    if is_international_staff(user):
        return True
    return person.federation_id in staff_federation_ids(user)


def access_person(user, person_id, *, for_edit: bool = False) -> Person:
    """Return the person if the user may see it (404 otherwise) and, with
    ``for_edit``, change it (403 otherwise)."""
    try:
        person = people_visible_to(user).get(pk=person_id)
    except (Person.DoesNotExist, ValueError, TypeError):
        raise Http404("No such person.") from None
    if for_edit and not can_edit_person(user, person):
        raise PermissionDenied("Only staff of the person's federation or international staff may change it.")
    return person


def access_passport(user, passport_id) -> Passport:
    """Return the passport if the user may see it and its scan; 404 otherwise."""
    try:
        return passports_visible_to(user).select_related("person").get(pk=passport_id)
    except (Passport.DoesNotExist, ValueError, TypeError):
        raise Http404("No such passport.") from None


def people_editable_q(user) -> Q:
    """A Q object selecting the people the user may edit (for admin querysets)."""
    if is_international_staff(user):
        return Q()
    return Q(federation_id__in=staff_federation_ids(user))
