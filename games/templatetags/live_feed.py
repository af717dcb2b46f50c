"""``{% live_feed_attributes "championships" championship.pk %}``: where a page that reloads on a game's end listens."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

from games.live_views import feed_paths

register = template.Library()


@register.simple_tag
def live_feed_attributes(kind: str, pk: int) -> str:
    """The ``data-socket``, ``data-stream`` and ``data-transport`` attributes of ``games.live_views.feed_paths``."""
    feed = feed_paths(kind, pk)
    return format_html(
        'data-socket="{}" data-stream="{}" data-transport="{}"', feed["socket"], feed["stream"], feed["transport"]
    )
