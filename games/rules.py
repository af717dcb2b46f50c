"""Object permissions of the games app (``rules`` autodiscovers this module): predicates over ``games.access``;
see ``games/rules.py``."""

from __future__ import annotations

import rules

from accounts import roles
from accounts.rules import is_authenticated, is_superuser, manages_accounts
from federation.rules import is_federation_staff
from games import access as games_access

# --- Games: officials and line-ups (games.access holds the questions) ---------------------------------


@rules.predicate
def directs_championships(user):
    """International staff direct any championship; national staff those their federation sanctions."""
    return roles.is_international_staff(user) or games_access.directed_championships(user).exists()


@rules.predicate
def officiates_games(user):
    return games_access.official_person_id(user) is not None


@rules.predicate
def can_view_game_assignment(user, assignment=None):
    if assignment is None:
        return directs_championships(user) or officiates_games(user)
    return games_access.can_view_assignment(user, assignment)


@rules.predicate
def can_assign_game_officials(user, assignment=None):
    if assignment is None:
        return directs_championships(user)
    return games_access.can_direct_game(user, assignment.game)


@rules.predicate
def can_view_game_lineup(user, lineup=None):
    if lineup is None:
        # Federation staff see their own teams' line-ups (the admin's list is scoped to what each may read).
        return directs_championships(user) or roles.is_federation_staff(user)
    return games_access.can_view_lineup(user, lineup)


@rules.predicate
def can_view_protest_mark(user, mark=None):
    """9.1 B: the marks of the games a director directs (the lead referees record theirs through the API)."""
    if mark is None:
        return directs_championships(user)
    return games_access.can_view_protest_mark(user, mark)


# The admin shows assignments and line-ups to the championships' directors; assignments are made and withdrawn
# through games.services (4.2 A, R-08), never edited in place; line-ups are the teams' (5.1 A), read here.
rules.add_perm("games", is_authenticated & (directs_championships | is_federation_staff | manages_accounts))
rules.add_perm("games.view_gameofficial", can_view_game_assignment)
rules.add_perm("games.add_gameofficial", can_assign_game_officials)
rules.add_perm("games.delete_gameofficial", can_assign_game_officials)
rules.add_perm("games.view_lineup", can_view_game_lineup)
rules.add_perm("games.view_gameprotestmark", can_view_protest_mark)
rules.add_perm("games.add_gameprotestmark", directs_championships)
rules.add_perm("games.view_officialaccount", manages_accounts)
rules.add_perm("games.add_officialaccount", manages_accounts)
rules.add_perm("games.delete_officialaccount", manages_accounts)


# --- The live game sheet (issue 9): entered by the game's officials and the staff who direct it ----------------


@rules.predicate
def can_enter_game_events(user, game=None):
    """The game's officials and its championship's directors enter its events (federation.access)."""
    if game is None:
        return roles.is_federation_staff(user)
    return games_access.can_enter_game_events(user, game)


rules.add_perm("games.enter_game_events", can_enter_game_events)
# The sheet's admin pages are a read-only view of the log for superusers; entries go through games.sheet.
SHEET_ADMIN_MODELS = ("gamesheet", "sheetevent", "sheetsnapshot", "consolesignin")
for _model in SHEET_ADMIN_MODELS:
    rules.add_perm(f"games.view_{_model}", is_superuser)
