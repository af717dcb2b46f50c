"""The official game report (4.2 O, 4.3, 4.4): its data, read from the records, for the template.

``game_report_data`` returns plain data (strings, numbers, lists, dicts), so it fingerprints as it renders: the
document's version is the SHA-256 of exactly this. Two sources, as the game was recorded:

- a game with a final live sheet: the sheet's log replayed by the engine (``games.engine``, the same replay
  ``games.finalize.derive_summary`` reads) gives the goals with their strength, the penalties with the time each
  one was served, shots and saves per period, time-outs, shoot-out attempts and on-rink protests; the
  signatures and amendments are the sheet's;
- a game whose result staff entered: the summary lines of ``tournaments`` (goals, penalties, goalkeepers) and
  the result's amendments; what such a game does not record (times served, per-period figures, time-outs) is
  said, not invented.
"""

from __future__ import annotations

import datetime
from collections import Counter
from typing import Any

from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_lazy, ngettext

from common.numbers import whole_number_or_none
from federation.models import Person
from games import engine
from games.engine.events import format_time
from games.engine.penalty_index import get_infraction
from games.engine.replay import Replayer, sort_events
from games.finalize import sheet_people
from games.labels import goal_outcomes, penalty_kind_label, penalty_outcomes
from games.models import (
    GameOfficial,
    GameProtestMark,
    GameSheet,
    Lineup,
    OfficialDuty,
    SheetAmendment,
    SheetSignature,
    SheetStatus,
)
from games.sheet import PARSED_LOGS, _engine_game
from tournaments.models import DecidedIn, Game, GoalkeeperRecord, GoalRecord, PenaltyRecord, RosterEntry

SIDES = ("home", "away")
DECIDED = {
    DecidedIn.REGULATION: gettext_lazy("in regulation time (1.2 A)"),
    DecidedIn.OVERTIME: gettext_lazy("in sudden-death overtime (1.3 B)"),
    DecidedIn.SHOOTOUT: gettext_lazy("by shoot-out (1.3 E, R-40)"),
    DecidedIn.FORFEIT: gettext_lazy("by forfeit, recorded 1-0 (8.1 B, R-41)"),
}
# The penalties the rules add by themselves (R-29, 6.1.3 B), by the article the engine gives them.
AUTOMATIC = {
    "6.1.3 B": gettext_lazy("With the major"),
    "6.1.7 A": gettext_lazy("Third penalty call"),
    "6.1.7 B": gettext_lazy("Further penalty call"),
    "6.1.7 B, C": gettext_lazy("Further call, third stick infraction"),
    "6.1.7 C": gettext_lazy("Third stick infraction"),
    "6.1.7 D": gettext_lazy("Second misconduct"),
}
DUTY_ORDER = [
    OfficialDuty.REFEREE,
    OfficialDuty.SCORER,
    OfficialDuty.TIMEKEEPER,
    OfficialDuty.PENALTY_TIMEKEEPER,
    OfficialDuty.GOAL_JUDGE,
]


def _amended(amendments: list[dict[str, Any]]) -> str:
    """ "amended 2 times, last 2026-12-06 12:00" (the version line's end)."""
    return ngettext("amended %(count)d time, last %(at)s", "amended %(count)d times, last %(at)s", len(amendments)) % {
        "count": len(amendments),
        "at": amendments[-1]["at"],
    }


def _local(moment: datetime.datetime | None, zone) -> str:
    return date_format(moment.astimezone(zone), "SHORT_DATETIME_FORMAT") if moment else ""


def _name(person: Person | None) -> str:
    return str(person) if person is not None else ""


def _period(period: int, periods: int = 2) -> str:
    return "OT" if period > periods else str(period)


# --- line-ups and officials -----------------------------------------------------------------------------------


def _team(game: Game, side: str) -> dict[str, Any]:
    """A team's list for the game (5.1 A): its line-up, else its registered roster; captain C, alternates A."""
    entry = game.home if side == "home" else game.away
    lineup = Lineup.objects.filter(game=game, entry=entry).first()
    if lineup is not None:
        lines = lineup.players.select_related("person")
        officials = [
            {"name": _name(o.person), "role": o.team_official.get_role_display()}
            for o in lineup.bench_officials.select_related("person", "team_official")
        ]
        source = gettext("line-up")
    else:
        lines = RosterEntry.objects.filter(entry=entry).select_related("person")
        officials = [
            {"name": _name(o.person), "role": o.get_role_display()} for o in entry.officials.select_related("person")
        ]
        source = gettext("registered roster (no line-up was entered)")
    players = [
        {
            "number": line.number,
            "name": _name(line.person),
            "person": line.person_id,
            "goalkeeper": line.position == "goalkeeper",
            "mark": "C" if line.captain else ("A" if line.alternate else ""),
        }
        for line in lines
    ]
    players.sort(key=lambda p: (p["goalkeeper"] is False, whole_number_or_none(p["number"], maximum=999) or 999))
    return {"name": entry.display_name, "source": source, "players": players, "officials": officials}


def _officials(game: Game) -> list[dict[str, str]]:
    """The game's officials, the lead referee first (4.2 C), then the officials' table (4.3-4.5), goal judges."""
    rows = GameOfficial.objects.filter(game=game).select_related("person")
    ordered = sorted(rows, key=lambda o: (DUTY_ORDER.index(o.duty), o.position))
    return [
        {"duty": gettext("Lead referee") if o.is_lead else o.get_duty_display().split(" (")[0], "name": _name(o.person)}
        for o in ordered
    ]


# --- a game with a final live sheet ---------------------------------------------------------------------------


def _at(absolute: int, rules: engine.Ruleset) -> tuple[int, int]:
    """Absolute game time (tenths since the start) as (period, elapsed in the period) (R-10)."""
    period, left = 1, absolute
    while period <= rules.periods and left > rules.period_length:
        left -= rules.period_length
        period += 1
    return period, left


def _who(people: dict[int, Person], number: int | None) -> str:
    if number is None:
        return ""
    return f"#{number} {_name(people.get(number))}".strip()


def _from_sheet(game: Game, sheet: GameSheet) -> dict[str, Any]:
    """Replay the sheet's stored log step by step: per-period shots and saves, time-outs, then the final state."""
    rules = engine.Ruleset.from_dict(sheet.ruleset)
    replayer = Replayer(_engine_game(sheet.teams, sheet.game_type), rules)
    state = replayer.state
    shots: Counter[tuple[str, int]] = Counter()
    saves: Counter[tuple[str, int, int]] = Counter()
    timeouts = []

    def totals():
        return (
            {side: state.teams[side].shots for side in SIDES},
            {(side, n): p.saves for side in SIDES for n, p in state.teams[side].players.items()},
        )

    for event in sort_events(PARSED_LOGS.get(sheet).events):
        shots_before, saves_before = totals()
        period = event.period or state.period
        replayer.apply(event)
        shots_after, saves_after = totals()
        for side in SIDES:
            shots[(side, period)] += shots_after[side] - shots_before[side]
        for key, value in saves_after.items():
            if value != saves_before.get(key, 0):
                saves[(key[0], key[1], period)] += value - saves_before.get(key, 0)
        if event.type == "timeout":
            timeouts.append({"team": event.team, "period": _period(event.period), "time": format_time(event.time)})
    replayer.finish()
    data = state.to_dict()
    people = sheet_people(game)
    periods = sorted({p for _, p in shots} | {p for _, _, p in saves} | {1, rules.periods})

    goals, score = [], {"home": 0, "away": 0}
    for goal in data["goals"]:
        score[goal["team"]] += 1
        flags = [
            label
            for label, on in (
                ("PP", goal["strength"] == "power_play"),
                ("SH", goal["strength"] == "shorthanded"),
                ("EN", goal["empty_net"]),
                ("PS", goal["penalty_shot"]),
                ("OG", goal["own_goal"]),
                ("AW", goal["awarded"]),
            )
            if on
        ]
        goals.append(
            {
                "period": _period(goal["period"], rules.periods),
                "time": goal["time"],
                "team": goal["team"],
                "scorer": _who(people[goal["team"]], goal["scorer"]),
                "assist": _who(people[goal["team"]], goal["assist"]),
                "strength": " ".join(flags) or "EQ",
                "score": f"{score['home']}-{score['away']}",
                # said in words by the template (games.labels.OUTCOMES); only when there is one, so a report
                # without such a goal keeps its data, and its version, as before.
                **({"outcomes": goal_outcomes(goal)} if goal_outcomes(goal) else {}),
            }
        )

    records = {p.id: p for p in state.penalties}
    penalties = []
    for penalty in data["penalties"]:
        code = penalty["infraction"]
        line = get_infraction(code) if code else None
        automatic = penalty["automatic"]
        served = []
        for serve in records[penalty["id"]].serves:
            if serve.start is None:
                continue
            start_p, start_t = _at(serve.start, rules)
            end = serve.end if serve.end is not None and serve.end <= state.now else None
            end_text = gettext("end of game")
            if end is not None:
                end_p, end_t = _at(end, rules)
                end_text = f"P{_period(end_p, rules.periods)} {format_time(end_t)}"
                if end_p == start_p:
                    end_text = format_time(end_t)
            by = (
                " " + gettext("by #%(number)s") % {"number": serve.served_by}
                if serve.served_by not in (None, penalty["player"])
                else ""
            )
            served.append(f"P{_period(start_p, rules.periods)} {format_time(start_t)}-{end_text}{by}")
        status = {
            "not_served": gettext("not served, 6.3 C"),
            "ended_by_goal": gettext("ended by goal, 6.2.1 B"),
        }.get(penalty["status"], "")
        penalties.append(
            {
                "period": _period(penalty["period"], rules.periods),
                "time": penalty["time"],
                "team": penalty["team"],
                "number": penalty["player"] if penalty["player"] is not None else "bench",  # the template says it
                "player": _name(people[penalty["team"]].get(penalty["player"]))
                if penalty["player"]
                else gettext("Bench"),
                "kind": penalty_kind_label(penalty["penalty"]),
                "infraction": line.name.rstrip(" *")
                if line
                else str(AUTOMATIC.get(automatic or "", gettext("Automatic"))),
                "article": penalty["article"] or automatic or (line.article if line else ""),
                "minutes": penalty["minutes"],
                "served": "; ".join(served) + (f" ({status})" if served and status else status) or "-",
                "note": status,
                # said in words by the template (games.labels.OUTCOMES), only when there is one.
                **({"outcomes": penalty_outcomes(penalty, rules)} if penalty_outcomes(penalty, rules) else {}),
            }
        )

    keepers = []
    for side in SIDES:
        listed = set(sheet.teams[side]["goalkeepers"])
        numbers = sorted(listed | {n for s, n, _ in saves if s == side})
        for number in numbers:
            per = [saves[(side, number, p)] for p in periods]
            if number not in listed and not any(per):
                continue
            keepers.append(
                {"team": side, "goalkeeper": _who(people[side], number), "per_period": per, "total": sum(per)}
            )
    shootout = data["shootout"]
    attempts = []
    if shootout:
        for n, attempt in enumerate(shootout["attempts"], start=1):
            attempts.append(
                {
                    "order": n,
                    "team": attempt["team"],
                    "shooter": _who(people[attempt["team"]], attempt["player"]),
                    "scored": "goal" if attempt["scored"] else "no goal",
                }
            )
    signatures = [
        {
            "role": s.get_role_display().split(" (")[0],
            "name": s.name,
            "at": _local(s.signed_at, game.championship.venue.zone),
            "version": s.sequence,
        }
        for s in SheetSignature.objects.filter(sheet=sheet).order_by("signed_at", "pk")
    ]
    amendments = [
        {"at": _local(a.amended_at, game.championship.venue.zone), "by": str(a.amended_by), "reason": a.reason}
        for a in SheetAmendment.objects.filter(sheet=sheet).select_related("amended_by")
    ]
    entries = len(PARSED_LOGS.get(sheet).events)
    label = gettext("Game sheet version #%(sequence)s (%(entries)s entries), final and signed") % {
        "sequence": sheet.sequence,
        "entries": entries,
    }
    if amendments:
        label += "; " + _amended(amendments)
    return {
        "source": "sheet",
        "sheet_sequence": sheet.sequence,
        "periods": [_period(p, rules.periods) for p in periods],
        "goals": goals,
        "penalties": penalties,
        "goalkeepers": keepers,
        "shots": [
            {"team": side, "per_period": [shots[(side, p)] for p in periods], "total": state.teams[side].shots}
            for side in SIDES
        ],
        "timeouts": timeouts,
        "shootout": attempts,
        "protests": [
            {"team": p["team"], "period": _period(p["period"], rules.periods), "time": p["time"]}
            for p in data["protests"]
        ],
        "signatures": signatures,
        "amendments": amendments,
        "version_label": label,
    }


# --- a game whose result staff entered --------------------------------------------------------------------------


def _from_records(game: Game, numbers: dict[int, str]) -> dict[str, Any]:
    """The summary lines of ``tournaments`` (goals, penalties, goalkeepers) as staff entered them."""
    side_of = {game.home_id: "home", game.away_id: "away"}
    zone = game.championship.venue.zone

    def who(person: Person | None) -> str:
        if person is None:
            return ""
        number = numbers.get(person.pk)
        return f"#{number} {person}" if number else str(person)

    goals, score = [], {"home": 0, "away": 0}
    for goal in (
        GoalRecord.objects.filter(game=game).select_related("scorer", "assist").order_by("period", "time_tenths", "pk")
    ):
        team = side_of[goal.entry_id]
        score[team] += 1
        flags = [
            label
            for label, on in (
                ("PP", goal.power_play),
                ("SH", goal.shorthanded),
                ("EN", goal.empty_net),
                ("PS", goal.penalty_shot),
                ("OG", goal.own_goal),
                ("FF", goal.forfeit_award),
            )
            if on
        ]
        goals.append(
            {
                "period": _period(goal.period),
                "time": "" if goal.forfeit_award else format_time(goal.time_tenths),
                "team": team,
                "scorer": who(goal.scorer),
                "assist": who(goal.assist),
                "strength": " ".join(flags) or "EQ",
                "score": f"{score['home']}-{score['away']}",
            }
        )
    penalties = []
    for penalty in (
        PenaltyRecord.objects.filter(game=game).select_related("person").order_by("period", "time_tenths", "pk")
    ):
        line = get_infraction(penalty.infraction_code)
        penalties.append(
            {
                "period": _period(penalty.period),
                "time": format_time(penalty.time_tenths),
                "team": side_of[penalty.entry_id],
                "number": numbers.get(penalty.person_id, "") if penalty.person_id else "bench",
                "player": str(penalty.person) if penalty.person else gettext("Bench"),
                "kind": "",  # staff enter the infraction and the minutes, not the penalty's kind
                "infraction": line.name.rstrip(" *"),
                "article": line.article,
                "minutes": penalty.minutes,
                "served": gettext("not recorded"),
                "note": "",
            }
        )
    keepers = [
        {
            "team": side_of[record.entry_id],
            "goalkeeper": who(record.goalkeeper),
            "per_period": [],
            "total": record.saves,
            "saves": record.saves,
            "shots_against": record.shots_against,
            "goals_against": record.goals_against,
        }
        for record in GoalkeeperRecord.objects.filter(game=game).select_related("goalkeeper").order_by("entry", "pk")
    ]
    amendments = [
        {"at": _local(a.amended_at, zone), "by": str(a.amended_by), "reason": a.reason}
        for a in game.amendments.select_related("amended_by").order_by("amended_at", "pk")
    ]
    label = gettext("Result entered by staff (%(by)s, %(at)s)") % {
        "by": game.finalized_by or gettext("unknown"),
        "at": _local(game.finalized_at, zone),
    }
    if amendments:
        label += "; " + _amended(amendments)
    return {
        "source": "records",
        "sheet_sequence": None,
        "periods": [],
        "goals": goals,
        "penalties": penalties,
        "goalkeepers": keepers,
        "shots": [],
        "timeouts": [],
        "shootout": [],
        "protests": [],
        "signatures": [],
        "amendments": amendments,
        "version_label": label,
    }


def _team_codes(game: Game) -> dict[str, str]:
    """Short names of the teams for the report's tables: the federations' country codes (ISO 3166 alpha-3), or
    the entries' names when the codes are missing or the same."""
    codes = {side: getattr(getattr(entry.federation, "country", None), "alpha3", "") or "" for side, entry in
             (("home", game.home), ("away", game.away))}  # fmt: skip
    if all(codes.values()) and codes["home"] != codes["away"]:
        return codes
    return {"home": game.home.display_name, "away": game.away.display_name}


# --- the whole report ----------------------------------------------------------------------------------------


def game_report_data(game: Game) -> dict[str, Any]:
    """Return everything the official game report shows, as plain data (the document's version is its hash)."""
    game = Game.objects.select_related(
        "championship__venue",
        "phase",
        "pool",
        "home__federation",
        "away__federation",
        "rink",
        "forfeited_by",
        "finalized_by",
    ).get(pk=game.pk)
    championship = game.championship
    zone = championship.venue.zone
    teams = {side: _team(game, side) for side in SIDES}
    sheet = GameSheet.objects.filter(game=game, status=SheetStatus.FINAL).first()
    if sheet is not None:
        body = _from_sheet(game, sheet)
    else:
        numbers = {p["person"]: p["number"] for side in SIDES for p in teams[side]["players"]}
        body = _from_records(game, numbers)
    for side in SIDES:
        for player in teams[side]["players"]:
            del player["person"]
    names = _team_codes(game)
    for side in SIDES:
        teams[side]["code"] = names[side]
    for key in ("goals", "penalties", "goalkeepers", "shots", "timeouts", "shootout", "protests"):
        for line in body[key]:
            line["team"] = names[line["team"]]
    winner = ""
    if game.decided_in == DecidedIn.SHOOTOUT and game.shootout_winner is not None:
        winner = game.shootout_winner.display_name
    elif game.home_goals is not None and game.home_goals != game.away_goals:
        winner = game.home.display_name if game.home_goals > game.away_goals else game.away.display_name
    start = game.start_at.astimezone(zone) if game.start_at else None
    return {
        "championship": championship.name,
        "category": championship.get_category_display(),
        "level": championship.get_level_display(),
        "number": game.number,
        "phase": gettext("Pool %(name)s") % {"name": game.pool.name}
        if game.pool
        else (game.bracket_slot or game.phase.name),
        "date": f"{date_format(start, 'l')} {date_format(start, 'DATE_FORMAT')}" if start else "",
        "start": date_format(start, "TIME_FORMAT") if start else "",
        "time_zone": championship.venue.time_zone,
        "venue": f"{championship.venue.name}, {championship.venue.city}",
        "rink": game.rink.name if game.rink else "",
        "home": teams["home"]["name"],
        "away": teams["away"]["name"],
        "codes": names,
        "teams": [teams["home"], teams["away"]],
        "officials": _officials(game),
        "result": {
            "home": game.home_goals,
            "away": game.away_goals,
            "shootout_home": game.shootout_home_goals,
            "shootout_away": game.shootout_away_goals,
            "decided": str(DECIDED.get(game.decided_in, game.decided_in)),
            "winner": winner or gettext("tie (1.3 A)"),
            "forfeited_by": game.forfeited_by.name if game.forfeited_by else "",
        },
        "under_protest": [
            {"team": mark.entry.display_name, "subject": mark.get_subject_display(), "details": mark.details}
            for mark in GameProtestMark.objects.filter(game=game).select_related("entry")
        ],
        **body,
    }
