"""What the scorer's console page loads for one game (issue 9, "The console (at the rink)").

The console is one page for the timekeeper (4.4), the penalty timekeeper (4.5) and the official scorer (4.3).
Everything it needs to work offline is rendered into the page once, as JSON (``console_data``): the teams as
the engine reads them, the players' names, the Annex C penalty index with the penalty kind each line is
entered as, the event types the engine accepts (so a button appears once the engine knows its event), the
ruleset's counts behind the warnings, and the URLs it calls. The rules stay in the engine: the page only
proposes entries and shows what the server's replay answers.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import pgettext_lazy

from accounts.models import User
from games.access import SHEET_DUTIES, official_person_id
from games.devices import DUTY_NAMES, check_can_hold_duty
from games.engine import Ruleset
from games.engine.events import EVENT_TYPES
from games.engine.penalty_index import INFRACTIONS, PENALTY_KINDS, engine_kinds
from games.engine.ruleset import PENALTY_KINDS as EVENT_PENALTY_KINDS
from games.labels import EVENT_KINDS
from games.labels import PENALTY_KINDS as PENALTY_KIND_LABELS
from games.models import GameOfficial, GameSheet
from games.sheet import engine_game_type, engine_teams
from portal.i18n import catalogue_url, say
from tournaments.facts import championship_ruleset
from tournaments.models import Game, RosterEntry
from tournaments.venue_time import venue_zone


def penalty_index() -> list[dict[str, Any]]:
    """The Annex C index as the console searches it: by name, code, article (the rule's number) or signal."""
    return [
        {
            "code": line.code,
            "name": str(say(line.name)),
            "article": line.article,
            "penalties": list(line.penalties),
            "kinds": list(engine_kinds(line)),
            "stick": line.stick_infraction,
            "signal": line.signal,
        }
        for line in INFRACTIONS.values()
    ]


def _names(game: Game) -> dict[str, dict[str, str]]:
    """Players' names by team side and jersey number (the roster's; the sheet itself keeps numbers)."""
    sides = {game.home_id: "home", game.away_id: "away"}
    names: dict[str, dict[str, str]] = {"home": {}, "away": {}}
    for entry_id, number, first, last in RosterEntry.objects.filter(entry_id__in=sides).values_list(
        "entry_id", "number", "person__first_name", "person__last_name"
    ):
        names[sides[entry_id]][number] = f"{first} {last}".strip()
    return names


def _may_hold(user: User, game: Game) -> list[str]:
    """The duties of the officials' table the user may keep on a device (games.devices decides, 4.3-4.5)."""
    duties = []
    for duty in SHEET_DUTIES:
        try:
            check_can_hold_duty(user, game, duty)
        except PermissionDenied:
            continue
        duties.append(duty)
    return duties


# The duties of the officials' table as the console names them, in the reader's language (games.devices.DUTY_NAMES
# are the server messages' English).
CONSOLE_DUTY_NAMES = {
    "timekeeper": pgettext_lazy("scorer's console", "game timekeeper (4.4)"),
    "penalty_timekeeper": pgettext_lazy("scorer's console", "penalty timekeeper (4.5)"),
    "scorer": pgettext_lazy("scorer's console", "official scorer (4.3)"),
}

# 8.1 A: the reasons a forfeiture is declared. The console's forfeit entry carries the one the officials chose as its
# note, which the finalize pipeline keeps as the forfeit's reason (games.finalize.derive_summary).
FORFEIT_REASONS = (
    "8.1 A: at the start of the game the team did not have four players and a goalkeeper on the floor (5.3 B)",
    "8.1 A: the captain declared in writing, accepted by the tournament director, that the team cannot play",
    "8.1 A: injury or illness: the team cannot field four players and a goalkeeper to continue",
    "8.1 A: penalties: the team cannot field the required number of players to continue",
    "8.1 A: ordered by the referee, the team failed to go on the floor and start within five minutes",
    "8.1 A / 6.4.27: the team refused to play a second time after the bench minor (refusal to start play)",
)


def console_data(game: Game, user: User) -> dict[str, Any]:
    """Everything the console needs for the game, rendered into the page (and kept offline by the browser)."""
    sheet = GameSheet.objects.filter(game=game).first()
    teams = sheet.teams if sheet is not None else engine_teams(game)
    game_type = sheet.game_type if sheet is not None else engine_game_type(game)
    parameters = (
        sheet.ruleset if sheet is not None else championship_ruleset(game.championship).game.engine_parameters()
    )
    rules = Ruleset.from_dict(parameters)
    person_id = official_person_id(user)
    duties = (
        list(
            GameOfficial.objects.filter(game=game, person_id=person_id, duty__in=SHEET_DUTIES).values_list(
                "duty", flat=True
            )
        )
        if person_id is not None
        else []
    )
    return {
        "game": {
            "id": game.pk,
            "number": game.number,
            "championship": game.championship.name,
            "home": game.home.display_name,
            "away": game.away.display_name,
            "start_at": game.start_at.isoformat() if game.start_at else None,
            "game_type": game_type,
            # The venue's clock: every real time the console shows (last confirmed, offline since) is read in it.
            "zone": str(venue_zone(game)),
        },
        # The names of the entries and penalty kinds in the reader's language (games.labels).
        "labels": {
            "types": {kind: str(label) for kind, label in EVENT_KINDS.items()},
            "kinds": {kind: str(label) for kind, label in PENALTY_KIND_LABELS.items()},
        },
        "teams": teams,
        "names": _names(game),
        "index": penalty_index(),
        "index_penalties": dict(PENALTY_KINDS),
        "penalty_kinds": list(EVENT_PENALTY_KINDS),
        "event_types": list(EVENT_TYPES),
        "forfeit_reasons": list(FORFEIT_REASONS),
        "rules": {
            "period_length": rules.period_length,
            "periods": rules.periods,
            "overtime_length": rules.overtime_length,
            "two_minute_mark": rules.two_minute_mark,
            "timeouts_per_period": rules.timeouts_per_period,
            "calls_for_misconduct": rules.calls_for_misconduct,
            "stick_infractions_for_ejection": rules.stick_infractions_for_ejection,
        },
        "user": {"username": user.get_username(), "duties": duties, "may_hold": _may_hold(user, game)},
        "duty_names": {duty: str(CONSOLE_DUTY_NAMES.get(duty, name)) for duty, name in DUTY_NAMES.items()},
        "urls": {
            "sheet": reverse("games-api:game-sheet", args=[game.pk]),
            "events": reverse("games-api:game-sheet-events", args=[game.pk]),
            "devices": reverse("games-api:game-sheet-devices", args=[game.pk]),
            "clock": reverse("games-api:server-clock"),
            "worker": reverse("games:console-worker"),
            "sign": reverse("games:sheet-sign", args=[game.pk]),
        },
        # What the page needs offline besides itself: kept in the browser's cache by the page (and served by the
        # service worker) under the names the pages use (collectstatic's hashed names in production), the scripts'
        # strings in the reader's language included (a Spanish official offline still reads Spanish).
        "assets": [static("portal.css"), static("games/console.css"), static("games/console.js"), catalogue_url()],
        "rendered_at": timezone.now().isoformat(),
    }
