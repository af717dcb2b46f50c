"""A team's roster sheet (1.1, 3.1.1, 3.1.2, 3.2.9): its data, read from the records, for the template.

``roster_sheet_data`` returns plain data, so it fingerprints as it renders (the document's version is its SHA-256).
Each player's eligibility is the entry page's: ``tournaments.selectors.roster_with_eligibility``, evaluated on the
championship's dates (1.1 B-G: ages in its year, passports valid on its last day), waivers applied (R-03); the
limits are ``tournaments.rosters.check_roster`` with the championship's ruleset (3.1.1 A, R-04). A passport's
number is masked (only its last characters are printed) and its scan never is.
"""

from __future__ import annotations

from typing import Any

from django.utils.formats import date_format
from django.utils.translation import gettext

from federation.eligibility import EligibilityResult, Reason
from federation.models import Passport, Person
from portal.i18n import say
from tournaments import rosters as roster_rules
from tournaments.facts import championship_has_begun, roster_limits
from tournaments.models import EntryStatus, Position, RosterEntry, TeamEntry
from tournaments.selectors import roster_with_eligibility
from tournaments.services.rosters import roster_lines

# The characters of a passport number the sheet prints (its end); the rest are masked.
PASSPORT_SHOWN = 3


def mask_passport_number(number: str) -> str:
    """Return the number with all but its last ``PASSPORT_SHOWN`` characters masked (never the whole number)."""
    shown = number[-PASSPORT_SHOWN:] if len(number) > PASSPORT_SHOWN + 2 else ""
    return f"***{shown}"


def _country(code) -> str:
    return (getattr(code, "alpha3", "") or getattr(code, "code", "") or "") if code else ""


def _passport(person: Person, team_country: str) -> dict[str, str] | None:
    """The passport eligibility looks at (1.1 B, R-03): the team's country's, latest expiry first; else any."""
    passports: list[Passport] = sorted(person.passports.all(), key=lambda p: p.expiry_date, reverse=True)
    chosen = next((p for p in passports if p.issuing_country.code == team_country), passports[0] if passports else None)
    if chosen is None:
        return None
    return {
        "country": _country(chosen.issuing_country),
        "number": mask_passport_number(chosen.number),
        "expiry": date_format(chosen.expiry_date, "SHORT_DATE_FORMAT"),
    }


def reason_text(reason: Reason) -> str:
    """A reason as the entry page says it: its article first unless the message names it already."""
    message = str(say(reason.message))
    return message if reason.article in message else f"{reason.article}: {message}"


def _eligibility(result: EligibilityResult) -> dict[str, Any]:
    return {
        "eligible": result.eligible,
        "status": (
            gettext("Not eligible")
            if not result.eligible
            else gettext("Eligible, by waiver")
            if result.waived
            else gettext("Eligible")
        ),
        "reasons": [{"article": r.article, "code": r.code, "text": reason_text(r)} for r in result.reasons],
        "waived": [
            {
                "article": r.article,
                "text": reason_text(r),
                "waiver": w.reason.strip().rstrip("."),
                "approved_by": w.approved_by,
            }
            for r, w in result.waived
        ],
    }


def _player(line: RosterEntry, result: EligibilityResult, *, team_country: str, zone) -> dict[str, Any]:
    person = line.person
    return {
        "number": line.number,
        "name": str(person),
        "goalkeeper": line.position == Position.GOALKEEPER,
        "position": line.get_position_display(),
        "mark": "C" if line.captain else ("A" if line.alternate else ""),
        "born": date_format(person.date_of_birth, "SHORT_DATE_FORMAT"),
        "nationality": _country(person.nationality),
        "passport": _passport(person, team_country),
        "registered": date_format(line.confirmed_at.astimezone(zone), "SHORT_DATE_FORMAT") if line.confirmed_at else "",
        "confirmed": line.confirmed,
        **_eligibility(result),
    }


def _limits(roster: list[RosterEntry], limits: roster_rules.RosterLimits) -> dict[str, Any]:
    """The counts against 3.1.1 A, 3.1.2 and R-04 (a registered roster: complete) and what breaks them."""
    problems = roster_rules.check_roster(roster_lines(roster), limits=limits, complete=True)
    goalkeepers = sum(1 for line in roster if line.position == Position.GOALKEEPER)
    if limits.min_goalkeepers == limits.max_goalkeepers:
        wanted_goalkeepers = gettext("exactly %(count)s") % {"count": limits.min_goalkeepers}
    else:
        wanted_goalkeepers = f"{limits.min_goalkeepers}-{limits.max_goalkeepers}"
    return {
        "rows": [
            {
                "what": gettext("Floor players"),
                "count": len(roster) - goalkeepers,
                "wanted": f"{limits.min_skaters}-{limits.max_skaters}",
                "article": "3.1.1 A, R-04",
            },
            {
                "what": gettext("Goalkeepers"),
                "count": goalkeepers,
                "wanted": wanted_goalkeepers,
                "article": "3.1.1 A, R-04",
            },
            {
                "what": gettext("Captain"),
                "count": sum(1 for line in roster if line.captain),
                "wanted": gettext("exactly %(count)s") % {"count": 1},
                "article": "3.1.2 A",
            },
            {
                "what": gettext("Alternate captains"),
                "count": sum(1 for line in roster if line.alternate),
                "wanted": gettext("at most %(count)s") % {"count": limits.max_alternates},
                "article": "3.1.2 B",
            },
        ],  # fmt: skip
        "meets": not problems,
        "problems": [str(say(problem.message)) for problem in problems],
    }


def _roster_status(entry: TeamEntry, *, players: int, registered: int, frozen: bool) -> dict[str, str]:
    """The entry's status (1.1 A), the roster's registration (3.2.9 D) and whether it is frozen (3.1.1 B, R-05)."""
    if not players:
        registration = gettext("no player yet")
    elif registered == players:
        registration = gettext("registered, all %(registered)s players confirmed (3.2.9 D)") % {
            "registered": registered
        }
    else:
        registration = gettext("not fully registered, %(registered)s of %(players)s players confirmed") % {
            "registered": registered,
            "players": players,
        }
    if entry.status in (EntryStatus.WITHDRAWN, EntryStatus.DISQUALIFIED):
        state = gettext("entry %(status)s") % {"status": entry.get_status_display().lower()}
        freeze = gettext("Closed: the entry is %(status)s (8.1 C)") % {"status": entry.get_status_display().lower()}
    elif frozen:
        state = gettext("roster frozen")
        freeze = gettext("Frozen since the championship's first game started (3.1.1 B, R-05)")
    else:
        state = gettext("roster open")
        freeze = gettext("Open until the championship's first game starts (3.1.1 B, R-05)")
    return {"entry": entry.get_status_display(), "registration": registration, "freeze": freeze, "state": state}


def roster_sheet_data(entry: TeamEntry) -> dict[str, Any]:
    """Return everything the roster sheet shows, as plain data (the document's version is its hash).

    Whether the roster is frozen is part of it: the sheet printed before the first game says "open", the one
    after it "frozen" (another version).
    """
    entry = TeamEntry.objects.select_related("championship__venue", "federation").get(pk=entry.pk)
    championship = entry.championship
    zone = championship.venue.zone
    team_country = entry.federation.country.code if entry.federation.country else ""
    lines = roster_with_eligibility(entry)
    players = [_player(line, result, team_country=team_country, zone=zone) for line, result in lines]
    ineligible = sum(1 for p in players if not p["eligible"])
    registered = sum(1 for p in players if p["confirmed"])
    status = _roster_status(
        entry, players=len(players), registered=registered, frozen=championship_has_begun(championship)
    )
    start, end = championship.start_date, championship.end_date
    return {
        "championship": championship.name,
        "category": championship.get_category_display(),
        "level": championship.get_level_display(),
        "dates": f"{date_format(start, 'DATE_FORMAT')} – {date_format(end, 'DATE_FORMAT')}",
        "end_date": date_format(end, "DATE_FORMAT"),
        "year": start.year,
        "venue": f"{championship.venue.name}, {championship.venue.city}",
        "federation": entry.federation.name,
        "team": entry.display_name,
        "code": _country(entry.federation.country) or entry.federation.short_name or entry.display_name,
        "status": status,
        "players": players,
        "ineligible": ineligible,
        "officials": [
            {"name": str(o.person), "role": o.get_role_display()}
            for o in entry.officials.select_related("person").order_by("role", "person__last_name", "pk")
        ],
        "limits": _limits([line for line, _ in lines], roster_limits(championship)),
        "version_label": gettext(
            "roster of %(team)s: %(players)s players, %(registered)s registered, %(ineligible)s not eligible; %(state)s"
        )
        % {
            "team": entry.display_name,
            "players": len(players),
            "registered": registered,
            "ineligible": ineligible,
            "state": status["state"],
        },
    }
