"""The engine's one error family.

Every message cites the article of the rulebook or the R-id of
docs rules-interpretation that the refused input breaks, so a service can
hand it to the user unchanged (``field`` names the input it is about).
"""


class EngineError(Exception):
    """Base of every error the engine raises."""

    def __init__(self, message: str, *, field: str | None = None, event_id: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.event_id = event_id

    def __str__(self) -> str:
        if self.event_id is None:
            return self.message
        return f"{self.message} (event {self.event_id})"


class EventFormatError(EngineError):
    """An event is malformed: a missing or wrongly typed field, an unknown type."""


class InvalidEvent(EngineError):
    """An event is well formed but the rules refuse it in the current state of the game."""


class ScriptError(EngineError):
    """A game script is malformed (bad team, bad expectation)."""
