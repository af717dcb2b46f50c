"""The page of an invitation's link (issue 25): set a username and password and accept, or, logged in with the
invited address, accept. The link works 7 days, once (``accounts.invitations``)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import login, password_validation
from django.contrib.auth.forms import UsernameField
from django.core.exceptions import ValidationError
from django.db import transaction
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from portal.forms import apply_errors

from . import invitations
from .models import User

BACKEND = "django.contrib.auth.backends.ModelBackend"


class NewLoginForm(forms.Form):
    username = UsernameField(
        label=gettext_lazy("Username"),
        max_length=150,
        help_text=gettext_lazy("You log in with it. Letters, digits and @ . + - _ only."),
    )
    first_name = forms.CharField(label=gettext_lazy("First name"), max_length=150)
    last_name = forms.CharField(label=gettext_lazy("Last name"), max_length=150)
    password1 = forms.CharField(
        label=gettext_lazy("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=gettext_lazy("At least 12 characters, not only digits, not a common password."),
    )
    password2 = forms.CharField(
        label=gettext_lazy("The password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def __init__(self, *args, email: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.email = email

    def clean_username(self):
        username = self.cleaned_data["username"]
        User.username_validator(username)
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(_("Username: this username is taken; choose another."), code="taken")
        return username

    def clean(self):
        data = super().clean()
        one, two = data.get("password1"), data.get("password2")
        if one and two and one != two:
            self.add_error("password2", _("The two passwords differ."))
        elif one:
            candidate = User(username=data.get("username", ""), email=self.email)
            try:
                password_validation.validate_password(one, candidate)
            except ValidationError as error:
                self.add_error("password1", error)
        return data


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def invitation(request, token: str):
    try:
        invite = invitations.open_invitation(token)
    except ValidationError as error:
        return render(request, "accounts/invitation.html", {"closed": error.messages}, status=404)
    context = {
        "invitation": invite,
        "target": invitations.target_label(invite),
        "days": invitations.INVITATION_DAYS,
    }
    user = request.user
    if user.is_authenticated:
        context["other_address"] = user.email.strip().lower() != invite.email.lower()
        if request.method == "POST" and not context["other_address"]:
            try:
                invitations.accept(token, user)
            except ValidationError as error:
                context["errors"] = error.messages
                return render(request, "accounts/invitation.html", context, status=400)
            messages.success(request, _("Invitation accepted: you are now %(role)s.") % _role(invite))
            return redirect("home")
        return render(request, "accounts/invitation.html", context, status=400 if request.method == "POST" else 200)
    if User.objects.filter(email__iexact=invite.email).exists():
        # The address has a login already: it accepts once logged in (no second login for one address).
        login_url = reverse("login") + "?" + urlencode({"next": request.path})
        context["login_url"] = login_url
        return render(request, "accounts/invitation.html", context)
    form = NewLoginForm(request.POST or None, email=invite.email)
    context["form"] = form
    if request.method == "POST":
        if form.is_valid():
            try:
                with transaction.atomic():
                    new = User(
                        username=form.cleaned_data["username"],
                        email=invite.email,
                        first_name=form.cleaned_data["first_name"],
                        last_name=form.cleaned_data["last_name"],
                    )
                    new.set_password(form.cleaned_data["password1"])
                    new.save()
                    invitations.accept(token, new)
            except ValidationError as error:
                apply_errors(form, error)
            else:
                login(request, new, backend=BACKEND)
                messages.success(request, _("Welcome: your login is made and you are now %(role)s.") % _role(invite))
                return redirect("home")
        return render(request, "accounts/invitation.html", context, status=400)
    return render(request, "accounts/invitation.html", context)


def _role(invite) -> dict:
    label = invite.get_role_display()
    target = invitations.target_label(invite)
    return {"role": f"{label} ({target})" if target else label}
