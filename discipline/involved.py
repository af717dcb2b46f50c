"""The people of a committee's case (R-53, 8.2): whom its decision may sanction, as the decision form offers them and
as ``cases.decide_case`` checks them: those named on its incident reports and on its protests' incidents, then the
players and team officials of its games' line-ups (a team's roster where it gave none)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch

from discipline.models import Case
from games.models import Lineup, LineupPlayer, SheetEvent
from tournaments.models import RosterEntry, TeamOfficial


@dataclass(frozen=True)
class Candidate:
    """A person the committee may sanction in a case, as the decision form offers them: "#8 FAVRE Jean (Spain)",
    with the team and the game that bring them into the case (the suspension's team and offence game)."""

    person_id: int
    label: str
    group: str  # "named": on a report or a protest's incident; "lineup": on a line-up (or roster) of a game of the case
    entry_id: int
    game_id: int


@dataclass(frozen=True)
class _Row:
    person_id: int
    label: str
    entry_id: int
    game_id: int
    order: tuple


def _player_order(team: str, number: str) -> tuple:
    """By team, players first in number order (5 before 36), the odd number's text kept."""
    return (team, 0, int(number) if number.isdigit() else 10_000, number)


def _official_order(team: str, role: str) -> tuple:
    """By team, the team officials after the players, by role."""
    return (team, 1, 0, role)


def sanction_candidates(case: Case) -> list[Candidate]:
    """The people of ``case`` (R-53, 8.2) the decision offers and may sanction: first those named on its incident
    reports and on its protests' incidents (the sheet entry's player, assistants, the one serving), then the players
    and team officials of its games' line-ups (or the team's roster where no line-up was given), by team and in
    number order. Each person once, with number and team, never an id; in a constant number of queries."""
    reports = list(case.incident_reports.select_related("game__home", "game__away", "person", "entry"))
    protests = list(case.protests.select_related("game__home", "game__away", "entry"))
    games = {r.game_id: r.game for r in reports} | {p.game_id: p.game for p in protests}
    teams = {team.pk: team for game in games.values() for team in (game.home, game.away) if team is not None}
    teams |= {r.entry_id: r.entry for r in reports}

    rows: list[_Row] = []
    wore: dict[tuple[int, int, str], int] = {}  # (game, team, number) -> person
    lined_up: set[tuple[int, int]] = set()
    lineups = Lineup.objects.filter(game_id__in=list(games)).prefetch_related(
        Prefetch("players", queryset=LineupPlayer.objects.select_related("person")),
        "bench_officials__person",
        "bench_officials__team_official",
    )
    for lineup in lineups:
        lined_up.add((lineup.game_id, lineup.entry_id))
        team = str(teams.get(lineup.entry_id, ""))
        for line in lineup.players.all():
            wore[(lineup.game_id, lineup.entry_id, line.number)] = line.person_id
            rows.append(_Row(line.person_id, f"#{line.number} {line.person} ({team})", lineup.entry_id,
                             lineup.game_id, _player_order(team, line.number)))  # fmt: skip
        for official in lineup.bench_officials.all():
            role = str(official.team_official.get_role_display())
            rows.append(_Row(official.person_id, f"{official.person} ({team}, {role})", lineup.entry_id,
                             lineup.game_id, _official_order(team, role)))  # fmt: skip
    # A team that gave no line-up for a game of the case: its roster and team officials.
    missing = {(game.pk, entry) for game in games.values() for entry in (game.home_id, game.away_id)
               if entry is not None and (game.pk, entry) not in lined_up}  # fmt: skip
    entries = {entry for _, entry in missing}
    for line in RosterEntry.objects.filter(entry_id__in=entries).select_related("person") if entries else []:
        team = str(teams.get(line.entry_id, ""))
        for game_id, entry in missing:
            if entry == line.entry_id:
                wore.setdefault((game_id, entry, line.number), line.person_id)
                rows.append(_Row(line.person_id, f"#{line.number} {line.person} ({team})", entry, game_id,
                                 _player_order(team, line.number)))  # fmt: skip
    for official in TeamOfficial.objects.filter(entry_id__in=entries).select_related("person") if entries else []:
        team, role = str(teams.get(official.entry_id, "")), str(official.get_role_display())
        for game_id, entry in missing:
            if entry == official.entry_id:
                rows.append(_Row(official.person_id, f"{official.person} ({team}, {role})", entry, game_id,
                                 _official_order(team, role)))  # fmt: skip
    by_person = {row.person_id: row for row in reversed(rows)}  # the first row of each person

    named: dict[int, Candidate] = {}
    for report in reports:
        if report.person_id and report.person_id not in named:
            row = by_person.get(report.person_id)
            label = row.label if row else f"{report.person} ({report.entry})"
            named[report.person_id] = Candidate(report.person_id, label, "named", report.entry_id, report.game_id)
    event_ids = [p.incident_event_id for p in protests if p.incident_event_id]
    events = (
        SheetEvent.objects.filter(event_id__in=event_ids, sheet__game_id__in=list(games)).values(
            "event_id", "payload", "sheet__game_id"
        )
        if event_ids
        else []
    )
    for event in events:
        payload, game = event["payload"], games[event["sheet__game_id"]]
        side = payload.get("team")
        entry_id = {"home": game.home_id, "away": game.away_id}.get(side)
        assists = payload.get("assists") or ([payload["assist"]] if payload.get("assist") else [])
        for number in (payload.get("player"), payload.get("served_by"), *assists):
            person = wore.get((game.pk, entry_id, str(number))) if number not in (None, "") else None
            if person is not None and person not in named:
                row = by_person[person]
                named[person] = Candidate(person, row.label, "named", entry_id, game.pk)
    candidates = list(named.values())
    for row in sorted(rows, key=lambda r: r.order):
        if row.person_id not in named:
            named[row.person_id] = Candidate(row.person_id, row.label, "lineup", row.entry_id, row.game_id)
            candidates.append(named[row.person_id])
    return candidates
