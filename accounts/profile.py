"""The login's own profile (issue 25): name, e-mail and language, with the pages of its password, signing PIN
and API tokens one click away; and the change of password (Django's view, the portal's templates).

A language chosen here is the language of the pages from the next one on (this browser's cookie, as the header's
switch sets it) and of the e-mails (``User.language``). A new password revokes the API tokens
(``accounts.models.User.save``); this browser's session stays open (Django's ``update_session_auth_hash``).
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from .models import User


class ProfileForm(forms.ModelForm):
    language = forms.ChoiceField(
        label=gettext_lazy("Language"),
        choices=[("", gettext_lazy("As the browser asks"))] + list(settings.LANGUAGES),
        required=False,
        help_text=gettext_lazy("The language of the portal's pages and of the e-mails it sends you."),
    )

    class Meta:
        model = User
        fields = ["first_name", "last_name", "email", "language"]
        labels = {
            "first_name": gettext_lazy("First name"),
            "last_name": gettext_lazy("Last name"),
            "email": gettext_lazy("E-mail"),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].required = True
        self.fields["email"].help_text = gettext_lazy(
            "Invitations and password resets are sent to this address; no other login may use it."
        )

    def clean_email(self):
        email = User.objects.normalize_email(self.cleaned_data["email"].strip())
        if User.objects.filter(email__iexact=email).exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError(_("E-mail: another login uses this address already."), code="email_taken")
        return email


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def profile(request):
    user = request.user
    form = ProfileForm(request.POST or None, instance=user)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            language = form.cleaned_data["language"]
            response = redirect("accounts:profile")
            if language:
                translation.activate(language)
                response.set_cookie(
                    settings.LANGUAGE_COOKIE_NAME,
                    language,
                    max_age=settings.LANGUAGE_COOKIE_AGE,
                    samesite=settings.LANGUAGE_COOKIE_SAMESITE,
                    secure=settings.LANGUAGE_COOKIE_SECURE,
                    httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                )
            else:
                response.delete_cookie(settings.LANGUAGE_COOKIE_NAME)
            messages.success(request, _("Your profile is saved."))
            return response
        return render(request, "accounts/profile.html", {"form": form}, status=400)
    return render(request, "accounts/profile.html", {"form": form})


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:password-change-done")

    def form_valid(self, form):
        response = super().form_valid(form)
        revoked = form.user.revoked_api_tokens
        if revoked:
            messages.info(
                self.request,
                translation.ngettext(
                    "%(count)s API token was revoked with the old password.",
                    "%(count)s API tokens were revoked with the old password.",
                    revoked,
                )
                % {"count": revoked},
            )
        return response


class PasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    template_name = "accounts/password_change_done.html"
