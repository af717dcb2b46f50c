"""Object permissions of the webhooks (``rules`` autodiscovers this module): the federation's access rules
(``webhooks.access``): staff of a federation, its endpoints and deliveries; international staff, every one."""

from __future__ import annotations

import rules

from . import access
from .models import Delivery


@rules.predicate
def uses_webhooks(user):
    return access.uses_webhooks(user)


@rules.predicate
def manages_webhooks_of(user, obj):
    """Without an object: whether the user has webhooks at all; with an endpoint or a delivery: whether the user
    manages its federation's."""
    if obj is None:
        return access.uses_webhooks(user)
    endpoint = obj.endpoint if isinstance(obj, Delivery) else obj
    return access.can_manage_endpoints_of(user, endpoint.federation)


rules.add_perm("webhooks", uses_webhooks)
for permission in ("view_endpoint", "add_endpoint", "delete_endpoint", "view_delivery", "resend_delivery"):
    rules.add_perm(f"webhooks.{permission}", manages_webhooks_of)
