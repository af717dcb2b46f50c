from django import template

from portal.i18n import say as say_text

register = template.Library()


@register.filter
def say(value):
    """A core's sentence in the reader's language: ``{{ line|say }}`` (portal.i18n.say)."""
    return say_text(value)
