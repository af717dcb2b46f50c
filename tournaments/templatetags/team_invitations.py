"""``{% may_invite_to entry as may %}``: whether the person may invite a team's manager and officials (issue 25)."""

from django import template

from federation.access import can_edit_federation

register = template.Library()


@register.simple_tag(takes_context=True)
def may_invite_to(context, entry) -> bool:
    return can_edit_federation(context["request"].user, entry.federation)
