"""django-filter FilterSets of the federation API lists.

A value that does not parse (a date, a country code, an id) is a 400 naming
the parameter, never an empty list by accident and never a 500.
"""

from __future__ import annotations

import django_filters
from django.utils.translation import gettext_lazy as _
from django_countries import countries

from federation.access import passports_visible_to, reads_confidential_records
from portal.filters import ProtectedFieldsFilterSet, SafeIsoDateTimeFilter, id_filter

from .models import (
    CategoryChoice,
    DeviceRequestStatus,
    EligibilityWaiver,
    EquipmentInspection,
    EquipmentKind,
    EquipmentModel,
    Federation,
    FederationLevel,
    Gender,
    InspectionKind,
    Passport,
    Person,
    ProtectiveDeviceRequest,
)
from .selectors import PERSON_ROLE_FIELDS, PERSON_ROLE_LABELS

COUNTRY_CHOICES = list(countries)


class FederationFilter(django_filters.FilterSet):
    level = django_filters.ChoiceFilter(choices=FederationLevel.choices)
    country = django_filters.ChoiceFilter(choices=COUNTRY_CHOICES)
    parent = django_filters.ModelChoiceFilter(queryset=Federation.objects.all())

    class Meta:
        model = Federation
        fields = ["level", "country", "parent", "firs_affiliated", "good_standing"]


PASSPORT_FILTER_REFUSED = _(
    "Only staff of the holder's federation and international staff read passports: you may not filter by them."
)


class PersonFilter(ProtectedFieldsFilterSet):
    federation = django_filters.ModelChoiceFilter(queryset=Federation.objects.all())
    level = django_filters.ChoiceFilter(field_name="federation__level", choices=FederationLevel.choices)
    country = django_filters.ChoiceFilter(
        field_name="federation__country", choices=COUNTRY_CHOICES, label=_("Country of the federation")
    )
    gender = django_filters.ChoiceFilter(choices=Gender.choices)
    nationality = django_filters.ChoiceFilter(choices=COUNTRY_CHOICES)
    role = django_filters.ChoiceFilter(choices=list(PERSON_ROLE_LABELS.items()), method="filter_role")
    born_after = django_filters.DateFilter(field_name="date_of_birth", lookup_expr="gte")
    born_before = django_filters.DateFilter(field_name="date_of_birth", lookup_expr="lte")
    passport_expiry_before = django_filters.DateFilter(
        field_name="passports__expiry_date",
        method="filter_passport_before",
        label=_("Holds a passport expiring before"),
    )
    passport_expiry_after = django_filters.DateFilter(
        field_name="passports__expiry_date", method="filter_passport_after", label=_("Holds a passport valid on")
    )

    # Passports are read by staff of the holder's federation and international staff (federation.access): nobody
    # else learns from a filter who holds one or when it expires.
    protected_filters = dict.fromkeys(
        ("passport_expiry_before", "passport_expiry_after"), (reads_confidential_records, PASSPORT_FILTER_REFUSED)
    )

    class Meta:
        model = Person
        fields = ["federation", "gender", "nationality"]

    def filter_role(self, queryset, name, value):
        return queryset.filter(**{PERSON_ROLE_FIELDS[value]: True})

    def filter_passport_before(self, queryset, name, value):
        return self._holding_a_readable_passport(queryset, expiry_date__lt=value)

    def filter_passport_after(self, queryset, name, value):
        return self._holding_a_readable_passport(queryset, expiry_date__gte=value)

    def _holding_a_readable_passport(self, queryset, **lookup):
        """People holding a passport the caller may read (``passports_visible_to``) that meets ``lookup``."""
        readable = passports_visible_to(getattr(self.request, "user", None)).filter(**lookup)
        return queryset.filter(pk__in=readable.values("person_id"))


class PersonRecordFilter(django_filters.FilterSet):
    """The filters of any record of a person (passport, waiver, inspection, device request)."""

    person = id_filter(field_name="person_id")
    federation = django_filters.ModelChoiceFilter(field_name="person__federation", queryset=Federation.objects.all())


class PassportFilter(PersonRecordFilter):
    issuing_country = django_filters.ChoiceFilter(choices=COUNTRY_CHOICES)
    expiry_before = django_filters.DateFilter(field_name="expiry_date", lookup_expr="lt")
    expiry_after = django_filters.DateFilter(field_name="expiry_date", lookup_expr="gte")
    has_scan = django_filters.BooleanFilter(method="filter_has_scan")

    class Meta:
        model = Passport
        fields = ["person", "issuing_country"]

    def filter_has_scan(self, queryset, name, value):
        return queryset.exclude(scan="") if value else queryset.filter(scan="")


class EligibilityWaiverFilter(PersonRecordFilter):
    code = django_filters.ChoiceFilter(choices=EligibilityWaiver._meta.get_field("code").choices)
    category = django_filters.ChoiceFilter(choices=CategoryChoice.choices)
    year = django_filters.NumberFilter()

    class Meta:
        model = EligibilityWaiver
        fields = ["person", "code", "category", "year"]


class EquipmentModelFilter(django_filters.FilterSet):
    kind = django_filters.ChoiceFilter(choices=EquipmentKind.choices)
    certification = django_filters.CharFilter(method="filter_certification")

    class Meta:
        model = EquipmentModel
        fields = ["kind", "approved", "manufacturer"]

    def filter_certification(self, queryset, name, value):
        # 3.2.6 A: HECC, CSA or CE; certifications are stored upper-case.
        return queryset.filter(certifications__icontains=f'"{value.strip().upper()}"')


class EquipmentInspectionFilter(PersonRecordFilter):
    kind = django_filters.ChoiceFilter(choices=InspectionKind.choices)
    inspected_after = SafeIsoDateTimeFilter(field_name="inspected_at", lookup_expr="gte")
    inspected_before = SafeIsoDateTimeFilter(field_name="inspected_at", lookup_expr="lt")

    class Meta:
        model = EquipmentInspection
        fields = ["person", "kind", "compliant"]


class ProtectiveDeviceRequestFilter(PersonRecordFilter):
    status = django_filters.ChoiceFilter(choices=DeviceRequestStatus.choices)
    submitted_after = SafeIsoDateTimeFilter(field_name="submitted_at", lookup_expr="gte")
    submitted_before = SafeIsoDateTimeFilter(field_name="submitted_at", lookup_expr="lt")

    class Meta:
        model = ProtectiveDeviceRequest
        fields = ["person", "status"]
