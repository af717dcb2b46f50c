"""The "Logins" page (issue 25): federation staff see the logins of their federation's team managers and team
officials (international staff those of every federation), search them and revoke a role, which ends the login's
sessions and API tokens at once (``accounts.logins``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from . import logins, roles
from .models import Invitation

PAGE_SIZE = 50


def _check_staff(user) -> None:
    if not roles.is_federation_staff(user):
        raise PermissionDenied(gettext("Only federation staff and international staff see the teams' logins."))


@never_cache
@login_required
@require_http_methods(["GET", "HEAD"])
def login_list(request):
    _check_staff(request.user)
    query = request.GET.get("q", "")[:100]
    assignments = logins.visible_assignments(request.user, query)
    page = Paginator(assignments, PAGE_SIZE).get_page(request.GET.get("page"))
    pending = Invitation.objects.filter(
        accepted_at__isnull=True, expires_at__gt=timezone.now(), role__in=logins.TEAM_ROLES
    ).select_related("federation", "invited_by")
    if not roles.is_international_staff(request.user):
        pending = pending.filter(federation_id__in=roles.staff_federation_ids(request.user))
    if query:
        pending = pending.filter(email__icontains=query)
    return render(
        request,
        "accounts/logins.html",
        {"page": page, "query": query, "pending": pending[:PAGE_SIZE]},
    )


@login_required
@require_POST
def role_revoke(request, pk: int):
    _check_staff(request.user)
    assignment = get_object_or_404(logins.visible_assignments(request.user), pk=pk)
    who = str(assignment.user)
    role = assignment.get_role_display()
    revoked = logins.revoke_role(assignment, by=request.user)
    messages.success(
        request,
        _("%(who)s no longer holds the role %(role)s: their sessions ended and %(count)s API tokens were revoked.")
        % {"who": who, "role": role, "count": revoked},
    )
    return redirect("accounts:logins")
