"""The OpenAPI schema is the contract: every operation, called by every role, answers within it.

Schemathesis generates requests from the served schema (``/api/v1/schema/``) and
sends them to the WSGI application with an API token (knox), for each role
of ``accounts.models.Role`` plus the anonymous caller and the superuser. A
seeded world (federations, people, passports, waivers, equipment, device
requests, a championship with entries, rosters, pools, games, summaries and a
bracket) gives every path parameter real ids, so detail and write operations
reach real objects and the access layer, not only 404s.

For every operation and role: each real id (list operations: no parameter)
is called once as it is, then a bounded number of generated requests with
fitting data (positive) and with data that breaks the schema (negative);
the generation is derandomized, so each run sends the same requests. Every
role also sends each operation's Unicode twins (issue 23): a generated request
whose every query value and body value is a number in other digits (``²``,
``٣``, ``١٢``, a clock time ``٣:٠٠``) or a string with a NUL, and one whose path
ids are such digits. Checks:
no 5xx, a documented status code, a documented content type, a body that
conforms to the documented schema. Writes are fuzzed too: each request runs
in a savepoint rolled back afterwards, so nothing leaks into the next one.

The figures (operations, requests, failures) are printed for each role (``-s``)
and recorded as test properties.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import itertools
import time
from collections import Counter
from dataclasses import dataclass, field

import hypothesis
import pytest
import schemathesis
from django.contrib.auth.hashers import make_password
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.core.failures import FailureGroup

from accounts.models import ApiToken, Role, RoleAssignment
from federation.models import DeviceRequestStatus
from portal.filters import MAX_ID
from tests.factories import (
    ChampionshipFactory,
    EligibilityWaiverFactory,
    EquipmentInspectionFactory,
    EquipmentModelFactory,
    FederationFactory,
    InternationalFederationFactory,
    PassportFactory,
    PoolFactory,
    PoolTeamFactory,
    ProtectiveDeviceRequestFactory,
    RinkFactory,
    SuperuserFactory,
    TeamEntryFactory,
    UserFactory,
    WaiverRequestFactory,
    jpeg_upload,
)

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
# Requests generated per operation, once for all roles; on top of them each role reads every real object
# (and an id nobody has) of every read operation.
POSITIVE_EXAMPLES = 3
NEGATIVE_EXAMPLES = 2
# Each role sends this many of them, in turn: every generated request is sent by several roles.
PER_ROLE = {True: 1, False: 1}
# Issue 23: what the Unicode twins put in: numbers in other digits (``str.isdigit()`` is true of ``²``, ``int()``
# then fails; ``int()`` reads ``٣`` as 3), a clock time in them, and NUL characters.
UNICODE_DIGITS = ["²", "٣", "١٢", "٣:٠٠", "²:00", "１"]
WITH_NUL = ["\x00", "1\x00", "a\x00b"]
PASSWORD = "conformance-password"  # pragma: allowlist secret

ANON = "anonymous"
SUPERUSER = "superuser"
NATIONAL_STAFF = "national_staff"
DIRECTOR = "championship_director"
TEAM_MANAGER = "team_manager"
IHTC_EXECUTIVE = "ihtc_executive"
GAME_OFFICIAL = "game_official"
DISCIPLINE_COMMITTEE = "discipline_committee"
ROLES = [ANON, SUPERUSER, NATIONAL_STAFF, DIRECTOR, TEAM_MANAGER, IHTC_EXECUTIVE, GAME_OFFICIAL, DISCIPLINE_COMMITTEE]


def test_every_role_of_accounts_is_fuzzed():
    """A role added to accounts gets a run here (federation staff: national staff and the director)."""
    covered = {NATIONAL_STAFF: Role.FEDERATION_STAFF, DIRECTOR: Role.FEDERATION_STAFF}
    covered |= {name: Role(name) for name in ROLES if name in Role.values}
    assert set(covered.values()) == set(Role)


# --- the world --------------------------------------------------------------------------------------------------


@dataclass
class World:
    """Real ids for every path parameter, by the collection the path names."""

    ids: dict[str, list[int]] = field(default_factory=dict)

    def real(self, collection: str, turn: int) -> int:
        """One of the collection's real ids, in turn."""
        ids = self.ids[collection]
        return ids[turn % len(ids)]


def _summaries(game, home_line, away_line, keepers):
    from tournaments.models import GoalkeeperRecord, GoalRecord, PenaltyRecord

    GoalRecord.objects.create(
        game=game, entry=game.home, scorer=home_line.person, assist=None, period=1, time_tenths=600
    )
    PenaltyRecord.objects.create(
        game=game,
        entry=game.away,
        person=away_line.person,
        infraction_code="tripping",
        minutes=2,
        period=1,
        time_tenths=500,
        gives_power_play=True,
    )
    for entry, keeper in zip((game.home, game.away), keepers, strict=True):
        GoalkeeperRecord.objects.create(
            game=game, entry=entry, goalkeeper=keeper.person, shots_against=12, saves=11, goals_against=1
        )


def _discipline_records(championship, line) -> dict[str, list[int]]:
    """A final game's match penalty (its incident report and provisional suspension), a confidential report, a case
    decided with no action and its appeal to the General Assembly (discipline, R-53, R-54); a protest of the team
    (9.1) with its fee due, deadlines, history and a file."""
    from django.utils import timezone

    from discipline import appeals, cases
    from discipline.services import receive_game_consequences
    from games.models import GameOfficial, OfficialAccount
    from tests.discipline.protest_helpers import stored_protest
    from tests.factories import PersonFactory, RoleAssignmentFactory, UserFactory, game_consequence
    from tournaments.models import Game, GameStatus

    game = Game.objects.filter(championship=championship, status=GameStatus.FINAL, home=line.entry).first()
    receive_game_consequences(game=game, consequences=[game_consequence(game, line.person)])
    referee, login = PersonFactory(is_referee=True), UserFactory()
    RoleAssignmentFactory(user=login, role=Role.GAME_OFFICIAL)
    OfficialAccount.objects.create(person=referee, user=login)
    GameOfficial.objects.create(game=game, person=referee, duty="referee", position=1, assigned_at=game.start_at)
    confidential = cases.file_confidential_report(game=game, kind="referee", text="Confidential.", by=login)
    committee = UserFactory()
    RoleAssignmentFactory(user=committee, role=Role.DISCIPLINE_COMMITTEE)
    case = cases.open_case(reports=list(game.incident_reports.all()), title="Match penalty", by=committee)
    decision = cases.decide_case(case=case, outcome="no_action", reasons="No action.", by=committee)
    appeal = appeals.file_appeal(decision=decision, level="general_assembly", grounds="Grounds.", by=committee)
    protest = stored_protest(game, line.entry, committee, at=timezone.now(), attachment=jpeg_upload())
    return {
        "protests": [protest.pk],
        "incident-reports": list(game.incident_reports.values_list("pk", flat=True)),
        "confidential-reports": [confidential.pk],
        "cases": [case.pk],
        "decisions": [decision.pk],
        "appeals": [appeal.pk],
    }


def _webhooks(federation) -> dict[str, list[int]]:
    """A's webhook endpoint, with a failed delivery in its log."""
    from webhooks.models import Delivery, DeliveryStatus, Endpoint, EventType

    endpoint = Endpoint.objects.create(
        federation=federation, url="https://hooks.example.org/a", event_types=[EventType.GAME_FINAL]
    )
    delivery = Delivery.objects.create(
        endpoint=endpoint,
        event_id="33333333-3333-4333-8333-333333333333",
        event_type=EventType.GAME_FINAL,
        subject="game:1",
        payload={"data": {}},
        status=DeliveryStatus.FAILED,
        attempts=1,
        response_code=500,
    )
    return {"webhooks": [endpoint.pk], "webhook-deliveries": [delivery.pk]}


def build_world() -> World:
    """Two national federations (A enters the championship), an international sanctioning body, and what they own."""
    from tournaments import services as tournament_services
    from tournaments.models import Game, GameStatus, GoalRecord, PenaltyRecord

    from .tournaments.conftest import full_roster, round_robin_games

    fed_a, fed_b = FederationFactory(name="Federation A"), FederationFactory(name="Federation B")
    body = InternationalFederationFactory(name="Sanctioning body")
    championship = ChampionshipFactory(sanctioning_body=body)
    RinkFactory(venue=championship.venue, name="Main rink")
    pools, entries = [], []
    for name, federation in (("A", fed_a), ("B", fed_b)):
        pool = PoolFactory(championship=championship, name=name)
        PoolTeamFactory(pool=pool, seed=1, entry=TeamEntryFactory(championship=championship, federation=federation))
        PoolTeamFactory(pool=pool, seed=2)
        pools.append(pool)
    rosters = {}
    for pool in pools:
        pool_entries, games = round_robin_games(pool)
        entries += pool_entries
        for entry in pool_entries:
            rosters[entry.pk] = full_roster(entry, skaters=3, goalkeepers=1)
        if pool.name == "A":  # pool A is played, pool B's game is still to come
            for game in games.values():
                Game.objects.filter(pk=game.pk).update(
                    status=GameStatus.FINAL, home_goals=1, away_goals=0, decided_in="regulation"
                )
                home, away = rosters[game.home_id], rosters[game.away_id]
                _summaries(game, home[0], away[0], (home[-1], away[-1]))
    entry_a = entries[0]
    tournament_services.bracket_generate(championship=championship, qualifiers=2, by=SuperuserFactory())

    person_a = rosters[entry_a.pk][0].person
    passports = [
        PassportFactory(person=person_a, scan=jpeg_upload(), scan_content_type="image/jpeg"),
        PassportFactory(person=rosters[entry_a.pk][1].person),
    ]
    requests = [
        ProtectiveDeviceRequestFactory(person=person_a),
        ProtectiveDeviceRequestFactory(
            person=person_a, status=DeviceRequestStatus.REJECTED, decision_reason="Metal parts", prescription=None
        ),
    ]
    # Officials and line-ups (games): a neutral referee on pool B's game (still to come), and A's line-up for it.
    from games import services as game_services
    from games.models import Lineup, LineupPlayer
    from tests.factories import PersonFactory

    upcoming = Game.objects.filter(championship=championship, status=GameStatus.SCHEDULED).order_by("number").first()
    neutral = FederationFactory(name="Federation C")
    assignment = game_services.official_assign(
        game=upcoming,
        person=PersonFactory(federation=neutral, is_referee=True),
        duty="referee",
        by=SuperuserFactory(),
        now=upcoming.start_at - datetime.timedelta(days=1),
    )
    lineup = Lineup.objects.create(game=upcoming, entry=upcoming.home, submitted_at=upcoming.start_at)
    for line in rosters[upcoming.home_id]:
        LineupPlayer.objects.create(lineup=lineup, person=line.person, number=line.number, position=line.position)

    discipline = _discipline_records(championship, rosters[entry_a.pk][0])

    world = World()
    world.ids = {
        **discipline,
        "game-officials": [assignment.pk],
        "lineups": [lineup.pk],
        "game-readiness": [upcoming.pk],
        "federations": [fed_a.pk, body.pk],
        "people": [person_a.pk],
        "passports": [p.pk for p in passports],
        "eligibility-waivers": [EligibilityWaiverFactory(person=person_a).pk],
        "waiver-requests": [WaiverRequestFactory(person=person_a).pk],
        "equipment-models": [
            EquipmentModelFactory().pk,
            EquipmentModelFactory(approved=False, approved_on=None, certifications=["CSA"]).pk,
        ],
        "equipment-inspections": [EquipmentInspectionFactory(person=person_a).pk],
        "device-requests": [r.pk for r in requests],
        "venues": [championship.venue_id],
        "rinks": list(championship.venue.rinks.values_list("pk", flat=True)),
        "championships": [championship.pk],
        "entries": [entry_a.pk, entries[-1].pk],
        "roster-entries": [rosters[entry_a.pk][0].pk, rosters[entry_a.pk][-1].pk],
        "pools": [p.pk for p in pools],
        "games": list(Game.objects.filter(championship=championship).order_by("number").values_list("pk", flat=True)),
        "goals": list(GoalRecord.objects.values_list("pk", flat=True)[:1]),
        "penalties": list(PenaltyRecord.objects.values_list("pk", flat=True)[:1]),
        **_webhooks(fed_a),
    }
    world.fed_a, world.body, world.entry_a = fed_a, body, entry_a
    return world


def make_user(role: str, world: World):
    """The caller of ``role``; every one sends an API token of its own (``api_token``)."""
    if role == ANON:
        return None
    if role == SUPERUSER:
        user = SuperuserFactory()
    else:
        user = UserFactory(is_staff=role in (NATIONAL_STAFF, DIRECTOR, IHTC_EXECUTIVE))
        scope = {NATIONAL_STAFF: world.fed_a, DIRECTOR: world.body, TEAM_MANAGER: world.fed_a}.get(role)
        kind = Role.FEDERATION_STAFF if role in (NATIONAL_STAFF, DIRECTOR) else Role(role)
        RoleAssignment.objects.create(user=user, role=kind, federation=scope)
        if role == TEAM_MANAGER:
            world.entry_a.managers.add(user)
    user.password = make_password(PASSWORD)
    user.save(update_fields=["password"])
    return user


def api_token(user) -> str:
    """A new API token of ``user``, as the "API tokens" page makes it (the API accepts no password)."""
    _, token = ApiToken.objects.create(user=user, name="schema conformance")
    return token


# --- the run ----------------------------------------------------------------------------------------------------


@dataclass
class Figures:
    operations: int = 0
    requests: int = 0
    unicode: int = 0
    statuses: Counter = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Generated:
    """A generated request, kept as its parts: each role's world gives it real ids before it is sent."""

    positive: bool
    path_parameters: dict
    query: dict
    headers: dict
    cookies: dict
    body: object
    media_type: str | None
    multipart_content_types: dict | None


def _generate(operation, mode: GenerationMode, examples: int) -> list[Generated]:
    found: list[Generated] = []

    @hypothesis.settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[hypothesis.Phase.generate],
        suppress_health_check=list(hypothesis.HealthCheck),
        verbosity=hypothesis.Verbosity.quiet,
    )
    @hypothesis.given(case=operation.as_strategy(mode))
    def collect(case):
        found.append(
            Generated(
                positive=mode is GenerationMode.POSITIVE,
                path_parameters=dict(case.path_parameters or {}),
                query=dict(case.query or {}),
                headers={k: v for k, v in (case.headers or {}).items() if k.lower() != "authorization"},
                cookies={},
                body=case.body,
                media_type=case.media_type,
                multipart_content_types=case.multipart_content_types,
            )
        )

    # Unsatisfiable: nothing breaks this operation's schema (no parameter, no body); its real-id calls stand.
    with contextlib.suppress(hypothesis.errors.Unsatisfiable):
        collect()
    return found


def _replaced(value, values):
    """``value`` with every number and string in it (keys kept) replaced by the next of ``values``."""
    if isinstance(value, dict):
        return {key: _replaced(item, values) for key, item in value.items()}
    if isinstance(value, list):
        return [_replaced(item, values) for item in value] or [next(values)]
    if isinstance(value, bool) or value is None or isinstance(value, bytes):
        return value
    return next(values)


def _body_fields(operation, media_type: str | None) -> list[str]:
    """The fields the operation's body documents for ``media_type``."""
    for body in operation.body:
        if body.media_type == media_type:
            schema = body.resolved_schema or {}
            return list(schema.get("schema", schema).get("properties", {}))
    return []


def unicode_twins(operation, generated: list[Generated]) -> list[Generated]:
    """The Unicode twins of an operation's first generated request (issue 23): every query parameter and body field
    the schema documents given a number in other digits, then a string with a NUL (the generated body's nested
    values too); and, when its path has parameters, those as other digits."""
    if not generated:
        return []
    first = generated[0]
    twins = []
    for values in (UNICODE_DIGITS, WITH_NUL):
        cycle = itertools.cycle(values)
        query = {parameter.name: next(cycle) for parameter in operation.query}
        body = _replaced(first.body, cycle) if isinstance(first.body, (dict, list, str)) else first.body
        if isinstance(body, dict):
            body |= {name: next(cycle) for name in _body_fields(operation, first.media_type) if name not in body}
        twins.append(dataclasses.replace(first, positive=True, query=query, body=body))
    if first.path_parameters:
        cycle = itertools.cycle(UNICODE_DIGITS)
        path = {name: next(cycle) for name in first.path_parameters}
        twins.append(dataclasses.replace(first, positive=False, path_parameters=path))
    return twins


@pytest.fixture(scope="module")
def api_schema(django_db_blocker):
    from portal.wsgi import application

    with django_db_blocker.unblock():
        schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", application)
    # The role's credentials are the only ones sent: no generated Authorization header or session cookie.
    # Any Unicode text and NUL characters in generated strings (schemathesis's defaults, said here: issue 23).
    schema.config.generation.update(with_security_parameters=False, deterministic=True, allow_x00=True, codec="utf-8")
    return schema


@pytest.fixture(scope="module")
def generated(api_schema):
    """The generated requests of every operation, once for all roles (the same requests for each), and its Unicode
    twins (``unicode_twins``), which every role sends."""
    cases, cpu = {}, time.process_time()
    for result in api_schema.get_all_operations():
        operation = result.ok()
        positive = _generate(operation, GenerationMode.POSITIVE, POSITIVE_EXAMPLES)
        cases[operation.label] = (
            operation,
            positive + _generate(operation, GenerationMode.NEGATIVE, NEGATIVE_EXAMPLES),
            unicode_twins(operation, positive),
        )
    count = sum(len(generated) + len(twins) for _, generated, twins in cases.values())
    twins = sum(len(twins) for _, _, twins in cases.values())
    print(
        f"\nschema conformance: {count} requests generated ({twins} Unicode twins) for {len(cases)} operations, "
        f"{time.process_time() - cpu:.1f} s CPU"
    )
    return cases


@pytest.fixture
def wsgi_in_test_transaction(settings):
    """Requests sent to the WSGI app keep the test's connection (and transaction), as Django's test client does.

    A fast hasher keeps the roles' logins' passwords from dominating the run.
    """
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def _collection(path: str) -> str:
    return path.split("/")[3]  # /api/v1/<collection>/...


# Body fields that name an object: a positive request names a real one, so it reaches the services' rules.
BODY_IDS = {
    "person": "people",
    "scorer": "people",
    "assist": "people",
    "goalkeeper": "people",
    "federation": "federations",
    "parent": "federations",
    "championship": "championships",
    "entry": "entries",
    "forfeited_by": "entries",
    "game": "games",
    "venue": "venues",
    "rink": "rinks",
    "sanctioning_body": "federations",
}


# Path parameters that name the object of the path's collection (/api/games/{game_id}/sheet/: a game).
ID_PARAMETERS = ("id", "game_id")


def _path_id(path: str) -> str | None:
    return next((name for name in ID_PARAMETERS if "{" + name + "}" in path), None)


def _is_id(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_ID


def _with_real_ids(item: Generated, world: World, collection: str, turn: int) -> dict:
    """The request's parts, its ids replaced by the world's (a negative request keeps an id that is not one)."""
    path_parameters = dict(item.path_parameters)
    for name in ID_PARAMETERS:
        if name in path_parameters and (item.positive or _is_id(path_parameters[name])):
            path_parameters[name] = world.real(collection, turn)
    body = item.body
    if item.positive and isinstance(body, dict):
        body = {
            key: world.real(BODY_IDS[key], turn) if key in BODY_IDS and _is_id(value) else value
            for key, value in body.items()
        }
    return {
        "path_parameters": path_parameters,
        "query": item.query,
        "headers": item.headers,
        "body": body,
        "media_type": item.media_type,
        "multipart_content_types": item.multipart_content_types,
    }


def _send(case, headers: dict, figures: Figures) -> None:
    """Send ``case`` in a savepoint rolled back afterwards; record the answer and what the checks found."""
    with transaction.atomic():
        try:
            response = case.call(headers=headers)
        finally:
            transaction.set_rollback(True)
    figures.requests += 1
    figures.statuses[response.status_code] += 1
    try:
        case.validate_response(response, checks=CHECKS, headers=headers)
    except FailureGroup as group:
        for failure in group.exceptions:
            figures.failures.append(
                f"{case.operation.label} {case.path_parameters or ''} -> {response.status_code}: "
                f"{failure.title}: {failure.message[:300]}\n  {case.as_curl_command(headers=headers)[:400]}"
            )


@pytest.mark.django_db(transaction=False)
@pytest.mark.parametrize("role", ROLES)
def test_every_operation_answers_within_the_schema(role, generated, wsgi_in_test_transaction, record_property):
    started, cpu = time.perf_counter(), time.process_time()
    world = build_world()
    user = make_user(role, world)
    headers = {}
    if user is not None:
        headers["Authorization"] = f"Token {api_token(user)}"
    figures = Figures()

    turn = ROLES.index(role)
    for operation, cases, twins in generated.values():
        figures.operations += 1
        collection = _collection(operation.path)
        if operation.method.upper() == "GET":
            if name := _path_id(operation.path):
                for pk in [*world.ids[collection], MAX_ID]:
                    _send(operation.Case(path_parameters={name: pk}), headers, figures)
            else:
                _send(operation.Case(), headers, figures)
        for positive, count in PER_ROLE.items():
            kind = [item for item in cases if item.positive is positive]
            for i in range(min(count, len(kind))):
                item = kind[(turn * count + i) % len(kind)]
                _send(operation.Case(**_with_real_ids(item, world, collection, turn + i)), headers, figures)
        for item in twins:
            figures.unicode += 1
            _send(operation.Case(**_with_real_ids(item, world, collection, turn)), headers, figures)

    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    for name, value in (
        ("operations", figures.operations),
        ("requests", figures.requests),
        ("unicode_requests", figures.unicode),
        ("failures", len(figures.failures)),
    ):
        record_property(name, value)
    print(
        f"\nschema conformance [{role}]: {figures.operations} operations, {figures.requests} requests "
        f"({figures.unicode} Unicode twins), "
        f"{len(figures.failures)} failures, statuses {dict(sorted(figures.statuses.items()))}, {elapsed:.1f} s ({cpu:.1f} s CPU)"
    )
    assert figures.operations >= 70
    assert not figures.failures, "\n".join(figures.failures)
