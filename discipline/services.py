"""What the discipline module tells the other apps: the hand-over points.

``active_suspensions`` is the one question the line-ups ask (R-07, R-53, 8.2): who may not be put on a
game's line-up or bench. The discipline module answers it from its suspensions (``discipline.suspensions``;
served games count the games the team plays, architecture: "A suspension -> the player cannot be put on a
game line-up until served"). ``receive_game_consequences`` takes the automatic consequences of a final game
and makes their incident reports (``discipline.cases``) and provisional suspensions. ``count_served_games``
counts a game that became final towards its teams' people's suspensions.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils import timezone

from discipline import cases, suspensions
from discipline.models import GameConsequence
from discipline.suspensions import count_served_games as count_served_games
from games.hooks import Consequence  # the games app's data, handed over here

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

    Called once per line-up with every person on it: one query (``discipline.suspensions.active_for_game``);
    a suspension follows its person to any game of its sanctioning body.
    """
    return {
        person_id: ActiveSuspension(person_id, suspensions.terms_said(suspension))  # said in the reader's language
        for person_id, suspension in suspensions.active_for_game(game=game, person_ids=person_ids).items()
    }


# --- What final games hand over (issue 9: "Finalizing feeds everything else") ------------------------------------


@dataclass(frozen=True)
class ConsequenceReceipt:
    """What ``receive_game_consequences`` did: the consequences it stored, withdrew and already had."""

    received: tuple[GameConsequence, ...]
    withdrawn: tuple[GameConsequence, ...]
    kept: tuple[GameConsequence, ...]

    @property
    def changed(self) -> bool:
        return bool(self.received or self.withdrawn)


def receive_game_consequences(
    *, game: Game, consequences: Sequence[Consequence], now: datetime.datetime | None = None
) -> ConsequenceReceipt:
    """Receive the automatic consequences of a final game (4.2 P: reported with the game report), once each.

    The hand-over point of the discipline module: called by
    ``games.finalize`` in the finalizing transaction with the full set of the game's consequences every time
    the game is finalized (its first final version and every amendment). A consequence it holds already (same
    sheet penalty id) is kept, never stored twice; a new one is stored; one it holds that the set no longer has
    (an amendment removed it) is marked withdrawn; one withdrawn that comes back is received again.
    Each one received gets its incident report (4.2 P, 6.1.5 A) and its provisional suspension (R-53: 8.2 A,
    8.2 C, 7.1); each one withdrawn withdraws them.
    """
    now = now or timezone.now()
    held = {c.penalty_id: c for c in GameConsequence.objects.filter(game=game)}
    given = {c.penalty_id: c for c in consequences}
    received, withdrawn, kept = [], [], []
    for penalty_id, consequence in given.items():
        stored = held.get(penalty_id)
        fields = {
            "entry_id": consequence.entry_id,
            "person_id": consequence.person_id,
            "number": consequence.number,
            "kind": consequence.kind,
            "article": consequence.article,
            "infraction": consequence.infraction,
            "period": consequence.period,
            "time_tenths": consequence.time_tenths,
        }
        if stored is None:
            received.append(GameConsequence.objects.create(game=game, penalty_id=penalty_id, received_at=now, **fields))
        elif stored.withdrawn_at is not None or any(getattr(stored, k) != v for k, v in fields.items()):
            for key, value in fields.items():
                setattr(stored, key, value)
            stored.withdrawn_at, stored.received_at = None, now
            stored.save()
            received.append(stored)
        else:
            kept.append(stored)
    for penalty_id, stored in held.items():
        if penalty_id not in given and stored.withdrawn_at is None:
            stored.withdrawn_at = now
            stored.save(update_fields=["withdrawn_at"])
            withdrawn.append(stored)
    for stored in received:
        cases.report_consequence(stored, now=now)
        suspensions.impose_provisional(stored, now=now)
    for stored in withdrawn:
        cases.withdraw_report(stored, now=now)
        suspensions.withdraw_provisional(stored, now=now)
    return ConsequenceReceipt(tuple(received), tuple(withdrawn), tuple(kept))


def game_consequences(game: Game) -> list[GameConsequence]:
    """The consequences of a game the discipline module holds (withdrawn ones left out)."""
    return list(GameConsequence.objects.filter(game=game, withdrawn_at__isnull=True).select_related("person"))
