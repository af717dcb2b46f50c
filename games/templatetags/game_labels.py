"""The game's raw values as a person reads them, in templates (``{% load game_labels %}``); each filter is the
one function of ``games.labels`` for its concept."""

from django import template

from games import labels

register = template.Library()

register.filter("event_kind", labels.event_kind_label)
register.filter("penalty_kind", labels.penalty_kind_label)
register.filter("game_state", labels.game_state_label)
register.filter("sheet_status", labels.sheet_status_label)
register.filter("infraction", labels.infraction_label)


@register.filter
def period_clock(period, tenths=None):
    """``{{ e.period|period_clock:e.time }}`` -> ``P1 12:29``."""
    return labels.period_clock(period, tenths)


@register.filter
def entry_clock(payload):
    """``{{ event.payload|entry_clock }}``: a sheet entry's period and game time, ``P1 12:29``."""
    return labels.period_clock(payload.get("period"), payload.get("time"))


@register.simple_tag
def event_details(game, payload):
    """``{% event_details game payload %}``: the entry's other fields, named."""
    return labels.event_details(game, payload)
