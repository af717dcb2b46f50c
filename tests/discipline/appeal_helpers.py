"""A decision to appeal (9.2 A) for the appeal tests: a final game's match penalty for kicking, gathered in a case
the committee decided with a 3-game suspension (7.1)."""

from __future__ import annotations

import datetime

from accounts.models import Role, User
from discipline import cases
from discipline.models import Decision, IncidentReport
from discipline.services import receive_game_consequences
from federation.models import Person
from tests.factories import GameFactory, RosterEntryFactory, game_consequence, with_role
from tournaments.models import GameStatus

DAY = datetime.timedelta(days=1)


def decided_case() -> tuple[Decision, Person, User]:
    """The committee's decision, the suspended home player and the committee member who decided."""
    game = GameFactory(status=GameStatus.FINAL, home_goals=1, away_goals=0)
    player = RosterEntryFactory(entry=game.home).person
    at = game.start_at + datetime.timedelta(hours=2)
    receive_game_consequences(
        game=game,
        consequences=[game_consequence(game, player, infraction="kicking_opponent")],
        now=at,
    )
    committee = with_role(Role.DISCIPLINE_COMMITTEE)
    case = cases.open_case(reports=[IncidentReport.objects.get()], title="Kicking", by=committee, now=at)
    decision = cases.decide_case(
        case=case, outcome="sanctions", reasons="Kicking.", by=committee, now=at + DAY,
        sanctions=[cases.Sanction(person_id=player.pk, kind="games", games=3, article="7.1")],
    )  # fmt: skip
    return decision, player, committee
