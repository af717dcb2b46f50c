"""Every list endpoint and list page runs the same number of queries on a world three times larger (issue 13).

The lists come from the project itself, so a new one fails here until it has its entry:
- API: every GET operation of the OpenAPI schema that answers a list (an array, or a page with ``results``);
  its path parameter takes a real id of the world, by the collection the path names (as the conformance test).
- Pages: every GET page route outside the admin and the API is either in ``LIST_PAGES`` (with its URL) or in
  ``NOT_LIST_PAGES`` (one object, a form, an action, a file or a document; the reason beside each group).
- Admin: every registered model's list page (changelist).

The world is one championship grown in slices: each slice adds, to the same championship, federation A and
venue, a pool of three entries of new federations with their rosters (people with passports), three played
games with goals, penalties and goalkeeper records, a match penalty (its incident report and provisional
suspension), a confidential referee's report, a case decided with its appeal, a protest with a file, an
official's assignment and a line-up, people of federation A with passports, waivers, inspections and device
requests, an equipment model and a rink. Each URL is counted (as the superuser, who sees every row) on one
slice and again on three; the counts must be equal.
"""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import URLResolver, get_resolver, reverse

from accounts.models import ApiToken, Role
from tests.factories import (
    EligibilityWaiverFactory,
    EquipmentInspectionFactory,
    EquipmentModelFactory,
    FederationFactory,
    PassportFactory,
    PersonFactory,
    PoolFactory,
    PoolTeamFactory,
    ProtectiveDeviceRequestFactory,
    RinkFactory,
    RoleAssignmentFactory,
    SuperuserFactory,
    TeamEntryFactory,
    UserFactory,
    jpeg_upload,
)

# Page routes that show a list, and the URL of each in the world (``w``: the names of the world's objects).
LIST_PAGES = {
    "home": lambda w: reverse("home"),
    "accounts:tokens": lambda w: reverse("accounts:tokens"),
    "accounts:logins": lambda w: reverse("accounts:logins"),
    "notifications": lambda w: reverse("notifications"),
    "search": lambda w: reverse("search") + "?q=a",
    "federation:person-list": lambda w: reverse("federation:person-list"),
    "federation:waiver-queue": lambda w: reverse("federation:waiver-queue"),
    "federation:approvals": lambda w: reverse("federation:approvals"),
    "federation:person-export": lambda w: reverse("federation:person-export", args=["xlsx"]),
    "tournaments:championship-list": lambda w: reverse("tournaments:championship-list"),
    "tournaments:championship-detail": lambda w: reverse("tournaments:championship-detail", args=[w["ch"]]),
    "tournaments:schedule": lambda w: reverse("tournaments:schedule", args=[w["ch"]]),
    "tournaments:results": lambda w: reverse("tournaments:results", args=[w["ch"]]),
    "tournaments:standings": lambda w: reverse("tournaments:standings", args=[w["ch"]]),
    "tournaments:bracket": lambda w: reverse("tournaments:bracket", args=[w["ch"]]),
    "tournaments:leaders": lambda w: reverse("tournaments:leaders", args=[w["ch"]]),
    "tournaments:entries": lambda w: reverse("tournaments:entries", args=[w["ch"]]),
    "tournaments:my-entries": lambda w: reverse("tournaments:my-entries"),
    "tournaments:entry-detail": lambda w: reverse("tournaments:entry-detail", args=[w["entry"]]),
    # A team's public page (its roster grows with each slice) and a final game's box score (its teams' lists).
    "tournaments:team": lambda w: reverse("tournaments:team", args=[w["entry"]]),
    "reports:game-page": lambda w: reverse("reports:game-page", args=[w["game"]]),
    # The federations offered (every national one, to the superuser) and the roster as a file (it grows a slice).
    "tournaments:entry-create": lambda w: reverse("tournaments:entry-create", args=[w["ch"]]),
    "tournaments:roster-export": lambda w: reverse("tournaments:roster-export", args=[w["entry"], "csv"]),
    "games:my-games": lambda w: reverse("games:my-games"),
    "games:championship-live": lambda w: reverse("games:championship-live", args=[w["ch"]]),
    "games:assignments": lambda w: reverse("games:assignments", args=[w["ch"]]),
    "discipline:protest-list": lambda w: reverse("discipline:protest-list"),
    "discipline:my-protests": lambda w: reverse("discipline:my-protests"),
    "discipline:queue": lambda w: reverse("discipline:queue"),
    "discipline:cases": lambda w: reverse("discipline:cases") + "?status=decided",
    "discipline:championship-suspensions": lambda w: reverse("discipline:championship-suspensions", args=[w["ch"]]),
    "discipline:suspensions": lambda w: reverse("discipline:suspensions"),
    # A federation's webhook endpoints and their delivery log (one more of each a slice).
    "webhooks:endpoints": lambda w: reverse("webhooks:endpoints"),
    "webhooks:deliveries": lambda w: reverse("webhooks:deliveries"),
}

NOT_LIST_PAGES = {
    # Sign-in, sign-out and the language switch: forms.
    "login",
    "logout",
    "set_language",
    # The site icon: a redirect to its static file.
    "favicon",
    # The scripts' strings in one language (portal.i18n): a file, no database.
    "javascript-catalogue",
    # One game's two line-ups: bounded by the roster's size (3.1.1), not by the world.
    "games:lineups",
    # Actions (POST) and forms of one object.
    "notifications-read",
    "accounts:token-revoke",
    "accounts:signing-pin",  # one login's signing PIN: a form
    # One login's profile and password, the reset pages (one link each) and an invitation's page: forms.
    "accounts:profile",
    "accounts:password-change",
    "accounts:password-change-done",
    "accounts:password-reset",
    "accounts:password-reset-done",
    "accounts:password-reset-confirm",
    "accounts:password-reset-complete",
    "accounts:invitation",
    "accounts:role-revoke",
    "tournaments:entry-invite",  # one entry's invitation form, its managers and pending invitations
    "discipline:protest-appeal-lodge",  # a form of one protest
    "federation:person-register",
    "federation:person-edit",
    "federation:passport-add",
    "federation:passport-renew",
    "federation:person-merge-confirm",  # two records side by side (one count per kind of record: the schema's)
    "federation:person-merge",  # the duplicates of one person and a search, each capped at 20 candidates
    "federation:waiver-request-create",
    "federation:waiver-request-decide",
    "federation:approvals-device-decide",
    "federation:approvals-equipment-decide",
    "tournaments:championship-create",
    "tournaments:championship-edit",
    "tournaments:championship-publish",
    "tournaments:championship-publish-confirm",  # what publishing shows: one championship's counts
    "tournaments:schedule-generate",
    "tournaments:bracket-manage",
    "tournaments:entry-fee-paid",
    "tournaments:game-manage",
    "tournaments:standings-shootout",
    "tournaments:roster-add",
    "tournaments:roster-confirm",
    "tournaments:roster-import",
    "tournaments:official-add",
    "tournaments:roster-line-edit",
    "tournaments:roster-remove",
    "tournaments:roster-import-template",  # a file of one header row, the same for every roster
    "games:lineup-edit",
    "games:sheet-sign",
    "games:sheet-amend",
    "games:sheet-rescue",
    "discipline:protest-file",
    "discipline:protest-fee",
    "discipline:protest-review",
    "discipline:protest-decide",
    "discipline:protest-withdraw",
    "discipline:protest-answer",
    "discipline:protest-statement",
    "discipline:protest-open-case",
    "discipline:confidential-file",
    "discipline:appeal-lodge",
    "discipline:appeal-decide",
    "webhooks:endpoint-delete",
    "webhooks:delivery-resend",
    # One object (its page shows that object's own rows: one game, one protest, one report, one case).
    "federation:person-detail",
    "games:console",
    "games:game-live",
    "games:game-arena",
    "games:sheet-log",
    "discipline:protest-detail",
    "discipline:report",
    "discipline:case",
    "discipline:confidential",
    "discipline:appeal",
    # Files: a stored scan, prescription or attachment, and the console's service worker script.
    "federation:passport-scan",
    "federation:device-prescription",
    "discipline:protest-attachment",
    "discipline:attachment",
    "games:console-worker",
}


def _page_routes() -> set[str]:
    """Every named route outside admin/ and api/ (the site's pages), as ``namespace:name``."""
    names = set()

    def walk(patterns, namespace, prefix):
        for pattern in patterns:
            route = prefix + str(pattern.pattern).removeprefix("^")
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, pattern.namespace or namespace, route)
            elif pattern.name and not route.startswith(("admin/", "api/")):
                names.add(f"{namespace}:{pattern.name}" if namespace else pattern.name)

    walk(get_resolver().url_patterns, None, "")
    return names


def test_every_page_is_a_list_page_or_says_why_not():
    routes = _page_routes()
    reports = {name for name in routes if name.startswith("reports:")}  # one document each (its page and PDF)
    unclassified = routes - reports - set(LIST_PAGES) - NOT_LIST_PAGES
    assert not unclassified, f"pages neither in LIST_PAGES nor in NOT_LIST_PAGES: {sorted(unclassified)}"
    assert not (set(LIST_PAGES) | NOT_LIST_PAGES) - routes, "entries for routes that no longer exist"


def _schema_list_operations() -> list[str]:
    """The schema's GET operations that answer a list."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    found = []
    for path, operations in schema["paths"].items():
        answer = operations.get("get", {}).get("responses", {}).get("200", {})
        body = answer.get("content", {}).get("application/json", {}).get("schema", {})
        if "$ref" in body:
            body = schema["components"]["schemas"][body["$ref"].rsplit("/", 1)[-1]]
        if body.get("type") == "array" or "results" in body.get("properties", {}):
            found.append(path)
    return sorted(found)


# --- the world --------------------------------------------------------------------------------------------------


def _slice(world: dict, n: int) -> None:
    """Add one slice (see the module's docstring) to the world's championship and federation A."""
    from discipline.models import Suspension
    from discipline.services import receive_game_consequences
    from games.models import GameOfficial, GameProtestMark, Lineup, LineupPlayer
    from tests.factories import ChampionshipFactory, RosterEntryFactory, WaiverRequestFactory, game_consequence
    from tests.test_api_conformance import _discipline_records, _summaries
    from tests.tournaments.conftest import eligible_person, full_roster, round_robin_games
    from tournaments.models import Game, GameStatus

    championship, fed_a = world["championship"], world["fed_a"]
    pool = PoolFactory(championship=championship, name=f"Pool {n}")
    for seed in (1, 2, 3):
        entry = TeamEntryFactory(championship=championship, federation=FederationFactory())
        PoolTeamFactory(pool=pool, seed=seed, entry=entry)
    entries, games = round_robin_games(pool)
    rosters = {entry.pk: full_roster(entry, skaters=3, goalkeepers=1) for entry in entries}
    for game in games.values():
        Game.objects.filter(pk=game.pk).update(
            status=GameStatus.FINAL, home_goals=1, away_goals=0, decided_in="regulation"
        )
        home, away = rosters[game.home_id], rosters[game.away_id]
        _summaries(game, home[0], away[0], (home[-1], away[-1]))
    # The team manager manages each slice's first entry (its protests, its games' incidents).
    RoleAssignmentFactory(user=world["manager"], role=Role.TEAM_MANAGER, federation=entries[0].federation)
    entries[0].managers.add(world["manager"])
    # The manager's API tokens (accounts.tokens lists a person's own): one more a slice.
    ApiToken.objects.create(user=world["manager"], name=f"script {n}")
    records = _discipline_records(championship, rosters[entries[0].pk][0])
    upcoming = Game.objects.filter(pk=next(iter(games.values())).pk).get()
    GameOfficial.objects.create(
        game=upcoming, person=PersonFactory(is_referee=True), duty="referee", position=2, assigned_at=upcoming.start_at
    )
    lineup = Lineup.objects.create(game=upcoming, entry=upcoming.away, submitted_at=upcoming.start_at)
    for line in rosters[upcoming.away_id]:
        LineupPlayer.objects.create(lineup=lineup, person=line.person, number=line.number, position=line.position)
    # A second match penalty of the slice, its report left in the committee's queue (the first one's has a case).
    second = [g for g in games.values() if g.pk != upcoming.pk][0]
    receive_game_consequences(game=second, consequences=[game_consequence(second, rosters[second.home_id][1].person)])
    GameProtestMark.objects.create(
        game=second, entry=second.away, subject="rink", made_at=second.start_at, recorded_by=world["manager"]
    )
    if "first" in world:  # the first slice's entry and its game get longer too
        first = world["first"]
        RosterEntryFactory(entry=first["entry"], person=eligible_person(first["entry"].federation), number=str(30 + n))
    ChampionshipFactory()  # another championship (and its venue) in the lists of championships and venues
    person = PersonFactory(federation=fed_a)
    WaiverRequestFactory(person=person)
    PassportFactory(person=person, scan=jpeg_upload(), scan_content_type="image/jpeg")
    EligibilityWaiverFactory(person=person)
    EquipmentInspectionFactory(person=person)
    ProtectiveDeviceRequestFactory(person=person)
    EquipmentModelFactory()
    RinkFactory(venue=championship.venue, name=f"Rink {n}")
    _webhook_slice(fed_a, n)
    assert Suspension.objects.filter(person=rosters[entries[0].pk][0].person).exists()
    world.setdefault("first", {"entry": entries[0], "game": upcoming, "records": records})


def _webhook_slice(federation, n: int) -> None:
    """One more endpoint of federation A, with a delivery in its log."""
    from webhooks.models import Delivery, Endpoint, EventType

    endpoint = Endpoint.objects.create(
        federation=federation, url=f"https://hooks.example.org/{n}", event_types=[EventType.GAME_FINAL]
    )
    Delivery.objects.create(
        endpoint=endpoint,
        event_id=f"44444444-4444-4444-8444-{n:012d}",
        event_type=EventType.GAME_FINAL,
        subject=f"game:{n}",
        payload={"data": {}},
    )


def _ids(world: dict) -> dict[str, int]:
    """The id each parameterised URL uses: the championship's and the first slice's objects."""
    first = world["first"]
    return {
        "ch": world["championship"].pk,
        "entry": first["entry"].pk,
        "game": first["game"].pk,
        "championships": world["championship"].pk,
        "entries": first["entry"].pk,
        "games": first["game"].pk,
    }


def _api_url(path: str, ids: dict[str, int]) -> str:
    if "{" not in path:
        return path
    collection = path.split("/")[3]  # /api/v1/<collection>/...
    return path.replace("{id}", str(ids[collection])).replace("{game_id}", str(ids[collection]))


# Lists only a team manager has (the superuser files no protest): counted as the manager of every slice's entry.
TEAM_MANAGER_LISTS = {
    "api /api/v1/games/{game_id}/protest-incidents/",
    "page discipline:my-protests",
    "page accounts:tokens",
}


def _count(client: Client, url: str) -> tuple[int, int, int]:
    """The answer's status, its number of queries, and its size (rows of an API list, bytes of a page)."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    if url.startswith("/api/"):
        body = response.json()
        size = len(body) if isinstance(body, list) else body.get("count", len(body.get("results", [])))
    else:
        size = len(response.content)
    return response.status_code, len(queries.captured_queries), size


@pytest.mark.django_db
def test_every_list_runs_the_same_number_of_queries_on_a_world_three_times_larger(settings, record_property):
    from tests.factories import ChampionshipFactory

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    world: dict = {
        "championship": ChampionshipFactory(),
        "fed_a": FederationFactory(name="Federation A"),
        "manager": UserFactory(),
    }
    _slice(world, 1)
    ids = _ids(world)
    urls = {f"api {path}": _api_url(path, ids) for path in _schema_list_operations()}
    urls |= {f"page {name}": build(ids) for name, build in LIST_PAGES.items()}
    for model in admin.site._registry:
        name = f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist"
        urls[f"page {name}"] = reverse(name)
    superuser, manager = Client(), Client()
    superuser.force_login(SuperuserFactory())
    manager.force_login(world["manager"])
    client = {name: manager if name in TEAM_MANAGER_LISTS else superuser for name in urls}
    for name, url in urls.items():  # once first: caches (content types, sites) are warm for both counts
        client[name].get(url)
    small = {name: _count(client[name], url) for name, url in urls.items()}
    _slice(world, 2)
    _slice(world, 3)
    large = {name: _count(client[name], url) for name, url in urls.items()}

    not_ok = {name: status for name, (status, _, _) in small.items() if status != 200}
    assert not not_ok, f"lists that did not answer 200: {not_ok}"
    grew = {name: (small[name][1], large[name][1]) for name in urls if small[name][1] != large[name][1]}
    record_property("lists", len(urls))
    print(f"\nquery counts: {len(urls)} lists, queries on 1 slice = on 3 slices: ")
    print(", ".join(f"{name} {count}" for name, (_, count, _) in sorted(small.items())))
    assert len(urls) >= 29 + len(LIST_PAGES) + 40
    assert not grew, f"lists whose query count grows with the data (1 slice, 3 slices): {grew}"
    # The lists did grow: every API list but a game's own (its sheet's log, devices and amendments, the incidents
    # a team may protest: tests/games/test_sheet.py counts the log's queries as it grows).
    unchanged = [name for name in urls if name.startswith("api") and large[name][2] <= small[name][2]]
    assert sorted(unchanged) == sorted(name for name in urls if "{game_id}" in name), unchanged
