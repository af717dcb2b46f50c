"""Object permissions of the federation register, for ``user.has_perm``.

``rules`` autodiscovers this module. Each permission is a thin predicate over
the access layer (``accounts.access``), so the API, the pages and the admin
(``rules.contrib.admin.ObjectPermissionsModelAdmin``) ask the same question
and get the same answer. Called without an object, a permission answers
"may the user do this to some object of that kind" (list pages, add forms).
"""

from __future__ import annotations

import rules
from django.utils.module_loading import import_string

from accounts import roles
from federation import access


@rules.predicate
def is_superuser(user):
    return roles.is_superuser(user)


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


@rules.predicate
def is_authenticated(user):
    return bool(getattr(user, "is_authenticated", False))


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


# --- Accounts: logins and their roles are kept by IHTC executives (and superusers) ---------------


@rules.predicate
def manages_accounts(user):
    return roles.can_manage_accounts(user)


rules.add_perm("accounts", manages_accounts)
for _model in ("user", "roleassignment"):
    for _action in ("view", "add", "change", "delete"):
        rules.add_perm(f"accounts.{_action}_{_model}", manages_accounts)


# --- The admin of the other apps: superusers only ---------------------------------------------
# portal.admin.AccessAdmin asks these for every admin page. Championships are directed through their pages and the API (tournaments.services checks the
# directors and managers); their admin pages, and the worker heartbeats, are the superuser's.
SUPERUSER_ADMIN_MODELS = {
    "tournaments": (
        "venue",
        "rink",
        "championship",
        "teamentry",
        "rosterentry",
        "teamofficial",
        "numberchangeapproval",
        "pool",
        "poolteam",
        "phase",
        "game",
        "goalrecord",
        "penaltyrecord",
        "goalkeeperrecord",
        "disqualification",
        "resultamendment",
        "standingsshootout",
        "standingsshootoutplace",
    ),
    "portal": ("workerheartbeat",),
    # Roles are RoleAssignments; Django's groups are not used. Login attempts (django-axes) are the superuser's.
    "auth": ("group",),
    "axes": ("accessattempt", "accesslog", "accessfailurelog"),
}
for _app, _models in SUPERUSER_ADMIN_MODELS.items():
    rules.add_perm(_app, is_superuser)
    for _model in _models:
        for _action in ("view", "add", "change", "delete"):
            rules.add_perm(f"{_app}.{_action}_{_model}", is_superuser)


# --- Games: officials and line-ups (games.services.access holds the questions) ---------------------------------


def _games_access():
    # Imported when asked: the games app's access helpers import the tournaments services.
    from games import access as games_access

    return games_access


@rules.predicate
def directs_championships(user):
    """International staff direct any championship; national staff those their federation sanctions."""
    return roles.is_international_staff(user) or _games_access().directed_championships(user).exists()


@rules.predicate
def officiates_games(user):
    return _games_access().official_person_id(user) is not None


@rules.predicate
def can_view_game_assignment(user, assignment=None):
    if assignment is None:
        return directs_championships(user) or officiates_games(user)
    return _games_access().can_view_assignment(user, assignment)


@rules.predicate
def can_assign_game_officials(user, assignment=None):
    if assignment is None:
        return directs_championships(user)
    return _games_access().can_direct_game(user, assignment.game)


@rules.predicate
def can_view_game_lineup(user, lineup=None):
    if lineup is None:
        # Federation staff see their own teams' line-ups (the admin's list is scoped to what each may read).
        return directs_championships(user) or roles.is_federation_staff(user)
    return _games_access().can_view_lineup(user, lineup)


@rules.predicate
def can_view_protest_mark(user, mark=None):
    """9.1 B: the marks of the games a director directs (the lead referees record theirs through the API)."""
    if mark is None:
        return directs_championships(user)
    return _games_access().can_view_protest_mark(user, mark)


# The admin shows assignments and line-ups to the championships' directors; assignments are made and withdrawn
# through games.services (4.2 A, R-08), never edited in place; line-ups are the teams' (5.1 A), read here.
rules.add_perm("games", is_authenticated & (directs_championships | is_federation_staff | manages_accounts))
rules.add_perm("games.view_gameofficial", can_view_game_assignment)
rules.add_perm("games.add_gameofficial", can_assign_game_officials)
rules.add_perm("games.delete_gameofficial", can_assign_game_officials)
rules.add_perm("games.view_lineup", can_view_game_lineup)
rules.add_perm("games.view_gameprotestmark", can_view_protest_mark)
rules.add_perm("games.add_gameprotestmark", directs_championships)
rules.add_perm("games.view_officialaccount", manages_accounts)
rules.add_perm("games.add_officialaccount", manages_accounts)
rules.add_perm("games.delete_officialaccount", manages_accounts)


# --- The live game sheet (issue 9): entered by the game's officials and the staff who direct it ----------------


@rules.predicate
def can_enter_game_events(user, game=None):
    """The game's officials and its championship's directors enter its events (accounts.access)."""
    if game is None:
        return roles.is_federation_staff(user)
    return access.can_enter_game_events(user, game)


rules.add_perm("games.enter_game_events", can_enter_game_events)
# The sheet's admin pages are a read-only view of the log for superusers; entries go through games.sheet.
SHEET_ADMIN_MODELS = ("gamesheet", "sheetevent", "sheetsnapshot", "consolesignin")
for _model in SHEET_ADMIN_MODELS:
    rules.add_perm(f"games.view_{_model}", is_superuser)


# --- Discipline (9.1, 9.2 A, R-50 to R-54): discipline.access, discipline.suspensions and discipline.appeals decide --
# The admin reads these records; every change goes through the services (discipline.protests, cases, suspensions,
# appeals), so only view permissions are given. CONFIDENTIAL reports (4.2 P, 6.4.29) and their attachments: their
# audience only (the committee, the executive, the author).


def _discipline_predicate(name: str, *, of_kind: str, visible_to: str, through: str | None = None):
    """A predicate asking ``of_kind(user)`` without an object (list pages) and, with one, whether the queryset
    ``visible_to(user)`` holds it, or holds the record it belongs to (the foreign key ``through``). Both are dotted
    paths of the discipline app's access functions, imported when asked (they import the discipline models)."""

    def predicate(user, obj=None):
        if obj is None:
            return import_string(of_kind)(user)
        pk = getattr(obj, f"{through}_id") if through else obj.pk
        return import_string(visible_to)(user).filter(pk=pk).exists()

    return rules.predicate(predicate, name=name)


@rules.predicate
def is_discipline_committee(user):
    return import_string("discipline.access.is_committee")(user)


_PROTESTS = {"of_kind": "discipline.access.can_see_protests", "visible_to": "discipline.access.protests_visible_to"}
_SUSPENSIONS = {
    "of_kind": "discipline.suspensions.sees_suspensions",
    "visible_to": "discipline.suspensions.suspensions_visible_to",
}
can_view_protest = _discipline_predicate("can_view_protest", **_PROTESTS)
can_view_protest_record = _discipline_predicate("can_view_protest_record", **_PROTESTS, through="protest")
can_view_confidential_report = _discipline_predicate(
    "can_view_confidential_report",
    of_kind="discipline.access.reads_confidential_reports",
    visible_to="discipline.access.confidential_reports_visible_to",
)
can_view_discipline_attachment = _discipline_predicate(
    "can_view_discipline_attachment",
    of_kind="discipline.access.reads_confidential_reports",
    visible_to="discipline.access.attachments_visible_to",
)
can_view_suspension = _discipline_predicate("can_view_suspension", **_SUSPENSIONS)
can_view_served_game = _discipline_predicate("can_view_served_game", **_SUSPENSIONS, through="suspension")
can_view_appeal = _discipline_predicate(
    "can_view_appeal", of_kind="discipline.appeals.sees_appeals", visible_to="discipline.appeals.appeals_visible_to"
)

DISCIPLINE_VIEW_PERMISSIONS = {
    # Protests (9.1): as discipline.access.protests_visible_to; their logs and files with them.
    "protest": can_view_protest,
    "protesttransition": can_view_protest_record,
    "protestattachment": can_view_protest_record,
    "deadline": can_view_protest_record,
    # The committee's records.
    "gameconsequence": is_discipline_committee,
    "incidentreport": is_discipline_committee,
    "case": is_discipline_committee,
    "casetransition": is_discipline_committee,
    "casestatement": is_discipline_committee,
    "decision": is_discipline_committee,
    # CONFIDENTIAL (4.2 P, 6.4.29): the committee, the executive, the author.
    "confidentialreport": can_view_confidential_report,
    "attachment": can_view_discipline_attachment,
    # Suspensions (8.2): as discipline.suspensions.suspensions_visible_to.
    "suspension": can_view_suspension,
    "servedgame": can_view_served_game,
    # Appeals (9.2 A, R-54): as discipline.appeals.appeals_visible_to.
    "appeal": can_view_appeal,
}
# The app itself (admin index): anyone who may see some of its records.
rules.add_perm(
    "discipline",
    is_authenticated
    & (
        is_discipline_committee
        | can_view_protest
        | can_view_confidential_report
        | can_view_suspension
        | can_view_appeal
    ),
)
for _model, _predicate in DISCIPLINE_VIEW_PERMISSIONS.items():
    rules.add_perm(f"discipline.view_{_model}", _predicate)


# --- Documents (reports, issue 11): the render queue's admin, for superusers and the IHTC executive ----------------
# Read only: a document is made by its kind's data and read on its page (the kind's access check); the admin lists
# the renders and queues failed ones again (reports.admin re-asks the kind's retry rule for each).


@rules.predicate
def oversees_documents(user):
    return roles.oversees_documents(user)


rules.add_perm("reports", oversees_documents)
rules.add_perm("reports.view_document", oversees_documents)
