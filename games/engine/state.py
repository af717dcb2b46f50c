"""State of a game after a replay: plain dataclasses, and their JSON-ready form."""

from dataclasses import dataclass, field
from typing import TypedDict

from common.text import Text, _, said_in

from .errors import ScriptError
from .events import TEAMS, Event, format_countdown, format_time
from .ruleset import DEFAULT_RULESET, GAME_TYPES, ROUND_ROBIN, Ruleset

# The sides as a refusal names them ("the home line-up"), in the reader's language.
_SIDES = {"home": said_in("a side of the game", "home"), "away": said_in("a side of the game", "away")}


def said_side(side: object) -> object:
    """``home`` or ``away`` as a refusal says it (a ``Text``); any other value as it is."""
    return _SIDES.get(str(side), side)


# Serve statuses: how one time penalty stands in the penalty box.
QUEUED = "queued"  # waits for an earlier penalty of the same chain (6.1.4 C, 6.3 F, double minor)
STACKED = "stacked"  # waits for one of two running penalties to end (6.2.2 A)
RUNNING = "running"
EXPIRED = "expired"  # time is over but the player stays in the box until a stoppage (6.1.4 A, 6.2.2 B, 6.4.1 D)
DONE = "done"

# Game statuses.
NOT_STARTED = "not_started"
IN_PROGRESS = "in_progress"
INTERMISSION = "intermission"
SHOOTOUT = "shootout"
ENDED = "ended"


# The JSON-ready forms (``to_dict``): the shapes game-script expectations are checked against.


class PeriodTimeDict(TypedDict):
    period: int
    time: str  # m:ss elapsed in the period


class PenaltyDict(TypedDict):
    id: str
    team: str
    player: int | None
    penalty: str
    infraction: str | None
    article: str | None
    period: int
    time: str
    signalled: PeriodTimeDict | None  # when it was signalled (6.3 B)
    served_by: int | None
    minutes: int
    status: str
    automatic: str | None
    coincidental: bool
    stick_infraction: bool
    staff: str | None  # the bench staff member penalized (6.4.28 B, 8.2 C), player null
    washed_out_half: bool  # the first half of a signalled double minor a goal washed out


class PlayerDict(TypedDict):
    goals: int
    assists: int
    points: int
    minutes: int
    calls: int
    stick_infractions: int
    misconducts: int
    out_of_game: bool
    out_of_game_by: str | None
    saves: int


class GoalkeeperReplacementDict(TypedDict):
    replaces: int
    article: str
    proposed: int | None
    player: int | None
    confirmed: bool


class NoticeDict(TypedDict):
    period: int
    time: str
    article: str
    text: str


class GoalDict(TypedDict):
    id: str
    team: str
    period: int
    time: str
    scorer: int | None
    assist: int | None
    own_goal: bool
    awarded: bool
    penalty_shot: bool
    empty_net: bool
    strength: str
    ended_penalty: str | None


class ShootoutAttemptDict(TypedDict):
    team: str
    player: int | None  # None: a team with no eligible shooter takes its turn with no player
    scored: bool


class ShootoutDict(TypedDict):
    first: str | None
    score: dict[str, int]
    rounds: int
    attempts: list[ShootoutAttemptDict]
    winner: str | None
    eligible: dict[str, list[int]]  # who may shoot (listed floor players not barred)
    barred: dict[str, dict[str, str]]  # per team, every listed player who may not take its next shot: why


class ResultDict(TypedDict):
    winner: str | None
    decided_by: str
    score: dict[str, int]
    shootout: dict[str, int] | None
    forfeited_by: str | None


class BoxEntryDict(TypedDict):
    player: int | None
    penalized: int | None
    penalty: str
    penalty_id: str
    status: str
    remaining: str
    countdown: str
    start: PeriodTimeDict | None
    waits_for_stoppage: bool
    coincidental: bool
    affects_strength: bool


class StaffDict(TypedDict):
    minutes: int
    out_of_game_by: str | None


class TeamDict(TypedDict):
    name: str
    score: int
    shots: int
    strength: int
    box: list[BoxEntryDict]
    timeouts_used: int
    timeouts: dict[str, int]
    goalkeeper_pulled: bool
    bench_minutes: int
    staff: dict[str, StaffDict]  # bench staff penalized: minutes charged, out of the game (6.4.28 B, 8.2 C)
    signalled_penalties: list[str]
    goalkeeper: int | None
    goalkeeper_replacement: GoalkeeperReplacementDict | None
    penalty_shots_pending: list[str]
    timeout_refused: str | None  # why a time-out may not be called now (5.5.2, R-12, R-71), None when it may


class ProtestDict(TypedDict):
    id: str
    team: str
    period: int
    time: str


class StateDict(TypedDict):
    game_type: str
    status: str
    period: int
    elapsed: str
    countdown: str | None
    running: bool
    two_minute_mark: bool
    score: dict[str, int]
    strength: dict[str, int]
    power_play: str | None
    box: dict[str, list[BoxEntryDict]]
    timeouts_used: dict[str, int]
    teams: dict[str, TeamDict]
    players: dict[str, dict[str, PlayerDict]]
    penalties: list[PenaltyDict]
    goals: list[GoalDict]
    notices: list[NoticeDict]
    shootout: ShootoutDict | None
    result: ResultDict | None
    protests: list[ProtestDict]


@dataclass(frozen=True, slots=True)
class TeamRoster:
    """A team's line-up for the game (5.1 B, R-07): floor players, goalkeepers, captain.

    A line-up too short to start (5.3 B) is accepted here: the game's ``period_start`` refuses it, and the
    ``forfeit`` that 8.1 A declares for that team can be recorded (R-41).
    """

    name: str
    skaters: frozenset[int]
    goalkeepers: frozenset[int]
    captain: int | None = None
    staff: frozenset[str] = frozenset()  # bench staff (5.1 B): manager, coach, trainer (6.4.28 B, 8.2 C)

    def __post_init__(self) -> None:
        if self.skaters & self.goalkeepers:
            raise ScriptError(f"R-06: {self.name}: a number is both a floor player and a goalkeeper", field="teams")
        for number in self.skaters | self.goalkeepers:
            if not 1 <= number <= 99:
                raise ScriptError(f"Rule 3.2.9 C: {self.name}: numbers are 1-99", field="teams")
        if self.captain is not None and self.captain not in self.skaters:
            raise ScriptError(f"Rule 3.1.2 C / R-06: {self.name}: the captain is a floor player", field="teams")

    @property
    def numbers(self) -> frozenset[int]:
        return self.skaters | self.goalkeepers


@dataclass(frozen=True, slots=True)
class Game:
    """What the engine must know of a game before its first event."""

    home: TeamRoster
    away: TeamRoster
    game_type: str = ROUND_ROBIN

    def __post_init__(self) -> None:
        if self.game_type not in GAME_TYPES:
            raise ScriptError(f"1.3: game_type is one of {', '.join(GAME_TYPES)}", field="game_type")


@dataclass(slots=True, eq=False)
class PenaltyRecord:
    """One penalty on the game sheet (R-20)."""

    id: str
    team: str
    player: int | None  # who incurred it; None for an unidentified bench penalty
    kind: str
    infraction: str | None
    article: str | None
    period: int
    time: int  # when assessed; for a signalled penalty, the stoppage (6.3 B)
    signalled_period: int | None = None
    signalled_time: int | None = None
    served_by: int | None = None
    minutes: int = 0
    status: str = "assessed"  # signalled, assessed, not_served (6.3 C), penalty_shot (6.4.6 C), ended_by_goal
    automatic: str | None = None  # the article that added it (6.1.3 B, 6.1.7 A-D)
    caused_by: str | None = None  # id of the penalty that triggered an automatic one
    coincidental: bool = False
    pairable: bool = True  # may be paired as coincidental (6.1.3 C-D); officials may keep it out
    stick: bool = False
    call: bool = True  # counts as a penalty call for 6.1.7
    washed_out_half: bool = False  # a goal washed out the first half of this signalled double minor
    staff: str | None = None  # a bench staff member penalized (6.4.28 B, 8.2 C); player is None
    coincidental_units: int = 0  # minors (a double minor's halves) that cancel; 1 of 2 splits a double minor
    goalkeeper: bool = False
    seq: int = 0
    serves: "list[Serve]" = field(default_factory=list)

    def to_dict(self) -> PenaltyDict:
        return {
            "id": self.id,
            "team": self.team,
            "player": self.player,
            "penalty": self.kind,
            "infraction": self.infraction,
            "article": self.article,
            "period": self.period,
            "time": format_time(self.time),
            "signalled": None
            if self.signalled_time is None or self.signalled_period is None
            else {"period": self.signalled_period, "time": format_time(self.signalled_time)},
            "served_by": self.served_by,
            "minutes": self.minutes,
            "status": self.status,
            "automatic": self.automatic,
            "coincidental": self.coincidental,
            "stick_infraction": self.stick,
            "staff": self.staff,
            "washed_out_half": self.washed_out_half,
        }


@dataclass(slots=True, eq=False)
class Serve:
    """One stretch of penalty time in the box: a minor, a half of a double minor, a major, a misconduct."""

    penalty: PenaltyRecord
    served_by: int | None  # None: a substitute still to be designated (6.1.2 B, 6.1.3 A, 6.1.5 A)
    kind: str
    length: int
    strength: bool  # removes a floor player
    goal_ends: bool  # a goal against the shorthanded team can end it (6.2.1 B)
    order: int  # creation order, breaks ties
    status: str = QUEUED
    start: int | None = None  # absolute game time (tenths since the game's start)
    end: int | None = None
    expired_at: int | None = None
    held_by_stacking: bool = False  # kept in the box by 6.2.2 B rather than by 6.1.4 A / 6.4.1 D
    next: "Serve | None" = None
    prev: "Serve | None" = None
    half_coincidental: bool | None = None  # set on the halves of a double minor split by the differential

    @property
    def coincidental(self) -> bool:
        return self.penalty.coincidental if self.half_coincidental is None else self.half_coincidental

    @property
    def ends_at(self) -> int:
        """Return the absolute game time a started serve ends (``end``, set when it starts to run)."""
        if self.end is None:
            raise ValueError(f"the serve of penalty {self.penalty.id} has not started")
        return self.end


@dataclass(slots=True)
class PlayerRecord:
    """Per-player records of the game."""

    number: int
    goalkeeper: bool = False
    goals: int = 0
    assists: int = 0
    minutes: int = 0  # R-21, charged to who incurred the penalty
    calls: int = 0  # R-29 penalty calls
    stick_infractions: int = 0  # 6.1.7 C
    misconducts: int = 0  # 6.1.7 D
    out_of_game: str | None = None  # the article that removed the player
    shootout_attempts: int = 0
    saves: int = 0  # goalkeepers: shots on goal stopped

    def to_dict(self) -> PlayerDict:
        return {
            "goals": self.goals,
            "assists": self.assists,
            "points": self.goals + self.assists,
            "minutes": self.minutes,
            "calls": self.calls,
            "stick_infractions": self.stick_infractions,
            "misconducts": self.misconducts,
            "out_of_game": self.out_of_game is not None,
            "out_of_game_by": self.out_of_game,
            "saves": self.saves,
        }


@dataclass(slots=True)
class GoalkeeperReplacement:
    """Who takes the place in goal of a goalkeeper sent off (6.1.5 B, 6.1.6 B).

    The engine proposes the regular substitute goalkeeper who is available (None when there is none: a
    team member to be named); a ``goalkeeper_replaced`` event of the officials confirms it or names
    another team member, who then plays in goal as a temporary goalkeeper (Glossary).
    """

    replaces: int  # the goalkeeper sent off
    article: str  # 6.1.5 B (game misconduct and other removals) or 6.1.6 B (match penalty)
    proposed: int | None  # the engine's default
    player: int | None  # who is in goal in his place
    confirmed: bool = False  # the officials' goalkeeper_replaced (or a listed goalkeeper's return) decided it

    def to_dict(self) -> GoalkeeperReplacementDict:
        return {
            "replaces": self.replaces,
            "article": self.article,
            "proposed": self.proposed,
            "player": self.player,
            "confirmed": self.confirmed,
        }


@dataclass(slots=True)
class TeamState:
    side: str
    roster: TeamRoster
    score: int = 0
    shots: int = 0
    goalkeeper_pulled: bool = False
    goalkeeper: int | None = None
    bench_minutes: int = 0  # bench penalties with no identified player
    staff_minutes: dict[str, int] = field(default_factory=dict)  # penalties to bench staff (6.4.28 B, 8.2 C)
    staff_out: dict[str, str] = field(default_factory=dict)  # staff sent off: the article
    players: dict[int, PlayerRecord] = field(default_factory=dict)
    box: list[Serve] = field(default_factory=list)  # every serve not done, in order of entry
    running: list[Serve] = field(default_factory=list)
    stack: list[Serve] = field(default_factory=list)
    signalled: list[Event] = field(default_factory=list)  # penalty events waiting for the stoppage (6.3 B)
    timeouts: dict[int, int] = field(default_factory=dict)
    return_first: int | None = None  # captain's choice for the next simultaneous expiry (6.2.2 C)
    running_strength: int = 0
    replacement: GoalkeeperReplacement | None = None  # 6.1.5 B, 6.1.6 B: the last goalkeeper sent off
    pending_shots: list[str] = field(default_factory=list)  # penalty shots awarded to this team, not yet taken

    def in_goal(self, number: int | None) -> bool:
        """Return whether this player is the one in goal, a listed goalkeeper or a temporary one (6.1.5 B)."""
        return number is not None and number == self.goalkeeper

    def entitled(self, ruleset: Ruleset) -> int:
        """Return the floor players this team is entitled to (R-22)."""
        return max(ruleset.min_floor_players, ruleset.floor_players - self.running_strength)

    def in_box(self) -> set[int]:
        """Return the numbers of the players sitting in the penalty box."""
        return {s.served_by for s in self.box if s.served_by is not None}


@dataclass(slots=True)
class Notice:
    """Something the engine did on its own, with its article: an automatic penalty, the two-minute mark."""

    period: int
    time: int
    article: str
    text: str

    def to_dict(self) -> NoticeDict:
        return {"period": self.period, "time": format_time(self.time), "article": self.article, "text": self.text}


@dataclass(slots=True)
class GoalRecord:
    id: str
    team: str
    period: int
    time: int
    scorer: int | None
    assist: int | None
    own_goal: bool = False
    awarded: bool = False
    penalty_shot: bool = False
    empty_net: bool = False
    strength: str = "even"  # power_play / shorthanded / even, from the scoring team's view
    ended_penalty: str | None = None

    def to_dict(self) -> GoalDict:
        return {
            "id": self.id,
            "team": self.team,
            "period": self.period,
            "time": format_time(self.time),
            "scorer": self.scorer,
            "assist": self.assist,
            "own_goal": self.own_goal,
            "awarded": self.awarded,
            "penalty_shot": self.penalty_shot,
            "empty_net": self.empty_net,
            "strength": self.strength,
            "ended_penalty": self.ended_penalty,
        }


@dataclass(slots=True)
class ProtestRecord:
    """A protest a team's captain made on the rink to the referee (9.1 A): the sheet's record makes it valid (R-50)."""

    id: str
    team: str
    period: int
    time: int

    def to_dict(self) -> ProtestDict:
        return {"id": self.id, "team": self.team, "period": self.period, "time": format_time(self.time)}


@dataclass(slots=True)
class ShootoutState:
    """Shoot-out (1.3 E, R-40)."""

    first: str | None = None
    attempts: list[tuple[str, int | None, bool]] = field(default_factory=list)
    goals: dict[str, int] = field(default_factory=lambda: {"home": 0, "away": 0})
    shooters: dict[str, list[int]] = field(default_factory=lambda: {"home": [], "away": []})
    eligible: dict[str, frozenset[int]] = field(default_factory=dict)
    winner: str | None = None

    def to_dict(self) -> ShootoutDict:
        return {
            "first": self.first,
            "score": dict(self.goals),
            "rounds": (len(self.attempts) + 1) // 2,
            "attempts": [{"team": t, "player": p, "scored": s} for t, p, s in self.attempts],
            "winner": self.winner,
            "eligible": {side: sorted(numbers) for side, numbers in self.eligible.items()},
            "barred": {side: {} for side in self.eligible},
        }

    def shooter_problem(self, side: str, number: int) -> Text | None:
        """Return why this player may not take the team's next shoot-out shot, or None (1.3 E, R-40, R-67).

        Eligible shooters are the listed floor players not barred (out of the game, penalty time left at the
        end of overtime); goalkeepers are not shooters. Nobody shoots again until every eligible team-mate has
        shot as often, the first three rounds included: with fewer than three eligible they repeat in that
        rotation. The console greys a shooter with this reason.
        """
        eligible = self.eligible.get(side, frozenset())
        if number not in eligible:
            return _(
                "R-40: %(number)s cannot shoot: goalkeeper, out of the game or penalty time left at the end of "
                "overtime (R-67)",
                number=number,
            )
        shot = self.shooters[side]
        if shot.count(number) > min(shot.count(n) for n in eligible):
            return _(
                "Rule 1.3 E / R-40: %(number)s already shot; every eligible team-mate shoots first (R-67)",
                number=number,
            )
        return None


@dataclass(slots=True)
class Result:
    winner: str | None  # None: a tie (1.3 A)
    decided_by: str  # regulation, overtime, shootout, forfeit
    home: int
    away: int
    shootout: dict[str, int] | None = None
    forfeited_by: str | None = None
    confirmed: bool = False  # a game_end event confirmed it

    def to_dict(self) -> ResultDict:
        return {
            "winner": self.winner,
            "decided_by": self.decided_by,
            "score": {"home": self.home, "away": self.away},
            "shootout": self.shootout,
            "forfeited_by": self.forfeited_by,
        }


@dataclass(slots=True)
class GameState:
    """The state of a game at a moment of its replay."""

    game: Game
    ruleset: Ruleset = DEFAULT_RULESET
    status: str = NOT_STARTED
    period: int = 0
    elapsed: int = 0  # tenths elapsed in the period
    running: bool = False
    teams: dict[str, TeamState] = field(default_factory=dict)
    penalties: list[PenaltyRecord] = field(default_factory=list)
    goals: list[GoalRecord] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    protests: list[ProtestRecord] = field(default_factory=list)
    shootout: ShootoutState | None = None
    result: Result | None = None
    now: int = 0  # absolute game time, tenths since the start of period 1

    def __post_init__(self) -> None:
        if not self.teams:
            self.teams = {"home": _team("home", self.game.home), "away": _team("away", self.game.away)}

    @property
    def period_length(self) -> int:
        if self.period > self.ruleset.periods:
            return self.ruleset.overtime_length
        return self.ruleset.period_length

    def timeout_moment_problem(self, period: int, time: int) -> Text | None:
        """Return why no time-out may be called at this moment under R-71 (1.2 B, 5.5.2 A), or None.

        A time-out is called at a stoppage after which the same period resumes with a face-off: not at the buzzer
        that ends a period, in an intermission or before a period's opening face-off.
        """
        if self.status == IN_PROGRESS and period == self.period:
            if time == self.elapsed == 0 and self.running:
                return _("R-71 / 5.5.2 A: no time-out before period %(period)s's opening face-off", period=period)
            if time >= self.period_length:
                return _("R-71 / 1.2 B: no time-out at the buzzer that ends period %(period)s", period=period)
            return None
        if self.status in (INTERMISSION, NOT_STARTED) or (self.status == IN_PROGRESS and period < self.period):
            return _("R-71 / 1.2 B: no time-out at a period's end or in an intermission; the same period must resume")
        return None

    def timeout_problem(self, side: str) -> Text | None:
        """Return why the team may not call a time-out now, or None: what the console offers (5.5.2, R-12, R-71)."""
        if self.status != IN_PROGRESS:
            return _("R-71 / 1.2 B: a time-out is called during a period, at a stoppage")
        if self.period > self.ruleset.periods:
            return _("Rule 5.5.2 D / R-12: no time-out in overtime")
        if self.elapsed == 0 and self.running:
            return self.timeout_moment_problem(self.period, self.elapsed)
        if self.running:
            return _("Rule 5.5.2 A: a time-out is called at a stoppage of play")
        moment = self.timeout_moment_problem(self.period, self.elapsed)
        if moment is not None:
            return moment
        if self.teams[side].timeouts.get(self.period, 0) >= self.ruleset.timeouts_per_period:
            return _(
                "Rule 1.2 B / 5.5.2 B / R-12: %(side)s already used its time-out of period %(period)s",
                side=said_side(side),
                period=self.period,
            )
        return None

    def _shootout_dict(self) -> ShootoutDict:
        shootout = self.shootout
        assert shootout is not None
        data = shootout.to_dict()
        if shootout.winner is None:
            for side in shootout.eligible:
                for number in sorted(self.teams[side].players):
                    problem = shootout.shooter_problem(side, number)
                    if problem is not None:
                        data["barred"][side][str(number)] = problem
        return data

    def strength(self, side: str) -> int:
        """Return the entitled floor strength of a team (R-22)."""
        return self.teams[side].entitled(self.ruleset)

    def power_play(self) -> str | None:
        """Return the team with more entitled floor players, None when even."""
        home, away = self.strength("home"), self.strength("away")
        if home == away:
            return None
        return "home" if home > away else "away"

    def box_entries(self, side: str) -> list[BoxEntryDict]:
        """Return who sits in a team's box, one entry per person, with remaining time (R-24)."""
        team = self.teams[side]
        entries: list[BoxEntryDict] = []
        for serve in team.box:
            prev = serve.prev
            if (
                prev is not None
                and prev in team.box
                and prev.served_by == serve.served_by
                and prev.penalty is serve.penalty
            ):
                continue  # second half of a double minor: shown with the first
            remaining = self._remaining(serve)
            link = serve.next
            while link is not None and link.served_by == serve.served_by and link.penalty is serve.penalty:
                remaining += self._remaining(link)
                link = link.next
            entries.append(
                {
                    "player": serve.served_by,
                    "penalized": serve.penalty.player,
                    "penalty": serve.penalty.kind,
                    "penalty_id": serve.penalty.id,
                    "status": serve.status,
                    "remaining": format_time(remaining),
                    "countdown": format_countdown(remaining),
                    "start": None if serve.start is None else self.period_time(serve.start),
                    "waits_for_stoppage": serve.status == EXPIRED,
                    "coincidental": serve.coincidental,
                    "affects_strength": serve.strength and not serve.coincidental,
                }
            )
        return entries

    def period_time(self, absolute: int) -> PeriodTimeDict:
        """Return {period, time} of an absolute game time (tenths since the start of period 1)."""
        length, periods = self.ruleset.period_length, self.ruleset.periods
        period = min(absolute // length, periods) + 1
        return {"period": period, "time": format_time(absolute - (period - 1) * length)}

    def _remaining(self, serve: Serve) -> int:
        if serve.status == RUNNING:
            return max(0, serve.ends_at - self.now)
        if serve.status in (QUEUED, STACKED):
            return serve.length
        return 0

    def to_dict(self) -> StateDict:
        """Return the state as JSON-ready data (the shape game-script expectations are checked against)."""
        length = self.period_length
        teams: dict[str, TeamDict] = {}
        for side in TEAMS:
            team = self.teams[side]
            teams[side] = {
                "name": team.roster.name,
                "score": team.score,
                "shots": team.shots,
                "strength": self.strength(side),
                "box": self.box_entries(side),
                "timeouts_used": team.timeouts.get(self.period, 0),
                "timeouts": {str(period): used for period, used in sorted(team.timeouts.items())},
                "goalkeeper_pulled": team.goalkeeper_pulled,
                "bench_minutes": team.bench_minutes,
                "staff": {
                    name: {"minutes": minutes, "out_of_game_by": team.staff_out.get(name)}
                    for name, minutes in sorted(team.staff_minutes.items())
                },
                "signalled_penalties": [e.id for e in team.signalled],
                "goalkeeper": team.goalkeeper,
                "goalkeeper_replacement": None if team.replacement is None else team.replacement.to_dict(),
                "penalty_shots_pending": list(team.pending_shots),
                "timeout_refused": self.timeout_problem(side),
            }
        return {
            "game_type": self.game.game_type,
            "status": self.status,
            "period": self.period,
            "elapsed": format_time(self.elapsed),
            "countdown": format_countdown(max(0, length - self.elapsed)) if self.period else None,
            "running": self.running,
            "two_minute_mark": self.period > 0 and self.elapsed >= length - self.ruleset.two_minute_mark,
            "score": {side: self.teams[side].score for side in TEAMS},
            "strength": {side: self.strength(side) for side in TEAMS},
            "power_play": self.power_play(),
            "box": {side: teams[side]["box"] for side in TEAMS},
            "timeouts_used": {side: teams[side]["timeouts_used"] for side in TEAMS},
            "teams": teams,
            "players": {
                side: {str(n): p.to_dict() for n, p in sorted(self.teams[side].players.items())} for side in TEAMS
            },
            "penalties": [p.to_dict() for p in self.penalties],
            "goals": [g.to_dict() for g in self.goals],
            "notices": [n.to_dict() for n in self.notices],
            "shootout": None if self.shootout is None else self._shootout_dict(),
            "result": None if self.result is None else self.result.to_dict(),
            "protests": [p.to_dict() for p in self.protests],
        }


def _team(side: str, roster: TeamRoster) -> TeamState:
    players = {n: PlayerRecord(n) for n in roster.skaters}
    players.update({n: PlayerRecord(n, goalkeeper=True) for n in roster.goalkeepers})
    goalkeeper = min(roster.goalkeepers) if roster.goalkeepers else None
    return TeamState(side=side, roster=roster, players=players, goalkeeper=goalkeeper)
