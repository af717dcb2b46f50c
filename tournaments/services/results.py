"""Results and the game summary: final scores, forfeits (8.1), goals, penalties, goalkeepers, shoot-outs."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from federation.models import Person
from portal.services import audited_create, audited_save, check_transition
from tournaments import statistics as stats_rules
from tournaments.facts import (
    championship_ruleset,
    championship_standings_rules,
    field_error,
    resolve_now,
)
from tournaments.models import (
    ENTRY_TRANSITIONS,
    GAME_TRANSITIONS,
    DecidedIn,
    Disqualification,
    EntryStatus,
    Game,
    GameStatus,
    GoalkeeperRecord,
    GoalRecord,
    PenaltyRecord,
    PhaseKind,
    Pool,
    Position,
    RosterEntry,
    StandingsShootout,
    StandingsShootoutPlace,
    TeamEntry,
)
from tournaments.selectors import standings_for_pool
from tournaments.services.championships import check_can_direct
from tournaments.standings import StandingsRules, forfeit_disqualifies

# the minutes a penalty can charge in the records.
PENALTY_MINUTES = frozenset({0, 2, 4, 5, 10})


def _winner_captain(entry: TeamEntry) -> Person:
    captain = RosterEntry.objects.filter(entry=entry, captain=True).select_related("person").first()
    if captain is None:
        raise field_error("forfeited_by", f"Rule 8.1 B: the goal goes to the winner's captain; {entry} has no captain.")
    return captain.person


def check_result(
    game: Game,
    *,
    home_goals: int | None,
    away_goals: int | None,
    decided_in: str,
    forfeited_by: TeamEntry | None,
    shootout_home_goals: int | None,
    shootout_away_goals: int | None,
    rules: StandingsRules,
) -> None:
    """Refuse a final result the game cannot have (1.3 A-E, 8.1 B, R-40).

    Round-robin games may end tied and take no overtime (1.3 A, D) unless the
    championship's points scheme counts overtime or shoot-out results (IIHF
    preset); elimination and placement games end with a winner: by one goal
    in the sudden-death overtime, or in a shoot-out with the tied score kept.
    """
    round_robin = game.phase.kind == PhaseKind.ROUND_ROBIN
    if decided_in not in DecidedIn.values:
        raise field_error("decided_in", f"one of {', '.join(DecidedIn.values)}")
    if decided_in == DecidedIn.FORFEIT:
        if forfeited_by is None or forfeited_by.pk not in (game.home_id, game.away_id):
            raise field_error("forfeited_by", "Rule 8.1 B: name the team of this game that forfeits.")
        return
    if forfeited_by is not None:
        raise field_error("forfeited_by", "Rule 8.1 B: only a forfeit names a forfeiting team.")
    for field, value in (("home_goals", home_goals), ("away_goals", away_goals)):
        if value is None or value < 0:
            raise field_error(field, "the final score is required")
    tied = home_goals == away_goals
    extra_time_counts = any(
        v is not None for v in (rules.points.overtime_win, rules.points.shootout_win, rules.points.overtime_loss)
    )
    if round_robin and decided_in != DecidedIn.REGULATION and not extra_time_counts:
        raise field_error("decided_in", "Rule 1.3 D: round-robin games tied after regulation stay tied.")
    if decided_in == DecidedIn.REGULATION and tied and not round_robin:
        raise field_error("decided_in", "Rule 1.3 B: an elimination game tied after regulation goes to overtime.")
    if decided_in == DecidedIn.OVERTIME and abs(home_goals - away_goals) != 1:
        raise field_error("home_goals", "Rule 1.3 B: the overtime is sudden death; it is won by one goal.")
    if decided_in == DecidedIn.SHOOTOUT:
        if not tied:
            raise field_error("home_goals", "Rule 1.3 B / R-40: a game won in a shoot-out keeps the tied score.")
        if shootout_home_goals is None or shootout_away_goals is None or shootout_home_goals == shootout_away_goals:
            raise field_error(
                "shootout_home_goals", "Rule 1.3 E / R-40: record the shoot-out score; it names a winner."
            )
    elif shootout_home_goals is not None or shootout_away_goals is not None:
        raise field_error("shootout_home_goals", "only a game decided in a shoot-out has a shoot-out score")


def _disqualify_if_forfeits(
    entry: TeamEntry, *, game: Game, by: User, now: datetime.datetime
) -> Disqualification | None:
    """8.1 C / R-43: a second forfeit in the round robin, or any forfeit after it, disqualifies the team."""
    forfeits = Game.objects.filter(forfeited_by=entry, status=GameStatus.FINAL)
    in_round_robin = forfeits.filter(phase__kind=PhaseKind.ROUND_ROBIN).count()
    after = forfeits.exclude(phase__kind=PhaseKind.ROUND_ROBIN).exists()
    if not forfeit_disqualifies(forfeits_in_round_robin=in_round_robin, forfeit_after_round_robin=after):
        return None
    entry = TeamEntry.objects.select_for_update().get(pk=entry.pk)
    if entry.status == EntryStatus.DISQUALIFIED:
        return None
    check_transition(
        ENTRY_TRANSITIONS,
        entry.status,
        EntryStatus.DISQUALIFIED,
        field="forfeited_by",
        subject="an entry",
        article="Rule 8.1 C",
    )
    entry.status = EntryStatus.DISQUALIFIED
    audited_save(entry, by, update_fields=["status"])
    reason = (
        "Rule 8.1 C: a second forfeit in the round robin"
        if not after
        else "Rule 8.1 C: a forfeit after the round robin"
    )
    return audited_create(Disqualification, by, entry=entry, reason=reason, game=game, at=now, recorded_by=by)


def game_record_result(
    *,
    game: Game,
    home_goals: int | None = None,
    away_goals: int | None = None,
    decided_in: str = DecidedIn.REGULATION,
    forfeited_by: TeamEntry | None = None,
    shootout_home_goals: int | None = None,
    shootout_away_goals: int | None = None,
    by: User,
    now: datetime.datetime | None = None,
) -> Game:
    """Record the final result.

    A forfeit is recorded 1-0 with the goal to the winner's captain, no assist
    and no goalkeeper statistics (8.1 B); it may disqualify the forfeiting
    team (8.1 C), whose games then leave the official tables (8.1 D).
    """
    now = resolve_now(now)
    check_can_direct(by, game.championship)
    rules = championship_standings_rules(game.championship)
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).select_related("phase", "home", "away").get(pk=game.pk)
        if game.home_id is None or game.away_id is None:
            raise field_error("home", "both teams must be known before a result is recorded")
        for field, team in (("home", game.home), ("away", game.away)):
            if team.status == EntryStatus.DISQUALIFIED:
                raise field_error(field, f"Rule 8.1 C: {team} is disqualified for the remainder of the tournament.")
        if game.status == GameStatus.FINAL:
            raise field_error("status", f"game #{game.number} is final; its result is recorded once")
        check_transition(GAME_TRANSITIONS, game.status, GameStatus.FINAL, subject="a game")
        check_result(
            game,
            home_goals=home_goals,
            away_goals=away_goals,
            decided_in=decided_in,
            forfeited_by=forfeited_by,
            shootout_home_goals=shootout_home_goals,
            shootout_away_goals=shootout_away_goals,
            rules=rules,
        )
        if decided_in == DecidedIn.FORFEIT:
            winner = game.away if forfeited_by.pk == game.home_id else game.home
            captain = _winner_captain(winner)
            home_goals, away_goals = (1, 0) if winner.pk == game.home_id else (0, 1)
            # 8.1 B: the captain's goal; it may not go to any other player, and there is no assist.
            audited_create(
                GoalRecord, by, game=game, entry=winner, scorer=captain, period=1, time_tenths=0, forfeit_award=True
            )
        game.home_goals = home_goals
        game.away_goals = away_goals
        game.decided_in = decided_in
        game.forfeited_by = forfeited_by
        game.shootout_home_goals = shootout_home_goals
        game.shootout_away_goals = shootout_away_goals
        game.status = GameStatus.FINAL
        game.finalized_at = now
        game.finalized_by = by
        audited_save(game, by)
        if forfeited_by is not None:
            _disqualify_if_forfeits(forfeited_by, game=game, by=by, now=now)
    return game


def _check_game_time(game: Game, *, period: int, time_tenths: int) -> None:
    """R-10/R-11: game time is elapsed tenths within a period of 20 minutes; period 3 is the 10-minute overtime."""
    game_rules = championship_ruleset(game.championship).game
    regulation = game_rules.periods
    overtime_allowed = game.phase.kind != PhaseKind.ROUND_ROBIN or game.decided_in == DecidedIn.OVERTIME
    last = regulation + (1 if overtime_allowed else 0)
    if not 1 <= period <= last:
        raise field_error("period", f"Rule 1.2 A / 1.3: period is 1-{last} in this game (R-11).")
    length = (game_rules.overtime_minutes if period > regulation else game_rules.period_minutes) * 600
    if not 0 <= time_tenths <= length:
        raise field_error("time_tenths", f"R-10: the time is elapsed tenths of a second within the period, 0-{length}.")


def _check_team_of_game(game: Game, entry: TeamEntry) -> None:
    if entry.pk not in (game.home_id, game.away_id):
        raise field_error("entry", f"{entry} does not play game #{game.number}")


def _roster_person_ids(entry: TeamEntry) -> set[int]:
    return set(RosterEntry.objects.filter(entry=entry).values_list("person_id", flat=True))


def _summary_line_add(model, check, *, game: Game, by: User, **fields):
    """Enter a line of the game summary: with the game locked, ``check`` (the line's rules) passes, then it is saved."""
    check_can_direct(by, game.championship)
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).select_related("phase", "championship").get(pk=game.pk)
        record = model(game=game, **fields)
        check(record)
        audited_save(record, by)
    return record


def check_goal(record: GoalRecord) -> None:
    """Refuse a goal the summary cannot hold (5.5.11 B-D, R-32, 8.1 B); ``record.game`` has its phase loaded."""
    game, entry = record.game, record.entry
    _check_team_of_game(game, entry)
    if game.decided_in == DecidedIn.FORFEIT and not record.forfeit_award:
        raise field_error("game", "Rule 8.1 B: a forfeit's only goal is the one awarded to the winner's captain.")
    _check_game_time(game, period=record.period, time_tenths=record.time_tenths)
    roster = _roster_person_ids(entry)
    # 5.5.11 D: an own goal is credited to the attacking player who last played the puck.
    if record.scorer_id not in roster:
        raise field_error("scorer", f"Rule 5.5.11 B: the scorer must be on the roster of {entry} (5.1 B).")
    if record.assist_id is not None:
        if record.own_goal:
            raise field_error("assist", "Rule 5.5.11 D / R-32: an own goal has no assist.")
        if record.penalty_shot:
            raise field_error("assist", "Rule 6.1.8: a penalty shot is taken alone; it has no assist.")
        if record.assist_id == record.scorer_id:
            raise field_error(
                "assist", "Rule 5.5.11 C: the assist goes to the player who made the pass, not the scorer."
            )
        if record.assist_id not in roster:
            raise field_error("assist", f"Rule 5.5.11 C: the assist must go to a player of {entry}.")
    if record.power_play and record.shorthanded:
        raise field_error("power_play", "a goal is scored on a power play or shorthanded, not both")


def goal_add(
    *,
    game: Game,
    entry: TeamEntry,
    scorer: Person,
    assist: Person | None = None,
    period: int,
    time_tenths: int,
    own_goal: bool = False,
    empty_net: bool = False,
    power_play: bool = False,
    shorthanded: bool = False,
    penalty_shot: bool = False,
    by: User,
) -> GoalRecord:
    """Enter a goal of the game summary (5.5.11); one scorer and at most one assist (R-32)."""
    return _summary_line_add(
        GoalRecord,
        check_goal,
        game=game,
        by=by,
        entry=entry,
        scorer=scorer,
        assist=assist,
        period=period,
        time_tenths=time_tenths,
        own_goal=own_goal,
        empty_net=empty_net,
        power_play=power_play,
        shorthanded=shorthanded,
        penalty_shot=penalty_shot,
    )


def check_infraction(code: str) -> None:
    """Annex C: the infraction is a line of the penalty index (when the game engine's index is installed)."""
    try:
        from games.engine.penalty_index import get_infraction
    except ImportError:  # the index ships with the game engine
        return
    try:
        get_infraction(code)
    except KeyError:
        raise field_error("infraction_code", f"Annex C: {code!r} is not in the penalty index.") from None


def check_penalty(record: PenaltyRecord) -> None:
    """Refuse a penalty the summary cannot hold (R-20, R-21): a person of the team or its bench, or the bench."""
    check_infraction(record.infraction_code)
    if record.minutes not in PENALTY_MINUTES:
        raise field_error("minutes", f"R-21: a penalty charges {', '.join(map(str, sorted(PENALTY_MINUTES)))} minutes.")
    game, entry = record.game, record.entry
    _check_team_of_game(game, entry)
    _check_game_time(game, period=record.period, time_tenths=record.time_tenths)
    if record.person_id is not None:
        on_team = (
            record.person_id in _roster_person_ids(entry) or entry.officials.filter(person_id=record.person_id).exists()
        )
        if not on_team:
            raise field_error("person", f"R-20: {record.person} is not on the roster or bench of {entry}.")


def penalty_add(
    *,
    game: Game,
    entry: TeamEntry,
    person: Person | None = None,
    infraction_code: str,
    minutes: int,
    period: int,
    time_tenths: int,
    gives_power_play: bool = False,
    by: User,
) -> PenaltyRecord:
    """Enter a penalty of the game summary (R-20): a person of the team, or the bench (no person)."""
    return _summary_line_add(
        PenaltyRecord,
        check_penalty,
        game=game,
        by=by,
        entry=entry,
        person=person,
        infraction_code=infraction_code,
        minutes=minutes,
        gives_power_play=gives_power_play,
        period=period,
        time_tenths=time_tenths,
    )


def check_goalkeeper_line(record: GoalkeeperRecord) -> None:
    """Refuse a goalkeeper line that does not add up (4.6 note) or belongs to a forfeit (8.1 B)."""
    problem = stats_rules.goalkeeper_counts_problem(
        shots_against=record.shots_against, saves=record.saves, goals_against=record.goals_against
    )
    if problem is not None:
        raise field_error(*problem)
    game, entry = record.game, record.entry
    _check_team_of_game(game, entry)
    if game.decided_in == DecidedIn.FORFEIT:
        raise field_error(
            "game", "Rule 8.1 B: no goalkeeper is credited with a shot, save or goal against in a forfeit."
        )
    if not RosterEntry.objects.filter(
        entry=entry, person_id=record.goalkeeper_id, position=Position.GOALKEEPER
    ).exists():
        raise field_error("goalkeeper", f"{record.goalkeeper} is not a goalkeeper on the roster of {entry} (3.1.1 A).")


def goalkeeper_record_set(
    *,
    game: Game,
    entry: TeamEntry,
    goalkeeper: Person,
    shots_against: int,
    saves: int,
    goals_against: int,
    by: User,
) -> GoalkeeperRecord:
    """Set a goalkeeper's line for a game: a save is a shot that would have entered (4.6 note)."""
    check_can_direct(by, game.championship)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        record = GoalkeeperRecord.objects.filter(game=game, goalkeeper=goalkeeper).first() or GoalkeeperRecord(
            game=game, goalkeeper=goalkeeper
        )
        record.entry = entry
        record.shots_against, record.saves, record.goals_against = shots_against, saves, goals_against
        check_goalkeeper_line(record)
        audited_save(record, by)
    return record


def standings_shootout_enter(*, pool: Pool, ordered_entries: Sequence[TeamEntry], by: User) -> StandingsShootout:
    """Enter the result of the shoot-out between teams still tied after 9.3 C-F (9.3 G, R-42), best first."""
    check_can_direct(by, pool.championship)
    names = [e.name for e in ordered_entries]
    if len(set(names)) != len(names):
        raise field_error("ordered_entries", "a team is listed twice")
    with transaction.atomic():
        pool = Pool.objects.select_for_update(of=("self",)).select_related("championship").get(pk=pool.pk)
        standings = standings_for_pool(pool)
        if frozenset(names) not in {frozenset(group) for group in standings.unresolved}:
            pending = "; ".join(", ".join(group) for group in standings.unresolved) or "none"
            raise field_error(
                "ordered_entries",
                f"Rule 9.3 G / R-42: a shoot-out decides only teams still tied after 9.3 C-F (pending: {pending}).",
            )
        shootout = audited_create(StandingsShootout, by, pool=pool, entered_by=by, entered_at=timezone.now())
        StandingsShootoutPlace.objects.bulk_create(
            StandingsShootoutPlace(shootout=shootout, entry=entry, place=place)
            for place, entry in enumerate(ordered_entries, start=1)
        )
    return shootout
