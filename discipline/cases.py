"""Incident reports, confidential reports, the committee's cases and decisions (4.2 P, 6.1.5 A, 6.4.29 note,
7.1, 8.2; R-53). Each state change in one transaction, audited (simple-history; ``CaseTransition`` rows say
who, when, from, to and why). Every service re-checks access with the acting user (``by=``).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from common.text import Text, said, said_in
from discipline import suspension_rules as sr
from discipline.access import check_can_file_confidential, check_committee
from discipline.involved import sanction_candidates
from discipline.models import (
    CASE_TRANSITIONS,
    Attachment,
    Case,
    CaseStatement,
    CaseStatus,
    CaseTransition,
    ConfidentialKind,
    ConfidentialReport,
    ConsequenceKind,
    Decision,
    DecisionOutcome,
    GameConsequence,
    IncidentReport,
    Protest,
    ProtestKind,
    ReportStatus,
    Suspension,
    SuspensionKind,
    SuspensionStatus,
)
from discipline.suspensions import close as close_suspension
from discipline.suspensions import count_past_games, tell_about
from federation.files import check_scan_upload
from portal.i18n import storable, untranslated
from portal.services import audited_create, audited_save, check_transition
from tournaments.models import Game
from tournaments.venue_time import venue_stamp

# --- incident reports (4.2 P, 6.1.5 A; R-53) --------------------------------------------------------------------


def _officials(game: Game) -> str:
    from games.models import GameOfficial  # the games app sits beside this one

    return "; ".join(
        f"{o.get_duty_display()} {o.position}: {o.person}"
        for o in GameOfficial.objects.filter(game=game).select_related("person")
    )


def report_consequence(consequence: GameConsequence, *, now: datetime.datetime) -> IncidentReport:
    """Make (or bring up to date) the incident report of a consequence received from a final game."""
    fields = {
        "game": consequence.game,
        "entry_id": consequence.entry_id,
        "person_id": consequence.person_id,
        "kind": consequence.kind,
        "period": consequence.period,
        "time_tenths": consequence.time_tenths,
        "infraction": consequence.infraction,
        "article": consequence.article,
        "officials": _officials(consequence.game),
    }
    report = IncidentReport.objects.select_for_update().filter(consequence=consequence).first()
    if report is None:
        return IncidentReport.objects.create(consequence=consequence, created_at=now, **fields)
    for key, value in fields.items():
        setattr(report, key, value)
    if report.status == ReportStatus.WITHDRAWN:
        report.status = ReportStatus.IN_CASE if report.case_id else ReportStatus.OPEN
    report.save()
    return report


def withdraw_report(consequence: GameConsequence, *, now: datetime.datetime) -> None:
    """The sheet's amendment removed the penalty: its report leaves the queue (a case keeps it, marked)."""
    for report in IncidentReport.objects.select_for_update().filter(consequence=consequence):
        report.status = ReportStatus.WITHDRAWN
        report.save(update_fields=["status"])


# --- confidential reports and attachments -----------------------------------------------------------------------


def _check_attachments(files: Sequence) -> list[str]:
    return [check_scan_upload(f, field="attachments") for f in files]


def _attach(uploads: Sequence, types: Sequence[str], *, by: User, now: datetime.datetime, **owner) -> None:
    """Store checked uploads (``_check_attachments``) as attachments of ``owner`` (a report or a case)."""
    for upload, content_type in zip(uploads, types, strict=True):
        audited_create(Attachment, by, file=upload, content_type=content_type, uploaded_by=by, uploaded_at=now, **owner)


def file_confidential_report(
    *, game: Game, kind: str, text: str, by: User, attachments: Sequence = (), incident_report=None, now=None
) -> ConfidentialReport:
    """File the referee's report (4.2 P) or a 6.4.29 confidential report, with its attachments (JPEG, PNG, PDF
    by content, at most 5 MB each, like passport scans). CONFIDENTIAL (``discipline.access``)."""
    if kind not in ConfidentialKind.values:
        raise ValidationError(
            {"kind": gettext("Choose one of: %(choices)s.") % {"choices": ", ".join(ConfidentialKind.values)}}
        )
    check_can_file_confidential(by, game, kind)
    if not (text or "").strip():
        raise ValidationError({"text": gettext("Rule 6.4.29: write the report.")})
    if incident_report is not None and incident_report.game_id != game.pk:
        raise ValidationError({"incident_report": gettext("The incident report is of another game.")})
    types = _check_attachments(attachments)
    now = now or timezone.now()
    with transaction.atomic():
        report = audited_create(
            ConfidentialReport, by, game=game, kind=kind, text=text.strip(), author=by, filed_at=now,
            incident_report=incident_report,
        )  # fmt: skip
        _attach(attachments, types, by=by, now=now, report=report)
    return report


# --- cases ------------------------------------------------------------------------------------------------------


def _transition(case: Case, to: str, *, by: User, why: str, now: datetime.datetime) -> None:
    """Move ``case`` to ``to`` with its transition row; a ``why`` the portal wrote (a ``Text``) is stored as its
    message too (issue 26), the committee's own words as written."""
    check_transition(CASE_TRANSITIONS, case.status, to, subject=gettext("A case"), field="status", article="R-53")
    CaseTransition.objects.create(
        case=case, from_status=case.status, to_status=to, by=by, at=now, why=why, why_message=storable(why)
    )
    case.status = to


TITLE_MAX_LENGTH = Case._meta.get_field("title").max_length


def open_case(
    *,
    reports: Sequence[IncidentReport] = (),
    protests: Sequence[Protest] = (),
    title: str,
    by: User,
    why: str = "",
    now=None,
) -> Case:
    """Open a case gathering open incident reports and protests of one championship (R-53; a federation's
    protest about an incident, 9.1 C, may be all a case is about)."""
    check_committee(by)
    if not reports and not protests:
        raise ValidationError({"reports": gettext("R-53: a case gathers at least one incident report or protest.")})
    if len((title or "").strip()) > TITLE_MAX_LENGTH:
        raise ValidationError(
            {
                "title": gettext("A case's title has at most %(max_length)s characters.")
                % {"max_length": TITLE_MAX_LENGTH}
            }
        )
    now = now or timezone.now()
    with transaction.atomic():
        locked = list(
            IncidentReport.objects.select_for_update().filter(pk__in=[r.pk for r in reports]).select_related("game")
        )
        locked_protests = _locked_protests(protests)
        championships = {r.game.championship_id for r in locked} | {p.game.championship_id for p in locked_protests}
        if len(championships) != 1:
            raise ValidationError(
                {"reports": gettext("R-53: a case gathers the reports and protests of one championship.")}
            )
        if any(r.status != ReportStatus.OPEN for r in locked):
            raise ValidationError({"reports": gettext("R-53: only open reports can be gathered into a new case.")})
        first = locked[0] if locked else locked_protests[0]
        default = None if (title or "").strip() else default_title(first)
        case = audited_create(
            Case, by, title=(title or "").strip() or str(default), title_message=storable(default),
            championship_id=championships.pop(), opened_at=now, opened_by=by,
        )  # fmt: skip
        CaseTransition.objects.create(
            case=case, from_status="", to_status=CaseStatus.OPEN, by=by, at=now, why=why or "opened"
        )
        for report in locked:
            report.case, report.status = case, ReportStatus.IN_CASE
            audited_save(report, by)
        for protest in locked_protests:
            _gather(case, protest, by)
    return case


# A protest's kind, as a case's default title names it (the first words of ProtestKind's labels).
PROTEST_KIND_NAMES = {
    ProtestKind.ADMINISTRATIVE: said_in("protest kind", "Administrative"),
    ProtestKind.RULING: said_in("protest kind", "Against a referee's ruling"),
    ProtestKind.FEDERATION: said_in("protest kind", "A federation's protest about an incident"),
}


def default_title(first: IncidentReport | Protest) -> Text:
    """A case's title when the committee gives none (R-53): "Case: " and what it is about, its first report or
    protest, stored as a message said in the reader's language. Its English is the one written before (issue 26)."""
    if isinstance(first, Protest):
        what = said(
            "Protest #{number} ({kind}) of {entry}",
            number=first.pk,
            kind=PROTEST_KIND_NAMES.get(first.kind, first.kind),
            entry=str(first.entry),
        )
    else:
        what = said(
            "{game}: {kind} ({article})",
            game=str(first.game),
            kind=untranslated(ConsequenceKind(first.kind).label),
            article=first.article,
        )
    return said("Case: {what}", what=what)


def _locked_protests(protests: Sequence[Protest]) -> list[Protest]:
    return list(
        Protest.objects.select_for_update(of=("self",))
        .filter(pk__in=[p.pk for p in protests])
        .select_related("game")
        .order_by("pk")
    )


def _gather(case: Case, protest: Protest, by: User) -> None:
    """Put a locked ``protest`` in ``case`` (R-53): of the case's championship, in no other case."""
    if protest.game.championship_id != case.championship_id:
        raise ValidationError({"protest": gettext("R-53: a case gathers the protests of its own championship.")})
    if protest.case_id not in (None, case.pk):
        raise ValidationError(
            {
                "protest": gettext("R-53: protest #%(pk)s is in case #%(case_id)s already.")
                % {"pk": protest.pk, "case_id": protest.case_id}
            }
        )
    protest.case = case
    audited_save(protest, by)


def gather_protest(*, case: Case, protest: Protest, by: User) -> None:
    """The committee gathers a protest into a case not yet decided (R-53): its statement, answer and files then
    stand beside the case's reports; the protest's own workflow (9.1 A) goes on as it was."""
    check_committee(by)
    with transaction.atomic():
        case = Case.objects.select_for_update().get(pk=case.pk)
        if case.status == CaseStatus.DECIDED:
            raise ValidationError({"case": gettext("R-53: the case is decided.")})
        found = _locked_protests([protest])
        if not found:
            raise ValidationError({"protest": gettext("R-53: no such protest.")})
        _gather(case, found[0], by)


def gather_report(*, case: Case, report: IncidentReport, by: User, now=None) -> None:
    check_committee(by)
    with transaction.atomic():
        case = Case.objects.select_for_update().get(pk=case.pk)
        report = IncidentReport.objects.select_for_update().select_related("game").get(pk=report.pk)
        if case.status == CaseStatus.DECIDED:
            raise ValidationError({"case": gettext("R-53: the case is decided.")})
        if report.status != ReportStatus.OPEN or report.game.championship_id != case.championship_id:
            raise ValidationError(
                {"report": gettext("R-53: only an open report of the case's championship is gathered.")}
            )
        report.case, report.status = case, ReportStatus.IN_CASE
        audited_save(report, by)


def schedule_hearing(*, case: Case, hearing_at: datetime.datetime, by: User, why: str = "", now=None) -> Case:
    check_committee(by)
    if hearing_at is None or timezone.is_naive(hearing_at):
        raise ValidationError({"hearing_at": gettext("Give the hearing's date and time.")})
    now = now or timezone.now()
    with transaction.atomic():
        case = Case.objects.select_for_update().get(pk=case.pk)
        _transition(
            case,
            CaseStatus.HEARING,
            by=by,
            why=why or said("hearing on {moment}", moment=venue_stamp(hearing_at, case.championship)),
            now=now,
        )
        case.hearing_at = hearing_at
        audited_save(case, by)
    return case


def add_statement(*, case: Case, text: str, by: User, attachments: Sequence = (), now=None) -> CaseStatement:
    check_committee(by)
    if not (text or "").strip():
        raise ValidationError({"text": gettext("Write the statement.")})
    types = _check_attachments(attachments)
    now = now or timezone.now()
    with transaction.atomic():
        case = Case.objects.select_for_update().get(pk=case.pk)
        if case.status == CaseStatus.DECIDED:
            raise ValidationError({"case": gettext("R-53: the case is decided.")})
        statement = audited_create(CaseStatement, by, case=case, text=text.strip(), author=by, made_at=now)
        _attach(attachments, types, by=by, now=now, case=case)
    return statement


@dataclass(frozen=True)
class Sanction:
    """A suspension the committee decides: N games, until a time (a period; one year or more for 8.2 B), or the
    rest of the tournament."""

    person_id: int
    kind: str
    article: str
    games: int | None = None
    until: datetime.datetime | None = None


def check_sanction(sanction: Sanction, *, persons: set[int], now: datetime.datetime) -> None:
    if sanction.person_id not in persons:
        raise ValidationError(
            {
                "sanctions": gettext(
                    "R-53: a sanction is for a person of the case: named in its reports or its protests' incidents, or on its games' line-ups."
                )
            }
        )
    if sanction.kind == SuspensionKind.GAMES and not (sanction.games and sanction.games >= 1):
        raise ValidationError({"sanctions": gettext("Rule 8.2: a suspension for games names at least one game.")})
    if sanction.kind == SuspensionKind.PERIOD:
        if sanction.until is None or sanction.until <= now:
            raise ValidationError(
                {"sanctions": gettext("Rule 8.2: a suspension for a period ends after the decision.")}
            )
        if sanction.article.replace(" ", "") == "8.2B" and sanction.until < now + datetime.timedelta(days=365):
            raise ValidationError({"sanctions": gettext("Rule 8.2 B: the suspension is for one year or more.")})
    if sanction.kind not in (SuspensionKind.GAMES, SuspensionKind.PERIOD, SuspensionKind.REST_OF_TOURNAMENT):
        raise ValidationError(
            {"sanctions": gettext("Rule 8.2: N games, a period of time or the rest of the tournament.")}
        )


def decide_case(
    *, case: Case, outcome: str, reasons: str, by: User, sanctions: Sequence[Sanction] = (), now=None
) -> Decision:
    """Record the committee's decision with reasons: no action, or sanctions (suspensions, 8.2; R-53).

    The decision replaces the provisional suspensions of the case's reports (7.1: "until the committee
    decides"); each sanction becomes a decided suspension (games served since the offence count).
    """
    check_committee(by)
    now = now or timezone.now()
    if outcome not in DecisionOutcome.values:
        raise ValidationError(
            {"outcome": gettext("Choose one of: %(choices)s.") % {"choices": ", ".join(DecisionOutcome.values)}}
        )
    if not (reasons or "").strip():
        raise ValidationError({"reasons": gettext("R-53: the decision gives its reasons.")})
    if outcome == DecisionOutcome.SANCTIONS and not sanctions:
        raise ValidationError({"sanctions": gettext("R-53: a decision with sanctions names at least one.")})
    if outcome == DecisionOutcome.NO_ACTION and sanctions:
        raise ValidationError({"sanctions": gettext("R-53: a decision of no action has no sanctions.")})
    with transaction.atomic():
        case = Case.objects.select_for_update().select_related("championship").get(pk=case.pk)
        reports = list(
            IncidentReport.objects.select_for_update().filter(case=case).exclude(status=ReportStatus.WITHDRAWN)
            .select_related("game")
        )  # fmt: skip
        # R-53, 8.2: the people of its reports, its protests' incidents and its games' line-ups (discipline.involved).
        involved = {c.person_id: c for c in sanction_candidates(case)} if sanctions else {}
        persons = {r.person_id for r in reports if r.person_id} | set(involved)
        for sanction in sanctions:
            check_sanction(sanction, persons=persons, now=now)
        _transition(case, CaseStatus.DECIDED, by=by, why=reasons.strip(), now=now)
        audited_save(case, by)
        decision = audited_create(
            Decision, by, case=case, outcome=outcome, reasons=reasons.strip(), decided_by=by, decided_at=now
        )
        # 7.1: the match penalty's suspension lasts until the decision; the automatic ones of 8.2 A and 8.2 C
        # stand unless the decision sanctions the person (its suspension replaces them).
        sanctioned = {s.person_id for s in sanctions}
        for provisional in Suspension.objects.select_for_update().filter(
            Q(kind=SuspensionKind.UNTIL_DECISION) | Q(person_id__in=sanctioned),
            consequence__incident_report__in=reports,
            provisional=True,
            status=SuspensionStatus.ACTIVE,
        ):
            close_suspension(provisional, SuspensionStatus.REPLACED, now, by=by)
        by_person = {r.person_id: r for r in reports if r.person_id}
        for sanction in sanctions:
            # The team and offence game: the person's report's, else the case's game that brings them in.
            report = by_person.get(sanction.person_id)
            found = report or involved[sanction.person_id]
            suspension = audited_create(
                Suspension, by, person_id=sanction.person_id, sanctioning_body_id=case.championship.sanctioning_body_id,
                championship=case.championship, entry_id=found.entry_id, offence_game_id=found.game_id,
                decision=decision, provisional=False, kind=sanction.kind,
                games_required=sanction.games if sanction.kind == sr.GAMES else None,
                ends_at=sanction.until if sanction.kind == sr.PERIOD else None,
                article=sanction.article or "8.2", reasons=reasons.strip(), imposed_at=now, imposed_by=by,
            )  # fmt: skip
            count_past_games(suspension, now=now)
            suspension.refresh_from_db()
            if suspension.status == SuspensionStatus.ACTIVE:
                transaction.on_commit(lambda s=suspension: tell_about(s))
        for report in reports:
            report.status = ReportStatus.CLOSED
            audited_save(report, by)
    return decision
