"""The officials of a game (4.1-4.6): who is assigned, in which duty, and who may not be (R-08, 4.6 B)."""

from __future__ import annotations

import datetime

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Role, User
from accounts.roles import can_manage_accounts, has_role
from federation.models import Person
from games.access import check_can_assign_officials
from portal.services import audited_create, audited_delete
from tournaments.facts import championship_ruleset, field_error, resolve_now
from tournaments.models import Game, GameStatus, PhaseKind, RosterEntry, TeamOfficial
from tournaments.versions import championship_changed

from ..models import DUTY_LIMITS, GameOfficial, OfficialAccount, OfficialDuty

# On the floor or behind a goal for the whole game: these officials hold no other duty in it (4.1 A-B, 4.6 C).
_EXCLUSIVE_DUTIES = frozenset({OfficialDuty.REFEREE, OfficialDuty.GOAL_JUDGE})


def check_official_assignment(*, game: Game, person: Person, duty: str, position: int | None = None) -> int:
    """Refuse an assignment the rules do not allow; return the position the official takes.

    The referees come first in the list and the first is the lead (4.2 C); a game has two referees and one
    timekeeper, penalty timekeeper and scorer (4.1 A-B) and up to two goal judges (4.6 C). A referee belongs
    to neither team's federation (4.2 I, R-08); a goal judge is no member of either team (4.6 B).
    """
    if duty not in DUTY_LIMITS:
        raise field_error(
            "duty",
            _("Rule 4.1: a duty is one of %(duties)s, not %(duty)s.")
            % {"duties": ", ".join(DUTY_LIMITS), "duty": repr(duty)},
        )
    if game.status == GameStatus.FINAL:
        raise field_error("game", _("Rule 4.2 O: the game is final; its officials signed the official game report."))
    if duty == OfficialDuty.REFEREE and not person.is_referee:
        raise field_error("person", _("Rule 4.2 A: %(person)s is not registered as a referee.") % {"person": person})
    if duty != OfficialDuty.REFEREE and not (person.is_official or person.is_referee):
        raise field_error(
            "person", _("Rule 4.1 B: %(person)s is not registered as a game official.") % {"person": person}
        )
    if duty == OfficialDuty.REFEREE:
        check_referee_neutrality(game=game, person=person)
    if duty == OfficialDuty.GOAL_JUDGE:
        check_goal_judge_neutrality(game=game, person=person)
    check_official_free(game=game, person=person)
    held = list(GameOfficial.objects.filter(game=game).values_list("person_id", "duty", "position"))
    duties_of_person = {d for p, d, _ in held if p == person.pk}
    if duty in duties_of_person:
        raise field_error("person", _("%(person)s already holds this duty in this game.") % {"person": person})
    if duties_of_person and (duty in _EXCLUSIVE_DUTIES or duties_of_person & _EXCLUSIVE_DUTIES):
        raise field_error(
            "duty",
            _(
                "Rule 4.1 B: %(person)s already officiates this game as %(duties)s; "
                "referees and goal judges hold no other duty."
            )
            % {"person": person, "duties": ", ".join(sorted(duties_of_person))},
        )  # fmt: skip
    taken = {pos for _, d, pos in held if d == duty}
    limit = DUTY_LIMITS[duty]
    if position is None:
        free = [pos for pos in range(1, limit + 1) if pos not in taken]
        if not free:
            raise field_error(
                "duty",
                _("Rule 4.1: a game has %(limit)s %(duty)s(s); all are assigned.")
                % {"limit": limit, "duty": OfficialDuty(duty).label},
            )
        return free[0]
    if not 1 <= position <= limit:
        raise field_error(
            "position",
            _("Rule 4.1: a game has %(limit)s %(duty)s(s); 1 to %(limit)s.")
            % {"limit": limit, "duty": OfficialDuty(duty).label},
        )
    if position in taken:
        raise field_error(
            "position", _("Position %(position)s is assigned; unassign that official first.") % {"position": position}
        )
    return position


def game_window(game: Game) -> tuple[datetime.datetime, datetime.datetime] | None:
    """Return when the game surely runs: its scheduled start and the least time it takes (1.2 A, 1.3 B), or None."""
    if game.start_at is None:
        return None
    rules = championship_ruleset(game.championship).game
    minutes = rules.expected_minutes(elimination=game.phase.kind != PhaseKind.ROUND_ROBIN)
    return game.start_at, game.start_at + datetime.timedelta(minutes=minutes)


# No game lasts longer than this: only the games starting within it of this one's start are read.
_LONGEST_GAME = datetime.timedelta(hours=12)


def check_official_free(*, game: Game, person: Person) -> None:
    """Refuse an official already assigned (any duty) to another game whose time overlaps this one's (4.1).

    Each game runs at least from its scheduled start for its periods, half-time and, played to a winner, its
    overtime (``GameRules.expected_minutes``); stoppages only make it longer. Games without a time are not
    compared.
    """
    window = game_window(game)
    if window is None:
        return
    start, end = window
    others = (
        GameOfficial.objects.filter(person=person, game__start_at__lt=end, game__start_at__gt=start - _LONGEST_GAME)
        .exclude(game=game)
        .select_related("game__championship__venue", "game__phase", "game__home", "game__away")
        .order_by("game__start_at")
    )
    for other in others:
        other_start, other_end = game_window(other.game)
        if other_start < end and start < other_end:
            local = timezone.localtime(other_start, other.game.championship.venue.zone)
            raise field_error(
                "person",
                _(
                    "Rule 4.1: %(person)s is already %(duty)s of game %(number)s of %(championship)s at %(when)s, "
                    "which overlaps this one (a game lasts at least %(minutes)s minutes from its start, 1.2 A); "
                    "an official is at one game at a time."
                )
                % {
                    "person": person,
                    "duty": other.get_duty_display().split(" (")[0].lower(),
                    "number": other.game.number,
                    "championship": other.game.championship,
                    "when": f"{local:%Y-%m-%d %H:%M}",
                    "minutes": int((end - start).total_seconds() // 60),
                },
            )


def check_referee_neutrality(*, game: Game, person: Person) -> None:
    """4.2 I, R-08: the referees in charge have no affiliation with either team: not of either team's federation."""
    if game.home_id is None or game.away_id is None:
        raise field_error("game", _("R-08: the game's teams are not known yet; a referee is checked against both."))
    for entry in (game.home, game.away):
        if person.federation_id == entry.federation_id:
            raise field_error(
                "person",
                _(
                    "Rule 4.2 I / R-08: %(person)s belongs to %(federation)s, the federation of %(entry)s; "
                    "a referee must not belong to either team's federation."
                )
                % {"person": person, "federation": entry.federation, "entry": entry},
            )


def check_goal_judge_neutrality(*, game: Game, person: Person) -> None:
    """4.6 B: goal judges are not members of either competing team (on its roster or among its officials)."""
    entries = [e for e in (game.home_id, game.away_id) if e is not None]
    member = (
        RosterEntry.objects.filter(entry_id__in=entries, person=person).exists()
        or TeamOfficial.objects.filter(entry_id__in=entries, person=person).exists()
    )
    if member:
        raise field_error(
            "person",
            _("Rule 4.6 B: %(person)s is a member of a competing team; not a goal judge.") % {"person": person},
        )


def official_assign(
    *,
    game: Game,
    person: Person,
    duty: str,
    by: User,
    position: int | None = None,
    now: datetime.datetime | None = None,
) -> GameOfficial:
    """Assign ``person`` to ``duty`` in ``game`` (referees: the first listed is the lead, 4.2 C)."""
    check_can_assign_officials(by, game)
    with transaction.atomic():
        # Two directors assigning at once: the second sees the first's assignment.
        game = Game.objects.select_for_update(of=("self",)).select_related("home", "away").get(pk=game.pk)
        # One official assigned to two games at once: his row orders the two checks of 4.1 (no double booking).
        Person.objects.select_for_update().filter(pk=person.pk).first()
        position = check_official_assignment(game=game, person=person, duty=duty, position=position)
        championship_changed(game.championship_id)  # the game's page names its officials
        return audited_create(
            GameOfficial,
            by,
            game=game,
            person=person,
            duty=duty,
            position=position,
            assigned_by=by,
            assigned_at=resolve_now(now),
        )


def official_unassign(*, assignment: GameOfficial, by: User) -> None:
    """Withdraw an assignment (4.2 B: the IHTC appoints another referee), not once the game is final (4.2 O)."""
    check_can_assign_officials(by, assignment.game)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=assignment.game_id)
        if game.status == GameStatus.FINAL:
            raise field_error(
                "game", _("Rule 4.2 O: the game is final; its officials signed the official game report.")
            )
        audited_delete(assignment, by)
        championship_changed(game.championship_id)


def check_official_account_link(*, person: Person, user: User, by: User) -> None:
    """Refuse a link of an official to a login that ``by`` may not make or that the register does not support."""
    if not can_manage_accounts(by):
        raise PermissionDenied(_("Only those who keep the accounts (IHTC executives) link an official to a login."))
    game_official = person.is_referee or person.is_official
    # 4.2 O, 4.3 A: captains and coaches sign the game report too, as themselves (games.finalize.sheet_sign):
    # a player or team official may have a login of their own, which needs no role.
    signer = person.is_player or person.is_goalkeeper or person.is_team_official
    if not (game_official or signer):
        raise field_error(
            "person",
            _(
                "Rule 4.1 / 4.3 A: %(person)s is registered neither as a referee or game official nor as a player "
                "or team official."
            )
            % {"person": person},
        )
    if game_official and not has_role(user, Role.GAME_OFFICIAL):
        raise field_error(
            "user",
            _("%(user)s does not hold the %(role)s role; give it first.")
            % {"user": user, "role": Role.GAME_OFFICIAL.label},
        )
    if OfficialAccount.objects.filter(person=person).exists():
        raise field_error("person", _("%(person)s already has a login.") % {"person": person})
    if OfficialAccount.objects.filter(user=user).exists():
        raise field_error("user", _("%(user)s is already the login of another official.") % {"user": user})


def official_account_link(*, person: Person, user: User, by: User) -> OfficialAccount:
    """Link a registered official to their login, so that "My games" shows their assignments; or a player or team
    official to theirs, with which they sign the game reports of their team as captain or coach (4.2 O, 4.3 A)."""
    with transaction.atomic():
        check_official_account_link(person=person, user=user, by=by)
        return audited_create(OfficialAccount, by, person=person, user=user)
