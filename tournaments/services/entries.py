"""Team entries (1.1 A): entering, the entry fee, the team's managers, withdrawal."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Iterable

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from djmoney.money import Money

from accounts import invitations
from accounts.models import Invitation, Role, RoleAssignment, User
from accounts.roles import is_international_staff
from federation.access import can_edit_federation, federations_registering_for
from federation.models import Federation, FederationLevel
from portal.services import audited_create, audited_delete, audited_save, check_transition
from tournaments.facts import (
    field_error,
    resolve_now,
    venue_today,
)
from tournaments.models import (
    ENTRY_TRANSITIONS,
    TEAM_ENTRY_TARGET,
    Championship,
    EntryStatus,
    Game,
    GameStatus,
    OfficialRole,
    TeamEntry,
)
from tournaments.services.championships import check_can_direct
from tournaments.versions import championship_changed


def can_manage_entry(user: User, entry: TeamEntry) -> bool:
    """Return True for the entry's team managers, staff of its federation and international staff."""
    if not getattr(user, "is_authenticated", False):
        return False
    if can_edit_federation(user, entry.federation):
        return True
    return entry.managers.filter(pk=user.pk).exists()


def check_can_manage_entry(user: User, entry: TeamEntry) -> None:
    if not can_manage_entry(user, entry):
        raise PermissionDenied(_("Only the team's managers or staff of its federation may change this entry."))


def access_managed_entry(user: User, entry_id: int) -> TeamEntry:
    """Return the entry whose page (its roster with eligibility, its officials) ``user`` may read.

    404 when its championship is not visible to the user; 403 unless ``can_manage_entry``. The entry page and
    the roster sheet (``reports``) ask this one question.
    """
    from tournaments.selectors import of_visible_championships

    entries = TeamEntry.objects.select_related("championship__venue", "championship__sanctioning_body", "federation")
    entry = get_object_or_404(of_visible_championships(entries, user), pk=entry_id)
    check_can_manage_entry(user, entry)
    return entry


def check_federation_may_enter(federation: Federation) -> None:
    """1.1 A: the competitions are open to the national teams of national federations affiliated with FIRS."""
    if federation.level != FederationLevel.NATIONAL:
        raise field_error("federation", _("Rule 1.1 A: only a national federation enters a national team."))
    if not federation.firs_affiliated:
        raise field_error(
            "federation", _("Rule 1.1 A: %(federation)s is not affiliated with FIRS.") % {"federation": federation}
        )
    if not federation.good_standing:
        raise field_error(
            "federation", _("Rule 1.1 A: %(federation)s is not in good standing.") % {"federation": federation}
        )


def check_entries_open(championship: Championship, *, now: datetime.datetime) -> None:
    """1.1 A: an entry is confirmed prior to the closing date set by the IHTC (dates at the venue).

    A draft championship takes no entry: the federations are invited once its directors publish it. (Only those
    who may see the draft meet this answer; to everyone else it is no such championship.)
    """
    if not championship.published:
        raise field_error(
            "championship",
            _("Rule 1.1 A: the championship is not published yet: entries open once its directors publish it."),
        )
    today = venue_today(championship, now)
    if today >= championship.entry_closing_date:
        raise field_error(
            "championship",
            _("Rule 1.1 A: entries closed on %(date)s; an entry must be made prior to the closing date.")
            % {"date": championship.entry_closing_date.strftime("%Y-%m-%d")},
        )


@dataclasses.dataclass(frozen=True)
class EntryOffer:
    """What a championship's page offers a login about entering a team (1.1 A): the federations it may enter now,
    or why not (entries closed; its own federations that may not enter, each with the rule)."""

    federations: tuple[Federation, ...] = ()
    closed: str = ""
    refused: tuple[str, ...] = ()

    @property
    def shown(self) -> bool:
        return bool(self.federations or self.closed or self.refused)


def entry_offer(user: User, championship: Championship, *, now: datetime.datetime | None = None) -> EntryOffer:
    """The "Enter a team" action for ``user`` on ``championship``: the national federations they act for
    (``can_edit_federation``) that may enter (1.1 A: national, affiliated, in good standing) and have not entered
    yet. A draft is never offered (its directors publish it first); after the closing date the page says so."""
    if not getattr(user, "is_authenticated", False) or not championship.published:
        return EntryOffer()
    now = resolve_now(now)
    entered = TeamEntry.objects.filter(championship=championship).values("federation_id")
    candidates = federations_registering_for(user).filter(level=FederationLevel.NATIONAL).exclude(pk__in=entered)
    federations, refused = [], []
    international = is_international_staff(user)
    for federation in candidates.order_by("name"):
        try:
            check_federation_may_enter(federation)
        except ValidationError as exc:
            if not international:  # their own federation: say why it may not
                refused.extend(exc.messages)
            continue
        federations.append(federation)
    closed = ""
    if federations:
        try:
            check_entries_open(championship, now=now)
        except ValidationError as exc:
            closed, federations = " ".join(exc.messages), []
    return EntryOffer(federations=tuple(federations), closed=closed, refused=tuple(refused))


def entry_create(
    *,
    championship: Championship,
    federation: Federation,
    name: str = "",
    by: User,
    now: datetime.datetime | None = None,
) -> TeamEntry:
    """Enter the federation's national team; the fee due is the championship's entry fee (1.1 A)."""
    now = resolve_now(now)
    if not can_edit_federation(by, federation):
        raise PermissionDenied(_("Only staff of the federation or international staff may enter its team."))
    check_federation_may_enter(federation)
    check_entries_open(championship, now=now)
    name = (name or federation.short_name or federation.name).strip()
    with transaction.atomic():
        # Two staff entering at once must not both find the name free.
        Championship.objects.select_for_update().filter(pk=championship.pk).exists()
        if TeamEntry.objects.filter(championship=championship, federation=federation).exists():
            raise field_error(
                "federation",
                _("Rule 1.1 A: %(federation)s has already entered its national team.") % {"federation": federation},
            )
        if TeamEntry.objects.filter(championship=championship, name=name).exists():
            raise field_error("name", _("another team is already entered as %(name)s") % {"name": repr(name)})
        championship_changed(championship.pk)
        return audited_create(
            TeamEntry,
            by,
            championship=championship,
            federation=federation,
            name=name,
            fee_due=championship.entry_fee,
            entered_at=now,
            entered_by=by,
        )


def entry_record_fee_paid(
    *,
    entry: TeamEntry,
    amount: Money,
    paid_at: datetime.datetime | None = None,
    by: User,
) -> TeamEntry:
    """Record the entry fee as paid, which confirms the entry (1.1 A)."""
    check_can_direct(by, entry.championship)
    paid_at = resolve_now(paid_at)
    with transaction.atomic():
        entry = TeamEntry.objects.select_for_update().get(pk=entry.pk)
        if entry.fee_paid:
            raise field_error("amount", _("Rule 1.1 A: the entry fee is already recorded as paid."))
        if amount.currency != entry.fee_due.currency:
            raise field_error(
                "amount",
                _("Rule 1.1 A: the entry fee is due in %(currency)s, not %(paid_currency)s.")
                % {"currency": entry.fee_due.currency, "paid_currency": amount.currency},
            )
        if amount < entry.fee_due:
            raise field_error(
                "amount",
                _("Rule 1.1 A: the entry fee is %(fee)s; %(amount)s does not cover it.")
                % {"fee": entry.fee_due, "amount": amount},
            )
        # 1.1 A: paying the fee confirms an entry that is still only entered.
        check_transition(
            ENTRY_TRANSITIONS, entry.status, EntryStatus.CONFIRMED, subject=_("an entry"), article=_("Rule 1.1 A")
        )
        entry.fee_paid = True
        entry.fee_paid_amount = amount
        entry.fee_paid_at = paid_at
        entry.status = EntryStatus.CONFIRMED
        audited_save(entry, by, update_fields=["fee_paid", "fee_paid_amount", "fee_paid_at", "status"])
        championship_changed(entry.championship_id)
    return entry


def check_can_name_managers(user: User, entry: TeamEntry) -> None:
    """Only staff of the entering federation (or international staff) name the team's managers."""
    if not can_edit_federation(user, entry.federation):
        raise PermissionDenied(_("Only staff of the team's federation or international staff name its managers."))


# What an invitee will do for the team (``Invitation.duty``); every one manages the entry in the portal.
INVITE_DUTIES = [
    (OfficialRole.MANAGER.value, OfficialRole.MANAGER.label),
    *[(value, label) for value, label in OfficialRole.choices if value != OfficialRole.MANAGER],
]


def entry_invite(*, entry: TeamEntry, email: str, duty: str, by: User) -> Invitation:
    """Name the team's manager or one of its officials by e-mail (issue 25): the invitation (valid 7 days, once)
    grants the team manager role of the entry's federation and a place among the entry's managers."""
    check_can_name_managers(by, entry)
    duties = dict(INVITE_DUTIES)
    if duty not in duties:
        raise field_error("duty", _("Choose one of: %(duties)s.") % {"duties": ", ".join(duties)})
    return invitations.invite(
        email=email,
        role=Role.TEAM_MANAGER,
        federation_id=entry.federation_id,
        target_kind=TEAM_ENTRY_TARGET,
        target_id=entry.pk,
        duty=duty,
        duty_label=duties[duty],  # lazy: said in the invitee's language (issue 26)
        by=by,
    )


def entry_set_managers(*, entry: TeamEntry, managers: Iterable[User], by: User) -> TeamEntry:
    """Name the team's managers; only staff of the entering federation (or international staff) may.

    A manager taken off the entry loses every right that came from it: his team
    manager role of the federation goes unless he still manages another of its entries.
    """
    check_can_name_managers(by, entry)
    managers = list(managers)
    with transaction.atomic():
        entry = TeamEntry.objects.select_for_update().get(pk=entry.pk)
        check_entry_open(entry, field="managers")
        removed = set(entry.managers.values_list("pk", flat=True)) - {user.pk for user in managers}
        entry.managers.set(managers)
        # The team manager role of the access layer, scoped to the federation.
        for user in managers:
            RoleAssignment.objects.get_or_create(user=user, role=Role.TEAM_MANAGER, federation=entry.federation)
        still_managing = set(
            TeamEntry.managers.through.objects.filter(
                user_id__in=removed, teamentry__federation_id=entry.federation_id
            ).values_list("user_id", flat=True)
        )
        for assignment in RoleAssignment.objects.filter(
            user_id__in=removed - still_managing, role=Role.TEAM_MANAGER, federation=entry.federation
        ):
            audited_delete(assignment, by)
    return entry


def entry_withdraw(*, entry: TeamEntry, by: User) -> TeamEntry:
    """Withdraw the entry before it plays."""
    if not can_edit_federation(by, entry.federation):
        raise PermissionDenied(_("Only staff of the team's federation or international staff withdraw its entry."))
    with transaction.atomic():
        entry = TeamEntry.objects.select_for_update().get(pk=entry.pk)
        check_transition(ENTRY_TRANSITIONS, entry.status, EntryStatus.WITHDRAWN, subject=_("an entry"))
        if Game.objects.filter(Q(home=entry) | Q(away=entry), status=GameStatus.FINAL).exists():
            raise field_error("status", _("the team has played: a team that stops playing forfeits its games (8.1)."))
        entry.status = EntryStatus.WITHDRAWN
        audited_save(entry, by, update_fields=["status"])
        championship_changed(entry.championship_id)
    return entry


def check_entry_open(entry: TeamEntry, *, field: str = "entry") -> None:
    """A withdrawn or disqualified entry (8.1 C) changes no more."""
    if entry.status in (EntryStatus.WITHDRAWN, EntryStatus.DISQUALIFIED):
        raise field_error(field, _("the entry is %(status)s") % {"status": entry.get_status_display().lower()})
