"""Appeals (9.2 A; R-54, R-56): against a decision of the discipline committee or the executive (R-54), or against
the IHTC's decision on a protest (9.1 A; R-56), lodged with the IHTC General Assembly, then with the FIRS Congress,
whose decision is final and binding. Both are appealed in the same steps, with the same deadlines, by the same
functions here: ``appealed`` is the ``Decision`` or the decided ``Protest``.

- Who files (``discipline.access.can_file_appeal``, the discipline app's access rules): against a committee's
  decision, staff of the federation of a person the decision concerns and the managers of that person's team in
  the case; against a protest's decision, staff of the federations of the game's two teams and the managers of
  those teams (R-56: the teams of the game and their federations); for both, international staff (every
  federation), the committee's members and the executive on the federation's behalf.
- Deadline: ``AppealRules`` of the championship's ruleset (days after the decision appealed: the committee's or
  the protest's for the General Assembly, the Assembly's for the Congress); no default, so no deadline when unset
  (R-54, R-56).
- Who records the decision: the IHTC executive (it keeps the Assembly's and the Congress's minutes here).
- An upheld appeal annuls the decision's suspensions still in force; an appeal of a protest's decision is told to
  the managers of both teams at each step, as the protest's own steps are (``discipline.protests``).
"""

from __future__ import annotations

import datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from accounts.models import Role, User
from accounts.roles import has_role, is_superuser
from common.text import Words, said, said_in
from discipline.access import can_file_appeal, has_decision_letter
from discipline.models import Appeal, AppealLevel, AppealStatus, Decision, Protest, SuspensionStatus
from discipline.protests import tell_teams  # the protests' notifications, their key and their page
from discipline.suspensions import close as close_suspension
from portal.i18n import say, untranslated
from portal.services import audited_create, audited_save
from tournaments.facts import championship_ruleset
from tournaments.venue_time import venue_stamp

Appealed = Decision | Protest

# The decision each kind of appeal reads, and who may appeal, as the refusal says it (9.2 A).
_DECISION_RULE = {Decision: "R-54", Protest: "R-56"}
_NOT_A_PARTY = {
    Decision: "Rule 9.2 A: the federation of a person the decision concerns files the appeal.",
    Protest: "Rule 9.2 A / R-56: the teams of the game and their federations appeal the protest's decision.",
}


def appealed_championship(appealed: Appealed):
    """The championship of the decision appealed: its ruleset sets the deadlines, its venue the clock."""
    return appealed.case.championship if isinstance(appealed, Decision) else appealed.game.championship


def appeal_deadline(appealed: Appealed, level: str, *, previous: Appeal | None) -> datetime.datetime | None:
    """The deadline of an appeal (R-54, R-56): the ruleset's days after the decision appealed (the committee's or
    the protest's); None when unset."""
    rules = championship_ruleset(appealed_championship(appealed)).appeals
    if level == AppealLevel.GENERAL_ASSEMBLY:
        days, since = rules.general_assembly_days, appealed.decided_at
    else:
        days, since = rules.congress_days, previous.decided_at if previous else None
    if days is None or since is None:
        return None
    return since + datetime.timedelta(days=days)


def _one_appealed(decision: Decision | None, protest: Protest | None) -> Appealed:
    if (decision is None) == (protest is None):
        raise TypeError("file_appeal appeals a decision or a protest: give exactly one")
    return decision if decision is not None else protest


def _locked(appealed: Appealed) -> Appealed:
    """``appealed``'s row locked: two appeals to the same level cannot both pass the checks."""
    return type(appealed).objects.select_for_update().get(pk=appealed.pk)


def file_appeal(
    *,
    decision: Decision | None = None,
    protest: Protest | None = None,
    level: str,
    grounds: str,
    by: User,
    fee=None,
    now=None,
) -> Appeal:
    """Lodge an appeal against a committee's ``decision`` (R-54) or a ``protest``'s decision (R-56): first with the
    IHTC General Assembly, then (its appeal dismissed) with the FIRS Congress."""
    appealed = _one_appealed(decision, protest)
    now = now or timezone.now()
    if not can_file_appeal(by, appealed):
        raise PermissionDenied(_NOT_A_PARTY[type(appealed)])
    if level not in AppealLevel.values:
        raise ValidationError(
            {"level": gettext("Choose one of: %(choices)s.") % {"choices": ", ".join(AppealLevel.values)}}
        )
    if not (grounds or "").strip():
        raise ValidationError({"grounds": gettext_lazy("Rule 9.2 A: the appeal gives its grounds.")})
    with transaction.atomic():
        appealed = _locked(appealed)
        if isinstance(appealed, Protest) and not has_decision_letter(appealed):
            raise ValidationError(
                {
                    "level": gettext(
                        "Rule 9.2 A / R-56: a protest is appealed once the IHTC has upheld or rejected it (9.1 A)."
                    )
                }
            )
        held = {a.level: a for a in appealed.appeals.all()}
        previous = None
        if level in held:
            raise ValidationError(
                {
                    "level": gettext("Rule 9.2 A: an appeal to the %(level)s is filed.")
                    % {"level": held[level].get_level_display()}
                }
            )
        if level == AppealLevel.FIRS_CONGRESS:
            previous = held.get(AppealLevel.GENERAL_ASSEMBLY)
            if previous is None or previous.status != AppealStatus.DISMISSED:
                raise ValidationError(
                    {
                        "level": gettext(
                            "Rule 9.2 A: the FIRS Congress hears an appeal the IHTC General Assembly dismissed."
                        )
                    }
                )
        elif held.get(AppealLevel.GENERAL_ASSEMBLY):
            raise ValidationError({"level": gettext("Rule 9.2 A: the General Assembly's appeal is filed.")})
        deadline = appeal_deadline(appealed, level, previous=previous)
        if deadline is not None and now > deadline:
            raise ValidationError(
                {
                    "level": gettext("Rule 9.2 A / %(rule)s: the appeal's deadline was %(deadline)s.")
                    % {
                        "rule": _DECISION_RULE[type(appealed)],
                        "deadline": say(venue_stamp(deadline, appealed_championship(appealed))),
                    }
                }
            )
        against = {"decision": appealed} if isinstance(appealed, Decision) else {"protest": appealed}
        appeal = audited_create(
            Appeal, by, level=level, previous=previous, filer=by, grounds=grounds.strip(), fee=fee, filed_at=now,
            deadline=deadline, **against,
        )  # fmt: skip
        _tell_teams(appeal, now=now)
    return appeal


def next_appeal(appealed: Appealed) -> tuple[str, Appeal | None] | None:
    """The level an appeal against ``appealed`` (a committee's decision or a protest's) may go to now and the
    appeal it follows (9.2 A): the General Assembly first; the FIRS Congress once the Assembly dismissed it; None
    when neither is open."""
    held = {a.level: a for a in appealed.appeals.all()}
    assembly = held.get(AppealLevel.GENERAL_ASSEMBLY)
    if assembly is None:
        return AppealLevel.GENERAL_ASSEMBLY, None
    if assembly.status == AppealStatus.DISMISSED and AppealLevel.FIRS_CONGRESS not in held:
        return AppealLevel.FIRS_CONGRESS, assembly
    return None


def may_appeal_now(user: User, appealed: Appealed) -> bool:
    """Whether the page offers ``user`` to lodge an appeal against ``appealed`` now: a step is open (``next_appeal``),
    the user is a party (``can_file_appeal``) and, for a protest, the IHTC decided it (9.1 A)."""
    if isinstance(appealed, Protest) and not has_decision_letter(appealed):
        return False
    return next_appeal(appealed) is not None and can_file_appeal(user, appealed)


# An appeal of a protest's decision as both teams are told it: stored as messages, said in each reader's
# language (issue 26); the grounds and the reasons are people's own words, never translated.
_TOLD = {
    AppealStatus.FILED: (
        lambda level: said_in("protest notification", "decision appealed to the {level}", level=level),
        lambda level, appeal: said(
            "{filer} appealed the decision on the protest to the {level}: {grounds}",
            filer=str(appeal.filer),
            level=level,
            grounds=Words(appeal.grounds[:2000]),
        ),
    ),
    AppealStatus.UPHELD: (
        lambda level: said_in("protest notification", "appeal to the {level} upheld", level=level),
        lambda level, appeal: said(
            "The {level} upheld the appeal against the decision on the protest: {reasons}",
            level=level,
            reasons=Words(appeal.reasons),
        ),
    ),
    AppealStatus.DISMISSED: (
        lambda level: said_in("protest notification", "appeal to the {level} dismissed", level=level),
        lambda level, appeal: said(
            "The {level} dismissed the appeal against the decision on the protest: {reasons}",
            level=level,
            reasons=Words(appeal.reasons),
        ),
    ),
}


def _tell_teams(appeal: Appeal, *, now: datetime.datetime) -> None:
    """Tell the managers of both teams of the game each step of an appeal of a protest's decision (R-56), once."""
    if appeal.protest_id is None:
        return
    subject, body = _TOLD[appeal.status]
    level = untranslated(AppealLevel(appeal.level).label)
    tell_teams(appeal.protest, f"appeal:{appeal.pk}:{appeal.status}", subject(level), body(level, appeal), now=now)


def can_decide_appeal(user: User) -> bool:
    return bool(
        getattr(user, "is_authenticated", False) and (is_superuser(user) or has_role(user, Role.IHTC_EXECUTIVE))
    )


def check_can_decide_appeal(user: User) -> None:
    if not can_decide_appeal(user):
        raise PermissionDenied(
            gettext("Rule 9.2 A: the IHTC executive records the decision of the Assembly or the Congress.")
        )


def decide_appeal(*, appeal: Appeal, outcome: str, reasons: str, by: User, now=None) -> Appeal:
    """Record the Assembly's or the Congress's decision (the Congress's is final and binding, 9.2 A), on an appeal
    against a committee's decision or a protest's (R-56): the same step for both."""
    check_can_decide_appeal(by)
    if outcome not in (AppealStatus.UPHELD, AppealStatus.DISMISSED):
        raise ValidationError({"outcome": gettext("Choose upheld or dismissed.")})
    if not (reasons or "").strip():
        raise ValidationError({"reasons": gettext("Rule 9.2 A: the decision gives its reasons.")})
    now = now or timezone.now()
    with transaction.atomic():
        appeal = Appeal.objects.select_for_update().get(pk=appeal.pk)
        if appeal.status != AppealStatus.FILED:
            raise ValidationError({"outcome": gettext("Rule 9.2 A: this appeal is decided.")})
        appeal.status, appeal.reasons, appeal.decided_by, appeal.decided_at = outcome, reasons.strip(), by, now
        audited_save(appeal, by)
        if outcome == AppealStatus.UPHELD and appeal.decision_id is not None:
            for suspension in appeal.decision.suspensions.select_for_update().filter(status=SuspensionStatus.ACTIVE):
                close_suspension(suspension, SuspensionStatus.ANNULLED, now, by=by)
        _tell_teams(appeal, now=now)
    return appeal
