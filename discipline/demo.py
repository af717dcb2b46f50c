"""The discipline records of the demo world (``python manage.py demo``): called once by the world builder.

From the last final game of the result days: a match penalty (7.1: an incident report, suspended for the rest
of the tournament until the committee decides) and a major with its game misconduct (8.2 A: the next game the
team plays); the committee opens a case on the match penalty with a hearing the next morning; the live game's
lead referee files his confidential report (4.2 P). Times come from the games, never the wall clock.
"""

from __future__ import annotations

import datetime

from discipline import cases
from discipline.models import IncidentReport
from discipline.services import Consequence, receive_game_consequences
from tournaments.models import DecidedIn, Game, GameStatus, Position, RosterEntry


def _skater(entry) -> RosterEntry:
    return RosterEntry.objects.filter(entry=entry, confirmed=True, position=Position.PLAYER).order_by("number").first()


def build_discipline_demo(builder) -> None:
    """``builder``: the demo's WorldBuilder (its championship, logins and live game)."""
    game = (
        Game.objects.filter(championship=builder.championship, status=GameStatus.FINAL)
        .exclude(decided_in=DecidedIn.FORFEIT)
        .order_by("-start_at", "-number")
        .first()
    )
    if game is None:
        return
    finished = game.start_at + datetime.timedelta(hours=2)
    home, away = _skater(game.home), _skater(game.away)
    receive_game_consequences(
        game=game,
        consequences=[
            Consequence(
                penalty_id="demo-match",
                entry_id=game.home_id,
                person_id=home.person_id,
                number=int(home.number),
                kind="match",
                article="6.1.6",
                infraction="attempt_to_injure",
                period=2,
                time_tenths=8450,
            ),
            Consequence(
                penalty_id="demo-major/6.1.3B",
                entry_id=game.away_id,
                person_id=away.person_id,
                number=int(away.number),
                kind="game_misconduct",
                article="6.1.3 B",
                infraction="",
                period=1,
                time_tenths=3120,
            ),
        ],  # fmt: skip
        now=finished,
    )
    committee = builder.users["discipline"]
    report = IncidentReport.objects.get(consequence__game=game, consequence__penalty_id="demo-match")
    case = cases.open_case(
        reports=[report], title=f"Attempt to injure, game #{game.number}", by=committee, now=finished
    )
    cases.schedule_hearing(
        case=case, hearing_at=finished + datetime.timedelta(hours=14), by=committee, now=finished,
        why="The player, his coach and the referees are heard before the team's next game.",
    )  # fmt: skip
    live = getattr(builder, "live_game", None)
    if live is not None:
        cases.file_confidential_report(
            game=live, kind="referee", by=builder.users["referee"], now=live.start_at + datetime.timedelta(minutes=15),
            text="Home bench: repeated abuse of the officials after the first goal; warned once (6.4.29).",
        )  # fmt: skip
