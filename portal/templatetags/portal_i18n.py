from django import template

from portal.countries import country_name as country_name_in_language
from portal.countries import team_display_name
from portal.i18n import catalogue_url
from portal.i18n import say as say_text

register = template.Library()


@register.filter
def say(value):
    """A core's sentence in the reader's language: ``{{ line|say }}`` (portal.i18n.say)."""
    return say_text(value)


@register.simple_tag
def javascript_catalogue():
    """The URL of the scripts' strings in the reader's language: ``<script src="{% javascript_catalogue %}">``,
    before the page's own scripts (portal.i18n.catalogue_url)."""
    return catalogue_url()


@register.filter
def team_name(value):
    """A team's stored name as shown in the reader's language: ``{{ row.team|team_name }}`` (portal.countries)."""
    return team_display_name(str(value)) if value else value


@register.filter
def country_name(value):
    """The name of the country of an ISO code in the reader's language: ``{{ code|country_name }}``."""
    return country_name_in_language(value)
