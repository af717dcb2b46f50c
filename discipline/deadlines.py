"""Deadline arithmetic of protests (9.1; R-51): plain functions over dataclasses, no database.

A deadline is anchored on a recorded server time (the sheet's receipt of the event that ended the game, or of
the incident; never a device's clock nor the time a page is shown) and falls ``window`` later, in UTC: an
aware UTC datetime plus a ``timedelta`` is exact elapsed time, so a daylight-saving change in the venue's time
zone moves neither the anchor nor the due time, only how the due time reads on the venue's clock
(``DeadlineSpec.local_due``). A deadline is met by an act at or before its due time and missed one second
later (``is_open``: ``now <= due``).
"""

from __future__ import annotations

import datetime
import zoneinfo
from dataclasses import dataclass

from common.text import Moment, _
from tournaments.ruleset import ProtestRules

UTC = datetime.UTC

# Protest kinds (the model's ProtestKind values).
ADMINISTRATIVE = "administrative"
RULING = "ruling"
FEDERATION = "federation"

# Deadline kinds (the model's DeadlineKind values).
PROTEST = "protest"  # the written protest (with its fee, if one is due) must be in by then
ANSWER = "answer"  # the opposing team may answer in writing until then

# A reminder goes out this long before a protest lapses for want of its fee or statement (issue 10).
REMINDER_BEFORE = datetime.timedelta(minutes=30)


@dataclass(frozen=True)
class KindRule:
    """What the rules say about one protest kind: its article, what anchors it, and whether a fee is due."""

    article: str
    anchor: str  # "game_end" or "incident"
    fee_due: bool
    window_attribute: str  # the ProtestRules property giving the window


KIND_RULES: dict[str, KindRule] = {
    # 9.1 B: made before the start; confirmed in writing with the fee within 1 h 30 min of the game's end.
    ADMINISTRATIVE: KindRule("9.1 B", "game_end", True, "administrative_confirm_window"),
    # 9.1 A, D: a referee's ruling, protested on the rink, written with the fee within 3 h of the incident.
    RULING: KindRule("9.1 A, D", "incident", True, "ruling_window"),
    # 9.1 C: a federation's protest about an incident: written, within 3 h of the incident (no fee in 9.1 C).
    FEDERATION: KindRule("9.1 C", "incident", False, "federation_window"),
}

# Stored with the deadline, and said in the reader's language where it is shown (``Deadline.article_said``).
ANSWER_ARTICLE = _("9.1 A (the opposing team is informed); R-51 answer time")


@dataclass(frozen=True)
class DeadlineSpec:
    """One deadline: its kind, article, anchor (a recorded server time) and due time, both aware UTC."""

    kind: str
    article: str
    anchor: datetime.datetime
    due: datetime.datetime

    def local_due(self, tz: zoneinfo.ZoneInfo | datetime.tzinfo) -> datetime.datetime:
        """The due time on the venue's clock (display only: comparisons use ``due``)."""
        return self.due.astimezone(tz)

    def is_open(self, now: datetime.datetime) -> bool:
        """Whether an act at ``now`` is in time: at the due time still is, one second later no longer."""
        return _utc(now) <= self.due

    def remaining(self, now: datetime.datetime) -> datetime.timedelta:
        """Time left at ``now`` (negative once past)."""
        return self.due - _utc(now)

    def reminder_at(self, before: datetime.timedelta = REMINDER_BEFORE) -> datetime.datetime:
        """When the reminder before the due time is due (never before the anchor)."""
        return max(self.anchor, self.due - before)

    def describe(self, tz: zoneinfo.ZoneInfo | datetime.tzinfo) -> Moment:
        """The due time as a refusal cites it: the venue's local time and its zone."""
        return moment_text(self.local_due(tz))


def moment_text(local: datetime.datetime) -> Moment:
    """A local moment as a refusal or a notification says it, to the second (R-51): "Sat 3 Jul 2027, 13:30:00 CEST"
    in English, said in the reader's language and locale where it is shown (a ``common.text.Moment``)."""
    return Moment(local, "second")


def _utc(moment: datetime.datetime) -> datetime.datetime:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("deadline arithmetic needs aware datetimes (R-51: recorded server times)")
    return moment.astimezone(UTC)


def protest_deadline(kind: str, *, anchor: datetime.datetime, rules: ProtestRules) -> DeadlineSpec:
    """The deadline of the written protest of ``kind`` anchored on ``anchor`` (R-51 windows of the ruleset)."""
    try:
        rule = KIND_RULES[kind]
    except KeyError:
        raise ValueError(f"unknown protest kind {kind!r}") from None
    window: datetime.timedelta = getattr(rules, rule.window_attribute)
    start = _utc(anchor)
    return DeadlineSpec(PROTEST, rule.article, start, start + window)


def answer_deadline(*, filed_at: datetime.datetime, rules: ProtestRules) -> DeadlineSpec:
    """The opposing team's time to answer in writing, from the server time the protest was filed."""
    start = _utc(filed_at)
    return DeadlineSpec(ANSWER, ANSWER_ARTICLE, start, start + rules.answer_window)


@dataclass(frozen=True)
class ProtestFacts:
    """What decides whether a filed protest lapses at its deadline: is the fee in (if due), the statement?"""

    fee_due: bool
    fee_received: bool
    has_statement: bool

    def missing(self) -> tuple[str, ...]:
        """What is still missing ("fee", "statement"), in that order."""
        gaps = []
        if self.fee_due and not self.fee_received:
            gaps.append("fee")
        if not self.has_statement:
            gaps.append("statement")
        return tuple(gaps)


def lapses(deadline: DeadlineSpec, facts: ProtestFacts, *, now: datetime.datetime) -> bool:
    """Whether a protest lapses at ``now``: its deadline is past and its fee or statement is missing."""
    return not deadline.is_open(now) and bool(facts.missing())


def reminder_due(deadline: DeadlineSpec, facts: ProtestFacts, *, now: datetime.datetime) -> bool:
    """Whether the reminder is due at ``now``: within the reminder time before the deadline, something missing."""
    return deadline.is_open(now) and _utc(now) >= deadline.reminder_at() and bool(facts.missing())
