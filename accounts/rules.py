"""Object permissions of the federation register, for ``user.has_perm``.

``rules`` autodiscovers this module. Each permission is a thin predicate over
the access layer (``accounts.access``), so the API, the pages and the admin
(``rules.contrib.admin.ObjectPermissionsModelAdmin``) ask the same question
and get the same answer. Called without an object, a permission answers
"may the user do this to some object of that kind" (list pages, add forms).
"""

from __future__ import annotations

import rules

from . import access


@rules.predicate
def is_superuser(user):
    return access.is_superuser(user)


@rules.predicate
def manages_federations(user):
    return access.can_manage_federations(user)


@rules.predicate
def is_federation_staff(user):
    return access.is_federation_staff(user)


@rules.predicate
def can_view_person(user, person=None):
    if person is None:
        return access.can_see_people(user)
    return access.can_view_person(user, person)


@rules.predicate
def can_edit_person(user, person=None):
    if person is None:
        return access.is_federation_staff(user)
    return access.can_edit_person(user, person)


@rules.predicate
def can_view_passport(user, passport=None):
    if passport is None:
        return access.is_federation_staff(user)
    return access.can_view_passport(user, passport)


@rules.predicate
def can_edit_passport(user, passport=None):
    if passport is None:
        return access.is_federation_staff(user)
    return access.can_edit_passport(user, passport)


@rules.predicate
def is_authenticated(user):
    return bool(getattr(user, "is_authenticated", False))


# The app itself (admin index, module pages): anyone who may see part of it.
rules.add_perm("federation", is_authenticated & (can_view_person | is_federation_staff | manages_federations))

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

# Passports and their scans: staff of the holder's federation and international staff only.
rules.add_perm("federation.view_passport", can_view_passport)
rules.add_perm("federation.view_passport_scan", can_view_passport)
rules.add_perm("federation.add_passport", is_federation_staff)
rules.add_perm("federation.change_passport", can_edit_passport)
rules.add_perm("federation.delete_passport", can_edit_passport)
