"""The events the webhooks tell, from the apps below (docs/webhooks.md, "Events").

Each handler is registered on a broadcast of a lower app (``WebhooksConfig.ready``) and is called inside the
transaction that made the change; it only notes the id, and builds the event once that transaction commits (a
change rolled back tells nobody; the event reads what was committed). Each event goes to the federations it
concerns, and to no other:

- a person's eligibility: the person's federation, only when the eligibility answer itself changed;
- a roster frozen (3.1.1 B, R-05: the championship's first game started): the entry's federation, once;
- a game final, a protest filed or decided: the federations of the game's two teams;
- a suspension imposed or ended: the person's federation and the federation of the team it was imposed with.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone

from discipline.models import Protest, Suspension, SuspensionStatus
from federation.api import eligibility_answer
from federation.models import EligibilityWaiver, Person
from tournaments.facts import championships_begun
from tournaments.models import Championship, EntryStatus, Game, TeamEntry
from tournaments.selectors import roster_for_entry

from . import services
from .models import Endpoint, EventType


def _wanted(event_type: str, federation_ids: Iterable[int]) -> bool:
    """Whether any endpoint of these federations asked for ``event_type`` (no work for an event nobody hears)."""
    ids = {pk for pk in federation_ids if pk}
    return bool(ids) and any(
        event_type in types
        for types in Endpoint.objects.filter(federation_id__in=ids, active=True).values_list("event_types", flat=True)
    )


def _entry(entry: TeamEntry | None) -> dict | None:
    if entry is None:
        return None
    return {"id": entry.pk, "name": entry.name, "federation": entry.federation_id}


def _championship(championship: Championship) -> dict:
    return {"id": championship.pk, "name": championship.name}


def _person(person: Person) -> dict:
    return {
        "id": person.pk,
        "first_name": person.first_name,
        "last_name": person.last_name,
        "federation": person.federation_id,
    }


# --- A person's eligibility (1.1 B-G, R-01..R-03) ------------------------------------------------------------------


def on_eligibility_facts_changed(*, person_id: int) -> None:
    transaction.on_commit(lambda: tell_eligibility(person_id))


def tell_eligibility(person_id: int) -> None:
    """Tell the person's federation their eligibility, if it is not what its endpoints were last told."""
    person = (
        Person.objects.filter(pk=person_id)
        .select_related("federation")
        .prefetch_related(
            "passports",
            Prefetch("eligibility_waivers", queryset=EligibilityWaiver.objects.select_related("approved_by")),
        )
        .first()
    )
    if person is None or not _wanted(EventType.ELIGIBILITY_CHANGED, [person.federation_id]):
        return
    services.emit(
        EventType.ELIGIBILITY_CHANGED,
        federation_ids=[person.federation_id],
        subject=f"person:{person.pk}",
        data={"person": _person(person), "eligibility": eligibility_answer(person)},
        only_if_changed="eligibility",
    )


# --- Rosters frozen (3.1.1 B, R-05) --------------------------------------------------------------------------------


def _roster(entry: TeamEntry) -> list[dict]:
    return [
        {
            "person": line.person_id,
            "first_name": line.person.first_name,
            "last_name": line.person.last_name,
            "number": line.number,
            "position": line.position,
            "captain": line.captain,
            "alternate": line.alternate,
            "confirmed": line.confirmed,
        }
        for line in roster_for_entry(entry)
    ]


def announce_frozen_rosters(*, now: datetime.datetime | None = None) -> int:
    """Tell each federation, once per entry, that its roster is frozen: the championship's first game started
    (3.1.1 B, R-05). A sweep (``webhooks.tasks.announce_frozen_rosters``), since the freeze comes with time; it looks
    only at championships not over and federations with an endpoint that asked. Returns the deliveries made."""
    now = now or timezone.now()
    listening = {
        federation_id
        for federation_id, types in Endpoint.objects.filter(active=True).values_list("federation_id", "event_types")
        if EventType.ROSTER_FROZEN in types
    }
    if not listening:
        return 0
    entries = list(
        TeamEntry.objects.filter(
            federation_id__in=listening,
            status__in=[EntryStatus.ENTERED, EntryStatus.CONFIRMED],
            championship__published=True,
            championship__end_date__gte=(now - datetime.timedelta(days=1)).date(),
        ).select_related("championship__venue", "federation")
    )
    championships = list({entry.championship_id: entry.championship for entry in entries}.values())
    begun = championships_begun(championships, now=now)
    made = 0
    for entry in entries:
        if entry.championship_id not in begun:
            continue
        made += len(
            services.emit(
                EventType.ROSTER_FROZEN,
                federation_ids=[entry.federation_id],
                subject=f"entry:{entry.pk}",
                data={
                    "entry": _entry(entry),
                    "championship": _championship(entry.championship),
                    "roster": _roster(entry),
                },
                once=True,
                now=now,
            )
        )
    return made


# --- Games final (4.2 P) -------------------------------------------------------------------------------------------


def on_game_final(*, game_id: int, amended: bool) -> None:
    transaction.on_commit(lambda: tell_game_final(game_id, amended=amended))


def tell_game_final(game_id: int, *, amended: bool) -> None:
    game = Game.objects.filter(pk=game_id).select_related("championship", "home", "away", "forfeited_by").first()
    if game is None:
        return
    federations = [entry.federation_id for entry in (game.home, game.away) if entry is not None]
    if not _wanted(EventType.GAME_FINAL, federations):
        return
    services.emit(
        EventType.GAME_FINAL,
        federation_ids=federations,
        subject=f"game:{game.pk}",
        data={
            "game": game.pk,
            "number": game.number,
            "championship": _championship(game.championship),
            "home": _entry(game.home),
            "away": _entry(game.away),
            "home_goals": game.home_goals,
            "away_goals": game.away_goals,
            "decided_in": game.decided_in,
            "shootout_home_goals": game.shootout_home_goals,
            "shootout_away_goals": game.shootout_away_goals,
            "forfeited_by": game.forfeited_by_id,
            "finalized_at": game.finalized_at,
            "amended": amended,
        },
    )


# --- Protests (9.1) ------------------------------------------------------------------------------------------------


def on_protest_filed(*, protest_id: int) -> None:
    transaction.on_commit(lambda: tell_protest(protest_id, EventType.PROTEST_FILED))


def on_protest_decided(*, protest_id: int) -> None:
    transaction.on_commit(lambda: tell_protest(protest_id, EventType.PROTEST_DECIDED))


def tell_protest(protest_id: int, event_type: str) -> None:
    protest = (
        Protest.objects.filter(pk=protest_id)
        .select_related("game__championship", "game__home", "game__away", "entry")
        .first()
    )
    if protest is None:
        return
    game = protest.game
    federations = [entry.federation_id for entry in (game.home, game.away) if entry is not None]
    if not _wanted(event_type, federations):
        return
    data = {
        "protest": protest.pk,
        "kind": protest.kind,
        "status": protest.status,
        "game": game.pk,
        "championship": _championship(game.championship),
        "entry": _entry(protest.entry),
        "incident": protest.incident,
        "filed_at": protest.filed_at,
    }
    if event_type == EventType.PROTEST_DECIDED:
        data.update(decided_at=protest.decided_at, decision_reason=protest.decision_reason)
    services.emit(event_type, federation_ids=federations, subject=f"protest:{protest.pk}", data=data)


# --- Suspensions (8.2, R-53) ---------------------------------------------------------------------------------------


def on_suspension_changed(*, suspension_id: int, status: str) -> None:
    transaction.on_commit(lambda: tell_suspension(suspension_id))


def tell_suspension(suspension_id: int) -> None:
    """Tell the person's federation (and the team's) of a suspension imposed, changed or ended; once per state and
    terms (the same notice told twice is one event)."""
    suspension = Suspension.objects.filter(pk=suspension_id).select_related("person", "championship", "entry").first()
    if suspension is None:
        return
    event_type = (
        EventType.SUSPENSION_IMPOSED if suspension.status == SuspensionStatus.ACTIVE else EventType.SUSPENSION_ENDED
    )
    federations = [suspension.person.federation_id, suspension.entry and suspension.entry.federation_id]
    if not _wanted(event_type, federations):
        return
    services.emit(
        event_type,
        federation_ids=[pk for pk in federations if pk],
        subject=f"suspension:{suspension.pk}",
        data={
            "suspension": suspension.pk,
            "person": _person(suspension.person),
            "championship": _championship(suspension.championship),
            "entry": _entry(suspension.entry),
            "status": suspension.status,
            "provisional": suspension.provisional,
            "kind": suspension.kind,
            "games_required": suspension.games_required,
            "ends_at": suspension.ends_at,
            "article": suspension.article,
            "reasons": suspension.reasons,
            "imposed_at": suspension.imposed_at,
            "closed_at": suspension.closed_at,
        },
        only_if_changed="*",
    )
