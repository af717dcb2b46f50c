"""Results and the game summary: final scores, forfeits (8.1), goals, penalties, goalkeepers, shoot-outs."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from functools import partial

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from federation.models import Person
from portal.services import audited_create, audited_delete, audited_save, check_transition
from tournaments import hooks
from tournaments import statistics as stats_rules
from tournaments.facts import (
    championship_ruleset,
    championship_standings_rules,
    field_error,
    resolve_now,
    roster_eligibility,
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
    ResultAmendment,
    RosterEntry,
    StandingsShootout,
    StandingsShootoutPlace,
    TeamEntry,
)
from tournaments.selectors import roster_for_entry, standings_for_pool
from tournaments.services.championships import check_can_direct
from tournaments.standings import StandingsRules, forfeit_disqualifies
from tournaments.versions import championship_changed

# the minutes a penalty can charge in the records.
PENALTY_MINUTES = frozenset({0, 2, 4, 5, 10})


def check_summary_source(game: Game, by: User, *, from_sheet: bool) -> None:
    """Who records a game's result and summary, and from where (architecture principle 3: one game, one truth).

    A game without a live sheet: the championship's directors enter them. Once the game has a sheet, its log is
    the record (4.3 A: the official scorer's record): the result and summary are derived from it by
    ``games.finalize`` (``from_sheet``) once the sheet is final (signed, 4.2 O / 4.3 A), for whoever may enter
    the game's events; a manual entry is refused, naming why. The check reads one row.
    """
    sheet_final = hooks.game_sheet_final(game.pk)  # answered by the games app
    if not from_sheet:
        check_can_direct(by, game.championship)
        if sheet_final is not None:
            raise field_error(
                "game",
                _(
                    "Rule 4.3 A: game #%(number)s has a live game sheet, which is the record; its result and summary are derived from the sheet's log. Correct the sheet instead (a correction entry, or an audited amendment of the final sheet by the championship's directors)."
                )
                % {"number": game.number},
            )
        return
    if not sheet_final:
        raise field_error(
            "game",
            _(
                "Rule 4.2 O / 4.3 A: game #%(number)s's summary is derived from its sheet once the sheet is final (signed by the referees and both teams)."
            )
            % {"number": game.number},
        )
    if not hooks.can_enter_game_events(by, game):
        raise PermissionDenied(_("Only the game's officials and the staff who direct its championship finalize it."))


def _winner_captain(entry: TeamEntry) -> Person:
    captain = RosterEntry.objects.filter(entry=entry, captain=True).select_related("person").first()
    if captain is None:
        raise field_error(
            "forfeited_by",
            _("Rule 8.1 B: the goal goes to the winner's captain; %(entry)s has no captain.") % {"entry": entry},
        )
    return captain.person


def extra_time_counts(rules: StandingsRules) -> bool:
    """Whether the points scheme counts overtime or shoot-out results, so round-robin games may take them (IIHF)."""
    return any(
        v is not None for v in (rules.points.overtime_win, rules.points.shootout_win, rules.points.overtime_loss)
    )


def check_game_started(game: Game, *, now: datetime.datetime) -> None:
    """Refuse a result or a summary line of a game that has not started: its scheduled start is still ahead.

    Nothing is played before the start: the game lists are handed in prior to
    it (5.1 A) and the periods follow (1.2 A); a game with no time yet has not
    started either.
    """
    if game.start_at is None:
        raise field_error(
            "start_at",
            _("Rule 5.1 A / 1.2 A: game #%(number)s has no scheduled start yet; nothing has been played.")
            % {"number": game.number},
        )
    if game.start_at > now:
        raise field_error(
            "start_at",
            _(
                "Rule 5.1 A / 1.2 A: game #%(number)s starts at %(start_at)s UTC; its result and summary are recorded once it has started."
            )
            % {"number": game.number, "start_at": game.start_at.strftime("%Y-%m-%d %H:%M")},
        )


def goal_line_counts(game: Game) -> tuple[int, int]:
    """Return the goal lines of the game's summary for the home and the away team (a forfeit's award left out)."""
    counts = dict(
        GoalRecord.objects.filter(game=game, forfeit_award=False)
        .values_list("entry_id")
        .annotate(n=Count("id"))
        .values_list("entry_id", "n")
    )
    return counts.get(game.home_id, 0), counts.get(game.away_id, 0)


def check_score_matches_goals(game: Game, *, home_goals: int, away_goals: int) -> None:
    """Refuse a final score other than the goal lines of the summary (5.5.11 B; a forfeit aside, 8.1 B / R-41).

    The goals are entered first; the score is what they add up to (an
    amendment of a final result derives it from the corrected lines).
    """
    home, away = goal_line_counts(game)
    if (home_goals, away_goals) == (home, away):
        return
    field = "home_goals" if home_goals != home else "away_goals"
    raise field_error(
        field,
        _(
            "Rule 5.5.11 B: the score is the goals credited in the game summary: %(home_team)s %(home)s, %(away_team)s %(away)s; %(home_goals)s-%(away_goals)s does not match them (enter the goals first)."
        )
        % {
            "home_team": game.home,
            "home": home,
            "away_team": game.away,
            "away": away,
            "home_goals": home_goals,
            "away_goals": away_goals,
        },
    )


def check_plays_for(entry: TeamEntry, person: Person, *, field: str) -> None:
    """Refuse a goal, assist, penalty or goalkeeper line naming someone who may not play for the team.

    The game's players are on the team's registered roster (5.1 B, R-07: the
    roster confirmed, 3.1.1) and eligible for the championship or waived by
    the IHTC (1.1 B-G, R-01..R-03), as ``roster_confirm`` found them.
    """
    line = next((line for line in roster_for_entry(entry) if line.person_id == person.pk), None)
    if line is None:
        raise field_error(
            field,
            _("Rule 5.1 B / R-07: %(person)s is not on the roster of %(entry)s.") % {"person": person, "entry": entry},
        )
    if not line.confirmed:
        raise field_error(
            field,
            _(
                "Rule 5.1 B / R-07: #%(number)s %(person)s is not on the registered roster of %(entry)s: the roster line is not confirmed (3.1.1 A)."
            )
            % {"number": line.number, "person": person, "entry": entry},
        )
    eligibility = roster_eligibility(entry, [line])[line.pk]
    if not eligibility.eligible:
        reasons = "; ".join(reason.message for reason in eligibility.reasons)
        raise field_error(
            field,
            _(
                "Rule 1.1 / R-03: #%(number)s %(person)s is not eligible to play for %(entry)s and holds no waiver: %(reasons)s"
            )
            % {"number": line.number, "person": person, "entry": entry, "reasons": reasons},
        )


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
    now: datetime.datetime | None = None,
) -> None:
    """Refuse a final result the game cannot have (1.3 A-E, 5.5.11 B, 8.1 B, R-40, R-41).

    The game has started (``check_game_started``). Round-robin games may end
    tied and take no overtime (1.3 A, D) unless the championship's points
    scheme counts overtime or shoot-out results (IIHF preset); elimination and
    placement games end with a winner: by one goal in the sudden-death
    overtime, or in a shoot-out with the tied score kept. The score is the
    goal lines of the summary (``check_score_matches_goals``); a forfeit is
    1-0 by rule and has no other goal (8.1 B, R-41).
    """
    check_game_started(game, now=resolve_now(now))
    round_robin = game.phase.kind == PhaseKind.ROUND_ROBIN
    if decided_in not in DecidedIn.values:
        raise field_error("decided_in", _("one of %(choices)s") % {"choices": ", ".join(DecidedIn.values)})
    if decided_in == DecidedIn.FORFEIT:
        if forfeited_by is None or forfeited_by.pk not in (game.home_id, game.away_id):
            raise field_error("forfeited_by", _("Rule 8.1 B: name the team of this game that forfeits."))
        played = sum(goal_line_counts(game))
        if played:
            raise field_error(
                "decided_in",
                _(
                    "Rule 8.1 B / R-41: a forfeit is recorded 1-0 with the winner's captain's goal as its only goal; game #%(number)s has %(played)s goal lines in its summary."
                )
                % {"number": game.number, "played": played},
            )
        return
    if forfeited_by is not None:
        raise field_error("forfeited_by", _("Rule 8.1 B: only a forfeit names a forfeiting team."))
    for field, value in (("home_goals", home_goals), ("away_goals", away_goals)):
        if value is None or value < 0:
            raise field_error(field, _("the final score is required"))
    check_score_matches_goals(game, home_goals=home_goals, away_goals=away_goals)
    tied = home_goals == away_goals
    if round_robin and decided_in != DecidedIn.REGULATION and not extra_time_counts(rules):
        raise field_error("decided_in", _("Rule 1.3 D: round-robin games tied after regulation stay tied."))
    if decided_in == DecidedIn.REGULATION and tied and not round_robin:
        raise field_error("decided_in", _("Rule 1.3 B: an elimination game tied after regulation goes to overtime."))
    if decided_in == DecidedIn.OVERTIME and abs(home_goals - away_goals) != 1:
        raise field_error("home_goals", _("Rule 1.3 B: the overtime is sudden death; it is won by one goal."))
    if decided_in == DecidedIn.SHOOTOUT:
        if not tied:
            raise field_error("home_goals", _("Rule 1.3 B / R-40: a game won in a shoot-out keeps the tied score."))
        if shootout_home_goals is None or shootout_away_goals is None or shootout_home_goals == shootout_away_goals:
            raise field_error(
                "shootout_home_goals", _("Rule 1.3 E / R-40: record the shoot-out score; it names a winner.")
            )
    elif shootout_home_goals is not None or shootout_away_goals is not None:
        raise field_error("shootout_home_goals", _("only a game decided in a shoot-out has a shoot-out score"))


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
        subject=_("an entry"),
        article=_("Rule 8.1 C"),
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
    from_sheet: bool = False,
) -> Game:
    """Record the final result of a game that has started; the score is its summary's goal lines (5.5.11 B).

    A forfeit is recorded 1-0 with the goal to the winner's captain, no assist
    and no goalkeeper statistics (8.1 B); it may disqualify the forfeiting
    team (8.1 C), whose games then leave the official tables (8.1 D).
    ``from_sheet``: derived from the game's final sheet (``check_summary_source``).
    """
    now = resolve_now(now)
    check_summary_source(game, by, from_sheet=from_sheet)
    rules = championship_standings_rules(game.championship)
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).select_related("phase", "home", "away").get(pk=game.pk)
        if game.home_id is None or game.away_id is None:
            raise field_error("home", _("both teams must be known before a result is recorded"))
        for field, team in (("home", game.home), ("away", game.away)):
            if team.status == EntryStatus.DISQUALIFIED:
                raise field_error(
                    field,
                    _("Rule 8.1 C: %(team)s is disqualified for the remainder of the tournament.") % {"team": team},
                )
        if game.status == GameStatus.FINAL:
            raise field_error(
                "status", _("game #%(number)s is final; its result is recorded once") % {"number": game.number}
            )
        check_transition(GAME_TRANSITIONS, game.status, GameStatus.FINAL, subject=_("a game"))
        check_result(
            game,
            home_goals=home_goals,
            away_goals=away_goals,
            decided_in=decided_in,
            forfeited_by=forfeited_by,
            shootout_home_goals=shootout_home_goals,
            shootout_away_goals=shootout_away_goals,
            rules=rules,
            now=now,
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
        hooks.count_served_games(game=game, now=now)  # 8.2, R-53: both final paths (staff's, the sheet's) come here
        hooks.game_final(game_id=game.pk, amended=False)  # answered by webhooks, after the commit
        championship_changed(game.championship_id)  # the cached public pages show the result at once
        if not from_sheet:  # a sheet's finalize announces once, after its whole transaction (games.finalize)
            transaction.on_commit(partial(_announce_final, game.pk, game.championship_id))
            _report_on_commit(game.pk)
    return game


def _report_on_commit(game_id: int) -> None:
    """Queue the official game report of the staff-entered result once it commits (a sheet's: games.finalize)."""
    hooks.game_report_on_commit(game_id)  # answered by the reports app


def _announce_final(game_id: int, championship_id: int) -> None:
    """Tell the championship's open results and standings pages (the live scoreboard's push) to reload."""
    hooks.publish_game_final(game_id, championship_id=championship_id)  # answered by the games app


def _check_game_time(game: Game, *, period: int, time_tenths: int) -> None:
    """R-10/R-11: game time is elapsed tenths within a period of 20 minutes; period 3 is the 10-minute overtime.

    Round-robin games take no overtime (1.3 D) unless the points scheme counts it (IIHF preset).
    """
    game_rules = championship_ruleset(game.championship).game
    regulation = game_rules.periods
    overtime_allowed = (
        game.phase.kind != PhaseKind.ROUND_ROBIN
        or game.decided_in == DecidedIn.OVERTIME
        or extra_time_counts(championship_standings_rules(game.championship))
    )
    last = regulation + (1 if overtime_allowed else 0)
    if not 1 <= period <= last:
        raise field_error("period", _("Rule 1.2 A / 1.3: period is 1-%(last)s in this game (R-11).") % {"last": last})
    length = (game_rules.overtime_minutes if period > regulation else game_rules.period_minutes) * 600
    if not 0 <= time_tenths <= length:
        raise field_error(
            "time_tenths",
            _("R-10: the time is elapsed tenths of a second within the period, 0-%(length)s.") % {"length": length},
        )


def _check_team_of_game(game: Game, entry: TeamEntry) -> None:
    if entry.pk not in (game.home_id, game.away_id):
        raise field_error(
            "entry", _("%(entry)s does not play game #%(number)s") % {"entry": entry, "number": game.number}
        )


def _summary_line_add(
    model, check, *, game: Game, by: User, now: datetime.datetime | None, from_sheet: bool = False, **fields
):
    """Enter a line of the game summary: with the game locked, ``check`` (the line's rules) passes, then it is saved."""
    check_summary_source(game, by, from_sheet=from_sheet)
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).select_related("phase", "championship").get(pk=game.pk)
        record = model(game=game, **fields)
        check(record, now=now)
        audited_save(record, by)
        championship_changed(game.championship_id)
    return record


def check_goal(record: GoalRecord, *, now: datetime.datetime | None = None, amending: bool = False) -> None:
    """Refuse a goal the summary cannot hold (5.1 B, 1.1, 5.5.11 B-D, R-32, 8.1 B); ``record.game`` has its phase loaded.

    The game has started and is not final: a final score is its goal lines, so
    a goal is added to a final game only by an amendment (``amending``, see
    ``result_amend``). The scorer and the assist play for the scoring team
    (``check_plays_for``).
    """
    game, entry = record.game, record.entry
    _check_team_of_game(game, entry)
    if game.decided_in == DecidedIn.FORFEIT and not record.forfeit_award:
        raise field_error("game", _("Rule 8.1 B: a forfeit's only goal is the one awarded to the winner's captain."))
    if game.status == GameStatus.FINAL and not amending:
        raise field_error(
            "game",
            _(
                "Rule 5.5.11 B: game #%(number)s is final and its score is its goal lines; a goal is corrected through an amendment of the result by the championship's directors."
            )
            % {"number": game.number},
        )
    check_game_started(game, now=resolve_now(now))
    _check_game_time(game, period=record.period, time_tenths=record.time_tenths)
    if record.power_play and record.shorthanded:
        raise field_error("power_play", _("a goal is scored on a power play or shorthanded, not both"))
    if record.assist_id is not None:
        if record.own_goal:
            raise field_error("assist", _("Rule 5.5.11 D / R-32: an own goal has no assist."))
        if record.penalty_shot:
            raise field_error("assist", _("Rule 6.1.8: a penalty shot is taken alone; it has no assist."))
        if record.assist_id == record.scorer_id:
            raise field_error(
                "assist", _("Rule 5.5.11 C: the assist goes to the player who made the pass, not the scorer.")
            )
    # 5.5.11 B-D: the goal is credited to a player of the scoring team (an own goal to the attacker who last
    # played the puck), the assist to a team-mate.
    check_plays_for(entry, record.scorer, field="scorer")
    if record.assist_id is not None:
        check_plays_for(entry, record.assist, field="assist")


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
    now: datetime.datetime | None = None,
    from_sheet: bool = False,
) -> GoalRecord:
    """Enter a goal of the game summary (5.5.11); one scorer and at most one assist (R-32)."""
    return _summary_line_add(
        GoalRecord,
        check_goal,
        game=game,
        by=by,
        now=now,
        from_sheet=from_sheet,
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
        hooks.get_infraction(code)  # the index ships with the game engine (answered by the games app)
    except KeyError:
        raise field_error(
            "infraction_code", _("Annex C: %(code)s is not in the penalty index.") % {"code": repr(code)}
        ) from None


def check_penalty(record: PenaltyRecord, *, now: datetime.datetime | None = None) -> None:
    """Refuse a penalty the summary cannot hold (R-20, R-21): a player of the team, one of its officials, or the bench.

    The game has started; a player penalized plays for the team (``check_plays_for``: 5.1 B, 1.1).
    """
    check_infraction(record.infraction_code)
    if record.minutes not in PENALTY_MINUTES:
        raise field_error(
            "minutes",
            _("R-21: a penalty charges %(minutes)s minutes.")
            % {"minutes": ", ".join(map(str, sorted(PENALTY_MINUTES)))},
        )
    game, entry = record.game, record.entry
    _check_team_of_game(game, entry)
    check_game_started(game, now=resolve_now(now))
    _check_game_time(game, period=record.period, time_tenths=record.time_tenths)
    if record.person_id is not None and not entry.officials.filter(person_id=record.person_id).exists():
        if not RosterEntry.objects.filter(entry=entry, person_id=record.person_id).exists():
            raise field_error(
                "person",
                _("R-20: %(person)s is not on the roster or bench of %(entry)s.")
                % {"person": record.person, "entry": entry},
            )
        check_plays_for(entry, record.person, field="person")


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
    now: datetime.datetime | None = None,
    from_sheet: bool = False,
) -> PenaltyRecord:
    """Enter a penalty of the game summary (R-20): a person of the team, or the bench (no person)."""
    return _summary_line_add(
        PenaltyRecord,
        check_penalty,
        game=game,
        by=by,
        now=now,
        from_sheet=from_sheet,
        entry=entry,
        person=person,
        infraction_code=infraction_code,
        minutes=minutes,
        gives_power_play=gives_power_play,
        period=period,
        time_tenths=time_tenths,
    )


def check_goalkeeper_line(record: GoalkeeperRecord, *, now: datetime.datetime | None = None) -> None:
    """Refuse a goalkeeper line that does not add up (4.6 note), belongs to a forfeit (8.1 B) or to a game
    not started, or names a goalkeeper who does not play for the team (``check_plays_for``)."""
    problem = stats_rules.goalkeeper_counts_problem(
        shots_against=record.shots_against, saves=record.saves, goals_against=record.goals_against
    )
    if problem is not None:
        raise field_error(*problem)
    game, entry = record.game, record.entry
    _check_team_of_game(game, entry)
    if game.decided_in == DecidedIn.FORFEIT:
        raise field_error(
            "game", _("Rule 8.1 B: no goalkeeper is credited with a shot, save or goal against in a forfeit.")
        )
    if not RosterEntry.objects.filter(
        entry=entry, person_id=record.goalkeeper_id, position=Position.GOALKEEPER
    ).exists():
        raise field_error(
            "goalkeeper",
            _("%(goalkeeper)s is not a goalkeeper on the roster of %(entry)s (3.1.1 A).")
            % {"goalkeeper": record.goalkeeper, "entry": entry},
        )
    check_game_started(game, now=resolve_now(now))
    check_plays_for(entry, record.goalkeeper, field="goalkeeper")


def goalkeeper_record_set(
    *,
    game: Game,
    entry: TeamEntry,
    goalkeeper: Person,
    shots_against: int,
    saves: int,
    goals_against: int,
    by: User,
    now: datetime.datetime | None = None,
    from_sheet: bool = False,
    seconds_played: int | None = None,
) -> GoalkeeperRecord:
    """Set a goalkeeper's line for a game: a save is a shot that would have entered (4.6 note).

    ``seconds_played``: the time in goal when known (the live sheet gives it), for the goals-against average.
    """
    check_summary_source(game, by, from_sheet=from_sheet)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        record = GoalkeeperRecord.objects.filter(game=game, goalkeeper=goalkeeper).first() or GoalkeeperRecord(
            game=game, goalkeeper=goalkeeper
        )
        record.entry = entry
        record.shots_against, record.saves, record.goals_against = shots_against, saves, goals_against
        if seconds_played is not None and (isinstance(seconds_played, bool) or seconds_played < 0):
            raise field_error("seconds_played", _("the time in goal is whole seconds, 0 or more"))
        record.seconds_played = seconds_played
        check_goalkeeper_line(record, now=now)
        audited_save(record, by)
        championship_changed(game.championship_id)
    return record


def standings_shootout_enter(*, pool: Pool, ordered_entries: Sequence[TeamEntry], by: User) -> StandingsShootout:
    """Enter the result of the shoot-out between teams still tied after 9.3 C-F (9.3 G, R-42), best first."""
    check_can_direct(by, pool.championship)
    names = [e.name for e in ordered_entries]
    if len(set(names)) != len(names):
        raise field_error("ordered_entries", _("a team is listed twice"))
    with transaction.atomic():
        pool = Pool.objects.select_for_update(of=("self",)).select_related("championship").get(pk=pool.pk)
        standings = standings_for_pool(pool)
        if frozenset(names) not in {frozenset(group) for group in standings.unresolved}:
            pending = "; ".join(", ".join(group) for group in standings.unresolved) or "none"
            raise field_error(
                "ordered_entries",
                _("Rule 9.3 G / R-42: a shoot-out decides only teams still tied after 9.3 C-F (pending: %(pending)s).")
                % {"pending": pending},
            )
        shootout = audited_create(StandingsShootout, by, pool=pool, entered_by=by, entered_at=timezone.now())
        StandingsShootoutPlace.objects.bulk_create(
            StandingsShootoutPlace(shootout=shootout, entry=entry, place=place)
            for place, entry in enumerate(ordered_entries, start=1)
        )
        championship_changed(pool.championship_id)
    return shootout


# What an amendment may change beside the goal lines (the score follows the lines).
AMENDMENT_RESULT_FIELDS = ("decided_in", "shootout_home_goals", "shootout_away_goals")


def _result_snapshot(game: Game) -> dict:
    """The result and the goal lines of ``game`` as an amendment records them (before and after)."""
    goals = GoalRecord.objects.filter(game=game).order_by("period", "time_tenths", "pk")
    return {
        "home_goals": game.home_goals,
        "away_goals": game.away_goals,
        "decided_in": game.decided_in,
        "shootout_home_goals": game.shootout_home_goals,
        "shootout_away_goals": game.shootout_away_goals,
        "goals": [
            {
                "id": goal.pk,
                "entry": goal.entry_id,
                "scorer": goal.scorer_id,
                "assist": goal.assist_id,
                "period": goal.period,
                "time_tenths": goal.time_tenths,
            }
            for goal in goals
        ],
    }


def check_amendment_reason(reason: str | None) -> str:
    """Return the reason of an amendment, stripped; refuse an amendment without one (who, when and why are kept)."""
    reason = (reason or "").strip()
    if not reason:
        raise field_error(
            "reason", _("An amendment of a final result gives its reason; who, when and why are recorded.")
        )
    return reason


def check_amendable(game: Game) -> None:
    """Only a final result is amended, and not a forfeit: its 1-0 and the disqualification it may bring (8.1 B-C)."""
    if game.status != GameStatus.FINAL:
        raise field_error(
            "game",
            _("game #%(number)s has no final result to amend; record its result instead") % {"number": game.number},
        )
    if game.decided_in == DecidedIn.FORFEIT:
        raise field_error(
            "decided_in",
            _("Rule 8.1 B-C / R-41, R-43: a forfeit's 1-0 and any disqualification it brought are not amended here."),
        )


def result_amend(
    *,
    game: Game,
    reason: str,
    by: User,
    remove_goals: Sequence[GoalRecord] = (),
    add_goals: Sequence[Mapping] = (),
    decided_in: str | None = None,
    shootout_home_goals: int | None = None,
    shootout_away_goals: int | None = None,
    now: datetime.datetime | None = None,
    from_sheet: bool = False,
) -> ResultAmendment:
    """Correct a final result, for the championship's directors: an audited amendment (who, when, why).

    The goal lines are corrected (``remove_goals``: lines of this game;
    ``add_goals``: the fields ``goal_add`` takes, checked as it checks them)
    and the score is derived from them (5.5.11 B), so it cannot disagree with
    the summary. ``decided_in`` and the shoot-out score change when given
    (None keeps them; a game no longer decided in a shoot-out loses its
    shoot-out score); the corrected result is checked like a new one
    (``check_result``). Standings and statistics are computed from the
    results and the summaries, so they follow. ``from_sheet``: the amendment of
    the game's final sheet (``games.finalize.sheet_amend``) corrects the result.
    """
    now = resolve_now(now)
    check_can_direct(by, game.championship)
    check_summary_source(game, by, from_sheet=from_sheet)
    reason = check_amendment_reason(reason)
    if decided_in == DecidedIn.FORFEIT:
        raise field_error(
            "decided_in", _("Rule 8.1 B: a forfeit is recorded as the game's result, not as an amendment.")
        )
    rules = championship_standings_rules(game.championship)
    with transaction.atomic():
        game = (
            Game.objects.select_for_update(of=("self",))
            .select_related("phase", "championship", "home", "away")
            .get(pk=game.pk)
        )
        check_amendable(game)
        before = _result_snapshot(game)
        stray = [goal.pk for goal in remove_goals if goal.game_id != game.pk]
        if stray:
            raise field_error(
                "remove_goals",
                _("goal %(goal)s is not a goal of game #%(number)s") % {"goal": stray[0], "number": game.number},
            )
        for goal in remove_goals:
            audited_delete(goal, by)
        for fields in add_goals:
            record = GoalRecord(game=game, **fields)
            check_goal(record, now=now, amending=True)
            audited_save(record, by)
        game.decided_in = decided_in or game.decided_in
        if game.decided_in == DecidedIn.SHOOTOUT:
            if shootout_home_goals is not None:
                game.shootout_home_goals = shootout_home_goals
            if shootout_away_goals is not None:
                game.shootout_away_goals = shootout_away_goals
        else:
            game.shootout_home_goals, game.shootout_away_goals = shootout_home_goals, shootout_away_goals
        game.home_goals, game.away_goals = goal_line_counts(game)
        check_result(
            game,
            home_goals=game.home_goals,
            away_goals=game.away_goals,
            decided_in=game.decided_in,
            forfeited_by=None,
            shootout_home_goals=game.shootout_home_goals,
            shootout_away_goals=game.shootout_away_goals,
            rules=rules,
            now=now,
        )
        after = _result_snapshot(game)
        if after == before:
            raise field_error(
                "reason", _("The amendment changes nothing: correct a goal line or how the game was decided.")
            )
        audited_save(game, by, update_fields=["home_goals", "away_goals", *AMENDMENT_RESULT_FIELDS])
        hooks.game_final(game_id=game.pk, amended=True)  # both amendment paths; webhooks, after the commit
        championship_changed(game.championship_id)
        if not from_sheet:  # the open results and standings pages reload (a sheet's amendment: games.finalize)
            transaction.on_commit(partial(_announce_final, game.pk, game.championship_id))
            _report_on_commit(game.pk)
        return audited_create(
            ResultAmendment, by, game=game, amended_by=by, amended_at=now, reason=reason, before=before, after=after
        )


def summary_line_remove(
    *, record: GoalRecord | PenaltyRecord | GoalkeeperRecord, by: User, from_sheet: bool = False
) -> None:
    """Remove a line of a game summary (audited: who removed it is in its history).

    A goal of a final game is removed only by an amendment of its result (``result_amend``): the score is its
    goal lines (5.5.11 B). Used by ``games.finalize`` to make a summary the sheet's log.
    """
    game = Game.objects.select_related("championship").get(pk=record.game_id)
    check_summary_source(game, by, from_sheet=from_sheet)
    if isinstance(record, GoalRecord) and game.status == GameStatus.FINAL:
        raise field_error(
            "game",
            _(
                "Rule 5.5.11 B: game #%(number)s is final and its score is its goal lines; a goal is removed through an amendment of the result."
            )
            % {"number": game.number},
        )
    with transaction.atomic():
        audited_delete(record, by)
        championship_changed(game.championship_id)
