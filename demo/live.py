"""The demo's live game, played while the portal runs (``python manage.py demo_live``, started by ``make run``).

The whole game is one script (``demo.data``: ``LIVE_GAME_ENTRIES``, its first period so far, entered when the
world is built, then ``LIVE_GAME_REST``). Each step is sent as the officials' console sends it: one entry with
its device-made id through ``games.sheet.record_events``, the service the console's API calls, as the scorer's
login on the table's device. The ids are fixed per game and step, so a resend (a feeder killed and started
again) is acknowledged by the service and never stored twice; the feeder starts from the first step the sheet
does not hold.

Pace: the game clock runs in real time between a clock start and the next stop; each stoppage lasts
``LIVE_STOPPAGE_SECONDS``, half time ``LIVE_INTERMISSION_SECONDS`` (1.2 A); ``pace`` multiplies every wait
(``--pace 0.02``: a game in under two minutes, for tests). Each wait counts from when the sheet received the
step before, so a restarted feeder catches up at once and goes on at pace. When the game has ended, its
officials and captains sign the report with their PINs on the same device (4.2 O, 4.3 A): the sheet becomes
final, the result and standings follow (games.finalize), and the 9.1 B protest window runs from the game's end.
"""

from __future__ import annotations

import datetime
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from django.urls import reverse
from django.utils import timezone

from demo import data

# The namespace of the live game's event ids (uuid5 of the game and the step's index).
EVENT_NAMESPACE = uuid.UUID("5f0b8f52-3d1e-4a57-9a8e-2f6c2b7d9e10")
# Events that stop the game clock (it starts again with the next clock_start or period_start).
STOPS = {"goal", "penalty", "clock_stop", "period_end", "timeout", "game_end"}
STARTS = {"clock_start", "period_start"}


@dataclass(frozen=True)
class Step:
    kind: str
    period: int | None
    at: str | None  # game time "m:ss"
    side: str | None
    fields: dict


def steps() -> list[Step]:
    """The whole live game: the first period so far (built with the world), then the rest."""
    first = [Step(kind, 1, at, side, fields) for kind, at, side, fields in data.LIVE_GAME_ENTRIES]
    return first + [Step(*step) for step in data.LIVE_GAME_REST]


def _seconds(at: str | None) -> int:
    if at is None:
        return 0
    minutes, seconds = (int(part) for part in at.split(":"))
    return minutes * 60 + seconds


def waits(script: list[Step]) -> list[float]:
    """Seconds on the real clock between each step and the one before (0 for the first), at real pace."""
    out: list[float] = [0.0]
    running = False
    for before, step in zip(script, script[1:], strict=False):
        if before.kind in STARTS:
            running = True
        elif before.kind in STOPS:
            running = False
        if step.period != before.period and step.period is not None:
            out.append(float(data.LIVE_INTERMISSION_SECONDS))
        elif running:
            out.append(float(max(0, _seconds(step.at) - _seconds(before.at))))
        else:
            out.append(float(data.LIVE_STOPPAGE_SECONDS))
    return out


def event_id(game_id: int, index: int) -> str:
    return str(uuid.uuid5(EVENT_NAMESPACE, f"demo-live-game:{game_id}:{index}"))


def skater_numbers(game) -> dict[str, list[int]]:
    """Each side's floor players' numbers in line-up order (the script names players by their place in it)."""
    from tournaments.models import Position, RosterEntry

    out = {}
    for side, entry in (("home", game.home), ("away", game.away)):
        lines = RosterEntry.objects.filter(entry=entry, confirmed=True, position=Position.PLAYER)
        out[side] = [int(line.number) for line in lines.order_by("position", "number", "pk")[:14]]
    return out


def entry(game, index: int, step: Step, *, skaters: dict[str, list[int]], made: datetime.datetime) -> dict:
    """One step as the table's console sends it (docs/game-scripts.md plus the console's envelope)."""
    event: dict = {"type": step.kind}
    if step.period is not None:
        event["period"] = step.period
    if step.at is not None:
        event["time"] = step.at
    if step.side is not None:
        event["team"] = step.side
    numbers = skaters[step.side] if step.side else []
    for key, value in step.fields.items():
        event[{"skater": "player"}.get(key, key)] = numbers[value] if key in ("skater", "assist") else value
    return {**event, "id": event_id(game.pk, index), "device_time": made.isoformat(), "clock_offset_ms": 0}


def live_game():
    """The demo's live game: the game whose sheet the scorer's login keeps open on the table's device."""
    from games.models import ConsoleSignIn

    sign_in = (
        ConsoleSignIn.objects.filter(device=data.LIVE_GAME_DEVICE, ended_at__isnull=True, user__username="scorer")
        .select_related("game__home", "game__away", "game__championship", "game__phase")
        .order_by("-game__start_at")
        .first()
    )
    return sign_in.game if sign_in is not None else None


def pending(game) -> list[int]:
    """The indexes of the script's steps the sheet does not hold yet."""
    from games.models import SheetEvent

    stored = {str(i) for i in SheetEvent.objects.filter(sheet__game=game).values_list("event_id", flat=True)}
    return [i for i in range(len(steps())) if event_id(game.pk, i) not in stored]


def last_received(game) -> datetime.datetime | None:
    from games.models import SheetEvent

    return (
        SheetEvent.objects.filter(sheet__game=game).order_by("-sequence").values_list("received_at", flat=True).first()
    )


def send(game, index: int, *, now: datetime.datetime | None = None):
    """Send one step through the console's service, as the scorer on the table's device."""
    from accounts.models import User
    from games.sheet import record_events

    now = now or timezone.now()
    step = steps()[index]
    event = entry(game, index, step, skaters=skater_numbers(game), made=now)
    scorer = User.objects.get(username="scorer")
    return record_events(game=game, by=scorer, device=data.LIVE_GAME_DEVICE, events=[event], now=now)


class PortalSession:
    """The scorer's logged-in browser session on the running portal (``url``): entries posted to its API are
    published by the web process itself, so the scoreboard's viewers hear each one at once (``make run``'s
    channel layer lives in the web process; an entry stored by another process only shows on a viewer's next
    snapshot)."""

    def __init__(self, url: str):
        from django.conf import settings
        from django.middleware.csrf import _get_new_csrf_string
        from django.test import Client

        from accounts.models import User

        client = Client()
        client.force_login(User.objects.get(username="scorer"))
        csrf = _get_new_csrf_string()
        cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
        self.url = url.rstrip("/")
        self.headers = {"Cookie": f"{cookie}; {settings.CSRF_COOKIE_NAME}={csrf}", "X-CSRFToken": csrf,
                        "Content-Type": "application/json", "Referer": self.url + "/"}  # fmt: skip

    def post(self, game, event: dict) -> tuple[int, dict]:
        """Post one entry as the console does; return (entries newly stored, the score)."""
        import json
        import urllib.request

        body = json.dumps({"device": data.LIVE_GAME_DEVICE, "events": [event]}).encode()
        events = reverse("games-api:game-sheet-events", args=[game.pk])
        request = urllib.request.Request(f"{self.url}{events}", data=body, headers=self.headers, method="POST")
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 (the portal's own address)
            answer = json.loads(response.read())
        stored = sum(1 for ack in answer.get("acknowledged", []) if not ack.get("duplicate"))
        return stored, answer.get("state", {}).get("score", {})


def sign(game, *, now: datetime.datetime | None = None) -> None:
    """The game has ended: its referees, its scorer and both captains sign on the table's device (4.2 O, 4.3 A)."""
    from accounts.models import User
    from games.finalize import sheet_sign, signers
    from games.models import GameSheet, SheetStatus

    now = now or timezone.now()
    if GameSheet.objects.filter(game=game, status=SheetStatus.FINAL).exists():
        return
    scorer = User.objects.get(username="scorer")
    order = ["referee", "scorer", "home_captain", "away_captain"]
    signing = sorted((s for s in signers(game) if s.role in order), key=lambda s: order.index(s.role))
    for signer in signing:
        pin = "" if signer.login == scorer else data.DEMO_PIN
        sheet_sign(
            game=game, by=scorer, role=signer.role, person=signer.person, device=data.LIVE_GAME_DEVICE, pin=pin,
            now=now,
        )  # fmt: skip


def play(
    *,
    pace: float = 1.0,
    clock: Callable[[], datetime.datetime] = timezone.now,
    sleep: Callable[[float], None] = time.sleep,
    say: Callable[[str], None] = print,
    url: str | None = None,
) -> int:
    """Play the live game's pending steps at ``pace``, then sign it; return how many steps were stored."""
    game = live_game()
    if game is None:
        say("No live demo game: nothing to play (python manage.py demo --reset builds the world again).")
        return 0
    script = steps()
    gaps = waits(script)
    todo = pending(game)
    label = f"game #{game.number}: {game.home.name} - {game.away.name}"
    if todo:
        say(f"Playing the demo's live {label}: {len(todo)} entries to go (pace x{pace:g}).")
    stored = 0
    session = None
    if url and todo:
        try:
            session = PortalSession(url)
        except Exception as error:  # noqa: BLE001 (the feeder goes on in-process)
            say(f"Entries go in through the service in this process ({error}).")
    for index in todo:
        previous = last_received(game) or clock()
        due = previous + datetime.timedelta(seconds=gaps[index] * pace)
        while (left := (due - clock()).total_seconds()) > 0:
            sleep(min(left, 1.0))
        step = script[index]
        stored_now, score = _enter(game, index, session, now=clock(), say=say)
        stored += stored_now
        say(f"  P{step.period or '-'} {step.at or ''} {step.kind}: {score.get('home', 0)}-{score.get('away', 0)}")
    sign(game, now=clock())
    game.refresh_from_db()
    say(f"The demo's live {label} has ended and is signed ({game.home_goals}-{game.away_goals}).")
    return stored


def _enter(game, index: int, session: PortalSession | None, *, now: datetime.datetime, say) -> tuple[int, dict]:
    """Enter one step: through the running portal's API when there is one (its viewers hear it at once), else
    through the service in this process; either way ``games.sheet.record_events`` stores it once."""
    if session is not None:
        event = entry(game, index, steps()[index], skaters=skater_numbers(game), made=now)
        try:
            return session.post(game, event)
        except Exception as error:  # noqa: BLE001 (a portal not answering yet: the service in this process)
            say(f"  the portal did not take it ({error}); entered in this process")
    answer = send(game, index, now=now)
    return sum(1 for ack in answer.acknowledged if not ack.duplicate), answer.state.get("score", {})
