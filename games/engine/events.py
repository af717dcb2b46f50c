"""Events of the game log, and their parsing from plain mappings (JSON).

A game is an ordered log of events. Each event carries its period and its
game time in tenths of a second elapsed in the period (R-10); the log is
replayed in the order (period, time, entry sequence), so events entered late
replay to the same state. Shoot-out attempts, the game end and corrections
carry no game time: they sort after all periods, in entry order.
"""

from collections.abc import Mapping
from dataclasses import dataclass

from common.numbers import NotANumber, whole_number
from common.text import _

from .errors import EventFormatError
from .ruleset import PENALTY_KINDS

PERIOD_START = "period_start"
PERIOD_END = "period_end"
CLOCK_START = "clock_start"
CLOCK_STOP = "clock_stop"
GOAL = "goal"
PENALTY = "penalty"
PENALTY_SHOT_ATTEMPT = "penalty_shot"
TIMEOUT = "timeout"
GOALKEEPER_PULLED = "goalkeeper_pulled"
GOALKEEPER_RETURNED = "goalkeeper_returned"
GOALKEEPER_REPLACED = "goalkeeper_replaced"  # who takes the place of a goalkeeper sent off (6.1.5 B, 6.1.6 B)
SHOT = "shot"
SERVE = "serve"
RETURN_FIRST = "return_first"
DIFFERENTIAL = "differential"  # the captain's choice of which penalties are the differential
SHOOTOUT_ATTEMPT = "shootout_attempt"
FORFEIT = "forfeit"
PROTEST = "protest"  # 9.1 A, R-50: a captain's protest made on the rink to the referee, recorded on the sheet
GAME_END = "game_end"
CORRECTION = "correction"

TEAMS = ("home", "away")

# Events without game time sort after every period, in entry order.
UNTIMED = frozenset({SHOOTOUT_ATTEMPT, GAME_END, CORRECTION})
AFTER_PERIODS = 1_000

# Allowed fields per event type, beyond type/id/seq/period/time.
_FIELDS: dict[str, frozenset[str]] = {
    PERIOD_START: frozenset(),
    PERIOD_END: frozenset(),
    CLOCK_START: frozenset(),
    CLOCK_STOP: frozenset(),
    GOAL: frozenset({"team", "player", "assist", "assists", "own_goal", "awarded", "empty_net"}),
    PENALTY: frozenset(
        {"team", "player", "staff", "infraction", "penalty", "delayed", "served_by", "article", "coincidental"}
    ),
    PENALTY_SHOT_ATTEMPT: frozenset({"team", "player", "scored"}),
    TIMEOUT: frozenset({"team"}),
    GOALKEEPER_PULLED: frozenset({"team"}),
    GOALKEEPER_RETURNED: frozenset({"team", "player"}),
    GOALKEEPER_REPLACED: frozenset({"team", "player"}),
    SHOT: frozenset({"team", "player"}),
    SERVE: frozenset({"team", "penalty", "player"}),
    RETURN_FIRST: frozenset({"team", "player"}),
    DIFFERENTIAL: frozenset({"team", "penalty"}),
    SHOOTOUT_ATTEMPT: frozenset({"team", "player", "scored"}),
    FORFEIT: frozenset({"team"}),
    PROTEST: frozenset({"team"}),
    GAME_END: frozenset(),
    CORRECTION: frozenset({"voids"}),
}
EVENT_TYPES = tuple(_FIELDS)
_NEEDS_TEAM = frozenset(
    {
        GOAL,
        PENALTY,
        PENALTY_SHOT_ATTEMPT,
        TIMEOUT,
        GOALKEEPER_PULLED,
        GOALKEEPER_RETURNED,
        GOALKEEPER_REPLACED,
        SHOT,
        SERVE,
        RETURN_FIRST,
        DIFFERENTIAL,
        SHOOTOUT_ATTEMPT,
        FORFEIT,
        PROTEST,
    }
)
# A shoot-out turn of a team with no eligible shooter names nobody; the replay checks it.
_NEEDS_PLAYER = frozenset({PENALTY_SHOT_ATTEMPT, SERVE, RETURN_FIRST, GOALKEEPER_REPLACED})


@dataclass(slots=True)
class Event:
    """One entry of the game log. Fields that do not apply to the type stay None/False."""

    type: str
    period: int
    time: int  # tenths elapsed in the period
    seq: int  # entry sequence, breaks ties of equal game time
    id: str
    team: str | None = None
    player: int | None = None  # scorer, penalized player, shooter, designated server
    assist: int | None = None
    own_goal: bool = False
    awarded: bool = False
    empty_net: bool | None = None  # None: derived from the goalkeeper being pulled
    infraction: str | None = None
    penalty: str | None = None  # penalty kind, or the penalty id for ``serve``
    delayed: bool = False
    served_by: int | None = None
    scored: bool = False
    voids: str | None = None
    article: str | None = None
    staff: str | None = None  # a bench staff member penalized instead of a player (6.4.28 B, 8.2 C)
    coincidental: bool = True  # False: the officials keep this penalty out of the coincidental pairs (6.1.3 D)

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """Return the replay order key: period, game time, entry sequence."""
        return (self.period, self.time, self.seq)


def parse_time(value: object, *, field: str = "time") -> int:
    """Return tenths of a second from ``"mm:ss"``, ``"mm:ss.t"`` or an integer of tenths (R-10)."""
    if isinstance(value, bool):
        raise EventFormatError(_("R-10: %(field)s must be 'mm:ss' or tenths of a second", field=field), field=field)
    if isinstance(value, int):
        if value < 0:
            raise EventFormatError(_("R-10: %(field)s cannot be negative", field=field), field=field)
        return value
    if isinstance(value, str):
        minutes, sep, rest = value.strip().partition(":")
        seconds, _dot, tenths = rest.partition(".")
        # ASCII digits only (common.numbers): "²:00" or "٣:00" is refused here, not a 500 or 3 minutes.
        if sep and len(seconds) == 2 and len(tenths) <= 1:
            try:
                return (
                    whole_number(minutes) * 600
                    + whole_number(seconds, maximum=59) * 10
                    + (whole_number(tenths) if tenths else 0)
                )
            except NotANumber:
                pass
    raise EventFormatError(
        _("R-10: %(field)s %(value)s is not 'mm:ss', 'mm:ss.t' or tenths of a second", field=field, value=repr(value)),
        field=field,
    )


def format_time(tenths: int) -> str:
    """Return ``m:ss`` (``m:ss.t`` when tenths are not zero) for a duration or elapsed time."""
    minutes, rest = divmod(tenths, 600)
    seconds, tenth = divmod(rest, 10)
    if tenth:
        return f"{minutes}:{seconds:02d}.{tenth}"
    return f"{minutes}:{seconds:02d}"


def format_countdown(remaining: int) -> str:
    """Return the countdown a rink clock shows: whole seconds rounded up, so 0:00 only when no time remains."""
    seconds = -(-remaining // 10)
    return f"{seconds // 60}:{seconds % 60:02d}"


def _player(value: object, field: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise EventFormatError(_("R-06: %(field)s is a jersey number 1-99", field=field), field=field)
    if not 1 <= value <= 99:
        raise EventFormatError(
            _("R-06: %(field)s %(value)s is not a jersey number 1-99", field=field, value=value), field=field
        )
    return value


def _bool(data: Mapping[str, object], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise EventFormatError(_("R-10: %(field)s must be true or false", field=key), field=key)
    return value


def parse_event(data: object, seq: int) -> Event:
    """Return the Event of one mapping of a log; ``seq`` is its entry position unless it gives its own."""
    if not isinstance(data, dict):
        raise EventFormatError(_("R-10: an event is a mapping with a 'type'"), field="events")
    kind = data.get("type")
    # A list or mapping is unhashable: check the type before the lookup, so it is refused like any unknown type.
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise EventFormatError(
            _("R-10: unknown event type %(kind)s; one of %(types)s", kind=repr(kind), types=", ".join(EVENT_TYPES)),
            field="type",
        )
    unknown = set(data) - _FIELDS[kind] - {"type", "id", "seq", "period", "time", "note"}
    if unknown:
        raise EventFormatError(
            _("R-10: %(kind)s has no field(s) %(fields)s", kind=kind, fields=", ".join(sorted(unknown))),
            field=sorted(unknown)[0],
        )
    seq = data.get("seq", seq)
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise EventFormatError(_("R-10: seq is an integer entry sequence"), field="seq")
    event_id = _entry_id(data, seq)
    if kind in UNTIMED or (kind == FORFEIT and data.get("period") is None):
        period, time = AFTER_PERIODS, 0
    else:
        given = data.get("period")
        if isinstance(given, bool) or not isinstance(given, int) or given < 1:
            raise EventFormatError(
                _("R-11: %(kind)s needs its period (1, 2, 3 for overtime)", kind=kind), field="period"
            )
        period = given
        if "time" not in data:
            if kind != PERIOD_START:
                raise EventFormatError(_("R-10: %(kind)s needs its game time", kind=kind), field="time")
            time = 0
        else:
            time = parse_time(data["time"])
    event = Event(type=kind, period=period, time=time, seq=seq, id=event_id)
    team = data.get("team")
    if kind in _NEEDS_TEAM and team not in TEAMS:
        raise EventFormatError(
            _("R-10: %(kind)s needs team 'home' or 'away', not %(team)s", kind=kind, team=repr(team)), field="team"
        )
    event.team = team
    event.player = _player(data.get("player"), "player")
    if kind in _NEEDS_PLAYER and event.player is None:
        raise EventFormatError(_("R-10: %(kind)s needs a player", kind=kind), field="player")
    if kind == GOAL:
        if "assists" in data:
            assists = data["assists"]
            if not isinstance(assists, list):
                raise EventFormatError(_("5.5.11 C: assists is a list of numbers"), field="assists")
            if len(assists) > 1:
                raise EventFormatError(_("Rule 5.5.11 C / R-32: a goal has at most one assist"), field="assists")
            event.assist = _player(assists[0], "assists") if assists else None
        if "assist" in data:
            if "assists" in data:
                raise EventFormatError(_("Rule 5.5.11 C / R-32: a goal has at most one assist"), field="assist")
            event.assist = _player(data["assist"], "assist")
        event.own_goal = _bool(data, "own_goal")
        event.awarded = _bool(data, "awarded")
        if data.get("empty_net") is not None:
            event.empty_net = _bool(data, "empty_net")
        if event.player is None and not event.awarded:
            raise EventFormatError(_("5.5.11 B: a goal is credited to its scorer"), field="player")
    elif kind == PENALTY:
        event.penalty = data.get("penalty")
        if event.penalty not in PENALTY_KINDS:
            raise EventFormatError(
                _(
                    "6.1.1: penalty is one of %(kinds)s, not %(penalty)s",
                    kinds=", ".join(PENALTY_KINDS),
                    penalty=repr(event.penalty),
                ),
                field="penalty",
            )
        infraction = data.get("infraction")
        if infraction is not None and not isinstance(infraction, str):
            raise EventFormatError(_("R-20: infraction is a code of the Annex C index"), field="infraction")
        event.infraction = infraction
        article = data.get("article")
        if article is not None and not isinstance(article, str):
            raise EventFormatError(_("R-20: article is the rulebook article as text, e.g. '6.4.30 A'"), field="article")
        event.article = article
        event.delayed = _bool(data, "delayed")
        event.served_by = _player(data.get("served_by"), "served_by")
        event.coincidental = _bool(data, "coincidental") if "coincidental" in data else True
        staff = data.get("staff")
        if staff is not None and (not isinstance(staff, str) or event.player is not None):
            raise EventFormatError(
                _("Rule 6.4.28 B / 8.2 C: staff names a bench staff member of the team, instead of a player"),
                field="staff",
            )
        event.staff = staff
    elif kind in (PENALTY_SHOT_ATTEMPT, SHOOTOUT_ATTEMPT):
        event.scored = _bool(data, "scored")
    elif kind == DIFFERENTIAL:
        if data.get("penalty") is None:
            raise EventFormatError(
                _("R-61: differential names the id of the penalty the captain leaves"), field="penalty"
            )
        event.penalty = str(data["penalty"])
    elif kind == SERVE:
        if data.get("penalty") is None:
            raise EventFormatError(
                _("R-20: serve names the id of the penalty it designates a server for"), field="penalty"
            )
        event.penalty = str(data["penalty"])
    elif kind == CORRECTION:
        if data.get("voids") is None:
            raise EventFormatError(_("R-10: a correction names the id of the event it voids"), field="voids")
        event.voids = str(data["voids"])
    return event


def _entry_id(entry: object, seq: int) -> str:
    """Return the id an entry of the log has, or would have once parsed (its ``id``, else ``e<seq>``)."""
    if isinstance(entry, dict):
        if entry.get("id") is not None:
            return str(entry["id"])
        given = entry.get("seq", seq)
        if isinstance(given, int) and not isinstance(given, bool):
            seq = given
    return f"e{seq}"


def parse_log(entries: object) -> list[Event]:
    """Return the events of a list of mappings; positions are the entry sequence."""
    if not isinstance(entries, list):
        raise EventFormatError(_("R-10: the events are a list"), field="events")
    events = []
    for seq, entry in enumerate(entries):
        try:
            events.append(parse_event(entry, seq))
        except EventFormatError as exc:
            if exc.event_id is None:
                exc.event_id = _entry_id(entry, seq)  # the refusal names the event it is about
            raise
    seen: set[str] = set()
    for event in events:
        if event.id in seen:
            raise EventFormatError(
                _("R-10: event id %(id)s is used twice", id=repr(event.id)), field="id", event_id=event.id
            )
        seen.add(event.id)
    return events
