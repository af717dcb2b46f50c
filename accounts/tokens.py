"""The "API tokens" page: a logged-in person makes named tokens for their API clients, sees them and revokes them.

A token is shown once, on the page that made it; the database keeps only its digest (django-rest-knox). Each
person sees and revokes only their own tokens: another's token is a 404, as if it did not exist.
"""

import datetime

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from .models import ApiToken

LIFETIMES_DAYS = [30, 90, 365]


class TokenForm(forms.Form):
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


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def token_list(request):
    """The person's tokens; a POST makes a new one and shows it once."""
    created = None
    form = TokenForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        token, created = ApiToken.objects.create(
            user=request.user,
            expiry=datetime.timedelta(days=form.cleaned_data["days"]),
            name=form.cleaned_data["name"],
        )
        form = TokenForm()
    tokens = ApiToken.objects.filter(user=request.user)
    return render(request, "accounts/tokens.html", {"form": form, "tokens": tokens, "created": created})


@login_required
@require_POST
def token_revoke(request, key: str):
    """Delete one of the person's own tokens: from now on it is refused (401)."""
    token = get_object_or_404(ApiToken, user=request.user, token_key=key)
    token.delete()
    messages.success(request, _("The token “%(name)s” is revoked.") % {"name": token.name})
    return redirect("accounts:tokens")
