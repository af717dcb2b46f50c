"""django-filter pieces shared by every app's API lists.

A value the database cannot hold or Python cannot convert is a 400 naming the
parameter, never an overflow or a 500; so is an empty value, a value the filter
would ignore, and a number in other than the ASCII digits 0-9 (``FilterBackend``).
"""

from __future__ import annotations

import datetime

import django_filters
from django import forms
from django.utils import timezone
from django.utils.translation import gettext
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework import filters
from rest_framework.exceptions import ValidationError

from common.numbers import whole_number_or_none

# Ids are checked as numbers the database can hold: a 30-digit id is a 400, not an overflow.
MAX_ID = 2**31 - 1


def id_filter(**kwargs) -> django_filters.NumberFilter:
    """An integer id filter bounded to what the database's id columns hold."""
    return django_filters.NumberFilter(min_value=1, max_value=MAX_ID, **kwargs)


class SafeIsoDateTimeField(django_filters.fields.IsoDateTimeField):
    """An ISO 8601 datetime that must also exist in UTC, where the database keeps it.

    ``0001-01-01T00:00:00+14:00`` parses, but is before year 1 in UTC: a form
    error naming the parameter, not an OverflowError when the query is run. The value is
    given to the query in UTC: an offset such as ``-19:06`` parses in Python but is a 500 on PostgreSQL.
    """

    def to_python(self, value):
        value = super().to_python(value)
        if value is not None and timezone.is_aware(value):
            try:
                # In UTC, as the database keeps it: PostgreSQL refuses an offset beyond 15:59 (``-19:06``) in a query.
                return value.astimezone(datetime.UTC)
            except (OverflowError, ValueError):
                raise forms.ValidationError(
                    gettext("Enter a date and time between the years 1 and 9999 in UTC."), code="invalid"
                ) from None
        return value


class SafeIsoDateTimeFilter(django_filters.IsoDateTimeFilter):
    field_class = SafeIsoDateTimeField


def id_or_none(value: str | None) -> int | None:
    """The id a screen's query parameter names, or None when it is empty, not a number or beyond MAX_ID."""
    return whole_number_or_none(value, minimum=1, maximum=MAX_ID)


# Filters whose values are whole numbers (ids, a year): their text is read by common.numbers, ASCII digits only.
_NUMBER_FILTERS = (
    django_filters.NumberFilter,
    django_filters.ModelChoiceFilter,
    django_filters.ModelMultipleChoiceFilter,
)


def query_parameter_errors(filterset: django_filters.FilterSet, params) -> dict[str, list[str]]:
    """What the list's query parameters break, by parameter: django-filter's own errors, and also

    - a parameter given empty (``?starts_before=``), or with a value that the filter reads as "no filter"
      (``?fee_paid=null``): refused, not silently ignored (the schema takes a value or no parameter);
    - a number not in the ASCII digits 0-9 (``?entry=٣``, ``?team=²``): refused, not read as 3 or a 500.
    """
    valid = filterset.is_valid()
    errors = {name: list(messages) for name, messages in filterset.errors.items()} if not valid else {}
    cleaned = getattr(filterset.form, "cleaned_data", {})
    for name, flt in filterset.filters.items():
        if name not in params or name in errors:
            continue
        values = params.getlist(name)
        if any(not value.strip() for value in values):
            errors[name] = ["Give a value, or leave the parameter out."]
        elif isinstance(flt, _NUMBER_FILTERS) and any(whole_number_or_none(value) is None for value in values):
            errors[name] = ["Enter a whole number in the digits 0-9."]
        elif cleaned.get(name) in (None, "", []):
            errors[name] = [f"{values[0][:40]!r} is not a value this parameter takes."]
    return errors


class FilterBackend(DjangoFilterBackend):
    """The API lists' filters (``DEFAULT_FILTER_BACKENDS``): a query value the schema does not allow is a 400 naming
    the parameter (``query_parameter_errors``), never ignored."""

    def filter_queryset(self, request, queryset, view):
        filterset = self.get_filterset(request, queryset, view)
        if filterset is None:
            return queryset
        errors = query_parameter_errors(filterset, request.query_params)
        if errors:
            raise ValidationError(errors)
        return filterset.qs


class SearchFilter(filters.SearchFilter):
    """DRF's ``?search=``, a value it refuses (a NUL) answered as the field-errors map naming ``search``."""

    def get_search_terms(self, request):
        try:
            return super().get_search_terms(request)
        except ValidationError as error:
            raise ValidationError({self.search_param: error.detail}) from None


class ProtectedFieldsFilterSet(django_filters.FilterSet):
    """A FilterSet some of whose parameters read a protected record (a person's passports...).

    ``protected_filters`` maps each such parameter to its owning app's rule (a function of the user: may they read
    those records at all?) and the message naming the rule. A caller the rule refuses gets a 400 naming the
    parameter, never an answer the protected values shaped; the filter itself keeps to the records the caller may
    read (its ``method`` goes through the owning app's ``*_visible_to``).
    """

    protected_filters: dict[str, tuple] = {}

    def is_valid(self):
        valid = super().is_valid()
        user = getattr(self.request, "user", None)
        for name, (may_read, message) in self.protected_filters.items():
            if self.data.get(name) not in (None, "") and not may_read(user):
                self.form.add_error(name, message)
                valid = False
        return valid
