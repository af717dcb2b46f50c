"""The "API tokens" page: a logged-in person makes named tokens for their API clients, sees them and revokes them.

A token is shown once, on the page that made it; the database keeps only its digest (django-rest-knox). Each
person sees and revokes only their own tokens: another's token is a 404, as if it did not exist.

Making a token (which may live a year) asks for the person's password again, so an open session alone (a
borrowed computer, a stolen cookie) cannot make one. The password is checked through ``authenticate``: a wrong
one counts toward the login lockout (django-axes), and a locked-out login makes no token. A new password revokes
every token (``accounts.models.User.save``). A script exchanges a login and password for a token through the API
(``accounts.token_api``), with the same lockout.
"""

import datetime

from django import forms
from django.contrib import messages
from django.contrib.auth import authenticate
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from .list_rows import token_rows
from .models import ApiToken

LIFETIMES_DAYS = [30, 90, 365]
# The API's token exchange takes any whole number of days up to a year (accounts.token_api).
MAX_LIFETIME_DAYS = 365


def token_issue(*, user, name: str, days: int) -> tuple[ApiToken, str]:
    """Make a named token of ``user`` that expires in ``days`` days; return it and its text, shown only once."""
    return ApiToken.objects.create(user=user, expiry=datetime.timedelta(days=days), name=name)


class TokenForm(forms.Form):
    password = forms.CharField(
        label=gettext_lazy("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=gettext_lazy("Asked again before a token is made: a token acts as you for up to a year."),
    )
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=100,
        help_text=gettext_lazy("What the token is for, e.g. the script or computer that uses it."),
    )
    days = forms.TypedChoiceField(
        label=gettext_lazy("Valid for"),
        coerce=int,
        initial=90,
        choices=[(days, gettext_lazy("%(days)s days") % {"days": days}) for days in LIFETIMES_DAYS],
    )

    def __init__(self, *args, request, **kwargs):
        super().__init__(*args, **kwargs)
        self.request = request

    def clean_password(self):
        """The person's own current password; a wrong one is a failed login for django-axes' lockout."""
        password = self.cleaned_data["password"]
        user = self.request.user
        checked = authenticate(self.request, username=user.get_username(), password=password)
        if checked is None or checked.pk != user.pk:
            raise forms.ValidationError(
                _("This is not your password: a token is made only with your current password."),
                code="wrong_password",
            )
        return password


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def token_list(request):
    """The person's tokens; a POST makes a new one and shows it once."""
    created = None
    form = TokenForm(request.POST or None, request=request)
    if request.method == "POST" and form.is_valid():
        token, created = token_issue(user=request.user, name=form.cleaned_data["name"], days=form.cleaned_data["days"])
        form = TokenForm(request=request)
    tokens = list(ApiToken.objects.filter(user=request.user))
    context = {"form": form, "tokens": tokens, "token_rows": token_rows(request, tokens), "created": created}
    return render(request, "accounts/tokens.html", context)


@login_required
@require_POST
def token_revoke(request, key: str):
    """Delete one of the person's own tokens: from now on it is refused (401)."""
    token = get_object_or_404(ApiToken, user=request.user, token_key=key)
    token.delete()
    messages.success(request, _("The token “%(name)s” is revoked.") % {"name": token.name})
    return redirect("accounts:tokens")
