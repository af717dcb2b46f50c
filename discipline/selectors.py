"""What the committee's pages and the API list, each in a constant number of queries."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db.models import Count, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.http import QueryDict

from accounts.models import User
from discipline.access import cases_visible_to, incident_reports_visible_to, protests_visible_to
from discipline.filters import SuspensionFilter
from discipline.models import Case, CaseStatus, IncidentReport, Protest, ReportStatus, Suspension
from discipline.models.protests import CLOSED_STATUSES
from discipline.suspensions import suspensions_visible_to
from games.models import Lineup, LineupPlayer, SheetEvent
from portal.filters import query_parameter_errors
from tournaments.models import Championship, Game, GameStatus, RosterEntry, TeamOfficial

# How many cases the list shows at most (the newest first); the search and filters narrow it.
CASE_LIST_LIMIT = 200
_GAME_NUMBER = re.compile(r"#?(\d{1,6})")


def report_queue(user: User) -> QuerySet[IncidentReport]:
    """Open reports, oldest first, each with its deadline: the start of the person's team's next game, before
    which the committee decides (the provisional suspension stands until then, 7.1)."""
    next_game = Game.objects.filter(
        Q(home_id=OuterRef("entry_id")) | Q(away_id=OuterRef("entry_id")),
        status=GameStatus.SCHEDULED,
        start_at__gt=OuterRef("game__start_at"),
    ).order_by("start_at")
    return (
        incident_reports_visible_to(user)
        .filter(status=ReportStatus.OPEN)
        .select_related("game__championship__venue", "game__home", "game__away", "entry", "person")
        .annotate(deadline=Subquery(next_game.values("start_at")[:1]))
        .order_by("created_at", "pk")
    )


def suspension_list(user: User, *, championship=None, filters=None) -> tuple[QuerySet[Suspension], dict]:
    """The suspensions a user may read (``suspensions_visible_to``), of one championship when given, filtered by
    status, kind and provisional (``SuspensionFilter``), and the filters' errors by parameter (a value outside the
    choices: the list is then unfiltered by it)."""
    qs = suspensions_visible_to(user)
    if championship is not None:
        qs = qs.filter(championship=championship)
    errors: dict[str, list[str]] = {}
    if filters:
        params = filters if isinstance(filters, QueryDict) else _query(filters)
        filterset = SuspensionFilter(params, queryset=qs)
        errors = query_parameter_errors(filterset, params)
        if not errors:
            qs = filterset.qs
    return _listed(qs), errors


def _query(values: dict) -> QueryDict:
    params = QueryDict(mutable=True)
    params.update(values)
    return params


def championship_suspensions(championship) -> QuerySet[Suspension]:
    """Every suspension imposed in ``championship``, as its staff's list shows them (``suspension_list``): for
    whoever ``suspensions.can_see_suspensions_of`` lets see the championship's suspensions."""
    return _listed(Suspension.objects.filter(championship=championship))


def _listed(qs: QuerySet[Suspension]) -> QuerySet[Suspension]:
    return (
        qs.select_related("person", "championship__venue", "entry", "offence_game", "decision")
        .annotate(served_count=Count("served_games"))
        .order_by("-imposed_at", "pk")
    )


def open_matters_by_championship(user: User, championship_ids: list[int]) -> dict[int, dict[str, int]]:
    """For each championship, how many of the cases and protests the user may see are still open (the
    executive's home), in two queries whatever their number."""
    counts = {pk: {"cases": 0, "protests": 0} for pk in championship_ids}
    cases = (
        cases_visible_to(user)
        .filter(championship__in=championship_ids)
        .exclude(status=CaseStatus.DECIDED)
        .values("championship_id")
        .annotate(n=Count("pk"))
    )
    for row in cases:
        counts[row["championship_id"]]["cases"] = row["n"]
    protests = (
        protests_visible_to(user)
        .filter(game__championship__in=championship_ids)
        .exclude(status__in=CLOSED_STATUSES)
        .values("game__championship_id")
        .annotate(n=Count("pk"))
    )
    for row in protests:
        counts[row["game__championship_id"]]["protests"] = row["n"]
    return counts


def case_championships(user: User) -> QuerySet[Championship]:
    """The championships of the cases ``user`` may see: the case list's championship filter, in one query."""
    return Championship.objects.filter(pk__in=cases_visible_to(user).values("championship_id")).order_by(
        "-start_date", "name"
    )


def _case_word(word: str) -> Q:
    """What one search word matches in a case: its title, a person of its reports or sanctions, a team of its
    reports or protests (or their games), a game number ("12" or "#12") or the case's own number."""
    names = ("first_name__icontains", "last_name__icontains")
    q = Q(title__icontains=word)
    for path in ("incident_reports__person__", "decision__suspensions__person__"):
        for name in names:
            q |= Q(**{path + name: word})
    for path in (
        "incident_reports__entry__name",
        "protests__entry__name",
        "protests__incident",  # the incident as the protest names it: "Goal by Spain, P1 12:29 (#8 FAVRE)"
        "incident_reports__game__home__name",
        "incident_reports__game__away__name",
        "protests__game__home__name",
        "protests__game__away__name",
        "championship__name",
    ):
        q |= Q(**{path + "__icontains": word})
    number = _GAME_NUMBER.fullmatch(word)
    if number:
        n = int(number.group(1))
        q |= Q(pk=n) | Q(incident_reports__game__number=n) | Q(protests__game__number=n)
    return q


def case_list(user: User, *, q: str = "", status: str = "", championship: int | None = None) -> QuerySet[Case]:
    """The cases ``user`` may see (R-53), newest first: every word of ``q`` must match (``_case_word``);
    ``status`` is a case status or ``pending`` (open or with a hearing set); ``championship`` an id. In a constant
    number of queries: the reports, protests, decision and its sanctions come prefetched."""
    cases = cases_visible_to(user)
    if status == "pending":
        cases = cases.exclude(status=CaseStatus.DECIDED)
    elif status:
        cases = cases.filter(status=status)
    if championship:
        cases = cases.filter(championship_id=championship)
    for word in q.split()[:8]:
        cases = cases.filter(pk__in=Case.objects.filter(_case_word(word)).values("pk"))
    return (
        cases.select_related("championship__venue", "decision")
        .prefetch_related(
            Prefetch(
                "incident_reports",
                queryset=IncidentReport.objects.select_related("game__home", "game__away", "person", "entry"),
            ),
            Prefetch("protests", queryset=Protest.objects.select_related("game__home", "game__away", "entry")),
            Prefetch("decision__suspensions", queryset=Suspension.objects.select_related("person")),
        )
        .order_by("-opened_at", "-pk")[:CASE_LIST_LIMIT]
    )


def case_rows(cases) -> list[dict]:
    """Each case of ``case_list`` with what the list shows of it, from the prefetched rows (no query): its games,
    its people (of its reports and sanctions) and its teams, each once, in the order met."""
    rows = []
    for case in cases:
        games: dict[int, Game] = {}
        people: dict[int, object] = {}
        teams: dict[int, object] = {}
        for report in case.incident_reports.all():
            games.setdefault(report.game_id, report.game)
            if report.person_id:
                people.setdefault(report.person_id, report.person)
            teams.setdefault(report.entry_id, report.entry)
        for protest in case.protests.all():
            games.setdefault(protest.game_id, protest.game)
            teams.setdefault(protest.entry_id, protest.entry)
        decision = getattr(case, "decision", None)
        if decision is not None:
            for suspension in decision.suspensions.all():
                people.setdefault(suspension.person_id, suspension.person)
        rows.append(
            {
                "case": case,
                "games": list(games.values()),
                "people": list(people.values()),
                "teams": list(teams.values()),
            }
        )
    return rows


@dataclass(frozen=True)
class Candidate:
    """A person the committee may sanction in a case, as the decision form offers them: "#8 FAVRE Jean (Spain)"."""

    person_id: int
    label: str
    group: str  # "named": on a report or a protest's incident; "lineup": on a line-up of a game of the case


def _number_key(number: str) -> tuple[int, int, str]:
    """Players first, in number order (5 before 36), the text kept for the odd one."""
    return (0, int(number), number) if number.isdigit() else (0, 10_000, number)


def _role_key(role: str) -> tuple[int, int, str]:
    """Team officials after the players, by role."""
    return (1, 0, role)


def sanction_candidates(case: Case) -> list[Candidate]:
    """The people of ``case`` (R-53, 8.2) the decision form offers: first those named on its incident reports and
    on its protests' incidents (the sheet entry's player, assistants, the one serving), then the players and team
    officials of its games' line-ups (or the team's roster where no line-up was given), by team and in number
    order. Each person once, with number and team, never an id; in a constant number of queries."""
    reports = list(case.incident_reports.select_related("game", "person", "entry"))
    protests = list(case.protests.select_related("game__home", "game__away", "entry"))
    games = {r.game_id: r.game for r in reports} | {p.game_id: p.game for p in protests}
    teams = {}
    for game in games.values():
        for team in (game.home, game.away):
            if team is not None:
                teams[team.pk] = team
    for report in reports:
        teams.setdefault(report.entry_id, report.entry)
    # Who wore which number for which team in which game: the line-up, else the team's roster.
    numbers: dict[tuple[int, int, str], int] = {}
    lineup_rows: list[tuple[int, tuple, int, str]] = []  # (entry, sort, person, label)
    lined_up: set[tuple[int, int]] = set()
    lineups = Lineup.objects.filter(game_id__in=games).prefetch_related(
        Prefetch("players", queryset=LineupPlayer.objects.select_related("person")),
        "bench_officials__person",
        "bench_officials__team_official",
    )
    for lineup in lineups:
        lined_up.add((lineup.game_id, lineup.entry_id))
        team = teams.get(lineup.entry_id)
        for line in lineup.players.all():
            numbers[(lineup.game_id, lineup.entry_id, line.number)] = line.person_id
            lineup_rows.append((lineup.entry_id, _number_key(line.number), line.person_id,
                                f"#{line.number} {line.person} ({team})"))  # fmt: skip
        for official in lineup.bench_officials.all():
            role = official.team_official.get_role_display()
            lineup_rows.append(
                (lineup.entry_id, _role_key(role), official.person_id, f"{official.person} ({team}, {role})")
            )
    missing = {entry for game in games.values() for entry in (game.home_id, game.away_id)
               if entry is not None and (game.pk, entry) not in lined_up}  # fmt: skip
    roster = RosterEntry.objects.filter(entry_id__in=missing).select_related("person") if missing else []
    for line in roster:
        for game in games.values():
            if line.entry_id in (game.home_id, game.away_id) and (game.pk, line.entry_id) not in lined_up:
                numbers.setdefault((game.pk, line.entry_id, line.number), line.person_id)
        lineup_rows.append((line.entry_id, _number_key(line.number), line.person_id,
                            f"#{line.number} {line.person} ({teams.get(line.entry_id)})"))  # fmt: skip
    officials = TeamOfficial.objects.filter(entry_id__in=missing).select_related("person") if missing else []
    for official in officials:
        role = official.get_role_display()
        lineup_rows.append((official.entry_id, _role_key(role), official.person_id,
                            f"{official.person} ({teams.get(official.entry_id)}, {role})"))  # fmt: skip
    labels = {person: label for _, _, person, label in lineup_rows}

    named: dict[int, str] = {}
    for report in reports:
        if report.person_id:
            named.setdefault(report.person_id, labels.get(report.person_id) or f"{report.person} ({report.entry})")
    event_ids = [p.incident_event_id for p in protests if p.incident_event_id]
    events = SheetEvent.objects.filter(event_id__in=event_ids).values("event_id", "payload", "sheet__game_id")
    by_event = {row["event_id"]: row for row in events} if event_ids else {}
    for protest in protests:
        row = by_event.get(protest.incident_event_id)
        if row is None:
            continue
        payload, game = row["payload"], games.get(row["sheet__game_id"])
        side = payload.get("team")
        entry_id = getattr(game, f"{side}_id", None) if game is not None and side in ("home", "away") else None
        assists = payload.get("assists") or ([payload["assist"]] if payload.get("assist") else [])
        for number in [payload.get("player"), payload.get("served_by"), *assists]:
            person = numbers.get((row["sheet__game_id"], entry_id, str(number))) if number not in (None, "") else None
            if person is not None:
                named.setdefault(person, labels[person])
    candidates = [Candidate(person, label, "named") for person, label in named.items()]
    seen = set(named)
    order = sorted(lineup_rows, key=lambda r: (str(teams.get(r[0], "")), r[1]))
    for _, _, person, label in order:
        if person not in seen:
            seen.add(person)
            candidates.append(Candidate(person, label, "lineup"))
    return candidates
