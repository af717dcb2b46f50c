"""Who reads and changes the discipline module's records: the access layer of protests (9.1) and of the
committee's records (R-53). Built on ``accounts.roles`` and ``federation.access`` (roles, federation staff scopes). Pages, API and admin
ask these; the services of ``discipline.protests``, ``discipline.cases`` and ``discipline.appeals`` ask them
again with the acting user.

- The discipline committee, the IHTC executive (and superusers) read every incident report, confidential
  report, attachment and case, and alone open cases and decide them.
- CONFIDENTIAL reports (the referee's, 4.2 P; the 6.4.29 note's) and their attachments are read by the
  committee, the executive and their author only: not by the championship's staff, not by other officials.
- The referee of a game files the referee's report; a game's officials and its teams' officials (their team
  managers) file a 6.4.29 confidential report.
- Protests (9.1): team managers file for an entry they manage, see the protests of the games their entries
  play (filed by or against them), withdraw their own team's and answer one filed against their team; staff of
  the championship's sanctioning body, international staff and IHTC executives record the fee (R-52); the
  committee and the executive review and decide (9.1 A: "the IHTC will then investigate"); everybody else
  (game officials, other teams, anonymous): nothing.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext

from accounts.models import Role, User
from accounts.roles import (
    has_role,
    is_federation_staff,
    is_international_staff,
    is_superuser,
    manages_entries,
    staff_federation_ids,
)
from discipline.models import (
    Appeal,
    Attachment,
    Case,
    ConfidentialKind,
    ConfidentialReport,
    Decision,
    IncidentReport,
    Protest,
    ProtestStatus,
)
from discipline.suspensions import can_see_suspensions_of
from portal.services import NotYet
from tournaments.models import Championship, Game
from tournaments.selectors import access_championship


def _active(user) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.is_active)


def require(allowed: bool, message: str) -> None:
    """Refuse (403) with ``message``, which cites the rule, unless ``allowed``."""
    if not allowed:
        raise PermissionDenied(message)


def is_committee(user: User) -> bool:
    """The discipline committee, the IHTC executive, superusers: they read the committee's records, open and
    decide cases, and review and decide protests (9.1 A)."""
    if not _active(user):
        return False
    return is_superuser(user) or has_role(user, Role.DISCIPLINE_COMMITTEE) or has_role(user, Role.IHTC_EXECUTIVE)


def check_committee(user: User) -> None:
    if not is_committee(user):
        raise PermissionDenied(gettext("R-53: only the discipline committee and the IHTC executive may do this."))


def incident_reports_visible_to(user: User) -> QuerySet[IncidentReport]:
    return IncidentReport.objects.all() if is_committee(user) else IncidentReport.objects.none()


def access_incident_report(user: User, report_id) -> IncidentReport:
    try:
        return incident_reports_visible_to(user).select_related("game", "entry", "person", "case").get(pk=report_id)
    except (IncidentReport.DoesNotExist, ValueError, TypeError):
        raise Http404(gettext("No such incident report.")) from None


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
        raise Http404(gettext("No such report.")) from None


def reads_confidential_reports(user: User) -> bool:
    """Whether some confidential report is open to the user (list pages): the committee, or an author."""
    if is_committee(user):
        return True
    return _active(user) and ConfidentialReport.objects.filter(author=user).exists()


def attachments_visible_to(user: User) -> QuerySet[Attachment]:
    """The attachments of the confidential reports the user may read (their audience) and of cases (the
    committee's)."""
    if is_committee(user):
        return Attachment.objects.all()
    return Attachment.objects.filter(report__in=confidential_reports_visible_to(user).values("pk"))


def access_attachment(user: User, attachment_id) -> Attachment:
    """An attachment of a confidential report (its audience) or of a case (the committee's)."""
    try:
        return attachments_visible_to(user).get(pk=attachment_id)
    except (Attachment.DoesNotExist, ValueError, TypeError):
        raise Http404(gettext("No such attachment.")) from None


def cases_visible_to(user: User) -> QuerySet[Case]:
    return Case.objects.all() if is_committee(user) else Case.objects.none()


def access_case(user: User, case_id) -> Case:
    try:
        return cases_visible_to(user).select_related("championship").get(pk=case_id)
    except (Case.DoesNotExist, ValueError, TypeError):
        raise Http404(gettext("No such case.")) from None


def can_file_confidential(user: User, game: Game, kind: str) -> bool:
    """4.2 P: the game's referee files the referee's report; 6.4.29 note: the game's officials and the team
    officials of its teams (their managers) file a confidential report."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    from games.access import official_person_id
    from games.models import GameOfficial, OfficialDuty  # the games app sits beside this one

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
            raise PermissionDenied(gettext("Rule 4.2 P: only a referee of the game files the referee's report."))
        raise PermissionDenied(
            gettext("Rule 6.4.29: only the game's officials and its teams' officials file this report.")
        )


# --- protests (9.1) ------------------------------------------------------------------------------


def keeps_protest_fees(user, championship=None) -> bool:
    """Staff of the championship's sanctioning body, international staff and IHTC executives record fees (R-52).

    Without a championship: whether the user keeps the fees of some championship (list pages)."""
    if not _active(user):
        return False
    if is_international_staff(user):
        return True
    if championship is None:
        return is_federation_staff(user)
    return championship.sanctioning_body_id in staff_federation_ids(user)


def manages_entry(user, entry) -> bool:
    """A team manager named on the entry (``TeamEntry.managers``)."""
    if not _active(user) or entry is None or not has_role(user, Role.TEAM_MANAGER):
        return False
    return entry.managers.filter(pk=user.pk).exists()


def protests_visible_to(user) -> QuerySet[Protest]:
    """Protests a user may read: all for the committee and international staff; the sanctioning body's for its
    staff; the games of their entries for team managers."""
    if not _active(user):
        return Protest.objects.none()
    if is_committee(user) or is_international_staff(user):
        return Protest.objects.all()
    q = Q(pk__in=[])
    ids = staff_federation_ids(user)
    if ids:
        q |= Q(game__championship__sanctioning_body_id__in=ids)
    if manages_entries(user):
        managed = user.managed_entries.values("pk")
        q |= Q(entry__in=managed) | Q(game__home__in=managed) | Q(game__away__in=managed)
    return Protest.objects.filter(q)


def can_see_protests(user) -> bool:
    """Whether the protest list is open to the user at all."""
    return is_committee(user) or keeps_protest_fees(user) or manages_entries(user)


def access_protest(user, protest_id) -> Protest:
    """Return the protest if the user may see it (404 otherwise: not even its existence is told)."""
    try:
        return (
            protests_visible_to(user)
            .select_related(
                "game__championship__venue", "game__home", "game__away", "entry", "filed_by", "protest_mark", "case"
            )
            .get(pk=protest_id)
        )
    except (Protest.DoesNotExist, ValueError, TypeError):
        raise Http404(gettext("No such protest.")) from None


# --- appeals (9.2 A; ): who appeals a decision, who reads the appeals ----------------------------------


def _parties(user: User, model: type[Decision] | type[Protest], prefix: str = "") -> Q:
    """The rows of ``model`` (reached through ``prefix``) whose decision ``user`` may appeal, for a user who is not
    of the committee: a committee decision concerns the people of its case's reports (their federations' staff,
    their team's managers, R-54); a protest's decision concerns the game's two teams (their federations' staff,
    their managers, R-56). International staff: every federation."""
    if model is Decision:
        reports = f"{prefix}case__incident_reports__"
        managed = Q(**{f"{reports}entry__managers": user})
        anyone = Q(**{f"{reports}person__isnull": False})
        federation_lookups = [f"{reports}person__federation_id__in"]
    else:
        game = f"{prefix}game__"
        managed = Q(**{f"{game}home__managers": user}) | Q(**{f"{game}away__managers": user})
        anyone = Q(**{f"{prefix}pk__isnull": False})
        federation_lookups = [f"{game}home__federation_id__in", f"{game}away__federation_id__in"]
    if is_international_staff(user):
        return managed | anyone
    ids = staff_federation_ids(user)
    for lookup in federation_lookups if ids else ():
        managed |= Q(**{lookup: ids})
    return managed


def _appealable_ids(user: User, model: type[Decision] | type[Protest], ids) -> set[int]:
    ids = {pk for pk in ids if pk is not None}
    if not ids or not getattr(user, "is_authenticated", False) or not user.is_active:
        return set()
    if is_committee(user):
        return ids
    return set(model.objects.filter(_parties(user, model), pk__in=ids).values_list("pk", flat=True).distinct())


def appealable_decision_ids(user: User, decision_ids) -> set[int]:
    """Of ``decision_ids``, those the user may appeal (9.2 A; R-54), in one query: the committee and the executive
    any; staff of the federation of a person the decision concerns (international staff: every federation); the
    managers of the team of a person in the case."""
    return _appealable_ids(user, Decision, decision_ids)


def appealable_protest_ids(user: User, protest_ids) -> set[int]:
    """Of ``protest_ids``, those whose decision the user may appeal (9.2 A; R-56), in one query: the committee and
    the executive any; staff of the federation of either team of the game (international staff: every federation);
    the managers of either team. Whether the protest is decided is ``file_appeal``'s check."""
    return _appealable_ids(user, Protest, protest_ids)


def can_file_appeal(user: User, appealed: Decision | Protest) -> bool:
    """Whether the user may appeal ``appealed``, a committee's decision (R-54) or a protest's (R-56)."""
    return appealed.pk in _appealable_ids(user, type(appealed), [appealed.pk])


def appeals_visible_to(user: User) -> QuerySet[Appeal]:
    """The appeals a user may read: those of the decisions ``can_file_appeal`` lets him appeal (the committee and
    the executive all of them; federation staff those concerning their federations' people or teams; team
    managers those concerning their entries)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return Appeal.objects.none()
    if is_committee(user):
        return Appeal.objects.all()
    concerns = _parties(user, Decision, "decision__") | _parties(user, Protest, "protest__")
    return Appeal.objects.filter(pk__in=Appeal.objects.filter(concerns).values("pk"))


def sees_appeals(user: User) -> bool:
    """Whether some appeals may be open to the user (list pages): the committee, federation staff, team managers."""
    return is_committee(user) or is_federation_staff(user) or manages_entries(user)


# --- the discipline documents (reports: letters and lists) ----------------------------------------------------


def has_decision_letter(protest: Protest) -> bool:
    """Whether the IHTC decided the protest (upheld or rejected, 9.1 A): a withdrawn or lapsed one has no letter."""
    return protest.decided_at is not None and protest.status in (ProtestStatus.UPHELD, ProtestStatus.REJECTED)


def access_protest_appeal(user, protest_id) -> Protest:
    """The protest whose decision ``user`` may appeal (9.2 A; R-56: ``can_file_appeal``, the teams of the
    game and their federations, the committee and the executive), whether or not the user reads the protest's own
    page (the staff of a team's federation do not, R-52). A reader of the protest who is no party: 403 naming the
    rule; anyone else may not learn the protest exists (404)."""
    protest = (
        Protest.objects.select_related("game__championship__venue", "game__home", "game__away", "entry")
        .filter(pk=protest_id)
        .first()
        if _active(user) and str(protest_id).isdigit()
        else None
    )
    if protest is not None and can_file_appeal(user, protest):
        return protest
    if protest is not None and protests_visible_to(user).filter(pk=protest.pk).exists():
        raise PermissionDenied(
            gettext("Rule 9.2 A / R-56: the teams of the game and their federations appeal the decision.")
        )
    raise Http404(gettext("No such protest."))


def access_protest_letter(user, protest_id) -> Protest:
    """The decided protest whose decision letter ``user`` may read: who may read the protest (``access_protest``:
    the committee, international staff, the sanctioning body's staff, the managers of the game's teams) and the
    parties who may appeal its decision (``access_protest_appeal``, R-56: the staff of the teams' federations
    too), once the committee upheld or rejected it (9.1 A); 404 before (a protest withdrawn or lapsed has no
    decision)."""
    try:
        protest = access_protest(user, protest_id)
    except Http404:
        protest = access_protest_appeal(user, protest_id)
    if not has_decision_letter(protest):
        raise NotYet(gettext("The protest's decision letter is made once the IHTC decides the protest (9.1 A)."))
    return protest


def access_decision_letter(user, case_id) -> Case:
    """The decided case whose committee decision letter ``user`` may read: the committee and the executive
    (``access_case``), and the parties the decision concerns, who may appeal it (``can_file_appeal``:
    the staff of the federation of a person of the case, international staff, the managers of that person's team
    in the case). Anyone else, and everyone but the committee before the decision, may not learn the case exists
    (404); the committee gets 404 too before the decision (R-53: the letter is made once the case is decided)."""
    if is_committee(user):
        case = access_case(user, case_id)
    else:
        case = Case.objects.select_related("championship").filter(pk=case_id).first() if _active(user) else None
        decision = Decision.objects.filter(case=case).first() if case is not None else None
        if decision is None or not can_file_appeal(user, decision):
            raise Http404(gettext("No such case."))
    if not Decision.objects.filter(case=case).exists():
        raise NotYet(gettext("The committee's decision letter is made once the case is decided (R-53)."))
    return case


def access_suspension_list(user, championship_id) -> Championship:
    """The championship whose whole suspension list (PDF) ``user`` may read: whoever sees the whole list on the
    championship's suspension page (``discipline.suspensions.can_see_suspensions_of``): the staff of its
    sanctioning body, international staff, the discipline committee and the executive (8.2). A team manager sees
    only his people's suspensions (the "my suspensions" page), so not this list: 403, as on that page. A draft is
    its directors' alone (``tournaments.selectors.access_championship``): 404 for anyone else, the committee too."""
    championship = access_championship(
        user, championship_id, queryset=Championship.objects.select_related("venue", "sanctioning_body")
    )
    require(
        can_see_suspensions_of(user, championship),
        gettext("Rule 8.2: the championship's staff and the discipline committee see its suspensions."),
    )
    return championship
