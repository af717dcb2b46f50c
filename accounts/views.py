"""The login's own pages beside the API tokens: logging out (the browser's caches cleared) and the signing PIN."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from portal.forms import apply_errors

from .pins import set_signing_pin


class LogoutView(auth_views.LogoutView):
    """Django's logout, whose answer also tells the browser to drop what it cached of the portal's pages
    (``Clear-Site-Data: "cache"``). Not "storage": the console's outbox of unsent entries (IndexedDB) stays until
    it is sent. The logout button's script (static/logout.js) deletes the console's caches itself too, for
    browsers that ignore the header (it needs a secure context) or keep Cache Storage under "storage"."""

    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = '"cache"'
        return response


class SigningPinForm(forms.Form):
    current_password = forms.CharField(
        label=gettext_lazy("Current password"), widget=forms.PasswordInput, strip=False, max_length=128
    )
    pin = forms.CharField(
        label=gettext_lazy("New signing PIN"),
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
        max_length=12,
        help_text=gettext_lazy("6 to 12 digits. You type it on the officials' device to sign a game report."),
    )
    pin_again = forms.CharField(
        label=gettext_lazy("The PIN again"),
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
        max_length=12,
    )

    def clean(self):
        data = super().clean()
        if data.get("pin") and data.get("pin_again") is not None and data["pin"] != data.get("pin_again"):
            self.add_error("pin_again", _("The two PINs differ."))
        return data


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def signing_pin(request):
    """Set or change the login's signing PIN (4.2 O, 4.3 A: each signer signs the game report in person), after
    the current password; accounts.pins hashes and checks it."""
    form = SigningPinForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                set_signing_pin(
                    request.user, current_password=form.cleaned_data["current_password"], pin=form.cleaned_data["pin"]
                )
            except ValidationError as error:
                apply_errors(form, error)
            else:
                messages.success(request, _("Your signing PIN is set."))
                return redirect("accounts:signing-pin")
        status = 400
    return render(
        request, "accounts/signing_pin.html", {"form": form, "has_pin": bool(request.user.signing_pin)}, status=status
    )
