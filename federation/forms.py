"""Admin forms of the federation register.

Each ``clean`` calls the same ``check_*`` function the service calls, so a
staff member sees the message the API would give; the admin then saves
through the service.
"""

from __future__ import annotations

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.urls import reverse

from portal.forms import apply_errors

from . import equipment, services
from .files import check_scan_upload
from .models import (
    EligibilityWaiver,
    EquipmentInspection,
    EquipmentModel,
    Federation,
    Passport,
    Person,
    ProtectiveDeviceRequest,
)


def _check(form: forms.Form, check, /, **arguments):
    """Run a ``services.check_*`` function on the form's data, its errors going onto the form's fields.

    Return what the check returns, or None when it refused.
    """
    try:
        return check(**arguments)
    except forms.ValidationError as error:
        apply_errors(form, error)
        return None


class FederationForm(forms.ModelForm):
    """The registry entry of a federation: 1.1 A (one national federation per country) as the API checks it."""

    website = forms.URLField(max_length=200, required=False, assume_scheme="https")

    class Meta:
        model = Federation
        fields = list(services.FEDERATION_FIELDS)

    def clean(self):
        data = super().clean()
        if data.get("level"):
            _check(
                self,
                services.check_federation,
                level=data["level"],
                country=data.get("country") or "",
                parent=data.get("parent"),
                federation_pk=self.instance.pk,
            )
        return data


class PersonForm(forms.ModelForm):
    """A person's record: the date of birth checked for plausibility as the API checks it."""

    class Meta:
        model = Person
        fields = list(services.PERSON_FIELDS)

    def clean(self):
        data = super().clean()
        if data.get("date_of_birth"):
            _check(self, services.check_date_of_birth, date_of_birth=data["date_of_birth"])
        return data


class _StoredScan:
    """What the file input shows for a stored scan: the guarded download, never a storage path."""

    def __init__(self, url: str):
        self.url = url

    def __str__(self):
        return "stored scan"


class PrivateScanInput(forms.ClearableFileInput):
    """A file input whose "currently" link goes through the permission-checked view."""

    def format_value(self, value):
        instance = getattr(value, "instance", None)
        if value and instance is not None and instance.pk:
            return _StoredScan(reverse("federation:passport-scan", args=[instance.pk]))
        return super().format_value(value)

    def is_initial(self, value):
        return isinstance(value, _StoredScan) or super().is_initial(value)


class PassportForm(forms.ModelForm):
    """Passport form (the inline of a person): the scan is checked by content like the API's."""

    class Meta:
        model = Passport
        fields = ["issuing_country", "number", "expiry_date", "scan"]
        widgets = {"scan": PrivateScanInput}

    def clean_number(self):
        return services.normalize_passport_number(self.cleaned_data["number"])

    def clean(self):
        data = super().clean()
        if data.get("expiry_date"):
            _check(self, services.check_passport_expiry, expiry_date=data["expiry_date"])
        return data

    def clean_scan(self):
        scan = self.cleaned_data.get("scan")
        # Only a new upload is checked; an already stored scan was checked when it came in.
        if isinstance(scan, UploadedFile):
            try:
                self.instance.scan_content_type = check_scan_upload(scan)
            except forms.ValidationError as error:
                raise forms.ValidationError(error.error_dict["scan"]) from None
        elif not scan:
            self.instance.scan_content_type = ""
        return scan


class EligibilityWaiverForm(forms.ModelForm):
    class Meta:
        model = EligibilityWaiver
        fields = ["person", "code", "category", "year", "reason"]

    def clean(self):
        data = super().clean()
        _check(
            self,
            services.check_waiver,
            code=data.get("code", ""),
            reason=data.get("reason", ""),
            category=data.get("category", ""),
            year=data.get("year"),
        )
        return data


class EquipmentModelForm(forms.ModelForm):
    certifications = forms.MultipleChoiceField(
        choices=[(name, name) for name in equipment.CERTIFICATION_BODIES],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text="Rule 3.2.6 A: an approved model carries at least one of HECC, CSA, CE.",
    )

    class Meta:
        model = EquipmentModel
        fields = ["kind", "manufacturer", "model_name", "certifications", "approved"]

    def clean(self):
        data = super().clean()
        if "kind" in data:
            names = _check(
                self,
                services.check_equipment_approval,
                kind=data["kind"],
                certifications=data.get("certifications", []),
                approved=data.get("approved"),
            )
            if names is not None:
                data["certifications"] = names
        return data


class EquipmentInspectionForm(forms.ModelForm):
    class Meta:
        model = EquipmentInspection
        fields = ["person", "kind", "measurements", "notes"]
        help_texts = {
            "measurements": 'Millimetres, e.g. {"length_mm": 1550, "blade_length_mm": 318}. Player and goalkeeper '
            "sticks: length_mm, blade_length_mm, blade_min_width_mm, blade_max_width_mm, heel_width_mm. Goalkeeper "
            "equipment: glove_padding_width_mm, glove_padding_length_mm, leg_pad_width_mm, and true/false for "
            "leg_pads_altered, abdominal_apron_down_thighs.",
        }

    def clean(self):
        data = super().clean()
        if "kind" in data and "measurements" in data:
            checked = _check(
                self, services.check_inspection_measurements, kind=data["kind"], measurements=data["measurements"]
            )
            if checked is not None:
                data["measurements"], _ = checked
        return data


class DeviceRequestForm(forms.ModelForm):
    class Meta:
        model = ProtectiveDeviceRequest
        fields = ["person", "description", "physician", "prescription"]

    def clean(self):
        data = super().clean()
        _check(
            self,
            services.check_device_request,
            description=data.get("description", ""),
            physician=data.get("physician", ""),
        )
        prescription = data.get("prescription")
        if isinstance(prescription, UploadedFile):
            _check(self, check_scan_upload, uploaded_file=prescription, field="prescription")
        return data


class RejectionForm(forms.Form):
    """The reason asked for by the admin's reject action (3.2.8 C: a rejection states its reason)."""

    decision_reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), label="Reason for the rejection")
