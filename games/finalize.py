"""The end of the game: the signatures (4.2 O, 4.3 A), the finalize pipeline, and the audited staff amendment.

A game's truth is its sheet's log (architecture principle 3). When the referees and both teams have signed
(``sheet_sign``), the sheet is final and ``finalize_game`` runs in the same transaction, with explicit service
calls (no signals):

1. the summary is derived from the replayed log (``derive_summary``): the result (score, how it was decided,
   or the forfeit of 8.1 B), the goals with scorer and assist, the penalties, the goalkeepers' lines; the
   jersey numbers become people through the game's line-up, else the team's roster (``sheet_people``);
2. it becomes the game's result and summary through the tournaments services (``game_record_result``,
   ``goal_add``, ``penalty_add``, ``goalkeeper_record_set``; ``result_amend`` once the result is final), so
   standings and statistics have one source; a manual entry of them is refused while a sheet exists
   (``tournaments.services.check_summary_source``);
3. the automatic consequences (game misconduct, match, major + game misconduct, gross misconduct, game
   ejection) go to the discipline module (``discipline.services.receive_game_consequences``);
4. the official game report is requested (``GameReportRequest``, the hand-over to the report module) and,
   after the commit, queued for rendering (``reports.services.game_report_on_commit``);
5. after the commit, ``_after_final`` (the hook for pushes to viewers).

Finalizing again is idempotent: the summary is compared with the records line by line and only differences
are written; consequences are held once per sheet penalty; a report is requested once per sheet version.
``sheet_amend`` appends the amending entries to a final sheet (directing staff, a reason required), then
finalizes again and keeps who, when, why and the summary before and after (``SheetAmendment``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from accounts.pins import verify_signing_secret
from common.numbers import whole_number_or_none
from common.text import _
from federation.models import Person
from games import engine, labels
from games.access import can_direct_game, can_enter_game_events
from games.devices import check_device_name, check_device_signed_in
from games.engine.events import FORFEIT, parse_time
from games.engine.replay import OUT_OF_GAME, Replayer, sort_events
from games.hooks import Consequence, ConsequenceOutcome, game_report_on_commit, receive_game_consequences
from games.live import publish_game_final
from games.models import (
    GameOfficial,
    GameReportRequest,
    GameSheet,
    LineupPlayer,
    OfficialAccount,
    OfficialDuty,
    SheetAmendment,
    SheetEvent,
    SheetSignature,
    SheetStatus,
    SignatureMethod,
    SignerRole,
)
from games.sheet import PARSED_LOGS, _engine_game, check_can_enter_game_events, record_events
from portal.i18n import untranslated
from tournaments import services as results
from tournaments.models import (
    DecidedIn,
    Game,
    GameStatus,
    GoalkeeperRecord,
    GoalRecord,
    OfficialRole,
    PenaltyRecord,
    RosterEntry,
    TeamOfficial,
)
from tournaments.versions import championship_changed

SIDES = ("home", "away")
# the penalties that leave a team shorthanded when not coincidental.
_TIMED = frozenset({"minor", "bench_minor", "double_minor", "major", "match"})
# The Annex C line of an automatic penalty (6.1.7), by the article the engine gives it. The game misconduct a
# major brings (6.1.3 B) is on the major's own index line ("5'+GM").
_AUTOMATIC_CODES = {
    "6.1.7 A": "third_penalty",
    "6.1.7 B": "subsequent_penalty",
    "6.1.7 B, C": "subsequent_penalty",
    "6.1.7 C": "three_stick_penalties",
    "6.1.7 D": "second_misconduct",
}


# --- the summary the log gives --------------------------------------------------------------------------------


@dataclass(frozen=True)
class GoalLine:
    side: str
    scorer: int
    assist: int | None
    period: int
    time_tenths: int
    own_goal: bool
    empty_net: bool
    power_play: bool
    shorthanded: bool
    penalty_shot: bool


@dataclass(frozen=True)
class PenaltyLine:
    id: str
    side: str
    number: int | None
    kind: str
    infraction_code: str
    article: str
    minutes: int
    gives_power_play: bool
    period: int
    time_tenths: int


@dataclass(frozen=True)
class GoalkeeperLine:
    side: str
    number: int
    tenths_in_goal: int
    shots_against: int
    saves: int
    goals_against: int


@dataclass(frozen=True)
class SheetSummary:
    """What a final sheet's log says the game was: the result and the summary lines, by side and jersey number."""

    sequence: int
    decided_in: str
    home_goals: int
    away_goals: int
    shootout_home_goals: int | None
    shootout_away_goals: int | None
    forfeited_by: str | None  # the side that forfeits (8.1 B)
    forfeit_reason: str  # the forfeit entry's note: the 8.1 A reason the officials gave
    goals: tuple[GoalLine, ...] = ()
    penalties: tuple[PenaltyLine, ...] = ()
    goalkeepers: tuple[GoalkeeperLine, ...] = ()
    problems: tuple[str, ...] = field(default=(), compare=False)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("problems")
        return data

    @property
    def consequences(self) -> tuple[PenaltyLine, ...]:
        """The penalties that put a person out of the game (6.1.3 B, 6.1.5-6.1.7, 6.4.9 L): for discipline."""
        return tuple(p for p in self.penalties if p.kind in OUT_OF_GAME)


def _side_other(side: str) -> str:
    return "away" if side == "home" else "home"


def _stored_log(sheet: GameSheet) -> tuple[engine.Event, ...]:
    return PARSED_LOGS.get(sheet).events


def derive_summary(sheet: GameSheet) -> SheetSummary:
    """Replay the sheet's stored log and return its summary; ``problems`` names what keeps it from the records.

    The goalkeepers' lines come from one replay stepped event by event: the time each listed goalkeeper was in
    goal (not pulled), the goals scored against him (not into an empty net), his saves (the engine's, 4.6
    note); shots against are saves + goals against. A temporary goalkeeper (a player in goal, 6.1.5 B) has no
    goalkeeper line in the records (a line is a rostered goalkeeper's, 3.1.1 A).
    """
    events = _stored_log(sheet)
    game = _engine_game(sheet.teams, sheet.game_type)
    replayer = Replayer(game, engine.Ruleset.from_dict(sheet.ruleset))
    state = replayer.state
    listed = {side: set(sheet.teams[side]["goalkeepers"]) for side in SIDES}
    in_goal_tenths: dict[tuple[str, int], int] = Counter()
    against: dict[tuple[str, int], int] = Counter()
    forfeit_reason = ""
    try:
        for event in sort_events(events):
            netminders = {
                side: None if state.teams[side].goalkeeper_pulled else state.teams[side].goalkeeper for side in SIDES
            }
            before_now, before_goals = state.now, len(state.goals)
            replayer.apply(event)
            for side, number in netminders.items():
                if number is not None and number in listed[side]:
                    in_goal_tenths[(side, number)] += max(0, state.now - before_now)
            for goal in state.goals[before_goals:]:
                keeper = netminders[_side_other(goal.team)]
                if not goal.empty_net and keeper is not None:
                    against[(_side_other(goal.team), keeper)] += 1
            if event.type == FORFEIT:
                forfeit_reason = next(
                    (str(e.payload.get("note", "")) for e in SheetEvent.objects.filter(sheet=sheet, event_id=event.id)),
                    "",
                )
        replayer.finish()
    except engine.EngineError as error:  # a stored log the engine took once replays the same way
        raise ValidationError({"events": [str(error)]}) from None
    data = state.to_dict()
    problems: list[str] = []
    result = data["result"]
    if data["status"] != "ended" or result is None:
        problems.append(
            _(
                "Rule 4.2 O / 4.3 A: the game report is signed after the game; the game is %(state)s in period "
                "%(period)s (enter the end of the last period, the deciding goal or the shoot-out).",
                state=labels.game_state_label(data["status"]),
                period=data["period"],
            )
        )
        return SheetSummary(sheet.sequence, "", 0, 0, None, None, None, "", problems=tuple(problems))
    forfeit = result["decided_by"] == DecidedIn.FORFEIT
    goals: list[GoalLine] = []
    if not forfeit:  # 8.1 B: the forfeit's 1-0 is recorded by game_record_result, to the winner's captain
        for goal in data["goals"]:
            if goal["scorer"] is None:
                problems.append(
                    _(
                        "Rule 5.5.11 B / 4.3 A: goal %(goal)s (%(team)s, period %(period)s %(time)s) is credited to "
                        "no player; the records credit every goal to the player the referee names (4.2 M): correct "
                        "it with the scorer.",
                        goal=goal["id"],
                        team=goal["team"],
                        period=goal["period"],
                        time=goal["time"],
                    )
                )
                continue
            goals.append(
                GoalLine(
                    side=goal["team"],
                    scorer=goal["scorer"],
                    assist=goal["assist"],
                    period=goal["period"],
                    time_tenths=parse_time(goal["time"]),
                    own_goal=goal["own_goal"],
                    empty_net=goal["empty_net"],
                    power_play=goal["strength"] == "power_play",
                    shorthanded=goal["strength"] == "shorthanded",
                    penalty_shot=goal["penalty_shot"],
                )
            )
    penalties: list[PenaltyLine] = []
    for penalty in data["penalties"]:
        automatic = penalty["automatic"]
        code = penalty["infraction"]
        if code is None and automatic is not None:
            code = _AUTOMATIC_CODES.get(automatic)
            if code is None:  # 6.1.3 B: the major's own line
                caused_by = penalty["id"].split("/", 1)[0]
                code = next((p["infraction"] for p in data["penalties"] if p["id"] == caused_by), None)
        if code is None:
            problems.append(
                _(
                    "Rule 4.3 A / R-20: penalty %(penalty)s (%(team)s %(player)s, %(kind)s) has no infraction; the "
                    "scorer records the infraction of every penalty: correct it with its Annex C code.",
                    penalty=penalty["id"],
                    team=penalty["team"],
                    player=penalty["player"] if penalty["player"] is not None else _("bench"),
                    kind=penalty["penalty"],
                )
            )
            continue
        penalties.append(
            PenaltyLine(
                id=penalty["id"],
                side=penalty["team"],
                number=penalty["player"],
                kind=penalty["penalty"],
                infraction_code=code,
                article=automatic or penalty["article"] or "",
                minutes=penalty["minutes"],
                gives_power_play=penalty["penalty"] in _TIMED
                and not penalty["coincidental"]
                and penalty["status"] in ("assessed", "ended_by_goal"),
                period=penalty["period"],
                time_tenths=parse_time(penalty["time"]),
            )
        )
    keepers: list[GoalkeeperLine] = []
    if not forfeit:  # 8.1 B: no goalkeeper statistics in a forfeit
        for side in SIDES:
            for number in sorted(listed[side]):
                saves = data["players"][side][str(number)]["saves"]
                tenths, conceded = in_goal_tenths[(side, number)], against[(side, number)]
                if tenths or saves or conceded:
                    keepers.append(GoalkeeperLine(side, number, tenths, saves + conceded, saves, conceded))
    shootout = result["shootout"] or {}
    return SheetSummary(
        sequence=sheet.sequence,
        decided_in=result["decided_by"],
        home_goals=result["score"]["home"],
        away_goals=result["score"]["away"],
        shootout_home_goals=shootout.get("home") if result["decided_by"] == DecidedIn.SHOOTOUT else None,
        shootout_away_goals=shootout.get("away") if result["decided_by"] == DecidedIn.SHOOTOUT else None,
        forfeited_by=result["forfeited_by"],
        forfeit_reason=forfeit_reason,
        goals=tuple(goals),
        penalties=tuple(penalties),
        goalkeepers=tuple(keepers),
        problems=tuple(problems),
    )


def sheet_people(game: Game) -> dict[str, dict[int, Person]]:
    """The people behind the sheet's jersey numbers, per side: the game's line-up (5.1 A), else the roster."""
    people: dict[str, dict[int, Person]] = {}
    lineup_lines = LineupPlayer.objects.filter(lineup__game=game).select_related("person", "lineup")
    by_entry: dict[int, list[tuple[str, Person]]] = {}
    for line in lineup_lines:
        by_entry.setdefault(line.lineup.entry_id, []).append((line.number, line.person))
    for side, entry_id in (("home", game.home_id), ("away", game.away_id)):
        lines = by_entry.get(entry_id)
        if lines is None:
            lines = [
                (r.number, r.person) for r in RosterEntry.objects.filter(entry_id=entry_id).select_related("person")
            ]
        numbered = ((whole_number_or_none(number), person) for number, person in lines)
        people[side] = {number: person for number, person in numbered if number is not None}
    return people


def check_summary(summary: SheetSummary, people: Mapping[str, Mapping[int, Person]]) -> None:
    """Refuse a summary the records cannot take: the problems ``derive_summary`` found, a number without a person."""
    problems = list(summary.problems)
    numbers = {(g.side, g.scorer) for g in summary.goals} | {(g.side, g.assist) for g in summary.goals if g.assist}
    numbers |= {(p.side, p.number) for p in summary.penalties if p.number is not None}
    numbers |= {(k.side, k.number) for k in summary.goalkeepers}
    for side, number in sorted(numbers):
        if number not in people[side]:
            problems.append(
                _(
                    "Rule 5.1 B / R-07: %(team)s #%(number)s is on the sheet but not on the team's line-up.",
                    team=side,
                    number=number,
                )
            )
    if problems:
        raise ValidationError({"sheet": problems})


# --- the records follow the summary ------------------------------------------------------------------------------


@dataclass(frozen=True)
class FinalizeResult:
    game: Game
    summary: SheetSummary
    changed: bool  # the records changed (the first final version, or an amendment that changed the summary)
    consequences: ConsequenceOutcome
    report: GameReportRequest | None  # the report requested now (None: this version's was requested before)
    result_amendment: Any = None


def _goal_fields(line: GoalLine, entries: Mapping[str, int], people) -> dict[str, Any]:
    return {
        "entry_id": entries[line.side],
        "scorer": people[line.side][line.scorer],
        "assist": people[line.side][line.assist] if line.assist is not None else None,
        "period": line.period,
        "time_tenths": line.time_tenths,
        "own_goal": line.own_goal,
        "empty_net": line.empty_net,
        "power_play": line.power_play,
        "shorthanded": line.shorthanded,
        "penalty_shot": line.penalty_shot,
    }


def _goal_key(fields: Mapping[str, Any]) -> tuple:
    scorer, assist = fields["scorer"], fields["assist"]
    return (
        fields["entry_id"],
        scorer.pk if isinstance(scorer, Person) else scorer,
        assist.pk if isinstance(assist, Person) else assist,
        *(fields[k] for k in ("period", "time_tenths", "own_goal", "empty_net", "power_play", "shorthanded")),
        fields["penalty_shot"],
    )


def _record_goal_key(goal: GoalRecord) -> tuple:
    return (
        goal.entry_id,
        goal.scorer_id,
        goal.assist_id,
        goal.period,
        goal.time_tenths,
        goal.own_goal,
        goal.empty_net,
        goal.power_play,
        goal.shorthanded,
        goal.penalty_shot,
    )


def _penalty_key(entry_id: int, person_id: int | None, line: PenaltyLine) -> tuple:
    return (
        entry_id,
        person_id,
        line.infraction_code,
        line.minutes,
        line.gives_power_play,
        line.period,
        line.time_tenths,
    )


def _record_penalty_key(record: PenaltyRecord) -> tuple:
    return (
        record.entry_id,
        record.person_id,
        record.infraction_code,
        record.minutes,
        record.gives_power_play,
        record.period,
        record.time_tenths,
    )


def _apply_summary(game: Game, summary: SheetSummary, *, by: User, reason: str, now) -> tuple[bool, Any]:
    """Make the game's result and summary the sheet's, through the tournaments services; return (changed, amendment)."""
    people = sheet_people(game)
    check_summary(summary, people)
    entries = {"home": game.home_id, "away": game.away_id}
    teams = {"home": game.home, "away": game.away}
    changed = False
    amendment = None
    final = game.status == GameStatus.FINAL
    # Goals (and, once final, the result through its audited amendment).
    wanted = [_goal_fields(line, entries, people) for line in summary.goals]
    stored = list(GoalRecord.objects.filter(game=game, forfeit_award=False))
    missing = Counter(_goal_key(f) for f in wanted) - Counter(_record_goal_key(g) for g in stored)
    extra_keys = Counter(_record_goal_key(g) for g in stored) - Counter(_goal_key(f) for f in wanted)
    extra = []
    for goal in stored:
        if extra_keys[_record_goal_key(goal)] > 0:
            extra_keys[_record_goal_key(goal)] -= 1
            extra.append(goal)
    to_add = []
    for fields in wanted:
        if missing[_goal_key(fields)] > 0:
            missing[_goal_key(fields)] -= 1
            to_add.append(fields)
    if final:
        decided_changed = (game.decided_in, game.shootout_home_goals, game.shootout_away_goals) != (
            summary.decided_in,
            summary.shootout_home_goals,
            summary.shootout_away_goals,
        )
        forfeit_changed = (game.decided_in == DecidedIn.FORFEIT) != (summary.decided_in == DecidedIn.FORFEIT) or (
            summary.forfeited_by is not None and game.forfeited_by_id != entries[summary.forfeited_by]
        )
        if forfeit_changed:
            raise ValidationError(
                {
                    "events": _(
                        "Rule 8.1 B-C / R-41, R-43: a forfeit's 1-0 and any disqualification it brought are "
                        "recorded once; an amendment may not make a played game a forfeit or a forfeit a played game."
                    )
                }
            )
        if extra or to_add or decided_changed:
            amendment = results.result_amend(
                game=game,
                reason=reason,
                by=by,
                remove_goals=extra,
                add_goals=to_add,
                decided_in=summary.decided_in,
                shootout_home_goals=summary.shootout_home_goals,
                shootout_away_goals=summary.shootout_away_goals,
                now=now,
                from_sheet=True,
            )
            changed = True
    else:
        for goal in extra:
            results.summary_line_remove(record=goal, by=by, from_sheet=True)
        for fields in to_add:
            results.goal_add(
                game=game,
                entry=teams[_side_of(fields["entry_id"], entries)],
                **{k: v for k, v in fields.items() if k != "entry_id"},
                by=by,
                now=now,
                from_sheet=True,
            )
        changed = changed or bool(extra or to_add)
    # Penalties: a person of the team, or the bench.
    wanted_penalties = [
        (line, people[line.side][line.number] if line.number is not None else None) for line in summary.penalties
    ]
    stored_penalties = list(PenaltyRecord.objects.filter(game=game))
    want = Counter(_penalty_key(entries[p.side], person.pk if person else None, p) for p, person in wanted_penalties)
    have = Counter(_record_penalty_key(r) for r in stored_penalties)
    surplus = have - want
    for record in stored_penalties:
        key = _record_penalty_key(record)
        if surplus[key] > 0:
            surplus[key] -= 1
            results.summary_line_remove(record=record, by=by, from_sheet=True)
            changed = True
    lacking = want - have
    for line, person in wanted_penalties:
        key = _penalty_key(entries[line.side], person.pk if person else None, line)
        if lacking[key] > 0:
            lacking[key] -= 1
            results.penalty_add(
                game=game,
                entry=teams[line.side],
                person=person,
                infraction_code=line.infraction_code,
                minutes=line.minutes,
                gives_power_play=line.gives_power_play,
                period=line.period,
                time_tenths=line.time_tenths,
                by=by,
                now=now,
                from_sheet=True,
            )
            changed = True
    # Goalkeepers' lines (4.6 note).
    stored_keepers = {r.goalkeeper_id: r for r in GoalkeeperRecord.objects.filter(game=game)}
    kept_ids = set()
    for line in summary.goalkeepers:
        person = people[line.side][line.number]
        kept_ids.add(person.pk)
        record = stored_keepers.get(person.pk)
        seconds = line.tenths_in_goal // 10
        counts = (entries[line.side], line.shots_against, line.saves, line.goals_against, seconds)
        if record is not None and counts == (
            record.entry_id,
            record.shots_against,
            record.saves,
            record.goals_against,
            record.seconds_played,
        ):
            continue
        results.goalkeeper_record_set(
            game=game,
            entry=teams[line.side],
            goalkeeper=person,
            shots_against=line.shots_against,
            saves=line.saves,
            goals_against=line.goals_against,
            seconds_played=seconds,
            by=by,
            now=now,
            from_sheet=True,
        )
        changed = True
    for person_id, record in stored_keepers.items():
        if person_id not in kept_ids:
            results.summary_line_remove(record=record, by=by, from_sheet=True)
            changed = True
    # The result, once: the score is the goal lines (5.5.11 B), a forfeit 1-0 to the captain (8.1 B).
    if not final:
        forfeit = summary.decided_in == DecidedIn.FORFEIT
        results.game_record_result(
            game=game,
            home_goals=None if forfeit else summary.home_goals,
            away_goals=None if forfeit else summary.away_goals,
            decided_in=summary.decided_in,
            forfeited_by=teams[summary.forfeited_by] if forfeit and summary.forfeited_by else None,
            shootout_home_goals=summary.shootout_home_goals,
            shootout_away_goals=summary.shootout_away_goals,
            by=by,
            now=now,
            from_sheet=True,
        )
        changed = True
    return changed, amendment


def _side_of(entry_id: int, entries: Mapping[str, int]) -> str:
    return "home" if entries["home"] == entry_id else "away"


def _consequences(game: Game, summary: SheetSummary, people) -> list[Consequence]:
    entries = {"home": game.home_id, "away": game.away_id}
    return [
        Consequence(
            penalty_id=line.id,
            entry_id=entries[line.side],
            person_id=people[line.side][line.number].pk if line.number is not None else None,
            number=line.number,
            kind=line.kind,
            article=line.article,
            infraction=line.infraction_code,
            period=line.period,
            time_tenths=line.time_tenths,
        )
        for line in summary.consequences
    ]


def report_requested(game: Game, *, sequence: int, by: User, amendment: SheetAmendment | None = None, now=None):
    """Hand the final sheet over to the official game report (4.3 A: the scorer forwards the report).

    The report module (``reports``) renders the version after the commit and marks the row rendered; one row per sheet version
    (``sequence``), so finalizing the same version again requests nothing. Returns the row made, or None.
    """
    if GameReportRequest.objects.filter(game=game, sequence=sequence).exists():
        return None
    return GameReportRequest.objects.create(
        game=game, sequence=sequence, amendment=amendment, requested_at=now or timezone.now(), requested_by=by
    )


def _after_final(game_id: int, championship_id: int) -> None:
    """After a game's final version commits (signed, or amended): tell the scoreboard's viewers and the open
    results and standings pages (``games.live.publish_game_final``), once per final version.

    The records themselves (results, standings, statistics, discipline, report) are written before the commit
    by ``finalize_game``; a push is a hint, so a lost one loses nothing (the pages read the records).
    """
    publish_game_final(game_id, championship_id=championship_id)


def finalize_game(
    game: Game, *, by: User, reason: str = "", amendment: SheetAmendment | None = None, now=None
) -> FinalizeResult:
    """Make the final sheet the game's result, summary, consequences and report, in one transaction.

    Idempotent: the same sheet version changes nothing, hands no consequence twice and requests no second
    report. Called by ``sheet_sign`` when the last signature is made and by ``sheet_amend``; ``reason`` is the
    result amendment's when the game's result was final already.
    """
    check_can_enter_game_events(by, game)
    now = now or timezone.now()
    with transaction.atomic():
        sheet = GameSheet.objects.select_for_update().get(game_id=game.pk)
        if sheet.status != SheetStatus.FINAL:
            raise ValidationError(
                {"sheet": _("Rule 4.2 O / 4.3 A: the sheet is finalized once the referees and both teams have signed.")}
            )
        game = Game.objects.select_related("championship", "phase", "home", "away").get(pk=game.pk)
        summary = derive_summary(sheet)
        changed, result_amendment = _apply_summary(
            game, summary, by=by, reason=reason or f"Derived again from the final sheet at #{sheet.sequence}", now=now
        )
        consequences = receive_game_consequences(
            game=game, consequences=_consequences(game, summary, sheet_people(game)), now=now
        )
        report = report_requested(game, sequence=sheet.sequence, by=by, amendment=amendment, now=now)
        game.refresh_from_db()
        transaction.on_commit(lambda: _after_final(game.pk, game.championship_id))
        if report is not None:
            game_report_on_commit(game.pk)  # answered by the reports app (games.hooks)
    return FinalizeResult(game, summary, changed, consequences, report, result_amendment)


# --- the signatures (4.2 O, 4.3 A) ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Signer:
    """Someone who may sign the report of a game, in a role; ``login`` is their own (games.OfficialAccount), with
    which they prove it is them (None: they cannot sign until they have one)."""

    role: str
    person: Person
    label: str
    login: User | None = None

    @property
    def has_pin(self) -> bool:
        return bool(self.login is not None and self.login.signing_pin)


@dataclass
class Signatures:
    """Where a sheet's signing stands: who may sign, who signed the current log, what is still missing."""

    game: Game
    status: str
    sequence: int
    signers: list[Signer]
    signed: list[SheetSignature]  # of the current log (``sequence``)
    stale: list[SheetSignature]  # made before a later entry: to be made again
    missing: list[str]
    problems: list[str]

    @property
    def complete(self) -> bool:
        return not self.missing


def _captain(game: Game, entry_id: int) -> Person | None:
    lineup_captain = (
        LineupPlayer.objects.filter(lineup__game=game, lineup__entry_id=entry_id, captain=True)
        .select_related("person")
        .first()
    )
    if lineup_captain is not None:
        return lineup_captain.person
    line = RosterEntry.objects.filter(entry_id=entry_id, captain=True).select_related("person").first()
    return line.person if line else None


def check_teams_known(game: Game) -> None:
    """A game whose teams are not known yet (a bracket game waiting for earlier results) has no one to sign."""
    if game.home_id is None or game.away_id is None:
        raise ValidationError({"game": _("R-10: the game's teams are not known yet; nobody signs its report.")})


def signers(game: Game) -> list[Signer]:
    """Who signs the report (4.2 O: the referees and both team captains; 4.3 A: the official scorer, and the
    team captain and/or the team coach): the game's assigned referees and scorer, each team's captain (of the
    line-up, else of the roster) and its coaches."""
    out: list[Signer] = []
    for official in GameOfficial.objects.filter(
        game=game, duty__in=[OfficialDuty.REFEREE, OfficialDuty.SCORER]
    ).select_related("person"):
        role = SignerRole.REFEREE if official.duty == OfficialDuty.REFEREE else SignerRole.SCORER
        duty = untranslated(OfficialDuty(official.duty).label)
        label = (
            _("%(duty)s (lead): %(person)s", duty=duty, person=str(official.person))
            if official.is_lead
            else _("%(duty)s: %(person)s", duty=duty, person=str(official.person))
        )
        out.append(Signer(role, official.person, label))
    for side, entry in (("home", game.home), ("away", game.away)):
        captain = _captain(game, entry.pk)
        if captain is not None:
            out.append(
                Signer(
                    f"{side}_captain", captain, _("%(team)s captain: %(person)s", team=str(entry), person=str(captain))
                )
            )
        for official in TeamOfficial.objects.filter(entry=entry, role=OfficialRole.COACH).select_related("person"):
            label = _("%(team)s coach: %(person)s", team=str(entry), person=str(official.person))
            out.append(Signer(f"{side}_coach", official.person, label))
    logins = {
        account.person_id: account.user
        for account in OfficialAccount.objects.filter(person__in=[s.person for s in out]).select_related("user")
    }
    return [Signer(s.role, s.person, s.label, logins.get(s.person.pk)) for s in out]


SIGN_RULE = "Rule 4.2 O / 4.3 A: each signer signs the game report in person"


def signs_game(user: User, game: Game) -> bool:
    """Whether ``user`` is the own login of one who signs the game's report (its referees, scorer, captains,
    coaches): they may sign it as themselves, from their own device (issue 23)."""
    if not getattr(user, "is_authenticated", False) or game.home_id is None or game.away_id is None:
        return False
    return any(s.login is not None and s.login.pk == user.pk for s in signers(game))


def check_can_sign(user: User, game: Game) -> None:
    """Who sees and takes the game's signatures: its officials and directing staff (on the officials' device),
    and each signer as themselves (4.2 O, 4.3 A)."""
    if not (can_enter_game_events(user, game) or signs_game(user, game)):
        check_can_enter_game_events(user, game)  # the refusal of the officials' own pages


def signer_of(game: Game, *, role: str, person: Person) -> Signer:
    """The signer of ``role`` who is ``person``; refused (400 naming the field and the rule) when ``role`` is no
    signing role or ``person`` does not sign the game's report in it (not on its duties, line-up or bench)."""
    if role not in SignerRole.values:
        raise ValidationError({"role": _("One of %(roles)s (4.2 O, 4.3 A).", roles=", ".join(SignerRole.values))})
    signer = next((s for s in signers(game) if s.role == role and s.person.pk == person.pk), None)
    if signer is None:
        raise ValidationError(
            {
                "person": _(
                    "Rule 4.2 O / 4.3 A: %(person)s does not sign this game's report as %(role)s.",
                    person=person,
                    role=SignerRole(role).label,
                )
            }
        )
    return signer


def authenticate_signer(signer: Signer, *, by: User, pin: str = "", password: str = "", now=None) -> str:
    """Prove that the one signing is ``signer`` (issue 23: no login signs for another person): ``by`` is their own
    login (logged in as themselves), or their PIN or password is typed on the device. Returns the
    ``SignatureMethod``; a signer without a login, a missing or wrong secret, or a login locked after too many
    wrong ones is refused (400 naming the field and the rule; the wrong secret is counted, accounts.pins)."""
    if signer.login is None:
        raise ValidationError(
            {
                "person": _(
                    "Rule 4.2 O / 4.3 A: each signer signs the game report in person: %(person)s has no portal login to sign with; "
                    "those who keep the accounts link one (games.OfficialAccount).",
                    person=signer.person,
                )
            }
        )
    if signer.login.pk == by.pk and not (pin or password):
        return SignatureMethod.SESSION
    rule = f"{SIGN_RULE}, as {signer.person}"
    return verify_signing_secret(signer.login, pin=pin, password=password, rule=rule, now=now)


def signatures_state(game: Game, *, user: User) -> Signatures:
    """Where the signing of the game's report stands (the game's officials and directing staff, its signers)."""
    check_can_sign(user, game)
    check_teams_known(game)
    sheet = GameSheet.objects.filter(game=game).first()
    who = signers(game)
    if sheet is None:
        return Signatures(game, "not_opened", 0, who, [], [], _missing(game, who, []), [_("The sheet has no entry.")])
    rows = list(SheetSignature.objects.filter(sheet=sheet).select_related("person", "recorded_by", "signer"))
    signed = [s for s in rows if s.sequence == sheet.sequence]
    stale = [s for s in rows if s.sequence != sheet.sequence and sheet.status == SheetStatus.OPEN]
    problems = [] if sheet.status == SheetStatus.FINAL else list(derive_summary(sheet).problems)
    return Signatures(game, sheet.status, sheet.sequence, who, signed, stale, _missing(game, who, signed), problems)


def _missing(game: Game, who: Sequence[Signer], signed: Sequence[SheetSignature]) -> list[str]:
    """The signatures the report still needs (4.2 O, 4.3 A).

    Every referee assigned to the game (4.2 O: "the Referees shall ... sign"), the official scorer when one is
    assigned (4.3 A), and for each team its captain or its coach (4.3 A: "the team captain and/or the team
    coach must sign"). A game with no referee assigned cannot be signed: the IHTC appoints them (4.2 A).
    """
    done = {(s.role, s.person_id) for s in signed}
    missing = []
    referees = [s for s in who if s.role == SignerRole.REFEREE]
    if not referees:
        missing.append(_("Rule 4.2 A / 4.2 O: no referee is assigned to this game; the referees sign its report."))
    for signer in who:
        if signer.role in (SignerRole.REFEREE, SignerRole.SCORER) and (signer.role, signer.person.pk) not in done:
            missing.append(_("Rule 4.2 O / 4.3 A: %(signer)s", signer=signer.label))
    for side, entry in (("home", game.home), ("away", game.away)):
        if not any(role in (f"{side}_captain", f"{side}_coach") for role, _ in done):
            missing.append(_("Rule 4.2 O / 4.3 A: %(team)s's captain or coach", team=str(entry)))
    return missing


def sheet_sign(
    *,
    game: Game,
    by: User,
    role: str,
    person: Person,
    device: str,
    pin: str = "",
    password: str = "",
    name: str = "",
    now=None,
) -> tuple[SheetSignature, FinalizeResult | None]:
    """Record one signature of the game's report (4.2 O, 4.3 A); the last one makes the sheet final.

    The game has ended on the sheet (its summary has nothing the records refuse); ``person`` is one who signs in
    ``role`` (``signers``: the referees and scorer of the game's duties, each team's captain of its line-up and
    its coaches). The signer proves it is them (``authenticate_signer``, issue 23): on the officials' device
    (``by`` its login, a console signed in to the game) they type their PIN or password; or they sign as
    themselves, logged in (a captain or coach from their own device). ``by`` is kept as who recorded it,
    ``signer`` as who signed. A signature is of the log as it stands (its sequence): an entry made after it
    calls for the signature again. When every signature is there (``_missing``), the sheet becomes final and
    ``finalize_game`` runs in the same transaction; a refusal there refuses the signature too (nothing stored).
    """
    check_can_sign(by, game)
    check_teams_known(game)
    now = now or timezone.now()
    device = check_device_name(device)
    if can_enter_game_events(by, game) and not can_direct_game(by, game):
        # "On the device" (4.2 O): the officials sign on a console signed in to this game (games.devices).
        check_device_signed_in(by, game, device)
    name = (name or "").strip() or str(person)
    if len(name) > 120:
        raise ValidationError({"name": _("The name as signed has at most 120 characters.")})
    signer = signer_of(game, role=role, person=person)
    if not can_enter_game_events(by, game) and (signer.login is None or signer.login.pk != by.pk):
        # A signer on their own device signs only as themselves.
        raise ValidationError(
            {"person": _("Rule 4.2 O / 4.3 A: each signer signs the game report in person: you sign only as yourself.")}
        )
    # Before the transaction: a wrong PIN or password is counted even though the signature is refused.
    method = authenticate_signer(signer, by=by, pin=pin, password=password, now=now)
    with transaction.atomic():
        sheet = GameSheet.objects.select_for_update().filter(game=game).first()
        if sheet is None:
            raise ValidationError(
                {"sheet": _("Rule 4.2 O: the sheet has no entry; the game is signed after it is played.")}
            )
        if sheet.status == SheetStatus.FINAL:
            raise ValidationError(
                {"sheet": _("Rule 4.2 O / 4.3 A: the sheet is final (signed); only an audited amendment changes it.")}
            )
        who = signers(game)
        if not any(s.role == role and s.person.pk == person.pk for s in who):
            raise ValidationError(
                {
                    "person": _(
                        "Rule 4.2 O / 4.3 A: %(person)s does not sign this game's report as %(role)s.",
                        person=person,
                        role=SignerRole(role).label,
                    )
                }
            )
        problems = derive_summary(sheet).problems
        if problems:
            raise ValidationError({"sheet": list(problems)})
        if SheetSignature.objects.filter(sheet=sheet, role=role, person=person, sequence=sheet.sequence).exists():
            raise ValidationError(
                {
                    "person": _(
                        "%(person)s has signed this report as %(role)s already.",
                        person=person,
                        role=SignerRole(role).label,
                    )
                }
            )
        signature = SheetSignature.objects.create(
            sheet=sheet,
            role=role,
            person=person,
            name=name,
            signer=signer.login,
            method=method,
            recorded_by=by,
            device=device,
            signed_at=now,
            sequence=sheet.sequence,
        )
        championship_changed(game.championship_id)  # the game's page lists the report's signatures
        signed = list(SheetSignature.objects.filter(sheet=sheet, sequence=sheet.sequence))
        if _missing(game, who, signed):
            return signature, None
        sheet.status = SheetStatus.FINAL
        sheet.save(update_fields=["status"])
        return signature, finalize_game(game, by=by, now=now)


# --- the audited amendment of a final sheet ---------------------------------------------------------------------


def check_can_amend_sheet(user: User, game: Game) -> None:
    """Only the staff who direct the game's championship amend a final sheet (4.2 O: the signed report stands)."""
    if not can_direct_game(user, game):
        raise PermissionDenied(_("Only the staff who direct the championship amend a final game sheet."))


def sheet_amend(
    *, game: Game, by: User, reason: str, events: object, device: str = "staff-amendment", now=None
) -> tuple[SheetAmendment, FinalizeResult]:
    """Amend a final sheet: append the entries (corrections, new events) to its log and finalize it again.

    Directing staff only, with a reason; who, when, why, the entries and the summary before and after are kept
    (``SheetAmendment``; the result's own ``ResultAmendment`` when the goals or how the game was decided change).
    The amended log is replayed like any entry (an event the engine refuses refuses the amendment, nothing
    stored) and must still be a finished game; an amendment that changes nothing in the summary is refused.
    Standings and statistics follow the records; the consequences and a new report request follow.
    """
    check_can_amend_sheet(by, game)
    reason = results.check_amendment_reason(reason)
    now = now or timezone.now()
    with transaction.atomic():
        sheet = GameSheet.objects.select_for_update().filter(game=game).first()
        if sheet is None or sheet.status != SheetStatus.FINAL:
            raise ValidationError(
                {"sheet": _("Rule 4.2 O: only a final (signed) sheet is amended; an open sheet takes corrections.")}
            )
        before = derive_summary(sheet)
        answer = record_events(game=game, by=by, device=device, events=events, now=now, amending=True)
        sheet.refresh_from_db()
        after = derive_summary(sheet)
        if after.problems:
            raise ValidationError({"events": list(after.problems)})
        if after.to_dict() | {"sequence": 0} == before.to_dict() | {"sequence": 0}:
            raise ValidationError(
                {"events": _("The amendment changes nothing in the game's summary; nothing is stored.")}
            )
        amendment = SheetAmendment.objects.create(
            sheet=sheet,
            amended_by=by,
            amended_at=now,
            reason=reason,
            event_ids=[a.id for a in answer.acknowledged if not a.duplicate],
            before=before.to_dict(),
            after=after.to_dict(),
        )
        finalized = finalize_game(game, by=by, reason=reason, amendment=amendment, now=now)
        if finalized.result_amendment is not None:
            amendment.result_amendment = finalized.result_amendment
            amendment.save(update_fields=["result_amendment"])
    return amendment, finalized
