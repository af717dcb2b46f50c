"""API serializers of the federation register.

Input serializers check the shape and types of a request (a 400 naming the
field); the rules themselves are checked by the services they feed. Output
serializers never expose a stored file: a passport scan or a prescription is
only reachable through its guarded page view, whose URL they give.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.urls import reverse
from django.utils.translation import gettext
from django_countries.serializer_fields import CountryField
from drf_spectacular.plumbing import build_basic_type
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from portal.filters import MAX_ID
from portal.i18n import stored
from portal.serializers import FloatField, IntegerField, ModelSerializer

from .models import (
    EligibilityWaiver,
    EquipmentInspection,
    EquipmentModel,
    Federation,
    Passport,
    Person,
    ProtectiveDeviceRequest,
    WaiverRequest,
)
from .services import FEDERATION_FIELDS, PERSON_FIELDS


@extend_schema_field({"type": "string", "pattern": "^[A-Za-z]{2}$", "description": "ISO 3166-1 alpha-2 code"})
class SafeCountryField(CountryField):
    """An ISO 3166-1 alpha-2 code, nothing else: not a name, an alpha-3 code, a number or a list (a 400)."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid_choice", input=data)
        code = data.strip().upper()
        if code == "" and self.allow_blank:
            return ""
        if len(code) != 2 or self.countries.alpha2(code) != code:
            self.fail("invalid_choice", input=data)
        return code


def guarded_file_url(serializer, stored_file, view_name: str, pk: int) -> str | None:
    """The absolute URL of the permission-checked view serving a stored file; None when nothing is stored."""
    if not stored_file:
        return None
    url = reverse(view_name, kwargs={"pk": pk})
    request = serializer.context.get("request")
    return request.build_absolute_uri(url) if request else url


# --- Federations -----------------------------------------------------------------


# Issue 26: a country's name in the language the request asks for (django-countries' catalogues), beside its code.
COUNTRY_NAME_HELP = (
    "The country's name in the language the request asks for (Accept-Language: en, fr or es); empty without a country."
)


class FederationSerializer(ModelSerializer):
    country = SafeCountryField(required=False, allow_blank=True)
    country_name = serializers.CharField(source="country.name", read_only=True, help_text=COUNTRY_NAME_HELP)

    class Meta:
        model = Federation
        fields = ["id", *FEDERATION_FIELDS, "country_name"]
        # The one-national-federation-per-country constraint (1.1 A) is checked by
        # services.check_federation, which the admin form calls too.
        validators: list = []


# --- People ----------------------------------------------------------------------


class PersonSerializer(ModelSerializer):
    federation_name = serializers.CharField(source="federation.name", read_only=True)
    nationality = SafeCountryField()

    class Meta:
        model = Person
        fields = ["id", "federation_name", *PERSON_FIELDS]


class PersonCreateSerializer(PersonSerializer):
    register_anyway = serializers.BooleanField(
        write_only=True,
        default=False,
        help_text="Portal rule (no silent duplicate): true registers a person although someone you may see has the "
        "same name and date of birth.",
    )

    class Meta(PersonSerializer.Meta):
        fields = [*PersonSerializer.Meta.fields, "register_anyway"]


class EligibilityQuerySerializer(serializers.Serializer):
    """GET parameters of a person's eligibility (1.1 B-G): the championship it is checked for."""

    year = IntegerField(min_value=1900, max_value=2200, required=False)
    start_date = serializers.DateField(required=False)
    end_date = serializers.DateField(required=False)
    team_country = SafeCountryField(required=False)

    def validate(self, attrs):
        start, end = attrs.get("start_date"), attrs.get("end_date")
        if (start is None) != (end is None):
            missing = "end_date" if end is None else "start_date"
            raise serializers.ValidationError({missing: gettext("Give both start_date and end_date, or neither.")})
        if start and end and end < start:
            raise serializers.ValidationError({"end_date": gettext("A championship cannot end before it starts.")})
        if start and attrs.get("year") and start.year != attrs["year"]:
            raise serializers.ValidationError({"start_date": gettext("The championship must start in the given year.")})
        return attrs


class EligibilityReasonSerializer(serializers.Serializer):
    code = serializers.CharField()
    article = serializers.CharField()
    message = serializers.CharField()
    field = serializers.CharField()


class WaivedReasonSerializer(EligibilityReasonSerializer):
    waiver_reason = serializers.CharField()
    approved_by = serializers.CharField()


class CategoryEligibilitySerializer(serializers.Serializer):
    category = serializers.CharField()
    label = serializers.CharField()
    article = serializers.CharField()
    eligible = serializers.BooleanField()
    reasons = EligibilityReasonSerializer(many=True)
    waived = WaivedReasonSerializer(many=True)


class EnteredEligibilitySerializer(CategoryEligibilitySerializer):
    """Eligibility in a championship whose roster names the person: its category, dates, team country, ruleset."""

    championship = IntegerField()
    championship_name = serializers.CharField()
    entry = IntegerField()
    team = serializers.CharField()
    start_date = serializers.DateField()
    end_date = serializers.DateField()
    team_country = serializers.CharField()


class AssumedEligibilitySerializer(serializers.Serializer):
    """Every category for an assumed championship (not an entry): given by the query, else 1-10 July this year."""

    start_date = serializers.DateField()
    end_date = serializers.DateField()
    team_country = serializers.CharField()
    categories = CategoryEligibilitySerializer(many=True)


class PersonEligibilitySerializer(serializers.Serializer):
    person = IntegerField()
    championships = EnteredEligibilitySerializer(
        many=True, help_text="Each championship whose roster names the person (withdrawn entries aside), latest first."
    )
    assumed = AssumedEligibilitySerializer(
        allow_null=True,
        help_text="An assumed championship, not an entry: only when the person is entered nowhere, or when year, "
        "start_date/end_date or team_country ask for one; null otherwise.",
    )


# --- Passports -------------------------------------------------------------------


class PassportSerializer(ModelSerializer):
    """A passport's metadata; the scan itself only through ``federation:passport-scan``."""

    person_name = serializers.StringRelatedField(source="person", read_only=True)
    federation = IntegerField(source="person.federation_id", read_only=True)
    issuing_country = SafeCountryField()
    has_scan = serializers.SerializerMethodField()
    scan_url = serializers.SerializerMethodField()

    class Meta:
        model = Passport
        fields = [
            "id",
            "person",
            "person_name",
            "federation",
            "issuing_country",
            "number",
            "expiry_date",
            "has_scan",
            "scan_content_type",
            "scan_url",
        ]
        read_only_fields = ["scan_content_type"]

    def get_has_scan(self, passport) -> bool:
        return bool(passport.scan)

    @extend_schema_field({**build_basic_type(OpenApiTypes.URI), "nullable": True})
    def get_scan_url(self, passport) -> str | None:
        return guarded_file_url(self, passport.scan, "federation:passport-scan", passport.pk)


class PassportInputSerializer(serializers.Serializer):
    """A passport to record (1.1 B); ``scan`` goes as multipart and is checked by its content."""

    person = IntegerField()
    issuing_country = SafeCountryField()
    number = serializers.CharField(max_length=40)
    expiry_date = serializers.DateField()
    scan = serializers.FileField(required=False, allow_empty_file=True)

    def validate_number(self, value):
        if not value.strip():
            raise serializers.ValidationError(gettext("This field may not be blank."))
        return value


class PassportRenewSerializer(PassportInputSerializer):
    """The passport that renews another (1.1 B): the same holder; the issuing country is the old one's unless sent."""

    person = None
    issuing_country = SafeCountryField(required=False)


class PassportUpdateSerializer(PassportInputSerializer):
    person = None
    clear_scan = serializers.BooleanField(required=False, help_text="Remove the stored scan.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.required = False


# --- Eligibility waivers ----------------------------------------------------------


class EligibilityWaiverSerializer(ModelSerializer):
    approved_by = serializers.StringRelatedField(read_only=True)

    class Meta:
        model = EligibilityWaiver
        fields = ["id", "person", "code", "category", "year", "reason", "approved_by", "approved_at"]
        read_only_fields = ["approved_at"]


class EligibilityWaiverInputSerializer(serializers.Serializer):
    person = IntegerField()
    code = serializers.CharField(max_length=32)
    category = serializers.CharField(max_length=32, required=False, allow_blank=True, default="")
    year = IntegerField(required=False, allow_null=True, default=None)
    reason = serializers.CharField(allow_blank=True, trim_whitespace=True)


class PersonMergeInputSerializer(serializers.Serializer):
    duplicate = IntegerField(
        min_value=1,
        max_value=MAX_ID,
        help_text="The other record of the same person: merged into this one, then deleted.",
    )


class PersonMergeSerializer(serializers.Serializer):
    person = PersonSerializer(help_text="The kept record.")
    moved = serializers.DictField(
        child=IntegerField(), help_text="The rows that now name the kept record, per field (app.Model.field)."
    )


class WaiverRequestSerializer(ModelSerializer):
    requested_by = serializers.StringRelatedField(read_only=True)
    decided_by = serializers.StringRelatedField(read_only=True, allow_null=True)

    class Meta:
        model = WaiverRequest
        fields = [
            "id", "person", "code", "category", "year", "justification", "status", "requested_by", "requested_at",
            "decided_by", "decided_at", "decision_reason", "waiver",
        ]  # fmt: skip
        read_only_fields = fields
        extra_kwargs = {"waiver": {"help_text": "The waiver the grant recorded (R-03); null until granted."}}


class WaiverRequestInputSerializer(serializers.Serializer):
    person = IntegerField(help_text="A person of a federation whose records you keep.")
    code = serializers.CharField(max_length=32, help_text="The 1.1 B requirement to waive.")
    category = serializers.CharField(
        max_length=32, required=False, allow_blank=True, default="", help_text="Empty: every category."
    )
    year = IntegerField(required=False, allow_null=True, default=None, help_text="Null: every year.")
    justification = serializers.CharField(help_text="R-03: why the federation asks the IHTC for this exception.")


class WaiverRequestDecisionSerializer(serializers.Serializer):
    decision = serializers.ChoiceField(choices=[("grant", "Grant"), ("refuse", "Refuse")])
    decision_reason = serializers.CharField(help_text="R-03: the IHTC's decision states its reason.")


# --- Equipment -------------------------------------------------------------------


class EquipmentModelSerializer(ModelSerializer):
    approved_by = serializers.StringRelatedField(read_only=True, allow_null=True)

    class Meta:
        model = EquipmentModel
        fields = [
            "id",
            "kind",
            "manufacturer",
            "model_name",
            "certifications",
            "approved",
            "approved_on",
            "approved_by",
        ]
        read_only_fields = ["approved_on"]


class EquipmentModelInputSerializer(serializers.Serializer):
    kind = serializers.CharField(max_length=32)
    manufacturer = serializers.CharField(max_length=100)
    model_name = serializers.CharField(max_length=100)
    certifications = serializers.ListField(child=serializers.CharField(max_length=20), required=False, default=list)
    approved = serializers.BooleanField(required=False, default=False)


class EquipmentModelUpdateSerializer(EquipmentModelInputSerializer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.required = False
            field.default = serializers.empty


class ViolationSerializer(serializers.Serializer):
    field = serializers.CharField()
    article = serializers.CharField()
    message = serializers.CharField()
    limit_mm = FloatField(allow_null=True, help_text="The limit the article sets, in millimetres.")
    measured_mm = FloatField(allow_null=True, help_text="The value measured, in millimetres.")

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if isinstance(instance, Mapping):  # a stored violation: its sentence in the reader's language
            data["message"] = stored(instance.get("said"), str(instance.get("message", "")))
        return data


MEASUREMENTS_HELP = (
    "Lengths in millimetres keyed by name (length_mm, blade_length_mm, blade_min_width_mm, blade_max_width_mm, "
    "heel_width_mm for sticks, 3.2.2 C-D; glove_padding_width_mm, glove_padding_length_mm, leg_pad_width_mm for "
    "goalkeeper equipment, 3.2.5 C-E; soft_covering_mm for elbow pads, 3.2.8 A), and yes/no findings."
)


class EquipmentInspectionSerializer(ModelSerializer):
    inspected_by = serializers.StringRelatedField(read_only=True)
    violations = ViolationSerializer(many=True, read_only=True)
    measurements = serializers.DictField(child=serializers.JSONField(), help_text=MEASUREMENTS_HELP)

    class Meta:
        model = EquipmentInspection
        fields = [
            "id",
            "person",
            "kind",
            "measurements",
            "violations",
            "compliant",
            "notes",
            "inspected_by",
            "inspected_at",
        ]


class EquipmentInspectionInputSerializer(serializers.Serializer):
    """Measurements in millimetres (and yes/no findings); violations are computed, never sent."""

    person = IntegerField()
    kind = serializers.CharField(max_length=32)
    measurements = serializers.DictField(child=serializers.JSONField(), help_text=MEASUREMENTS_HELP)
    notes = serializers.CharField(required=False, allow_blank=True, default="")
    inspected_at = serializers.DateTimeField(required=False)


# --- Protective device requests (3.2.8 C) --------------------------------------------


class ProtectiveDeviceRequestSerializer(ModelSerializer):
    """A request's metadata; the prescription only through ``federation:device-prescription``."""

    submitted_by = serializers.StringRelatedField(read_only=True)
    decided_by = serializers.StringRelatedField(read_only=True, allow_null=True)
    prescription_url = serializers.SerializerMethodField()

    class Meta:
        model = ProtectiveDeviceRequest
        fields = [
            "id",
            "person",
            "description",
            "physician",
            "status",
            "submitted_by",
            "submitted_at",
            "decided_by",
            "decided_at",
            "decision_reason",
            "prescription_content_type",
            "prescription_url",
        ]

    @extend_schema_field({**build_basic_type(OpenApiTypes.URI), "nullable": True})
    def get_prescription_url(self, device_request) -> str | None:
        return guarded_file_url(self, device_request.prescription, "federation:device-prescription", device_request.pk)


class DeviceRequestInputSerializer(serializers.Serializer):
    person = IntegerField()
    description = serializers.CharField(allow_blank=True)
    physician = serializers.CharField(max_length=200, allow_blank=True)
    prescription = serializers.FileField(required=False, allow_empty_file=True)


class DeviceRequestResubmitSerializer(serializers.Serializer):
    description = serializers.CharField(required=False, allow_blank=True)
    physician = serializers.CharField(max_length=200, required=False, allow_blank=True)
    prescription = serializers.FileField(required=False, allow_empty_file=True)


class DeviceRequestDecisionSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="")
