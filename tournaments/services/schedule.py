"""Pools, the round-robin schedule, the elimination bracket and moving games (1.3, 2.1 C)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from accounts.models import User
from portal.services import audited_create, audited_save
from tournaments import hooks, scheduling
from tournaments import rinks as rink_rules
from tournaments.facts import (
    core_error,
    field_error,
)
from tournaments.models import (
    Championship,
    EntryStatus,
    Game,
    GameStatus,
    Phase,
    PhaseKind,
    Pool,
    PoolTeam,
    Rink,
    TeamEntry,
)
from tournaments.scheduling import SchedulingError, schedule_round_robin
from tournaments.selectors import bracket_for
from tournaments.services.championships import check_can_direct
from tournaments.versions import championship_changed

# A game blocks its teams and its rink for this long: two 20-minute periods
# (1.2 A) with their stoppages and the 5-minute half-time, and the change-over between games.
GAME_SLOT = datetime.timedelta(minutes=90)


def check_pool_name(championship: Championship, name: str, *, pool: Pool | None = None) -> str:
    """Return the pool's name as stored; refuse an empty, too long or taken one."""
    name = (name or "").strip()
    if not name:
        raise field_error("name", _("a pool needs a name"))
    limit = Pool._meta.get_field("name").max_length
    if len(name) > limit:
        raise field_error("name", _("a pool's name has at most %(limit)s characters") % {"limit": limit})
    if Pool.objects.filter(championship=championship, name=name).exclude(pk=pool.pk if pool else None).exists():
        raise field_error("name", _("pool %(name)s exists already") % {"name": name})
    return name


def pool_create(*, championship: Championship, name: str, by: User) -> Pool:
    """Add a pool to the championship (1.3 B: the round robin is played in pools), for its directors."""
    check_can_direct(by, championship)
    name = check_pool_name(championship, name)
    with transaction.atomic():
        championship_changed(championship.pk)
        return audited_create(Pool, by, championship=championship, name=name)


def pool_update(*, pool: Pool, name: str, by: User) -> Pool:
    """Rename a pool before its games exist: the bracket names its teams by pool ("1A", 1.3 B)."""
    check_can_direct(by, pool.championship)
    with transaction.atomic():
        stored = Pool.objects.select_for_update(of=("self",)).select_related("championship").get(pk=pool.pk)
        stored.name = check_pool_name(stored.championship, name, pool=stored)
        if Game.objects.filter(pool=stored).exists():
            raise field_error("name", _("the pool's schedule exists already: its games and the bracket name it."))
        audited_save(stored, by, update_fields=["name"])
        championship_changed(stored.championship_id)
    return stored


def check_pool_entry(pool: Pool, entry: TeamEntry) -> None:
    """Only a confirmed team of the championship plays in a pool (1.1 A: entry fee paid), in one pool."""
    if entry.championship_id != pool.championship_id:
        raise field_error("entry", _("the team is entered in another championship"))
    if entry.status != EntryStatus.CONFIRMED:
        raise field_error(
            "entry", _("Rule 1.1 A: %(entry)s is not confirmed (entry fee not recorded as paid).") % {"entry": entry}
        )
    if PoolTeam.objects.filter(entry=entry).exclude(pool=pool).exists():
        raise field_error("entry", _("%(entry)s is already in another pool") % {"entry": entry})
    if Game.objects.filter(pool=pool).exists():
        raise field_error("pool", _("the pool's schedule exists already"))


def pool_add_entry(*, pool: Pool, entry: TeamEntry, seed: int = 0, by: User) -> PoolTeam:
    """Put a confirmed team in a pool (1.1 A)."""
    check_can_direct(by, pool.championship)
    with transaction.atomic():
        pool = Pool.objects.select_for_update().get(pk=pool.pk)
        check_pool_entry(pool, entry)
        if PoolTeam.objects.filter(entry=entry).exists():
            raise field_error("entry", _("%(entry)s is already in this pool") % {"entry": entry})
        championship_changed(pool.championship_id)
        return audited_create(PoolTeam, by, pool=pool, entry=entry, seed=seed)


def rink_dimensions(rink: Rink) -> rink_rules.RinkDimensions:
    return rink_rules.RinkDimensions(
        length_m=rink.length_m,
        width_m=rink.width_m,
        board_height_m=rink.board_height_m,
        corner_radius_m=rink.corner_radius_m,
        surface=rink.surface,
        surface_approved_by_ihtc=rink.surface_approved_by_ihtc,
    )


def rink_violations(rink: Rink, *, level: str) -> tuple[rink_rules.Violation, ...]:
    """Return what keeps the rink from hosting games of this level (2.1 A-E), each naming its article."""
    return rink_rules.rink_errors(rink_dimensions(rink), level=level)


def check_rink_of_venue(rink: Rink, championship: Championship, *, field: str = "rink") -> None:
    """Refuse a rink of another venue: the championship is played at its venue, whose rinks it publishes (2.1 F)."""
    if rink.venue_id != championship.venue_id:
        raise field_error(
            field,
            _(
                "Rule 2.1 F: %(rink)s is a rink of another venue; %(championship)s is played at %(venue)s, whose rinks are the ones published with it."
            )
            % {"rink": rink, "championship": championship, "venue": championship.venue},
        )


def check_rink_for(rink: Rink, championship: Championship, *, field: str = "rink") -> None:
    """A rink of the championship's venue (2.1 F) that meets its level (2.1 C) hosts its games; no other does."""
    check_rink_of_venue(rink, championship, field=field)
    violations = rink_violations(rink, level=championship.level)
    if violations:
        raise field_error(field, [f"{rink}: {v.message}" for v in violations])


def _last_game_number(championship: Championship) -> int:
    numbers = Game.objects.filter(championship=championship).order_by("-number").values_list("number", flat=True)
    return numbers.first() or 0


def _aware(day: datetime.date, at: datetime.time, championship: Championship) -> datetime.datetime:
    local = datetime.datetime.combine(day, at, tzinfo=championship.venue.zone)
    return local.astimezone(datetime.UTC)


def schedule_generate(
    *,
    championship: Championship,
    days: Sequence[datetime.date],
    slot_times: Sequence[datetime.time],
    rinks: Sequence[Rink],
    rest_slots: int = 1,
    by: User,
) -> list[Game]:
    """Create the round-robin games of every pool across days, rinks and slots (venue time).

    No team plays twice at the same time; the home team is the first named
    (5.4 D, 3.2.10). Rinks of another venue (2.1 F) or that do not meet the
    level (2.1 C) are refused.
    """
    check_can_direct(by, championship)
    if not rinks:
        raise field_error("rinks", _("choose at least one rink"))
    errors: list[str] = []
    for rink in rinks:
        try:
            check_rink_for(rink, championship, field="rinks")
        except ValidationError as exc:
            errors.extend(exc.message_dict["rinks"])
    if errors:
        raise field_error("rinks", errors)
    if any(day < championship.start_date or day > championship.end_date for day in days):
        raise field_error("days", _("every day must fall within the championship's dates"))
    members = PoolTeam.objects.filter(pool__championship=championship).select_related("pool", "entry")
    pools: dict[str, list[str]] = {}
    pool_by_name: dict[str, Pool] = {}
    entry_by_name: dict[str, TeamEntry] = {}
    for member in members.order_by("pool__name", "seed", "entry__name"):
        pools.setdefault(member.pool.name, []).append(member.entry.name)
        pool_by_name[member.pool.name] = member.pool
        entry_by_name[member.entry.name] = member.entry
    if not pools:
        raise field_error("pools", _("no pool has teams yet"))
    rink_by_name = {rink.name: rink for rink in rinks}
    try:
        planned = schedule_round_robin(
            pools, days=list(days), rinks=list(rink_by_name), slot_times=list(slot_times), rest_slots=rest_slots
        )
    except SchedulingError as exc:
        raise core_error(exc) from None
    with transaction.atomic():
        championship = (
            Championship.objects.select_for_update(of=("self",)).select_related("venue").get(pk=championship.pk)
        )
        if Game.objects.filter(championship=championship, phase__kind=PhaseKind.ROUND_ROBIN).exists():
            raise field_error("championship", _("the round-robin schedule exists already; move games instead"))
        phase, _created = Phase.objects.get_or_create(
            championship=championship,
            kind=PhaseKind.ROUND_ROBIN,
            defaults={"name": "Round robin", "order": 1},
        )
        number = _last_game_number(championship)
        games = []
        for item in sorted(planned, key=lambda g: (g.slot, g.rink)):
            number += 1
            games.append(
                Game(
                    championship=championship,
                    phase=phase,
                    pool=pool_by_name[item.pool],
                    number=number,
                    home=entry_by_name[item.home],
                    away=entry_by_name[item.away],
                    rink=rink_by_name[item.rink],
                    start_at=_aware(item.day, item.time, championship),
                )
            )
        bulk_create_with_history(games, Game, default_user=by)
        championship_changed(championship.pk)
    return games


def bracket_generate(
    *,
    championship: Championship,
    qualifiers: int = 2,
    placement: str = scheduling.ALL,
    by: User,
) -> list[Game]:
    """Create the elimination games (pre-quarter-finals to final, 1.3 B) and the placement games.

    The first round crosses the pools two by two (1A v 2B, 1B v 2A...); the
    teams the standings and results already decide are put in at once, the
    others as they are decided (``bracket_fill``). Times and rinks are set by
    moving the games.
    """
    check_can_direct(by, championship)
    pool_names = list(Pool.objects.filter(championship=championship).order_by("name").values_list("name", flat=True))
    if not pool_names:
        raise field_error("pools", _("the championship has no pools yet"))
    try:
        first_round = scheduling.crossover_pairings(pool_names, qualifiers=qualifiers)
        bracket = scheduling.elimination_bracket(first_round, placement=placement)
    except scheduling.SchedulingError as exc:
        raise core_error(exc) from None
    with transaction.atomic():
        championship = Championship.objects.select_for_update().get(pk=championship.pk)
        if Game.objects.filter(championship=championship).exclude(bracket_slot="").exists():
            raise field_error("championship", _("the elimination games exist already"))
        elimination, _created = Phase.objects.get_or_create(
            championship=championship, kind=PhaseKind.ELIMINATION, defaults={"name": "Elimination", "order": 2}
        )
        placement_phase = None
        number = _last_game_number(championship)
        games = []
        for item in bracket.games:
            if item.stage == "placement" and placement_phase is None:
                placement_phase, _created = Phase.objects.get_or_create(
                    championship=championship,
                    kind=PhaseKind.PLACEMENT,
                    defaults={"name": "Placement games", "order": 3},
                )
            number += 1
            games.append(
                Game(
                    championship=championship,
                    phase=placement_phase if item.stage == "placement" else elimination,
                    number=number,
                    bracket_slot=item.code,
                    home_source=item.home_source,
                    away_source=item.away_source,
                )
            )
        bulk_create_with_history(games, Game, default_user=by)
        bracket_fill(championship=championship, by=by)
        championship_changed(championship.pk)
    return games


def bracket_fill(*, championship: Championship, by: User) -> list[Game]:
    """Put the teams the standings and results decide into the elimination games still to play."""
    check_can_direct(by, championship)
    bracket = bracket_for(championship)
    if bracket is None:
        return []
    entries = {e.name: e for e in TeamEntry.objects.filter(championship=championship)}
    changed = []
    with transaction.atomic():
        games = {
            g.bracket_slot: g
            for g in Game.objects.select_for_update()
            .filter(championship=championship, status=GameStatus.SCHEDULED)
            .exclude(bracket_slot="")
        }
        for item in bracket.games:
            game = games.get(item.code)
            if game is None:
                continue
            home = entries.get(item.home) if item.home else None
            away = entries.get(item.away) if item.away else None
            if (game.home_id, game.away_id) != (home and home.pk, away and away.pk):
                game.home, game.away = home, away
                audited_save(game, by, update_fields=["home", "away"])
                changed.append(game)
        if changed:
            championship_changed(championship.pk)
    return changed


def game_conflicts(game: Game, *, start_at: datetime.datetime, rink: Rink | None) -> list[str]:
    window = Q(start_at__gt=start_at - GAME_SLOT, start_at__lt=start_at + GAME_SLOT)
    others = Game.objects.filter(window, championship_id=game.championship_id).exclude(pk=game.pk)
    problems = []
    teams = [t for t in (game.home_id, game.away_id) if t]
    for other in others.filter(Q(home_id__in=teams) | Q(away_id__in=teams)).select_related("home", "away"):
        problems.append(f"a team of this game also plays game #{other.number} at {other.start_at:%Y-%m-%d %H:%M} UTC")
    if rink is not None:
        for other in others.filter(rink=rink):
            problems.append(f"{rink} hosts game #{other.number} at {other.start_at:%Y-%m-%d %H:%M} UTC")
    return problems


def check_game_movable(game: Game) -> None:
    """Refuse to move a game that is final or being played: once its officials opened the live sheet, the sheet
    is the record of a game under way (4.3 A)."""
    if game.status != GameStatus.SCHEDULED:
        raise field_error("start_at", _("a final game cannot be moved"))
    if hooks.game_sheet_final(game.pk) is not None:  # answered by the games app: the game has a live sheet
        raise field_error(
            "start_at",
            _("Rule 4.3 A: the game's live sheet is open, the game is under way: it can no longer be moved."),
        )


def check_game_move(game: Game, *, start_at: datetime.datetime | None, rink: Rink | None) -> None:
    """Refuse to move the game to ``start_at`` on ``rink``: only a scheduled game not yet under way moves, to a
    rink that meets the championship's level (2.1 C), with no team and no rink twice at the same time."""
    check_game_movable(game)
    if rink is not None and rink.pk != game.rink_id:
        check_rink_for(rink, game.championship)
    if start_at is not None:
        problems = game_conflicts(game, start_at=start_at, rink=rink)
        if problems:
            raise field_error("start_at", problems)


def game_move(
    *,
    game: Game,
    start_at: datetime.datetime | None = None,
    rink: Rink | None = None,
    by: User,
) -> Game:
    """Move a scheduled game to another time and/or rink; no team (and no rink) twice at the same time."""
    check_can_direct(by, game.championship)
    if start_at is not None and timezone.is_naive(start_at):
        raise field_error("start_at", _("give the time with its time zone"))
    with transaction.atomic():
        # Lock the championship: two moves at once must not both see the slot free.
        championship = Championship.objects.select_for_update().get(pk=game.championship_id)
        game = Game.objects.select_for_update().get(pk=game.pk)
        game.championship = championship
        new_start = start_at or game.start_at
        new_rink = rink or game.rink
        check_game_move(game, start_at=new_start, rink=new_rink)
        game.start_at = new_start
        game.rink = new_rink
        audited_save(game, by, update_fields=["start_at", "rink"])
        championship_changed(championship.pk)
    return game
