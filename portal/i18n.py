"""Saying the pure cores' sentences (``common.text.Text``) in the active language (issue 12)."""

from __future__ import annotations

from django.utils.translation import gettext

from common.text import Text


def say(value: object) -> object:
    """``value`` in the active language when it is a core's sentence (its arguments said too); else as it is.

    A message missing from the catalogue is said in English (gettext's fallback)."""
    if not isinstance(value, Text):
        return value
    message = gettext(value.msgid)
    if not value.args:
        return message
    return message % {name: say(argument) for name, argument in value.args.items()}
