from django import template
from django.utils.html import format_html

from portal.countries import country_name as country_name_in_language
from portal.countries import team_display_name
from portal.i18n import catalogue_url, stored
from portal.i18n import say as say_text

register = template.Library()


@register.filter
def say(value):
    """A core's sentence in the reader's language: ``{{ line|say }}`` (portal.i18n.say)."""
    return say_text(value)


@register.filter
def their_words(value):
    """Someone's own words (a statement, reasons, a note), in whatever language they wrote them, marked as theirs:
    browsers do not translate them and the site walk's language check skips them. Usable inside
    ``blocktranslate`` (``reasons=decision.reasons|their_words``), which keeps the marked text as it is."""
    if value in (None, ""):
        return ""
    return format_html('<span class="their-words" translate="no">{}</span>', value)


@register.simple_tag
def javascript_catalogue():
    """The URL of the scripts' strings in the reader's language: ``<script src="{% javascript_catalogue %}">``,
    before the page's own scripts (portal.i18n.catalogue_url)."""
    return catalogue_url()


@register.simple_tag
def stored_text(data, fallback=""):
    """A stored text in the reader's language, its text as written when there is none:
    ``{% stored_text row.body_message row.body %}`` (portal.i18n.stored)."""
    return stored(data, fallback)


@register.filter
def team_name(value):
    """A team's stored name as shown in the reader's language: ``{{ row.team|team_name }}`` (portal.countries)."""
    return team_display_name(str(value)) if value else value


@register.filter
def country_name(value):
    """The name of the country of an ISO code in the reader's language: ``{{ code|country_name }}``."""
    return country_name_in_language(value)
