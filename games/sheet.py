"""The live game sheet: entries stored once, replayed by the engine, answered with the new state.

A game's truth is its event log (architecture principle 3). ``record_events`` is the one way in: with the
sheet row locked it stores each new device-made event id once (a resend is acknowledged, never stored twice),
replays the whole log with ``games.engine`` and refuses the batch when the engine refuses an event (nothing
stored; the answer names the rule and the event). Corrections are ``correction`` events; the voided entries
stay in the log (``sheet_log`` shows who voided them).

Reads never replay: each entry stores the replayed state as the snapshot of its period (``SheetSnapshot``), and
``sheet_state`` answers the latest one. A replay of a full game (400 events) takes about 2 ms
(tests/bench/test_engine_bench.py), so each entry replays the whole log: an event entered late, or a second
device's entries, land in game-time order (period, time, then the order stored), exactly as a replay of the
same log would put them.
"""

from __future__ import annotations

import datetime
import threading
import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from accounts.models import User
from common.numbers import whole_number_or_none
from games import engine, live
from games.access import can_direct_game, can_enter_game_events, can_read_sheet_log
from games.devices import check_device_name, check_device_signed_in
from games.engine.events import AFTER_PERIODS, CORRECTION, SERVE
from games.engine.ruleset import ELIMINATION, ROUND_ROBIN
from games.models import GameSheet, Lineup, SheetEvent, SheetSnapshot, SheetStatus
from games.services.lineups import lineup_team_roster
from games.sheet_answer import Ack, SheetAnswer
from portal.i18n import said
from tournaments.facts import championship_ruleset
from tournaments.models import Game, GameStatus, PhaseKind, Position, RosterEntry

MAX_BATCH = 500  # entries per request: a whole game's outbox fits
# Keys of an entry that describe the entry, not the event: the server strips them before the engine reads it.
ENVELOPE = ("id", "device_time", "clock_offset_ms")


class SheetRefused(ValidationError):
    """The engine refused an event: nothing of the batch is stored.

    ``event_id`` is the event the engine names (one of the batch, or a stored one the batch conflicts with:
    ``stored``), ``rule`` the article or R-id its message cites, ``field`` the event's field.
    """

    def __init__(self, error: engine.EngineError, *, stored: bool):
        self.message_text = str(error)
        self.reason = error.message  # the rule's words, without the event's id (a console names the entry itself)
        self.event_id = error.event_id
        self.rule = rule_of(error.message)
        self.field = error.field
        self.stored = stored
        super().__init__({"events": [self.message_text]})

    def said_reason(self) -> str:
        """The rule's words in the reader's language (the active one: the API's Accept-Language or cookie)."""
        return said(self.reason)

    def said_message(self) -> str:
        """The refusal in the reader's language, naming the event it is about as ``str(error)`` does in English."""
        if self.event_id is None:
            return self.said_reason()
        return _("%(message)s (event %(id)s)") % {"message": self.said_reason(), "id": self.event_id}


def rule_of(message: str) -> str:
    """Return the article or R-id an engine message cites: its text before the first colon ("6.2.2 B", "R-10")."""
    cited = message.split(":", 1)[0].strip()
    return cited.removeprefix("Rule ").strip()


@dataclass(frozen=True)
class Incoming:
    """One entry of a batch as checked: the event id, the engine's payload and when the device made it."""

    event_id: str
    payload: dict[str, Any]
    device_time: datetime.datetime
    clock_offset_ms: int | None


# --- who may --------------------------------------------------------------------------------------------------


def check_can_enter_game_events(user: User, game: Game) -> None:
    """Only the game's officials and the staff who direct its championship enter events (4.3-4.5)."""
    if not can_enter_game_events(user, game):
        raise PermissionDenied(
            _("Only the game's officials and the staff who direct its championship enter its events.")
        )


# --- what the engine knows before the first event ---------------------------------------------------------------


# Where a team of the sheet comes from: its line-up for the game (5.1 A), or its frozen roster where it gave none.
LINEUP, ROSTER = "lineup", "roster"


def _roster_team(name: str, lines: Sequence[RosterEntry]) -> dict[str, Any]:
    players, goalkeepers, captain = [], [], None
    for line in lines:
        number = whole_number_or_none(line.number, minimum=1, maximum=99)
        if number is None:
            continue  # 3.2.9 C: not a jersey number the sheet can show; the roster services refuse it
        if line.position == Position.GOALKEEPER:
            goalkeepers.append(number)
        else:
            players.append(number)
            if line.captain:
                captain = number
    return {
        "name": name,
        "players": sorted(players),
        "goalkeepers": sorted(goalkeepers),
        "captain": captain,
        "staff": [],  # a list handed over on paper: the sheet knows no bench official (5.1 A)
        "source": ROSTER,
    }


def bench_staff_names(lineup) -> list[str]:
    """The names under which the engine knows the line-up's team officials on the bench (5.1 B, 5.4 F).

    A penalty may name one of them instead of a player (6.4.28 B, 8.2 C): his minutes are counted on him and a
    game misconduct or match penalty sends him off. Each is his person's name ("ROSSI Marco"); two people of one
    name on a bench are told apart by their person number. ``lineup.bench_officials`` may be prefetched.
    """
    people = [official.person for official in lineup.bench_officials.all()]
    names = Counter(str(person) for person in people)
    return sorted(str(person) if names[str(person)] == 1 else f"{person} ({person.pk})" for person in people)


def _lineup_team(lineup) -> dict[str, Any]:
    roster = lineup_team_roster(lineup, name=lineup.entry.name)
    return {
        "name": roster.name,
        "players": sorted(roster.skaters),
        "goalkeepers": sorted(roster.goalkeepers),
        "captain": roster.captain,
        "staff": bench_staff_names(lineup),
        "source": LINEUP,
    }


def engine_teams(game: Game) -> dict[str, dict[str, Any]]:
    """Return the teams as the engine reads them (the game-script ``teams``), each with its ``source``.

    A team's line-up for the game (5.1 A, R-07: players, goalkeepers, captain by number; a goalkeeper
    replaced under 5.1 C no longer plays) is what the engine knows, so an event naming a player off the line-up
    is refused (5.1 B) and the period start counts what ``games.services.check_game_can_start`` counts (5.3 B,
    the same ``lineup_team_roster``). Its team officials on the bench are the engine's ``staff``, whom a penalty
    may name (6.4.28 B, 8.2 C; ``bench_staff_names``). A team that gave no line-up (a list handed over on paper; the readiness
    check names it, 5.1 A) is read from its frozen roster (3.1.1 B), marked ``"source": "roster"``.
    """
    if game.home_id is None or game.away_id is None:
        raise ValidationError({"game": _("R-10: the game's teams are not known yet; its sheet opens once they are.")})
    sides = {"home": game.home, "away": game.away}
    lineups = {
        lineup.entry_id: lineup
        for lineup in Lineup.objects.filter(game=game)
        .select_related("entry")
        .prefetch_related("players", "bench_officials__person")
    }
    missing = [entry.pk for entry in sides.values() if entry.pk not in lineups]
    lines: dict[int, list[RosterEntry]] = {pk: [] for pk in missing}
    if missing:
        for line in RosterEntry.objects.filter(entry_id__in=missing).order_by("number"):
            lines[line.entry_id].append(line)
    return {
        side: _lineup_team(lineups[entry.pk]) if entry.pk in lineups else _roster_team(entry.name, lines[entry.pk])
        for side, entry in sides.items()
    }


def engine_game_type(game: Game) -> str:
    """1.3 A, D: round-robin games may end tied; elimination and placement games are played to a winner (1.3 B)."""
    return ROUND_ROBIN if game.phase.kind == PhaseKind.ROUND_ROBIN else ELIMINATION


def _engine_game(teams: Mapping[str, Any], game_type: str) -> engine.Game:
    def roster(data: Mapping[str, Any]) -> engine.TeamRoster:
        return engine.TeamRoster(
            data["name"],
            frozenset(data["players"]),
            frozenset(data["goalkeepers"]),
            captain=data.get("captain"),
            staff=frozenset(data.get("staff", ())),  # sheets opened before the bench staff was kept have none
        )

    return engine.Game(home=roster(teams["home"]), away=roster(teams["away"]), game_type=game_type)


# --- the entries of a batch ---------------------------------------------------------------------------------------


def _canonical_id(value: object) -> str | None:
    """Return a UUID in its canonical text (lower case, hyphens), None when it is not one."""
    try:
        return str(uuid.UUID(str(value)))
    except (ValueError, TypeError, AttributeError):
        return None


def check_entries(entries: object) -> list[Incoming]:
    """Return the checked entries of a batch; refuse one without a device-made id or device time (R-10).

    An entry is an event in the engine's format (docs/game-scripts.md) plus ``id`` (a UUID made on the device),
    ``device_time`` (the device's clock at the entry's game time, ISO 8601 with its offset) and
    ``clock_offset_ms`` (the device clock minus the server's, as the device measured it; null when unknown).
    The server gives the sequence: an entry carries no ``seq``.
    """
    if not isinstance(entries, list) or not entries:
        raise ValidationError({"events": _("R-10: the events are a non-empty list of entries.")})
    if len(entries) > MAX_BATCH:
        raise ValidationError(
            {"events": _("At most %(count)s entries per request; send the rest in another.") % {"count": MAX_BATCH}}
        )
    checked: list[Incoming] = []
    for index, entry in enumerate(entries):
        where = f"events[{index}]"
        if not isinstance(entry, dict):
            raise ValidationError(
                {"events": _("R-10: %(where)s is an event (a mapping with a 'type').") % {"where": where}}
            )
        event_id = _canonical_id(entry.get("id"))
        if event_id is None:
            raise ValidationError(
                {"events": _("R-10: %(where)s needs its id, a UUID made on the device.") % {"where": where}}
            )
        if "seq" in entry:
            raise ValidationError(
                {
                    "events": _("R-10: %(where)s (%(id)s): the server gives the sequence, not seq.")
                    % {"where": where, "id": event_id}
                }
            )
        device_time = entry.get("device_time")
        parsed = parse_datetime(device_time) if isinstance(device_time, str) else None
        if parsed is None or timezone.is_naive(parsed):
            raise ValidationError(
                {
                    "events": _("R-10: %(where)s (%(id)s): device_time is an ISO 8601 time with its UTC offset.")
                    % {"where": where, "id": event_id}
                }
            )
        offset = entry.get("clock_offset_ms")
        if offset is not None and (isinstance(offset, bool) or not isinstance(offset, int)):
            raise ValidationError(
                {
                    "events": _("R-10: %(where)s (%(id)s): clock_offset_ms is whole milliseconds.")
                    % {"where": where, "id": event_id}
                }
            )
        payload = {key: value for key, value in entry.items() if key not in ENVELOPE}
        _canonical_references(payload)
        checked.append(Incoming(event_id, payload, parsed, offset))
    return checked


def _canonical_references(payload: dict[str, Any]) -> None:
    """Write the ids an event refers to (a correction's ``voids``, a serve's ``penalty``) as stored ids are."""
    key = "voids" if payload.get("type") == CORRECTION else "penalty" if payload.get("type") == SERVE else None
    if key is not None:
        canonical = _canonical_id(payload.get(key))
        if canonical is not None:
            payload[key] = canonical


# --- the service ------------------------------------------------------------------------------------------------


def _locked_sheet(game: Game, *, by: User, now: datetime.datetime) -> GameSheet:
    """Return the game's sheet, locked (opened on the first entry, with the teams and rules frozen in it)."""
    sheet = GameSheet.objects.select_for_update().filter(game=game).first()
    if sheet is not None:
        return sheet
    # Two first entries at once: the unique game makes one insert win; the other reads the winner's row.
    GameSheet.objects.get_or_create(
        game=game,
        defaults={
            "teams": engine_teams(game),
            "game_type": engine_game_type(game),
            "ruleset": championship_ruleset(game.championship).game.engine_parameters(),
            "opened_at": now,
            "opened_by": by,
        },
    )
    return GameSheet.objects.select_for_update().get(game=game)


def _log(rows: Sequence[tuple[Any, int, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Return stored rows (event id, sequence, payload) as the engine's log entries."""
    return [{**payload, "id": str(event_id), "seq": sequence} for event_id, sequence, payload in rows]


def _clock(state: engine.GameState, kept: Sequence[engine.Event], times: Mapping[str, datetime.datetime]) -> dict:
    """Return the clock as a viewer runs it: elapsed at ``anchor`` (server time), running on from there."""
    last = next((e for e in reversed(kept) if e.period < AFTER_PERIODS), None)
    anchor = times.get(last.id) if last is not None else None
    return {
        "period": state.period,
        "elapsed_tenths": state.elapsed,
        "period_length_tenths": state.period_length,
        "running": state.running,
        "anchor": anchor.isoformat() if anchor is not None else None,
    }


def _server_clock_time(device_time: datetime.datetime, offset_ms: int | None, received_at: datetime.datetime):
    """The server's time at an entry's game time: the device's clock less its offset (received time if unknown)."""
    if offset_ms is None:
        return received_at
    return device_time - datetime.timedelta(milliseconds=offset_ms)


@dataclass(frozen=True)
class _ParsedLog:
    """A sheet's stored log as the engine reads it, with each event's server-clock time, at one sequence."""

    sequence: int
    events: tuple[engine.Event, ...]
    times: Mapping[str, datetime.datetime]


class _ParsedLogs:
    """The parsed logs of the sheets this process entered last (the games being played), by sheet: its id and
    its ``log_key`` (``key``), never the id alone: SQLite gives the id of a rolled-back or deleted sheet to the
    next one, whose log is another.

    A log only grows (rows are never changed or deleted) and a sequence number is given once per sheet, so a
    log cached at the locked sheet's sequence is the stored log: the entry replays it without reading and
    parsing every row again (a 400-entry log: 35 ms read and parsed, an entry's median 45-60 ms with the kept
    log against 95 ms without, on the shared test machine). Any other sequence (another process entered since)
    reads the rows. A log is cached only once its transaction has committed.
    """

    def __init__(self, size: int = 64):
        self.size = size
        self.logs: dict[tuple[int, uuid.UUID], _ParsedLog] = {}
        self.lock = threading.Lock()

    @staticmethod
    def key(sheet: GameSheet) -> tuple[int, uuid.UUID]:
        return sheet.pk, sheet.log_key

    def get(self, sheet: GameSheet) -> _ParsedLog:
        with self.lock:
            cached = self.logs.get(self.key(sheet))
        if cached is not None and cached.sequence == sheet.sequence:
            return cached
        rows = (
            SheetEvent.objects.filter(sheet=sheet)
            .order_by("sequence")
            .values_list("event_id", "sequence", "payload", "device_time", "clock_offset_ms", "received_at")
        )
        entries, times = [], {}
        for event_id, sequence, payload, device_time, offset, received_at in rows:
            entries.append({**payload, "id": str(event_id), "seq": sequence})
            times[str(event_id)] = _server_clock_time(device_time, offset, received_at)
        return _ParsedLog(sheet.sequence, tuple(engine.parse_log(entries)), times)

    def put(self, key: tuple[int, uuid.UUID], log: _ParsedLog) -> None:
        with self.lock:
            self.logs.pop(key, None)
            self.logs[key] = log
            while len(self.logs) > self.size:
                self.logs.pop(next(iter(self.logs)))


PARSED_LOGS = _ParsedLogs()


def _replayed(sheet: GameSheet, log: _ParsedLog, created: Sequence[SheetEvent], now) -> tuple[_ParsedLog, dict, dict]:
    """Replay the stored log and the new entries; refuse (``SheetRefused``) when the engine refuses an event."""
    game = _engine_game(sheet.teams, sheet.game_type)
    new_ids = {e.event_id for e in created}
    try:
        # The new entries only are parsed here: the stored ones were when they were entered.
        new = engine.parse_log([{**e.payload, "id": e.event_id, "seq": e.sequence} for e in created])
        events = log.events + tuple(new)
        state = engine.replay(events, game, engine.Ruleset.from_dict(sheet.ruleset))
        kept = engine.sort_events(events)
    except engine.EngineError as error:
        raise SheetRefused(error, stored=error.event_id not in new_ids) from None
    times = {**log.times, **{e.event_id: _server_clock_time(e.device_time, e.clock_offset_ms, now) for e in created}}
    grown = _ParsedLog(created[-1].sequence, events, times)
    return grown, state.to_dict(), _clock(state, kept, times)


def record_events(
    *,
    game: Game,
    by: User,
    device: str,
    events: object,
    now: datetime.datetime | None = None,
    rescue_import: bool = False,
    amending: bool = False,
):
    """Store a batch of entries of the game's sheet and return the new state (``SheetAnswer``).

    In one transaction with the sheet row locked, so two devices posting at once are taken one after the
    other: an id already stored is acknowledged as a duplicate (the same content; other content under a stored
    id is refused, a correction changes an entry); the new ones get the next sequence numbers in batch order,
    the whole log is replayed, and an event the engine refuses refuses the batch (``SheetRefused``, nothing
    stored). New entries come only from a device signed in as a duty of the game (``games.devices``: 403 if
    it never signed in, ``DeviceTakenOver`` if another device took its duties over); resends are acknowledged
    whatever the device, so an outbox always drains. A final sheet (4.2 O, 4.3) or a game whose result is recorded
    takes no new entry.

    Two staff paths, for the staff who direct the championship only, take no device sign-in: ``rescue_import``
    (a console's rescue file uploaded on the server, ``games.rescue``: the staff member enters, not the device)
    and ``amending`` (the audited amendment of a final sheet, ``games.finalize.sheet_amend``, which alone
    appends to it).
    """
    check_can_enter_game_events(by, game)
    if (rescue_import or amending) and not can_direct_game(by, game):
        raise PermissionDenied(_("Only the staff who direct the championship import a rescue file or amend a sheet."))
    device = check_device_name(device)
    incoming = check_entries(events)
    now = now or timezone.now()
    with transaction.atomic():
        sheet = _locked_sheet(game, by=by, now=now)
        # What each id of the batch already is: (sequence, payload) stored, or given earlier in this batch.
        known: dict[str, tuple[int, dict[str, Any]]] = {
            str(event_id): (sequence, payload)
            for event_id, sequence, payload in SheetEvent.objects.filter(
                sheet=sheet, event_id__in=[i.event_id for i in incoming]
            ).values_list("event_id", "sequence", "payload")
        }
        acks: list[Ack] = []
        new: list[Incoming] = []
        for item in incoming:
            if item.event_id in known:
                sequence, payload = known[item.event_id]
                if payload != item.payload:
                    raise ValidationError(
                        {
                            "events": _(
                                "R-10: event %(id)s is stored with other content; correct it with a correction event."
                            )
                            % {"id": item.event_id}
                        }
                    )
                acks.append(Ack(item.event_id, sequence, duplicate=True))
                continue
            sequence = sheet.sequence + 1 + len(new)
            known[item.event_id] = (sequence, item.payload)
            acks.append(Ack(item.event_id, sequence, duplicate=False))
            new.append(item)
        if not new:
            return _answer(sheet, acks, now)
        if amending and sheet.status != SheetStatus.FINAL:
            raise ValidationError({"events": _("Rule 4.2 O: only a final (signed) sheet is amended.")})
        if not (rescue_import or amending):
            # Who enters is explicit (4.3-4.5): the device signed in, and no other device took its duties over.
            check_device_signed_in(by, game, device)
        if not amending and (sheet.status == SheetStatus.FINAL or game.status == GameStatus.FINAL):
            raise ValidationError(
                {
                    "events": _(
                        "Rule 4.2 O / 4.3: the game sheet is final (signed, or the result recorded); only an "
                        "audited staff amendment changes it."
                    )
                }
            )
        first = sheet.sequence + 1
        created = [
            SheetEvent(
                sheet=sheet,
                event_id=item.event_id,
                sequence=first + n,
                payload=item.payload,
                entered_by=by,
                device=device,
                received_at=now,
                device_time=item.device_time,
                clock_offset_ms=item.clock_offset_ms,
            )
            for n, item in enumerate(new)
        ]
        grown, state, clock = _replayed(sheet, PARSED_LOGS.get(sheet), created, now)
        SheetEvent.objects.bulk_create(created)
        sheet.sequence = grown.sequence
        sheet.save(update_fields=["sequence"])
        snapshot = {"sequence": sheet.sequence, "state": {"state": state, "clock": clock}, "taken_at": now}
        if not SheetSnapshot.objects.filter(sheet=sheet, period=state["period"]).update(**snapshot):
            SheetSnapshot.objects.create(sheet=sheet, period=state["period"], **snapshot)
        key = PARSED_LOGS.key(sheet)
        transaction.on_commit(lambda: PARSED_LOGS.put(key, grown))
    answer = SheetAnswer(game.pk, sheet.status, sheet.sequence, state, clock, now, acks)
    # The scoreboard's viewers hear of it once it is stored (a push is a hint; they read the snapshot).
    transaction.on_commit(partial(live.publish_sheet, answer, championship_id=game.championship_id))
    return answer


# --- reads ----------------------------------------------------------------------------------------------------------


def _answer(sheet: GameSheet, acks: list[Ack], now: datetime.datetime) -> SheetAnswer:
    snapshot = SheetSnapshot.objects.filter(sheet=sheet).order_by("-sequence").first()
    if snapshot is None:  # opened by a batch that was refused: nothing entered yet
        return _unopened(sheet.game, now, teams=sheet.teams, game_type=sheet.game_type, status=sheet.status)
    return SheetAnswer(
        sheet.game_id,
        sheet.status,
        sheet.sequence,
        snapshot.state["state"],
        snapshot.state["clock"],
        now,
        acks,
    )


def _unopened(game: Game, now, *, teams=None, game_type=None, status: str = "not_opened") -> SheetAnswer:
    engine_game = _engine_game(teams or engine_teams(game), game_type or engine_game_type(game))
    state = engine.replay([], engine_game)
    return SheetAnswer(game.pk, status, 0, state.to_dict(), _clock(state, [], {}), now)


def sheet_state(game: Game, *, now: datetime.datetime | None = None) -> SheetAnswer:
    """Return the sheet's current state (the latest snapshot: no replay), for a resume and the scoreboard."""
    now = now or timezone.now()
    sheet = GameSheet.objects.filter(game=game).first()
    if sheet is None:
        return _unopened(game, now)
    return _answer(sheet, [], now)


def decided_at(game: Game) -> datetime.datetime | None:
    """When the server received the entry that ended the game on its sheet (the last period's end that leaves a
    winner, the sudden-death goal, the shoot-out's deciding attempt, the forfeit: ``engine.ending_event``), None
    while the sheet shows the game going on or it has no sheet. Only a sheet whose latest state has ended is
    replayed; a corrected end counts as it was received again (the kept entry's receipt)."""
    sheet = GameSheet.objects.filter(game=game).first()
    if sheet is None:
        return None
    latest = SheetSnapshot.objects.filter(sheet=sheet).order_by("-sequence").values_list("state", flat=True).first()
    if (latest or {}).get("state", {}).get("status") != "ended":
        return None
    log = PARSED_LOGS.get(sheet)
    event = engine.ending_event(
        log.events, _engine_game(sheet.teams, sheet.game_type), engine.Ruleset.from_dict(sheet.ruleset)
    )
    if event is None:
        return None
    return SheetEvent.objects.filter(sheet=sheet, event_id=event.id).values_list("received_at", flat=True).first()


@dataclass(frozen=True)
class LogLine:
    """One stored entry as the log shows it: the event, who entered it, from where, when, and its fate."""

    event: SheetEvent
    voided_by: str | None  # the correction that voids it (None: it counts)


def sheet_log(game: Game, *, user: User, after: int = 0) -> list[LogLine]:
    """Return the sheet's log in entry order, voided entries included and marked (the officials and staff)."""
    if not can_read_sheet_log(user, game):  # the referees read what they sign (4.2 O)
        raise PermissionDenied(_("Only the game's officials and the staff who direct its championship read its log."))
    rows = list(SheetEvent.objects.filter(sheet__game=game).select_related("entered_by").order_by("sequence"))
    if not rows:
        return []
    events = engine.parse_log(_log([(r.event_id, r.sequence, r.payload) for r in rows]))
    voided = engine.voided_ids(events)
    voided_by = {e.voids: e.id for e in events if e.type == CORRECTION and e.id not in voided and e.voids in voided}
    return [LogLine(row, voided_by.get(str(row.event_id))) for row in rows if row.sequence > after]
