"""The discipline module's documents: their data, read from the records, for the templates.

- The protest decision letter (9.1 A; R-50 to R-52, R-54): to the protesting team, once the IHTC decided.
- The committee decision letter (R-53, 8.2; R-54): the case, its outcome, the suspensions it imposed and ended,
  the reasons, the appeal route and deadline.
- The suspension list of a championship (8.2, 7.1; R-53): every suspension imposed there.

Each function returns plain data (the document's version is its SHA-256): times as text on the venue's clock, no
time of rendering. Confidential reports (4.2 P, 6.4.29 note) are the committee's and their authors' only: no
letter reads them.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import Count
from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_lazy, ngettext

from discipline.appeals import appeal_deadline
from discipline.models import (
    AppealLevel,
    Case,
    Decision,
    FeeOutcome,
    IncidentReport,
    Protest,
    ProtestStatus,
    ProtestTransition,
    ReportStatus,
    Suspension,
    SuspensionKind,
    SuspensionStatus,
)
from discipline.selectors import championship_suspensions
from federation.models import Federation
from tournaments.models import Championship, Game, RosterEntry, TeamEntry

# 9.2 A, as R-54 reads it: the decisions on disputes (9.1) and the committee's may be appealed.
# The documents' data are made in the document's language (reports.services.document_current): the words the
# letters say are translated there (issue 26); the reasons, grounds and names are people's own words.
APPEAL_ROUTE = gettext_lazy(
    "This decision may be appealed to the General Assembly of the IHTC, and subsequently to the Ordinary Congress "
    "of FIRS, whose decision is final and binding (9.2 A, R-54)."
)


def _local(moment: datetime.datetime | None, zone) -> str:
    return date_format(moment.astimezone(zone), "SHORT_DATETIME_FORMAT") if moment else ""


def _day(moment: datetime.datetime | None, zone) -> str:
    """A letter's date: the day on the venue's clock ("4 December 2026")."""
    if moment is None:
        return ""
    local = moment.astimezone(zone)
    return date_format(local, "DATE_FORMAT")


def _letterhead(body: Federation) -> dict[str, Any]:
    """The sanctioning body, whose letter it is."""
    contact = [value for value in (body.contact_email, body.contact_phone, body.website) if value]
    return {"name": body.name, "address": body.address.strip(), "contact": " · ".join(contact)}


def _managers(entry: TeamEntry) -> list[str]:
    return [str(user) for user in entry.managers.order_by("last_name", "first_name", "pk")]


def _addressee(entry: TeamEntry) -> dict[str, Any]:
    return {"federation": entry.federation.name, "team": entry.display_name, "managers": _managers(entry)}


def _game(game: Game, zone) -> dict[str, Any]:
    result = ""
    if game.home_goals is not None and game.away_goals is not None:
        result = f"{game.home_goals}–{game.away_goals}"
    return {
        "number": game.number,
        "home": game.home.display_name if game.home else game.home_source,
        "away": game.away.display_name if game.away else game.away_source,
        "start": _local(game.start_at, zone),
        "result": result,
    }


def _appeal_deadline_text(deadline: datetime.datetime | None, zone) -> str:
    if deadline is None:
        return gettext("No appeal deadline is set for this championship.")
    return gettext("The appeal must be lodged by %(deadline)s (venue time), with its fee if the IHTC sets one.") % {
        "deadline": _local(deadline, zone)
    }


def _appeals(appealed: Decision | Protest, zone) -> tuple[list[dict[str, Any]], str]:
    """The appeals lodged against a committee's decision (R-54) or a protest's (R-56), as the letter lists them,
    and what the letter's version label adds for them ("; 2 appeals, last dismissed")."""
    appeals = list(appealed.appeals.select_related("decided_by").order_by("filed_at", "pk"))
    rows = [
        {
            "level": appeal.get_level_display(),
            "filed_at": _local(appeal.filed_at, zone),
            "status": appeal.get_status_display(),
            "decided_at": _local(appeal.decided_at, zone),
            "reasons": appeal.reasons,
        }
        for appeal in appeals
    ]
    if not appeals:
        return rows, ""
    said = ngettext("%(count)d appeal, last %(status)s", "%(count)d appeals, last %(status)s", len(appeals)) % {
        "count": len(appeals),
        "status": appeals[-1].get_status_display().lower(),
    }
    return rows, f"; {said}"


# --- the protest decision letter (9.1 A) ---------------------------------------------------------------------------


def _money(value) -> str:
    return f"{value.currency.code} {value.amount:,.2f}" if value is not None else ""


def _fee(protest: Protest, zone) -> dict[str, Any]:
    """The fee (9.1 A, R-52): what was due and received, and what becomes of it."""
    if protest.fee_due is None:
        text = gettext("No fee is due for a federation's protest (9.1 C).")
        return {"due": "", "received": "", "outcome": "", "text": text}
    received = ""
    if protest.fee_received is not None:
        received = (
            f"{_money(protest.fee_received)}, {protest.get_fee_method_display().lower()}, "
            f"{_local(protest.fee_received_at, zone)}"
        )
    outcome = {
        FeeOutcome.RETURNED: gettext("returned in full to the complainant (9.1 A, R-52: the protest is upheld)"),
        FeeOutcome.FORFEITED: gettext("forfeited (9.1 A, R-52: the protest is found unjustified)"),
    }.get(protest.fee_outcome, gettext("not decided"))
    return {
        "due": _money(protest.fee_due),
        "received": received,
        "outcome": outcome,
        "text": gettext("The protest fee of %(fee)s is %(outcome)s.")
        % {"fee": _money(protest.fee_due), "outcome": outcome},
    }


def protest_decision_data(protest: Protest) -> dict[str, Any]:
    """Return everything the protest decision letter shows, as plain data (the document's version is its hash)."""
    protest = Protest.objects.select_related(
        "game__championship__venue", "game__championship__sanctioning_body", "game__home", "game__away",
        "entry__federation", "filed_by", "case",
    ).get(pk=protest.pk)  # fmt: skip
    game, championship = protest.game, protest.game.championship
    zone = championship.venue.zone
    decided = (
        ProtestTransition.objects.filter(protest=protest, to_status=protest.status)
        .select_related("by")
        .order_by("-at", "-pk")
        .first()
    )
    deadline = appeal_deadline(protest, AppealLevel.GENERAL_ASSEMBLY, previous=None)  # as a committee's
    appeals, appeals_label = _appeals(protest, zone)
    upheld = protest.status == ProtestStatus.UPHELD
    return {
        "letterhead": _letterhead(championship.sanctioning_body),
        "reference": gettext("Protest #%(number)s") % {"number": protest.pk},
        "date": _day(protest.decided_at, zone),
        "addressee": _addressee(protest.entry),
        "championship": championship.name,
        "venue": f"{championship.venue.name}, {championship.venue.city}",
        "time_zone": championship.venue.time_zone,
        "game": _game(game, zone),
        "protest": {
            "kind": protest.get_kind_display(),
            "incident": protest.shown_incident,
            "filed_at": _local(protest.filed_at, zone),
            "filed_by": str(protest.filed_by),
        },
        "decision": {
            "status": protest.get_status_display().upper(),
            "upheld": upheld,
            "reason": protest.decision_reason,
            "decided_at": _local(protest.decided_at, zone),
            "decided_by": str(decided.by) if decided and decided.by else "the IHTC",
        },
        "fee": _fee(protest, zone),
        "case": {"id": protest.case_id, "title": protest.case.shown_title} if protest.case_id else None,
        "appeal": {"route": str(APPEAL_ROUTE), "deadline": _appeal_deadline_text(deadline, zone)},
        "appeals": appeals,
        "version_label": gettext("Protest #%(number)s, %(status)s %(at)s (venue time)")
        % {"number": protest.pk, "status": protest.get_status_display().lower(), "at": _local(protest.decided_at, zone)}
        + appeals_label,
    }


# --- the committee decision letter (R-53) ---------------------------------------------------------------------------


def _numbers(entry_ids) -> dict[tuple[int, int], str]:
    """(entry id, person id) -> the person's number on the entry's roster."""
    rows = RosterEntry.objects.filter(entry_id__in=set(entry_ids)).values_list("entry_id", "person_id", "number")
    return {(entry, person): number for entry, person, number in rows}


def _who(person, entry_id, numbers) -> str:
    if person is None:
        return "bench"
    number = numbers.get((entry_id, person.pk))
    return f"#{number} {person}" if number else str(person)


def _terms(suspension: Suspension, zone) -> str:
    """What the suspension is, in words: N games, until a time, the rest of the tournament."""
    if suspension.kind == SuspensionKind.GAMES:
        games = suspension.games_required
        return ngettext("%(count)d game", "%(count)d games", games) % {"count": games}
    if suspension.kind == SuspensionKind.PERIOD:
        return gettext("until %(moment)s") % {"moment": _local(suspension.ends_at, zone)}
    if suspension.kind == SuspensionKind.REST_OF_TOURNAMENT:
        return gettext("the rest of the tournament (to %(day)s)") % {
            "day": date_format(suspension.championship.end_date, "SHORT_DATE_FORMAT")
        }
    return gettext("the rest of the tournament until the committee decides (7.1)")


def _until(suspension: Suspension, zone) -> str:
    """Until when it runs: the games still to serve, its end, or when it closed."""
    if suspension.status != SuspensionStatus.ACTIVE:
        return gettext("closed %(moment)s") % {"moment": _local(suspension.closed_at, zone)}
    if suspension.kind == SuspensionKind.GAMES:
        left = max(suspension.games_required - suspension.games_served, 0)
        return ngettext("%(count)d more game to serve", "%(count)d more games to serve", left) % {"count": left}
    if suspension.kind == SuspensionKind.PERIOD:
        return _local(suspension.ends_at, zone)
    if suspension.kind == SuspensionKind.REST_OF_TOURNAMENT:
        return gettext("end of the championship, %(day)s") % {
            "day": date_format(suspension.championship.end_date, "SHORT_DATE_FORMAT")
        }
    return gettext("the committee's decision (7.1)")


def _suspension_line(suspension: Suspension, numbers, zone) -> dict[str, Any]:
    return {
        "person": _who(suspension.person, suspension.entry_id, numbers),
        "team": suspension.entry.display_name if suspension.entry_id else "",
        "article": suspension.article,
        "kind": suspension.get_kind_display(),
        "terms": _terms(suspension, zone),
        "games": suspension.games_required,
        "served": suspension.games_served if suspension.kind == SuspensionKind.GAMES else None,
        "until": _until(suspension, zone),
        "status": suspension.get_status_display(),
        "provisional": suspension.provisional,
        "offence_game": suspension.offence_game.number if suspension.offence_game_id else None,
        "case": suspension.decision.case_id if suspension.decision_id else None,
    }


def case_decision_data(case: Case) -> dict[str, Any]:
    """Return everything the committee decision letter shows, as plain data (the document's version is its hash)."""
    case = Case.objects.select_related("championship__venue", "championship__sanctioning_body").get(pk=case.pk)
    decision = Decision.objects.select_related("decided_by").get(case=case)
    championship = case.championship
    zone = championship.venue.zone
    reports = list(
        IncidentReport.objects.filter(case=case).select_related(
            "game__home", "game__away", "entry__federation", "person"
        )
    )
    suspensions = Suspension.objects.select_related(
        "person", "entry", "offence_game", "championship", "decision"
    ).annotate(served_count=Count("served_games"))
    imposed = list(suspensions.filter(decision=decision).order_by("pk"))
    # 7.1: the provisional suspensions of the case's reports the decision replaced.
    replaced = list(
        suspensions.filter(
            consequence__incident_report__case=case, provisional=True, status=SuspensionStatus.REPLACED
        ).order_by("pk")
    )
    numbers = _numbers([r.entry_id for r in reports] + [s.entry_id for s in imposed + replaced if s.entry_id])
    entries = {r.entry_id: r.entry for r in reports}
    appeals, appeals_label = _appeals(decision, zone)
    deadline = appeal_deadline(decision, AppealLevel.GENERAL_ASSEMBLY, previous=None)
    return {
        "letterhead": _letterhead(championship.sanctioning_body),
        "reference": gettext("Case #%(number)s") % {"number": case.pk},
        "date": _day(decision.decided_at, zone),
        "addressees": [_addressee(entry) for entry in sorted(entries.values(), key=lambda e: (e.name, e.pk))],
        "title": case.shown_title,
        "championship": championship.name,
        "venue": f"{championship.venue.name}, {championship.venue.city}",
        "time_zone": championship.venue.time_zone,
        "opened_at": _local(case.opened_at, zone),
        "hearing_at": _local(case.hearing_at, zone),
        "reports": [
            {
                "game": _game(report.game, zone),
                "person": _who(report.person, report.entry_id, numbers),
                "team": report.entry.display_name,
                "kind": report.get_kind_display(),
                "infraction": report.infraction.replace("_", " "),
                "article": report.article,
                "clock": report.clock,
                "withdrawn": report.status == ReportStatus.WITHDRAWN,
            }
            for report in reports
        ],
        "protests": [
            {
                "id": protest.pk,
                "team": protest.entry.display_name,
                "game": protest.game.number,
                "kind": protest.get_kind_display(),
                "incident": protest.shown_incident,
                "status": protest.get_status_display(),
            }
            for protest in case.protests.select_related("entry", "game").order_by("pk")
        ],
        "outcome": decision.get_outcome_display(),
        "reasons": decision.reasons,
        "decided_at": _local(decision.decided_at, zone),
        "decided_by": str(decision.decided_by),
        "sanctions": [_suspension_line(s, numbers, zone) for s in imposed],
        "replaced": [_suspension_line(s, numbers, zone) for s in replaced],
        "appeal": {"route": str(APPEAL_ROUTE), "deadline": _appeal_deadline_text(deadline, zone)},
        "appeals": appeals,
        "version_label": gettext("Case #%(number)s, decided %(at)s (venue time)")
        % {"number": case.pk, "at": _local(decision.decided_at, zone)}
        + appeals_label,
    }  # fmt: skip


# --- the suspension list of a championship (8.2) ---------------------------------------------------------------------


def suspension_list_data(championship: Championship) -> dict[str, Any]:
    """Return every suspension imposed in the championship, as its staff's list page shows them, as plain data."""
    championship = Championship.objects.select_related("venue", "sanctioning_body").get(pk=championship.pk)
    zone = championship.venue.zone
    rows = list(championship_suspensions(championship).prefetch_related("served_games"))
    numbers = _numbers(s.entry_id for s in rows if s.entry_id)
    lines = [_suspension_line(s, numbers, zone) for s in rows]
    changes = [moment for s in rows for moment in (s.imposed_at, s.closed_at) if moment]
    changes += [served.counted_at for s in rows for served in s.served_games.all()]
    in_force = sum(1 for s in rows if s.status == SuspensionStatus.ACTIVE)
    label = ngettext(
        "%(count)d suspension, %(in_force)d in force", "%(count)d suspensions, %(in_force)d in force", len(rows)
    ) % {
        "count": len(rows),
        "in_force": in_force,
    }
    if changes:
        label += "; " + gettext("last change %(moment)s (venue time)") % {"moment": _local(max(changes), zone)}
    return {
        "letterhead": _letterhead(championship.sanctioning_body),
        "championship": championship.name,
        "category": championship.get_category_display(),
        "dates": gettext("%(start)s to %(end)s")
        % {
            "start": date_format(championship.start_date, "SHORT_DATE_FORMAT"),
            "end": date_format(championship.end_date, "SHORT_DATE_FORMAT"),
        },
        "venue": f"{championship.venue.name}, {championship.venue.city}",
        "time_zone": championship.venue.time_zone,
        "suspensions": lines,
        "in_force": in_force,
        "version_label": label,
    }
