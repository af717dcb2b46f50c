"""The discipline records of the demo world (``python manage.py demo``): called once by the world builder.

From the last final game of the result days: a match penalty (7.1: an incident report, suspended for the rest
of the tournament until the committee decides) and a major with its game misconduct (8.2 A: the next game the
team plays); the committee opens a case on the match penalty with a hearing tomorrow morning (the builder's timeline), and decides
another on the major the same evening (two games, 8.2 A, replacing the automatic one); the live game's
lead referee files his confidential report (4.2 P). Protests (9.1 B, R-51, R-52): on the first two final games
a team with a manager's login played, an administrative protest made before the start and confirmed in writing
with its fee; the first is under the committee's review, the second was rejected (fee forfeited). Times come
from the games, never the wall clock: every deadline of the demo is met, so beat's sweep lapses nothing.
"""

from __future__ import annotations

import datetime

from django.db.models import Q
from djmoney.money import Money

from discipline import cases
from discipline import protests as protest_services
from discipline.models import DecisionOutcome, FeeMethod, IncidentReport, ProtestKind, SuspensionKind
from discipline.services import Consequence, receive_game_consequences
from games.models import GameProtestMark
from games.services import protest_mark_record
from tournaments.models import DecidedIn, Game, GameStatus, Position, RosterEntry

MINUTE = datetime.timedelta(minutes=1)


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
        case=case, hearing_at=builder.t.hearing_at, by=committee, now=finished,
        why="The player, his coach and the referees are heard before the team's next game.",
    )  # fmt: skip
    # 8.2 A: the major with its game misconduct; the committee adds a game to the automatic one the same evening.
    misconduct = IncidentReport.objects.get(consequence__game=game, consequence__penalty_id="demo-major/6.1.3B")
    decided = cases.open_case(
        reports=[misconduct], title=f"Major and game misconduct, game #{game.number}", by=committee, now=finished
    )
    cases.decide_case(
        case=decided, outcome=DecisionOutcome.SANCTIONS, by=committee, now=finished + 90 * MINUTE,
        reasons="The slash was dangerous and came after the whistle; the referee's report and the video agree. "
        "Two games, which replace the automatic one (8.2 A).",
        sanctions=[cases.Sanction(person_id=away.person_id, kind=SuspensionKind.GAMES, article="8.2 A", games=2)],
    )  # fmt: skip
    build_protest_demo(builder)
    live = getattr(builder, "live_game", None)
    if live is not None:
        cases.file_confidential_report(
            game=live, kind="referee", by=builder.users["referee"], now=live.start_at + datetime.timedelta(minutes=5),
            text="Home bench: repeated abuse of the officials after the first goal; warned once (6.4.29).",
        )  # fmt: skip


def build_protest_marks(builder) -> None:
    """Before the results are entered: two teams with a manager's login protest to the referee before the start
    of their first game (9.1 B), so those games are played under protest."""
    games = (
        Game.objects.filter(championship=builder.championship)
        .filter(Q(home__managers__isnull=False) | Q(away__managers__isnull=False))
        .select_related("home", "away")
        .distinct()
        .order_by("start_at", "number")[:2]
    )
    subjects = [("equipment", "the opponents' goalkeeper's leg pads"), ("rink", "the boards at the far end")]
    for game, (subject, details) in zip(games, subjects, strict=False):
        entry = game.home if game.home.managers.exists() else game.away
        protest_mark_record(
            game=game, entry=entry, subject=subject, details=details, by=builder.users["firs.staff"],
            now=game.start_at - 20 * MINUTE,
        )  # fmt: skip


def build_protest_demo(builder) -> None:
    """The written protests of the marks of final games (9.1 B, R-51, R-52): one under review, one rejected."""
    staff, committee = builder.users["firs.staff"], builder.users["discipline"]
    marks = GameProtestMark.objects.filter(
        game__championship=builder.championship, game__status=GameStatus.FINAL
    ).select_related("game__championship__venue", "game__home", "game__away", "entry")
    for index, mark in enumerate(marks.order_by("game__start_at", "pk")):
        game, entry = mark.game, mark.entry
        end = protest_services.game_end_at(game)
        protest = protest_services.protest_file(
            by=entry.managers.order_by("pk").first(), game=game, entry=entry, kind=ProtestKind.ADMINISTRATIVE,
            incident=f"mark:{mark.pk}", now=end + 25 * MINUTE,
            statement=f"Our protest before the start ({mark.details}) stands: we ask the IHTC to investigate (9.1 B).",
        )  # fmt: skip
        rules = protest_services.protest_rules(game.championship)
        protest_services.protest_record_fee(
            by=staff, protest=protest, amount=Money(rules.fee_amount, rules.fee_currency), method=FeeMethod.CASH,
            received_at=end + 40 * MINUTE, now=end + 40 * MINUTE,
        )  # fmt: skip
        protest_services.protest_start_review(
            by=committee, protest=protest, reason="Fee and statement in.", now=end + 60 * MINUTE
        )
        if index == 1:
            protest_services.protest_reject(
                by=committee, protest=protest, now=end + 5 * 60 * MINUTE,
                reason="The referees inspected it before the start and found it within the rules (2.1).",
            )  # fmt: skip
