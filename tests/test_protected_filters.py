"""No filter, sort or search tells a caller anything about a record they may not read (issue 23).

A field of a protected record (a person's passports, eligibility waivers, waiver and device requests; the
committee's incident reports, cases and confidential reports) may be filtered, sorted or searched only by someone
who may read that record (its app's ``*_visible_to``). The parameters are read from the code: every API list's
FilterSet (``filterset_class`` / ``filterset_fields``), ``search_fields`` and ``ordering_fields``, and every admin
changelist's ``list_filter`` and ``search_fields``; a parameter whose field path reaches a protected model is
probed, for every role of the permission matrix, with values that match the protected records the role may not
read and values that do not: the answers must be identical (or the parameter refused with a 400).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

import pytest
from django.contrib import admin
from django.core.exceptions import FieldDoesNotExist
from django.db.models import Model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.test_permission_matrix import ROLES, SU, World, make_user


def _protected_models() -> dict[type[Model], object]:
    """Each protected model and its owning app's ``*_visible_to`` (what a user may read of it)."""
    from discipline import access as discipline_access
    from discipline.models import Case, ConfidentialReport, IncidentReport
    from federation import access
    from federation.models import EligibilityWaiver, Passport, ProtectiveDeviceRequest, WaiverRequest

    def letter_cases(user):
        """Cases whose decision letter the user reads (``access_decision_letter``: who may appeal the decision):
        the letter gives the case's title, championship and the people of its reports."""
        from discipline.access import appealable_decision_ids
        from discipline.models import Decision

        decisions = appealable_decision_ids(user, Decision.objects.values_list("pk", flat=True))
        return discipline_access.cases_visible_to(user) | Case.objects.filter(decision__pk__in=decisions)

    return {
        Passport: access.passports_visible_to,
        EligibilityWaiver: access.waivers_visible_to,
        ProtectiveDeviceRequest: access.device_requests_visible_to,
        WaiverRequest: access.waiver_requests_visible_to,
        IncidentReport: lambda user: (
            discipline_access.incident_reports_visible_to(user)
            | IncidentReport.objects.filter(case__in=letter_cases(user))
        ),
        Case: letter_cases,
        ConfidentialReport: discipline_access.confidential_reports_visible_to,
    }


# Filters computed by a method, whose name is no field path: each says what it reads (none reads a protected record).
METHOD_FILTERS = {
    ("PersonFilter", "role"): "the person's own role flags",
    ("PassportFilter", "has_scan"): "a passport list, scoped to readable passports",
    ("EquipmentModelFilter", "certification"): "the public equipment registry",
    ("GameFilter", "team"): "the game's home and away entries",
}


@dataclass(frozen=True)
class Parameter:
    """One query parameter of one list, the field path it reads and how to probe it."""

    list_name: str
    url: str
    model: type[Model]
    param: str
    path: str
    kind: str  # "filter", "search", "ordering", "admin_filter", "admin_search"
    lookup: str = "exact"


def _path_hops(model: type[Model], path: str) -> list[tuple[type[Model], object]] | None:
    """The (model, field) hops of a field path from ``model``; None when it is no field path (a method filter)."""
    hops = []
    for part in path.split("__"):
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            if hops and part in ("id", "pk", "exact"):
                break
            return None
        hops.append((model, field))
        if field.is_relation and field.related_model is not None:
            model = field.related_model
        else:
            break
    return hops


def protected_hop(model: type[Model], path: str) -> tuple[type[Model], str] | None:
    """The first protected model a path reaches (other than the list's own model: its rows are scoped already),
    with the rest of the path from it; None when the path reads no protected record."""
    hops = _path_hops(model, path)
    if hops is None:
        return None
    parts = path.split("__")
    for index, (_, field) in enumerate(hops):
        target = field.related_model if field.is_relation else None
        if target in _protected_models() and target is not model:
            return target, "__".join(parts[index + 1 :]) or "pk"
    return None


def _api_list_views():
    """(name, url, view class) of every DRF list endpoint (a viewset's list action or a GET list view)."""

    def walk(patterns, prefix, namespace):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix, pattern.namespace or namespace)
            elif isinstance(pattern, URLPattern):
                cls = getattr(pattern.callback, "cls", None)
                actions = getattr(pattern.callback, "actions", None) or {}
                if cls is None or pattern.pattern.regex.groups:
                    continue
                if actions and actions.get("get") != "list":
                    continue
                if not (
                    getattr(cls, "filterset_class", None)
                    or getattr(cls, "filterset_fields", None)
                    or getattr(cls, "search_fields", None)
                    or getattr(cls, "ordering_fields", None)
                ):
                    continue
                yield f"{namespace}:{pattern.name}", cls

    for name, cls in walk(get_resolver().url_patterns, "", ""):
        yield name, reverse(name), cls


def _view_model(cls) -> type[Model]:
    filterset = getattr(cls, "filterset_class", None)
    if filterset is not None:
        return filterset._meta.model
    from rest_framework.request import Request
    from rest_framework.test import APIRequestFactory

    view = cls()
    request = Request(APIRequestFactory().get("/"))  # as DRF hands it to the view: query_params and all
    request.user = make_user(SU, World())
    view.request, view.kwargs, view.format_kwarg = request, {}, None
    return view.get_queryset().model


def api_parameters() -> list[Parameter]:
    params = []
    for name, url, cls in _api_list_views():
        model = _view_model(cls)
        filterset = getattr(cls, "filterset_class", None)
        if filterset is None and getattr(cls, "filterset_fields", None):
            from django_filters.rest_framework import FilterSet

            filterset = type(
                "AutoFilterSet",
                (FilterSet,),
                {"Meta": type("Meta", (), {"model": model, "fields": list(cls.filterset_fields)})},
            )
        for param, flt in filterset.base_filters.items() if filterset else []:
            path = flt.field_name or param
            if _path_hops(model, path) is None:
                assert (filterset.__name__, param) in METHOD_FILTERS or param in getattr(
                    filterset, "protected_filters", {}
                ), f"{name}: filter {param!r} reads no field path: say what it reads in METHOD_FILTERS"
                continue
            params.append(Parameter(name, url, model, param, path, "filter", flt.lookup_expr))
        for field in getattr(cls, "search_fields", None) or []:
            params.append(Parameter(name, url, model, "search", field.lstrip("^=@$"), "search"))
        for field in getattr(cls, "ordering_fields", None) or []:
            params.append(Parameter(name, url, model, "ordering", field, "ordering"))
    return params


def admin_parameters() -> list[Parameter]:
    params = []
    for model, model_admin in admin.site._registry.items():
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        name = f"admin {model._meta.label_lower}"
        for entry in model_admin.list_filter:
            path = entry if isinstance(entry, str) else entry[0] if isinstance(entry, tuple) else None
            if path is None:
                parameter_name = getattr(entry, "parameter_name", None)
                assert parameter_name, f"{name}: a list filter with no field path and no parameter: {entry!r}"
                continue
            params.append(Parameter(name, url, model, f"{path}__exact", path, "admin_filter"))
        for field in model_admin.search_fields:
            params.append(Parameter(name, url, model, "q", field.lstrip("^=@$"), "admin_search"))
    return params


@pytest.mark.django_db
def test_the_parameters_are_read_from_the_code():
    """The enumeration finds the lists and parameters it must (a refactoring that hides them fails here)."""
    api = api_parameters()
    found = {(p.list_name, p.param) for p in api}
    assert ("federation-api:person-list", "passport_expiry_before") in found
    assert ("federation-api:person-list", "ordering") in found
    assert ("games-api:game-official-list", "person") in found
    admin_found = {(p.list_name, p.path) for p in admin_parameters()}
    assert ("admin federation.person", "passports__number") in admin_found
    protected = {(p.list_name, p.param) for p in api if protected_hop(p.model, p.path)}
    assert ("federation-api:person-list", "passport_expiry_after") in protected


# --- probing --------------------------------------------------------------------------------------------------


def _protected_world() -> World:
    """Two people of A, each with a passport, a waiver, a device request and a waiver request; a managed entry
    rostering them (the team manager sees them); a decided, appealed case on an incident of A's player."""
    from tests.factories import PassportFactory, PersonFactory, RosterEntryFactory

    world = World()
    second = PersonFactory(federation=world["fed_a"], last_name="Zeta")
    PassportFactory(person=second, expiry_date=datetime.date(2034, 3, 9), number="Z7700112")
    RosterEntryFactory(entry=world["entry_a"], person=second, number="11")
    for name in ("passport_a", "waiver_a", "device_request_a", "waiver_request_a", "roster_line_a", "disc_appeal"):
        world[name]
    return world


def _leaf_values(instance, rest: str) -> list:
    objects = [instance]
    for part in rest.split("__"):
        if part in ("id", "pk"):
            return [obj.pk for obj in objects]
        following = []
        for obj in objects:
            value = getattr(obj, part)
            if hasattr(value, "all") and callable(value.all):
                following.extend(value.all())
            else:
                following.append(value)
        objects = following
    return [obj.pk if isinstance(obj, Model) else obj for obj in objects if obj is not None and obj != ""]


def _probe_values(value) -> list[str]:
    """Values around one protected value: one of them matches it, the others do not."""
    if isinstance(value, datetime.datetime):
        return [(value + datetime.timedelta(days=d)).isoformat() for d in (-1, 0, 1)]
    if isinstance(value, datetime.date):
        return [(value + datetime.timedelta(days=d)).isoformat() for d in (-1, 0, 1)]
    if isinstance(value, bool):
        return ["true", "false"] if value else ["false", "true"]
    if isinstance(value, int):
        return [str(value), str(value + 1000)]
    text = str(value)
    return [text, text[:4], "zz-no-such-value"]


def _answer(client: Client, param: Parameter, value: str):
    response = client.get(param.url, {param.param: value})
    if response.status_code == 400:
        return "refused"
    if param.kind.startswith("admin"):
        if response.status_code != 200:
            return (response.status_code, response.get("Location", "").split("?")[0])
        return tuple(obj.pk for obj in response.context_data["cl"].result_list)
    if response.status_code != 200:
        return response.status_code
    body = response.json()
    rows = body["results"] if isinstance(body, dict) and "results" in body else body
    return tuple(row.get("id") for row in rows)


def _values_to_try(param: Parameter, target, rest: str, unreadable) -> list[list[str]]:
    """For a filter, search or admin filter: groups of values around each unreadable record's value. For an
    ordering: the field ascending and descending."""
    if param.kind == "ordering":
        return [[param.path, f"-{param.path}"]] if unreadable else []
    groups = []
    for record in unreadable:
        for value in _leaf_values(record, rest):
            groups.append(_probe_values(value))
    return groups


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_no_parameter_reveals_a_record_the_role_may_not_read(role):
    world = _protected_world()
    user = make_user(role, world)
    client = Client()
    if user is not None:
        client.force_login(user)
    protected = _protected_models()
    probed, leaks = 0, []
    for param in api_parameters() + admin_parameters():
        hop = protected_hop(param.model, param.path)
        if hop is None:
            continue
        target, rest = hop
        readable = protected[target](user).values("pk") if user is not None else target.objects.none().values("pk")
        unreadable = list(target.objects.exclude(pk__in=readable))
        for values in _values_to_try(param, target, rest, unreadable):
            answers = {value: _answer(client, param, value) for value in values}
            probed += 1
            if len(set(answers.values())) > 1:
                leaks.append(f"{param.list_name} ?{param.param} ({param.path}): {answers}")
    assert not leaks, f"{role} learns protected values through: " + "; ".join(leaks)
    if role in ("game_official", "discipline_committee", "national_staff_b"):
        assert probed, "nothing was probed: the world lost its protected records"


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["game_official", "discipline_committee", "team_manager"])
def test_passport_filters_are_refused_to_who_reads_no_passport(role):
    """The outside probe: a referee binary-searched Albrecht's passport expiry through ?passport_expiry_before; the
    committee learnt who holds a passport through ?passport_expiry_after. Now a 400 naming the parameter."""
    from rest_framework.test import APIClient

    world = World()
    world["passport_a"]
    client = APIClient()
    client.force_authenticate(make_user(role, world))
    for param in ("passport_expiry_before", "passport_expiry_after"):
        response = client.get(reverse("federation-api:person-list"), {param: "1900-01-01"})
        assert response.status_code in (400, 403), (param, response.status_code)
        if response.status_code == 400:
            assert param in response.json()
            assert "read passports" in str(response.json()[param])


@pytest.mark.django_db
def test_passport_filters_keep_to_the_passports_staff_read():
    """National staff filter their federation's people by passport expiry; a person of another federation they see
    (as team manager of an entry rostering him) is matched by no passport of his."""
    from rest_framework.test import APIClient

    from accounts.models import Role
    from tests.factories import FederationFactory, PassportFactory, PersonFactory, RoleAssignmentFactory

    world = World()
    own = world["passport_a"]
    user = make_user("national_staff_a", world)
    other_fed = FederationFactory(name="Federation C")
    outsider = PersonFactory(federation=other_fed)
    PassportFactory(person=outsider, expiry_date=own.expiry_date)
    RoleAssignmentFactory(user=user, role=Role.TEAM_MANAGER, federation=world["fed_a"])
    world["entry_a"].managers.add(user)
    from tests.factories import RosterEntryFactory

    RosterEntryFactory(entry=world["entry_a"], person=outsider, number="5")
    client = APIClient()
    client.force_authenticate(user)
    url = reverse("federation-api:person-list")
    assert outsider.pk in {row["id"] for row in client.get(url).json()["results"]}
    after = (own.expiry_date - datetime.timedelta(days=1)).isoformat()
    found = {row["id"] for row in client.get(url, {"passport_expiry_after": after}).json()["results"]}
    assert own.person_id in found
    assert outsider.pk not in found


@pytest.mark.django_db
def test_no_admin_filter_sidebar_names_a_draft_to_who_does_not_direct_it():
    """Issue 23: a draft is no such thing for anyone but its directors, in the admin's filter sidebars too (a
    related filter used to offer every championship of the table)."""
    from django.contrib import admin

    from tests.test_permission_matrix import STAFF_B

    world = World()
    draft = world["draft"]
    draft.name = "Secret Draft Cup 2031"
    draft.save()
    world["draft_entry"], world["draft_game"], world["entry_a"]  # rows that point to the draft, and a visible one
    client = Client()
    client.force_login(make_user(STAFF_B, world))
    opened = 0
    for model in admin.site._registry:
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        response = client.get(url)
        if response.status_code != 200:
            continue
        opened += 1
        assert "Secret Draft Cup 2031" not in response.content.decode(), url
    assert opened >= 5
