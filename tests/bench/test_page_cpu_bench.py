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

import time

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from tests.factories import PassportFactory, PersonFactory, RosterEntryFactory, SuperuserFactory, TeamEntryFactory

pytestmark = [pytest.mark.bench, pytest.mark.django_db]

REQUESTS = 20
CACHED_TARGET = 3.0
STAFF_TARGET = 10.0
ROWS = 100


def _world() -> dict:
    """Three slices of the query-count test's world (tests/test_query_counts.py), then 100 rows of each staff list."""
    from discipline.models import Protest, Suspension
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
    for model in (Protest, Suspension):
        first = model.objects.order_by("pk").first()
        copies = []
        for _ in range(ROWS - model.objects.count()):
            copy = model.objects.get(pk=first.pk)
            copy.pk = None
            copies.append(copy)
        model.objects.bulk_create(copies)
    return world


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
    urls = {
        "people": reverse("federation:person-list"),
        "roster (entry page)": reverse("tournaments:entry-detail", args=[world["first"]["entry"].pk]),
        "entries": reverse("tournaments:entries", args=[world["championship"].pk]),
        "protests": reverse("discipline:protest-list"),
        "suspensions": reverse("discipline:championship-suspensions", args=[world["championship"].pk]),
    }
    for model in admin.site._registry:
        name = f"{model._meta.app_label}_{model._meta.model_name}"
        urls[f"admin {name}"] = reverse(f"admin:{name}_changelist")
    return urls


def test_public_pages_from_the_cache_and_staff_lists_against_the_home_page(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    world = _world()
    anonymous, staff = Client(), Client()
    staff.force_login(SuperuserFactory())
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
    for name, url in _staff_urls(world).items():
        staff.get(url)
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
