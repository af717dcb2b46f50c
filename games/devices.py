"""Who enters at the officials' table: each console device signs in to a game as one or more of its duties.

The timekeeper (4.4), the penalty timekeeper (4.5) and the official scorer (4.3) keep the sheet: the same person
on one device at a small event, up to three devices at a big one. A device signs in as the duties it keeps
(``console_sign_in``); a duty is held by one device at a time, and taking it over from another device is one
explicit, logged action (the old ``ConsoleSignIn`` row ends and names the row that took it over), never silent.
``record_events`` asks ``check_device_signed_in``: a device that never signed in enters nothing (403), one whose
duties were all taken over is told who took them (409), so two tablets never keep one sheet unknowingly.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy

from accounts.models import User
from federation.access import can_edit_federation
from tournaments.models import Game

from .access import SHEET_DUTIES, official_person_id
from .models import ConsoleSignIn, GameOfficial, GameSheet

# The choices of a console duty, for the API (and its schema's ``SheetDutyEnum``).
SHEET_DUTY_CHOICES = [(duty, duty.replace("_", " ")) for duty in SHEET_DUTIES]
# The duties of the officials' table as the server's messages name them, in the reader's language (the console's
# words: games.console.CONSOLE_DUTY_NAMES).
DUTY_NAMES = {
    "timekeeper": pgettext_lazy("scorer's console", "game timekeeper (4.4)"),
    "penalty_timekeeper": pgettext_lazy("scorer's console", "penalty timekeeper (4.5)"),
    "scorer": pgettext_lazy("scorer's console", "official scorer (4.3)"),
}


class ConsoleConflict(Exception):
    """A device's entry or sign-in meets another device's hold of a duty (answered as a 409 naming it)."""

    def __init__(self, message: str, holders: Sequence[ConsoleSignIn]):
        super().__init__(message)
        self.message = message
        self.holders = list(holders)


class DutyHeld(ConsoleConflict):
    """Another device holds a duty asked for: taking it over is an explicit ``take_over``."""


class DeviceTakenOver(ConsoleConflict):
    """Every duty this device held was taken over by another device: it enters nothing more."""


def check_device_name(device: object) -> str:
    """R-10: every entry and sign-in names its device (1-64 characters, made on the device)."""
    name = device.strip() if isinstance(device, str) else ""
    if not name or len(name) > 64:
        raise ValidationError({"device": gettext("R-10: the device names itself (1-64 characters) on every entry.")})
    return name


def check_can_hold_duty(user: User, game: Game, duty: str) -> None:
    """4.3-4.5: a duty of the officials' table is the assigned official's, or the directing staff's to keep."""
    if getattr(user, "is_authenticated", False) and user.is_active:
        if can_edit_federation(user, game.championship.sanctioning_body):
            return
        person_id = official_person_id(user)
        if person_id is not None and GameOfficial.objects.filter(game=game, person_id=person_id, duty=duty).exists():
            return
    raise PermissionDenied(
        gettext("Rule 4.3-4.5: only the game's %(duty)s or the staff who direct its championship keep that duty.")
        % {"duty": DUTY_NAMES[duty]}
    )


def _check_duties(duties: object) -> list[str]:
    if not isinstance(duties, list | tuple) or not duties:
        raise ValidationError(
            {
                "duties": gettext("Rule 4.3-4.5: name the duties this device keeps: %(duties)s")
                % {"duties": ", ".join(SHEET_DUTIES)}
            }
        )
    unknown = [d for d in duties if d not in SHEET_DUTIES]
    if unknown:
        raise ValidationError(
            {
                "duties": gettext("Rule 4.3-4.5: %(duty)s is not a duty of the officials' table (%(duties)s).")
                % {"duty": repr(unknown[0]), "duties": ", ".join(SHEET_DUTIES)}
            }
        )  # fmt: skip
    return sorted(set(duties), key=SHEET_DUTIES.index)


def _describe(holders: Iterable[ConsoleSignIn]) -> str:
    return "; ".join(
        gettext("%(duty)s on device %(device)s (%(user)s) since %(time)s")
        % {
            "duty": DUTY_NAMES[h.duty],
            "device": h.device,
            "user": h.user.get_username(),
            "time": f"{h.signed_in_at:%H:%M:%S}",
        }
        for h in holders
    )


def console_sign_in(
    *,
    game: Game,
    by: User,
    device: object,
    duties: object,
    take_over: bool = False,
    now: datetime.datetime | None = None,
) -> list[ConsoleSignIn]:
    """Sign ``device`` in to the game's sheet as ``duties`` and return the duties it now holds.

    Signing in again for duties the device already holds changes nothing. A duty another device (or another
    login) holds is refused with ``DutyHeld`` naming the holder, unless ``take_over``: then the holder's row
    ends, naming the new row that took it over (the log of who kept which duty when).
    """
    name = check_device_name(device)
    wanted = _check_duties(duties)
    for duty in wanted:
        check_can_hold_duty(by, game, duty)
    now = now or timezone.now()
    with transaction.atomic():
        # The game row serializes sign-ins; the sheet row (when it exists) waits for an entry being stored.
        Game.objects.select_for_update(of=("self",)).filter(pk=game.pk).first()
        GameSheet.objects.select_for_update().filter(game=game).first()
        held = {
            row.duty: row
            for row in ConsoleSignIn.objects.select_related("user").filter(
                game=game, duty__in=wanted, ended_at__isnull=True
            )
        }
        others = [row for row in held.values() if (row.device, row.user_id) != (name, by.pk)]
        if others and not take_over:
            raise DutyHeld(
                gettext("Rule 4.3-4.5: another device keeps this: %(holders)s. Take it over to continue here.")
                % {"holders": _describe(others)},
                others,
            )
        for row in others:
            row.ended_at = now
            row.save(update_fields=["ended_at"])
        for duty in wanted:
            if duty in held and held[duty] not in others:
                continue
            mine = ConsoleSignIn.objects.create(game=game, duty=duty, device=name, user=by, signed_in_at=now)
            for row in others:
                if row.duty == duty:
                    row.taken_over_by = mine
                    row.save(update_fields=["taken_over_by"])
    return list(device_duties(game, name, by))


def console_sign_out(*, game: Game, by: User, device: object, now: datetime.datetime | None = None) -> int:
    """End every duty the device holds for ``by`` on the game (its entries stay); return how many ended."""
    name = check_device_name(device)
    return ConsoleSignIn.objects.filter(game=game, device=name, user=by, ended_at__isnull=True).update(
        ended_at=now or timezone.now()
    )


def device_duties(game: Game, device: str, user: User):
    """The duties the device holds on the game for ``user`` now (a queryset of ``ConsoleSignIn``)."""
    return ConsoleSignIn.objects.filter(game=game, device=device, user=user, ended_at__isnull=True).order_by("duty")


def check_device_signed_in(user: User, game: Game, device: str) -> list[str]:
    """Return the duties the device keeps; refuse a device that never signed in or was taken over (4.3-4.5).

    Called by ``record_events`` with the sheet locked, so a take-over and an entry are taken one after the other.
    """
    duties = list(device_duties(game, device, user).values_list("duty", flat=True))
    if duties:
        return duties
    ended = (
        ConsoleSignIn.objects.filter(game=game, device=device, user=user, taken_over_by__isnull=False)
        .select_related("taken_over_by__user")
        .order_by("-ended_at", "-pk")
        .first()
    )
    if ended is not None:
        taker = ended.taken_over_by
        raise DeviceTakenOver(
            gettext(
                "Rule 4.3-4.5: device %(device)s (%(user)s) took over the %(duty)s at %(time)s; this device enters "
                "nothing more. Sign in again to take it back, or export its unsent entries (rescue export)."
            )
            % {
                "device": taker.device,
                "user": taker.user.get_username(),
                "duty": DUTY_NAMES[ended.duty],
                "time": f"{ended.ended_at:%H:%M:%S}",
            },
            [taker],
        )
    raise PermissionDenied(
        gettext(
            "Rule 4.3-4.5: this device has not signed in to the game's sheet: sign in as the duties it keeps first."
        )
    )


def sign_ins_visible(game: Game):
    """Every sign-in of the game, ended ones included (who kept which duty when), oldest first."""
    return (
        ConsoleSignIn.objects.filter(game=game).select_related("user", "taken_over_by").order_by("signed_in_at", "pk")
    )
