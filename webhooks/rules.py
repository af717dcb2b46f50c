"""Object permissions of the webhooks (``rules`` autodiscovers this module): the federation's access rules
(``webhooks.access``): staff of a federation, its endpoints and deliveries; international staff, every one."""

from __future__ import annotations

import rules

from . import access


@rules.predicate
def uses_webhooks(user):
    return access.uses_webhooks(user)


@rules.predicate
def manages_endpoint(user, endpoint):
    if endpoint is None:
        return access.uses_webhooks(user)
    return access.can_manage_endpoints_of(user, endpoint.federation)


@rules.predicate
def manages_delivery(user, delivery):
    if delivery is None:
        return access.uses_webhooks(user)
    return access.can_manage_endpoints_of(user, delivery.endpoint.federation)


rules.add_perm("webhooks", uses_webhooks)
rules.add_perm("webhooks.view_endpoint", manages_endpoint)
rules.add_perm("webhooks.add_endpoint", manages_endpoint)
rules.add_perm("webhooks.delete_endpoint", manages_endpoint)
rules.add_perm("webhooks.view_delivery", manages_delivery)
rules.add_perm("webhooks.resend_delivery", manages_delivery)
