"""The venue's clock in templates (``{% load venue_clock %}``): ``{{ moment|venue_time:where }}`` and, once per page,
``{% venue_zone where %}`` (tournaments.venue_time)."""

from django import template

from tournaments.venue_time import VENUE_FORMAT, VENUE_HOUR_FORMAT, venue_local, venue_zone_note

register = template.Library()


@register.filter
def venue_time(moment, where):
    """An aware datetime in the venue's zone, in the reader's locale: ``sam. 3 juillet 2027 18:00``."""
    return venue_local(moment, where, VENUE_FORMAT)


@register.filter
def venue_hour(moment, where):
    """Only the venue's hour of ``moment``: ``18:00`` (a page that already names the day)."""
    return venue_local(moment, where, VENUE_HOUR_FORMAT)


@register.simple_tag
def venue_zone(where=None):
    """The page's label of its clock: "Times are the venue's local time (Europe/Rome)."."""
    return venue_zone_note(where)
