"""Suspensions as the other apps and the committee meet them (8.2, 7.1; R-53).

- ``impose_provisional``: the automatic, provisional suspension a game consequence brings (called when the
  consequences of a final game arrive, ``discipline.services.receive_game_consequences``).
- ``count_served_games``: a game counts as served when it becomes final with the person's team playing it
  (called by ``tournaments.services.results.game_record_result``, which both final paths go through: the
  sheet's finalize and staff's result record); idempotent.
- ``active_for_game``: who may not be put on a game's line-up, one query (``discipline.services.active_suspensions``).
- ``suspensions_visible_to``: staff of the sanctioning body, the committee and the executive see every
  suspension of their championships; a team manager those of his teams' people; the public none.

The arithmetic is ``discipline.suspension_rules`` (database-free).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.db import transaction
from django.db.models import Count, F, Q, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.models import Role, RoleAssignment, User
from accounts.roles import has_role, is_international_staff, is_superuser, staff_federation_ids
from common.text import Text, said, said_in
from discipline import hooks
from discipline import suspension_rules as sr
from discipline.models import GameConsequence, ServedGame, Suspension, SuspensionKind, SuspensionStatus
from portal.i18n import storable, untranslated
from portal.services import audited_save
from tournaments.models import Championship, Game, GameStatus, RosterEntry, TeamEntry, TeamOfficial


def _facts(game: Game) -> sr.GameFacts:
    # Only a forfeit names a forfeiting team (8.1 B, ``tournaments.services.check_result``): R-55's forfeit.
    return sr.GameFacts(
        game.pk,
        game.championship_id,
        game.start_at,
        game.status == GameStatus.FINAL,
        forfeit=game.forfeited_by_id is not None,
    )


def _annotated(qs: QuerySet[Suspension]) -> QuerySet[Suspension]:
    return qs.annotate(served_count=Count("served_games"), offence_start_at=F("offence_game__start_at"))


def active_for_game(*, game: Game, person_ids: Iterable[int], now: datetime.datetime | None = None):
    """The suspensions in force for ``game`` of the given people, by person id (R-07, R-53): one query.

    A suspension follows its person to every game of its sanctioning body (any team, any championship).
    """
    ids = {pid for pid in person_ids if pid is not None}
    if not ids:
        return {}
    now = now or timezone.now()
    body = Championship.objects.filter(pk=game.championship_id).values("sanctioning_body_id")[:1]
    rows = _annotated(
        Suspension.objects.filter(person_id__in=ids, status=SuspensionStatus.ACTIVE, sanctioning_body_id=Subquery(body))
    ).select_related("championship")
    facts = _facts(game)
    found: dict[int, Suspension] = {}
    for suspension in rows:
        if sr.blocks(suspension.terms(), facts, now=now):
            found.setdefault(suspension.person_id, suspension)
    return found


def impose_provisional(consequence: GameConsequence, *, now: datetime.datetime) -> Suspension | None:
    """Keep the provisional suspension of a received consequence in step with it (R-53, 8.2 A/C, 7.1).

    A consequence received again (an amendment changed it, or brought back a withdrawn one) updates the
    suspension it had; one that brings none (a game misconduct alone) withdraws it.
    """
    terms = sr.provisional_terms(kind=consequence.kind, article=consequence.article, infraction=consequence.infraction)
    held = Suspension.objects.select_for_update().filter(consequence=consequence, provisional=True).first()
    if terms is None or consequence.person_id is None:
        if held is not None and held.status == SuspensionStatus.ACTIVE:
            close(held, SuspensionStatus.WITHDRAWN, now)
        return None
    game = consequence.game
    fields = {
        "person_id": consequence.person_id,
        "sanctioning_body_id": game.championship.sanctioning_body_id,
        "championship_id": game.championship_id,
        "entry_id": consequence.entry_id,
        "offence_game": game,
        "kind": terms.kind,
        "games_required": terms.games,
        "article": terms.article,
        "reasons": terms.description,
        "reasons_message": storable(terms.description),
    }
    if held is None:
        suspension = Suspension.objects.create(
            consequence=consequence, provisional=True, imposed_at=now, status=SuspensionStatus.ACTIVE, **fields
        )
    elif held.status in (SuspensionStatus.ACTIVE, SuspensionStatus.WITHDRAWN):
        for key, value in fields.items():
            setattr(held, key, value)
        held.status, held.closed_at = SuspensionStatus.ACTIVE, None
        held.save()
        suspension = held
    else:  # replaced by a decision, or served: the committee's word stands
        return held
    tell_about(suspension)
    return suspension


def withdraw_provisional(consequence: GameConsequence, *, now: datetime.datetime) -> None:
    """The sheet's amendment removed the penalty: its provisional suspension goes too."""
    for held in Suspension.objects.select_for_update().filter(
        consequence=consequence, provisional=True, status=SuspensionStatus.ACTIVE
    ):
        close(held, SuspensionStatus.WITHDRAWN, now)


def close(suspension: Suspension, status: str, now: datetime.datetime, *, by: User | None = None) -> None:
    """Close ``suspension`` (locked by the caller) as ``status``, audited, and tell everyone told of it (served,
    ended, withdrawn, replaced, annulled): a player must not stay blocked because nobody heard it is over (R-53)."""
    suspension.status, suspension.closed_at = status, now
    audited_save(suspension, by)
    tell_about(suspension)


def _team_people(entry_ids: Iterable[int]) -> dict[int, int]:
    """person id -> entry id of the players and team officials of the given entries."""
    ids = [pk for pk in entry_ids if pk]
    people = dict(RosterEntry.objects.filter(entry_id__in=ids).values_list("person_id", "entry_id"))
    people.update(TeamOfficial.objects.filter(entry_id__in=ids).values_list("person_id", "entry_id"))
    return people


def count_served_games(*, game: Game, now: datetime.datetime | None = None) -> list[ServedGame]:
    """Count ``game`` towards the N-games suspensions of its teams' people, once (8.2 A; R-53).

    Only a final game counts, and not a forfeit (R-55, ``suspension_rules.counts_as_served``); a game already
    counted is not counted again (an amendment changes nothing);
    a suspension whose games are all served closes by itself. Runs in the caller's transaction.
    """
    if game.status != GameStatus.FINAL:
        return []
    now = now or timezone.now()
    people = _team_people([game.home_id, game.away_id])
    if not people:
        return []
    body = Championship.objects.filter(pk=game.championship_id).values("sanctioning_body_id")[:1]
    locked = list(
        Suspension.objects.select_for_update()
        .filter(
            person_id__in=people,
            status=SuspensionStatus.ACTIVE,
            kind=SuspensionKind.GAMES,
            sanctioning_body_id=Subquery(body),
        )
        .values_list("pk", flat=True)
    )
    counted = []
    facts = _facts(game)
    for suspension in _annotated(Suspension.objects.filter(pk__in=locked)).order_by("pk"):
        if ServedGame.objects.filter(suspension=suspension, game=game).exists():
            continue
        terms = suspension.terms()
        if not sr.counts_as_served(terms, facts):
            continue
        counted.append(
            ServedGame.objects.create(
                suspension=suspension, game=game, entry_id=people[suspension.person_id], counted_at=now
            )
        )
        suspension.served_count = terms.games_served + 1
        if sr.is_served(suspension.terms()):
            close(suspension, SuspensionStatus.SERVED, now)
    return counted


def count_past_games(suspension: Suspension, *, now: datetime.datetime) -> None:
    """Count the final games the person's teams played since the offence (a decision made after some of them:
    the games the person sat out under the provisional suspension are served)."""
    if suspension.kind != SuspensionKind.GAMES:
        return
    entries = set(RosterEntry.objects.filter(person=suspension.person_id).values_list("entry_id", flat=True))
    entries |= set(TeamOfficial.objects.filter(person=suspension.person_id).values_list("entry_id", flat=True))
    games = Game.objects.filter(
        Q(home_id__in=entries) | Q(away_id__in=entries),
        status=GameStatus.FINAL,
        championship__sanctioning_body_id=suspension.sanctioning_body_id,
    ).order_by("start_at", "number")
    for game in games:
        count_served_games(game=game, now=now)


def end_finished(*, now: datetime.datetime | None = None) -> int:
    """Close what ended: the rest of a tournament whose championship is over (8.2 C), a period that ran out."""
    now = now or timezone.now()
    over = Q(kind=SuspensionKind.REST_OF_TOURNAMENT, championship__end_date__lt=now.date()) | Q(
        kind=SuspensionKind.PERIOD, ends_at__lte=now
    )
    ended = 0
    with transaction.atomic():  # Celery beat calls it (discipline.tasks.end_finished_suspensions): rows locked
        for suspension in Suspension.objects.select_for_update().filter(over, status=SuspensionStatus.ACTIVE):
            close(suspension, SuspensionStatus.ENDED, now)
            ended += 1
    return ended


# --- who is told, who sees -------------------------------------------------------------------------------------


def recipients(suspension: Suspension) -> list[User]:
    """Everyone told of a suspension: the managers of every team the person is registered in (roster or team
    official) in the body's championships not yet over, and the staff of the sanctioning body (its directors)."""
    today = timezone.now().date()
    person_entries = Q(roster__person_id=suspension.person_id) | Q(officials__person_id=suspension.person_id)
    entries = TeamEntry.objects.filter(
        person_entries,
        championship__sanctioning_body_id=suspension.sanctioning_body_id,
        championship__end_date__gte=today,
    ).values("pk")
    users = User.objects.filter(
        Q(managed_entries__in=Subquery(entries))
        | Q(
            role_assignments__in=RoleAssignment.objects.filter(
                role=Role.FEDERATION_STAFF, federation_id=suspension.sanctioning_body_id
            )
        ),
        is_active=True,
    ).distinct()
    return list(users.order_by("pk"))


# What the people told of a suspension read: the subject, the sentence. Stored as messages and said in each
# reader's language where they are shown (issue 26, ``portal.notifications``).
_TOLD = {
    SuspensionStatus.ACTIVE: (
        gettext_noop("Suspension: {person} is suspended"),
        gettext_noop("{person} is suspended."),
    ),
    SuspensionStatus.SERVED: (
        gettext_noop("Suspension: {person} has served the suspension and may play again"),
        gettext_noop("{person} has served the suspension and may play again."),
    ),
    SuspensionStatus.ENDED: (
        gettext_noop("Suspension: {person} is no longer suspended"),
        gettext_noop("{person} is no longer suspended: the suspension ended."),
    ),
    SuspensionStatus.WITHDRAWN: (
        gettext_noop("Suspension: {person} is no longer suspended"),
        gettext_noop("{person} is no longer suspended: the penalty was removed from the game sheet."),
    ),
    SuspensionStatus.REPLACED: (
        gettext_noop("Suspension: {person} has the provisional suspension replaced by the committee's decision"),
        gettext_noop("{person} has the provisional suspension replaced by the committee's decision."),
    ),
    SuspensionStatus.ANNULLED: (
        gettext_noop("Suspension: {person} is no longer suspended"),
        gettext_noop("{person} is no longer suspended: the decision was annulled on appeal."),
    ),
}
# The kinds without a count nor an end date, as the terms name them ("rest of the tournament of <championship>").
_KIND_TOLD = {
    SuspensionKind.REST_OF_TOURNAMENT: gettext_noop("rest of the tournament"),
    SuspensionKind.UNTIL_DECISION: gettext_noop("rest of the tournament until the committee decides"),
}


def terms_said(suspension: Suspension) -> Text:
    """``Suspension.describe`` as a message said in the reader's language: "Rule 8.2 A: suspended (provisional)
    for 1 game(s), 0 served"."""
    if suspension.kind == SuspensionKind.GAMES:
        what = said("{games} game(s), {served} served", games=suspension.games_required, served=suspension.games_served)
    elif suspension.kind == SuspensionKind.PERIOD:
        what = said("until {moment} UTC", moment=f"{suspension.ends_at:%Y-%m-%d %H:%M}")
    else:
        kind = (
            said(_KIND_TOLD[suspension.kind])
            if suspension.kind in _KIND_TOLD
            else untranslated(suspension.get_kind_display())
        )
        what = said("{kind} of {championship}", kind=kind, championship=str(suspension.championship))
    state = said_in("suspension", "provisional") if suspension.provisional else said_in("suspension", "decided")
    return said("Rule {article}: suspended ({state}) for {what}", article=suspension.article, state=state, what=what)


def _told(suspension: Suspension, which: int) -> Text:
    """The subject (0) or the body (1) of what is told of ``suspension`` in its present state."""
    person = str(suspension.person)
    subject, sentence = _TOLD[suspension.status]  # every state has its words
    if which == 0:
        return said(subject, person=person)
    parts = {"sentence": said(sentence, person=person), "terms": terms_said(suspension)}
    reasons = suspension.reasons_said
    if not reasons:
        return Text.made("{sentence} {terms}.", parts, braced=True)
    return Text.made("{sentence} {terms}. {reasons}", {**parts, "reasons": reasons}, braced=True)


def tell_about(suspension: Suspension) -> None:
    """Tell every team and championship the person is registered in (R-53), once per suspension and state: its
    imposition (and each change of its terms) and its end, whichever way it ends. Each person reads it in their
    language (``portal.notifications.notify``)."""
    from portal.notifications import notify  # the portal's notifications sit above the apps

    key = f"suspension:{suspension.pk}:{suspension.status}"
    if suspension.status == SuspensionStatus.ACTIVE:  # new terms are news too (an amendment, a decision)
        key += f":{suspension.kind}:{suspension.games_required}:{suspension.ends_at}"
    notify(
        users=recipients(suspension),
        key=key,
        subject=_told(suspension, 0),
        body=_told(suspension, 1),
        url="/discipline/suspensions/",
    )
    # The federations' systems hear it too (webhooks, after the commit): once per suspension, state and terms.
    hooks.suspension_changed(suspension_id=suspension.pk, status=suspension.status)


def _sees_every_suspension(user: User) -> bool:
    """Superusers, international staff (the executive among them) and the discipline committee."""
    return is_superuser(user) or is_international_staff(user) or has_role(user, Role.DISCIPLINE_COMMITTEE)


def can_see_suspensions_of(user: User, championship: Championship) -> bool:
    """Staff of the sanctioning body, international staff, the committee and the executive."""
    if not getattr(user, "is_authenticated", False):
        return False
    return _sees_every_suspension(user) or championship.sanctioning_body_id in staff_federation_ids(user)


def sees_suspensions(user: User) -> bool:
    """Whether some suspensions may be open to the user (list pages): the roles ``suspensions_visible_to`` serves."""
    if not getattr(user, "is_authenticated", False):
        return False
    return _sees_every_suspension(user) or bool(staff_federation_ids(user)) or has_role(user, Role.TEAM_MANAGER)


def suspensions_visible_to(user: User) -> QuerySet[Suspension]:
    """The suspensions a user may read; the public none."""
    if not getattr(user, "is_authenticated", False):
        return Suspension.objects.none()
    if _sees_every_suspension(user):
        return Suspension.objects.all()
    q = Q(sanctioning_body_id__in=staff_federation_ids(user))
    if has_role(user, Role.TEAM_MANAGER):
        managed = TeamEntry.objects.filter(managers=user)
        q |= Q(person__roster_entries__entry__in=managed) | Q(person__team_official_roles__entry__in=managed)
    return Suspension.objects.filter(pk__in=Suspension.objects.filter(q).values("pk"))
