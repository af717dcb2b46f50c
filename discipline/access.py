"""Who reads and changes the committee's records (R-53): the access layer of the discipline module.

- The discipline committee, the IHTC executive (and superusers) read every incident report, confidential
  report, attachment and case, and alone open cases and decide them.
- CONFIDENTIAL reports (the referee's, 4.2 P; the 6.4.29 note's) and their attachments are read by the
  committee, the executive and their author only: not by the championship's staff, not by other officials.
- The referee of a game files the referee's report; a game's officials and its teams' officials (their team
  managers) file a 6.4.29 confidential report.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404

from accounts.access import has_role, is_superuser
from accounts.models import Role, User
from discipline.models import Attachment, Case, ConfidentialKind, ConfidentialReport, IncidentReport
from tournaments.models import Game


def is_committee(user: User) -> bool:
    """The discipline committee, the IHTC executive, superusers."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return is_superuser(user) or has_role(user, Role.DISCIPLINE_COMMITTEE) or has_role(user, Role.IHTC_EXECUTIVE)


def check_committee(user: User) -> None:
    if not is_committee(user):
        raise PermissionDenied("R-53: only the discipline committee and the IHTC executive may do this.")


def incident_reports_visible_to(user: User) -> QuerySet[IncidentReport]:
    return IncidentReport.objects.all() if is_committee(user) else IncidentReport.objects.none()


def access_incident_report(user: User, report_id) -> IncidentReport:
    try:
        return incident_reports_visible_to(user).select_related("game", "entry", "person", "case").get(pk=report_id)
    except (IncidentReport.DoesNotExist, ValueError, TypeError):
        raise Http404("No such incident report.") from None


def confidential_reports_visible_to(user: User) -> QuerySet[ConfidentialReport]:
    """CONFIDENTIAL: the committee, the executive and the author."""
    if is_committee(user):
        return ConfidentialReport.objects.all()
    if not getattr(user, "is_authenticated", False):
        return ConfidentialReport.objects.none()
    return ConfidentialReport.objects.filter(author=user)


def access_confidential_report(user: User, report_id) -> ConfidentialReport:
    try:
        return confidential_reports_visible_to(user).select_related("game", "author").get(pk=report_id)
    except (ConfidentialReport.DoesNotExist, ValueError, TypeError):
        raise Http404("No such report.") from None


def access_attachment(user: User, attachment_id) -> Attachment:
    """An attachment of a confidential report (its audience) or of a case (the committee's)."""
    visible = Q(report__in=confidential_reports_visible_to(user).values("pk"))
    if is_committee(user):
        visible |= Q(case__isnull=False)
    try:
        return Attachment.objects.filter(visible).get(pk=attachment_id)
    except (Attachment.DoesNotExist, ValueError, TypeError):
        raise Http404("No such attachment.") from None


def cases_visible_to(user: User) -> QuerySet[Case]:
    return Case.objects.all() if is_committee(user) else Case.objects.none()


def access_case(user: User, case_id) -> Case:
    try:
        return cases_visible_to(user).select_related("championship").get(pk=case_id)
    except (Case.DoesNotExist, ValueError, TypeError):
        raise Http404("No such case.") from None


def can_file_confidential(user: User, game: Game, kind: str) -> bool:
    """4.2 P: the game's referee files the referee's report; 6.4.29 note: the game's officials and the team
    officials of its teams (their managers) file a confidential report."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    from games.models import GameOfficial, OfficialDuty  # the games app sits beside this one
    from games.services.access import official_person_id

    person_id = official_person_id(user)
    officials = GameOfficial.objects.filter(game=game, person_id=person_id) if person_id else None
    if kind == ConfidentialKind.REFEREE:
        return bool(officials is not None and officials.filter(duty=OfficialDuty.REFEREE).exists())
    if officials is not None and officials.exists():
        return True
    return (
        has_role(user, Role.TEAM_MANAGER) and user.managed_entries.filter(pk__in=[game.home_id, game.away_id]).exists()
    )


def check_can_file_confidential(user: User, game: Game, kind: str) -> None:
    if not can_file_confidential(user, game, kind):
        if kind == ConfidentialKind.REFEREE:
            raise PermissionDenied("Rule 4.2 P: only a referee of the game files the referee's report.")
        raise PermissionDenied("Rule 6.4.29: only the game's officials and its teams' officials file this report.")
