"""The home page per role (issue 12, "A home for each role"): one function per section, each returning plain
data built from the owning app's selectors and access functions (no second version of any access rule)."""

import datetime

from django.db.models import Count, Prefetch, Q
from django.utils import timezone

from accounts.models import Role
from accounts.roles import has_role, manages_entries, staff_federation_ids
from discipline.access import cases_visible_to, is_committee, protests_visible_to
from discipline.models.protests import Deadline, DeadlineStatus
from discipline.selectors import open_matters_by_championship, report_queue, suspension_list
from federation.access import device_requests_visible_to
from federation.models import DeviceRequestStatus
from federation.selectors import passports_expiring
from games import services as game_services
from games.access import can_enter_game_events
from games.models import GameOfficial, Lineup
from tournaments.facts import venue_today
from tournaments.models import EntryStatus, Game, GameStatus, TeamEntry
from tournaments.selectors import (
    entries_managed_by,
    roster_eligibility_problems,
    roster_statuses,
    visible_championships,
)

# Each list of the home shows at most this many rows (the pages it links to show the rest).
ROWS = 20
# Entries that no longer play (8.1 C): nothing waits on them.
CLOSED_ENTRY_STATUSES = (EntryStatus.WITHDRAWN, EntryStatus.DISQUALIFIED)


def _not_finished_q(now, prefix: str = "") -> Q:
    """Championships whose last day may not be over anywhere yet (the venue's day is checked afterwards)."""
    return Q(**{f"{prefix}end_date__gte": (now - datetime.timedelta(days=1)).date()})


def manager_section(user) -> dict | None:
    """A team manager's running protest deadlines (countdowns as on the protest page) and their people's
    suspensions in force."""
    if not manages_entries(user):
        return None
    managed = user.managed_entries.values("pk")
    deadlines = list(
        Deadline.objects.filter(
            protest__in=protests_visible_to(user).filter(entry__in=managed), status=DeadlineStatus.OPEN
        )
        .select_related("protest__entry", "protest__game__championship__venue")
        .order_by("due_at", "pk")
    )
    suspensions = list(suspension_list(user, filters={"status": "active"})[0].filter(entry__in=managed))
    now = timezone.now()
    entries = list(
        user.managed_entries.filter(_not_finished_q(now, "championship__"))
        .exclude(status__in=CLOSED_ENTRY_STATUSES)
        .select_related("championship__venue")
        .order_by("championship__start_date", "name", "pk")[:ROWS]
    )
    statuses = roster_statuses(entries, now=now)
    rosters = [{"entry": e, "roster": statuses[e.pk]} for e in entries]
    return {
        "deadlines": deadlines,
        "suspensions": suspensions,
        "rosters": rosters,
        "lineups_due": _lineups_due(entries, now),
    }


def _lineups_due(entries, now) -> list[dict]:
    """The next games of the entries that have not started (5.1 C) and for which the team gave no line-up yet."""
    by_pk = {e.pk: e for e in entries}
    games = (
        Game.objects.filter(Q(home__in=by_pk) | Q(away__in=by_pk), status=GameStatus.SCHEDULED, start_at__gt=now)
        .select_related("championship__venue", "home", "away")
        .prefetch_related(Prefetch("lineups", queryset=Lineup.objects.only("pk", "game_id", "entry_id")))
        .order_by("start_at", "pk")[:ROWS]
    )
    rows = []
    for game in games:
        if game_services.game_has_started(game, now=now):
            continue
        given = {lineup.entry_id for lineup in game.lineups.all()}
        for entry_id in (game.home_id, game.away_id):
            if entry_id in by_pk and entry_id not in given:
                rows.append({"game": game, "entry": by_pk[entry_id]})
    return rows


def official_section(user) -> dict | None:
    """A game official's next games, one row per game with every duty held in it, as "My games" lists them."""
    person_id = game_services.official_person_id(user)
    if person_id is None:
        return None
    rows: dict[int, dict] = {}
    for a in (
        GameOfficial.objects.filter(person_id=person_id, game__start_at__gte=timezone.now())
        .select_related("game__championship__venue", "game__championship__sanctioning_body", "game__home", "game__away")
        .order_by("game__start_at", "game__number", "duty")
    ):
        if a.game_id not in rows and len(rows) == 10:
            break
        row = rows.setdefault(a.game_id, {"game": a.game, "duties": []})
        row["duties"].append(a)
    for row in rows.values():
        game = row["game"]
        # The console opens once both teams are known (R-10), to the officials' table (4.3-4.5).
        row["console"] = (
            game.home_id is not None
            and game.away_id is not None
            and can_enter_game_events(user, game, duties=[a.duty for a in row["duties"]])
        )
    return {"games": list(rows.values())}


def committee_section(user) -> dict | None:
    """The discipline committee's open incident reports (oldest first, with deadline) and open cases."""
    if not is_committee(user):
        return None
    return {
        "reports": list(report_queue(user)[:20]),
        "cases": list(cases_visible_to(user).exclude(status="decided").order_by("pk")[:20]),
    }


def federation_staff_section(user) -> dict | None:
    """Federation staff: what waits for them in their own federation(s): players on the rosters of the
    championships they are entered in now who are not eligible for that championship (1.1 B-G, R-01..R-03),
    passports expiring soon, protective device requests waiting (3.2.8 C), entries with the fee unpaid or the
    roster not confirmed (1.1 A)."""
    ids = staff_federation_ids(user)
    if not ids:
        return None
    now = timezone.now()
    entered = (
        TeamEntry.objects.filter(_not_finished_q(now, "championship__"), federation_id__in=ids)
        .exclude(status__in=CLOSED_ENTRY_STATUSES)
        .select_related("championship", "federation")
        .order_by("championship__start_date", "name", "pk")
    )
    problems = [
        {"person": line.person, "entry": line.entry, "reasons": result.reasons}
        for line, result in roster_eligibility_problems(list(entered))[:ROWS]
    ]
    requests = list(
        device_requests_visible_to(user)
        .filter(person__federation_id__in=ids, status=DeviceRequestStatus.SUBMITTED)
        .select_related("person")
        .order_by("submitted_at", "pk")[:ROWS]
    )
    entries = list(
        entries_managed_by(user)
        .filter(_not_finished_q(now, "championship__"), federation_id__in=ids)
        .exclude(status__in=CLOSED_ENTRY_STATUSES)
        .select_related("championship__venue")
        .order_by("championship__start_date", "name", "pk")
    )
    statuses = roster_statuses(entries, now=now)
    waiting = [
        {"entry": e, "roster": statuses[e.pk], "fee_unpaid": e.status == EntryStatus.ENTERED}
        for e in entries
        if e.status == EntryStatus.ENTERED or not statuses[e.pk].confirmed
    ][:ROWS]
    return {
        "problems": problems,
        "passports": list(passports_expiring(user, ids)[:ROWS]),
        "device_requests": requests,
        "entries": waiting,
    }


def executive_section(user) -> dict | None:
    """The IHTC executive: each championship running or next at a glance: entries by status, fees unpaid, the
    games of the venue's today with their status, the discipline cases and protests still open."""
    if not has_role(user, Role.IHTC_EXECUTIVE):
        return None
    now = timezone.now()
    candidates = visible_championships(user).filter(_not_finished_q(now)).select_related("venue")
    championships = [
        c for c in candidates.order_by("start_date", "pk")[: ROWS + 1] if venue_today(c, now) <= c.end_date
    ]
    championships = championships[:5]
    ids = [c.pk for c in championships]
    entries = {pk: {"by_status": {}, "unpaid": 0} for pk in ids}
    for row in (
        TeamEntry.objects.filter(championship__in=ids)
        .values("championship_id", "status")
        .annotate(n=Count("pk"), unpaid=Count("pk", filter=Q(fee_paid=False)))
    ):
        entries[row["championship_id"]]["by_status"][row["status"]] = row["n"]
        if row["status"] not in CLOSED_ENTRY_STATUSES:
            entries[row["championship_id"]]["unpaid"] += row["unpaid"]
    today_q = Q(pk__in=[])
    for c in championships:
        day = venue_today(c, now)
        start = datetime.datetime.combine(day, datetime.time.min, tzinfo=c.venue.zone)
        today_q |= Q(championship=c, start_at__gte=start, start_at__lt=start + datetime.timedelta(days=1))
    games = {pk: [] for pk in ids}
    for game in (
        Game.objects.filter(today_q)
        .select_related("championship__venue", "home", "away")
        .order_by("start_at", "number")
    ):
        games[game.championship_id].append({"game": game})
    matters = open_matters_by_championship(user, ids)
    rows = []
    for c in championships:
        counts = entries[c.pk]["by_status"]
        rows.append(
            {
                "championship": c,
                "entries": [(label, counts.get(value, 0)) for value, label in EntryStatus.choices],
                "unpaid": entries[c.pk]["unpaid"],
                "games_today": games[c.pk],
                "today": venue_today(c, now),
                "open_cases": matters[c.pk]["cases"],
                "open_protests": matters[c.pk]["protests"],
            }
        )
    return {"championships": rows}


def sections_for(user) -> dict:
    if not user.is_authenticated:
        return {}
    return {
        "manager": manager_section(user),
        "official": official_section(user),
        "committee": committee_section(user),
        "federation_staff": federation_staff_section(user),
        "executive": executive_section(user),
        "server_now": timezone.now(),
    }
