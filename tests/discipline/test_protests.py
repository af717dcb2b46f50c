"""The protest workflow's services (9.1; R-50 to R-52): roles, deadlines with a controlled clock, audit."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from djmoney.money import Money

from accounts.models import Role
from discipline import protests as svc
from discipline.deadlines import moment_text
from discipline.models import (
    Deadline,
    DeadlineKind,
    DeadlineStatus,
    FeeOutcome,
    Protest,
    ProtestStatus,
    ProtestTransition,
)
from games.models import SheetEvent
from portal.models import Notification
from tests.factories import GameFactory, federation_staff, html_upload, jpeg_upload, pdf_upload, with_role

from .protest_helpers import END_AT, INCIDENT_AT, SECOND, file_as_home, manager_of, world, world_decided

pytestmark = pytest.mark.django_db

HOUR = datetime.timedelta(hours=1)


@pytest.fixture
def w():
    return world()


def file_ruling(w, *, now=INCIDENT_AT + HOUR, statement="The goal was scored after the whistle.", **kwargs):
    return file_as_home(w, "ruling", w.on_rink_protest, now=now, statement=statement, **kwargs)


def keys(protest):
    return set(Notification.objects.filter(key__startswith=f"protest:{protest.pk}:").values_list("key", "user_id"))


# --- Filing and its deadlines (R-51) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "incident", "anchor", "window"),
    [
        ("administrative", "mark", END_AT, datetime.timedelta(minutes=90)),
        ("ruling", "on_rink_protest", INCIDENT_AT, datetime.timedelta(hours=3)),
        ("federation", "penalty", INCIDENT_AT, datetime.timedelta(hours=3)),
    ],
)
def test_filing_one_second_before_the_deadline_is_taken_and_one_second_after_refused(w, kind, incident, anchor, window):
    key = f"mark:{w.mark.pk}" if incident == "mark" else getattr(w, incident)
    due = anchor + window
    late = ValidationError
    with pytest.raises(late) as refused:
        svc.protest_file(by=w.home_manager, game=w.game, entry=w.game.home, kind=kind, incident=key, now=due + SECOND)
    message = refused.value.message_dict["incident"][0]
    article = {"administrative": "9.1 B", "ruling": "9.1 A, D", "federation": "9.1 C"}[kind]
    assert message.startswith(f"Rule {article}: the written protest was due by ")
    # The deadline in the venue's time (Rome, CEST in July).
    assert moment_text(due.astimezone(w.game.championship.venue.zone)) in message
    assert not Protest.objects.exists()
    protest = svc.protest_file(
        by=w.home_manager, game=w.game, entry=w.game.home, kind=kind, incident=key, now=due - SECOND
    )
    deadline = protest.deadlines.get(kind=DeadlineKind.PROTEST)
    assert (deadline.anchor_at, deadline.due_at, deadline.article) == (anchor, due, article)
    assert protest.incident_at == anchor
    assert (protest.fee_due is None) == (kind == "federation")


def test_the_deadline_is_anchored_on_the_server_time_never_the_device_clock(w):
    protest = svc.protest_file(
        by=w.home_manager,
        game=w.game,
        entry=w.game.home,
        kind="administrative",
        incident=f"mark:{w.mark.pk}",
        now=END_AT,
    )
    assert protest.deadlines.get(kind=DeadlineKind.PROTEST).anchor_at == END_AT  # the device said 5 min earlier


def test_a_game_without_a_sheet_is_anchored_on_its_finalized_result():
    game = GameFactory(finalized_at=datetime.datetime(2027, 7, 1, 10, 0, tzinfo=datetime.UTC))
    assert svc.game_end_at(game) == game.finalized_at
    assert svc.game_end_at(GameFactory()) is None


def test_the_sheets_own_end_anchors_an_administrative_protest_without_a_game_end_9_1_b():
    """9.1 B: the game ends when period 2 ends with a winner (1.2 A, 1.3 A); the sheet's receipt of that end is
    the anchor, no ``game_end`` entry needed."""
    w = world_decided(END_AT)
    assert not SheetEvent.objects.filter(sheet__game=w.game, payload__type="game_end").exists()
    assert svc.game_end_at(w.game) == END_AT
    due = END_AT + datetime.timedelta(minutes=90)
    mark = f"mark:{w.mark.pk}"
    with pytest.raises(ValidationError) as refused:
        file_as_home(w, "administrative", mark, now=due + SECOND)
    assert refused.value.message_dict["incident"][0].startswith("Rule 9.1 B: the written protest was due by ")
    protest = file_as_home(w, "administrative", mark, now=due - SECOND)
    deadline = protest.deadlines.get(kind=DeadlineKind.PROTEST)
    assert (deadline.anchor_at, deadline.due_at, deadline.article) == (END_AT, due, "9.1 B")
    assert protest.incident_at == END_AT


def test_a_game_still_played_on_its_sheet_has_no_end_to_anchor_on_9_1_b():
    w = world_decided(END_AT, ended=False)
    assert svc.game_end_at(w.game) is None
    with pytest.raises(ValidationError) as refused:
        file_as_home(w, "administrative", f"mark:{w.mark.pk}", now=END_AT)
    assert "the game has not ended yet" in refused.value.message_dict["incident"][0]
    assert not Protest.objects.exists()


def test_a_ruling_protest_needs_the_on_rink_protest_on_the_sheet_r_50(w):
    with pytest.raises(ValidationError) as refused:
        svc.protest_file(
            by=w.away_manager,
            game=w.game,
            entry=w.game.away,
            kind="ruling",
            incident=w.on_rink_protest,
            now=INCIDENT_AT,
        )
    assert refused.value.message_dict["incident"][0].startswith("R-50, Rule 9.1 A:")


def test_an_administrative_protest_needs_the_mark_made_before_the_start_9_1_b(w):
    with pytest.raises(ValidationError) as refused:
        svc.protest_file(
            by=w.away_manager, game=w.game, entry=w.game.away, kind="administrative", incident="mark:0", now=END_AT
        )
    assert refused.value.message_dict["incident"][0].startswith("Rule 9.1 B: only an administrative protest made")


def test_only_a_manager_of_the_protesting_team_files(w):
    for user in (w.away_manager, w.committee, w.staff, with_role(Role.TEAM_MANAGER)):
        with pytest.raises(PermissionDenied):
            svc.protest_file(
                by=user, game=w.game, entry=w.game.home, kind="ruling", incident=w.on_rink_protest, now=INCIDENT_AT
            )
    assert not Protest.objects.exists()


def test_attachments_are_checked_by_content_before_anything_is_stored(w, settings, tmp_path):
    settings.STORAGES = {
        **settings.STORAGES,
        "private": {"BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": {"location": str(tmp_path)}},
    }
    with pytest.raises(ValidationError) as refused:
        file_ruling(w, attachments=[pdf_upload(), html_upload()])
    assert "attachments" in refused.value.message_dict and not Protest.objects.exists()
    protest = file_ruling(w, attachments=[pdf_upload(), jpeg_upload()])
    assert sorted(a.content_type for a in protest.attachments.all()) == ["application/pdf", "image/jpeg"]


def test_filing_tells_both_teams_once_with_the_deadline_and_the_fee(w):
    protest = file_ruling(w)
    assert keys(protest) == {
        (f"protest:{protest.pk}:filed", w.home_manager.pk),
        (f"protest:{protest.pk}:filed", w.away_manager.pk),
    }
    body = Notification.objects.filter(user=w.away_manager).get().body
    assert "Rule 9.1 A, D" in body and "$200.00" in body
    assert [t.to_status for t in protest.transitions.all()] == [ProtestStatus.FILED]
    assert protest.history.count() == 1


def test_the_same_incident_is_protested_once(w):
    file_ruling(w)
    with pytest.raises(ValidationError, match="already protested"):
        file_ruling(w)


# --- The fee, the review and the decision -------------------------------------------------------------------


def test_the_fee_is_recorded_by_the_sanctioning_bodys_staff_and_meets_the_deadline(w):
    protest = file_ruling(w)
    for user in (w.home_manager, w.committee, federation_staff()):
        with pytest.raises(PermissionDenied):
            svc.protest_record_fee(by=user, protest=protest, amount=Money(200, "USD"), method="cash")
    with pytest.raises(ValidationError) as refused:
        svc.protest_record_fee(by=w.staff, protest=protest, amount=Money(150, "USD"), method="cash")
    assert refused.value.message_dict["amount"][0].startswith("R-52: the fee is")
    protest = svc.protest_record_fee(
        by=w.staff, protest=protest, amount=Money(185, "EUR"), method="transfer", now=INCIDENT_AT + 2 * HOUR
    )
    assert protest.fee_received == Money(185, "EUR") and protest.fee_received_by == w.staff
    assert protest.deadlines.get(kind=DeadlineKind.PROTEST).status == DeadlineStatus.MET
    with pytest.raises(ValidationError, match="recorded already"):
        svc.protest_record_fee(by=w.staff, protest=protest, amount=Money(200, "USD"), method="cash")


def test_the_committee_upholds_and_the_fee_is_returned_with_an_audit_row_per_transition(w):
    protest = file_ruling(w)
    with pytest.raises(ValidationError, match="fee has not been received"):
        svc.protest_start_review(by=w.committee, protest=protest)
    svc.protest_record_fee(by=w.staff, protest=protest, amount=Money(200, "USD"), method="cash")
    with pytest.raises(PermissionDenied):
        svc.protest_start_review(by=w.staff, protest=protest)
    svc.protest_start_review(by=w.committee, protest=protest, reason="Complete.")
    with pytest.raises(ValidationError) as refused:
        svc.protest_uphold(by=w.committee, protest=protest, reason="")
    assert "reason" in refused.value.message_dict
    for user in (w.home_manager, w.staff):
        with pytest.raises(PermissionDenied):
            svc.protest_uphold(by=user, protest=protest, reason="x")
    protest = svc.protest_uphold(by=w.committee, protest=protest, reason="The whistle came first.")
    assert protest.status == ProtestStatus.UPHELD and protest.fee_outcome == FeeOutcome.RETURNED
    rows = list(protest.transitions.order_by("pk").values_list("from_status", "to_status", "by_id", "reason"))
    assert rows == [
        ("", "filed", w.home_manager.pk, ""),
        ("filed", "under_review", w.committee.pk, "Complete."),
        ("under_review", "upheld", w.committee.pk, "The whistle came first."),
    ]
    assert {k for k, _ in keys(protest)} >= {f"protest:{protest.pk}:upheld", f"protest:{protest.pk}:under_review"}
    assert Notification.objects.filter(key=f"protest:{protest.pk}:upheld").count() == 2
    with pytest.raises(ValidationError, match="Rule 9.1 A: A protest that is upheld cannot become rejected"):
        svc.protest_reject(by=w.committee, protest=protest, reason="x")


def test_an_executive_rejects_and_the_fee_is_forfeited(w):
    protest = file_ruling(w)
    svc.protest_record_fee(by=w.staff, protest=protest, amount=Money(200, "USD"), method="cash")
    executive = with_role(Role.IHTC_EXECUTIVE)
    svc.protest_start_review(by=executive, protest=protest)
    protest = svc.protest_reject(by=executive, protest=protest, reason="Unjustified.")
    assert (protest.status, protest.fee_outcome) == (ProtestStatus.REJECTED, FeeOutcome.FORFEITED)


def test_the_filer_withdraws_and_the_opponent_answers_within_its_time(w):
    protest = file_ruling(w, now=INCIDENT_AT)
    due = protest.deadlines.get(kind=DeadlineKind.ANSWER).due_at
    assert due == INCIDENT_AT + 3 * HOUR
    with pytest.raises(PermissionDenied):
        svc.protest_answer(by=w.home_manager, protest=protest, answer="x", now=due)
    with pytest.raises(ValidationError, match="the answer was due by"):
        svc.protest_answer(by=w.away_manager, protest=protest, answer="No.", now=due + SECOND)
    protest = svc.protest_answer(by=w.away_manager, protest=protest, answer="The whistle came late.", now=due - SECOND)
    assert protest.answered_by == w.away_manager
    assert Notification.objects.filter(key=f"protest:{protest.pk}:answered").count() == 2
    told = Notification.objects.filter(key=f"protest:{protest.pk}:answered").first()
    assert told.body_message == {"words": "The whistle came late."}  # the team's own words, stored as words
    assert told.shown_body == "The whistle came late."
    assert told.shown_body_html == '<span class="their-words" translate="no">The whistle came late.</span>'
    with pytest.raises(PermissionDenied):
        svc.protest_withdraw(by=w.away_manager, protest=protest)
    protest = svc.protest_withdraw(by=w.home_manager, protest=protest, reason="Settled.")
    assert protest.status == ProtestStatus.WITHDRAWN
    assert not Deadline.objects.filter(protest=protest, status=DeadlineStatus.OPEN).exists()


def test_a_statement_may_follow_the_filing_within_the_deadline(w):
    protest = file_ruling(w, statement="")
    due = protest.deadlines.get(kind=DeadlineKind.PROTEST).due_at
    with pytest.raises(ValidationError, match="was due by"):
        svc.protest_add_statement(by=w.home_manager, protest=protest, statement="Late.", now=due + SECOND)
    protest = svc.protest_add_statement(by=w.home_manager, protest=protest, statement="In time.", now=due - SECOND)
    assert protest.statement == "In time."


# --- The deadlines the sweep enforces -----------------------------------------------------------------------


def test_a_protest_missing_its_fee_lapses_after_its_deadline_once(w):
    protest = file_ruling(w)
    deadline = protest.deadlines.get(kind=DeadlineKind.PROTEST)
    assert svc.due_deadline_ids(now=deadline.due_at) == []
    assert svc.deadline_expire(deadline.pk, now=deadline.due_at) == "nothing"
    assert svc.due_deadline_ids(now=deadline.due_at + SECOND) == [deadline.pk]
    assert svc.deadline_expire(deadline.pk, now=deadline.due_at + SECOND) == "lapsed"
    protest.refresh_from_db()
    assert protest.status == ProtestStatus.LAPSED
    last = protest.transitions.last()
    assert (last.by, last.from_status) == (None, "filed") and "the fee (R-52) missing" in last.reason
    told = Notification.objects.count()
    history = protest.history.count()
    # Run twice: nothing changes and nothing is sent the second time.
    assert svc.deadline_expire(deadline.pk, now=deadline.due_at + 2 * SECOND) == "nothing"
    assert (Notification.objects.count(), protest.history.count(), protest.transitions.count()) == (told, history, 2)
    assert Notification.objects.filter(key=f"protest:{protest.pk}:lapsed").count() == 2


def test_a_complete_protest_meets_its_deadline_and_does_not_lapse(w):
    protest = file_ruling(w)
    svc.protest_record_fee(by=w.staff, protest=protest, amount=Money(200, "USD"), method="cash")
    assert not svc.due_deadline_ids(now=INCIDENT_AT + 4 * HOUR) or protest.deadlines.get(kind="protest").status == "met"
    protest.refresh_from_db()
    assert protest.status == ProtestStatus.FILED


def test_the_reminder_goes_thirty_minutes_before_the_lapse_to_the_filer_once(w):
    protest = file_ruling(w)
    deadline = protest.deadlines.get(kind=DeadlineKind.PROTEST)
    at = deadline.due_at - datetime.timedelta(minutes=30)
    assert deadline.pk not in svc.reminder_deadline_ids(now=at - SECOND)
    assert deadline.pk in svc.reminder_deadline_ids(now=at)
    assert svc.deadline_remind(deadline.pk, now=at) == "reminded"
    reminder = Notification.objects.get(key=f"protest:{protest.pk}:reminder:protest")
    assert reminder.user == w.home_manager and "the fee of $200.00" in reminder.body
    assert svc.deadline_remind(deadline.pk, now=at + SECOND) == "nothing"
    deadline.refresh_from_db()
    assert deadline.reminder_sent_at == at
    assert Notification.objects.filter(key__contains="reminder").count() == 1


def test_the_answer_time_passes_without_changing_the_protest(w):
    protest = file_ruling(w)
    answer = protest.deadlines.get(kind=DeadlineKind.ANSWER)
    assert svc.deadline_expire(answer.pk, now=answer.due_at + SECOND) == "passed"
    protest.refresh_from_db()
    assert protest.status in (ProtestStatus.FILED, ProtestStatus.LAPSED)


def test_a_second_manager_of_the_team_files_too_and_the_transitions_table_is_audited(w):
    other = manager_of(w.game.home)
    protest = svc.protest_file(
        by=other,
        game=w.game,
        entry=w.game.home,
        kind="federation",
        incident=w.penalty,
        statement="x",
        now=INCIDENT_AT,
    )
    assert protest.filed_by == other and protest.deadlines.get(kind="protest").status == DeadlineStatus.MET
    assert ProtestTransition.objects.filter(protest=protest).count() == 1
