"""Who may see and manage webhooks: the federation's access rules (``federation.access``).

Staff of a federation manage its endpoints and read their deliveries; international staff (and the IHTC
executive) those of every federation. Anyone else sees none: an endpoint or delivery they may not see is a 404.
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext

from accounts.roles import is_federation_staff
from federation.access import can_edit_federation, federations_registering_for
from federation.models import Federation

from .models import Delivery, Endpoint


def uses_webhooks(user) -> bool:
    """Whether the webhooks pages are open to the user (staff of some federation, or international staff)."""
    return bool(getattr(user, "is_authenticated", False)) and is_federation_staff(user)


def federations_for_webhooks(user) -> QuerySet[Federation]:
    """The federations whose endpoints the user manages."""
    return federations_registering_for(user)


def can_manage_endpoints_of(user, federation: Federation) -> bool:
    return uses_webhooks(user) and can_edit_federation(user, federation)


def endpoints_visible_to(user) -> QuerySet[Endpoint]:
    if not uses_webhooks(user):
        return Endpoint.objects.none()
    return Endpoint.objects.filter(federation__in=federations_for_webhooks(user)).select_related("federation")


def deliveries_visible_to(user) -> QuerySet[Delivery]:
    if not uses_webhooks(user):
        return Delivery.objects.none()
    return Delivery.objects.filter(endpoint__federation__in=federations_for_webhooks(user)).select_related(
        "endpoint__federation"
    )


def access_endpoint(user, endpoint_id) -> Endpoint:
    """The endpoint if the user manages its federation's endpoints; 404 otherwise (an id reveals nothing)."""
    try:
        return endpoints_visible_to(user).get(pk=endpoint_id)
    except (Endpoint.DoesNotExist, ValueError, TypeError):
        raise Http404(gettext("No such webhook endpoint.")) from None


def access_delivery(user, delivery_id) -> Delivery:
    try:
        return deliveries_visible_to(user).get(pk=delivery_id)
    except (Delivery.DoesNotExist, ValueError, TypeError):
        raise Http404(gettext("No such webhook delivery.")) from None
