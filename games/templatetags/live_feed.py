"""``{% live_feed_attributes championship %}``: where a championship's page that reloads on a game's end listens."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

from games.live_views import feed_paths

register = template.Library()


@register.simple_tag
def live_feed_attributes(championship) -> str:
    """The ``data-socket``, ``data-stream`` and ``data-transport`` attributes of ``games.live_views.feed_paths``."""
    feed = feed_paths("championships", championship.pk, championship)
    return format_html(
        'data-socket="{}" data-stream="{}" data-transport="{}"', feed["socket"], feed["stream"], feed["transport"]
    )
