from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _
from knox.models import AbstractAuthToken
from simple_history.models import HistoricalRecords

from portal.choices import ChoiceLabels


class User(AbstractUser):
    """A portal login. What it may do comes from its role assignments."""

    # The language chosen with the switch (issue 12): the screens of a new browser and the e-mails use it.
    # Blank: never chosen; e-mails then go in English, the authoritative language of the rules.
    language = models.CharField(max_length=8, blank=True, default="", choices=settings.LANGUAGES)
    # The personal PIN a signer types on the officials' device to sign a game report (4.2 O, 4.3 A; issue 23):
    # hashed by Django's password hashers, set on the "Signing PIN" page (accounts.pins). Blank: none set.
    signing_pin = models.CharField(max_length=128, blank=True, default="")
    # Wrong PINs or passwords given to sign, in a row; at settings.AXES_FAILURE_LIMIT the login's signing is
    # locked until ``signing_locked_until`` (AXES_COOLOFF_TIME hours), as a login is (accounts.pins).
    signing_failures = models.PositiveSmallIntegerField(default=0)
    signing_locked_until = models.DateTimeField(null=True, blank=True)
    # Raised when a role of the login is revoked (accounts.logins.end_access): every open session of the login
    # ends on its next request, as a new password ends them (``get_session_auth_hash``).
    session_generation = models.PositiveIntegerField(default=0)

    def __str__(self):
        return self.get_full_name() or self.username

    def _get_session_auth_hash(self, secret=None):
        """Django's hash of the password, which each session keeps and checks on every request (with the secret
        key's fallbacks too); with the session generation once a role was revoked (0: Django's own hash, so no
        session ends when this is deployed)."""
        if not self.session_generation:
            return super()._get_session_auth_hash(secret=secret)
        return salted_hmac(
            "accounts.User.get_session_auth_hash",
            f"{self.password}:{self.session_generation}",
            secret=secret,
            algorithm="sha256",
        ).hexdigest()

    # --- A new password revokes the API tokens (issue 23) -----------------------------------------------------
    # Every way a password changes ends in ``save()``: the admin's "change password" of a login and its own
    # "change password" page, ``set_password`` in any service, ``manage.py changepassword``. Whoever changes a
    # password because it leaked must not leave a token made with it working: each of the person's tokens is
    # revoked. A hash upgrade at login (``check_password`` re-hashing the same password) is no change.
    # ``revoked_api_tokens`` then says how many, for the page that changed it to say so.

    revoked_api_tokens = 0

    @classmethod
    def from_db(cls, db, field_names, values):
        user = super().from_db(db, field_names, values)
        user._stored_password = user.__dict__.get("password")  # absent when the field was deferred
        return user

    def save(self, *args, **kwargs):
        replaced = self._password_replaced(kwargs.get("update_fields"))
        super().save(*args, **kwargs)
        if replaced:
            self.revoked_api_tokens = revoke_api_tokens(self)
        self._stored_password = self.password

    def _password_replaced(self, update_fields) -> bool:
        if self._state.adding or (update_fields is not None and "password" not in update_fields):
            return False
        if self._password is None and update_fields is not None and set(update_fields) == {"password"}:
            return False  # check_password's hash upgrade: the same password, stored with today's hasher
        stored = getattr(self, "_stored_password", None)
        if stored is None:  # loaded without its password: only set_password tells
            return self._password is not None
        return stored != self.password


def revoke_api_tokens(user: User) -> int:
    """Delete every API token of ``user`` (they are refused from now on); return how many there were."""
    deleted, _by_model = ApiToken.objects.filter(user=user).delete()
    return deleted


class Role(models.TextChoices):
    IHTC_EXECUTIVE = "ihtc_executive", _("IHTC executive")
    FEDERATION_STAFF = "federation_staff", _("Federation staff")
    TEAM_MANAGER = "team_manager", _("Team manager")
    GAME_OFFICIAL = "game_official", _("Referee / game official")
    DISCIPLINE_COMMITTEE = "discipline_committee", _("Discipline committee member")


class RoleAssignment(ChoiceLabels):
    """One role held by one user, scoped where the role needs a scope.

    Federation staff are scoped to a federation: staff of an international
    federation (FIRS, or a continental body's parent) see every federation
    below it; staff of a national federation see only their own. A person
    can hold several roles at once.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="role_assignments")
    role = models.CharField(max_length=32, choices=Role.choices)
    federation = models.ForeignKey(
        "federation.Federation",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="role_assignments",
        help_text="Required for federation staff; the federation they work for.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "role", "federation"], name="unique_role_assignment"),
            models.CheckConstraint(
                condition=~models.Q(role="federation_staff") | models.Q(federation__isnull=False),
                name="federation_staff_needs_federation",
            ),
        ]

    def __str__(self):
        scope = f" ({self.federation})" if self.federation_id else ""
        return f"{self.user}: {self.get_role_display()}{scope}"


class ApiToken(AbstractAuthToken):
    """A named API token of one login (django-rest-knox's token, ``KNOX_TOKEN_MODEL``).

    Only the token's SHA-512 digest and its first characters (``token_key``, to find it) are stored: the token
    itself is shown once, when it is created. Revoking it deletes the row; an expired one is deleted by knox
    the next time it is tried.
    """

    name = models.CharField(_("name"), max_length=100)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self):
        return f"{self.name} ({self.token_key}…)"


class Invitation(ChoiceLabels):
    """An invitation by e-mail to take a role (issue 25): the link is valid ``INVITATION_DAYS`` days, once.

    The role and its scope are those of a ``RoleAssignment`` (``role``, ``federation``); ``target_kind`` and
    ``target_id`` name what a higher app does on acceptance (a team entry's managers: ``accounts.hooks``). Only
    the SHA-256 digest of the link's token is stored.
    """

    email = models.EmailField(_("e-mail"))
    role = models.CharField(_("role"), max_length=32, choices=Role.choices)
    federation = models.ForeignKey(
        "federation.Federation", null=True, blank=True, on_delete=models.CASCADE, related_name="invitations"
    )
    target_kind = models.CharField(max_length=32, blank=True, default="")
    target_id = models.PositiveBigIntegerField(null=True, blank=True)
    # What the invitee does for the target, in words the target's app chose (e.g. "coach"); shown, not enforced.
    duty = models.CharField(max_length=32, blank=True, default="")
    token_digest = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(User, null=True, on_delete=models.SET_NULL, related_name="invitations_sent")
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="invitations_accepted"
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        indexes = [models.Index(fields=["target_kind", "target_id"])]

    def __str__(self):
        return f"{self.email}: {self.get_role_display()}"
