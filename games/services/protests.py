"""Administrative protests made before the start (9.1 B, R-51): the game is "played under protest".

The written protest, its fee and its deadline (R-51, R-52) are the discipline module's; this records the
condition 9.1 B sets for it to be valid: that it was made to the referee before the start.
"""

from __future__ import annotations

import datetime

from django.db import transaction

from accounts.models import User
from common.text import _
from games.access import check_can_record_protest_mark, game_has_started
from portal.services import audited_create
from tournaments.facts import field_error, resolve_now
from tournaments.models import Game, TeamEntry
from tournaments.versions import championship_changed

from ..models import GameProtestMark, GameSheet, ProtestSubject


def check_protest_mark(*, game: Game, entry: TeamEntry, subject: str, now: datetime.datetime) -> None:
    """Refuse a protest mark 9.1 B does not allow: a team of the game, about the rink, equipment or players
    (R-51), made before the start (the scheduled time, 5.4 B, or the sheet's opening), once per subject."""
    if entry.pk not in (game.home_id, game.away_id):
        raise field_error(
            "entry",
            _(
                "Rule 9.1 B: %(team)s does not play game %(number)s; a team protests its game.",
                team=entry,
                number=game.number,
            ),
        )
    if subject not in ProtestSubject.values:
        raise field_error(
            "subject",
            _(
                "Rule 9.1 B / R-51: an administrative protest is about the rink, a player's equipment or unqualified "
                "players: one of %(subjects)s, not %(subject)s.",
                subjects=", ".join(ProtestSubject.values),
                subject=repr(subject),
            ),
        )
    if game_has_started(game, now=now) or GameSheet.objects.filter(game=game).exists():
        raise field_error(
            "game",
            _(
                "Rule 9.1 B / R-51: an administrative protest is valid only if made to the referee before the start; "
                "game %(number)s has started. A protest during the game is the captain's on the rink (9.1 A: the "
                "sheet's protest event).",
                number=game.number,
            ),
        )
    if GameProtestMark.objects.filter(game=game, entry=entry, subject=subject).exists():
        raise field_error(
            "subject",
            _("Rule 9.1 B: %(team)s already protested this for game %(number)s.", team=entry, number=game.number),
        )


def protest_mark_record(
    *,
    game: Game,
    entry: TeamEntry,
    subject: str,
    by: User,
    details: str = "",
    now: datetime.datetime | None = None,
) -> GameProtestMark:
    """Record that ``entry`` made an administrative protest before the start: the game is played under protest."""
    now = resolve_now(now)
    check_can_record_protest_mark(by, game)
    details = (details or "").strip()
    if len(details) > 300:
        raise field_error("details", _("At most 300 characters: the written protest gives the rest (9.1 B)."))
    with transaction.atomic():
        # The start read under the game's lock, as the line-ups read it (5.1 C).
        game = Game.objects.select_for_update(of=("self",)).select_related("home", "away").get(pk=game.pk)
        check_protest_mark(game=game, entry=entry, subject=subject, now=now)
        championship_changed(game.championship_id)  # the game's page shows its protest marks
        return audited_create(
            GameProtestMark, by, game=game, entry=entry, subject=subject, details=details, made_at=now, recorded_by=by
        )
