"""What the committee's pages and the API list, each in a constant number of queries."""

from __future__ import annotations

import re

from django.db.models import Count, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.http import QueryDict

from accounts.models import User
from discipline.access import cases_visible_to, incident_reports_visible_to, protests_visible_to
from discipline.filters import SuspensionFilter
from discipline.models import Case, CaseStatus, IncidentReport, Protest, ReportStatus, Suspension
from discipline.models.protests import CLOSED_STATUSES
from discipline.suspensions import suspensions_visible_to
from portal.filters import query_parameter_errors
from tournaments.models import Championship, Game, GameStatus

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
    # Only the columns the list shows (discipline.list_rows): a page of 100 cases reads about a thousand records.
    game = ("game__number", "game__home__name", "game__away__name")
    return (
        cases.select_related("decision")
        .only(
            "pk",
            "title",
            "title_message",
            "status",
            "hearing_at",
            "opened_at",
            "championship_id",
            "decision__outcome",
            "decision__case_id",
        )
        .prefetch_related(
            # Prefetched, not joined: the cases of one championship share its record (and its venue's time zone).
            Prefetch(
                "championship", queryset=Championship.objects.select_related("venue").only("name", "venue__time_zone")
            ),
            # Lists (to_attr), not managers: reading a prefetched manager builds a queryset per row.
            Prefetch(
                "incident_reports",
                to_attr="listed_reports",
                queryset=IncidentReport.objects.select_related("game__home", "game__away", "person", "entry").only(
                    "case_id", *game, "person__first_name", "person__last_name", "entry__name"
                ),
            ),
            Prefetch(
                "protests",
                to_attr="listed_protests",
                queryset=Protest.objects.select_related("game__home", "game__away", "entry").only(
                    "case_id", *game, "entry__name"
                ),
            ),
            Prefetch(
                "decision__suspensions",
                to_attr="listed_suspensions",
                queryset=Suspension.objects.select_related("person").only(
                    "decision_id", "person__first_name", "person__last_name"
                ),
            ),
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
        for report in case.listed_reports:
            games.setdefault(report.game_id, report.game)
            if report.person_id:
                people.setdefault(report.person_id, report.person)
            teams.setdefault(report.entry_id, report.entry)
        for protest in case.listed_protests:
            games.setdefault(protest.game_id, protest.game)
            teams.setdefault(protest.entry_id, protest.entry)
        decision = getattr(case, "decision", None)
        if decision is not None:
            for suspension in decision.listed_suspensions:
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
