"""The service plumbing shared by the apps (portal.services): transition tables and the audit trail's acting user."""

import pytest
from django.core.exceptions import ValidationError
from djmoney.money import Money

from federation.models import DEVICE_REQUEST_TRANSITIONS, DeviceRequestStatus, Federation
from portal.services import audited_create, audited_delete, audited_save, check_transition
from tests.factories import FederationFactory, SuperuserFactory, TeamEntryFactory
from tournaments import services as tournament_services
from tournaments.models import ENTRY_TRANSITIONS, EntryStatus


def test_check_transition_allows_a_move_the_table_lists():
    check_transition(DEVICE_REQUEST_TRANSITIONS, "submitted", DeviceRequestStatus.APPROVED)


def test_check_transition_names_the_field_the_rule_and_what_the_status_can_become():
    with pytest.raises(ValidationError) as caught:
        check_transition(
            ENTRY_TRANSITIONS, "entered", EntryStatus.DISQUALIFIED, field="forfeited_by", subject="an entry",
            article="Rule 8.1 C",
        )  # fmt: skip
    assert caught.value.message_dict == {
        "forfeited_by": [
            "Rule 8.1 C: an entry that is entered (fee not yet paid) cannot become disqualified; "
            "it can become: confirmed (fee paid), withdrawn."
        ]
    }


def test_check_transition_says_a_final_status_becomes_nothing_without_an_article():
    with pytest.raises(ValidationError) as caught:
        check_transition(DEVICE_REQUEST_TRANSITIONS, "approved", DeviceRequestStatus.REJECTED, subject="a request")
    assert caught.value.message_dict["status"] == [
        "A request that is approved cannot become rejected; it can become: nothing (final)."
    ]


@pytest.mark.django_db
def test_a_withdrawn_entry_cannot_be_confirmed_by_a_fee_payment_1_1_a():
    director = SuperuserFactory()
    entry = TeamEntryFactory(status=EntryStatus.WITHDRAWN, fee_paid=False, fee_paid_at=None)
    with pytest.raises(ValidationError) as caught:
        tournament_services.entry_record_fee_paid(entry=entry, amount=entry.fee_due + Money(0, "USD"), by=director)
    assert caught.value.message_dict["status"] == [
        "Rule 1.1 A: an entry that is withdrawn cannot become confirmed (fee paid); it can become: nothing (final)."
    ]
    entry.refresh_from_db()
    assert entry.status == EntryStatus.WITHDRAWN and not entry.fee_paid


@pytest.mark.django_db
def test_audited_writes_name_the_acting_user_in_the_history():
    user = SuperuserFactory()
    federation = audited_create(Federation, user, name="Federación Española", short_name="ESP", country="ES")
    federation.name = "Real Federación Española"
    audited_save(federation, user, update_fields=["name"])
    pk = federation.pk
    audited_delete(federation, user)
    history = Federation.history.filter(id=pk).order_by("history_date")
    assert [(h.history_type, h.history_user) for h in history] == [("+", user), ("~", user), ("-", user)]


@pytest.mark.django_db
def test_audited_save_saves_only_the_fields_named():
    federation = FederationFactory(name="Old name", short_name="OLD")
    federation.name, federation.short_name = "New name", "NEW"
    audited_save(federation, None, update_fields=["name"])
    federation.refresh_from_db()
    assert (federation.name, federation.short_name) == ("New name", "OLD")
