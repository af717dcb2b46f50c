"""A played game with its sheet for the protest tests: an on-rink protest by the home captain (9.1 A, R-50),
a penalty (an incident for a federation's protest, 9.1 C), the game's end received by the server (9.1 B's
anchor), the teams' managers, a committee member, a fee keeper."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import F
from django.utils import timezone

from accounts.models import Role, User
from discipline import protests as svc
from discipline.models import Protest
from games.models import GameProtestMark, GameSheet, SheetEvent
from games.sheet import record_events
from tests.factories import international_staff, with_role
from tests.games.sheet_helpers import entry, sheet_game, sign_in
from tournaments.models import Game

UTC = datetime.UTC
# The game is at 10:00 in Rome on 1 July 2027 (08:00 UTC); the sheet received the entries at these times.
INCIDENT_AT = datetime.datetime(2027, 7, 1, 8, 20, tzinfo=UTC)
END_AT = datetime.datetime(2027, 7, 1, 9, 30, tzinfo=UTC)
SECOND = datetime.timedelta(seconds=1)


@dataclass
class World:
    game: Game
    home_manager: User
    away_manager: User
    committee: User
    staff: User
    director: User
    on_rink_protest: str
    penalty: str
    mark: GameProtestMark


def manager_of(entry_, **kwargs) -> User:
    user = with_role(Role.TEAM_MANAGER, entry_.federation, **kwargs)
    entry_.managers.add(user)
    return user


def _marked(game: Game) -> tuple[User, GameProtestMark]:
    """The championship's director, the home team's administrative protest made before the start (9.1 B), the
    director's console signed in to the sheet."""
    director = international_staff()
    mark = GameProtestMark.objects.create(
        game=game,
        entry=game.home,
        subject="equipment",
        details="sticks",
        made_at=game.start_at - datetime.timedelta(minutes=10),
        recorded_by=director,
    )
    sign_in(game, director)
    return director, mark


def world() -> World:
    game = sheet_game()
    director, mark = _marked(game)
    protest = entry("protest", period=1, time="3:00", team="home", seconds=180)
    penalty = entry(
        "penalty", period=1, time="3:00", team="away", player=12, penalty="minor", infraction="tripping", seconds=181
    )
    events = [entry("period_start", period=1), entry("clock_stop", period=1, time="3:00"), protest, penalty]
    record_events(game=game, by=director, device="table-1", events=events, now=INCIDENT_AT)
    # The game's end as the server received it (a whole game's log is not needed for the anchor).
    sheet = GameSheet.objects.get(game=game)
    SheetEvent.objects.create(
        sheet=sheet,
        event_id="00000000-0000-4000-8000-000000000e0d",
        sequence=sheet.sequence + 1,
        payload={"type": "game_end"},
        entered_by=director,
        device="table-1",
        received_at=END_AT,
        device_time=END_AT - datetime.timedelta(minutes=5),  # a device's clock is never the anchor
    )
    return World(
        game=game,
        home_manager=manager_of(game.home),
        away_manager=manager_of(game.away),
        committee=with_role(Role.DISCIPLINE_COMMITTEE),
        staff=international_staff(),
        director=director,
        on_rink_protest=f"event:{protest['id']}",
        penalty=f"event:{penalty['id']}",
        mark=mark,
    )


def world_ended(ago: datetime.timedelta) -> World:
    """``world()`` moved in time so that the sheet received the game's end ``ago`` before now (the server's time
    the pages and the worker compare with): the on-rink protest, received 1 h 10 min before the end, is due
    3 h after it (9.1 A, D)."""
    w = world()
    shift = timezone.now() - ago - END_AT
    SheetEvent.objects.filter(sheet__game=w.game).update(received_at=F("received_at") + shift)
    Game.objects.filter(pk=w.game.pk).update(start_at=F("start_at") + shift)
    w.game.refresh_from_db()
    return w


def file_as_home(w: World, kind: str, incident: str, *, now: datetime.datetime, **kwargs) -> Protest:
    """The home team's manager files a protest of ``kind`` about ``incident`` (an ``Incident.key``) at ``now``."""
    return svc.protest_file(
        by=w.home_manager, game=w.game, entry=w.game.home, kind=kind, incident=incident, now=now, **kwargs
    )


def stored_protest(game: Game, entry, by: User, *, at: datetime.datetime, kind: str = "ruling", attachment=None):
    """A protest of ``entry`` about ``game`` as the filing stores it (9.1): filed at ``at``, the fee due (R-52; none
    for 9.1 C), its two deadlines (R-51) and its filing's transition; ``attachment``: a file to store with it. Rows
    written directly, for the tests that need many or need them without a sheet (lists, the schema's world)."""
    from djmoney.money import Money

    from discipline.models import Deadline, Protest, ProtestAttachment, ProtestTransition

    protest = Protest.objects.create(
        kind=kind,
        game=game,
        entry=entry,
        incident="On-rink protest",
        incident_at=at,
        statement="Written.",
        filed_by=by,
        filed_at=at,
        fee_due=None if kind == "federation" else Money(200, "USD"),
    )
    for deadline, hours in (("protest", 3), ("answer", 24)):
        Deadline.objects.create(
            protest=protest, kind=deadline, article="9.1", anchor_at=at, due_at=at + datetime.timedelta(hours=hours)
        )
    ProtestTransition.objects.create(protest=protest, from_status="", to_status="filed", by=by, at=at)
    if attachment is not None:
        row = ProtestAttachment(
            protest=protest, content_type="image/jpeg", name="scan.jpg", uploaded_by=by, uploaded_at=at
        )
        row.file.save("upload", attachment, save=True)
    return protest


def world_decided(end_at: datetime.datetime = END_AT, *, ended: bool = True) -> World:
    """A game played on its sheet to the end of period 2, home winning 2-1 (tests.games.endgame_helpers'
    ``whole_game``), with no ``game_end`` entered: the sheet received period 2's end at ``end_at`` (``ended``
    False: the log stops before it, period 2 still being played). The home team made an administrative protest
    before the start (9.1 B)."""
    from tests.games.endgame_helpers import whole_game

    game = sheet_game(start_at=end_at - datetime.timedelta(hours=1))
    director, mark = _marked(game)
    *played, last = whole_game()
    assert last["type"] == "period_end" and last["period"] == 2
    record_events(game=game, by=director, device="table-1", events=played, now=end_at - datetime.timedelta(hours=1))
    if ended:
        record_events(game=game, by=director, device="table-1", events=[last], now=end_at)
    return World(
        game=game,
        home_manager=manager_of(game.home),
        away_manager=manager_of(game.away),
        committee=with_role(Role.DISCIPLINE_COMMITTEE),
        staff=international_staff(),
        director=director,
        on_rink_protest="",
        penalty="",
        mark=mark,
    )
