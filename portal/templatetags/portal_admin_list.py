"""``{% page_result_list cl %}``: Django's ``{% result_list cl %}`` whose rows come from ``portal.admin_rows``."""

from __future__ import annotations

from django import template
from django.contrib.admin.templatetags import admin_list
from django.contrib.admin.templatetags.base import InclusionAdminNode

from portal import admin_rows

register = template.Library()


def page_result_list(cl) -> dict:
    """The context of ``admin/change_list_results.html``, as ``admin_list.result_list`` makes it."""
    headers = list(admin_list.result_headers(cl))
    return {
        "cl": cl,
        "result_hidden_fields": list(admin_list.result_hidden_fields(cl)),
        "result_headers": headers,
        "num_sorted_fields": sum(1 for header in headers if header["sortable"] and header["sorted"]),
        "results": list(admin_rows.results(cl)),
    }


@register.tag(name="page_result_list")
def page_result_list_tag(parser, token):
    return InclusionAdminNode(
        parser, token, func=page_result_list, template_name="change_list_results.html", takes_context=False
    )
