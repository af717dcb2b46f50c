"""django-filter pieces shared by every app's API lists.

A value the database cannot hold or Python cannot convert is a 400 naming the
parameter, never an overflow or a 500.
"""

from __future__ import annotations

import datetime

import django_filters
from django import forms
from django.utils import timezone

# Ids are checked as numbers the database can hold: a 30-digit id is a 400, not an overflow.
MAX_ID = 2**31 - 1


def id_filter(**kwargs) -> django_filters.NumberFilter:
    """An integer id filter bounded to what the database's id columns hold."""
    return django_filters.NumberFilter(min_value=1, max_value=MAX_ID, **kwargs)


class SafeIsoDateTimeField(django_filters.fields.IsoDateTimeField):
    """An ISO 8601 datetime that must also exist in UTC, where the database keeps it.

    ``0001-01-01T00:00:00+14:00`` parses, but is before year 1 in UTC: a form
    error naming the parameter, not an OverflowError when the query is run.
    """

    def to_python(self, value):
        value = super().to_python(value)
        if value is not None and timezone.is_aware(value):
            try:
                value.astimezone(datetime.UTC)
            except (OverflowError, ValueError):
                raise forms.ValidationError(
                    "Enter a date and time between the years 1 and 9999 in UTC.", code="invalid"
                ) from None
        return value


class SafeIsoDateTimeFilter(django_filters.IsoDateTimeFilter):
    field_class = SafeIsoDateTimeField


def id_or_none(value: str | None) -> int | None:
    """The id a screen's query parameter names, or None when it is empty, not a number or beyond MAX_ID."""
    try:
        number = int(value) if value else None
    except ValueError:
        return None
    return number if number is not None and 1 <= number <= MAX_ID else None


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
