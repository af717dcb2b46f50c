"""What a viewer of the live pages reads: who may watch (the sheet's public rule: the games of published
championships, and a draft's games for the staff who direct it) and the snapshots a viewer gets first, over the
WebSocket, the event stream (``games.consumers``) or in the page (``games.live_views``).

Above ``games.sheet`` (the stored state) and ``games.live`` (the protocol and the pushes), which the sheet's
entries publish through.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone
from django.utils.text import capfirst

from games import live
from games.labels import game_state_label
from games.models import GameSheet, SheetSnapshot, SheetStatus
from games.selectors import protest_marks
from games.sheet import sheet_state
from games.sheet_answer import SheetAnswer
from games.sheet_api import SheetReadSerializer
from tournaments.models import Championship, Game, GameStatus
from tournaments.selectors import of_visible_championships


def visible_game(game_id: int, user) -> Game | None:
    """Return the game if ``user`` may watch it (its championship is published, or one they direct)."""
    # With its sheet (if opened): the live pages are cached at its sequence (games.live_views).
    games = Game.objects.select_related("championship", "phase", "home", "away", "sheet")
    return of_visible_championships(games, user).filter(pk=game_id).first()


def visible_championship(championship_id: int, user) -> Championship | None:
    """Return the championship if ``user`` may see it (published, or one they direct)."""
    return of_visible_championships(Championship.objects.all(), user, through="").filter(pk=championship_id).first()


def game_snapshot(game: Game) -> dict[str, Any]:
    """Return a game's snapshot message: the stored sheet state (no replay), or why there is none yet."""
    try:
        answer = sheet_state(game)
    except ValidationError as error:  # a bracket game whose teams are not known yet
        return {"kind": live.SNAPSHOT, "game": game.pk, "sequence": 0, "sheet": None, "detail": error.messages}
    # As GET /sheet/ reads it: with the administrative protests made before the start (9.1 B).
    sheet = dict(SheetReadSerializer(answer, context={"under_protest": protest_marks(game)}).data)
    return {"kind": live.SNAPSHOT, "game": game.pk, "sequence": sheet["sequence"], "sheet": sheet}


def live_games(championship: Championship) -> list[dict[str, Any]]:
    """Return the sheets of a championship's games being played (open sheet, no result yet), in game order.

    Each is the stored state of its sheet (the latest snapshot row), so the page costs the same few queries
    however many games and entries there are.
    """
    sheets = list(
        GameSheet.objects.filter(game__championship=championship, status=SheetStatus.OPEN)
        .exclude(game__status=GameStatus.FINAL)
        .select_related("game")
        .order_by("game__start_at", "game__number")
    )
    latest: dict[int, SheetSnapshot] = {}
    for snapshot in SheetSnapshot.objects.filter(sheet__in=sheets).order_by("sheet_id", "-sequence"):
        latest.setdefault(snapshot.sheet_id, snapshot)
    now = timezone.now()
    answers = []
    for sheet in sheets:
        snapshot = latest.get(sheet.pk)
        if snapshot is None:  # opened by a refused batch: nothing entered yet
            continue
        state = snapshot.state
        answer = SheetAnswer(sheet.game_id, sheet.status, sheet.sequence, state["state"], state["clock"], now)
        answers.append(live.sheet_data(answer))
    return answers


def championship_snapshot(championship: Championship) -> dict[str, Any]:
    return {"kind": live.SNAPSHOT, "championship": championship.pk, "games": live_games(championship)}


def live_board(game: Game) -> dict[str, Any] | None:
    """An open sheet's state as the live pages read it (``sheet_state``: the latest snapshot, no replay): its
    status, period and score and the live page's address; None when the game has no open sheet or is final."""
    if game.status == GameStatus.FINAL or not GameSheet.objects.filter(game=game, status=SheetStatus.OPEN).exists():
        return None
    state = sheet_state(game).state
    return {
        "status": state["status"],
        "status_label": capfirst(game_state_label(state["status"])),
        "period": state["period"],
        "home": state["teams"]["home"]["score"],
        "away": state["teams"]["away"]["score"],
        "url": reverse("games:game-live", args=[game.pk]),
    }
