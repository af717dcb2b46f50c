"""Benchmark: the CPU of the public pages, cached and not, and of the staff lists, against the home page (issue 27).

Run with `pytest tests/bench/test_page_cpu_bench.py -m bench -s` (or `make bench`). In one run, on one world, each
page is read ``REQUESTS`` times with the test client (WSGI in-process) and its CPU time per request
(``time.process_time``: the web process's own time; with SQLite the database's work is in it too) is divided by
the anonymous home page's. The world: one championship of three pools (9 teams, 9 final games with goal, penalty
and goalkeeper lines, line-ups, officials, protests, match penalties and their suspensions), and, for the staff
lists, 100 rows each: people with passports, roster lines, protests and suspensions.

- **Public pages and their API answers**, read by an anonymous viewer: ``cached`` is a hit (the championship's data
  version unchanged since the page was rendered); ``uncached`` renders it (a new cache namespace each request).
  Target: a cached hit costs at most 3x the home page.
- **Staff lists** (the superuser, who sees every row): the people, the roster, the protests, the suspensions, and
  every admin list (changelist: 100 rows a page). Target: at most 10x the home page.

The figures are in docs/operations.md ("Public pages from a cache").
"""

from __future__ import annotations

import datetime
import itertools
import os
import time
import uuid

import pytest
from django.contrib import admin
from django.db import models
from django.db.models import Max
from django.test import Client
from django.urls import reverse

from tests.factories import PassportFactory, PersonFactory, RosterEntryFactory, SuperuserFactory, TeamEntryFactory

pytestmark = [pytest.mark.bench, pytest.mark.django_db, pytest.mark.timeout(3600)]

# BENCH_REQUESTS=5 for a quicker, noisier look.
REQUESTS = int(os.environ.get("BENCH_REQUESTS", "20"))
CACHED_TARGET = 3.0
STAFF_TARGET = 10.0
ROWS = 100


def _world() -> dict:
    """Three slices of the query-count test's world (tests/test_query_counts.py); the staff lists' rows come later."""
    from tests.factories import ChampionshipFactory, FederationFactory, UserFactory
    from tests.test_query_counts import _slice

    world: dict = {
        "championship": ChampionshipFactory(published=True),
        "fed_a": FederationFactory(name="Federation A"),
        "manager": UserFactory(),
    }
    for n in (1, 2, 3):
        _slice(world, n)
    people = [PersonFactory(federation=world["fed_a"]) for _ in range(ROWS)]
    for person in people:
        PassportFactory(person=person)
    # 100 roster lines: seven teams of Federation A (each in its own championship), 15 players each.
    for start in range(0, ROWS, 15):
        entry = TeamEntryFactory(federation=world["fed_a"])
        for number, person in enumerate(people[start : start + 15], start=1):
            RosterEntryFactory(entry=entry, person=person, number=str(number))
    world["superuser"] = SuperuserFactory()
    return world


def _fill_staff_lists(world: dict) -> None:
    """100 rows or more in every admin list and staff list (after the public pages are measured: their world is the
    slices' championship as played)."""
    from accounts.models import Role, RoleAssignment
    from discipline.models import Protest, Suspension
    from tests.factories import ChampionshipFactory
    from tournaments.models import Game

    superuser = world["superuser"]
    _spare["championship"] = ChampionshipFactory(name="Spare rows").pk
    _seed(world)
    empty = [
        m._meta.label for m in (*admin.site._registry, *_list_models(), *_own_models()) if not m._base_manager.exists()
    ]
    assert not empty, empty
    for model in (Protest, Suspension, *admin.site._registry, *_list_models()):
        # The copies of a game go to the spare championship: the world's bracket and schedule stay as played.
        _fill(model, spare=model is Game)
    # The teams' logins list the team managers' roles.
    _fill(RoleAssignment, role=Role.TEAM_MANAGER)
    # The lists of one's own records: the superuser's API tokens and notifications.
    for model in _own_models():
        _fill(model, user=superuser)


def _seed(world: dict) -> None:
    """A first row of each admin list the slices leave empty (copied up to 100 rows by ``_fill``)."""
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog
    from django.contrib.auth.models import Group
    from django.utils import timezone

    from accounts.models import Invitation, Role
    from discipline.models import Attachment, Case, CaseStatement, ServedGame, Suspension
    from games.models import ConsoleSignIn, GameSheet, SheetEvent, SheetSnapshot
    from portal.models import WorkerHeartbeat
    from reports.models import Document
    from tournaments.models import (
        Disqualification,
        NumberChangeApproval,
        Pool,
        ResultAmendment,
        RosterEntry,
        StandingsShootout,
    )

    now, by = timezone.now(), world["superuser"]
    game, entry = world["first"]["game"], world["first"]["entry"]
    Group.objects.create(name="Statisticians")
    visit = {"user_agent": "Firefox", "ip_address": "192.0.2.1", "username": "someone", "http_accept": "*/*"}
    AccessAttempt.objects.create(
        **visit, path_info="/accounts/login/", get_data="", post_data="", failures_since_start=1
    )
    AccessLog.objects.create(**visit, path_info="/accounts/login/")
    AccessFailureLog.objects.create(**visit, path_info="/accounts/login/")
    WorkerHeartbeat.objects.create(worker="celery@web1", first_seen=now, last_seen=now, beats=3)
    line = RosterEntry.objects.filter(entry=entry).first()
    NumberChangeApproval.objects.create(
        roster_entry=line, old_number=line.number, new_number="77", reason="Torn shirt", approved_by=by, approved_at=now
    )
    ResultAmendment.objects.create(game=game, amended_by=by, amended_at=now, reason="Typo", before={}, after={})
    Disqualification.objects.create(entry=entry, reason="Left the rink", game=game, at=now, recorded_by=by)
    StandingsShootout.objects.create(pool=Pool.objects.first(), entered_by=by, entered_at=now)
    sheet = GameSheet.objects.create(game=game, teams={}, game_type="round_robin", opened_at=now, opened_by=by)
    SheetEvent.objects.create(
        sheet=sheet, event_id=uuid.uuid4(), sequence=1, payload={"type": "clock_start"}, entered_by=by,
        device="table-1", received_at=now, device_time=now,
    )  # fmt: skip
    SheetSnapshot.objects.create(sheet=sheet, period=1, sequence=1, state={}, taken_at=now)
    ConsoleSignIn.objects.create(game=game, duty="timekeeper", device="table-1", user=by, signed_in_at=now)
    case = Case.objects.order_by("pk").first()
    CaseStatement.objects.create(case=case, author=by, text="The player's account.", made_at=now)
    Attachment.objects.create(
        case=case, file="discipline/statement.pdf", content_type="application/pdf", uploaded_by=by, uploaded_at=now
    )
    ServedGame.objects.create(
        suspension=Suspension.objects.order_by("pk").first(), game=game, entry=entry, counted_at=now
    )
    Document.objects.create(kind="game_report", object_id=game.pk, version="1", version_label="1", requested_at=now)
    Invitation.objects.create(
        email="manager@example.org", role=Role.TEAM_MANAGER, federation=world["fed_a"], token_digest="0" * 64,
        invited_by=by, created_at=now, expires_at=now + datetime.timedelta(days=7),
    )  # fmt: skip


def _list_models() -> list:
    """The records of the staff list pages that no admin list holds."""
    from accounts.models import Invitation
    from federation.models import WaiverRequest
    from webhooks.models import Delivery, Endpoint

    return [WaiverRequest, Invitation, Endpoint, Delivery]


def _own_models() -> list:
    from accounts.models import ApiToken
    from portal.models import Notification

    return [ApiToken, Notification]


_copies = itertools.count(1)


def _unique_sets(model) -> list[tuple]:
    """The field sets that must differ between two rows of ``model`` (unique fields and unique constraints)."""
    opts = model._meta
    sets = [(field,) for field in opts.concrete_fields if field.unique and not isinstance(field, models.AutoField)]
    names = [constraint.fields for constraint in opts.constraints if isinstance(constraint, models.UniqueConstraint)]
    names += list(opts.unique_together)
    sets += [tuple(opts.get_field(name) for name in fields) for fields in names if fields]
    return sets


# Where the copies made only to be distinct targets of another table's relation go (``_fill(..., spare=True)``):
# a championship of their own, so that the world's championship and its teams keep lists of about 100 rows.
_spare: dict = {}


def _spare_values(model) -> dict:
    """The values of a spare copy: its championship the spare one, a game's teams not yet known."""
    from tournaments.models import Championship, Game

    values = {
        field.attname: _spare["championship"]
        for field in model._meta.concrete_fields
        if field.is_relation and field.related_model is Championship
    }
    if model is Game:
        values |= {"home_id": None, "away_id": None}
    return values


def _fill(model, rows: int = ROWS, *, spare: bool = False, **same) -> None:
    """Copy the first row of ``model`` until the table holds ``rows`` rows (``same``: values every copy takes).

    Each copy changes one field of each unique set: a text gets a suffix, a number counts on from the table's
    largest, a relation points to a record no other row points to (the related table filled first), else it is
    left empty.
    """
    manager = model._base_manager
    wanted = rows if not same else rows - manager.filter(**same).count()
    if not same:
        wanted -= manager.count()
    if wanted <= 0:
        return
    first = manager.order_by("pk").first()
    assert first is not None, f"no {model._meta.label} in the world to copy"
    # Every field but a generated key (a token's key is its digest: copied, then made unique).
    fields = [field for field in model._meta.concrete_fields if not isinstance(field, models.AutoField)]
    plans = {}
    for unique in _unique_sets(model):
        if any(field.name in plans for field in unique):
            continue
        field = _varied(unique, first)
        if field is None:
            continue
        if field.is_relation:
            targets = field.related_model._base_manager
            used = manager.exclude(**{f"{field.attname}__isnull": True}).values(field.attname)
            short = wanted - targets.exclude(pk__in=used).count()
            if short > 0:
                _fill(field.related_model, rows=targets.count() + short, spare=True)
            free = list(targets.exclude(pk__in=used).order_by("pk").values_list("pk", flat=True)[:wanted])
            plans[field.name] = (field, free)
        elif isinstance(field, models.UUIDField):
            plans[field.name] = (field, [uuid.uuid4() for _ in range(wanted)])
        elif isinstance(field, (models.IntegerField, models.DecimalField)):
            start = (manager.aggregate(top=Max(field.attname))["top"] or 0) + 1
            plans[field.name] = (field, [start + i for i in range(wanted)])
        elif isinstance(field, models.CharField | models.TextField) and not field.choices:
            base = getattr(first, field.attname) or ""
            values = []
            for _ in range(wanted):
                suffix = f"~{next(_copies)}"
                values.append(base[: (field.max_length or 10**6) - len(suffix)] + suffix)
            plans[field.name] = (field, values)
        else:
            plans[field.name] = (field, [None if field.null else ""] * wanted)
    copies = []
    for i in range(wanted):
        copy = model(**{field.attname: getattr(first, field.attname) for field in fields})
        for name, value in (_spare_values(model) if spare else {}).items():
            setattr(copy, name, value)
        for name, value in same.items():
            setattr(copy, name, value)
        for field, values in plans.values():
            setattr(copy, field.attname, values[i])
        copies.append(copy)
    manager.bulk_create(copies)


def _varied(unique: tuple, first):
    """The field of a unique set whose copies differ (None if the copied row leaves one empty: no two rows are
    equal there): a free text, else a number, else a relation, else an optional field, left empty."""
    if any(getattr(first, field.attname) is None for field in unique):
        return None
    for kinds in ((models.CharField, models.TextField, models.UUIDField), (models.IntegerField, models.DecimalField)):
        for field in unique:
            if isinstance(field, kinds) and not field.is_relation and not field.choices:
                return field
    return next((field for field in unique if field.is_relation), unique[0])


def _cpu(client: Client, url: str, *, before=None) -> float:
    """CPU seconds per request of ``url`` over REQUESTS requests (``before`` runs ahead of each, not counted)."""
    spent = 0.0
    for _ in range(REQUESTS):
        if before is not None:
            before()
        start = time.process_time()
        response = client.get(url)
        spent += time.process_time() - start
        assert response.status_code == 200, (url, response.status_code)
    return spent / REQUESTS


def _public_urls(world: dict) -> dict[str, str]:
    ch = world["championship"].pk
    entry, game = world["first"]["entry"].pk, world["first"]["game"].pk
    final_game = world["championship"].games.filter(status="final").order_by("pk").first().pk
    return {
        "overview": reverse("tournaments:championship-detail", args=[ch]),
        "schedule": reverse("tournaments:schedule", args=[ch]),
        "results": reverse("tournaments:results", args=[ch]),
        "standings": reverse("tournaments:standings", args=[ch]),
        "bracket": reverse("tournaments:bracket", args=[ch]),
        "leaders": reverse("tournaments:leaders", args=[ch]),
        "team": reverse("tournaments:team", args=[entry]),
        "game (box score)": reverse("reports:game-page", args=[final_game]),
        "game live": reverse("games:game-live", args=[game]),
        "arena": reverse("games:game-arena", args=[game]),
        "championship live": reverse("games:championship-live", args=[ch]),
        "API championship": reverse("tournaments-api:championship-detail", args=[ch]),
        "API standings": reverse("tournaments-api:championship-standings", args=[ch]),
        "API statistics": reverse("tournaments-api:championship-statistics", args=[ch]),
        "API games of the championship": reverse("tournaments-api:game-list") + f"?championship={ch}",
        "API game": reverse("tournaments-api:game-detail", args=[final_game]),
    }


def _staff_urls(world: dict) -> dict[str, str]:
    """Every staff list page (the apps' list views) and every admin list, each of 100 rows or more."""
    ch = world["championship"].pk
    urls = {
        "people": reverse("federation:person-list"),
        "waiver requests": reverse("federation:waiver-queue"),
        "approvals": reverse("federation:approvals"),
        "championships": reverse("tournaments:championship-list"),
        "entries": reverse("tournaments:entries", args=[ch]),
        "roster (entry page)": reverse("tournaments:entry-detail", args=[world["first"]["entry"].pk]),
        "officials' assignments": reverse("games:assignments", args=[_spare["championship"]]),
        "protests": reverse("discipline:protest-list"),
        "incident reports (queue)": reverse("discipline:queue"),
        "cases": reverse("discipline:cases"),
        "suspensions": reverse("discipline:championship-suspensions", args=[ch]),
        "suspensions (all)": reverse("discipline:suspensions"),
        "API tokens": reverse("accounts:tokens"),
        "team logins": reverse("accounts:logins"),
        "webhook endpoints": reverse("webhooks:endpoints"),
        "webhook deliveries": reverse("webhooks:deliveries"),
        "notifications": reverse("notifications"),
    }
    for model in admin.site._registry:
        name = f"{model._meta.app_label}_{model._meta.model_name}"
        urls[f"admin {name}"] = reverse(f"admin:{name}_changelist")
    return urls


def test_public_pages_from_the_cache_and_staff_lists_against_the_home_page(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    world = _world()
    anonymous, staff = Client(), Client()
    staff.force_login(world["superuser"])
    home = reverse("home")
    for client, url in ((anonymous, home), (staff, home)):
        client.get(url)  # warm: templates, translations, content types
    home_cpu = _cpu(anonymous, home)

    rows = []
    misses = iter(range(10**9))

    def new_namespace():
        settings.PAGE_CACHE_NAMESPACE = f"bench-miss-{next(misses)}"

    for name, url in _public_urls(world).items():
        anonymous.get(url)  # warm the code path
        uncached = _cpu(anonymous, url, before=new_namespace)
        settings.PAGE_CACHE_NAMESPACE = "bench"
        anonymous.get(url)  # the render the viewers after it share
        cached = _cpu(anonymous, url)
        rows.append(("public", name, cached, uncached))
    _fill_staff_lists(world)
    for name, url in _staff_urls(world).items():
        response = staff.get(url)
        if name.startswith("admin "):
            assert response.context["cl"].result_count >= ROWS, (name, response.context["cl"].result_count)
        rows.append(("staff", name, _cpu(staff, url), None))

    print(f"\nCPU per request, {REQUESTS} requests each; anonymous home page {home_cpu * 1000:.1f} ms = 1x")
    print(f"| {'page':<44} | cached | uncached | ms (cached/staff) |")
    print(f"| {'-' * 44} | ------ | -------- | ----------------- |")
    for kind, name, cpu, uncached in rows:
        ratio = f"{cpu / home_cpu:.1f}x"
        if kind == "public":
            print(f"| {name:<44} | {ratio:>6} | {uncached / home_cpu:>7.1f}x | {cpu * 1000:>17.1f} |")
        else:
            print(f"| {name:<44} | {ratio:>6} | {'(staff)':>8} | {cpu * 1000:>17.1f} |")
    slow_public = {name: round(cpu / home_cpu, 1) for kind, name, cpu, _ in rows if kind == "public"}
    slow_public = {name: ratio for name, ratio in slow_public.items() if ratio > CACHED_TARGET}
    slow_staff = {name: round(cpu / home_cpu, 1) for kind, name, cpu, _ in rows if kind == "staff"}
    slow_staff = {name: ratio for name, ratio in slow_staff.items() if ratio > STAFF_TARGET}
    assert not slow_public, f"cached public pages above {CACHED_TARGET}x the home page: {slow_public}"
    assert not slow_staff, f"staff lists above {STAFF_TARGET}x the home page: {slow_staff}"
