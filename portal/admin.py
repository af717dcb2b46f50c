"""The admin's one gate: every ModelAdmin of the portal derives from ``AccessAdmin``.

Who may do what on an admin page is the ``rules`` permission of
each app's ``rules.py`` (the predicates over ``federation.access``), asked with
the object whenever there is one: the list and add pages ask "some object
of that kind", the change, delete, history and revert pages ask about the
object itself. Django's own admin asks its view permission without the
object and simple-history's pages fall back to that, so here:

- the history page and the revert form find the object through
  ``get_queryset`` (scoped like the change page): an object the user may not
  see is "no such object", never its stored history;
- a revert (POST of the revert form) needs change permission on the object
  as it is and on the version being restored, and then saves through the
  admin's ``save_model``, i.e. the services, which check again.

Subclasses may narrow a permission further (``super()... and ...``), never widen it.
"""

from __future__ import annotations

import functools

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib import admin
from django.contrib.admin import helpers
from django.contrib.admin.utils import get_fields_from_path, unquote
from django.contrib.auth import get_permission_codename
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.hashable import make_hashable
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext, gettext_lazy
from django_countries.fields import Country, CountryField
from simple_history.admin import SimpleHistoryAdmin

from .admin_rows import PageChangeList
from .choices import choice_labels
from .models import WorkerHeartbeat


def admin_permission(request, opts, action: str, obj=None) -> bool:
    """Whether the admin user of ``request`` holds ``<app>.<action>_<model>`` (with ``obj`` when given)."""
    user = request.user
    codename = get_permission_codename(action, opts)
    return bool(user.is_active and user.is_staff and user.has_perm(f"{opts.app_label}.{codename}", obj))


class AccessPermissionsMixin:
    """The permission methods of a ModelAdmin or inline, answered by each app's ``rules.py``."""

    def has_module_permission(self, request):
        user = request.user
        return bool(user.is_active and user.is_staff and user.has_module_perms(self.opts.app_label))

    def has_view_permission(self, request, obj=None):
        return admin_permission(request, self.opts, "view", obj) or admin_permission(request, self.opts, "change", obj)

    def has_add_permission(self, request, *args):
        return admin_permission(request, self.opts, "add")

    def has_change_permission(self, request, obj=None):
        return admin_permission(request, self.opts, "change", obj)

    def has_delete_permission(self, request, obj=None):
        return admin_permission(request, self.opts, "delete", obj)


class ListRowsMixin:
    """A ModelAdmin's list page, each row's cells cheaper than Django's own and showing the same: the rows through
    ``portal.admin_rows`` (each column resolved once a page, the change link reversed once a page)."""

    change_list_template = "admin/portal_change_list.html"

    def action_checkbox(self, obj):
        """The row's checkbox for the list's actions, as Django's own (``ModelAdmin.action_checkbox``) without a
        form widget rendered through the template engine for each row (a fifth of a 100-row list's time)."""
        label = format_html(gettext("Select this object for an action - {}"), str(obj))
        return format_html(
            '<input type="checkbox" name="{}" value="{}" class="action-select" aria-label="{}">',
            helpers.ACTION_CHECKBOX_NAME,
            str(obj.pk),
            label,
        )

    def get_changelist(self, request, **kwargs):
        return PageChangeList

    def get_list_display(self, request):
        """The list's columns; a country (django-countries' ``CountryField``) shows its name through
        ``country_column``, a field with choices its label through ``choice_column``."""
        return [_choice_column(self.model, item) for item in super().get_list_display(request)]


class AccessAdmin(ListRowsMixin, AccessPermissionsMixin, SimpleHistoryAdmin):
    """A ModelAdmin whose every view (list, add, change, delete, history, revert) goes through the access layer."""

    def get_list_filter(self, request):
        """The list's filters; a filter on a related record (a championship, a federation...) offers only the
        records the user's own rows point to (Django's ``RelatedOnlyFieldListFilter`` over ``get_queryset``),
        never every row of the table: a draft championship's name is not read in a filter's sidebar (1.1 A,
        issue 23: a draft is no such thing for anyone but its directors)."""
        return [_narrowed_filter(self.model, entry) for entry in super().get_list_filter(request)]

    def _visible_object(self, request, object_id):
        """The live object, if the user's queryset holds it (None otherwise: not visible, or deleted)."""
        return self.get_object(request, unquote(object_id))

    def _keeps_history(self) -> bool:
        """Whether the model keeps simple-history versions (a log whose rows never change keeps none)."""
        return hasattr(self.model, getattr(self.opts, "simple_history_manager_attribute", "history"))

    def history_view(self, request, object_id, extra_context=None):
        obj = self._visible_object(request, object_id)
        if not self._keeps_history():
            # Django's own list of the admin's actions on the object (none for records only services write).
            if obj is None:
                return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
            return admin.ModelAdmin.history_view(self, request, object_id, extra_context)
        if obj is None:
            if request.user.is_active and request.user.is_superuser:  # (accounts.roles.is_superuser)
                # A deleted object's stored history, for whoever sees everything.
                return super().history_view(request, object_id, extra_context)
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        if not self.has_view_history_or_change_history_permission(request, obj):
            raise PermissionDenied
        return super().history_view(request, object_id, extra_context)

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        obj = self._visible_object(request, object_id)
        if not self._keeps_history():
            raise Http404(gettext("This record keeps no versions to revert to."))
        if obj is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        if not self.has_view_history_or_change_history_permission(request, obj):
            raise PermissionDenied
        if request.method == "POST":
            history_model = getattr(self.model, self.opts.simple_history_manager_attribute).model
            version = get_object_or_404(
                history_model, **{self.opts.pk.attname: obj.pk, "history_id": unquote(version_id)}
            ).instance
            # Restoring writes: change permission on the object as it is and as it would become.
            if (
                self.revert_disabled(request, obj)
                or not self.has_change_history_permission(request, obj)
                or not self.has_change_history_permission(request, version)
            ):
                raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)


@functools.cache
def country_column(model, name: str):
    """A changelist column of a country field: the country's name, read from the row's own code.

    Django's admin shows a field with choices through the field's ``flatchoices``, which django-countries builds
    anew for each cell: every country's name translated and sorted, about 250 of them a row (100 people cost
    129x the home page; issue 27). Sorted by the code, as the field is.
    """
    field = model._meta.get_field(name)

    @admin.display(description=capfirst(field.verbose_name), ordering=name)
    def column(obj):
        return getattr(obj, name).name

    column.__name__ = name
    return column


@functools.cache
def choice_column(model, name: str):
    """A changelist column of a field with choices: the label of the row's value, from a table kept per field and
    language (``portal.choices``); Django's admin builds the field's whole table of choices for each cell."""
    field = model._meta.get_field(name)

    @admin.display(description=capfirst(field.verbose_name), ordering=name)
    def column(obj):
        value = getattr(obj, field.attname)
        return choice_labels(field).get(make_hashable(value))

    column.__name__ = name
    return column


@functools.cache
def _choice_fields(model) -> dict:
    """The model's fields with choices by name: countries (``country_column``) and the others (``choice_column``)."""
    fields = {}
    for field in model._meta.concrete_fields:
        if isinstance(field, CountryField):
            fields[field.name] = country_column
        elif field.choices and not field.is_relation:
            fields[field.name] = choice_column
    return fields


def _choice_column(model, item):
    """``item`` of a list_display, or the column for a country's or another choice field's name."""
    column = _choice_fields(model).get(item) if isinstance(item, str) else None
    return column(model, item) if column else item


class CountryListFilter(admin.ChoicesFieldListFilter):
    """A country field's filter offering the countries the user's rows hold (one query), by name.

    Django's filter of a field with choices offers every choice: about 250 countries, each a link built for the
    page (with the country field's ``flatchoices`` built for it), whatever the rows hold.
    """

    def __init__(self, field, request, params, model, model_admin, field_path):
        super().__init__(field, request, params, model, model_admin, field_path)
        codes = model_admin.get_queryset(request).order_by().values_list(field_path, flat=True).distinct()
        self.present = sorted(((code, Country(code).name) for code in codes if code), key=lambda item: item[1])

    def choices(self, changelist):
        yield {
            "selected": not self.lookup_val,
            "query_string": changelist.get_query_string(remove=[self.lookup_kwarg, self.lookup_kwarg_isnull]),
            "display": gettext("All"),
        }
        for code, name in self.present:
            yield {
                "selected": self.lookup_val is not None and code in self.lookup_val,
                "query_string": changelist.get_query_string({self.lookup_kwarg: code}, [self.lookup_kwarg_isnull]),
                "display": name,
            }


def _narrowed_filter(model, entry):
    """``entry`` of a ``list_filter``, with a relation's (or a country's) choices taken from the user's own rows."""
    if not isinstance(entry, str):
        return entry
    field = get_fields_from_path(model, entry)[-1]
    if field.is_relation:
        return (entry, admin.RelatedOnlyFieldListFilter)
    if isinstance(field, CountryField):
        return (entry, CountryListFilter)
    return entry


class ReadOnlyAdmin(AccessAdmin):
    """Records written by the services only; staff read them here (nothing added, changed or deleted)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ActingFormMixin:
    """The admin's form is given who acts (``by``): the services' checks it runs need it."""

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)

        class ActingForm(form):
            def __init__(self, *args, **kw):
                super().__init__(*args, by=request.user, **kw)

        return ActingForm


def adopt_third_party_admins(site: admin.AdminSite, models) -> None:
    """Register the admins of other packages (auth's groups, django-axes' logs) again, through the access layer."""
    for model in models:
        original = type(site._registry[model])
        site.unregister(model)
        site.register(model, type(original.__name__, (ListRowsMixin, AccessPermissionsMixin, original), {}))


adopt_third_party_admins(admin.site, [Group, AccessAttempt, AccessLog, AccessFailureLog])


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(ListRowsMixin, AccessPermissionsMixin, admin.ModelAdmin):
    """Read-only: rows are written by the heartbeat task, never by hand."""

    list_display = ["worker", "last_seen", "alive", "beats", "first_seen"]
    search_fields = ["worker"]

    @admin.display(boolean=True, description=gettext_lazy("Alive"))
    def alive(self, obj):
        return obj.is_alive(now=timezone.now())

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
