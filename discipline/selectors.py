"""What the committee's pages and the API list, each in a constant number of queries."""

from __future__ import annotations

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.http import QueryDict

from accounts.models import User
from discipline.access import cases_visible_to, incident_reports_visible_to, protests_visible_to
from discipline.filters import SuspensionFilter
from discipline.models import CaseStatus, IncidentReport, ReportStatus, Suspension
from discipline.models.protests import CLOSED_STATUSES
from discipline.suspensions import suspensions_visible_to
from portal.filters import query_parameter_errors
from tournaments.models import Game, GameStatus


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
