"""Naming a team's manager and team officials by inviting them by e-mail (issue 25), from the team entry's page.

Staff of the entry's federation and international staff invite (``services.check_can_name_managers``); the form
takes an e-mail address, never a login's id. The invitation (``accounts.invitations``) grants the team manager
role of the entry's federation and, through ``tournaments.team_logins``, a place among the entry's managers.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from portal.forms import focus_first_error
from tournaments import selectors, services

# What the invitee will do for the team; every one manages the entry in the portal (the team manager role).
DUTIES = services.INVITE_DUTIES


class InviteForm(forms.Form):
    email = forms.EmailField(
        label=gettext_lazy("E-mail"),
        max_length=254,
        help_text=gettext_lazy("The invitation's link goes to this address; it works 7 days, once."),
    )
    duty = forms.ChoiceField(label=gettext_lazy("Duty"), choices=DUTIES, initial=DUTIES[0][0])


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def entry_invite(request, pk: int):
    entry = services.access_managed_entry(request.user, pk)
    services.check_can_name_managers(request.user, entry)
    form = InviteForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            services.entry_invite(
                entry=entry, email=form.cleaned_data["email"], duty=form.cleaned_data["duty"], by=request.user
            )
            messages.success(
                request,
                _("An invitation is sent to %(email)s; the link works 7 days, once.")
                % {"email": form.cleaned_data["email"]},
            )
            return redirect("tournaments:entry-invite", pk=entry.pk)
        focus_first_error(form)
        status = 400
    staff = selectors.entry_staff(entry)
    context = {
        "entry": entry,
        "championship": entry.championship,
        "form": form,
        "managers": staff.managers,
        "pending": staff.waiting,
        "duties": dict(DUTIES),
    }
    return render(request, "tournaments/entry_invite.html", context, status=status)
