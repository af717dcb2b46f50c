"""Search across people, teams, games and championships (issue 12: "search across people, teams and games").

One box for the whole site: each word of the query must match (a name's part, a team's name or country code, a
game's number). Every list comes through its owning app's access layer, so a search never finds what its person
could not open: people through ``federation.access.people_visible_to`` (via ``federation.selectors.person_list``),
teams, games and championships through ``tournaments.selectors`` (published championships, drafts for their
directors). A fixed number of queries whatever the data: one per kind, each cut at ``LIMIT`` rows (one more is
read to say that there are more).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet

from common.numbers import whole_number_or_none
from federation.access import can_see_people
from federation.selectors import person_list
from portal.filters import MAX_ID
from tournaments.models import Championship, Game, TeamEntry
from tournaments.selectors import of_visible_championships, visible_championships

LIMIT = 20
# Longer queries are cut here: a search box is not a place for a page of text.
MAX_QUERY = 100


@dataclass(frozen=True)
class Found:
    """One kind's rows (at most LIMIT) and whether there were more."""

    rows: list
    more: bool


@dataclass(frozen=True)
class SearchResults:
    query: str
    people: Found | None  # None: the person may see nobody (the people list is not theirs)
    teams: Found
    games: Found
    championships: Found

    @property
    def empty(self) -> bool:
        kinds = [self.teams, self.games, self.championships, *([self.people] if self.people else [])]
        return not any(found.rows for found in kinds)


def _found(queryset: QuerySet) -> Found:
    rows = list(queryset[: LIMIT + 1])
    return Found(rows=rows[:LIMIT], more=len(rows) > LIMIT)


def _words(query: str) -> list[str]:
    return query[:MAX_QUERY].split()


def _teams(user, words: list[str]) -> QuerySet[TeamEntry]:
    teams = of_visible_championships(TeamEntry.objects.select_related("championship", "federation"), user)
    for word in words:
        teams = teams.filter(
            Q(name__icontains=word) | Q(federation__name__icontains=word) | Q(federation__short_name__iexact=word)
        )
    return teams.order_by("-championship__start_date", "name", "pk")


def _games(user, words: list[str]) -> QuerySet[Game]:
    games = of_visible_championships(Game.objects.select_related("championship", "home", "away"), user)
    for word in words:
        match = Q(home__name__icontains=word) | Q(away__name__icontains=word)
        if (number := whole_number_or_none(word.lstrip("#"), maximum=MAX_ID)) is not None:
            match |= Q(number=number)
        games = games.filter(match)
    return games.order_by("-championship__start_date", "start_at", "number", "pk")


def _championships(user, words: list[str]) -> QuerySet[Championship]:
    championships = visible_championships(user).select_related("venue")
    for word in words:
        championships = championships.filter(Q(name__icontains=word) | Q(venue__city__icontains=word))
    return championships.order_by("-start_date", "name", "pk")


def site_search(user, query: str) -> SearchResults:
    """What ``user`` may open that matches every word of ``query``: people, teams, games, championships."""
    words = _words(query)
    if not words:
        none = Found(rows=[], more=False)
        return SearchResults(query="", people=none if can_see_people(user) else None, teams=none, games=none,
                             championships=none)  # fmt: skip
    people = _found(person_list(user, search=" ".join(words))) if can_see_people(user) else None
    return SearchResults(
        query=" ".join(words),
        people=people,
        teams=_found(_teams(user, words)),
        games=_found(_games(user, words)),
        championships=_found(_championships(user, words)),
    )
