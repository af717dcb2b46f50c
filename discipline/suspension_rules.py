"""The arithmetic of suspensions (8.2, 7.1, 6.4.19 H; R-53), free of the database.

Which suspension a consequence brings, which games a suspension blocks and which games count as served are
plain functions over the dataclasses below; ``discipline.services`` feeds them the stored rows.

- Major + game misconduct (8.2 A, 6.4.19 H): the next game the person's team plays. A bye is no game, so the
  suspension simply waits for the team's next game ("carried over to the next game that the team plays").
- Match penalty (7.1, 6.1.6): the rest of the tournament until the committee decides (R-53).
- Holding or striking an official (8.2 C, 6.4.28): the rest of the tournament.
- Decided by the committee: N games, a period of time (one year or more for 8.2 B), the rest of the tournament.
- A game won or lost by forfeit (8.1) is no game served, for either team (R-55): like a bye, the suspension
  carries over to the next game played.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from common.text import Text, _

# Suspension kinds (``discipline.models.SuspensionKind`` stores these values).
GAMES = "games"
PERIOD = "period"
REST_OF_TOURNAMENT = "rest_of_tournament"
UNTIL_DECISION = "until_decision"

# Annex C codes of holding or striking an official (6.4.28 A, B; 8.2 C, D), games.engine.penalty_index.
STRIKING_AN_OFFICIAL = frozenset({"physical_abuse_of_officials"})


@dataclass(frozen=True)
class ProvisionalTerms:
    """What a consequence suspends provisionally: the kind, the number of games, the article that says so."""

    kind: str
    games: int | None
    article: str
    description: Text


def provisional_terms(*, kind: str, article: str, infraction: str) -> ProvisionalTerms | None:
    """Return the automatic provisional suspension a game consequence brings, or None (R-53).

    ``kind``/``article``/``infraction`` as the final sheet hands them over (``GameConsequence``): a major's game
    misconduct is the engine's automatic one of 6.1.3 B. A game misconduct, gross misconduct or game ejection
    alone suspends nothing automatically: its incident report goes to the committee (4.2 P, 6.1.5 A).
    """
    if infraction in STRIKING_AN_OFFICIAL:
        return ProvisionalTerms(
            REST_OF_TOURNAMENT, None, "8.2 C", _("Rule 8.2 C: held or struck an official, the rest of the tournament")
        )
    if kind == "match":
        return ProvisionalTerms(
            UNTIL_DECISION,
            None,
            "7.1",
            _("Rule 7.1: match penalty, the rest of the tournament until the discipline committee decides"),
        )
    if kind == "game_misconduct" and article.replace(" ", "") == "6.1.3B":
        return ProvisionalTerms(
            GAMES, 1, "8.2 A", _("Rule 8.2 A: major and game misconduct, the next game the team plays")
        )
    return None


@dataclass(frozen=True)
class Terms:
    """A suspension as the arithmetic sees it."""

    kind: str
    championship_id: int  # where it was imposed
    offence_game_id: int | None
    offence_start_at: datetime.datetime | None  # the offence game's start (games before it never count)
    games_required: int | None = None
    ends_at: datetime.datetime | None = None  # a period's end (exclusive)
    games_served: int = 0


@dataclass(frozen=True)
class GameFacts:
    game_id: int
    championship_id: int
    start_at: datetime.datetime | None
    final: bool = False
    forfeit: bool = False  # decided by forfeit (8.1 B): no game played


def _after_offence(terms: Terms, game: GameFacts) -> bool:
    if game.game_id == terms.offence_game_id:
        return False
    if terms.offence_start_at is None or game.start_at is None:
        return True
    return game.start_at > terms.offence_start_at


def blocks(terms: Terms, game: GameFacts, *, now: datetime.datetime) -> bool:
    """Whether an open suspension keeps its person off ``game``'s line-up and bench (8.2, R-53).

    N games: every game after the offence until N are served (the next one is the first the team plays; a bye
    is no game). A period: games starting before its end (a game with no start time: judged at ``now``). The
    rest of the tournament (or until the decision): the games of the championship where it was imposed.
    """
    if not _after_offence(terms, game):
        return False
    if terms.kind == GAMES:
        return terms.games_served < (terms.games_required or 0)
    if terms.kind == PERIOD:
        when = game.start_at or now
        return terms.ends_at is None or when < terms.ends_at
    return game.championship_id == terms.championship_id


def counts_as_served(terms: Terms, game: GameFacts) -> bool:
    """Whether a game the person's team played counts towards an N-games suspension: it is final, not a forfeit,
    after the offence, and games remain to be served (a game is counted once; the caller keeps the counted ids).

    R-55: a game won or lost by forfeit (8.1) counts for neither team; the sanction is missing a game that is
    played, so the suspension carries over to the next game played, as over a bye (R-53).
    """
    return (
        terms.kind == GAMES
        and game.final
        and not game.forfeit
        and _after_offence(terms, game)
        and terms.games_served < (terms.games_required or 0)
    )


def is_served(terms: Terms) -> bool:
    """An N-games suspension whose games are all served closes by itself."""
    return terms.kind == GAMES and terms.games_served >= (terms.games_required or 0)


def ends_with_championship(terms: Terms) -> bool:
    """The rest of the tournament (8.2 C) ends with the championship; until-decision waits for the committee."""
    return terms.kind == REST_OF_TOURNAMENT
