"""A forgotten password, reset by e-mail (issue 25): Django's views and tokens, the portal's templates.

The page never says whether an address belongs to a login: it answers the same for any address. Asking is
limited (``RESET_LIMIT_PER_EMAIL`` per address and ``RESET_LIMIT_PER_CLIENT`` per network address in an hour,
counted in Django's cache), so the form cannot be used to flood someone's mailbox. The link of the e-mail starts
with ``settings.PORTAL_BASE_URL`` and is written in the login's chosen language; it works once, for
``PASSWORD_RESET_TIMEOUT``. A new password revokes the login's API tokens (``accounts.models.User.save``).
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.urls import reverse_lazy
from django.utils import translation
from django.utils.translation import gettext as _

RESET_LIMIT_PER_EMAIL = 3
RESET_LIMIT_PER_CLIENT = 10
RESET_WINDOW_SECONDS = 60 * 60


def _key(kind: str, value: str) -> str:
    return "accounts:reset:" + kind + ":" + hashlib.sha256(value.encode()).hexdigest()


def _count(key: str) -> int:
    """Add one ask to ``key``'s count for the window (the window starts at the first ask); return the count."""
    if cache.add(key, 1, RESET_WINDOW_SECONDS):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.add(key, 1, RESET_WINDOW_SECONDS)
        return 1


def allow_reset(email: str, client: str) -> bool:
    """Count one ask for ``email`` from ``client``; False once either is over its limit for the hour."""
    by_email = _count(_key("email", email.strip().lower()))
    by_client = _count(_key("client", client))
    return by_email <= RESET_LIMIT_PER_EMAIL and by_client <= RESET_LIMIT_PER_CLIENT


class PasswordResetForm(auth_forms.PasswordResetForm):
    def send_mail(self, subject_template_name, email_template_name, context, from_email, to_email, **kwargs):
        """Each login's e-mail in its chosen language, with the portal's own address in the link."""
        user = context["user"]
        language = user.language if user.language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
        context["base_url"] = settings.PORTAL_BASE_URL.rstrip("/")
        with translation.override(language):
            super().send_mail(subject_template_name, email_template_name, context, from_email, to_email, **kwargs)


class PasswordResetView(auth_views.PasswordResetView):
    form_class = PasswordResetForm
    template_name = "accounts/password_reset_form.html"
    email_template_name = "accounts/email/password_reset.txt"
    subject_template_name = "accounts/email/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password-reset-done")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(per_email=RESET_LIMIT_PER_EMAIL, per_client=RESET_LIMIT_PER_CLIENT)
        return context

    def form_valid(self, form):
        client = self.request.META.get("REMOTE_ADDR", "")
        if not allow_reset(form.cleaned_data["email"], client):
            form.add_error(
                "email",
                _(
                    "Too many resets were asked for this address or from your network in the last hour: "
                    "try again in an hour."
                ),
            )
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        return super().form_valid(form)


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password-reset-complete")


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"
