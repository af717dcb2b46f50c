"""The rows of an admin list page, as Django's admin renders them (``admin_list.items_for_result``), with what is
the same for every row of a column worked out once a page (issue 27).

Django's admin looks each column up again for every cell (the model field by name, the empty value's text, whether
it links, its classes); on a page of 100 rows that was a third of the page's time. Here each column is resolved once
(``_Column``) and each cell only reads its value and renders it with Django's own functions, so a cell reads as it
did. Pages with editable rows (``list_editable``) keep Django's own code.
"""

from __future__ import annotations

import datetime

from django.contrib.admin.templatetags import admin_list
from django.contrib.admin.templatetags.admin_urls import add_preserved_filters
from django.contrib.admin.utils import FieldIsAForeignKeyColumnName, _get_non_gfk_field, lookup_field, quote
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import FieldDoesNotExist, ObjectDoesNotExist
from django.db import models
from django.urls import NoReverseMatch, reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString


class _Column:
    """One column of the page: its model field (None for a callable, a method or an attribute), classes, link."""

    def __init__(self, cl, index: int, name, *, links: bool, empty: str):
        self.name = name
        self.links = links
        self.empty = empty
        self.classes = f"field-{admin_list._coerce_field_name(name, index)}"
        try:
            self.field = None if callable(name) else _get_non_gfk_field(cl.lookup_opts, name)
        except (FieldDoesNotExist, FieldIsAForeignKeyColumnName):
            self.field = None


def _columns(cl) -> list[_Column]:
    links = cl.list_display_links
    empty = cl.model_admin.get_empty_value_display()
    columns = []
    first = True
    for index, name in enumerate(cl.list_display):
        if links is None:
            linked = False
        elif first and not links:
            linked = True
        else:
            linked = name in links
        columns.append(_Column(cl, index, name, links=linked, empty=empty))
        if linked:
            first = False
    return columns


def _cell(cl, column: _Column, result):
    """The cell's content and classes, as ``items_for_result`` makes them."""
    empty_value_display = column.empty
    row_classes = [column.classes]
    try:
        if column.field is not None:
            f, attr, value = column.field, None, getattr(result, column.name)
        else:
            f, attr, value = lookup_field(column.name, result, cl.model_admin)
    except ObjectDoesNotExist:
        return empty_value_display, row_classes
    empty_value_display = getattr(attr, "empty_value_display", empty_value_display)
    if isinstance(value, str) and value.strip() == "":
        value = ""
    if f is None or f.auto_created:
        if column.name == "action_checkbox":
            row_classes = ["action-checkbox"]
        boolean = getattr(attr, "boolean", False)
        if isinstance(attr, property) and hasattr(attr, "fget"):
            boolean = getattr(attr.fget, "boolean", False)
        result_repr = admin_list.display_for_value(value, empty_value_display, boolean)
        if isinstance(value, (datetime.date, datetime.time)):
            row_classes.append("nowrap")
    else:
        if isinstance(f.remote_field, models.ManyToOneRel):
            field_val = getattr(result, f.name)
            result_repr = empty_value_display if field_val is None else field_val
        else:
            result_repr = admin_list.display_for_field(value, f, empty_value_display, avoid_link=column.links)
        if isinstance(f, (models.DateField, models.TimeField, models.ForeignKey)):
            row_classes.append("nowrap")
    return result_repr, row_classes


def items_for_result(cl, result, columns, change_url):
    """The cells of one row, as Django's ``items_for_result`` without a form (``change_url``: the row's link)."""
    first = True
    for column in columns:
        result_repr, row_classes = _cell(cl, column, result)
        row_class = ' class="' + " ".join(row_classes) + '"'
        if column.links:
            table_tag = "th" if first else "td"
            first = False
            url = change_url(result)
            if url is None:
                link_or_text = result_repr
            else:
                value = result.serializable_value(str(cl.to_field) if cl.to_field else cl.lookup_opts.pk.attname)
                popup = format_html(' data-popup-opener="{}"', value) if cl.is_popup else ""
                link_or_text = format_html('<a href="{}"{}>{}</a>', url, popup, result_repr)
            yield SafeString(f"<{table_tag}{row_class}>{conditional_escape(link_or_text)}</{table_tag}>")
        else:
            yield SafeString(f"<td{row_class}>{conditional_escape(result_repr)}</td>")


class PageChangeList(ChangeList):
    """Django's list page, the rows' change links one URL reversed for the page, each row's key put in it
    (``reverse`` per row was a tenth of a list's time)."""

    KEY = "__row_key__"

    def change_url_template(self) -> str:
        """The change page's URL with ``KEY`` for the row's key."""
        url = self.__dict__.get("_change_url")
        if url is None:
            url = self._change_url = reverse(
                f"admin:{self.opts.app_label}_{self.opts.model_name}_change",
                args=(self.KEY,),
                current_app=self.model_admin.admin_site.name,
            )
        return url

    def url_for_result(self, result):
        return self.change_url_template().replace(self.KEY, str(quote(getattr(result, self.pk_attname))), 1)


def results(cl):
    """The page's rows (``admin_list.results``): Django's own for editable rows or another list class, else
    ``items_for_result``."""
    if cl.formset or not isinstance(cl, PageChangeList):
        yield from admin_list.results(cl)
        return
    columns = _columns(cl)
    try:
        # The list's filters kept in each row's link (``add_preserved_filters``), worked out once a page.
        template = add_preserved_filters(
            {"preserved_filters": cl.preserved_filters, "opts": cl.opts}, cl.change_url_template()
        )
    except NoReverseMatch:
        template = None

    def change_url(result):
        if template is None:
            return None
        return template.replace(cl.KEY, str(quote(getattr(result, cl.pk_attname))), 1)

    for result in cl.result_list:
        yield admin_list.ResultList(None, items_for_result(cl, result, columns, change_url))
