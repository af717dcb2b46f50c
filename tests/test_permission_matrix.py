"""The permission matrix: (role) x (protected page or endpoint, method) -> expected status.

One table, ``TARGETS``: each row names a page or endpoint, how to call it and
what every role gets. Other apps add their rows (tournaments, games,
discipline pages) to the same list, and the objects their rows need to
``OBJECTS``; ``World`` builds an object only when a row asks for it.

Expected values: an HTTP status, ``LOGIN`` (a redirect to a login page),
``ELSEWHERE`` (a redirect, not to a login page: the admin's "no such object") or
``SAVED`` (a redirect, not to a login page, after the write was stored). A row with
``stored`` (a function of the world) is a write: its value must change for ``SAVED``
and stay the same for every other answer.

Roles: anonymous, IHTC executive, international federation staff, national
staff of federation A, national staff of federation B, team manager (of A),
referee/game official, discipline committee member, superuser. Objects "of A"
belong to federation A.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from accounts.models import Role
from federation.models import DeviceRequestStatus
from tests.factories import (
    EligibilityWaiverFactory,
    EquipmentInspectionFactory,
    EquipmentModelFactory,
    FederationFactory,
    PassportFactory,
    PersonFactory,
    ProtectiveDeviceRequestFactory,
    RoleAssignmentFactory,
    SuperuserFactory,
    UserFactory,
    admin_form_data,
    federation_staff,
    international_staff,
    jpeg_upload,
    pdf_upload,
)

LOGIN = "login"
ELSEWHERE = "elsewhere"
SAVED = "saved"

ANON = "anonymous"
EXEC = "ihtc_executive"
INTL = "international_staff"
STAFF_A = "national_staff_a"
STAFF_B = "national_staff_b"
TM = "team_manager"
GO = "game_official"
DC = "discipline_committee"
SU = "superuser"
ROLES = [ANON, EXEC, INTL, STAFF_A, STAFF_B, TM, GO, DC, SU]
# Roles without the admin's is_staff flag.
NON_STAFF = [TM, GO, DC]


def expect(default, **by_role) -> dict[str, object]:
    """Return an expectation for every role: ``default`` unless named (``STAFF_A=404``...)."""
    table = dict.fromkeys(ROLES, default)
    for key, value in by_role.items():
        table[globals()[key]] = value
    return table


# --- The objects rows refer to ---------------------------------------------------------

OBJECTS: dict[str, Callable[[World], object]] = {
    "fed_a": lambda w: FederationFactory(name="Federation A"),
    "fed_b": lambda w: FederationFactory(name="Federation B"),
    "person_a": lambda w: PersonFactory(federation=w["fed_a"]),
    "passport_a": lambda w: PassportFactory(person=w["person_a"], scan=jpeg_upload(), scan_content_type="image/jpeg"),
    "waiver_a": lambda w: EligibilityWaiverFactory(person=w["person_a"]),
    "equipment_model": lambda w: EquipmentModelFactory(),
    "unapproved_model": lambda w: EquipmentModelFactory(approved=False, approved_on=None, certifications=["CSA"]),
    "inspection_a": lambda w: EquipmentInspectionFactory(person=w["person_a"]),
    "device_request_a": lambda w: ProtectiveDeviceRequestFactory(person=w["person_a"]),
    "rejected_request_a": lambda w: ProtectiveDeviceRequestFactory(
        person=w["person_a"], status=DeviceRequestStatus.REJECTED, decision_reason="Metal parts"
    ),
}


def _tournament_objects() -> dict[str, Callable[[World], object]]:
    """Championship objects: sanctioned by an international body; A's entry is managed by A's team managers."""
    from accounts.models import User as _User
    from tests.factories import ChampionshipFactory, GameFactory, PoolFactory, RosterEntryFactory, TeamEntryFactory
    from tournaments.models import GoalRecord, PenaltyRecord

    def entry_a(w):
        entry = TeamEntryFactory(championship=w["championship"], federation=w["fed_a"])
        managers = _User.objects.filter(
            role_assignments__role=Role.TEAM_MANAGER, role_assignments__federation=w["fed_a"]
        )
        entry.managers.set(managers)
        return entry

    return {
        "championship": lambda w: ChampionshipFactory(),
        "entry_a": entry_a,
        "roster_line_a": lambda w: RosterEntryFactory(entry=w["entry_a"], person=w["person_a"], number="9"),
        "game": lambda w: GameFactory(championship=w["championship"]),
        "pool": lambda w: PoolFactory(championship=w["championship"]),
        "venue": lambda w: w["championship"].venue,
        "goal": lambda w: GoalRecord.objects.create(
            game=w["game"], entry=w["game"].home, scorer=PersonFactory(), period=1, time_tenths=10
        ),
        "penalty": lambda w: PenaltyRecord.objects.create(
            game=w["game"], entry=w["game"].home, infraction_code="tripping", minutes=2, period=1, time_tenths=10
        ),
    }


OBJECTS.update(_tournament_objects())


class World:
    """The objects of one test, built on first use."""

    def __init__(self):
        self._built: dict[str, object] = {}

    def __getitem__(self, name):
        if name not in self._built:
            self._built[name] = OBJECTS[name](self)
        return self._built[name]

    def pk(self, name) -> int:
        return self[name].pk

    def history_id(self, name) -> int:
        """The id of the latest stored version of an object (simple-history)."""
        return self[name].history.latest().history_id


def make_user(role: str, world: World):
    if role == ANON:
        return None
    if role == SU:
        return SuperuserFactory()
    if role == INTL:
        return international_staff()
    if role == STAFF_A:
        return federation_staff(world["fed_a"])
    if role == STAFF_B:
        return federation_staff(world["fed_b"])
    user = UserFactory(is_staff=role == EXEC)
    assignment = {
        EXEC: (Role.IHTC_EXECUTIVE, None),
        TM: (Role.TEAM_MANAGER, world["fed_a"]),
        GO: (Role.GAME_OFFICIAL, None),
        DC: (Role.DISCIPLINE_COMMITTEE, None),
    }[role]
    RoleAssignmentFactory(user=user, role=assignment[0], federation=assignment[1])
    return user


def api(name: str, *args) -> Callable[[World], str]:
    """A URL of the federation API; ``args`` name objects of the world."""
    return lambda w: reverse(f"federation-api:{name}", args=[w.pk(a) for a in args])


def page(name: str, *args) -> Callable[[World], str]:
    return lambda w: reverse(name, args=[w.pk(a) for a in args])


# --- Expectations shared by many rows ------------------------------------------------------

# Read by every logged-in user (DRF answers an anonymous caller 403).
API_ANY_USER = expect(200, ANON=403)
# People: staff and international staff, officials and the committee. Team managers see only the people of the
# entries they manage (tests/federation/test_api.py); this one manages none yet, so the list is closed to him.
API_PEOPLE_LIST = expect(200, ANON=403, TM=403)
API_PERSON_A = expect(200, ANON=403, STAFF_B=404, TM=403)
# Confidential records (passports, waivers, device requests) of A.
API_CONFIDENTIAL_LIST = expect(200, ANON=403, TM=403, GO=403, DC=403)
API_CONFIDENTIAL_A = expect(200, ANON=403, TM=403, GO=403, DC=403, STAFF_B=404)
# Written by whoever keeps A's records.
API_WRITE_A = expect(200, ANON=403, TM=403, GO=403, DC=403, STAFF_B=404)
# The federation registry and IHTC decisions: executives, international staff (decisions) and superusers.
API_EXECUTIVES_ONLY = expect(403, EXEC=200, SU=200)
API_IHTC = expect(403, EXEC=200, INTL=200, SU=200)

PAGE_ANY_USER = expect(200, ANON=LOGIN)
PAGE_PERSON_A = expect(200, ANON=LOGIN, STAFF_B=404, TM=404)
PAGE_CONFIDENTIAL_FILE_A = expect(200, ANON=LOGIN, STAFF_B=404, TM=404, GO=404, DC=404)

ADMIN_STAFF = expect(200, ANON=LOGIN, TM=LOGIN, GO=LOGIN, DC=LOGIN)
ADMIN_STAFF_OBJECT_A = expect(200, ANON=LOGIN, TM=LOGIN, GO=LOGIN, DC=LOGIN, STAFF_B=ELSEWHERE)
ADMIN_EXECUTIVES = expect(403, ANON=LOGIN, TM=LOGIN, GO=LOGIN, DC=LOGIN, EXEC=200, SU=200)
ADMIN_IHTC = expect(403, ANON=LOGIN, TM=LOGIN, GO=LOGIN, DC=LOGIN, EXEC=200, INTL=200, SU=200)


TARGETS: list[dict] = [
    # --- Federation API ---------------------------------------------------------------------
    {"name": "api federations list", "method": "get", "url": api("federation-list"), "expect": API_ANY_USER},
    {
        "name": "api federation A detail",
        "method": "get",
        "url": api("federation-detail", "fed_a"),
        "expect": API_ANY_USER,
    },
    {
        "name": "api federation create",
        "method": "post",
        "url": api("federation-list"),
        "data": lambda w: {"name": "Confederation of the Americas", "level": "continental"},
        "expect": expect(403, EXEC=201, SU=201),
    },
    {
        "name": "api federation A update",
        "method": "patch",
        "url": api("federation-detail", "fed_a"),
        "data": lambda w: {"contact_name": "New Secretary"},
        "expect": API_EXECUTIVES_ONLY,
    },
    {"name": "api people list", "method": "get", "url": api("person-list"), "expect": API_PEOPLE_LIST},
    {
        "name": "api person A detail",
        "method": "get",
        "url": api("person-detail", "person_a"),
        "expect": API_PERSON_A,
    },
    {
        "name": "api person create in A",
        "method": "post",
        "url": api("person-list"),
        "data": lambda w: {
            "federation": w.pk("fed_a"),
            "first_name": "Nina",
            "last_name": "Keller",
            "date_of_birth": "2003-03-03",
            "gender": "F",
            "nationality": str(w["fed_a"].country),
        },
        "expect": expect(201, ANON=403, TM=403, GO=403, DC=403, STAFF_B=403),
    },
    {
        "name": "api person A update",
        "method": "patch",
        "url": api("person-detail", "person_a"),
        "data": lambda w: {"is_referee": True},
        "expect": API_WRITE_A,
    },
    {
        "name": "api person A eligibility",
        "method": "get",
        "url": lambda w: api("person-eligibility", "person_a")(w) + "?year=2026",
        "expect": API_CONFIDENTIAL_A,
    },
    {"name": "api passports list", "method": "get", "url": api("passport-list"), "expect": API_CONFIDENTIAL_LIST},
    {
        "name": "api passport A detail",
        "method": "get",
        "url": api("passport-detail", "passport_a"),
        "expect": API_CONFIDENTIAL_A,
    },
    {
        "name": "api passport create for A",
        "method": "post",
        "url": api("passport-list"),
        "data": lambda w: {
            "person": w.pk("person_a"),
            "issuing_country": str(w["fed_a"].country),
            "number": "MX1234567",
            "expiry_date": "2032-01-31",
        },
        # B's staff may not learn that A's person exists: the body's person is unknown to them (400).
        "expect": expect(201, ANON=403, TM=403, GO=403, DC=403, STAFF_B=400),
    },
    {
        "name": "api passport A update",
        "method": "patch",
        "url": api("passport-detail", "passport_a"),
        "data": lambda w: {"expiry_date": "2037-01-31"},
        "expect": API_WRITE_A,
    },
    {
        "name": "api passport A delete",
        "method": "delete",
        "url": api("passport-detail", "passport_a"),
        "expect": expect(204, ANON=403, TM=403, GO=403, DC=403, STAFF_B=404),
    },
    {
        "name": "api waivers list",
        "method": "get",
        "url": api("eligibility-waiver-list"),
        "expect": API_CONFIDENTIAL_LIST,
    },
    {
        "name": "api waiver A detail",
        "method": "get",
        "url": api("eligibility-waiver-detail", "waiver_a"),
        "expect": API_CONFIDENTIAL_A,
    },
    {
        "name": "api waiver grant for A",
        "method": "post",
        "url": api("eligibility-waiver-list"),
        "data": lambda w: {"person": w.pk("person_a"), "code": "no_passport", "reason": "Renewal pending (R-03)"},
        "expect": expect(403, EXEC=201, INTL=201, SU=201),
    },
    {"name": "api equipment models list", "method": "get", "url": api("equipment-model-list"), "expect": API_ANY_USER},
    {
        "name": "api equipment model detail",
        "method": "get",
        "url": api("equipment-model-detail", "equipment_model"),
        "expect": API_ANY_USER,
    },
    {
        "name": "api equipment model register",
        "method": "post",
        "url": api("equipment-model-list"),
        "data": lambda w: {
            "kind": "helmet",
            "manufacturer": "Warrior",
            "model_name": "Alpha",
            "certifications": ["CE"],
        },
        "expect": expect(201, ANON=403, TM=403, GO=403, DC=403),
    },
    {
        "name": "api equipment model approve",
        "method": "patch",
        "url": api("equipment-model-detail", "unapproved_model"),
        "data": lambda w: {"approved": True},
        "expect": API_IHTC,
    },
    {
        "name": "api inspections list",
        "method": "get",
        "url": api("equipment-inspection-list"),
        "expect": API_PEOPLE_LIST,
    },
    {
        "name": "api inspection A detail",
        "method": "get",
        "url": api("equipment-inspection-detail", "inspection_a"),
        "expect": API_PERSON_A,
    },
    {
        "name": "api inspection record for A",
        "method": "post",
        "url": api("equipment-inspection-list"),
        "data": lambda w: {"person": w.pk("person_a"), "kind": "player_stick", "measurements": {"length_mm": 1500}},
        "expect": expect(201, ANON=403, TM=403, DC=403, STAFF_B=400),
    },
    {
        "name": "api device requests list",
        "method": "get",
        "url": api("device-request-list"),
        "expect": API_CONFIDENTIAL_LIST,
    },
    {
        "name": "api device request A detail",
        "method": "get",
        "url": api("device-request-detail", "device_request_a"),
        "expect": API_CONFIDENTIAL_A,
    },
    {
        "name": "api device request submit for A",
        "method": "post",
        "url": api("device-request-list"),
        "format": "multipart",
        "data": lambda w: {
            "person": w.pk("person_a"),
            "description": "Knee brace",
            "physician": "Dr. Rossi",
            "prescription": pdf_upload(),
        },
        "expect": expect(201, ANON=403, TM=403, GO=403, DC=403, STAFF_B=400),
    },
    {
        "name": "api device request A approve",
        "method": "post",
        "url": api("device-request-approve", "device_request_a"),
        "data": lambda w: {},
        "expect": API_IHTC,
    },
    {
        "name": "api device request A reject",
        "method": "post",
        "url": api("device-request-reject", "device_request_a"),
        "data": lambda w: {"reason": "Metal parts (3.2.8 A)"},
        "expect": API_IHTC,
    },
    {
        "name": "api device request A resubmit",
        "method": "post",
        "url": api("device-request-resubmit", "rejected_request_a"),
        "data": lambda w: {"description": "Soft brace"},
        "expect": API_WRITE_A,
    },
    # --- API documentation (public: it describes, it does not serve data) -------------------------
    {"name": "api schema", "method": "get", "url": page("schema"), "expect": expect(200)},
    {"name": "api docs", "method": "get", "url": page("api-docs"), "expect": expect(200)},
    {"name": "api redoc", "method": "get", "url": page("api-redoc"), "expect": expect(200)},
    # --- Federation pages ------------------------------------------------------------------------
    {"name": "page person list", "method": "get", "url": page("federation:person-list"), "expect": PAGE_ANY_USER},
    {
        "name": "page person A detail",
        "method": "get",
        "url": page("federation:person-detail", "person_a"),
        "expect": PAGE_PERSON_A,
    },
    {
        "name": "page passport A scan",
        "method": "get",
        "url": page("federation:passport-scan", "passport_a"),
        "expect": PAGE_CONFIDENTIAL_FILE_A,
    },
    {
        "name": "page device request A prescription",
        "method": "get",
        "url": page("federation:device-prescription", "device_request_a"),
        "expect": PAGE_CONFIDENTIAL_FILE_A,
    },
    # --- Admin: the federation register and accounts ---------------------------------------------------
    {"name": "admin index", "method": "get", "url": page("admin:index"), "expect": ADMIN_STAFF},
    {
        "name": "admin federation A change",
        "method": "get",
        "url": page("admin:federation_federation_change", "fed_a"),
        "expect": ADMIN_STAFF,
    },
    {
        "name": "admin federation add",
        "method": "get",
        "url": page("admin:federation_federation_add"),
        "expect": ADMIN_EXECUTIVES,
    },
    {
        "name": "admin person A change",
        "method": "get",
        "url": page("admin:federation_person_change", "person_a"),
        "expect": ADMIN_STAFF_OBJECT_A,
    },
    {"name": "admin person add", "method": "get", "url": page("admin:federation_person_add"), "expect": ADMIN_STAFF},
    {
        "name": "admin passport A change",
        "method": "get",
        "url": page("admin:federation_passport_change", "passport_a"),
        "expect": ADMIN_STAFF_OBJECT_A,
    },
    {
        "name": "admin waiver A change",
        "method": "get",
        "url": page("admin:federation_eligibilitywaiver_change", "waiver_a"),
        "expect": ADMIN_STAFF_OBJECT_A,
    },
    {
        "name": "admin waiver add",
        "method": "get",
        "url": page("admin:federation_eligibilitywaiver_add"),
        "expect": ADMIN_IHTC,
    },
    {
        "name": "admin equipment model change",
        "method": "get",
        "url": page("admin:federation_equipmentmodel_change", "equipment_model"),
        "expect": ADMIN_STAFF,
    },
    {
        "name": "admin equipment model add",
        "method": "get",
        "url": page("admin:federation_equipmentmodel_add"),
        "expect": ADMIN_IHTC,
    },
    {
        "name": "admin inspection A change",
        "method": "get",
        "url": page("admin:federation_equipmentinspection_change", "inspection_a"),
        "expect": ADMIN_STAFF_OBJECT_A,
    },
    {
        "name": "admin device request A change",
        "method": "get",
        "url": page("admin:federation_protectivedevicerequest_change", "device_request_a"),
        "expect": ADMIN_STAFF_OBJECT_A,
    },
    {
        "name": "admin role assignment add",
        "method": "get",
        "url": page("admin:accounts_roleassignment_add"),
        "expect": ADMIN_EXECUTIVES,
    },
    {
        "name": "admin user add",
        "method": "get",
        "url": page("admin:accounts_user_add"),
        "expect": ADMIN_EXECUTIVES,
    },
]

# --- Admin history pages and their revert form (django-simple-history), per object ---------------------------------


def _stored(name: str, field: str) -> Callable[[World], object]:
    """The stored value of ``field`` of the world's object ``name`` (read again from the database)."""
    return lambda w: getattr(type(w[name]).objects.get(pk=w.pk(name)), field)


def admin_history_rows(model: str, name: str, *, view, revert, change: dict, field: str) -> list[dict]:
    """The history page, the revert form and the revert itself (its POST) of the world's object ``name``."""
    history = f"admin:federation_{model}_history"
    form = f"admin:federation_{model}_simple_history"

    def form_url(w):
        return reverse(form, args=[w.pk(name), w.history_id(name)])

    return [
        {"name": f"admin {model} A history", "method": "get", "url": page(history, name), "expect": view},
        {"name": f"admin {model} A revert form", "method": "get", "url": form_url, "expect": view},
        {
            "name": f"admin {model} A revert",
            "method": "post",
            "format": "multipart",
            "url": form_url,
            "data": lambda w: admin_form_data(w[name], **change),
            "stored": _stored(name, field),
            "expect": revert,
        },
    ]


# A revert writes: change permission on the object, through the services (which check again).
ADMIN_REVERT_A = expect(SAVED, ANON=LOGIN, TM=LOGIN, GO=LOGIN, DC=LOGIN, STAFF_B=ELSEWHERE)
# Waivers, inspections and device requests are records: nobody edits them in the admin, so nobody reverts them.
ADMIN_NO_REVERT_A = expect(403, ANON=LOGIN, TM=LOGIN, GO=LOGIN, DC=LOGIN, STAFF_B=ELSEWHERE)

# The registry's shared records: read by all staff, reverted by who keeps them (executives; the IHTC for 3.2.6 A).
ADMIN_REVERT_EXECUTIVES = expect(403, ANON=LOGIN, TM=LOGIN, GO=LOGIN, DC=LOGIN, EXEC=SAVED, SU=SAVED)
ADMIN_REVERT_IHTC = expect(403, ANON=LOGIN, TM=LOGIN, GO=LOGIN, DC=LOGIN, EXEC=SAVED, INTL=SAVED, SU=SAVED)

# (admin model, the world's object, who reads its history, what its revert may do, the field changed, its new value)
ADMIN_HISTORIES = [
    ("federation", "fed_a", ADMIN_STAFF, ADMIN_REVERT_EXECUTIVES, "contact_name", "Reverted"),
    ("person", "person_a", ADMIN_STAFF_OBJECT_A, ADMIN_REVERT_A, "last_name", "Reverted"),
    ("passport", "passport_a", ADMIN_STAFF_OBJECT_A, ADMIN_REVERT_A, "expiry_date", "2031-01-31"),
    ("eligibilitywaiver", "waiver_a", ADMIN_STAFF_OBJECT_A, ADMIN_NO_REVERT_A, "reason", "Reverted"),
    ("equipmentmodel", "equipment_model", ADMIN_STAFF, ADMIN_REVERT_IHTC, "model_name", "Reverted"),
    ("equipmentinspection", "inspection_a", ADMIN_STAFF_OBJECT_A, ADMIN_NO_REVERT_A, "notes", "Reverted"),
    ("protectivedevicerequest", "device_request_a", ADMIN_STAFF_OBJECT_A, ADMIN_NO_REVERT_A, "description", "Reverted"),
]
for _model, _name, _view, _revert, _field, _value in ADMIN_HISTORIES:
    TARGETS += admin_history_rows(_model, _name, view=_view, revert=_revert, change={_field: _value}, field=_field)


# --- Championships: public pages and API reads, direction (staff of the sanctioning body), team managers ------------


def tapi(name: str, *args) -> Callable[[World], str]:
    """A URL of the championship API; ``args`` name objects of the world."""
    return lambda w: reverse(f"tournaments-api:{name}", args=[w.pk(a) for a in args])


# The championship is sanctioned by an international body: international staff direct it.
PAGE_DIRECTORS = expect(403, ANON=LOGIN, EXEC=200, INTL=200, SU=200)
API_DIRECTORS = expect(403, EXEC=200, INTL=200, SU=200)
# A's entry: its team managers, A's staff and international staff.
PAGE_ENTRY_A = expect(200, ANON=LOGIN, STAFF_B=403, GO=403, DC=403)
API_ENTRY_A = expect(200, ANON=403, STAFF_B=403, GO=403, DC=403)
PUBLIC = expect(200)

TARGETS += [
    {"name": f"page championship {view}", "method": "get", "url": page(f"tournaments:{view}", *args), "expect": PUBLIC}
    for view, args in [
        ("championship-list", ()),
        ("championship-detail", ("championship",)),
        ("schedule", ("championship",)),
        ("results", ("championship",)),
        ("standings", ("championship",)),
        ("bracket", ("championship",)),
        ("leaders", ("championship",)),
    ]
]
TARGETS += [
    {"name": f"page championship {view}", "method": "get", "url": page(f"tournaments:{view}", *args), "expect": want}
    for view, args, want in [
        ("championship-create", (), expect(200, ANON=LOGIN, TM=403, GO=403, DC=403)),
        ("championship-edit", ("championship",), PAGE_DIRECTORS),
        ("entries", ("championship",), PAGE_DIRECTORS),
        ("schedule-generate", ("championship",), PAGE_DIRECTORS),
        ("game-manage", ("game",), PAGE_DIRECTORS),
        ("standings-shootout", ("pool",), PAGE_DIRECTORS),
        ("my-entries", (), PAGE_ANY_USER),
        ("entry-detail", ("entry_a",), PAGE_ENTRY_A),
        ("roster-line-edit", ("roster_line_a",), PAGE_ENTRY_A),
    ]
]
TARGETS += [
    {"name": f"api {name}", "method": "get", "url": tapi(name, *args), "expect": PUBLIC}
    for name, args in [
        ("championship-list", ()),
        ("championship-detail", ("championship",)),
        ("championship-standings", ("championship",)),
        ("championship-statistics", ("championship",)),
        ("venue-list", ()),
        ("entry-list", ()),
        ("roster-entry-list", ()),
        ("pool-list", ()),
        ("pool-standings", ("pool",)),
        ("game-list", ()),
        ("game-detail", ("game",)),
        ("goal-list", ()),
        ("penalty-list", ()),
    ]
]
TARGETS += [
    {
        "name": "api entry A roster eligibility",
        "method": "get",
        "url": tapi("entry-roster", "entry_a"),
        "expect": API_ENTRY_A,
    },
    {
        "name": "api roster add to entry A",
        "method": "post",
        "url": tapi("roster-entry-list"),
        "data": lambda w: {"entry": w.pk("entry_a"), "person": w.pk("person_a"), "number": "9"},
        "expect": expect(201, ANON=403, STAFF_B=403, GO=403, DC=403),
    },
    {
        "name": "api game result",
        "method": "post",
        "url": tapi("game-result", "game"),
        "data": lambda w: {"home_goals": 2, "away_goals": 1},
        "expect": API_DIRECTORS,
    },
    {
        "name": "api championship create",
        "method": "post",
        "url": tapi("championship-list"),
        "data": lambda w: {
            "name": "Matrix Cup",
            "category": "senior_men",
            "level": "world",
            "start_date": "2027-09-01",
            "end_date": "2027-09-05",
            "venue": w["championship"].venue_id,
            "entry_closing_date": "2027-08-01",
            "entry_fee": "100",
            "entry_fee_currency": "USD",
            "sanctioning_body": w["championship"].sanctioning_body_id,
        },
        "expect": expect(403, EXEC=201, INTL=201, SU=201),
    },
]
# Writes through pages and the API. A director's or manager's call that breaks a rule is a 400 (or, on a page,
# a redirect with the message): what matters here is who gets past the gate.
PAGE_ENTRY_A_POST = expect(ELSEWHERE, ANON=LOGIN, STAFF_B=403, GO=403, DC=403)
API_DIRECTORS_400 = expect(403, EXEC=400, INTL=400, SU=400)
API_ENTRY_A_400 = expect(400, ANON=403, STAFF_B=403, GO=403, DC=403)
TARGETS += [
    {
        "name": "page entry A fee paid",
        "method": "post",
        "format": "multipart",
        "url": page("tournaments:entry-fee-paid", "entry_a"),
        "data": lambda w: {"amount": "500", "currency": "USD"},
        "expect": expect(403, ANON=LOGIN, EXEC=ELSEWHERE, INTL=ELSEWHERE, SU=ELSEWHERE),
    },
    {
        "name": "page roster add to entry A",
        "method": "post",
        "format": "multipart",
        "url": page("tournaments:roster-add", "entry_a"),
        "data": lambda w: {"person": w.pk("person_a"), "number": "9", "position": "player"},
        "expect": PAGE_ENTRY_A_POST,
    },
    {
        "name": "page roster confirm of entry A",
        "method": "post",
        "format": "multipart",
        "url": page("tournaments:roster-confirm", "entry_a"),
        "expect": PAGE_ENTRY_A_POST,
    },
    {
        "name": "page roster import into entry A",
        "method": "post",
        "format": "multipart",
        "url": page("tournaments:roster-import", "entry_a"),
        "expect": expect(400, ANON=LOGIN, STAFF_B=403, GO=403, DC=403),
    },
    {
        "name": "page official add to entry A",
        "method": "post",
        "format": "multipart",
        "url": page("tournaments:official-add", "entry_a"),
        "expect": expect(400, ANON=LOGIN, STAFF_B=403, GO=403, DC=403),
    },
    {
        "name": "page bracket fill",
        "method": "post",
        "format": "multipart",
        "url": page("tournaments:bracket-manage", "championship"),
        "data": lambda w: {"fill": "1"},
        "expect": expect(403, ANON=LOGIN, EXEC=ELSEWHERE, INTL=ELSEWHERE, SU=ELSEWHERE),
    },
    {"name": "api venue detail", "method": "get", "url": tapi("venue-detail", "venue"), "expect": PUBLIC},
    {"name": "api entry A detail", "method": "get", "url": tapi("entry-detail", "entry_a"), "expect": PUBLIC},
    {
        "name": "api roster line A",
        "method": "get",
        "url": tapi("roster-entry-detail", "roster_line_a"),
        "expect": PUBLIC,
    },
    {"name": "api pool detail", "method": "get", "url": tapi("pool-detail", "pool"), "expect": PUBLIC},
    {"name": "api goal detail", "method": "get", "url": tapi("goal-detail", "goal"), "expect": PUBLIC},
    {"name": "api penalty detail", "method": "get", "url": tapi("penalty-detail", "penalty"), "expect": PUBLIC},
    # Not drawn yet: a 404 for everyone, never a refusal.
    {
        "name": "api bracket",
        "method": "get",
        "url": tapi("championship-bracket", "championship"),
        "expect": expect(404),
    },
    {
        "name": "api generate schedule",
        "method": "post",
        "url": tapi("championship-generate-schedule", "championship"),
        "data": lambda w: {"days": [], "slot_times": [], "rinks": []},
        "expect": API_DIRECTORS_400,
    },
    {
        "name": "api generate bracket",
        "method": "post",
        "url": tapi("championship-generate-bracket", "championship"),
        "expect": API_DIRECTORS_400,
    },
    {
        "name": "api entry A fee paid",
        "method": "post",
        "url": tapi("entry-fee-paid", "entry_a"),
        "data": lambda w: {"amount": "500", "currency": "USD"},
        "expect": API_DIRECTORS_400,
    },
    {
        "name": "api entry A managers",
        "method": "post",
        "url": tapi("entry-managers", "entry_a"),
        "data": lambda w: {"managers": []},
        "expect": expect(403, EXEC=200, INTL=200, STAFF_A=200, SU=200),
    },
    {
        "name": "api entry A confirm roster",
        "method": "post",
        "url": tapi("entry-confirm-roster", "entry_a"),
        "expect": API_ENTRY_A_400,
    },
    {
        "name": "api entry A roster import",
        "method": "post",
        "format": "multipart",
        "url": tapi("entry-roster-import", "entry_a"),
        "expect": API_ENTRY_A_400,
    },
    {
        "name": "api pool shootout",
        "method": "post",
        "url": tapi("pool-shootout", "pool"),
        "data": lambda w: {"entries": [1, 2]},
        "expect": API_DIRECTORS_400,
    },
    {"name": "api game move", "method": "post", "url": tapi("game-move", "game"), "expect": API_DIRECTORS},
    {
        "name": "api game goalkeeper line",
        "method": "post",
        "url": tapi("game-goalkeeper-line", "game"),
        "expect": API_DIRECTORS_400,
    },
]


# --- The live game sheet (issue 9) ------------------------------------------------------------------------------


def _sheet_objects() -> dict[str, Callable[[World], object]]:
    from tests.games.sheet_helpers import sheet_game

    def sheet_event(w):
        from games.models import SheetEvent
        from games.sheet import record_events
        from tests.factories import SuperuserFactory as _Superuser

        record_events(game=w["sheet_game"], by=_Superuser(), device="matrix", events=_first_entry(w)["events"])
        return SheetEvent.objects.get(sheet__game=w["sheet_game"])

    return {"sheet_game": lambda w: sheet_game(championship=w["championship"]), "sheet_event": sheet_event}


OBJECTS.update(_sheet_objects())


def gapi(name: str, *args) -> Callable[[World], str]:
    """A URL of the games API; ``args`` name objects of the world."""
    return lambda w: reverse(f"games-api:{name}", args=[w.pk(a) for a in args])


def _first_entry(w) -> dict:
    from tests.games.sheet_helpers import entry

    return {"device": "matrix", "events": [entry("period_start", period=1)]}


# Until officials are assigned per game, the staff who direct the championship enter its events and read its log.
API_SHEET_ENTRY = expect(403, EXEC=200, INTL=200, SU=200)
TARGETS += [
    {"name": "api game sheet state", "method": "get", "url": gapi("game-sheet", "sheet_game"), "expect": PUBLIC},
    {
        "name": "api game sheet log",
        "method": "get",
        "url": gapi("game-sheet-events", "sheet_game"),
        "expect": API_SHEET_ENTRY,
    },
    {
        "name": "api game sheet enter events",
        "method": "post",
        "url": gapi("game-sheet-events", "sheet_game"),
        "data": _first_entry,
        "expect": API_SHEET_ENTRY,
    },
    # The log's admin is a read-only view for superusers.
    {
        "name": "admin sheet event view",
        "method": "get",
        "url": page("admin:games_sheetevent_change", "sheet_event"),
        "expect": expect(403, ANON=LOGIN, TM=LOGIN, GO=LOGIN, DC=LOGIN, SU=200),
    },
    {
        "name": "admin sheet event history",
        "method": "get",
        "url": page("admin:games_sheetevent_history", "sheet_event"),
        "expect": expect(403, ANON=LOGIN, TM=LOGIN, GO=LOGIN, DC=LOGIN, SU=200),
    },
]


def test_every_route_of_the_games_api_is_in_the_matrix():
    resolver = get_resolver()
    routes = _route_names(resolver.namespace_dict["games-api"][1].url_patterns, "games-api")
    assert routes, "the games API has routes"
    missing = routes - _target_route_names()
    assert not missing, f"routes with no row in the permission matrix: {sorted(missing)}"


def test_every_route_of_the_championship_api_and_pages_is_in_the_matrix():
    resolver = get_resolver()
    routes = _route_names(resolver.namespace_dict["tournaments-api"][1].url_patterns, "tournaments-api")
    routes |= _route_names(resolver.namespace_dict["tournaments"][1].url_patterns, "tournaments")
    missing = routes - _target_route_names()
    assert not missing, f"routes with no row in the permission matrix: {sorted(missing)}"


# Who may open the list page of each admin model of these apps.
ADMIN_CHANGELISTS = {
    "federation.federation": ADMIN_STAFF,
    "federation.person": ADMIN_STAFF,
    "federation.passport": ADMIN_STAFF,
    "federation.eligibilitywaiver": ADMIN_STAFF,
    "federation.equipmentmodel": ADMIN_STAFF,
    "federation.equipmentinspection": ADMIN_STAFF,
    "federation.protectivedevicerequest": ADMIN_STAFF,
    "accounts.user": ADMIN_EXECUTIVES,
    "accounts.roleassignment": ADMIN_EXECUTIVES,
}
# Every other admin list page (any app): at least nobody without the admin flag gets in.
ADMIN_DEFAULT = {ANON: LOGIN, TM: LOGIN, GO: LOGIN, DC: LOGIN, SU: 200}


def _admin_changelist_rows() -> list[dict]:
    rows = []
    for model in admin.site._registry:
        label = f"{model._meta.app_label}.{model._meta.model_name}"
        rows.append(
            {
                "name": f"admin {label} list",
                "method": "get",
                "url": page(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist"),
                "expect": ADMIN_CHANGELISTS.get(label, ADMIN_DEFAULT),
            }
        )
    return sorted(rows, key=lambda row: row["name"])


ALL_TARGETS = TARGETS + _admin_changelist_rows()


def _cases():
    for target in ALL_TARGETS:
        for role, expected in target["expect"].items():
            yield pytest.param(target, role, expected, id=f"{target['name']}--{role}")


def _call(client: Client, target: dict, world: World):
    url = target["url"](world)
    method = target["method"]
    data = target["data"](world) if "data" in target else None
    if method in ("get", "delete"):
        return getattr(client, method)(url)
    if target.get("format") == "multipart":
        return getattr(client, method)(url, data or {})
    return getattr(client, method)(url, json.dumps(data or {}), content_type="application/json")


@pytest.mark.django_db
@pytest.mark.parametrize("target, role, expected", list(_cases()))
def test_permission_matrix(target, role, expected):
    world = World()
    user = make_user(role, world)
    client = Client()
    if user is not None:
        client.force_login(user)
    before = target["stored"](world) if "stored" in target else None
    response = _call(client, target, world)
    if "stored" in target:
        after = target["stored"](world)
        assert (after != before) == (expected == SAVED), f"{target['name']} as {role}: stored {before!r} -> {after!r}"
    if expected in (LOGIN, ELSEWHERE, SAVED):
        assert response.status_code == 302, f"{target['name']} as {role}: {response.status_code}"
        to_login = "login" in response["Location"]
        assert to_login == (expected == LOGIN), f"{target['name']} as {role}: redirected to {response['Location']}"
    else:
        assert response.status_code == expected, (
            f"{target['name']} as {role}: expected {expected}, got {response.status_code}: {response.content[:300]!r}"
        )


@pytest.mark.django_db
def test_another_federations_passport_scan_is_refused():
    world = World()
    passport = world["passport_a"]
    client = Client()
    client.force_login(make_user(STAFF_B, world))
    response = client.get(reverse("federation:passport-scan", args=[passport.pk]))
    # Not even a 403: B's staff may not learn the passport exists.
    assert response.status_code == 404
    assert b"JFIF" not in response.content
    client.force_login(make_user(STAFF_A, world))
    own = client.get(reverse("federation:passport-scan", args=[passport.pk]))
    assert own.status_code == 200
    assert own["Content-Disposition"].startswith("attachment")


def _route_names(patterns, namespace: str) -> set[str]:
    names = set()
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            names |= _route_names(pattern.url_patterns, namespace)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.add(f"{namespace}:{pattern.name}")
    return names


def _target_route_names() -> set[str]:
    """Resolve every row's URL (with a throwaway world) to the route name it hits."""
    from django.urls import resolve

    names = set()
    for target in TARGETS:
        world = _UnsavedWorld()
        match = resolve(target["url"](world).split("?")[0])
        names.add(f"{match.namespace}:{match.url_name}" if match.namespace else match.url_name)
    return names


class _UnsavedWorld(World):
    """Stands in for the world when only URLs are needed: every object has pk 1."""

    def pk(self, name) -> int:
        return 1

    def history_id(self, name) -> int:
        return 1

    def __getitem__(self, name):
        raise AssertionError("a row's URL must use world.pk(), not the object")


def test_every_route_of_the_federation_api_and_pages_is_in_the_matrix():
    resolver = get_resolver()
    federation_api = resolver.namespace_dict["federation-api"][1]
    federation_pages = resolver.namespace_dict["federation"][1]
    routes = _route_names(federation_api.url_patterns, "federation-api") | _route_names(
        federation_pages.url_patterns, "federation"
    )
    missing = routes - _target_route_names()
    assert not missing, f"routes with no row in the permission matrix: {sorted(missing)}"


def test_every_history_page_and_revert_form_of_the_federation_admin_is_in_the_matrix():
    history_routes = {
        name
        for name in _route_names(admin.site.get_urls(), "admin")
        if name.startswith("admin:federation_") and name.endswith(("_history", "_simple_history"))
    }
    assert history_routes, "the federation admin keeps history (django-simple-history)"
    missing = history_routes - _target_route_names()
    assert not missing, f"admin history routes with no row in the permission matrix: {sorted(missing)}"


def test_every_role_has_an_expectation_in_every_federation_row():
    for target in TARGETS:
        assert set(target["expect"]) == set(ROLES), target["name"]
