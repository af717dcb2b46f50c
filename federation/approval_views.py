"""The approvals queue: the IHTC's decisions on protective devices (3.2.8 C) and equipment models (3.2.6 A).

The pages only read the queue and hand decisions to the services (``device_request_decide``,
``equipment_model_decide``), which re-check access, lock the item and refuse a second decision.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from federation.access import (
    access_device_request,
    access_equipment_model,
    can_approve_equipment,
    can_decide_device_request,
    can_use_approvals_queue,
)

from . import services
from .models import EquipmentKind
from .queue_rows import device_request_rows, equipment_model_rows
from .selectors import QUEUE_STATUSES, device_requests_in_queue, equipment_models_in_queue

STATUS_LABELS = {
    "waiting": gettext_lazy("Waiting"),
    "approved": gettext_lazy("Approved"),
    "rejected": gettext_lazy("Rejected"),
}


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(
        label=gettext_lazy("Decision"),
        choices=[("approve", gettext_lazy("Approve")), ("reject", gettext_lazy("Reject"))],
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason"), required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )


# Service error keys -> the form's field; other keys become errors of the whole decision, named.
_FIELD_OF = {"reason": "reason", "decision_reason": "reason"}
_KEY_LABELS = {"certifications": gettext_lazy("Certifications"), "kind": gettext_lazy("Kind")}
# A transition refused because the item was decided meanwhile (select_for_update in the service).
_CONFLICT_KEYS = {"status"}


def _check_access(user) -> None:
    if not can_use_approvals_queue(user):
        raise PermissionDenied(gettext("Rules 3.2.6 A and 3.2.8 C: only the IHTC (international staff) decides."))


def _filters(request) -> tuple[str, str]:
    source = request.GET if request.method == "GET" else request.POST
    status = source.get("status", "waiting")
    kind = source.get("kind", "")
    return (status if status in QUEUE_STATUSES else "waiting"), (kind if kind in EquipmentKind.values else "")


def _queue_url(status: str, kind: str) -> str:
    query = {key: value for key, value in (("status", status), ("kind", kind)) if value and value != "waiting"}
    url = reverse("federation:approvals")
    return f"{url}?{urlencode(query)}" if query else url


def _render_queue(request, *, failed: tuple[str, int, DecisionForm] | None = None, status_code: int = 200):
    user = request.user
    status, kind = _filters(request)
    device_requests = list(device_requests_in_queue(user, status=status)) if can_decide_device_request(user) else []
    equipment_models = (
        list(equipment_models_in_queue(user, status=status, kind=kind)) if can_approve_equipment(user) else []
    )
    waiting = status == "waiting"
    failed_key = (failed[0], failed[1]) if failed else None
    failed_listed = False
    for what, items in (("device", device_requests), ("equipment", equipment_models)):
        for item in items:
            item.decision_form = failed[2] if failed_key == (what, item.pk) else None
            failed_listed = failed_listed or item.decision_form is not None
    return render(
        request,
        "federation/approvals/queue.html",
        {
            "status": status,
            "kind": kind,
            "statuses": [(key, STATUS_LABELS[key]) for key in QUEUE_STATUSES],
            "kinds": EquipmentKind.choices,
            "may_decide_devices": can_decide_device_request(user),
            "may_approve_equipment": can_approve_equipment(user),
            "device_requests": device_requests,
            "equipment_models": equipment_models,
            # The rows, built once per page (federation.queue_rows; issue 27).
            "device_rows": device_request_rows(request, device_requests, waiting=waiting, status=status, kind=kind),
            "equipment_rows": equipment_model_rows(
                request, equipment_models, waiting=waiting, status=status, kind=kind
            ),
            "waiting_devices": device_requests_in_queue(user).count() if can_decide_device_request(user) else 0,
            "waiting_equipment": equipment_models_in_queue(user).count() if can_approve_equipment(user) else 0,
            "failed_form": failed[2] if failed else None,
            # An item decided meanwhile is no longer listed: its errors are shown at the top.
            "failed_listed": failed_listed,
            "waiting": waiting,
        },
        status=status_code,
    )


@login_required
def approvals_queue_view(request):
    """What waits for the IHTC's decision, oldest first: device requests (3.2.8 C) and equipment models (3.2.6 A)."""
    _check_access(request.user)
    return _render_queue(request)


def _apply_errors(form: DecisionForm, error: ValidationError) -> bool:
    """Put the service's errors on the form; return True if the item was decided meanwhile."""
    conflict = False
    if not hasattr(error, "error_dict"):
        form.add_error(None, error)
        return True  # the services raise a bare error only for an item decided already
    for key, messages_ in error.message_dict.items():
        field = _FIELD_OF.get(key)
        for message in messages_:
            if key in _CONFLICT_KEYS:
                conflict = True
                form.add_error(None, gettext("Someone decided this already; nothing was changed. %s") % message)
            elif field:
                form.add_error(field, message)
            elif key in _KEY_LABELS:
                form.add_error(None, f"{_KEY_LABELS[key]}: {message}")
            else:
                form.add_error(None, message)
    return conflict


def _decide(request, *, what: str, item, decide) -> object:
    form = DecisionForm(request.POST)
    if form.is_valid():
        approve = form.cleaned_data["decision"] == "approve"
        try:
            decide(approve, form.cleaned_data["reason"])
        except ValidationError as error:
            conflict = _apply_errors(form, error)
            return _render_queue(request, failed=(what, item.pk, form), status_code=409 if conflict else 400)
        text = gettext("%(item)s: approved.") if approve else gettext("%(item)s: rejected.")
        messages.success(request, text % {"item": item})
        return redirect(_queue_url(*_filters(request)))
    return _render_queue(request, failed=(what, item.pk, form), status_code=400)


@login_required
@require_POST
def device_request_decide_view(request, pk: int):
    """Approve or reject a protective device request (3.2.8 C)."""
    _check_access(request.user)
    device_request = access_device_request(request.user, pk)
    return _decide(
        request,
        what="device",
        item=device_request,
        decide=lambda approve, reason: services.device_request_decide(
            request=device_request, approve=approve, reason=reason, decided_by=request.user
        ),
    )


@login_required
@require_POST
def equipment_model_decide_view(request, pk: int):
    """Approve (HECC, CSA or CE needed) or refuse an equipment model (3.2.6 A)."""
    _check_access(request.user)
    equipment_model = access_equipment_model(request.user, pk)
    return _decide(
        request,
        what="equipment",
        item=equipment_model,
        decide=lambda approve, reason: services.equipment_model_decide(
            equipment_model=equipment_model, approve=approve, reason=reason, decided_by=request.user
        ),
    )
