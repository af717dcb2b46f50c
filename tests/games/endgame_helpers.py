"""Helpers of the end-of-game tests: a game whose rosters are registered and eligible, its crew, a played log."""

from __future__ import annotations

import datetime

from accounts.models import Role
from games import services
from games.finalize import sheet_sign, signers
from games.models import OfficialAccount
from games.sheet import record_events
from tests.engine.generators import AWAY, HOME
from tests.factories import (
    TEST_PIN,
    GameFactory,
    PassportFactory,
    PersonFactory,
    RosterEntryFactory,
    UserFactory,
    with_role,
)
from tournaments.models import OfficialRole, Position, TeamOfficial

from .sheet_helpers import DEVICE_TIME, entry

# After the game (it starts at 08:00 UTC on 1 July 2027): when the records are written.
AFTER_GAME = DEVICE_TIME + datetime.timedelta(hours=2)
DEVICE = "table-ipad-1"


def _eligible(entry, **kwargs):
    person = PersonFactory(federation=entry.federation, **kwargs)
    PassportFactory(person=person)
    return person


def _registered_roster(team, roster) -> None:
    for number in sorted(roster.skaters):
        RosterEntryFactory(
            entry=team,
            person=_eligible(team),
            number=str(number),
            captain=number == roster.captain,
            confirmed=True,
        )
    for number in sorted(roster.goalkeepers):
        RosterEntryFactory(
            entry=team,
            person=_eligible(team, is_goalkeeper=True),
            number=str(number),
            position=Position.GOALKEEPER,
            confirmed=True,
        )


def played_game(director, *, referees: int = 2, scorer: bool = True, **kwargs):
    """A round-robin game with registered rosters (HOME 2-11, 1, 30; AWAY 12-21, 31, 35), a coach per team,
    ``referees`` referees and a scorer assigned; returns (game, scorer's login or None)."""
    game = GameFactory(**kwargs)
    _registered_roster(game.home, HOME)
    _registered_roster(game.away, AWAY)
    for team in (game.home, game.away):
        TeamOfficial.objects.create(
            entry=team,
            person=PersonFactory(federation=team.federation, is_team_official=True),
            role=OfficialRole.COACH,
        )
    before = (game.start_at or DEVICE_TIME) - datetime.timedelta(days=30)
    for _ in range(referees):
        services.official_assign(
            game=game, person=PersonFactory(is_referee=True), duty="referee", by=director, now=before
        )
    login = None
    if scorer:
        person = PersonFactory(is_official=True)
        services.official_assign(game=game, person=person, duty="scorer", by=director, now=before)
        login = with_role(Role.GAME_OFFICIAL)
        OfficialAccount.objects.create(person=person, user=login)
    signer_logins(game)
    return game, login


def signer_logins(game) -> None:
    """Give each who signs the game's report (games.finalize.signers) a login of their own, whose signing PIN is
    tests.factories.TEST_PIN (issue 23: each signer signs in person)."""
    for signer in signers(game):
        if signer.login is None and not OfficialAccount.objects.filter(person=signer.person).exists():
            # A referee's login holds the game official's role (games.services.check_official_account_link).
            official = signer.role in ("referee", "scorer")
            OfficialAccount.objects.create(
                person=signer.person, user=with_role(Role.GAME_OFFICIAL) if official else UserFactory()
            )


def whole_game() -> list[dict]:
    """A round-robin game, home 2-1: a power-play goal with an assist, a minor, shots and saves, a major.

    P1: home 8 (assist 9) scores at 5:00; away 14 trips at 6:00 (minor); home 10 scores on the power play at
    7:00; home shoots at 9:00 (a save by away 31). P2: away 15 scores at 3:00; away 16 gets a major (and its
    game misconduct, 6.1.3 B) for slashing at 12:00; the game ends at 20:00 of period 2.
    """
    return [
        entry("period_start", period=1),
        entry("goal", period=1, time="5:00", team="home", player=8, assist=9),
        entry("clock_start", period=1, time="5:00"),
        entry("penalty", period=1, time="6:00", team="away", player=14, penalty="minor", infraction="tripping"),
        entry("clock_start", period=1, time="6:00"),
        entry("goal", period=1, time="7:00", team="home", player=10),
        entry("clock_start", period=1, time="7:00"),
        entry("shot", period=1, time="9:00", team="home", player=3),
        entry("period_end", period=1, time="20:00"),
        entry("period_start", period=2),
        entry("goal", period=2, time="3:00", team="away", player=15),
        entry("clock_start", period=2, time="3:00"),
        entry("shot", period=2, time="4:00", team="away", player=17),
        entry("penalty", period=2, time="12:00", team="away", player=16, penalty="major", infraction="slashing_major"),
        entry("clock_start", period=2, time="12:00"),
        entry("period_end", period=2, time="20:00"),
    ]


def played_yesterday(director, **kwargs):
    """``played_game`` started yesterday: the pages and the API, which take the server's time, may finalize it."""
    from django.utils import timezone

    return played_game(director, start_at=timezone.now() - datetime.timedelta(days=1), **kwargs)


def console(game, by, device: str = DEVICE) -> None:
    """Sign ``device`` in as every duty of the officials' table ``by`` may keep (taking them over if held)."""
    from django.core.exceptions import PermissionDenied

    from games.access import SHEET_DUTIES
    from games.devices import check_can_hold_duty, console_sign_in, device_duties

    if device_duties(game, device, by).exists():
        return
    duties = []
    for duty in SHEET_DUTIES:
        try:
            check_can_hold_duty(by, game, duty)
        except PermissionDenied:
            continue
        duties.append(duty)
    console_sign_in(game=game, by=by, device=device, duties=duties, take_over=True)


def post_log(game, by, events, device: str = DEVICE):
    """Enter ``events`` from ``device``, signed in first as the duties ``by`` keeps (games.devices)."""
    console(game, by, device)
    return record_events(game=game, by=by, device=device, events=events, now=AFTER_GAME)


def sign_all(game, by, *, device: str = DEVICE, now=AFTER_GAME):
    """Every referee and the scorer sign, then each team's captain, each typing their PIN on ``by``'s device: the
    last signature finalizes."""
    result = None
    signer_logins(game)
    console(game, by, device)
    order = ["referee", "scorer", "home_captain", "away_captain"]
    for signer in sorted(signers(game), key=lambda s: order.index(s.role) if s.role in order else 9):
        if signer.role.endswith("_coach"):
            continue
        _, result = sheet_sign(
            game=game, by=by, role=signer.role, person=signer.person, device=device, pin=TEST_PIN, now=now
        )
    return result
