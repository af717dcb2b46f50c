"""Appeals (9.2 A; R-54): against a decision of the discipline committee or the executive, lodged with the IHTC
General Assembly, then with the FIRS Congress, whose decision is final and binding.

- Who files: staff of the federation of a person the decision concerns, the managers of that person's team in
  the case, the committee's members and the executive on the federation's behalf.
- Deadline: ``AppealRules`` of the championship's ruleset (days after the decision appealed: the committee's
  for the General Assembly, the Assembly's for the Congress); no default, so no deadline when unset (R-54).
- Who records the decision: the IHTC executive (it keeps the Assembly's and the Congress's minutes here).
- An upheld appeal annuls the decision's suspensions still in force.
"""

from __future__ import annotations

import datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import Role, User
from accounts.roles import (
    has_role,
    is_federation_staff,
    is_international_staff,
    is_superuser,
    manages_entries,
    staff_federation_ids,
)
from discipline.access import is_committee
from discipline.models import Appeal, AppealLevel, AppealStatus, Decision, SuspensionStatus
from discipline.suspensions import close as close_suspension
from portal.services import audited_create, audited_save
from tournaments.facts import championship_ruleset


def appealable_decision_ids(user: User, decision_ids) -> set[int]:
    """Of ``decision_ids``, those the user may appeal (9.2 A; R-54), in one query: the committee and the executive
    any; staff of the federation of a person the decision concerns (international staff: every federation); the
    managers of the team of a person in the case."""
    ids = {pk for pk in decision_ids if pk is not None}
    if not ids or not getattr(user, "is_authenticated", False) or not user.is_active:
        return set()
    if is_committee(user):
        return ids
    reports = "case__incident_reports__"
    concerns = Q(**{f"{reports}entry__managers": user})
    if is_international_staff(user):
        concerns |= Q(**{f"{reports}person__isnull": False})
    elif staff_federation_ids(user):
        concerns |= Q(**{f"{reports}person__federation_id__in": staff_federation_ids(user)})
    return set(Decision.objects.filter(concerns, pk__in=ids).values_list("pk", flat=True).distinct())


def can_file_appeal(user: User, decision: Decision) -> bool:
    """Whether the user may appeal ``decision`` (9.2 A; R-54): ``appealable_decision_ids`` for one decision."""
    return decision.pk in appealable_decision_ids(user, [decision.pk])


def appeals_visible_to(user: User) -> QuerySet[Appeal]:
    """The appeals a user may read: those of the decisions ``can_file_appeal`` lets him appeal (the committee and
    the executive all of them; federation staff those concerning their federations' people; team managers those
    concerning their entries)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return Appeal.objects.none()
    if is_committee(user):
        return Appeal.objects.all()
    reports = "decision__case__incident_reports__"
    if is_international_staff(user):
        concerns = Q(**{f"{reports}person__isnull": False})
    else:
        concerns = Q(**{f"{reports}person__federation_id__in": staff_federation_ids(user)})
    concerns |= Q(**{f"{reports}entry__managers": user})
    return Appeal.objects.filter(pk__in=Appeal.objects.filter(concerns).values("pk"))


def sees_appeals(user: User) -> bool:
    """Whether some appeals may be open to the user (list pages): the committee, federation staff, team managers."""
    return is_committee(user) or is_federation_staff(user) or manages_entries(user)


def appeal_deadline(decision: Decision, level: str, *, previous: Appeal | None) -> datetime.datetime | None:
    """The deadline of an appeal (R-54): the ruleset's days after the decision appealed; None when unset."""
    rules = championship_ruleset(decision.case.championship).appeals
    if level == AppealLevel.GENERAL_ASSEMBLY:
        days, since = rules.general_assembly_days, decision.decided_at
    else:
        days, since = rules.congress_days, previous.decided_at if previous else None
    if days is None or since is None:
        return None
    return since + datetime.timedelta(days=days)


def file_appeal(*, decision: Decision, level: str, grounds: str, by: User, fee=None, now=None) -> Appeal:
    """Lodge an appeal: first with the IHTC General Assembly, then (its appeal dismissed) with the FIRS Congress."""
    now = now or timezone.now()
    if not can_file_appeal(by, decision):
        raise PermissionDenied("Rule 9.2 A: the federation of a person the decision concerns files the appeal.")
    if level not in AppealLevel.values:
        raise ValidationError({"level": f"Choose one of: {', '.join(AppealLevel.values)}."})
    if not (grounds or "").strip():
        raise ValidationError({"grounds": "Rule 9.2 A: the appeal gives its grounds."})
    with transaction.atomic():
        decision = Decision.objects.select_for_update().select_related("case__championship").get(pk=decision.pk)
        held = {a.level: a for a in Appeal.objects.filter(decision=decision)}
        previous = None
        if level in held:
            raise ValidationError(
                {"level": f"Rule 9.2 A: an appeal to the {held[level].get_level_display()} is filed."}
            )
        if level == AppealLevel.FIRS_CONGRESS:
            previous = held.get(AppealLevel.GENERAL_ASSEMBLY)
            if previous is None or previous.status != AppealStatus.DISMISSED:
                raise ValidationError(
                    {"level": "Rule 9.2 A: the FIRS Congress hears an appeal the IHTC General Assembly dismissed."}
                )
        elif held.get(AppealLevel.GENERAL_ASSEMBLY):
            raise ValidationError({"level": "Rule 9.2 A: the General Assembly's appeal is filed."})
        deadline = appeal_deadline(decision, level, previous=previous)
        if deadline is not None and now > deadline:
            raise ValidationError(
                {"level": f"Rule 9.2 A / R-54: the appeal's deadline was {deadline:%Y-%m-%d %H:%M} UTC."}
            )
        return audited_create(
            Appeal, by, decision=decision, level=level, previous=previous, filer=by, grounds=grounds.strip(),
            fee=fee, filed_at=now, deadline=deadline,
        )  # fmt: skip


def next_appeal(decision: Decision) -> tuple[str, Appeal | None] | None:
    """The level an appeal against ``decision`` may go to now and the appeal it follows (9.2 A): the General
    Assembly first; the FIRS Congress once the Assembly dismissed it; None when neither is open."""
    held = {a.level: a for a in decision.appeals.all()}
    assembly = held.get(AppealLevel.GENERAL_ASSEMBLY)
    if assembly is None:
        return AppealLevel.GENERAL_ASSEMBLY, None
    if assembly.status == AppealStatus.DISMISSED and AppealLevel.FIRS_CONGRESS not in held:
        return AppealLevel.FIRS_CONGRESS, assembly
    return None


def can_decide_appeal(user: User) -> bool:
    return bool(
        getattr(user, "is_authenticated", False) and (is_superuser(user) or has_role(user, Role.IHTC_EXECUTIVE))
    )


def check_can_decide_appeal(user: User) -> None:
    if not can_decide_appeal(user):
        raise PermissionDenied("Rule 9.2 A: the IHTC executive records the decision of the Assembly or the Congress.")


def decide_appeal(*, appeal: Appeal, outcome: str, reasons: str, by: User, now=None) -> Appeal:
    """Record the Assembly's or the Congress's decision (the Congress's is final and binding, 9.2 A)."""
    check_can_decide_appeal(by)
    if outcome not in (AppealStatus.UPHELD, AppealStatus.DISMISSED):
        raise ValidationError({"outcome": "Choose upheld or dismissed."})
    if not (reasons or "").strip():
        raise ValidationError({"reasons": "Rule 9.2 A: the decision gives its reasons."})
    now = now or timezone.now()
    with transaction.atomic():
        appeal = Appeal.objects.select_for_update().get(pk=appeal.pk)
        if appeal.status != AppealStatus.FILED:
            raise ValidationError({"outcome": "Rule 9.2 A: this appeal is decided."})
        appeal.status, appeal.reasons, appeal.decided_by, appeal.decided_at = outcome, reasons.strip(), by, now
        audited_save(appeal, by)
        if outcome == AppealStatus.UPHELD:
            for suspension in appeal.decision.suspensions.select_for_update().filter(status=SuspensionStatus.ACTIVE):
                close_suspension(suspension, SuspensionStatus.ANNULLED, now, by=by)
    return appeal
