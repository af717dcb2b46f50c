"""Object permissions of the federation register (``rules`` autodiscovers this module): predicates over
``federation.access``; see ``federation/rules.py``."""

from __future__ import annotations

import rules

from accounts import roles
from accounts.rules import is_authenticated, is_superuser
from federation import access


@rules.predicate
def manages_federations(user):
    return roles.can_manage_federations(user)


@rules.predicate
def is_federation_staff(user):
    return roles.is_federation_staff(user)


def _object_predicate(name: str, *, of_kind, of_object, of_record: bool = False):
    """A predicate asking ``of_kind(user)`` without an object (list pages, add forms) and
    ``of_object(user, obj)`` with one; ``of_record``: the object is a record of a person
    (a waiver, an inspection, a device request) and ``of_object`` is asked about that person."""

    def predicate(user, obj=None):
        if obj is None:
            return of_kind(user)
        return of_object(user, obj.person if of_record else obj)

    return rules.predicate(predicate, name=name)


can_view_person = _object_predicate("can_view_person", of_kind=access.can_see_people, of_object=access.can_view_person)
can_edit_person = _object_predicate(
    "can_edit_person", of_kind=roles.is_federation_staff, of_object=access.can_edit_person
)
# Passports, eligibility, waivers and medical requests of a person.
sees_persons_confidential = _object_predicate(
    "sees_persons_confidential", of_kind=roles.is_federation_staff, of_object=access.can_see_confidential
)
can_view_passport = _object_predicate(
    "can_view_passport", of_kind=roles.is_federation_staff, of_object=access.can_view_passport
)
can_edit_passport = _object_predicate(
    "can_edit_passport", of_kind=roles.is_federation_staff, of_object=access.can_edit_passport
)
# Waivers and device requests: the audience of the holder's passports.
sees_persons_confidential_records = _object_predicate(
    "sees_persons_confidential_records",
    of_kind=roles.is_federation_staff,
    of_object=access.can_see_confidential,
    of_record=True,
)
can_edit_records_person = _object_predicate(
    "can_edit_records_person", of_kind=roles.is_federation_staff, of_object=access.can_edit_person, of_record=True
)
can_view_records_person = _object_predicate(
    "can_view_records_person", of_kind=access.can_see_people, of_object=access.can_view_person, of_record=True
)


@rules.predicate
def is_international_staff(user):
    return roles.is_international_staff(user)


@rules.predicate
def can_record_inspection(user, inspection=None):
    return access.can_record_inspection(user, inspection.person if inspection is not None else None)


# The app itself (admin index, module pages): anyone who may see part of it.
rules.add_perm(
    "federation",
    is_authenticated & (can_view_person | is_federation_staff | manages_federations | can_record_inspection),
)

# The registry of federations: readable by every logged-in user, kept by IHTC executives.
rules.add_perm("federation.view_federation", is_authenticated)
rules.add_perm("federation.add_federation", manages_federations)
rules.add_perm("federation.change_federation", manages_federations)
rules.add_perm("federation.delete_federation", is_superuser)

# People: scoped to the federations a user works for.
rules.add_perm("federation.view_person", can_view_person)
rules.add_perm("federation.add_person", is_federation_staff)
rules.add_perm("federation.change_person", can_edit_person)
rules.add_perm("federation.delete_person", can_edit_person)
rules.add_perm("federation.view_person_eligibility", sees_persons_confidential)

# Passports and their scans: staff of the holder's federation and international staff only.
rules.add_perm("federation.view_passport", can_view_passport)
rules.add_perm("federation.view_passport_scan", can_view_passport)
rules.add_perm("federation.add_passport", is_federation_staff)
rules.add_perm("federation.change_passport", can_edit_passport)
rules.add_perm("federation.delete_passport", can_edit_passport)

# Eligibility waivers: seen like passports, granted by the IHTC only.
rules.add_perm("federation.view_eligibilitywaiver", sees_persons_confidential_records)
rules.add_perm("federation.add_eligibilitywaiver", is_international_staff)
rules.add_perm("federation.change_eligibilitywaiver", is_international_staff)
rules.add_perm("federation.delete_eligibilitywaiver", is_international_staff)

# Equipment approval registry (3.2.6 A): public to logged-in users; staff register
# models, approval itself is checked by federation.services (international staff).
rules.add_perm("federation.view_equipmentmodel", is_authenticated)
rules.add_perm("federation.add_equipmentmodel", is_federation_staff)
rules.add_perm("federation.change_equipmentmodel", is_federation_staff)
rules.add_perm("federation.delete_equipmentmodel", is_international_staff)

# Equipment inspections (3.2.2, 3.2.5): seen with the person, recorded by their staff and game officials.
rules.add_perm("federation.view_equipmentinspection", can_view_records_person)
rules.add_perm("federation.add_equipmentinspection", can_record_inspection)
rules.add_perm("federation.change_equipmentinspection", can_edit_records_person)
rules.add_perm("federation.delete_equipmentinspection", can_edit_records_person)

# Protective device requests (3.2.8 C): medical, seen like passports; the IHTC decides.
rules.add_perm("federation.view_protectivedevicerequest", sees_persons_confidential_records)
rules.add_perm("federation.add_protectivedevicerequest", is_federation_staff)
rules.add_perm("federation.change_protectivedevicerequest", can_edit_records_person)
rules.add_perm("federation.decide_protectivedevicerequest", is_international_staff)
rules.add_perm("federation.delete_protectivedevicerequest", is_superuser)
