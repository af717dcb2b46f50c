"""A team's public page (issue 25): its roster with the numbers, its games with their results and links to each
finished game's page. Read only, through ``tournaments.selectors``: a team of a published championship is public
(like its roster on the championship's pages); a draft's is its directors' (404 to anyone else)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone

from . import selectors
from .models import RosterEntry, TeamEntry
from .views import _by_day, championship_public_page


def team(request, pk: int):
    """The team's page: roster (number order, goalkeepers marked), its games by day at the venue, each result."""
    entries = TeamEntry.objects.select_related("championship__venue", "federation")
    entry = get_object_or_404(selectors.of_visible_championships(entries, request.user), pk=pk)
    championship = entry.championship
    # From the cache for anonymous viewers, at the championship's data version (a roster change bumps it too).
    return championship_public_page(
        request, championship, f"team:{entry.pk}", "tournaments/team.html", lambda: _team_context(entry)
    )


def _team_context(entry: TeamEntry) -> dict:
    championship = entry.championship
    roster = sorted(
        RosterEntry.objects.filter(entry=entry).select_related("person"),
        key=lambda line: selectors.number_order(line.number),
    )
    games = list(selectors.games_of_entry(entry))
    record = {"played": 0, "wins": 0, "ties": 0, "losses": 0}
    for game in games:
        if game.start_at:
            game.local_start = timezone.localtime(game.start_at, championship.venue.zone)
        if not game.is_final or game.home_goals is None:
            continue
        record["played"] += 1
        ours, theirs = (
            (game.home_goals, game.away_goals) if game.home_id == entry.pk else (game.away_goals, game.home_goals)
        )
        shootout = game.shootout_winner
        won = ours > theirs or (shootout is not None and shootout.pk == entry.pk)
        lost = ours < theirs or (shootout is not None and shootout.pk != entry.pk)
        record["wins" if won else "losses" if lost else "ties"] += 1
    return {
        "championship": championship,
        "entry": entry,
        "roster": roster,
        "days": _by_day(games, championship.venue.zone),
        "record": record,
        "tab": "",
    }
