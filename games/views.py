"""Pages of the games app: an official's "My games", a team's line-up form (5.1 A, R-07), the directors'
assignment screen (4.1-4.6), the scorer's console."""

from __future__ import annotations

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Prefetch, Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext

from common.numbers import whole_number_or_none
from federation.models import Person
from portal.filters import MAX_ID, id_or_none
from portal.i18n import catalogue_prefix, said_errors
from tournaments.models import Championship, Game, GameStatus, RosterEntry, TeamEntry
from tournaments.selectors import (
    NUMBER_ORDER,
    access_game,
    number_order,
    of_visible_championships,
    visible_championships,
)
from tournaments.services import check_can_direct

from . import services
from .access import SHEET_DUTIES, can_view_lineup
from .console import console_data
from .list_rows import assignment_rows
from .models import DUTY_LIMITS, GameOfficial, GameProtestMark, Lineup, LineupPlayer, OfficialDuty
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
                Prefetch("game__protest_marks", queryset=GameProtestMark.objects.select_related("entry")),
            )
            .order_by("game__start_at", "game__number")
        )
    now = timezone.now()
    by_game: dict[int, dict] = {}
    for assignment in assignments:  # one row per game, with every duty the official holds in it
        game = assignment.game
        row = by_game.get(game.pk)
        if row is None:
            started = services.game_has_started(game, now=now)
            row = by_game[game.pk] = {
                "game": game,
                "duties": [],
                "crew": [o for o in game.officials.all() if o.person_id != person_id],
                "started": started,
                "problems": {} if started else services.game_start_problems(game),
                "teams_known": game.home_id is not None and game.away_id is not None,
            }
        row["duties"].append(assignment)
    for row in by_game.values():
        duties = {a.duty for a in row["duties"]}
        row["keeps_the_sheet"] = bool(duties & set(SHEET_DUTIES))
        row["referee"] = OfficialDuty.REFEREE in duties
        # 4.2 O: the referees sign the report with the table that keeps it (games.finalize.signers).
        row["signs"] = row["keeps_the_sheet"] or row["referee"]
    rows = list(by_game.values())
    context = {
        "next": [row for row in rows if row["game"].status != GameStatus.FINAL],
        "past": [row for row in rows if row["game"].status == GameStatus.FINAL][::-1],  # the latest first
        "linked": person_id is not None,
    }
    return render(request, "games/my_games.html", context)


def _lineup_context(game: Game, entry: TeamEntry) -> dict:
    """The form's lines in number order (3.2.9 C), ticked as the team's line-up for this game; before it is given,
    as the team's last line-up (``prefilled``: "last"), else the roster's captain and alternates ("roster")."""
    lineups = Lineup.objects.filter(entry=entry).prefetch_related("players", "bench_officials")
    lineup = lineups.filter(game=game).first()
    source = lineup or lineups.exclude(game=game).order_by("-submitted_at", "-pk").first()
    roster = list(
        RosterEntry.objects.filter(entry=entry, confirmed=True).select_related("person").order_by(*NUMBER_ORDER)
    )
    if source is not None:
        listed = {line.person_id: line for line in source.players.all()}
        bench = {o.person_id for o in source.bench_officials.all()}
    else:  # the roster's marks (3.1.2 A-B): its captain and alternates, listed
        listed = {line.person_id: line for line in roster if line.captain or line.alternate}
        bench = set()
    return {
        "game": game,
        "entry": entry,
        "lineup": lineup,
        "prefilled": "" if lineup else ("last" if source else ("roster" if listed else "")),
        "previous": None if lineup else source,
        "lines": [{"roster": line, "listed": listed.get(line.person_id)} for line in roster],
        "officials": [
            {"official": o, "on_bench": o.person_id in bench} for o in entry.officials.select_related("person")
        ],
    }


def _named_lines(errors: list[str], choices, lines) -> list[str]:
    """The service's "players[3]: ..." (the line's index, as the API sends it) as the page's "#16 Name: ..."."""
    by_person = {row["roster"].person_id: row["roster"] for row in lines}

    def name(match):
        index = int(match.group(1))
        line = by_person.get(choices[index].person_id) if index < len(choices) else None
        return f"#{line.number} {line.person}: " if line else match.group(0)

    return [re.sub(r"^players\[(\d+)\]: ", name, str(error)) for error in errors]


@login_required
def lineups(request, game_pk: int):
    """Both teams' line-ups of a game, to read (5.1 A): its officials and directors, the teams' managers; everyone
    who may see the championship once the game has started (``games.access.can_view_lineup``)."""
    game = get_object_or_404(
        of_visible_championships(Game.objects.select_related("championship__venue", "home", "away"), request.user),
        pk=game_pk,
    )
    given = {
        lineup.entry_id: lineup
        for lineup in Lineup.objects.filter(game=game).select_related("game__championship", "entry")
        .prefetch_related(Prefetch("players", queryset=LineupPlayer.objects.select_related("person")))
    }  # fmt: skip
    teams = []
    for entry in (game.home, game.away):
        if entry is None:
            continue
        lineup = given.get(entry.pk)
        readable = lineup is not None and can_view_lineup(request.user, lineup)
        players = sorted(lineup.players.all(), key=lambda p: number_order(p.number)) if readable else []
        teams.append({"entry": entry, "lineup": lineup, "readable": readable, "players": players})
    return render(request, "games/lineups.html", {"game": game, "teams": teams})


@login_required
def lineup_edit(request, game_pk: int, entry_pk: int):
    """A team's line-up for a game (5.1 A): its managers give it, before the start (5.1 C)."""
    game = access_game(
        request.user, game_pk, queryset=Game.objects.select_related("championship__venue", "home", "away")
    )
    entry = get_object_or_404(TeamEntry.objects.select_related("federation"), pk=entry_pk)
    if entry.pk not in (game.home_id, game.away_id):
        raise Http404(gettext("This team does not play this game."))
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
            said = said_errors(exc)
            refused = [m for ms in said.values() for m in ms] if isinstance(said, dict) else said
            context["errors"] = _named_lines(refused, choices, context["lines"])
            # The refused list comes back as it was ticked, not as last stored.
            chosen = {c.person_id: c for c in choices}
            for row in context["lines"]:
                row["listed"] = chosen.get(row["roster"].person_id)
            for row in context["officials"]:
                row["on_bench"] = row["official"].person_id in bench
            status = 400
        else:
            messages.success(
                request,
                gettext("Line-up of %(team)s for game %(number)s saved.") % {"team": entry, "number": game.number},
            )
            return redirect("games:lineup-edit", game_pk=game.pk, entry_pk=entry.pk)
    return render(request, "games/lineup_form.html", context, status=status)


@login_required
def console(request, game_pk: int):
    """The scorer's console (4.3-4.5): the game's timekeeper, penalty timekeeper and scorer, and its directors."""
    games = Game.objects.select_related("championship__sanctioning_body", "phase", "home", "away")
    game = get_object_or_404(of_visible_championships(games, request.user), pk=game_pk)
    check_can_enter_game_events(request.user, game)
    if game.home_id is None or game.away_id is None:
        raise Http404(gettext("The game's teams are not known yet (R-10): its console opens once they are."))
    return render(request, "games/console.html", {"game": game, "data": console_data(game, request.user)})


def console_worker(request):
    """The console's service worker, served from /games/ so that it may keep the console pages for offline use."""
    response = HttpResponse(
        render_to_string("games/console-worker.js", {"catalogue_prefix": catalogue_prefix()}),
        content_type="text/javascript",
    )
    response["Cache-Control"] = "no-cache"
    return response


# --- The directors' assignment screen (4.1-4.6) --------------------------------------------------------------------


def _field_errors(exc: ValidationError) -> list[str]:
    """The messages of a service's refusal, each after the field it names ("person: Rule 4.2 I / R-08: ...")."""
    if hasattr(exc, "error_dict"):
        return [f"{field}: {m}" for field, messages_ in exc.message_dict.items() for m in messages_]
    return list(exc.messages)


def _whole(value: str, field: str, *, blank: bool = False) -> int | None:
    """A whole number posted in ``field`` (None when blank and ``blank``), or a form error naming it."""
    value = (value or "").strip()
    if blank and not value:
        return None
    number = whole_number_or_none(value, maximum=MAX_ID)
    if number is None:
        raise ValidationError({field: gettext("Choose one (%(value)s is not a choice).") % {"value": repr(value)}})
    return number


def _assignment_action(request, championship: Championship) -> str:
    """Do the posted assignment or withdrawal through the services; return what was done (or raise)."""
    post = request.POST
    game_id = _whole(post.get("game"), "game")
    game = Game.objects.filter(championship=championship, pk=game_id).select_related("home", "away").first()
    if game is None:
        raise ValidationError(
            {"game": gettext("No game %(game)s in %(championship)s.") % {"game": game_id, "championship": championship}}
        )
    if post.get("action") == "withdraw":
        assignment = GameOfficial.objects.filter(game=game, pk=_whole(post.get("assignment"), "assignment")).first()
        if assignment is None:
            raise ValidationError(
                {"assignment": gettext("No such assignment in game %(number)s.") % {"number": game.number}}
            )
        services.official_unassign(assignment=assignment, by=request.user)
        return f"{assignment.person} withdrawn from game {game.number} (4.2 B)."
    person = Person.objects.filter(pk=_whole(post.get("person"), "person")).first()
    if person is None:
        raise ValidationError({"person": gettext("Rule 4.1: choose a registered referee or game official.")})
    assignment = services.official_assign(
        game=game,
        person=person,
        duty=post.get("duty", ""),
        position=_whole(post.get("position"), "position", blank=True),
        by=request.user,
    )
    return f"{person} assigned to game {game.number} as {assignment.get_duty_display()}."


@login_required
def assignments(request, pk: int):
    """The championship's games and their crews: its directors assign and withdraw officials (4.1-4.6, 4.2 A-C)."""
    championship = get_object_or_404(visible_championships(request.user).select_related("venue"), pk=pk)
    check_can_direct(request.user, championship)
    errors: dict[int | None, list[str]] = {}
    status = 200
    if request.method == "POST":
        try:
            done = _assignment_action(request, championship)
        except ValidationError as exc:
            posted = request.POST.get("game", "")
            errors[id_or_none(posted)] = _field_errors(exc)
            status = 400
        else:
            messages.success(request, done)
            return redirect("games:assignments", pk=championship.pk)
    games = list(
        Game.objects.filter(championship=championship)
        .select_related("home", "away", "rink", "phase", "pool")
        # A list per game (to_attr): reading a prefetched manager builds a queryset per row.
        .prefetch_related(Prefetch("officials", queryset=GameOfficial.objects.select_related("person"), to_attr="crew"))
        .order_by("start_at", "number")
    )
    zone = championship.venue.zone
    rows = [
        {
            "game": game,
            "local_start": timezone.localtime(game.start_at, zone) if game.start_at else None,
            "crew": game.crew,
            "errors": errors.get(game.pk, []),
        }
        for game in games
    ]
    candidates = Person.objects.filter(Q(is_referee=True) | Q(is_official=True)).select_related("federation")
    context = {
        "championship": championship,
        "rows": rows,
        # A refusal about no game of the page is shown above the table.
        "errors": [m for key, ms in errors.items() if key not in {g.pk for g in games} for m in ms],
        "director": True,
        "tab": "officials",
    }
    # The rows, built once per page (games.list_rows; issue 27); the officials' menu is the same in every row.
    context["table_rows"] = assignment_rows(
        request,
        rows,
        candidate_options=render_to_string("games/_candidate_options.html", {"candidates": candidates}, request),
        duties=[(duty, OfficialDuty(duty).label, limit) for duty, limit in DUTY_LIMITS.items()],
    )
    return render(request, "games/assignments.html", context, status=status)
