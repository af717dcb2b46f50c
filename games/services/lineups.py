"""Line-ups (5.1, 5.3, 5.4 F; R-07): the list each team gives before the game, and whether the game can start.

The limits are the pure core's (``tournaments.rosters.check_lineup``); the count of 5.3 B is the engine's
(``games.engine.replay.starting_line_up_problem``); suspensions come from the discipline module
(``discipline.services.active_suspensions``). Here they are put together with the stored data.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction

from accounts.models import User
from common.text import _
from games import hooks
from games.access import check_can_replace_goalkeeper, check_can_submit_lineup, game_has_started
from games.engine.replay import starting_line_up_problem
from games.engine.ruleset import Ruleset
from games.engine.state import TeamRoster
from portal.services import audited_create, audited_delete, audited_save
from tournaments import rosters as roster_rules
from tournaments.facts import championship_ruleset, field_error, resolve_now, roster_limits
from tournaments.models import Championship, Game, Position, RosterEntry, TeamEntry, TeamOfficial
from tournaments.versions import championship_changed

from ..models import GameSheet, Lineup, LineupOfficial, LineupPlayer


@dataclass(frozen=True)
class LineupChoice:
    """One player a team lists (5.1 A): the person, and the captain's marks and starting line-up (5.3 A)."""

    person_id: int
    captain: bool = False
    alternate: bool = False
    starting: bool = False


# The pure core's fields -> the fields of the request.
_FIELDS = {"person_id": "players", "number": "players", "position": "players", "lines": "players"}


def engine_ruleset(championship: Championship) -> Ruleset:
    """Return the game engine's parameters of the championship's ruleset (R-10 to R-23)."""
    return Ruleset.from_dict(championship_ruleset(championship).game.engine_parameters())


def _problems_error(problems: Sequence[roster_rules.RosterProblem]) -> ValidationError:
    errors: dict[str, list[str]] = {}
    for problem in problems:
        field = _FIELDS.get(problem.field, problem.field)
        message = problem.message
        if problem.line is not None:
            message = _("%(field)s[%(line)s]: %(problem)s", field=field, line=problem.line, problem=message)
        errors.setdefault(field, []).append(message)
    return ValidationError(errors)


def check_lineup_entry(game: Game, entry: TeamEntry) -> None:
    if entry.pk not in (game.home_id, game.away_id):
        raise field_error(
            "entry", _("Rule 5.1 A: %(entry)s does not play game %(number)s.", entry=entry, number=game.number)
        )


def lineup_submit(
    *,
    game: Game,
    entry: TeamEntry,
    players: Sequence[LineupChoice],
    bench_officials: Sequence[int] = (),
    by: User,
    now: datetime.datetime | None = None,
) -> Lineup:
    """Give (or give again) the team's line-up before the game: every line replaced (5.1 A, R-07).

    ``bench_officials`` are person ids of the entry's team officials (5.4 F). Refused after the start
    (5.1 C), off the registered roster (5.1 B), over the limits (R-07), or naming a suspended person (R-53).
    """
    now = resolve_now(now)
    check_lineup_entry(game, entry)
    check_can_submit_lineup(by, entry)
    championship = game.championship
    with transaction.atomic():
        # One line-up per team at a time, and the start read under the same lock.
        game = Game.objects.select_for_update().get(pk=game.pk)
        # The sheet opens with the line-ups it reads (games.sheet.engine_teams): once it is open, the game is on.
        if game_has_started(game, now=now) or GameSheet.objects.filter(game=game).exists():
            problem = roster_rules.check_lineup_change(game_started=True)
            raise _problems_error([problem] if problem else [])
        roster = {
            line.person_id: line
            for line in RosterEntry.objects.filter(entry=entry, confirmed=True).select_related("person")
        }
        officials = {o.person_id: o for o in TeamOfficial.objects.filter(entry=entry).order_by("pk")}
        unknown = [pid for pid in bench_officials if pid not in officials]
        if unknown:
            raise field_error(
                "bench_officials",
                _(
                    "Rule 5.4 F: only the team's registered officials sit on the bench; not person(s) %(unknown)s.",
                    unknown=unknown,
                ),
            )
        lines = [
            roster_rules.RosterLine(
                person_id=choice.person_id,
                number=roster[choice.person_id].number if choice.person_id in roster else "",
                position=roster[choice.person_id].position if choice.person_id in roster else Position.PLAYER,
                captain=choice.captain,
                alternate=choice.alternate,
                label=f"#{roster[choice.person_id].number} {roster[choice.person_id].person}"
                if choice.person_id in roster
                else "",
            )
            for choice in players
        ]
        suspensions = hooks.active_suspensions(
            game=game, person_ids=[c.person_id for c in players] + list(bench_officials)
        )
        problems = roster_rules.check_lineup(
            lines,
            roster_person_ids=roster.keys(),
            suspensions={pid: s.description for pid, s in suspensions.items()},  # a Text: said in each language
            bench_officials=list(bench_officials),
            starting_person_ids={c.person_id for c in players if c.starting},
            floor_players=engine_ruleset(championship).floor_players,
            limits=roster_limits(championship),
        )
        if problems:
            raise _problems_error(problems)
        lineup = Lineup.objects.filter(game=game, entry=entry).first()
        if lineup is None:
            lineup = audited_create(Lineup, by, game=game, entry=entry, submitted_by=by, submitted_at=now)
        else:
            for old in [*lineup.players.all(), *lineup.bench_officials.all()]:
                audited_delete(old, by)
            lineup.submitted_by, lineup.submitted_at = by, now
            audited_save(lineup, by, update_fields=["submitted_by", "submitted_at"])
        for choice, line in zip(players, lines, strict=True):
            audited_create(
                LineupPlayer,
                by,
                lineup=lineup,
                person_id=line.person_id,
                number=line.number,
                position=line.position,
                captain=line.captain,
                alternate=line.alternate,
                starting=choice.starting,
            )
        for person_id in bench_officials:
            audited_create(LineupOfficial, by, lineup=lineup, team_official=officials[person_id], person_id=person_id)
        championship_changed(game.championship_id)  # the live board names the line-ups' players
    return lineup


def lineup_replace_injured_goalkeeper(
    *,
    lineup: Lineup,
    goalkeeper_id: int,
    replacement_id: int,
    by: User,
    now: datetime.datetime | None = None,
) -> LineupPlayer:
    """5.1 C: after the start, an injured or ill goalkeeper is replaced by a player already on the list.

    The one change the list allows once the game has begun. The replacement plays in goal from now on
    (a goalkeeper is neither captain nor alternate, 3.1.2 C); the injured goalkeeper stays listed, marked.
    """
    now = resolve_now(now)
    check_can_replace_goalkeeper(by, lineup)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=lineup.game_id)
        if not game_has_started(game, now=now):
            raise field_error(
                "goalkeeper", _("Rule 5.1 C: before the start the list is still open; give the line-up again.")
            )
        lines = {line.person_id: line for line in lineup.players.select_for_update()}
        injured = lines.get(goalkeeper_id)
        if injured is None or injured.position != Position.GOALKEEPER or injured.injured_at is not None:
            raise field_error("goalkeeper", _("Rule 5.1 C: name a goalkeeper of this line-up who is still in play."))
        replacement = lines.get(replacement_id)
        available = replacement is not None and replacement.injured_at is None and replacement_id != goalkeeper_id
        problem = roster_rules.check_lineup_change(
            game_started=True, replaces_injured_goalkeeper=True, already_on_lineup=available
        )
        if problem is not None:
            raise field_error("replacement", problem.message)
        assert replacement is not None  # available
        injured.injured_at = now
        audited_save(injured, by, update_fields=["injured_at"])
        replacement.position = Position.GOALKEEPER
        replacement.captain = replacement.alternate = False
        replacement.replaces = injured
        audited_save(replacement, by, update_fields=["position", "captain", "alternate", "replaces"])
        championship_changed(game.championship_id)
    return replacement


def lineup_team_roster(lineup: Lineup, *, name: str | None = None) -> TeamRoster:
    """The engine's view of a line-up (5.1 B): numbers of the floor players and goalkeepers still in play.

    ``lineup.players`` may be prefetched; ``name`` is the team's (read from the entry when not given). The
    live sheet builds the engine's ``Game`` from these.
    """
    playing = [line for line in lineup.players.all() if line.injured_at is None]
    captain = next((int(line.number) for line in playing if line.captain), None)
    return TeamRoster(
        name=name if name is not None else lineup.entry.name,
        skaters=frozenset(int(line.number) for line in playing if line.position == Position.PLAYER),
        goalkeepers=frozenset(int(line.number) for line in playing if line.position == Position.GOALKEEPER),
        captain=captain,
    )


def game_start_problems(game: Game) -> dict[str, str]:
    """Return, by side, why the game cannot start (5.3 B, 5.1 A), or an empty dict: it can."""
    floor_players = engine_ruleset(game.championship).floor_players
    # ``game.lineups`` and their players may be prefetched (a page of games); otherwise they are read here.
    lineups = {lu.entry_id: lu for lu in game.lineups.all()}
    problems: dict[str, str] = {}
    for side, entry in (("home", game.home), ("away", game.away)):
        if entry is None:
            problems[side] = (
                _("Rule 5.3 B: the home team of game %(number)s is not known yet.", number=game.number)
                if side == "home"
                else _("Rule 5.3 B: the away team of game %(number)s is not known yet.", number=game.number)
            )
            continue
        lineup = lineups.get(entry.pk)
        if lineup is None:
            problems[side] = _(
                "Rule 5.1 A / 5.3 B: %(team)s has given no line-up for game %(number)s.", team=entry, number=game.number
            )
            continue
        roster = lineup_team_roster(lineup, name=entry.name)
        problem = starting_line_up_problem(side, roster, floor_players=floor_players)
        if problem is not None:
            problems[side] = problem
    return problems


def check_game_can_start(game: Game) -> None:
    """Refuse to start a game unless each team has four floor players and a goalkeeper on its line-up (5.3 B).

    The same count as the engine's at the first period's start; a team that cannot start forfeits (8.1 A).
    """
    problems = game_start_problems(game)
    if problems:
        raise ValidationError(problems)
