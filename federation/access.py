"""The access layer: who may see and change what.

Every view, API endpoint and admin page that touches a protected object goes
through these functions instead of ``Model.objects.get``. ``access_*``
functions gate one object (404 when the user may not even know it exists,
403 when they may see but not change it); ``*_visible_to`` selectors scope a
queryset; ``can_*`` answer a yes/no question about one object and are the
predicates behind the object permissions of ``federation/rules.py``.

Who sees what:

- superusers and IHTC executives: everything, and they alone keep the
  federation registry (create and change federations);
- staff of an international or continental federation ("international
  staff"): every federation's people and passports;
- staff of a national federation: their federation's people and passports;
- discipline committee members and game officials: every person's name and
  data (they need them across federations), never passports or scans;
- team managers: least privilege, the people of the entries they manage
  (the players on those rosters and the team officials), read only, never
  passports or scans; the roster form offers them the candidates of the
  entry's federation itself. Removed from an entry, they no longer see its
  people.

A person's confidential records (passports and scans, eligibility waivers,
protective device requests and prescriptions) have the audience of passports:
staff of the person's federation and international staff.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext

from accounts.models import Role
from accounts.roles import (
    can_manage_federations,
    has_role,
    is_federation_staff,
    is_international_staff,
    manages_entries,
    roles_of,
    staff_federation_ids,
)
from federation.models import (
    EligibilityWaiver,
    EquipmentInspection,
    EquipmentModel,
    Federation,
    FederationLevel,
    Passport,
    Person,
    ProtectiveDeviceRequest,
    WaiverRequest,
)

# Roles that see every person (but no passport) without being federation staff.
_PEOPLE_READERS = {Role.DISCIPLINE_COMMITTEE, Role.GAME_OFFICIAL}


def can_see_people(user) -> bool:
    """Whether the user may see any person at all (the people list is open to them)."""
    return is_federation_staff(user) or bool(roles_of(user) & _PEOPLE_READERS) or manages_entries(user)


# --- Federations --------------------------------------------------------------


def federations_visible_to(user) -> QuerySet[Federation]:
    """Federations a user may read. The registry itself is public information
    for logged-in users; editing is narrower (see ``can_manage_federations``)."""
    if not getattr(user, "is_authenticated", False):
        return Federation.objects.none()
    return Federation.objects.all()


def can_edit_federation(user, federation: Federation) -> bool:
    """Whether the user may act for ``federation``: register its people and their passports."""
    if is_international_staff(user):
        return True
    return federation.pk in staff_federation_ids(user)


def federations_registering_for(user) -> QuerySet[Federation]:
    """The federations whose people the user registers (``can_edit_federation``): all for international staff,
    their own for national staff, none for others."""
    if is_international_staff(user):
        return Federation.objects.all()
    return Federation.objects.filter(pk__in=staff_federation_ids(user))


def access_federation(user, federation_id, *, for_edit: bool = False) -> Federation:
    """Return the federation if the user may see it (404 otherwise) and, with
    ``for_edit``, change its registry entry (403 otherwise)."""
    try:
        federation = federations_visible_to(user).get(pk=federation_id)
    except (Federation.DoesNotExist, ValueError, TypeError):
        raise Http404(gettext("No such federation.")) from None
    if for_edit and not can_manage_federations(user):
        raise PermissionDenied(gettext("Only IHTC executives may change the federation registry."))
    return federation


# --- People -------------------------------------------------------------------


def _managed_people_q(user) -> Q:
    """The people of the entries ``user`` manages: their rosters' players and their team officials."""
    return Q(roster_entries__entry__managers=user) | Q(team_official_roles__entry__managers=user)


def people_visible_to(user) -> QuerySet[Person]:
    """People a user may see: all for international staff, their federation's for national staff.

    Discipline committee members and game officials see every person (they
    need names across federations) but not passports: see ``passports_visible_to``.
    Team managers see the people of the entries they manage, nobody else.
    """
    if not getattr(user, "is_authenticated", False):
        return Person.objects.none()
    if is_international_staff(user) or roles_of(user) & _PEOPLE_READERS:
        return Person.objects.all()
    q = Q(pk__in=[])
    ids = staff_federation_ids(user)
    if ids:
        q |= Q(federation_id__in=ids)
    if manages_entries(user):
        q |= Q(pk__in=Person.objects.filter(_managed_people_q(user)).values("pk"))
    return Person.objects.filter(q)


def can_view_person(user, person: Person) -> bool:
    """The object form of ``people_visible_to``."""
    if not getattr(user, "is_authenticated", False):
        return False
    if is_international_staff(user) or roles_of(user) & _PEOPLE_READERS:
        return True
    if person.federation_id in staff_federation_ids(user):
        return True
    return manages_entries(user) and Person.objects.filter(_managed_people_q(user), pk=person.pk).exists()


def can_edit_person(user, person: Person) -> bool:
    if is_international_staff(user):
        return True
    return person.federation_id in staff_federation_ids(user)


def can_merge_people(user) -> bool:
    """Two records of one person are merged by international staff: they alone see every federation's people, and a
    merge may join records kept by two federations."""
    return is_international_staff(user)


def possible_duplicates(user, *, first_name: str, last_name: str, date_of_birth, exclude_pk=None) -> QuerySet[Person]:
    """The people ``user`` may see with this name (any case, surrounding spaces ignored) and date of birth: the
    records a new registration or an edit would repeat."""
    people = people_visible_to(user).filter(
        first_name__iexact=str(first_name or "").strip(),
        last_name__iexact=str(last_name or "").strip(),
        date_of_birth=date_of_birth,
    )
    if exclude_pk is not None:
        people = people.exclude(pk=exclude_pk)
    return people.select_related("federation").order_by("pk")


def people_editable_q(user) -> Q:
    """A Q object selecting the people the user may edit (for admin querysets)."""
    if is_international_staff(user):
        return Q()
    return Q(federation_id__in=staff_federation_ids(user))


def access_person(user, person_id, *, for_edit: bool = False) -> Person:
    """Return the person if the user may see it (404 otherwise) and, with
    ``for_edit``, change it (403 otherwise)."""
    try:
        person = people_visible_to(user).select_related("federation").get(pk=person_id)
    except (Person.DoesNotExist, ValueError, TypeError):
        raise Http404(gettext("No such person.")) from None
    if for_edit and not can_edit_person(user, person):
        raise PermissionDenied(gettext("Only staff of the person's federation or international staff may change it."))
    return person


# --- Passports ----------------------------------------------------------------


def passports_visible_to(user) -> QuerySet[Passport]:
    """Passports (and their scans): international staff, or staff of the holder's federation."""
    q = _confidential_q(user)
    return Passport.objects.filter(q) if q is not None else Passport.objects.none()


def reads_confidential_records(user) -> bool:
    """Whether the user may read some person's passports and other confidential records (the audience of
    ``passports_visible_to``): a list may be filtered, sorted or searched by those records' fields only then."""
    return _confidential_q(user) is not None


def can_view_passport(user, passport: Passport) -> bool:
    """The object form of ``passports_visible_to``: it also gates the scan."""
    if is_international_staff(user):
        return True
    return passport.person.federation_id in staff_federation_ids(user)


def can_edit_passport(user, passport: Passport) -> bool:
    """Whoever may change the holder may change the passport and its scan."""
    return can_edit_person(user, passport.person)


def access_passport(user, passport_id, *, for_edit: bool = False) -> Passport:
    """Return the passport if the user may see it and its scan (404 otherwise)
    and, with ``for_edit``, change it (403 otherwise)."""
    try:
        passport = passports_visible_to(user).select_related("person", "person__federation").get(pk=passport_id)
    except (Passport.DoesNotExist, ValueError, TypeError):
        raise Http404(gettext("No such passport.")) from None
    if for_edit and not can_edit_passport(user, passport):
        raise PermissionDenied(
            gettext("Only staff of the holder's federation or international staff may change a passport.")
        )
    return passport


def can_see_confidential(user, person: Person) -> bool:
    """Whether the user may see the person's passports, eligibility, waivers and medical requests."""
    if is_international_staff(user):
        return True
    return person.federation_id in staff_federation_ids(user)


def _confidential_q(user, prefix: str = "person__") -> Q | None:
    """Return the filter of records of people whose confidential records the user may see; None = nothing."""
    if is_international_staff(user):
        return Q()
    ids = staff_federation_ids(user)
    return Q(**{f"{prefix}federation_id__in": ids}) if ids else None


# --- Eligibility waivers (R-03) -----------------------------------------------------


def waivers_visible_to(user) -> QuerySet[EligibilityWaiver]:
    q = _confidential_q(user)
    return EligibilityWaiver.objects.filter(q) if q is not None else EligibilityWaiver.objects.none()


def access_waiver(user, waiver_id) -> EligibilityWaiver:
    try:
        return waivers_visible_to(user).select_related("person", "approved_by").get(pk=waiver_id)
    except (EligibilityWaiver.DoesNotExist, ValueError, TypeError):
        raise Http404(gettext("No such waiver.")) from None


def can_grant_waiver(user) -> bool:
    """R-03: the exception that "normally" in 1.1 B allows is the IHTC's to make."""
    return is_international_staff(user)


def can_request_waiver(user, person: Person) -> bool:
    """Staff who keep the person's record ask the IHTC for a waiver (R-03); the IHTC decides (``can_grant_waiver``)."""
    return can_edit_person(user, person)


def waiver_requests_visible_to(user) -> QuerySet[WaiverRequest]:
    """Waiver requests: the audience of the person's confidential records (the IHTC sees them all)."""
    q = _confidential_q(user)
    return WaiverRequest.objects.filter(q) if q is not None else WaiverRequest.objects.none()


def access_waiver_request(user, request_id, *, for_decision: bool = False) -> WaiverRequest:
    """Return the request if the user may see it (404 otherwise) and, with ``for_decision``, grant or refuse it
    (403 otherwise: R-03, the IHTC decides)."""
    try:
        waiver_request = (
            waiver_requests_visible_to(user)
            .select_related("person", "person__federation", "requested_by", "decided_by")
            .get(pk=request_id)
        )
    except (WaiverRequest.DoesNotExist, ValueError, TypeError):
        raise Http404(gettext("No such waiver request.")) from None
    if for_decision and not can_grant_waiver(user):
        raise PermissionDenied(gettext("R-03: only the IHTC grants or refuses eligibility waivers."))
    return waiver_request


# --- Equipment approval registry (3.2.6 A) ---------------------------------------------


def equipment_models_visible_to(user) -> QuerySet[EquipmentModel]:
    """The registry of helmets and masks is public to logged-in users: teams check their gear against it."""
    if not getattr(user, "is_authenticated", False):
        return EquipmentModel.objects.none()
    return EquipmentModel.objects.all()


def access_equipment_model(user, equipment_model_id) -> EquipmentModel:
    try:
        return equipment_models_visible_to(user).select_related("approved_by").get(pk=equipment_model_id)
    except (EquipmentModel.DoesNotExist, ValueError, TypeError):
        raise Http404(gettext("No such equipment model.")) from None


def can_approve_equipment(user) -> bool:
    """3.2.6 A approvals are the IHTC's (international staff)."""
    return is_international_staff(user)


# --- Equipment inspections (3.2.2, 3.2.5) -------------------------------------------


def inspections_visible_to(user) -> QuerySet[EquipmentInspection]:
    """Inspections of the people the user may see (officials record them at the rink)."""
    return EquipmentInspection.objects.filter(person__in=people_visible_to(user).values("pk"))


def can_record_inspection(user, person: Person | None = None) -> bool:
    """Staff who keep the person's record, and game officials (who inspect at the rink), record inspections."""
    if has_role(user, Role.GAME_OFFICIAL):
        return True
    if person is None:
        return is_federation_staff(user)
    return can_edit_person(user, person)


def access_inspection(user, inspection_id) -> EquipmentInspection:
    try:
        return inspections_visible_to(user).select_related("person", "inspected_by").get(pk=inspection_id)
    except (EquipmentInspection.DoesNotExist, ValueError, TypeError):
        raise Http404(gettext("No such inspection.")) from None


# --- Protective device requests (3.2.8 C) ---------------------------------------------


def device_requests_visible_to(user) -> QuerySet[ProtectiveDeviceRequest]:
    """Medical requests: the audience of passports (staff of the holder's federation, international staff)."""
    q = _confidential_q(user)
    return ProtectiveDeviceRequest.objects.filter(q) if q is not None else ProtectiveDeviceRequest.objects.none()


def can_decide_device_request(user) -> bool:
    """3.2.8 C: the IHTC gives (or refuses) permission to play with a prescribed device."""
    return is_international_staff(user)


def access_device_request(user, request_id, *, for_edit: bool = False) -> ProtectiveDeviceRequest:
    """Return the request if the user may see it and its prescription (404 otherwise) and, with
    ``for_edit``, resubmit it (403 otherwise)."""
    try:
        device_request = (
            device_requests_visible_to(user)
            .select_related("person", "person__federation", "submitted_by", "decided_by")
            .get(pk=request_id)
        )
    except (ProtectiveDeviceRequest.DoesNotExist, ValueError, TypeError):
        raise Http404(gettext("No such request.")) from None
    if for_edit and not can_edit_person(user, device_request.person):
        raise PermissionDenied(
            gettext("Only staff of the holder's federation or international staff may change a request.")
        )
    return device_request


# --- Venues and their rinks -------------------------------------------------------------


def can_keep_venues_in(user, country) -> bool:
    """Whether the user may set up and change venues (and their rinks) in ``country`` (an ISO 3166 code).

    International staff (IHTC executives and superusers among them) keep every
    venue; staff of a national federation keep the venues of its own country,
    where the championships it sanctions are played.
    """
    if is_international_staff(user):
        return True
    ids = staff_federation_ids(user)
    return (
        bool(ids and country)
        and Federation.objects.filter(pk__in=ids, level=FederationLevel.NATIONAL, country=country).exists()
    )


# --- The approvals queue (3.2.6 A, 3.2.8 C) -----------------------------------------------


def can_use_approvals_queue(user) -> bool:
    """Whoever decides device requests (3.2.8 C) or approves equipment models (3.2.6 A) has the approvals queue."""
    return can_decide_device_request(user) or can_approve_equipment(user)
