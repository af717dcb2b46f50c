"""Invitations by e-mail (issue 25): staff name a team's manager or officials by their e-mail address, never by a
login's id; the invitee follows the link (valid ``INVITATION_DAYS`` days, once), sets a username and password (or,
logged in with that address, only accepts) and receives the role.

The link carries a random token; the database keeps its SHA-256 digest only. The role and its scope are a
``RoleAssignment``'s; what the acceptance does in a higher app (a team entry's managers) is asked through the
hooks of ``accounts.hooks``. The e-mail goes in the invitee's language when a login of that address chose one,
else in the inviter's.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from portal.services import audited_create

from . import roles
from .hooks import INVITATION_TARGETS
from .models import Invitation, Role, RoleAssignment, User

INVITATION_DAYS = 7
# Roles federation staff may grant by invitation, scoped to their federation (executives grant any role).
STAFF_GRANTABLE = {Role.TEAM_MANAGER}


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def may_invite(user, role: str, federation_id: int | None) -> bool:
    """Executives invite to any role; international staff and staff of the federation to a team role of it."""
    if roles.can_manage_accounts(user):
        return True
    if role not in STAFF_GRANTABLE or federation_id is None:
        return False
    return roles.is_international_staff(user) or federation_id in roles.staff_federation_ids(user)


def target_label(invitation: Invitation) -> str | None:
    """What the invitation is for, in words ("France, Euro 2026"); None without a target or when it is gone."""
    if not invitation.target_kind:
        return None
    label, _accept = INVITATION_TARGETS[invitation.target_kind]
    return label(invitation.target_id)


def language_for(email: str, inviter) -> str:
    """The invitee's chosen language when a login of the address has one, else the inviter's (else English)."""
    known = dict(settings.LANGUAGES)
    chosen = (
        User.objects.filter(email__iexact=email).exclude(language="").values_list("language", flat=True).first()
        or getattr(inviter, "language", "")
        or translation.get_language()
        or ""
    )
    chosen = chosen.split("-")[0]
    return chosen if chosen in known else settings.LANGUAGE_CODE


def invite(
    *,
    email: str,
    role: str,
    by: User,
    federation_id: int | None = None,
    target_kind: str = "",
    target_id: int | None = None,
    duty: str = "",
    duty_label: str | Promise = "",
    now: datetime.datetime | None = None,
) -> Invitation:
    """Store an invitation and send its link by e-mail; the link is valid ``INVITATION_DAYS`` days, once."""
    if not may_invite(by, role, federation_id):
        raise PermissionDenied(gettext("Only staff of the federation or international staff invite to its team roles."))
    if target_kind and target_kind not in INVITATION_TARGETS:
        raise ValueError(f"unknown invitation target: {target_kind}")
    email = User.objects.normalize_email(email.strip())
    now = now or timezone.now()
    token = secrets.token_urlsafe(32)
    invitation = audited_create(
        Invitation,
        by,
        email=email,
        role=role,
        federation_id=federation_id,
        target_kind=target_kind,
        target_id=target_id,
        duty=duty,
        token_digest=digest(token),
        invited_by=by,
        created_at=now,
        expires_at=now + datetime.timedelta(days=INVITATION_DAYS),
    )
    _send(invitation, token, duty_label=duty_label)
    return invitation


def _send(invitation: Invitation, token: str, *, duty_label: str | Promise) -> None:
    link = settings.PORTAL_BASE_URL.rstrip("/") + reverse("accounts:invitation", args=[token])
    inviter = invitation.invited_by
    with translation.override(language_for(invitation.email, inviter)):
        context = {
            "invitation": invitation,
            "inviter": inviter.get_full_name() or inviter.username,
            "role": invitation.get_role_display(),
            "duty": str(duty_label),  # a lazy label is said in the invitee's language
            "target": target_label(invitation),
            "link": link,
            "days": INVITATION_DAYS,
        }
        subject = _("Invitation to the IHTC Portal")
        body = render_to_string("accounts/email/invitation.txt", context)
    send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [invitation.email])


def open_invitation(token: str, *, now: datetime.datetime | None = None) -> Invitation:
    """The invitation of a link that can still be accepted; a ValidationError says why not (never which)."""
    now = now or timezone.now()
    invitation = (
        Invitation.objects.select_related("invited_by", "federation").filter(token_digest=digest(token)).first()
    )
    if invitation is None or invitation.accepted_at is not None or invitation.expires_at <= now:
        raise ValidationError(
            _(
                "This invitation link cannot be used: it was used already, or it is older than %(days)s days. "
                "Ask the person who invited you for a new one."
            )
            % {"days": INVITATION_DAYS},
            code="invitation_closed",
        )
    return invitation


def accept(token: str, user: User, *, now: datetime.datetime | None = None) -> Invitation:
    """Grant the invitation's role to ``user`` (its scope, and its target's rights); the link is then used up.

    A logged-in person accepts only an invitation sent to their own address."""
    now = now or timezone.now()
    with transaction.atomic():
        invitation = open_invitation(token, now=now)
        invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
        if invitation.accepted_at is not None:
            raise ValidationError(_("This invitation was accepted already."), code="invitation_closed")
        if user.email.strip().lower() != invitation.email.lower():
            raise ValidationError(
                _("This invitation was sent to another e-mail address: log out, then follow the link again."),
                code="other_address",
            )
        RoleAssignment.objects.get_or_create(user=user, role=invitation.role, federation=invitation.federation)
        if invitation.target_kind:
            _label, accept_target = INVITATION_TARGETS[invitation.target_kind]
            accept_target(invitation.target_id, user, invitation.invited_by)
        invitation.accepted_at = now
        invitation.accepted_by = user
        invitation._history_user = user
        invitation.save(update_fields=["accepted_at", "accepted_by"])
    roles.forget_roles(user)
    return invitation


def pending_for_target(target_kind: str, target_id: int, *, now: datetime.datetime | None = None):
    """The invitations of a target still waiting for their invitee (newest first)."""
    now = now or timezone.now()
    return Invitation.objects.filter(
        target_kind=target_kind, target_id=target_id, accepted_at__isnull=True, expires_at__gt=now
    )
