"""Admin forms of the federation register.

Each ``clean`` calls the same ``check_*`` function the service calls, so a
staff member sees the message the API would give; the admin then saves
through the service.
"""

from __future__ import annotations

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from portal.forms import IntegerField, apply_errors

from . import equipment, services
from .files import check_scan_upload
from .models import (
    CategoryChoice,
    EligibilityWaiver,
    EquipmentInspection,
    EquipmentModel,
    Federation,
    Passport,
    Person,
    ProtectiveDeviceRequest,
    WaiverRequest,
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

    website = forms.URLField(label=_("Website"), max_length=200, required=False, assume_scheme="https")

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
        label=_("Certifications"),
        choices=[(name, name) for name in equipment.CERTIFICATION_BODIES],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text=_("Rule 3.2.6 A: an approved model carries at least one of HECC, CSA, CE."),
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

    decision_reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), label=_("Reason for the rejection"))


# --- The site's pages (federation staff and the IHTC, outside the admin) -------------------------------------


class _DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, attrs=None):
        super().__init__(attrs, format="%Y-%m-%d")


def _checked_scan(scan):
    """A new upload checked by its content (``check_scan_upload``), its error on the scan field."""
    if isinstance(scan, UploadedFile):
        try:
            check_scan_upload(scan)
        except forms.ValidationError as error:
            raise forms.ValidationError(error.error_dict["scan"]) from None
    return scan


class _PassportFields:
    """The passport number and scan cleaned one way wherever a form takes a passport (1.1 B)."""

    def clean_number(self):
        return services.normalize_passport_number(self.cleaned_data.get("number"))

    def clean_scan(self):
        return _checked_scan(self.cleaned_data.get("scan"))


class PersonRegistrationForm(_PassportFields, forms.ModelForm):
    """Register a person and one passport (1.1 B) on the site.

    ``federations`` are those the user registers people in: a national staff
    member's own federation is preset and cannot be changed.
    """

    issuing_country = Passport._meta.get_field("issuing_country").formfield(
        required=False, label=_("Passport issued by"), help_text=_("Type the first letters of the country to find it.")
    )
    number = forms.CharField(label=_("Passport number"), max_length=40, required=False)
    expiry_date = forms.DateField(label=_("Passport expiry date"), required=False, widget=_DateInput)
    scan = forms.FileField(
        label=_("Passport scan"), required=False, help_text=_("JPEG, PNG or PDF, at most 5 MB (Rule 1.1 B).")
    )

    class Meta:
        model = Person
        fields = list(services.PERSON_FIELDS)
        labels = {
            "federation": _("Federation"),
            "first_name": _("First name"),
            "last_name": _("Last name"),
            "date_of_birth": _("Date of birth"),
            "gender": _("Gender"),
            "nationality": _("Nationality"),
            "is_player": _("Player"),
            "is_goalkeeper": _("Goalkeeper"),
            "is_team_official": _("Team official"),
            "is_referee": _("Referee"),
            "is_official": _("Game official"),
        }
        widgets = {"date_of_birth": _DateInput}

    def __init__(self, *args, federations, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["federation"]
        field.queryset = federations
        field.empty_label = None if len(federations) == 1 else field.empty_label
        if len(federations) == 1:
            # A national staff member registers in their own federation: preset, not changeable (a posted
            # value is ignored for the initial one).
            field.initial = federations[0].pk
            field.disabled = True

    def clean(self):
        data = super().clean()
        if data.get("date_of_birth"):
            _check(self, services.check_date_of_birth, date_of_birth=data["date_of_birth"])
        if self.passport():
            for name in ("issuing_country", "number", "expiry_date"):
                if not data.get(name) and name not in self.errors:
                    self.add_error(
                        name, _("Rule 1.1 B: a passport is recorded with its issuing country, number and expiry date.")
                    )
            if data.get("expiry_date"):
                _check(self, services.check_passport_expiry, expiry_date=data["expiry_date"])
        return data

    def passport(self) -> dict:
        """The passport's fields, or {} when none was given."""
        data = getattr(self, "cleaned_data", {})
        passport = {name: data.get(name) for name in services.PASSPORT_FIELDS}
        if not any(passport.values()) and not any(self.data.get(name) for name in services.PASSPORT_FIELDS):
            return {}
        return passport

    def person_fields(self) -> dict:
        return {name: self.cleaned_data[name] for name in services.PERSON_FIELDS}


class WaiverRequestForm(forms.ModelForm):
    """Ask the IHTC to waive one 1.1 B condition for ``person`` (R-03)."""

    class Meta:
        model = WaiverRequest
        fields = ["code", "category", "year", "justification"]
        labels = {
            "code": _("Requirement to waive"),
            "category": _("Category"),
            "year": _("Championship year of the waiver"),
            "justification": _("Justification"),
        }
        help_texts = {
            "category": _("Empty: every category."),
            "year": _("Empty: every year."),
            "justification": _("R-03: why the federation asks the IHTC for this exception."),
        }
        widgets = {"justification": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args, person: Person, **kwargs):
        super().__init__(*args, **kwargs)
        self.person = person
        self.fields["category"].choices = [("", _("Every category")), *CategoryChoice.choices]
        self.fields["year"].widget.attrs.update(min=1900, max=2200)

    def clean(self):
        data = super().clean()
        if "code" in data:
            _check(
                self,
                services.check_waiver_request,
                person=self.person,
                code=data["code"],
                justification=data.get("justification", ""),
                category=data.get("category", ""),
                year=data.get("year"),
            )
        return data


class WaiverDecisionForm(forms.Form):
    """The IHTC's decision on a waiting waiver request: grant or refuse, with a reason either way (R-03).

    The reason is checked by the service (``services.waiver_request_decide``), whose error names this field.
    """

    DECISIONS = (("grant", _("Grant")), ("refuse", _("Refuse")))

    decision = forms.ChoiceField(label=_("Decision"), choices=DECISIONS)
    decision_reason = forms.CharField(
        label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}), required=False, max_length=2000
    )


class PersonEditForm(forms.ModelForm):
    """Change a person's record on the site: the fields staff keep; the federation only for those who register in
    more than one. ``version`` is the record's version when the form was read (``services.person_version``)."""

    version = IntegerField(widget=forms.HiddenInput, min_value=0)

    class Meta:
        model = Person
        fields = list(services.PERSON_FIELDS)
        labels = PersonRegistrationForm.Meta.labels
        widgets = {"date_of_birth": _DateInput}

    def __init__(self, *args, federations, **kwargs):
        super().__init__(*args, **kwargs)
        if len(federations) > 1:
            self.fields["federation"].queryset = federations
            self.fields["federation"].empty_label = None
        else:
            del self.fields["federation"]

    def clean(self):
        data = super().clean()
        if data.get("date_of_birth"):
            _check(self, services.check_date_of_birth, date_of_birth=data["date_of_birth"])
        return data

    def changes(self) -> dict:
        return {name: self.cleaned_data[name] for name in services.PERSON_FIELDS if name in self.fields}


class PassportEntryForm(_PassportFields, forms.Form):
    """A passport with its scan, added to a person or renewing one of their passports (1.1 B)."""

    issuing_country = Passport._meta.get_field("issuing_country").formfield(
        label=_("Issued by"), help_text=_("Type the first letters of the country to find it.")
    )
    number = forms.CharField(label=_("Passport number"), max_length=40)
    expiry_date = forms.DateField(label=_("Expiry date"), widget=_DateInput)
    scan = forms.FileField(label=_("Passport scan"), help_text=_("JPEG, PNG or PDF, at most 5 MB (Rule 1.1 B)."))

    def clean(self):
        data = super().clean()
        if data.get("expiry_date"):
            _check(self, services.check_passport_expiry, expiry_date=data["expiry_date"])
        return data
