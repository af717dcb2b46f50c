"""The clock and penalty engine: pure Python, no Django, time passed in (R-10).

``replay(events, game, ruleset)`` turns a game log into a ``GameState``;
``state_at`` gives the state at a game time. See docs/game-scripts.md.
"""

from .errors import EngineError, EventFormatError, InvalidEvent, ScriptError
from .events import Event, format_countdown, format_time, parse_event, parse_log, parse_time
from .replay import ending_event, replay, sort_events, state_at, voided_ids
from .ruleset import DEFAULT_RULESET, Ruleset
from .state import Game, GameState, TeamRoster

__all__ = [
    "DEFAULT_RULESET",
    "EngineError",
    "Event",
    "EventFormatError",
    "Game",
    "GameState",
    "InvalidEvent",
    "Ruleset",
    "ScriptError",
    "TeamRoster",
    "ending_event",
    "format_countdown",
    "format_time",
    "parse_event",
    "parse_log",
    "parse_time",
    "replay",
    "sort_events",
    "state_at",
    "voided_ids",
]
