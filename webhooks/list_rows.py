"""A federation's webhook endpoints page: the rows built in Python with what every row shares worked out once
(portal.rows; issue 27: a page of 100 rows costs at most 10x the CPU of the home page). The page is
``webhooks/endpoints.html``."""

from __future__ import annotations

from django.middleware.csrf import get_token
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from portal.rows import fill, joined, url_pattern

from .models import EventType


def endpoint_rows(request, endpoints) -> SafeString:
    """Each endpoint: its federation, URL and description (the federation's words), the events it is told of, whether
    it is active, its deliveries and Remove."""
    delete_url = url_pattern("webhooks:endpoint-delete")
    deliveries_url = reverse("webhooks:deliveries")
    events = {value: str(label) for value, label in EventType.choices}
    csrf = get_token(request)
    text = {
        "yes": gettext("yes"),
        "no": gettext("no"),
        "deliveries": gettext("Deliveries"),
        "remove": gettext("Remove"),
    }
    html = []
    for endpoint in endpoints:
        html.append(
            fill(
                "<tr><td>{federation}</td><td><code>{url}</code>{description}</td><td>{events}</td><td>{active}</td>"
                '<td><a href="{deliveries_url}?endpoint={pk}">{deliveries}</a> '
                '<form method="post" action="{delete_url}"><input type="hidden" name="csrfmiddlewaretoken" value="{csrf}">'
                '<button type="submit">{remove}</button></form></td></tr>',
                federation=endpoint.federation,
                url=endpoint.url,
                description=fill(
                    '<br><small class="muted their-words" translate="no">{words}</small>', words=endpoint.description
                )
                if endpoint.description
                else "",
                events=", ".join(events.get(value, value) for value in endpoint.event_types),
                active=text["yes"] if endpoint.active else text["no"],
                deliveries_url=deliveries_url,
                pk=endpoint.pk,
                deliveries=text["deliveries"],
                delete_url=delete_url(endpoint.pk),
                csrf=csrf,
                remove=text["remove"],
            )
        )
    return joined(html)
