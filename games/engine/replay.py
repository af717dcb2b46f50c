"""Replay a game log into a state: one pass over the events in (period, time, entry) order."""

from collections.abc import Iterable
from itertools import combinations
from operator import attrgetter
from typing import Any, NoReturn, TypeVar

from common.text import Text, _, said_in

from . import penalties as box
from .errors import EventFormatError, InvalidEvent
from .events import (
    AFTER_PERIODS,
    CLOCK_START,
    CLOCK_STOP,
    CORRECTION,
    DIFFERENTIAL,
    FORFEIT,
    GAME_END,
    GOAL,
    GOALKEEPER_PULLED,
    GOALKEEPER_REPLACED,
    GOALKEEPER_RETURNED,
    PENALTY,
    PENALTY_SHOT_ATTEMPT,
    PERIOD_END,
    PERIOD_START,
    PROTEST,
    RETURN_FIRST,
    SERVE,
    SHOOTOUT_ATTEMPT,
    SHOT,
    TIMEOUT,
    Event,
    format_time,
)
from .penalty_index import get_infraction, unknown_code_hint
from .ruleset import (
    BENCH_MINOR,
    DEFAULT_RULESET,
    DOUBLE_MINOR,
    GAME_EJECTION,
    GAME_MISCONDUCT,
    GROSS_MISCONDUCT,
    MAJOR,
    MATCH,
    MINOR,
    MISCONDUCT,
    PENALTY_SHOT,
    ROUND_ROBIN,
    Ruleset,
)
from .state import (
    DONE,
    ENDED,
    EXPIRED,
    IN_PROGRESS,
    INTERMISSION,
    NOT_STARTED,
    SHOOTOUT,
    Game,
    GameState,
    GoalkeeperReplacement,
    GoalRecord,
    Notice,
    PenaltyRecord,
    ProtestRecord,
    Result,
    Serve,
    ShootoutState,
    TeamRoster,
    TeamState,
    said_side,
)

OUT_OF_GAME = frozenset({GAME_MISCONDUCT, MATCH, GAME_EJECTION, GROSS_MISCONDUCT})
# Events that may share a stoppage with penalties without closing the assessment (6.2.3, R-25).
_SAME_STOPPAGE = frozenset(
    {
        PENALTY,
        CLOCK_STOP,
        TIMEOUT,
        RETURN_FIRST,
        DIFFERENTIAL,
        SHOT,
        GOALKEEPER_PULLED,
        GOALKEEPER_RETURNED,
        GOALKEEPER_REPLACED,
        PROTEST,
    }
)
_CHAIN_RANK = {MAJOR: 0, MATCH: 0, MINOR: 1, BENCH_MINOR: 1, DOUBLE_MINOR: 1, MISCONDUCT: 2}
_NEVER = 1 << 62
_ORDER = attrgetter("period", "time", "seq")
_PENALTY_SHOT_ARTICLE = {"illegal_substitution": "6.4.6 C", "displacing_goal_post": "6.4.8 B"}


_T = TypeVar("_T")


def other(side: str) -> str:
    return "away" if side == "home" else "home"


def _given(value: _T | None, event: Event, field: str) -> _T:
    """Return a field that ``parse_event`` requires of this event's type; refuse an event built without it (R-10)."""
    if value is None:
        raise EventFormatError(
            _("R-10: %(kind)s needs its %(field)s", kind=event.type, field=field), field=field, event_id=event.id
        )
    return value


def starting_line_up_problem(side: str, roster: TeamRoster, *, floor_players: int) -> Text | None:
    """Return why a team cannot start the game (5.3 B, 8.1 A), or None: it needs ``floor_players`` and a goalkeeper.

    The one count of 5.3 B: the engine asks it at the first period's start, the portal before the game
    (``games.services.check_game_can_start``).
    """
    if len(roster.skaters) >= floor_players and roster.goalkeepers:
        return None
    return _(
        "Rule 5.3 B / 8.1 A: %(side)s (%(team)s) has %(skaters)s floor player(s) and %(goalkeepers)s goalkeeper(s); "
        "a game starts with %(floor_players)s floor players and a goalkeeper; the team forfeits (enter the forfeit, "
        "8.1 B)",
        side=side,
        team=roster.name,
        skaters=len(roster.skaters),
        goalkeepers=len(roster.goalkeepers),
        floor_players=floor_players,
    )


def sort_events(events: Iterable[Event]) -> list[Event]:
    """Return the events to replay: corrections applied, in (period, time, entry sequence) order."""
    events = list(events)
    voided = voided_ids(events)
    kept = [e for e in events if e.type != CORRECTION and e.id not in voided]
    kept.sort(key=_ORDER)
    return kept


def voided_ids(events: Iterable[Event]) -> set[str]:
    """Return the ids of the events the log's corrections void (a correction voided by another does not apply)."""
    events = list(events)
    corrections = [e for e in events if e.type == CORRECTION]
    return _voided(events, corrections) if corrections else set()


def _voided(events: list[Event], corrections: list[Event]) -> set[str]:
    """Return the ids voided by corrections; a correction voided by another correction does not apply."""
    ids = {e.id for e in events}
    voiders: dict[str, list[str]] = {}
    targets: list[tuple[str, str]] = []  # (correction id, id it voids)
    for correction in corrections:
        voids = correction.voids
        if voids is None or voids not in ids:
            raise EventFormatError(
                _(
                    "R-10: correction %(id)s voids %(voids)s, which is not in the log",
                    id=correction.id,
                    voids=repr(correction.voids),
                ),
                field="voids",
                event_id=correction.id,
            )
        voiders.setdefault(voids, []).append(correction.id)
        targets.append((correction.id, voids))
    active: dict[str, bool] = {}

    def applies(correction_id: str) -> bool:
        if correction_id not in active:
            active[correction_id] = True  # a cycle of corrections: the first one read applies
            active[correction_id] = not any(applies(other) for other in voiders.get(correction_id, ()))
        return active[correction_id]

    return {voids for correction_id, voids in targets if applies(correction_id)}


class Replayer:
    """Apply events one by one to a GameState. Use ``replay`` or ``state_at``."""

    __slots__ = (
        "state",
        "rules",
        "batch",
        "batch_key",
        "pending_records",
        "next_end",
        "mark_at",
        "serve_order",
        "handlers",
        "teams",
        "length",
        "held_end",
        "deferred",
        "washed_halves",
        "awarded_at",
        "choices",
    )

    def __init__(self, game: Game, ruleset: Ruleset = DEFAULT_RULESET):
        self.state = GameState(game=game, ruleset=ruleset)
        self.rules = ruleset
        self.teams = self.state.teams
        # The penalties of the current stoppage, assessed together: (penalty event, was it signalled).
        self.batch: list[tuple[Event, bool]] = []
        self.batch_key: tuple[int, int] | None = None  # set while a stoppage's penalties wait for assessment
        self.pending_records: list[PenaltyRecord] = []  # automatic penalties waiting for assessment
        self.next_end = _NEVER
        self.mark_at = _NEVER
        self.serve_order = 0
        self.length = ruleset.period_length  # length of the current period
        # 6.1.8 F: (period, time) of a period end that waits for the penalty shots awarded at it.
        self.held_end: tuple[int, int] | None = None
        # Officials' decisions entered at a stoppage whose penalties are not assessed yet (6.1.5 B).
        self.deferred: list[Event] = []
        # ids of signalled double minors whose first half a goal washed out.
        self.washed_halves: set[str] = set()
        # (conceding side, period, time) of the awarded goals: the foul's minor is recorded, not served.
        self.awarded_at: set[tuple[str, int, int]] = set()
        # the captain's choices of the differential at the stoppage being assessed.
        self.choices: list[Event] = []
        self.handlers = {
            PERIOD_START: self.period_start,
            PERIOD_END: self.period_end,
            CLOCK_START: self.clock_start,
            CLOCK_STOP: self.clock_stop,
            GOAL: self.goal,
            PENALTY: self.penalty,
            PENALTY_SHOT_ATTEMPT: self.penalty_shot,
            TIMEOUT: self.timeout,
            GOALKEEPER_PULLED: self.goalkeeper_pulled,
            GOALKEEPER_RETURNED: self.goalkeeper_returned,
            GOALKEEPER_REPLACED: self.goalkeeper_replaced,
            SHOT: self.shot,
            SERVE: self.serve,
            RETURN_FIRST: self.return_first,
            DIFFERENTIAL: self.differential,
            SHOOTOUT_ATTEMPT: self.shootout_attempt,
            FORFEIT: self.forfeit,
            PROTEST: self.protest,
            GAME_END: self.game_end,
        }

    # -- the loop -----------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Apply one event (events must come in replay order)."""
        state = self.state
        if self.held_end is not None and (event.period, event.time) != self.held_end and event.type != FORFEIT:
            # 6.1.8 F: the log moves on without the awarded shot being entered; the period ends first.
            if self.batch_key is not None:
                self.assess()
            self.close_period()
        if state.status == ENDED and self.at_final_whistle(event):
            self.protest(event)
            return
        if state.status == ENDED and not (
            event.type == GAME_END and state.result is not None and not state.result.confirmed
        ):
            if event.type == PERIOD_START and state.game.game_type == ROUND_ROBIN:
                self.refuse(_("Rule 1.3 D: round-robin games have no overtime; a tie stands (1.3 A)"), event, "period")
            raise InvalidEvent(
                _("Rule 1.3 / R-11: the game has ended; no %(kind)s can follow it", kind=event.type),
                field="type",
                event_id=event.id,
            )
        if event.type == GOAL and event.awarded and event.team is not None:
            # the foul's minor, entered before or after the awarded goal, is recorded and not served.
            self.awarded_at.add((other(event.team), event.period, event.time))
        if self.batch_key is not None and (
            event.type not in _SAME_STOPPAGE or (event.period, event.time) != self.batch_key
        ):
            self.assess()
        if event.type == TIMEOUT:
            self.check_timeout_moment(event)
        timed = event.period < AFTER_PERIODS and event.type != PERIOD_START
        if timed and (event.type != FORFEIT or state.status == IN_PROGRESS):
            self.to_time(event)
        self.handlers[event.type](event)

    def to_time(self, event: Event) -> None:
        state = self.state
        if state.status != IN_PROGRESS or event.period != state.period:
            if state.status == IN_PROGRESS:
                refusal = _(
                    "R-11: %(kind)s in period %(period)s, but period %(current)s is in progress "
                    "(enter the period_start)",
                    kind=event.type,
                    period=event.period,
                    current=state.period,
                )
            else:
                refusal = _(
                    "R-11: %(kind)s in period %(period)s, but the game is %(status)s (enter the period_start)",
                    kind=event.type,
                    period=event.period,
                    status=state.status,
                )
            raise InvalidEvent(
                refusal,
                field="period",
                event_id=event.id,
            )
        if event.time > self.length:
            raise InvalidEvent(
                _(
                    "R-10: time %(time)s is beyond the period's %(length)s",
                    time=format_time(event.time),
                    length=format_time(self.length),
                ),
                field="time",
                event_id=event.id,
            )
        if event.time != state.elapsed:
            if not state.running:
                raise InvalidEvent(
                    _(
                        "R-10: game time moved from %(was)s to %(time)s while the clock was stopped "
                        "(enter the clock_start)",
                        was=format_time(state.elapsed),
                        time=format_time(event.time),
                    ),
                    field="time",
                    event_id=event.id,
                )
            self.advance(state.now - state.elapsed + event.time)

    def advance(self, target: int) -> None:
        """Run the clock to an absolute game time: expire penalties in order, mark the last two minutes."""
        state = self.state
        if target >= self.mark_at:
            # 4.4, R-13: the game timekeeper announces the last two minutes.
            at = self.mark_at - state.now + state.elapsed
            self.mark_at = _NEVER
            state.notices.append(Notice(state.period, at, "4.4", f"two minutes remain in period {state.period}"))
        while self.next_end <= target:
            team, serve = self._next_expiry()
            state.elapsed += serve.ends_at - state.now
            state.now = serve.ends_at
            if team.return_first is not None and team.return_first == serve.served_by:
                team.return_first = None
            box.end_serve(team, serve, serve.ends_at, self.rules)
            self._refresh_next_end()
        state.elapsed += target - state.now
        state.now = target

    def _next_expiry(self) -> tuple[TeamState, Serve]:
        home = box.next_expiry(self.teams["home"])
        away = box.next_expiry(self.teams["away"])
        if home is not None and (away is None or home[0] <= away[0]):
            return self.teams["home"], home[1]
        if away is None:
            raise ValueError("no penalty is running: next_end is set only while one runs")
        return self.teams["away"], away[1]

    def _refresh_next_end(self) -> None:
        ends = [s.ends_at for t in self.teams.values() for s in t.running]
        self.next_end = min(ends) if ends else _NEVER

    def finish(self) -> GameState:
        """Close the stoppage being assessed and return the state."""
        if self.batch_key is not None:
            self.assess()
        return self.state

    def notice(self, article: str, text: str) -> None:
        state = self.state
        state.notices.append(Notice(state.period, state.elapsed, article, text))

    def refuse(self, message: str, event: Event, field: str | None = None) -> NoReturn:
        raise InvalidEvent(message, field=field, event_id=event.id)

    def refuse_not_on_line_up(self, player: object, side: str | None, event: Event, field: str) -> NoReturn:
        """5.1 B / R-07: the number is not on the side's line-up."""
        self.refuse(
            _("Rule 5.1 B / R-07: %(player)s is not on the %(side)s line-up", player=player, side=said_side(side)),
            event,
            field,
        )

    def refuse_out_of_game(self, article: str, player: object, event: Event, field: str) -> NoReturn:
        """R-30: the player is out of the game (the article that put them out)."""
        self.refuse(
            _("Rule %(article)s / R-30: %(player)s is out of the game", article=article, player=player), event, field
        )

    # -- periods and clock --------------------------------------------------------------------

    def period_start(self, event: Event) -> None:
        state, rules = self.state, self.rules
        if state.status not in (NOT_STARTED, INTERMISSION):
            self.refuse(
                _(
                    "R-11: period %(period)s cannot start while the game is %(status)s",
                    period=event.period,
                    status=state.status,
                ),
                event,
                "type",
            )
        if event.period != state.period + 1:
            self.refuse(
                _("R-11: the next period is %(next)s, not %(period)s", next=state.period + 1, period=event.period),
                event,
                "period",
            )
        if event.time != 0:
            self.refuse(_("R-10: a period starts at 0:00 elapsed"), event, "time")
        if event.period > rules.periods:
            if self.state.game.game_type == ROUND_ROBIN:
                self.refuse(_("Rule 1.3 D: round-robin games have no overtime; a tie stands (1.3 A)"), event, "period")
            if event.period > rules.periods + 1:
                self.refuse(_("Rule 1.3 B / R-11: one 10-minute overtime, then a shoot-out"), event, "period")
        if event.period == 1:
            self.check_starting_line_ups(event)
        state.period = event.period
        state.elapsed = 0
        state.now = (event.period - 1) * rules.period_length
        state.status = IN_PROGRESS
        state.running = True  # 5.4 B: each period starts with a face-off
        self.length = state.period_length
        self.mark_at = state.now + self.length - rules.two_minute_mark

    def check_starting_line_ups(self, event: Event) -> None:
        """5.3 B: at the whistle that starts the game each team has four floor players and a goalkeeper.

        Checked when play starts, not when the game is set up: a team that cannot start forfeits (8.1 A), and
        the ``forfeit`` is recorded 1-0 to the other team (8.1 B, R-41).
        """
        for team in self.teams.values():
            problem = starting_line_up_problem(team.side, team.roster, floor_players=self.rules.floor_players)
            if problem is not None:
                self.refuse(problem, event, "team")

    def period_end(self, event: Event) -> None:
        state = self.state
        if event.time != state.period_length:
            self.refuse(
                _(
                    "Rule 1.2 A / R-11: period %(period)s ends at %(end)s elapsed, not %(time)s",
                    period=state.period,
                    end=format_time(state.period_length),
                    time=format_time(event.time),
                ),
                event,
                "time",
            )
        self.stoppage()
        self.assess()
        state.running = False
        pending = [shot for team in self.teams.values() for shot in team.pending_shots]
        if pending:
            # 6.1.8 F: a penalty shot awarded as the time ran out is still taken; the period ends after it.
            self.held_end = (state.period, state.elapsed)
            self.notice(
                "6.1.8 F",
                f"period {state.period}'s time has run out; the penalty shot ({', '.join(pending)}) is taken "
                "before the period ends",
            )
            return
        self.close_period()

    def close_period(self) -> None:
        """End the period whose time has run out: half-time, the end of the game, overtime or the shoot-out."""
        state, rules = self.state, self.rules
        self.held_end = None
        for team in self.teams.values():
            team.pending_shots.clear()
        home, away = self.teams["home"].score, self.teams["away"].score
        if state.period < rules.periods:
            state.status = INTERMISSION
        elif state.period == rules.periods:
            if home != away or state.game.game_type == ROUND_ROBIN:
                self.end_game("regulation")  # 1.3 A: a round-robin tie stands
            else:
                state.status = INTERMISSION  # 1.3 B: overtime follows
        else:
            self.start_shootout()

    def clock_start(self, event: Event) -> None:
        if self.held_end is not None:
            self.refuse(
                _(
                    "Rule 1.2 A / 6.1.8 F: period %(period)s's time has run out; only the penalty shot awarded "
                    "remains before it ends",
                    period=self.state.period,
                ),
                event,
                "type",
            )
        # Starting a running clock changes nothing: a correction may have voided the stoppage before it.
        self.state.running = True
        for team in self.teams.values():
            team.pending_shots.clear()  # 6.1.8: play resumes after the shot is taken

    def clock_stop(self, event: Event) -> None:
        if self.state.running:
            self.stoppage()

    def stoppage(self) -> None:
        """Stop play: the clock stops, signalled penalties are assessed (6.3 B), expired players leave (6.2.2 B)."""
        state = self.state
        state.running = False
        key = (state.period, state.elapsed)
        for team in self.teams.values():
            box.release_at_stoppage(team)
            if team.signalled:
                for event in team.signalled:
                    self.batch.append((event, True))
                team.signalled = []
                self.batch_key = key

    # -- goals --------------------------------------------------------------------------------

    def check_on_floor(self, team: TeamState, number: int | None, event: Event, role: str) -> None:
        """Refuse a scorer or an assist who is not on the line-up, out of the game, or in the box."""
        if number is None:
            return
        player = team.players.get(number)
        if player is None:
            self.refuse(
                _(
                    "Rule 5.1 B / R-07: %(role)s %(number)s is not on the %(side)s line-up",
                    role=role,
                    number=number,
                    side=said_side(team.side),
                ),
                event,
                "player",
            )
        if player.out_of_game is not None:
            self.refuse(
                _(
                    "Rule %(article)s / R-30: %(role)s %(number)s is out of the game",
                    article=player.out_of_game,
                    role=role,
                    number=number,
                ),
                event,
                "player",
            )
        if any(s.served_by == number for s in team.box):
            self.refuse(
                _("Rule 6.4.1 B / 6.4.27 D: %(role)s %(number)s is in the penalty box", role=role, number=number),
                event,
                "player",
            )

    def goal(self, event: Event) -> None:
        state = self.state
        if not state.running and not event.awarded:
            # 6.4.35: an awarded goal is the referee's decision and may be entered at the stoppage.
            self.refuse(_("Rule 5.5.11 A: a goal is scored in play, and the clock is stopped"), event, "time")
        side = _given(event.team, event, "team")
        scoring, conceding = self.teams[side], self.teams[other(side)]
        if event.own_goal and event.assist is not None:
            self.refuse(_("Rule 5.5.11 D / R-32: an own goal is credited with no assist"), event, "assist")
        if event.assist is not None and event.assist == event.player:
            self.refuse(_("Rule 5.5.11 C: the scorer cannot assist the own goal"), event, "assist")
        if event.awarded and event.assist is not None:
            self.refuse(
                _(
                    "R-69 / 6.4.35: an awarded goal is credited to the player fouled (else the attacker who "
                    "last played the puck) with no assist"
                ),
                event,
                "assist",
            )
        self.check_on_floor(scoring, event.player, event, said_in("a player in a refusal", "scorer"))
        self.check_on_floor(scoring, event.assist, event, said_in("a player in a refusal", "assist"))
        if event.awarded:
            self.awarded_at.add((conceding.side, state.period, state.elapsed))
        self.score(event, scoring, conceding, penalty_shot=False)
        self.stoppage()
        if state.status == IN_PROGRESS and state.period > self.rules.periods:
            self.assess()
            self.end_game("overtime")  # 1.3 B: sudden death

    def score(self, event: Event, scoring: TeamState, conceding: TeamState, *, penalty_shot: bool) -> None:
        """Count a goal; end the shorthanded team's minor (6.2.1 B); settle signalled penalties (6.3 C, E, R-26)."""
        state = self.state
        strength = (
            "power_play"
            if scoring.entitled(self.rules) > conceding.entitled(self.rules)
            else "shorthanded"
            if scoring.entitled(self.rules) < conceding.entitled(self.rules)
            else "even"
        )
        empty_net = conceding.goalkeeper_pulled if event.empty_net is None else event.empty_net
        record = GoalRecord(
            id=event.id,
            team=scoring.side,
            period=state.period,
            time=state.elapsed,
            scorer=event.player,
            assist=event.assist,
            own_goal=event.own_goal,
            awarded=event.awarded,
            penalty_shot=penalty_shot,
            empty_net=empty_net,
            strength=strength,
        )
        scoring.score += 1
        if not event.awarded and not event.own_goal:
            scoring.shots += 1
        if event.player is not None:
            scoring.players[event.player].goals += 1
        if event.assist is not None:
            scoring.players[event.assist].assists += 1
        ended = box.goal_ends_penalty(conceding, scoring, state.now, self.rules)
        if ended is not None:
            record.ended_penalty = ended.penalty.id
            self._refresh_next_end()
        state.goals.append(record)
        if conceding.signalled and ended is None:
            self.wash_out(conceding)

    def wash_out(self, conceding: TeamState) -> None:
        """R-59, 6.3 C, F, R-26: the goal washes out ONE signalled minor, the one signalled first (at the same
        instant, the first entered: the list keeps replay order); the others are served from the goal.
        R-58: when that one is a double minor, its first half is washed out and its second is served.
        Majors, match penalties and misconducts are served anyway. The caller skips this when the goal
        ended a running minor instead (6.3 E, 6.2.2 D): then every signalled penalty is served."""
        for pending in conceding.signalled:
            if pending.penalty in (MINOR, BENCH_MINOR):
                self.record_penalty(pending, status="not_served", signalled=True)
                conceding.signalled = [e for e in conceding.signalled if e is not pending]
                return
            if pending.penalty == DOUBLE_MINOR:
                self.washed_halves.add(pending.id)
                return

    # -- penalties ----------------------------------------------------------------------------

    def penalty(self, event: Event) -> None:
        state = self.state
        team = self.teams[_given(event.team, event, "team")]
        self.check_penalty(event, team)
        if event.delayed:
            if not state.running:
                self.refuse(_("Rule 6.3 B: a penalty is signalled delayed only while play goes on"), event, "delayed")
            team.signalled.append(event)
            return
        if state.running:
            self.stoppage()  # 6.3 A: the whistle goes at once
        self.batch.append((event, False))
        self.batch_key = (state.period, state.elapsed)

    def check_penalty(self, event: Event, team: TeamState) -> None:
        if event.staff is not None:
            if event.staff not in team.roster.staff:
                self.refuse(
                    _(
                        "Rule 5.1 B / R-07: %(staff)s is not on the %(side)s bench staff",
                        staff=repr(event.staff),
                        side=said_side(team.side),
                    ),
                    event,
                    "staff",
                )
            if event.staff in team.staff_out:
                self.refuse(
                    _(
                        "Rule %(article)s: %(staff)s is out of the game",
                        article=team.staff_out[event.staff],
                        staff=event.staff,
                    ),
                    event,
                    "staff",
                )
            if event.penalty == PENALTY_SHOT:
                self.refuse(_("Rule 6.1.8: a penalty shot is awarded against a team, not its staff"), event, "penalty")
        elif event.player is None:
            if event.penalty != BENCH_MINOR:
                self.refuse(
                    _(
                        "Rule 6.1.2 D: only a bench minor may name no player; a %(penalty)s names the offender",
                        penalty=event.penalty,
                    ),
                    event,
                    "player",
                )
        elif event.player not in team.players:
            self.refuse_not_on_line_up(event.player, team.side, event, "player")
        if event.infraction is not None:
            try:
                get_infraction(event.infraction)
            except KeyError:
                self.refuse(
                    _(
                        "R-20: %(infraction)s is not a line of the Annex C penalty index; %(hint)s",
                        infraction=repr(event.infraction),
                        hint=unknown_code_hint(event.infraction),
                    ),
                    event,
                    "infraction",
                )
        if event.served_by is not None:
            server = team.players.get(event.served_by)
            if server is None:
                self.refuse_not_on_line_up(event.served_by, team.side, event, "served_by")
            if server.goalkeeper or team.in_goal(event.served_by):
                self.refuse(
                    _("Rule 6.1.2 B / 6.1.4 B: a floor player serves the penalty, not a goalkeeper"), event, "served_by"
                )
            if server.out_of_game is not None:
                self.refuse(
                    _(
                        "Rule %(article)s / R-30: %(player)s is out of the game and cannot serve",
                        article=server.out_of_game,
                        player=event.served_by,
                    ),
                    event,
                    "served_by",
                )
            if event.penalty in (MAJOR, MATCH) and event.served_by == event.player:
                self.refuse(
                    _("Rule 6.1.3 A / 6.1.6 A: the penalized player is out; a substitute serves"), event, "served_by"
                )

    def record_penalty(
        self,
        event: Event,
        *,
        status: str = "assessed",
        signalled: bool = False,
        kind: str | None = None,
        call: bool = True,
    ) -> PenaltyRecord:
        """Write one penalty on the sheet, charge its minutes and count the call (R-20, R-21, R-29)."""
        state = self.state
        side = _given(event.team, event, "team")
        team = self.teams[side]
        kind = kind or _given(event.penalty, event, "penalty")
        line = None
        if event.infraction is not None:
            line = get_infraction(event.infraction)
        record = PenaltyRecord(
            id=event.id,
            team=side,
            player=event.player,
            kind=kind,
            infraction=event.infraction,
            article=event.article or (line.article if line else None),
            period=state.period,
            time=state.elapsed,
            signalled_period=event.period if signalled else None,
            signalled_time=event.time if signalled else None,
            served_by=event.served_by,
            status=status,
            stick=bool(line and line.stick_infraction),
            pairable=event.coincidental,
            seq=event.seq,
            call=call,
            staff=event.staff,
        )
        if status == "assessed":
            record.minutes = self.rules.minutes_for(kind)
            if kind == DOUBLE_MINOR and event.id in self.washed_halves:
                record.washed_out_half = True  # one call, the second half's minutes only
                record.minutes = self.rules.minutes_minor
        state.penalties.append(record)
        self.charge(team, record)
        return record

    def charge(self, team: TeamState, record: PenaltyRecord) -> list[PenaltyRecord]:
        """Charge minutes and count calls; add the automatic penalties of 6.1.3 B and 6.1.7 (R-29)."""
        if record.staff is not None:
            # 6.4.28 B, 8.2 C: minutes to the staff member (6.1.7 counts players' calls only); a game misconduct or
            # match penalty sends him off; a floor player designated with ``serve`` serves any time.
            team.staff_minutes[record.staff] = team.staff_minutes.get(record.staff, 0) + record.minutes
            if record.kind in OUT_OF_GAME and record.staff not in team.staff_out:
                team.staff_out[record.staff] = record.article or ("6.1.6 A" if record.kind == MATCH else "6.1.5 A")
            return []
        if record.player is None:
            team.bench_minutes += record.minutes
            return []
        player = team.players[record.player]
        player.minutes += record.minutes
        record.goalkeeper = player.goalkeeper
        added = []
        if record.call:
            for kind, article in box.automatic_penalties(player, record.kind, record.stick, self.rules):
                auto = PenaltyRecord(
                    id=f"{record.id}/{article.replace(' ', '')}",
                    team=team.side,
                    player=record.player,
                    kind=kind,
                    infraction=None,
                    article=article,
                    period=record.period,
                    time=record.time,
                    minutes=self.rules.minutes_for(kind),
                    automatic=article,
                    caused_by=record.id,
                    call=False,
                    goalkeeper=player.goalkeeper,
                    seq=record.seq,
                )
                self.state.penalties.append(auto)
                player.minutes += auto.minutes
                self.notice(article, f"{kind.replace('_', ' ')} to {team.side} {record.player} ({record.id})")
                added.append(auto)
        out = [r for r in (record, *added) if r.kind in OUT_OF_GAME]
        if out and player.out_of_game is None:
            player.out_of_game = out[0].automatic or out[0].article or "6.1.5 A"
            box.remove_from_game(team, record.player, self.state.now, self.rules)
            self._refresh_next_end()
            if team.in_goal(record.player):
                self.replace_goalkeeper(
                    team, record.player, "6.1.6 B" if any(r.kind == MATCH for r in out) else "6.1.5 B"
                )
        if added:
            self.pending_records.extend(added)
            self.batch_key = (self.state.period, self.state.elapsed)
        return added

    def assess(self) -> None:
        """Assess the penalties of one stoppage together: coincidences, chains, stacking (6.1-6.2)."""
        batch, self.batch, self.batch_key = self.batch, [], None
        state, rules = self.state, self.rules
        records: list[PenaltyRecord] = []
        # R-31 / 6.1.7 A: one offence is one call. A penalty shot given with the major or match penalty that
        # 6.1.8 E still imposes for the same offence (same player, same stoppage) is not a second call.
        with_major = {(e.team, e.player) for e, _ in batch if e.penalty in (MAJOR, MATCH) and e.player is not None}
        same_act = one_act_game_misconducts(batch)
        for event, signalled in batch:
            kind = event.penalty
            if (
                kind in (MINOR, BENCH_MINOR)
                and event.infraction in rules.penalty_shot_in_last_two_minutes
                and state.period >= rules.periods
                and state.elapsed >= state.period_length - rules.two_minute_mark
            ):
                # 6.4.6 C, 6.4.8 B: in the last two minutes a penalty shot replaces the minor.
                record = self.record_penalty(event, status="penalty_shot", signalled=signalled)
                self.teams[other(record.team)].pending_shots.append(record.id)
                self.notice(
                    _PENALTY_SHOT_ARTICLE.get(event.infraction, "6.4.6 C / 6.4.8 B"),
                    f"penalty shot to {other(record.team)} instead of the {kind.replace('_', ' ')} ({event.id})",
                )
                continue
            if kind in (MINOR, BENCH_MINOR) and (event.team, state.period, state.elapsed) in self.awarded_at:
                # the goal awarded for the foul replaces its minor: recorded, not served, one call.
                self.record_penalty(event, status="not_served", signalled=signalled)
                continue
            shot_with_major = kind == PENALTY_SHOT and (event.team, event.player) in with_major
            record = self.record_penalty(event, signalled=signalled, call=not (shot_with_major or event.id in same_act))
            if kind == PENALTY_SHOT:
                record.status = "penalty_shot"
                self.teams[other(record.team)].pending_shots.append(record.id)
                self.notice("6.1.8", f"penalty shot to {other(record.team)} ({event.id})")
            records.append(record)
        records.extend(self.pending_records)
        self.pending_records = []
        choices, self.choices = self.choices, []
        if records or choices:
            self.mark_coincidental(records, choices)
            for side in ("home", "away"):
                mine = [r for r in records if r.team == side]
                if mine:
                    self.seat(self.teams[side], mine)
            self._refresh_next_end()
        if self.deferred:
            decisions, self.deferred = self.deferred, []
            for event in decisions:
                self.goalkeeper_replaced(event)

    def mark_coincidental(self, records: list[PenaltyRecord], choices: list[Event]) -> None:
        """Cancel the penalties of both teams at this stoppage one for one (6.1.3 C-D, 6.2.3, R-25, R-60, R-61).

        Majors and match penalties cancel each other, then minors and bench minors (a double minor counts as
        two); a minor never cancels a major (R-60). What is left on the team with more, the differential, is
        served normally; which penalties are left follows ``ruleset.differential_order`` (R-61).
        """
        chosen: dict[str, set[str]] = {"home": set(), "away": set()}
        for event in choices:
            side = _given(event.team, event, "team")
            if not any(r.id == event.penalty and r.team == side for r in records):
                self.refuse(
                    _(
                        "R-61: %(side)s has no penalty %(penalty)s assessed at this stoppage to leave as the "
                        "differential",
                        side=said_side(side),
                        penalty=repr(event.penalty),
                    ),
                    event,
                    "penalty",
                )
            chosen[side].add(_given(event.penalty, event, "penalty"))
        units: dict[str, dict[str, list[PenaltyRecord]]] = {
            "major": {"home": [], "away": []},
            "minor": {"home": [], "away": []},
        }
        for record in records:
            if record.status != "assessed" or not record.pairable:
                continue
            if record.kind in (MAJOR, MATCH):
                units["major"][record.team].append(record)
            elif record.kind in (MINOR, BENCH_MINOR):
                units["minor"][record.team].append(record)
            elif record.kind == DOUBLE_MINOR:
                units["minor"][record.team].extend([record] * (1 if record.washed_out_half else 2))
        for pair in units.values():
            home, away = pair["home"], pair["away"]
            side = "home" if len(home) > len(away) else "away"
            left = self.differential_of(self.teams[side], pair[side], abs(len(home) - len(away)), chosen[side])
            for team_units in (home, away):
                remaining = list(left) if team_units is pair[side] else []
                for record in team_units:
                    if record in remaining:
                        remaining.remove(record)
                    else:
                        record.coincidental_units += 1
        for record in records:
            if record.coincidental_units:
                whole = 1 if record.washed_out_half or record.kind != DOUBLE_MINOR else 2
                record.coincidental = record.coincidental_units >= whole

    def differential_of(
        self, team: TeamState, units: list[PenaltyRecord], count: int, chosen: set[str]
    ) -> list[PenaltyRecord]:
        """Return the ``count`` units of a team's penalties left as the differential (R-61, 6.1.3 D).

        Tried in ``ruleset.differential_order``: the captain's choice where the sheet records one
        (``differential``), those that leave the team fewest players short (a player already serving a strength
        penalty adds nobody: R-64), the last entered.
        """
        if count == 0:
            return []
        if count >= len(units):
            return list(units)
        serving = {s.served_by for s in team.box if s.strength and not s.coincidental and s.status != DONE}
        serving.discard(None)

        def short(record: PenaltyRecord) -> object:
            if record.kind in (MAJOR, MATCH) or record.player is None:
                return ("substitute", record.id)
            return None if record.player in serving else record.player

        def rank(option: tuple[PenaltyRecord, ...]) -> tuple[Any, ...]:
            keys: list[Any] = []
            for criterion in self.rules.differential_order:
                if criterion == "captain":
                    keys.append(-sum(1 for r in option if r.id in chosen))
                elif criterion == "fewest_short":
                    keys.append(len({short(r) for r in option} - {None}))
                else:
                    keys.append(sorted(-r.seq for r in option))
            return tuple(keys)

        options: dict[tuple[str, ...], tuple[PenaltyRecord, ...]] = {}
        if len(units) <= 12:
            for option in combinations(units, count):
                options.setdefault(tuple(sorted(r.id for r in option)), option)
        else:  # never on a real sheet: the last entered
            option = tuple(sorted(units, key=lambda r: r.seq)[-count:])
            options[("last",)] = option
        return list(min(options.items(), key=lambda item: rank(item[1]))[1])

    def seat(self, team: TeamState, records: list[PenaltyRecord]) -> None:
        """Create the serves of a team's penalties of this stoppage and start or stack them."""
        rules = self.rules
        now = self.state.now
        by_player: dict[int | str | None, list[PenaltyRecord]] = {}  # a staff member's penalties: "staff:<name>"
        for record in records:
            if record.status == "assessed" and box.segments(record.kind, rules):
                key = record.player if record.staff is None else f"staff:{record.staff}"
                by_player.setdefault(key, []).append(record)
        heads: list[Serve] = []
        for number, mine in by_player.items():
            player = team.players.get(number) if isinstance(number, int) else None
            out = player is not None and player.out_of_game is not None
            misconduct_too = any(r.kind == MISCONDUCT for r in mine)
            # 6.2.1 C: major first, then the minor; 6.1.4 C: the misconduct after the minor.
            # Under 6.2.2 (the team's time would be stacked) the minor goes first.
            rank: dict[str, float] = dict(_CHAIN_RANK)
            if team.running_strength >= rules.max_running:
                rank[MAJOR] = rank[MATCH] = 1.5
            # a player with coincidental penalties and the differential serves the differential first.
            mine.sort(key=lambda r: (r.coincidental, rank.get(r.kind, 3), r.seq))
            chain: list[Serve] = []
            for record in mine:
                if record.kind == MISCONDUCT and out:
                    continue  # the player left for the dressing room; the time is in the records only
                server = self.default_server(team, record, out, misconduct_too)
                record.served_by = server
                lengths = box.segments(record.kind, rules)
                if record.washed_out_half:
                    lengths = lengths[1:]  # only the second half is served, from the goal
                split = record.kind == DOUBLE_MINOR and not record.coincidental and record.coincidental_units > 0
                for half, length in enumerate(lengths):
                    self.serve_order += 1
                    serve = Serve(
                        penalty=record,
                        served_by=server,
                        kind=record.kind,
                        length=length,
                        strength=record.kind in box.STRENGTH,
                        goal_ends=record.kind in box.GOAL_ENDS,
                        order=self.serve_order,
                    )
                    if split:
                        serve.half_coincidental = half > 0  # the differential half first
                    record_serves = record.serves
                    record_serves.append(serve)
                    team.box.append(serve)
                    if chain:
                        box.link_after(serve, chain[-1])
                    chain.append(serve)
            if not chain:
                continue
            head = chain[0]
            earlier = [s for s in box.unfinished(team, head.served_by) if s not in chain] if head.served_by else []
            tail = next((s for s in reversed(earlier) if s.next is None), None)
            if tail is not None and head.strength and not tail.strength:
                # 6.1.4 C: a player serving a misconduct does not delay a new minor: a substitute serves it.
                for serve in chain:
                    if serve.strength:
                        serve.served_by = serve.penalty.served_by = None
                tail = None
            if tail is not None:
                box.link_after(head, tail)  # 6.3 F: the same player serves consecutively
            else:
                heads.append(head)
        # 6.2.2 C: minors are recorded first when penalties of different players come together.
        heads.sort(key=lambda s: (0 if s.goal_ends else 1 if s.strength else 2, s.order))
        for head in heads:
            box.activate(team, head, now, rules)

    def default_server(self, team: TeamState, record: PenaltyRecord, out: bool, misconduct_too: bool) -> int | None:
        """Return who serves a penalty's time when the event names nobody; None is a substitute to designate."""
        if record.served_by is not None and team.players[record.served_by].out_of_game is None:
            return record.served_by  # R-30, 6.1.5 A: a server sent to the dressing room does not serve
        if record.player is None or record.automatic == "6.1.3 B":
            return None
        player = team.players[record.player]
        if player.goalkeeper or team.in_goal(record.player) or out:
            # 6.1.2 B, 6.1.4 B (also a temporary goalkeeper, Glossary): a floor player designated by the coach;
            # 6.1.7 C note: a substitute serves the time of a player out of the game.
            return None
        if record.kind in (MAJOR, MATCH):
            return None  # 6.1.3 A, 6.1.6 A: a substitute serves
        if record.kind == MISCONDUCT:
            return record.player
        if misconduct_too:
            return None  # 6.1.4 C, 6.1.7 A note: a substitute serves the minor
        return record.player

    def serve(self, event: Event) -> None:
        """Designate who serves a penalty (6.1.2 B-D, 6.1.5 A, 6.1.7 C)."""
        team = self.teams[_given(event.team, event, "team")]
        record = next((p for p in self.state.penalties if p.id == event.penalty and p.team == team.side), None)
        if record is None:
            self.refuse(
                _("R-20: %(side)s has no penalty %(penalty)s", side=said_side(team.side), penalty=repr(event.penalty)),
                event,
                "penalty",
            )
        player = team.players.get(_given(event.player, event, "player"))
        if player is None:
            self.refuse_not_on_line_up(event.player, team.side, event, "player")
        if player.goalkeeper or team.in_goal(event.player):
            self.refuse(
                _("Rule 6.1.2 B / 6.1.4 B: a floor player serves the penalty, not a goalkeeper"), event, "player"
            )
        if player.out_of_game is not None:
            self.refuse_out_of_game(player.out_of_game, event.player, event, "player")
        open_serves = [s for s in record.serves if s.status != DONE]
        if not open_serves:
            self.refuse(_("R-20: penalty %(penalty)s has no time left to serve", penalty=record.id), event, "penalty")
        record.served_by = event.player
        for serve in open_serves:
            serve.served_by = event.player

    def differential(self, event: Event) -> None:
        """Record the captain's choice of a penalty left as the differential at this stoppage (R-61, 6.1.3 D)."""
        if self.state.running:
            self.refuse(
                _("R-61: the differential is chosen at the stoppage where the penalties are assessed"), event, "time"
            )
        _given(event.team, event, "team")
        self.choices.append(event)
        if self.batch_key is None:
            self.batch_key = (self.state.period, self.state.elapsed)

    def return_first(self, event: Event) -> None:
        """Record the captain's choice of who returns first when two penalties end together (6.2.2 C)."""
        team = self.teams[_given(event.team, event, "team")]
        if not any(s.served_by == event.player and s.status != DONE for s in team.box):
            self.refuse(
                _(
                    "Rule 6.2.2 C: %(player)s is not in the %(side)s penalty box",
                    player=event.player,
                    side=said_side(team.side),
                ),
                event,
                "player",
            )
        team.return_first = event.player

    def penalty_shot(self, event: Event) -> None:
        """A penalty shot and its result; its time is not game time (6.1.8 B, R-31)."""
        state = self.state
        if state.running:
            self.stoppage()
        if self.batch_key is not None:
            self.assess()  # 6.1.8, 6.3 B: the penalties of the whistle are assessed, then the shot is taken
        side = _given(event.team, event, "team")
        shooting = self.teams[side]
        player = shooting.players.get(_given(event.player, event, "player"))
        if player is None:
            self.refuse_not_on_line_up(event.player, event.team, event, "player")
        if player.out_of_game is not None:
            self.refuse_out_of_game(player.out_of_game, event.player, event, "player")
        if not shooting.pending_shots:
            self.refuse(
                _(
                    "Rule 6.1.8: no penalty shot has been awarded to %(side)s and not yet taken (a penalty of "
                    "kind penalty_shot to the other team, or 6.4.6 C / 6.4.8 B in the last two minutes)",
                    side=said_side(shooting.side),
                ),
                event,
                "team",
            )
        shooting.pending_shots.pop(0)  # the shot awarded first is taken first
        if event.scored:
            self.score(event, shooting, self.teams[other(side)], penalty_shot=True)
            self.assess()
            if state.period > self.rules.periods:
                self.end_game("overtime")
        if self.held_end is not None and not any(team.pending_shots for team in self.teams.values()):
            self.close_period()  # 6.1.8 F: the last shot awarded as time ran out is taken; the period ends

    # -- other events -------------------------------------------------------------------------

    def check_timeout_moment(self, event: Event) -> None:
        """R-71: a time-out is called at a stoppage after which the same period resumes with a face-off.

        One asked at the buzzer that ends a period, in an intermission or before a period's opening face-off
        is refused and uses nothing (1.2 B, 5.5.2 A).
        """
        problem = self.state.timeout_moment_problem(event.period, event.time)
        if problem is not None:
            self.refuse(problem, event, "time")

    def timeout(self, event: Event) -> None:
        state, rules = self.state, self.rules
        team = self.teams[_given(event.team, event, "team")]
        if state.period > rules.periods:
            self.refuse(_("Rule 5.5.2 D / R-12: no time-out in overtime"), event, "type")
        if state.running:
            self.refuse(_("Rule 5.5.2 A: a time-out is called at a stoppage of play"), event, "time")
        used = team.timeouts.get(state.period, 0)
        if used >= rules.timeouts_per_period:
            self.refuse(
                _(
                    "Rule 1.2 B / 5.5.2 B / R-12: %(side)s already used its time-out of period %(period)s",
                    side=said_side(team.side),
                    period=state.period,
                ),
                event,
                "team",
            )
        team.timeouts[state.period] = used + 1

    def goalkeeper_pulled(self, event: Event) -> None:
        team = self.teams[_given(event.team, event, "team")]
        if team.goalkeeper_pulled:
            self.refuse(_("R-22: the goalkeeper is already off the floor"), event, "type")
        team.goalkeeper_pulled = True

    def goalkeeper_returned(self, event: Event) -> None:
        team = self.teams[_given(event.team, event, "team")]
        if event.player is not None:
            player = team.players.get(event.player)
            if player is None or not player.goalkeeper:
                self.refuse(
                    _(
                        "Rule 5.1 B / R-07: %(player)s is not a %(side)s goalkeeper",
                        player=event.player,
                        side=said_side(team.side),
                    ),
                    event,
                    "player",
                )
            if player.out_of_game is not None:
                self.refuse(
                    _(
                        "Rule %(article)s / R-30: goalkeeper %(player)s is out of the game",
                        article=player.out_of_game,
                        player=event.player,
                    ),
                    event,
                    "player",
                )
            team.goalkeeper = event.player
            if team.replacement is not None:
                # Glossary, Temporary Goalkeeper: a listed goalkeeper takes the place of the one sent off.
                team.replacement.player = event.player
                team.replacement.confirmed = True
        elif not team.goalkeeper_pulled:
            self.refuse(_("R-22: the goalkeeper is already on the floor"), event, "type")
        team.goalkeeper_pulled = False

    def replace_goalkeeper(self, team: TeamState, number: int, article: str) -> None:
        """6.1.5 B, 6.1.6 B: the goalkeeper in goal is sent off; propose who takes his place.

        The default is the regular substitute goalkeeper who is available (listed, not out of the game); with
        none, nobody is in goal until the officials name a team member (``goalkeeper_replaced``).
        """
        available = sorted(n for n in team.roster.goalkeepers if n != number and team.players[n].out_of_game is None)
        proposed = available[0] if available else None
        team.goalkeeper = proposed
        team.replacement = GoalkeeperReplacement(replaces=number, article=article, proposed=proposed, player=proposed)
        if proposed is None:
            text = f"{team.side} goalkeeper {number} is sent off; no substitute goalkeeper is available: a team member"
        else:
            text = f"{team.side} goalkeeper {number} is sent off; substitute goalkeeper {proposed} or a team member"
        self.notice(article, f"{text} takes his place, with ten minutes to dress")

    def goalkeeper_replaced(self, event: Event) -> None:
        """The officials confirm or name who takes the place of a goalkeeper sent off (6.1.5 B, 6.1.6 B)."""
        if self.batch_key is not None:
            self.deferred.append(event)  # decided once this stoppage's penalties are assessed
            return
        team = self.teams[_given(event.team, event, "team")]
        replacement = team.replacement
        if replacement is None:
            self.refuse(
                _(
                    "Rule 6.1.5 B / 6.1.6 B: no %(side)s goalkeeper has been sent off; a listed goalkeeper "
                    "comes in with goalkeeper_returned (5.5.5)",
                    side=said_side(team.side),
                ),
                event,
                "type",
            )
        if self.state.running:
            self.refuse(
                _(
                    "Rule %(article)s: the goalkeeper's place is taken at a stoppage of play",
                    article=replacement.article,
                ),
                event,
                "time",
            )
        player = team.players.get(_given(event.player, event, "player"))
        if player is None:
            self.refuse_not_on_line_up(event.player, team.side, event, "player")
        if player.out_of_game is not None:
            self.refuse_out_of_game(player.out_of_game, event.player, event, "player")
        if any(s.served_by == event.player for s in team.box):
            self.refuse(
                _(
                    "Rule %(article)s: %(player)s is in the penalty box and cannot take the goal",
                    article=replacement.article,
                    player=event.player,
                ),
                event,
                "player",
            )
        team.goalkeeper = event.player
        team.goalkeeper_pulled = False
        replacement.player = event.player
        replacement.confirmed = True

    def shot(self, event: Event) -> None:
        side = _given(event.team, event, "team")
        team = self.teams[side]
        if event.player is not None:
            self.check_on_floor(team, event.player, event, said_in("a player in a refusal", "shooter"))
        team.shots += 1
        defending = self.teams[other(side)]
        if not defending.goalkeeper_pulled and defending.goalkeeper is not None:
            defending.players[defending.goalkeeper].saves += 1  # a shot on goal that did not score

    def forfeit(self, event: Event) -> None:
        """8.1 B, R-41: the game is recorded 1-0 to the other team, the goal to its captain, no assists and
        no goalkeeper statistics: the goals, assists, shots and saves of the play before it leave the records
        (its penalties and minutes stay: 6.1.5 C, R-21)."""
        state = self.state
        side = _given(event.team, event, "team")
        winner = self.teams[other(side)]
        state.running = False
        for team in self.teams.values():
            team.shots = 0
            for player in team.players.values():
                player.goals = player.assists = player.saves = player.shootout_attempts = 0
        if winner.roster.captain is not None:
            winner.players[winner.roster.captain].goals = 1
        state.goals = [
            GoalRecord(
                id=event.id,
                team=winner.side,
                period=state.period,
                time=state.elapsed,
                scorer=winner.roster.captain,
                assist=None,
                awarded=True,
            )
        ]
        self.teams[side].score = 0
        winner.score = 1
        self.end_game("forfeit", forfeited_by=side)

    def at_final_whistle(self, event: Event) -> bool:
        """Whether the event is a protest made at the moment the game ended (the last goal or period end)."""
        state = self.state
        return event.type == PROTEST and (event.period, event.time) == (state.period, state.elapsed)

    def protest(self, event: Event) -> None:
        """9.1 A, R-50: the captain protests on the rink to the referee, who tells the other captain; the sheet
        records it (team, period, time): the written protest with its fee (the discipline module) needs it."""
        state = self.state
        side = _given(event.team, event, "team")
        state.protests.append(ProtestRecord(id=event.id, team=side, period=state.period, time=state.elapsed))

    def game_end(self, event: Event) -> None:
        state = self.state
        if state.status != ENDED or state.result is None:
            self.refuse(
                _(
                    "Rule 1.2 A / 1.3: the game ends after the last period, a sudden-death goal or the "
                    "shoot-out; it is %(status)s in period %(period)s",
                    status=state.status,
                    period=state.period,
                ),
                event,
                "type",
            )
        state.result.confirmed = True

    def end_game(
        self, decided_by: str, *, forfeited_by: str | None = None, shootout: ShootoutState | None = None
    ) -> None:
        state = self.state
        home, away = self.teams["home"].score, self.teams["away"].score
        winner = None if home == away else "home" if home > away else "away"
        if shootout is not None:
            winner = shootout.winner
        state.result = Result(
            winner=winner,
            decided_by=decided_by,
            home=home,
            away=away,
            shootout=None if shootout is None else dict(shootout.goals),
            forfeited_by=forfeited_by,
        )
        state.status = ENDED
        state.running = False
        self.held_end = None

    # -- shoot-out ----------------------------------------------------------------------------

    def start_shootout(self) -> None:
        """1.3 E, R-40: players out of the game or with unexpired penalty time do not shoot."""
        state = self.state
        state.status = SHOOTOUT
        shootout = ShootoutState()
        for side, team in self.teams.items():
            penalized = set()
            for serve in team.box:
                if serve.status != DONE and serve.status != EXPIRED:
                    penalized.add(serve.penalty.player)
                    penalized.add(serve.served_by)
            # A temporary goalkeeper (6.1.5 B, Glossary) is still in goal and does not shoot either.
            shootout.eligible[side] = frozenset(
                n
                for n, p in team.players.items()
                if not p.goalkeeper and not team.in_goal(n) and p.out_of_game is None and n not in penalized
            )
        state.shootout = shootout

    def shootout_attempt(self, event: Event) -> None:
        state, rules = self.state, self.rules
        shootout = state.shootout
        if state.status != SHOOTOUT or shootout is None:
            self.refuse(
                _("Rule 1.3 B, E / R-40: a shoot-out follows a tied overtime of an elimination game"), event, "type"
            )
        side = _given(event.team, event, "team")
        number = event.player
        count = len(shootout.attempts)
        if count == 0:
            shootout.first = side  # the coin-toss winner's choice
        first = shootout.first
        assert first is not None  # set by the first attempt
        second = other(first)
        in_rounds = count < 2 * rules.shootout_shooters
        # after the first rounds the team that shot second starts each extra round.
        expected = (first if count % 2 == 0 else second) if in_rounds else (second if count % 2 == 0 else first)
        if side != expected:
            self.refuse(
                _(
                    "Rule 1.3 E / R-40: teams shoot alternately; it is %(expected)s's turn",
                    expected=said_side(expected),
                ),
                event,
                "team",
            )
        team = self.teams[side]
        if number is None:
            if shootout.eligible[side]:
                self.refuse(_("R-10: shootout_attempt needs a player"), event, "player")
            if event.scored:
                self.refuse(
                    _("R-67: %(side)s has no eligible shooter and scores nothing in its turns", side=said_side(side)),
                    event,
                    "scored",
                )
        else:
            if number not in team.players:
                self.refuse_not_on_line_up(event.player, side, event, "player")
            problem = shootout.shooter_problem(side, number)
            if problem is not None:
                self.refuse(problem, event, "player")
        shot = shootout.shooters[side]
        if number is not None:
            shot.append(number)
            team.players[number].shootout_attempts += 1
        shootout.attempts.append((side, number, event.scored))
        if event.scored:
            shootout.goals[side] += 1
        count += 1
        goals_first, goals_second = shootout.goals[first], shootout.goals[second]
        if count <= 2 * rules.shootout_shooters:
            left_first = rules.shootout_shooters - (count + 1) // 2
            left_second = rules.shootout_shooters - count // 2
            # it ends as soon as the result cannot change.
            if goals_first > goals_second + left_second:
                shootout.winner = first
            elif goals_second > goals_first + left_first:
                shootout.winner = second
        elif count % 2 == 0 and goals_first != goals_second:
            shootout.winner = first if goals_first > goals_second else second  # the first deciding round
        if shootout.winner is not None:
            self.end_game("shootout", shootout=shootout)


def one_act_game_misconducts(batch: Iterable[tuple[Event, bool]]) -> set[str]:
    """Return the ids of game misconducts imposed together with a time penalty for one act (R-63, 6.1.7 A).

    One act is one call: a minor, bench minor, double minor or major and the game misconduct the same
    article imposes for it (6.4.32 A, 6.4.27 F), entered at one stoppage for one offender with the same
    infraction code. A game misconduct with another code, or none, is a separate act and a separate call.
    """
    batch = list(batch)
    acts = {
        (e.team, e.player, e.staff, e.infraction)
        for e, _ in batch
        if e.penalty in (MINOR, BENCH_MINOR, DOUBLE_MINOR, MAJOR) and e.infraction is not None
    }
    return {
        e.id
        for e, _ in batch
        if e.penalty == GAME_MISCONDUCT
        and e.infraction is not None
        and (e.team, e.player, e.staff, e.infraction) in acts
    }


def replay(events: Iterable[Event], game: Game, ruleset: Ruleset = DEFAULT_RULESET) -> GameState:
    """Return the state of a game after its whole log. Same log, same state."""
    replayer = Replayer(game, ruleset)
    apply = replayer.apply
    for event in sort_events(events):
        apply(event)
    return replayer.finish()


def ending_event(events: Iterable[Event], game: Game, ruleset: Ruleset = DEFAULT_RULESET) -> Event | None:
    """Return the event that ended the game on the sheet (Rule 1.2 A, 1.3: the last period's end that leaves a
    winner or a round-robin tie, the sudden-death goal, the shoot-out's deciding attempt, the forfeit), None while
    the game goes on. A ``game_end`` only confirms an ended game: it is the ending event only when the game ended
    as it was applied (a period held for a penalty shot, 6.1.8 F, closing before it)."""
    replayer = Replayer(game, ruleset)
    state = replayer.state
    for event in sort_events(events):
        replayer.apply(event)
        if state.status == ENDED:
            return event
    return None


def state_at(
    events: Iterable[Event], game: Game, period: int, time: int, ruleset: Ruleset = DEFAULT_RULESET
) -> GameState:
    """Return the state at a game time (tenths elapsed in ``period``), after every event entered for it."""
    replayer = Replayer(game, ruleset)
    state = replayer.state
    for event in sort_events(events):
        if (event.period, event.time) > (period, time):
            break
        replayer.apply(event)
    replayer.finish()
    if state.status == IN_PROGRESS and state.period == period and state.running and time > state.elapsed:
        replayer.advance(state.now - state.elapsed + min(time, state.period_length))
    return state
