"""The suspension lists' filters (8.2), one FilterSet for the staff's page, the API and the home page."""

from __future__ import annotations

import django_filters
from django import forms

from discipline.models import Suspension, SuspensionKind, SuspensionStatus


class _YesNo(forms.NullBooleanSelect):
    """``true``/``false`` as the schema's boolean, and ``1``/``0`` as a link may write them."""

    def value_from_datadict(self, data, files, name):
        return {"true": True, "True": True, "1": True, "false": False, "False": False, "0": False}.get(data.get(name))


class SuspensionFilter(django_filters.FilterSet):
    """``?status=``, ``?kind=`` and ``?provisional=``: a value outside the choices is an error naming the parameter
    (a 400 on the API, a form error on the page), never passed to the database (a NUL is a 500 on PostgreSQL)."""

    status = django_filters.ChoiceFilter(choices=SuspensionStatus.choices)
    kind = django_filters.ChoiceFilter(choices=SuspensionKind.choices)
    provisional = django_filters.BooleanFilter(widget=_YesNo)

    class Meta:
        model = Suspension
        fields = ["status", "kind", "provisional"]
