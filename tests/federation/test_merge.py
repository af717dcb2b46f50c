"""Merging two records of one person (issue 25): every row about the duplicate moves to the record kept, in every app,
through the federation's merge hook; only international staff merge; the histories say who merged what."""

from __future__ import annotations

import datetime

import pytest
from django.apps import apps
from django.core.exceptions import PermissionDenied, ValidationError
from simple_history.models import HistoricalChanges

from common.hooks import Broadcast, HookNotAnswered
from discipline.models import Suspension, SuspensionKind
from federation import merge
from federation.models import Passport, Person
from games.models import GameOfficial
from tests.factories import (
    EligibilityWaiverFactory,
    FederationFactory,
    GameFactory,
    PassportFactory,
    PersonFactory,
    RosterEntryFactory,
    TeamEntryFactory,
    federation_staff,
    international_staff,
)
from tournaments.models import GoalRecord, RosterEntry, TeamOfficial


def _person_fields() -> set[str]:
    """Every relation field of every model (history tables aside: they keep the past) to Person."""
    found = set()
    for model in apps.get_models(include_auto_created=True):
        if issubclass(model, HistoricalChanges):
            continue
        for field in model._meta.get_fields():
            if field.is_relation and field.concrete and field.related_model is Person:
                assert not field.many_to_many, (
                    f"{model.__name__}.{field.name}: a many-to-many to Person needs a handler"
                )
                found.add(merge.field_label(model, field.name))
    assert found == {merge.field_label(*item) for item in merge.person_foreign_keys()}
    return found


def test_every_foreign_key_to_person_has_a_merge_handler():
    """A new ForeignKey to Person with no handler would leave rows on the deleted duplicate (or block the merge)."""
    fields = _person_fields()
    assert {"tournaments.RosterEntry.person", "games.LineupPlayer.person", "discipline.Suspension.person"} <= fields
    missing = fields - merge.covered_fields()
    assert not missing, f"ForeignKeys to Person that no merge handler re-points (federation.merge): {sorted(missing)}"
    assert not merge.covered_fields() - fields, "a handler names a field that is not a ForeignKey to Person"


def test_a_broadcast_refuses_to_go_out_before_every_app_registered():
    notice = Broadcast("test.notice", answered_by=("upper", "top"))
    notice.register("upper", lambda **kw: 1, covers=["a"])
    with pytest.raises(HookNotAnswered, match="top"):
        notice(keep=1)
    notice.register("top", lambda **kw: 2, covers=["b"])
    assert notice(keep=1) == {"upper": 1, "top": 2}
    assert notice.covered == {"a", "b"}


@pytest.fixture
def pair():
    federation = FederationFactory(country="IT")
    born = datetime.date(2001, 2, 3)
    keep = PersonFactory(federation=federation, first_name="Marco", last_name="Rossi", date_of_birth=born)
    duplicate = PersonFactory(federation=federation, first_name="Marco", last_name="Rossi", date_of_birth=born)
    return keep, duplicate


@pytest.mark.django_db
def test_the_merge_keeps_passports_rosters_sanctions_and_history(pair):
    keep, duplicate = pair
    by = international_staff()
    passport = PassportFactory(person=duplicate)
    waiver = EligibilityWaiverFactory(person=duplicate)
    line = RosterEntryFactory(person=duplicate, entry=TeamEntryFactory(federation=keep.federation))
    official = TeamOfficial.objects.create(entry=line.entry, person=duplicate, role="coach")
    game = GameFactory()
    goal = GoalRecord.objects.create(game=game, entry=game.home, scorer=duplicate, period=1, time_tenths=10)
    duty = GameOfficial.objects.create(
        game=game, person=duplicate, duty="referee", position=1, assigned_at=datetime.datetime.now(datetime.UTC)
    )
    suspension = Suspension.objects.create(
        person=duplicate,
        sanctioning_body=game.championship.sanctioning_body,
        championship=game.championship,
        kind=SuspensionKind.GAMES,
        games_required=1,
        article="9.5",
        imposed_at=datetime.datetime.now(datetime.UTC),
    )
    duplicate_pk = duplicate.pk

    moved = merge.person_merge(keep=keep, duplicate=duplicate, by=by)

    assert not Person.objects.filter(pk=duplicate_pk).exists()
    for row in (passport, waiver, line, official, goal, duty, suspension):
        row.refresh_from_db()
    assert {passport.person_id, waiver.person_id, line.person_id, official.person_id, goal.scorer_id} == {keep.pk}
    assert {duty.person_id, suspension.person_id} == {keep.pk}
    assert moved["tournaments.RosterEntry.person"] == 1 and moved["discipline.Suspension.person"] == 1
    # The audit: the kept record's history names the merge and its author; the duplicate's history stays.
    latest = keep.history.latest()
    assert latest.history_user == by and f"#{duplicate_pk}" in latest.history_change_reason
    gone = Person.history.filter(id=duplicate_pk).order_by("-history_id")
    assert gone[0].history_type == "-" and gone[0].history_user == by
    assert gone.count() >= 2


@pytest.mark.django_db
def test_national_staff_may_not_merge(pair):
    keep, duplicate = pair
    with pytest.raises(PermissionDenied, match="international staff"):
        merge.person_merge(keep=keep, duplicate=duplicate, by=federation_staff(keep.federation))
    assert Person.objects.filter(pk=duplicate.pk).exists()


@pytest.mark.django_db
def test_both_on_one_roster_is_refused_and_nothing_moves(pair):
    keep, duplicate = pair
    entry = TeamEntryFactory(federation=keep.federation)
    RosterEntryFactory(entry=entry, person=keep, number="7")
    RosterEntryFactory(entry=entry, person=duplicate, number="8")
    passport = PassportFactory(person=duplicate)
    with pytest.raises(ValidationError, match="roster"):
        merge.person_merge(keep=keep, duplicate=duplicate, by=international_staff())
    assert Person.objects.filter(pk=duplicate.pk).exists()
    assert Passport.objects.get(pk=passport.pk).person_id == duplicate.pk
    assert RosterEntry.objects.filter(person=duplicate).count() == 1


@pytest.mark.django_db
def test_a_record_is_not_merged_into_itself(pair):
    keep, _ = pair
    with pytest.raises(ValidationError, match="another record"):
        merge.person_merge(keep=keep, duplicate=keep, by=international_staff())
