"""What the discipline module tells the other apps. Until its models exist, these are the hand-over points.

``active_suspensions`` is the one question the line-ups ask (R-07, R-53, 8.2): who may not be put on a
game's line-up or bench. The discipline module answers it from its suspensions (served games count the
games the team plays, architecture: "A suspension -> the player cannot be put on a game line-up until
served"); today no suspension is recorded anywhere, so the answer is always empty.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tournaments.models import Game


@dataclass(frozen=True)
class ActiveSuspension:
    """A suspension in force for a game: ``description`` names it in a refusal ("next game, 8.2 A: ...")."""

    person_id: int
    description: str

    def __str__(self) -> str:
        return self.description


def active_suspensions(*, game: Game, person_ids: Iterable[int]) -> dict[int, ActiveSuspension]:
    """Return the suspensions in force for ``game`` of the given people, by person id (R-07, R-53).

    The hand-over point of the discipline module: it has no suspensions yet, so nobody is suspended.
    Called once per line-up with every person on it (one query when suspensions exist).
    """
    return {}
