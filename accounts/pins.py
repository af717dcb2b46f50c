"""A login's signing secret: the personal PIN it types on the officials' device to sign a game report (4.2 O,
4.3 A; issue 23), and the check of that PIN or the login's password, locked after repeated failures.

The PIN is hashed with Django's password hashers (``make_password``), never stored as typed. Wrong PINs and
passwords given to sign count in a row on the login (``User.signing_failures``): at ``AXES_FAILURE_LIMIT`` the
login's signing secrets are refused for ``AXES_COOLOFF_TIME`` hours, as django-axes locks a login's password. A
locked signer can still sign from their own device, logged in as themselves (games.finalize.sheet_sign).
"""

from __future__ import annotations

import datetime
import re

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.core.exceptions import ValidationError
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from .models import User

PIN_PATTERN = re.compile(r"\d{6,12}")
PIN_RULE = "A signing PIN is 6 to 12 digits."
PIN, PASSWORD = "pin", "password"  # pragma: allowlist secret


def check_pin_format(pin: str) -> None:
    """A PIN is 6 to 12 digits (with at most AXES_FAILURE_LIMIT tries an hour, a million choices at least)."""
    if not PIN_PATTERN.fullmatch(pin or ""):
        raise ValidationError({"pin": PIN_RULE})


def _cooloff() -> datetime.timedelta:
    cooloff = settings.AXES_COOLOFF_TIME
    return cooloff if isinstance(cooloff, datetime.timedelta) else datetime.timedelta(hours=cooloff)


def _check_not_locked(user: User, field: str, now) -> None:
    if user.signing_locked_until is not None and user.signing_locked_until > now:
        raise ValidationError(
            {
                field: gettext(
                    "Too many wrong PINs or passwords for %(username)s: signing with them is locked "
                    "until %(until)s UTC. Sign from your own device, logged in."
                )
                % {"username": user.get_username(), "until": f"{user.signing_locked_until:%H:%M}"}
            }
        )


def _failed(user: User, now) -> None:
    """Count a wrong secret (an UPDATE of its own: a refusal that follows rolls back nothing of it); lock at the
    limit."""
    User.objects.filter(pk=user.pk).update(signing_failures=F("signing_failures") + 1)
    user.refresh_from_db(fields=["signing_failures"])
    if user.signing_failures >= settings.AXES_FAILURE_LIMIT:
        user.signing_locked_until = now + _cooloff()
        user.signing_failures = 0
        User.objects.filter(pk=user.pk).update(signing_locked_until=user.signing_locked_until, signing_failures=0)


def verify_signing_secret(user: User, *, pin: str = "", password: str = "", rule: str, now=None) -> str:
    """Check that the person at the device is ``user``: their PIN, else their password. Returns which one was given
    (``PIN`` or ``PASSWORD``); refuses (ValidationError on the ``pin`` or ``password`` field, naming ``rule``) a
    missing or wrong secret, or a login locked after too many wrong ones. A right secret resets the count."""
    now = now or timezone.now()
    field = PIN if pin or not password else PASSWORD
    _check_not_locked(user, field, now)
    if pin:
        if not user.signing_pin:
            raise ValidationError(
                {
                    PIN: gettext("%(rule)s: %(username)s has set no signing PIN; sign with the password.")
                    % {"rule": rule, "username": user.get_username()}
                }
            )
        right = check_password(pin, user.signing_pin)
        wrong = f"{rule}: wrong PIN for {user.get_username()}."
    elif password:
        right = user.check_password(password)
        wrong = f"{rule}: wrong password for {user.get_username()}."
    else:
        raise ValidationError(
            {PIN: gettext("%(rule)s: the signer types their PIN or their password to sign.") % {"rule": rule}}
        )
    if not right or not user.is_active:
        _failed(user, now)
        raise ValidationError({field: wrong})
    if user.signing_failures or user.signing_locked_until:
        User.objects.filter(pk=user.pk).update(signing_failures=0, signing_locked_until=None)
    return field


def set_signing_pin(user: User, *, current_password: str, pin: str, now=None) -> None:
    """Set or change ``user``'s signing PIN, once they give their current password (counted like a wrong PIN)."""
    now = now or timezone.now()
    _check_not_locked(user, "current_password", now)
    if not user.check_password(current_password or ""):
        _failed(user, now)
        raise ValidationError(
            {"current_password": gettext("Your current password is wrong.")}
        )  # pragma: allowlist secret
    check_pin_format(pin)
    user.signing_pin = make_password(pin)
    user.signing_failures, user.signing_locked_until = 0, None
    user.save(update_fields=["signing_pin", "signing_failures", "signing_locked_until"])
