"""Pages of the games app: an official's "My games", a team's line-up form (5.1 A, R-07), the scorer's console."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone

from tournaments.models import Game, RosterEntry, TeamEntry
from tournaments.selectors import of_visible_championships

from . import services
from .console import console_data
from .models import GameOfficial, Lineup
from .services.access import SHEET_DUTIES
from .sheet import check_can_enter_game_events


@login_required
def my_games(request):
    """The games the official is assigned to, with the crew and, before the start, whether it can start (5.3 B)."""
    person_id = services.official_person_id(request.user)
    assignments = []
    if person_id is not None:
        assignments = list(
            GameOfficial.objects.filter(person_id=person_id)
            .select_related("game__championship__venue", "game__home", "game__away", "game__rink")
            .prefetch_related(
                Prefetch("game__officials", queryset=GameOfficial.objects.select_related("person")),
                "game__lineups__players",
            )
            .order_by("game__start_at", "game__number")
        )
    now = timezone.now()
    rows = []
    for assignment in assignments:
        game = assignment.game
        started = services.game_has_started(game, now=now)
        rows.append(
            {
                "assignment": assignment,
                "game": game,
                "local_start": timezone.localtime(game.start_at, game.championship.venue.zone)
                if game.start_at
                else None,
                "crew": [o for o in game.officials.all() if o.pk != assignment.pk],
                "started": started,
                "problems": {} if started else services.game_start_problems(game),
                "keeps_the_sheet": assignment.duty in SHEET_DUTIES,
            }
        )
    return render(request, "games/my_games.html", {"rows": rows, "linked": person_id is not None})


def _lineup_context(game: Game, entry: TeamEntry) -> dict:
    lineup = Lineup.objects.filter(game=game, entry=entry).prefetch_related("players", "bench_officials").first()
    listed = {line.person_id: line for line in lineup.players.all()} if lineup else {}
    bench = {o.person_id for o in lineup.bench_officials.all()} if lineup else set()
    roster = RosterEntry.objects.filter(entry=entry, confirmed=True).select_related("person")
    return {
        "game": game,
        "entry": entry,
        "lineup": lineup,
        "lines": [{"roster": line, "listed": listed.get(line.person_id)} for line in roster],
        "officials": [
            {"official": o, "on_bench": o.person_id in bench} for o in entry.officials.select_related("person")
        ],
    }


@login_required
def lineup_edit(request, game_pk: int, entry_pk: int):
    """A team's line-up for a game (5.1 A): its managers give it, before the start (5.1 C)."""
    game = get_object_or_404(Game.objects.select_related("championship__venue", "home", "away"), pk=game_pk)
    entry = get_object_or_404(TeamEntry.objects.select_related("federation"), pk=entry_pk)
    if entry.pk not in (game.home_id, game.away_id):
        raise Http404("This team does not play this game.")
    services.check_can_submit_lineup(request.user, entry)
    context = _lineup_context(game, entry)
    context["started"] = services.game_has_started(game)
    status = 200
    if request.method == "POST":
        post = request.POST
        choices = [
            services.LineupChoice(
                person_id=row["roster"].person_id,
                captain=post.get(f"captain-{row['roster'].person_id}") == "on",
                alternate=post.get(f"alternate-{row['roster'].person_id}") == "on",
                starting=post.get(f"starting-{row['roster'].person_id}") == "on",
            )
            for row in context["lines"]
            if post.get(f"listed-{row['roster'].person_id}") == "on"
        ]
        bench = [
            row["official"].person_id for row in context["officials"] if post.get(f"bench-{row['official'].pk}") == "on"
        ]
        try:
            services.lineup_submit(game=game, entry=entry, players=choices, bench_officials=bench, by=request.user)
        except ValidationError as exc:
            context["errors"] = (
                [m for ms in exc.message_dict.values() for m in ms] if hasattr(exc, "error_dict") else exc.messages
            )
            status = 400
        else:
            messages.success(request, f"Line-up of {entry} for game {game.number} saved.")
            return redirect("games:lineup-edit", game_pk=game.pk, entry_pk=entry.pk)
    return render(request, "games/lineup_form.html", context, status=status)


@login_required
def console(request, game_pk: int):
    """The scorer's console (4.3-4.5): the game's timekeeper, penalty timekeeper and scorer, and its directors."""
    games = Game.objects.select_related("championship__sanctioning_body", "phase", "home", "away")
    game = get_object_or_404(of_visible_championships(games, request.user), pk=game_pk)
    check_can_enter_game_events(request.user, game)
    if game.home_id is None or game.away_id is None:
        raise Http404("The game's teams are not known yet (R-10): its console opens once they are.")
    return render(request, "games/console.html", {"game": game, "data": console_data(game, request.user)})


def console_worker(request):
    """The console's service worker, served from /games/ so that it may keep the console pages for offline use."""
    response = HttpResponse(render_to_string("games/console-worker.js"), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response
