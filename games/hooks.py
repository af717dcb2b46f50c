"""What the games app asks of the apps above it; they answer at start-up (``AppConfig.ready``).

See docs/architecture.md ("Asking upwards"). Each hook names the app that answers it. The consequences a final
game hands over are the games app's own data (``Consequence``); the discipline app receives them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from common.hooks import Hook

# discipline: the suspensions in force for a game of the given people, by person id (R-07, R-53, 8.2); each
# value's ``str`` names the suspension in a refusal.
active_suspensions = Hook("games.active_suspensions", answered_by="discipline")
# discipline: receive the automatic consequences of a final game (4.2 P), once each; returns a
# ``ConsequenceOutcome``.
receive_game_consequences = Hook("games.receive_game_consequences", answered_by="discipline")
# reports: queue the official game report of a final game once the transaction commits.
game_report_on_commit = Hook("games.game_report_on_commit", answered_by="reports")


@dataclass(frozen=True)
class Consequence:
    """An automatic consequence of a game as its final sheet gives it: a penalty that puts a person out of the
    game (game misconduct, match, gross misconduct, game ejection; a major brings its game misconduct, 6.1.3 B)."""

    penalty_id: str
    entry_id: int
    person_id: int | None
    number: int | None
    kind: str
    article: str
    infraction: str
    period: int
    time_tenths: int


class ConsequenceOutcome(Protocol):
    """What receiving a game's consequences did (``discipline.services.ConsequenceReceipt``)."""

    received: tuple
    withdrawn: tuple
    kept: tuple

    @property
    def changed(self) -> bool: ...
