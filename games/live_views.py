"""The public scoreboard's pages: a game's board (phone and arena display), a championship's live games.

Who sees them is the sheet's public rule (``games.viewers.visible_game``): games of published championships, and a
draft's games for the staff who direct it. The pages render the stored state (no replay), then
``static/scoreboard.js`` keeps them live over the WebSocket of ``games.consumers``.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render

from . import live, viewers


def _page_settings(path: str) -> dict:
    return {"socket": path, "heartbeat_seconds": live.HEARTBEAT_SECONDS, "stale_seconds": live.STALE_SECONDS}


def game_live(request, game_id: int, arena: bool = False):
    """A game's scoreboard: score, clock, period, penalties with remaining time, shots, power play."""
    game = viewers.visible_game(game_id, request.user)
    if game is None:
        raise Http404("No such game.")
    arena = arena or request.GET.get("arena") == "1"
    snapshot = viewers.game_snapshot(game)
    board = {**_page_settings(f"/live/games/{game.pk}/"), "sheet_url": f"/api/games/{game.pk}/sheet/"}
    return render(
        request,
        "games/live.html",
        {"game": game, "championship": game.championship, "arena": arena, "snapshot": snapshot, "board": board},
    )


def game_arena(request, game_id: int):
    """The arena display: the same board in large type and high contrast, with a full-screen button."""
    return game_live(request, game_id, arena=True)


def championship_live(request, pk: int):
    """All the games of a championship being played now, each a small board that follows its game."""
    championship = viewers.visible_championship(pk, request.user)
    if championship is None:
        raise Http404("No such championship.")
    snapshot = viewers.championship_snapshot(championship)
    board = {**_page_settings(f"/live/championships/{championship.pk}/"), "sheet_url": "/api/games/{game}/sheet/"}
    return render(
        request,
        "games/championship_live.html",
        {"championship": championship, "snapshot": snapshot, "board": board, "tab": "live"},
    )
