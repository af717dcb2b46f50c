"""The error the pure cores (rinks, rulesets, schedules, standings, statistics) raise: plain Python, no Django."""

from __future__ import annotations


class CoreInputError(ValueError):
    """Input a pure core cannot use: ``field`` names it, ``message`` says why (the services name the field)."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
