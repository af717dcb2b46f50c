"""The pure deadline arithmetic of protests (9.1; R-51): no database, a controlled clock."""

import datetime
import zoneinfo

import pytest

from discipline import deadlines as dl
from tournaments.ruleset import ProtestRules

UTC = datetime.UTC
ROME = zoneinfo.ZoneInfo("Europe/Rome")
SECOND = datetime.timedelta(seconds=1)
RULES = ProtestRules()
ANCHOR = datetime.datetime(2027, 7, 2, 18, 0, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("kind", "minutes", "article"),
    [(dl.ADMINISTRATIVE, 90, "9.1 B"), (dl.RULING, 180, "9.1 A, D"), (dl.FEDERATION, 180, "9.1 C")],
)
def test_each_kind_is_in_time_one_second_before_and_at_its_deadline_and_late_one_second_after(kind, minutes, article):
    spec = dl.protest_deadline(kind, anchor=ANCHOR, rules=RULES)
    assert spec.article == article
    assert spec.due == ANCHOR + datetime.timedelta(minutes=minutes)
    assert spec.is_open(spec.due - SECOND)
    assert spec.is_open(spec.due)
    assert not spec.is_open(spec.due + SECOND)
    assert spec.remaining(spec.due - SECOND) == SECOND


def test_the_answer_deadline_runs_from_the_filing_by_the_ruleset_answer_time():
    filed = ANCHOR + datetime.timedelta(minutes=20)
    spec = dl.answer_deadline(filed_at=filed, rules=ProtestRules(answer_minutes=60))
    assert spec.kind == dl.ANSWER and spec.due == filed + datetime.timedelta(hours=1)
    assert spec.is_open(spec.due - SECOND) and not spec.is_open(spec.due + SECOND)
    assert dl.answer_deadline(filed_at=filed, rules=RULES).due == filed + datetime.timedelta(hours=3)


def test_the_windows_come_from_the_ruleset():
    rules = ProtestRules(administrative_confirm_minutes=30, ruling_minutes=60, federation_minutes=120)
    assert dl.protest_deadline(dl.ADMINISTRATIVE, anchor=ANCHOR, rules=rules).due == ANCHOR + datetime.timedelta(
        minutes=30
    )
    assert dl.protest_deadline(dl.RULING, anchor=ANCHOR, rules=rules).due == ANCHOR + datetime.timedelta(minutes=60)
    assert dl.protest_deadline(dl.FEDERATION, anchor=ANCHOR, rules=rules).due == ANCHOR + datetime.timedelta(
        minutes=120
    )


def test_a_deadline_across_the_autumn_daylight_saving_change_is_three_real_hours():
    # Rome leaves summer time at 03:00 CEST on 31 October 2027 (clocks go back to 02:00 CET).
    anchor = datetime.datetime(2027, 10, 31, 1, 0, tzinfo=ROME)  # 01:00 CEST = 23:00 UTC the day before
    spec = dl.protest_deadline(dl.RULING, anchor=anchor, rules=RULES)
    assert spec.anchor == datetime.datetime(2027, 10, 30, 23, 0, tzinfo=UTC)
    assert spec.due == datetime.datetime(2027, 10, 31, 2, 0, tzinfo=UTC)
    local = spec.local_due(ROME)
    # Three real hours after 01:00 CEST read 03:00 CET on the venue's clock, not 04:00.
    assert (local.hour, local.tzname()) == (3, "CET")
    assert spec.describe(ROME) == "Sun 31 Oct 2027, 03:00:00 CET"
    assert spec.is_open(datetime.datetime(2027, 10, 31, 3, 0, tzinfo=ROME))
    assert not spec.is_open(datetime.datetime(2027, 10, 31, 3, 0, 1, tzinfo=ROME))


def test_a_deadline_across_the_spring_daylight_saving_change_is_ninety_real_minutes():
    # Rome enters summer time at 02:00 CET on 28 March 2027 (clocks jump to 03:00 CEST).
    anchor = datetime.datetime(2027, 3, 28, 1, 15, tzinfo=ROME)
    spec = dl.protest_deadline(dl.ADMINISTRATIVE, anchor=anchor, rules=RULES)
    assert spec.due - spec.anchor == datetime.timedelta(minutes=90)
    assert spec.describe(ROME) == "Sun 28 Mar 2027, 03:45:00 CEST"


def test_naive_times_are_refused():
    with pytest.raises(ValueError, match="aware"):
        dl.protest_deadline(dl.RULING, anchor=datetime.datetime(2027, 7, 2, 18), rules=RULES)
    with pytest.raises(ValueError, match="unknown protest kind"):
        dl.protest_deadline("other", anchor=ANCHOR, rules=RULES)


def test_a_protest_lapses_only_after_its_deadline_and_only_with_its_fee_or_statement_missing():
    spec = dl.protest_deadline(dl.RULING, anchor=ANCHOR, rules=RULES)
    no_fee = dl.ProtestFacts(fee_due=True, fee_received=False, has_statement=True)
    complete = dl.ProtestFacts(fee_due=True, fee_received=True, has_statement=True)
    no_statement = dl.ProtestFacts(fee_due=False, fee_received=False, has_statement=False)
    assert no_fee.missing() == ("fee",) and no_statement.missing() == ("statement",) and complete.missing() == ()
    assert not dl.lapses(spec, no_fee, now=spec.due)
    assert dl.lapses(spec, no_fee, now=spec.due + SECOND)
    assert dl.lapses(spec, no_statement, now=spec.due + SECOND)
    assert not dl.lapses(spec, complete, now=spec.due + SECOND)
    # A federation's protest has no fee (9.1 C): a missing fee is not missing.
    assert dl.ProtestFacts(fee_due=False, fee_received=False, has_statement=True).missing() == ()


def test_the_reminder_is_due_thirty_minutes_before_while_something_is_missing():
    spec = dl.protest_deadline(dl.RULING, anchor=ANCHOR, rules=RULES)
    no_fee = dl.ProtestFacts(fee_due=True, fee_received=False, has_statement=True)
    at = spec.due - dl.REMINDER_BEFORE
    assert spec.reminder_at() == at
    assert not dl.reminder_due(spec, no_fee, now=at - SECOND)
    assert dl.reminder_due(spec, no_fee, now=at)
    assert not dl.reminder_due(spec, no_fee, now=spec.due + SECOND)
    assert not dl.reminder_due(spec, dl.ProtestFacts(True, True, True), now=at)
    short = dl.DeadlineSpec(dl.PROTEST, "9.1 B", ANCHOR, ANCHOR + datetime.timedelta(minutes=10))
    assert short.reminder_at() == ANCHOR
