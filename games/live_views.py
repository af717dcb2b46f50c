"""The public scoreboard's pages: a game's board (phone and arena display), a championship's live games.

Who sees them is the sheet's public rule (``games.viewers.visible_game``): games of published championships, and a
draft's games for the staff who direct it. The pages render the stored state (no replay), then
``static/scoreboard.js`` keeps them live over the WebSocket of ``games.consumers``.
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import Count, Sum
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext

from portal.countries import team_display_name
from portal.page_cache import page_key, public_page
from tournaments.facts import championship_ruleset

from . import live, viewers
from .engine import Ruleset
from .labels import OUTCOMES, PENALTY_KINDS, period_end_time
from .models import GameSheet


def board_words(championship) -> dict:
    """What the board needs to say the outcomes of goals and penalties (R-58, R-69, R-70) in the reader's language.

    ``outcomes``: ``games.labels.OUTCOMES`` translated; ``kinds``: the penalty kinds (``games.labels.PENALTY_KINDS``)
    translated; ``period_ends``: the game time of a period's buzzer, regular and overtime (the championship's
    ruleset), by which the board knows a penalty assessed at the buzzer (R-70); ``team_names``: each team's stored
    name (the one the sheet's state carries, pushed alike to every reader) and the name it is shown under in the
    reader's language (``TeamEntry.display_name``: "Italia" on a Spanish page).
    """
    rules = Ruleset.from_dict(championship_ruleset(championship).game.engine_parameters())
    return {
        "outcomes": {code: str(words) for code, words in OUTCOMES.items()},
        "kinds": {kind: str(words) for kind, words in PENALTY_KINDS.items()},
        "period_ends": {
            "periods": rules.periods,
            "regular": period_end_time(1, rules),
            "overtime": period_end_time(rules.periods + 1, rules),
        },
        "team_names": {name: team_display_name(name) for name in championship.entries.values_list("name", flat=True)},
    }


def feed_paths(kind: str, pk: int, championship) -> dict:
    """Where a page follows a game or a championship (``kind``: ``games`` or ``championships``).

    ``transport``: ``channels`` (games.consumers: a snapshot first, pings answered) or ``nchan`` (nginx: the
    newest message of the channel first, then the pushes; ``settings.LIVE_FANOUT``, published championships only:
    ``live.uses_nchan``). ``socket`` is the WebSocket's path, ``stream`` the same feed as Server-Sent Events (the
    fallback of a browser whose WebSocket fails). A deployment that changes ``LIVE_FANOUT`` sets a new
    ``PAGE_CACHE_NAMESPACE`` (the pages cache these paths).
    """
    if live.uses_nchan(championship):
        path = f"{settings.LIVE_NCHAN_SUBSCRIBE_PATH.rstrip('/')}/{kind}/{pk}/"
        return {"transport": "nchan", "socket": path, "stream": path}
    return {"transport": "channels", "socket": f"/live/{kind}/{pk}/", "stream": f"/live/{kind}/{pk}/stream/"}


def _page_settings(feed: dict, championship) -> dict:
    return {
        **feed,
        "heartbeat_seconds": live.HEARTBEAT_SECONDS,
        "stale_seconds": live.STALE_SECONDS,
        **board_words(championship),
    }


def game_live(request, game_id: int, arena: bool = False):
    """A game's scoreboard: score, clock, period, penalties with remaining time, shots, power play."""
    game = viewers.visible_game(game_id, request.user)
    if game is None:
        raise Http404(gettext("No such game."))
    arena = arena or request.GET.get("arena") == "1"

    def context() -> dict:
        board = {
            **_page_settings(feed_paths("games", game.pk, game.championship), game.championship),
            "sheet_url": reverse("games-api:game-sheet", args=[game.pk]),
        }
        snapshot = viewers.game_snapshot(game)
        return {"game": game, "championship": game.championship, "arena": arena, "snapshot": snapshot, "board": board}

    # The board as stored at the sheet's sequence (every entry adds one; its status changes with the result, which
    # bumps the championship's data version); the page then follows the game over the WebSocket.
    sheet = getattr(game, "sheet", None)  # read with the game (viewers.visible_game)
    return public_page(
        request,
        "games/live.html",
        key=page_key("arena" if arena else "live", game.pk),
        version=(game.championship.data_version, *((sheet.sequence, sheet.status) if sheet else ())),
        context=context,
    )


def game_arena(request, game_id: int):
    """The arena display: the same board in large type and high contrast, with a full-screen button."""
    return game_live(request, game_id, arena=True)


def championship_live(request, pk: int):
    """All the games of a championship being played now, each a small board that follows its game."""
    championship = viewers.visible_championship(pk, request.user)
    if championship is None:
        raise Http404(gettext("No such championship."))

    def context() -> dict:
        board = {
            **_page_settings(feed_paths("championships", championship.pk, championship), championship),
            # scoreboard.js puts each game's id in place of {game}.
            "sheet_url": reverse("games-api:game-sheet", args=[0]).replace("/0/", "/{game}/"),
        }
        snapshot = viewers.championship_snapshot(championship)
        return {"championship": championship, "snapshot": snapshot, "board": board, "tab": "live"}

    # Every sheet of the championship in one read: a new sheet or a new entry on any of them changes it.
    sheets = GameSheet.objects.filter(game__championship=championship).aggregate(
        count=Count("pk"), sequences=Sum("sequence")
    )
    return public_page(
        request,
        "games/championship_live.html",
        key=page_key("championship-live", championship.pk),
        version=(championship.data_version, sheets["count"], sheets["sequences"] or 0),
        context=context,
    )
