"""The webhooks pages: a federation's endpoints (made, with the secret shown once, and removed) and the delivery
log with its "send again" action. Staff of a federation see its own; international staff every federation's
(``webhooks.access``); the services check again."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from portal.forms import apply_errors, focus_first_error

from . import access, services
from .forms import EndpointForm
from .list_rows import endpoint_rows
from .models import DeliveryStatus

PAGE_SIZE = 50


def _check_uses_webhooks(user) -> None:
    if not access.uses_webhooks(user):
        raise PermissionDenied(_("Webhooks are for the staff of a federation."))


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def endpoint_list(request):
    """The endpoints the user manages; a POST registers one and shows its secret once."""
    _check_uses_webhooks(request.user)
    created = None
    form = EndpointForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            created = services.endpoint_create(by=request.user, **form.cleaned_data)
        except ValidationError as refusal:
            apply_errors(form, refusal)
            focus_first_error(form)
        else:
            form = EndpointForm(user=request.user)
    elif form.errors:
        focus_first_error(form)
    endpoints = list(access.endpoints_visible_to(request.user).order_by("federation__name", "pk"))
    context = {"form": form, "rows": endpoints, "endpoint_rows": endpoint_rows(request, endpoints), "created": created}
    return render(request, "webhooks/endpoints.html", context)


@login_required
@require_POST
def endpoint_delete(request, endpoint_id: int):
    endpoint = access.access_endpoint(request.user, endpoint_id)
    services.endpoint_delete(by=request.user, endpoint=endpoint)
    messages.success(request, _("The endpoint %(url)s is removed: nothing more is sent there.") % {"url": endpoint.url})
    return redirect("webhooks:endpoints")


@never_cache
@login_required
def delivery_list(request):
    """The delivery log of the endpoints the user manages, newest first; ``?endpoint=`` and ``?status=`` narrow it."""
    _check_uses_webhooks(request.user)
    deliveries = access.deliveries_visible_to(request.user)
    endpoint = None
    if request.GET.get("endpoint"):
        endpoint = access.access_endpoint(request.user, request.GET["endpoint"])
        deliveries = deliveries.filter(endpoint=endpoint)
    status = request.GET.get("status", "")
    if status in DeliveryStatus.values:
        deliveries = deliveries.filter(status=status)
    page = Paginator(deliveries.order_by("-created_at", "-pk"), PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "webhooks/deliveries.html",
        {"page": page, "endpoint": endpoint, "status": status, "statuses": DeliveryStatus.choices},
    )


@login_required
@require_POST
def delivery_resend(request, delivery_id: int):
    delivery = access.access_delivery(request.user, delivery_id)
    services.delivery_resend(by=request.user, delivery=delivery)
    messages.success(request, _("The delivery is queued to be sent again."))
    return redirect("webhooks:deliveries")
