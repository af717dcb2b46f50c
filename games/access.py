"""Who may see and change a game's officials and line-ups (the services ask these; so do the rules of
``games/rules.py`` behind the admin and the API).

- Championship directors (staff of the sanctioning body, international staff) assign the officials of their
  games and see every assignment and line-up of them.
- An official sees the assignments of the games they officiate (their own and their crew's) and both
  line-ups of those games.
- A team's managers and its federation's staff (``tournaments.services.can_manage_entry``) submit and see
  their own team's line-up, never the opponent's before the start.
- Once a game has started its line-ups are public (they are on the game sheet and the scoreboard, 4.3).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.utils.translation import gettext

from accounts.models import User
from accounts.roles import is_international_staff, staff_federation_ids
from federation.access import can_edit_federation
from tournaments.facts import resolve_now
from tournaments.models import Championship, Game, GameStatus, TeamEntry
from tournaments.selectors import championship_visibility_q
from tournaments.services import can_manage_entry, check_can_direct

from .models import GameOfficial, GameProtestMark, Lineup, OfficialAccount, OfficialDuty


def can_direct_game(user: User, game: Game) -> bool:
    """Whether the user directs the game's championship (assigns its officials)."""
    if not getattr(user, "is_authenticated", False):
        return False
    try:
        check_can_direct(user, game.championship)
    except PermissionDenied:
        return False
    return True


def check_can_assign_officials(user: User, game: Game) -> None:
    """4.2 A: the IHTC appoints the referees; in the portal, the championship's directors assign officials."""
    if not can_direct_game(user, game):
        raise PermissionDenied(
            gettext("Only the championship's directors may assign the officials of its games (4.2 A).")
        )


def directed_championships(user: User) -> QuerySet[Championship]:
    """The championships the user directs (the queryset form of ``check_can_direct``)."""
    if not getattr(user, "is_authenticated", False):
        return Championship.objects.none()
    if is_international_staff(user):
        return Championship.objects.all()
    return Championship.objects.filter(sanctioning_body_id__in=staff_federation_ids(user))


def official_person_id(user: User) -> int | None:
    """The registered official (person) the login belongs to, or None (read once per user object)."""
    if not getattr(user, "is_authenticated", False):
        return None
    if not hasattr(user, "_games_official_person_id"):
        user._games_official_person_id = (
            OfficialAccount.objects.filter(user=user).values_list("person_id", flat=True).first()
        )
    return user._games_official_person_id


def officiated_games_q(user: User, field: str = "pk") -> Q:
    """Rows whose ``field`` is a game the user officiates (through their official account)."""
    person_id = official_person_id(user)
    if person_id is None:
        return Q(pk__in=[])
    return Q(**{f"{field}__in": GameOfficial.objects.filter(person_id=person_id).values("game_id")})


def officiates(user: User, game: Game) -> bool:
    person_id = official_person_id(user)
    return person_id is not None and GameOfficial.objects.filter(game=game, person_id=person_id).exists()


# The officials' table enters the sheet: the timekeeper (4.4), the penalty timekeeper (4.5) and the scorer (4.3).
SHEET_DUTIES = ("timekeeper", "penalty_timekeeper", "scorer")


def keeps_the_sheet(user: User, game: Game, *, duties: Iterable[str] | None = None) -> bool:
    """Whether the user is the game's timekeeper, penalty timekeeper or official scorer (4.3-4.5).

    ``duties``: the user's duties on the game when the caller has already read them (a list of their
    assignments), which spares the query."""
    if duties is not None:
        return any(duty in SHEET_DUTIES for duty in duties)
    person_id = official_person_id(user)
    return (
        person_id is not None
        and GameOfficial.objects.filter(game=game, person_id=person_id, duty__in=SHEET_DUTIES).exists()
    )


def assignments_visible_to(user: User) -> QuerySet[GameOfficial]:
    """Assignments the user may read: those of the championships they direct and of the games they officiate."""
    if not getattr(user, "is_authenticated", False):
        return GameOfficial.objects.none()
    if is_international_staff(user):
        return GameOfficial.objects.all()
    return GameOfficial.objects.filter(
        Q(game__championship__in=directed_championships(user)) | officiated_games_q(user, "game_id")
    )


def can_view_assignment(user: User, assignment: GameOfficial) -> bool:
    return can_direct_game(user, assignment.game) or officiates(user, assignment.game)


def game_has_started(game: Game, *, now: datetime.datetime | None = None) -> bool:
    """Return True once the game has started (5.1 C): it is final, or its scheduled time has come (5.4 B).

    5.4 B: the game starts at the time scheduled. The live sheet records the actual face-off; until it
    exists the schedule's time stands for it (the hand-over point for the sheet's period-1 start).
    """
    if game.status == GameStatus.FINAL:
        return True
    return game.start_at is not None and game.start_at <= resolve_now(now)


def lineups_visible_to(user: User, *, now: datetime.datetime | None = None) -> QuerySet[Lineup]:
    """Line-ups the user may read: public once the game has started; before, the team's own managers and
    staff, the game's officials and the championship's directors."""
    now = resolve_now(now)
    # Public once started, in a championship the user may see (a draft's line-ups are its directors').
    started = (Q(game__status=GameStatus.FINAL) | Q(game__start_at__lte=now)) & championship_visibility_q(
        user, "game__championship"
    )
    if not getattr(user, "is_authenticated", False):
        return Lineup.objects.filter(started)
    if is_international_staff(user):
        return Lineup.objects.all()
    own = Q(entry__managers=user) | Q(entry__federation_id__in=staff_federation_ids(user))
    q = started | own | Q(game__championship__in=directed_championships(user)) | officiated_games_q(user, "game_id")
    return Lineup.objects.filter(pk__in=Lineup.objects.filter(q).values("pk"))


def can_view_lineup(user: User, lineup: Lineup, *, now: datetime.datetime | None = None) -> bool:
    return (
        (game_has_started(lineup.game, now=now) and lineup.game.championship.published)
        or can_manage_entry(user, lineup.entry)
        or can_direct_game(user, lineup.game)
        or officiates(user, lineup.game)
    )


def check_can_submit_lineup(user: User, entry: TeamEntry) -> None:
    """5.1 A: the team's manager or coach lists the players (in the portal: the entry's managers and staff)."""
    if not can_manage_entry(user, entry):
        raise PermissionDenied(
            gettext("Only the team's managers or staff of its federation may give its line-up (5.1 A).")
        )


def check_can_replace_goalkeeper(user: User, lineup: Lineup) -> None:
    """5.1 C: the team designates the replacement; the game's officials (the scorer, 4.3) record it."""
    if not (
        can_manage_entry(user, lineup.entry) or officiates(user, lineup.game) or can_direct_game(user, lineup.game)
    ):
        raise PermissionDenied(
            gettext("Only the team's managers, the game's officials or its directors may record this.")
        )


def check_can_see_game_readiness(user: User, game: Game) -> None:
    """Whether a game can start (5.3 B) is for those who start it: its officials and its directors."""
    if not (can_direct_game(user, game) or officiates(user, game)):
        raise PermissionDenied(gettext("Only the game's officials and the championship's directors see this."))


def leads_the_game(user: User, game: Game) -> bool:
    """Whether the user is the game's lead referee (4.2 C: the first referee listed)."""
    person_id = official_person_id(user)
    return (
        person_id is not None
        and GameOfficial.objects.filter(game=game, person_id=person_id, duty=OfficialDuty.REFEREE, position=1).exists()
    )


def check_can_record_protest_mark(user: User, game: Game) -> None:
    """9.1 B: an administrative protest is made to the referee, who tells both captains the game is played under
    protest; in the portal the lead referee (4.2 C, in charge of the game) records it, or the championship's
    directors on the referee's word."""
    if not (can_direct_game(user, game) or leads_the_game(user, game)):
        raise PermissionDenied(
            gettext(
                "Only the game's lead referee or the championship's directors record an administrative protest (9.1 B)."
            )
        )


def protest_marks_visible_to(user: User) -> QuerySet[GameProtestMark]:
    """The protest marks the admin shows: those of the championships the user directs (the API lists them all)."""
    return GameProtestMark.objects.filter(game__championship__in=directed_championships(user))


def can_view_protest_mark(user: User, mark: GameProtestMark) -> bool:
    return can_direct_game(user, mark.game)


# --- The live game sheet (issue 9) ------------------------------------------------------


def can_enter_game_events(user, game, *, duties=None) -> bool:
    """Whether the user may enter events on a game's live sheet and read its log (4.3-4.5: the officials' table).

    The staff who direct the game's championship (staff of its sanctioning body, international staff,
    superusers) and the game's assigned timekeeper, penalty timekeeper and official scorer. ``duties``: the
    user's duties on the game when already read (``keeps_the_sheet``).
    """
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if can_edit_federation(user, game.championship.sanctioning_body):
        return True
    return keeps_the_sheet(user, game, duties=duties)


def can_read_sheet_log(user, game) -> bool:
    """Whether the user may read a game's sheet log: those who enter it (``can_enter_game_events``) and the game's
    assigned referees, who check the report before they sign it (4.2 O); not its goal judges (4.6)."""
    if can_enter_game_events(user, game):
        return True
    person_id = official_person_id(user) if user.is_active else None
    return (
        person_id is not None and GameOfficial.objects.filter(game=game, person_id=person_id, duty="referee").exists()
    )
