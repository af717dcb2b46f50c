from django.conf import settings
from django.core.files.storage import storages
from django.core.signals import setting_changed
from django.db import models
from django.dispatch import receiver
from django.utils.functional import LazyObject, empty
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from django_countries.fields import CountryField
from simple_history.models import HistoricalRecords

from portal.choices import ChoiceLabels


class FederationLevel(models.TextChoices):
    INTERNATIONAL = "international", _("International")
    CONTINENTAL = "continental", _("Continental")
    NATIONAL = "national", _("National")


class Federation(models.Model):
    """A governing body: FIRS at the top, continental bodies, national federations."""

    name = models.CharField(max_length=200, unique=True)
    short_name = models.CharField(max_length=20, blank=True)
    country = CountryField(blank=True, help_text="ISO 3166; empty for international and continental bodies.")
    level = models.CharField(max_length=16, choices=FederationLevel.choices)
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="children")
    firs_affiliated = models.BooleanField("affiliated to FIRS", default=False, help_text="Rule 1.1 A")
    good_standing = models.BooleanField("in good standing", default=True, help_text="Rule 1.1 A")
    contact_name = models.CharField(max_length=200, blank=True)
    contact_email = models.EmailField(blank=True)
    contact_phone = models.CharField(max_length=40, blank=True)
    website = models.URLField(blank=True)
    address = models.TextField(blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["country"],
                condition=models.Q(level="national"),
                name="one_national_federation_per_country",
            ),
        ]

    def __str__(self):
        return self.name


class Gender(models.TextChoices):
    MALE = "M", _("Male")
    FEMALE = "F", _("Female")


class Person(ChoiceLabels):
    """Anyone the federations register: players, goalkeepers, officials, referees."""

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="people")
    first_name = models.CharField(max_length=100)
    last_name = models.CharField(max_length=100)
    date_of_birth = models.DateField()
    gender = models.CharField(max_length=1, choices=Gender.choices)
    nationality = CountryField()
    is_player = models.BooleanField("player", default=False)
    is_goalkeeper = models.BooleanField("goalkeeper", default=False)
    is_team_official = models.BooleanField("team official", default=False)
    is_referee = models.BooleanField("referee", default=False)
    is_official = models.BooleanField("game official", default=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["last_name", "first_name"]
        verbose_name_plural = "people"
        indexes = [models.Index(fields=["last_name", "first_name"])]

    def __str__(self):
        return f"{self.last_name.upper()} {self.first_name}"


def passport_scan_path(instance, filename):
    # The stored name never reuses the uploaded name: it is not trusted.
    import uuid

    return f"passports/{instance.person_id or 'new'}/{uuid.uuid4().hex}"


class _PrivateStorage(LazyObject):
    """settings.STORAGES["private"], looked up when first used and again after STORAGES changes.

    A FileField keeps the storage object it was given when the model class was
    built; this proxy lets tests (and any settings override) move private files
    elsewhere without touching the real private folder.
    """

    def _setup(self):
        self._wrapped = storages["private"]


_private_storage = _PrivateStorage()


@receiver(setting_changed)
def _private_storage_changed(*, setting, **kwargs):
    if setting == "STORAGES":
        _private_storage._wrapped = empty


def private_storage():
    return _private_storage


class Passport(models.Model):
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="passports")
    issuing_country = CountryField()
    number = models.CharField(max_length=40)
    expiry_date = models.DateField()
    scan = models.FileField(upload_to=passport_scan_path, storage=private_storage, blank=True)
    scan_content_type = models.CharField(max_length=100, blank=True, editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-expiry_date"]
        constraints = [
            models.UniqueConstraint(fields=["issuing_country", "number"], name="unique_passport_number"),
        ]

    def __str__(self):
        return f"{self.issuing_country.code} {self.number}"


# The eligibility reasons an IHTC waiver can lift: the 1.1 B conditions that
# "normally" apply. Ages (1.1 C-G) and gender are never waived.
# Same codes as federation.eligibility.WAIVABLE_CODES; a test keeps them in step.
class WaivableCode(models.TextChoices):
    WRONG_NATIONALITY = "wrong_nationality", _("Nationality differs from the team's (1.1 B)")
    NO_PASSPORT = "no_passport", _("No passport of the team's country (1.1 B, R-03)")
    PASSPORT_EXPIRED = "passport_expired", _("Passport expired by the championship's last day (1.1 B, R-03)")


# Same values as federation.eligibility.Category.
class CategoryChoice(models.TextChoices):
    JUNIOR_MEN = "junior_men", _("Junior Men")
    JUNIOR_WOMEN = "junior_women", _("Junior Women")
    SENIOR_MEN = "senior_men", _("Senior Men")
    SENIOR_WOMEN = "senior_women", _("Senior Women")
    MASTERS_MEN = "masters_men", _("Masters Men")
    MASTERS_WOMEN = "masters_women", _("Masters Women")


class EligibilityWaiver(models.Model):
    """An IHTC exception to one eligibility requirement (1.1 B "normally", R-03).

    It applies to one category or all (empty), in one championship year or
    every year (empty).
    """

    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="eligibility_waivers")
    code = models.CharField("requirement waived", max_length=32, choices=WaivableCode.choices)
    category = models.CharField(
        max_length=32, choices=CategoryChoice.choices, blank=True, help_text="Empty: every category."
    )
    year = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Championship year; empty: every year.")
    reason = models.TextField(help_text="R-03: why the IHTC grants the exception.")
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="eligibility_waivers_approved"
    )
    approved_at = models.DateTimeField()
    history = HistoricalRecords()

    class Meta:
        ordering = ["-approved_at"]
        indexes = [models.Index(fields=["person", "code"])]
        constraints = [
            models.CheckConstraint(condition=~models.Q(reason=""), name="waiver_reason_required"),
        ]

    def __str__(self):
        scope = " ".join(filter(None, [self.get_category_display(), str(self.year or "")])) or "all championships"
        return f"{self.person}: {self.get_code_display()} waived ({scope})"

    def applies_to(self, *, category: str | None = None, year: int | None = None) -> bool:
        """Return True if this waiver covers a championship of ``category`` in ``year`` (None: any)."""
        category_ok = category is None or not self.category or self.category == category
        return category_ok and (year is None or self.year is None or self.year == year)


class WaiverRequestStatus(models.TextChoices):
    REQUESTED = "requested", _("Requested")
    GRANTED = "granted", _("Granted")
    REFUSED = "refused", _("Refused")


# A waiver request is decided once: granted or refused; a refused one is asked again by a new request.
# Checked in one place: services.waiver_request_decide.
WAIVER_REQUEST_TRANSITIONS: dict[str, frozenset[str]] = {
    WaiverRequestStatus.REQUESTED: frozenset({WaiverRequestStatus.GRANTED, WaiverRequestStatus.REFUSED}),
    WaiverRequestStatus.GRANTED: frozenset(),
    WaiverRequestStatus.REFUSED: frozenset(),
}


class WaiverRequest(ChoiceLabels):
    """A federation's request that the IHTC waive one 1.1 B condition for a person (R-03).

    The IHTC grants it (which records the EligibilityWaiver eligibility reads)
    or refuses it, with a reason either way. Decided once: services.waiver_request_decide.
    """

    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="waiver_requests")
    code = models.CharField(_("requirement to waive"), max_length=32, choices=WaivableCode.choices)
    category = models.CharField(
        _("category"),
        max_length=32,
        choices=CategoryChoice.choices,
        blank=True,
        help_text=_("Empty: every category."),
    )
    year = models.PositiveSmallIntegerField(
        _("year"), null=True, blank=True, help_text=_("Championship year; empty: every year.")
    )
    justification = models.TextField(
        _("justification"), help_text=_("R-03: why the federation asks for the exception.")
    )
    status = models.CharField(
        max_length=16, choices=WaiverRequestStatus.choices, default=WaiverRequestStatus.REQUESTED, editable=False
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="waiver_requests_made"
    )
    requested_at = models.DateTimeField()
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="waiver_requests_decided",
        editable=False,
    )
    decided_at = models.DateTimeField(null=True, blank=True, editable=False)
    decision_reason = models.TextField(blank=True, editable=False)
    waiver = models.OneToOneField(
        EligibilityWaiver,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="request",
        editable=False,
        help_text="The waiver a grant recorded.",
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["requested_at", "pk"]
        indexes = [models.Index(fields=["status", "requested_at"])]
        constraints = [
            models.CheckConstraint(condition=~models.Q(justification=""), name="waiver_request_justified"),
            models.CheckConstraint(
                condition=models.Q(status="requested") | ~models.Q(decision_reason=""),
                name="waiver_request_decision_has_reason",
            ),
        ]

    def __str__(self):
        return f"{self.person}: {self.get_code_display()} ({self.get_status_display()})"


class EquipmentKind(models.TextChoices):
    HELMET = "helmet", _("Helmet")
    FACE_PROTECTION = "face_protection", _("Face protection")
    GOALKEEPER_MASK = "goalkeeper_mask", _("Goalkeeper mask")


class EquipmentModel(ChoiceLabels):
    """A helmet, face protection or goalkeeper mask model and its approval (3.2.6 A)."""

    kind = models.CharField(max_length=32, choices=EquipmentKind.choices)
    manufacturer = models.CharField(max_length=100)
    model_name = models.CharField(max_length=100)
    certifications = models.JSONField(
        default=list, blank=True, help_text="3.2.6 A: certification bodies, any of HECC, CSA, CE."
    )
    approved = models.BooleanField(default=False)
    approved_on = models.DateField(null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="equipment_models_approved",
    )
    # A refusal (3.2.6 A) takes the model out of the approvals queue until it is changed.
    rejected_on = models.DateField(null=True, blank=True, editable=False)
    rejected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="equipment_models_rejected",
        editable=False,
    )
    rejection_reason = models.TextField(blank=True, editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["kind", "manufacturer", "model_name"]
        indexes = [models.Index(fields=["approved", "kind"])]
        constraints = [
            models.UniqueConstraint(fields=["kind", "manufacturer", "model_name"], name="unique_equipment_model"),
            models.CheckConstraint(
                condition=models.Q(approved=False) | models.Q(approved_on__isnull=False),
                name="approved_equipment_has_date",
            ),
        ]

    def __str__(self):
        return f"{self.manufacturer} {self.model_name} ({self.get_kind_display()})"


class InspectionKind(models.TextChoices):
    PLAYER_STICK = "player_stick", _("Player stick (3.2.2 C)")
    GOALKEEPER_STICK = "goalkeeper_stick", _("Goalkeeper stick (3.2.2 D)")
    GOALKEEPER_EQUIPMENT = "goalkeeper_equipment", _("Goalkeeper equipment (3.2.5 C, E)")


class EquipmentInspection(models.Model):
    """Measurements of a stick or goalkeeper equipment and the limits they break.

    ``violations`` is computed by federation.equipment from ``measurements``
    (see services.equipment_inspection_record); it is never typed in.
    """

    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="equipment_inspections")
    kind = models.CharField(max_length=32, choices=InspectionKind.choices)
    measurements = models.JSONField(default=dict, help_text="Measured values in millimetres.")
    violations = models.JSONField(default=list, editable=False)
    compliant = models.BooleanField(default=True, editable=False)
    notes = models.TextField(blank=True)
    inspected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="equipment_inspections"
    )
    inspected_at = models.DateTimeField()
    history = HistoricalRecords()

    class Meta:
        ordering = ["-inspected_at"]
        indexes = [models.Index(fields=["person", "-inspected_at"])]

    def __str__(self):
        verdict = "compliant" if self.compliant else f"{len(self.violations)} violation(s)"
        when = f" on {self.inspected_at:%Y-%m-%d}" if self.inspected_at else ""
        return f"{self.person}: {self.get_kind_display()}{when}, {verdict}"


def prescription_path(instance, filename):
    # As for passport scans: the stored name never reuses the uploaded one.
    import uuid

    return f"prescriptions/{instance.person_id or 'new'}/{uuid.uuid4().hex}"


class DeviceRequestStatus(models.TextChoices):
    SUBMITTED = "submitted", pgettext_lazy("device request", "Submitted")
    APPROVED = "approved", pgettext_lazy("device request", "Approved")
    REJECTED = "rejected", pgettext_lazy("device request", "Rejected")


# The allowed moves of a protective device request (3.2.8 C): the IHTC decides
# a submitted request; a rejected one may be resubmitted; approval is final.
# Checked in one place: services.check_device_transition.
DEVICE_REQUEST_TRANSITIONS: dict[str, frozenset[str]] = {
    DeviceRequestStatus.SUBMITTED: frozenset({DeviceRequestStatus.APPROVED, DeviceRequestStatus.REJECTED}),
    DeviceRequestStatus.REJECTED: frozenset({DeviceRequestStatus.SUBMITTED}),
    DeviceRequestStatus.APPROVED: frozenset(),
}


class ProtectiveDeviceRequest(ChoiceLabels):
    """A request to wear a physician-prescribed protective device (3.2.8 C)."""

    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="device_requests")
    description = models.TextField(help_text="The device and why it is worn.")
    physician = models.CharField(max_length=200, help_text="The prescribing physician.")
    prescription = models.FileField(upload_to=prescription_path, storage=private_storage)
    prescription_content_type = models.CharField(max_length=100, blank=True, editable=False)
    status = models.CharField(
        max_length=16, choices=DeviceRequestStatus.choices, default=DeviceRequestStatus.SUBMITTED, editable=False
    )
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="device_requests_submitted"
    )
    submitted_at = models.DateTimeField()
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="device_requests_decided",
        editable=False,
    )
    decided_at = models.DateTimeField(null=True, blank=True, editable=False)
    decision_reason = models.TextField(blank=True, editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-submitted_at"]
        indexes = [models.Index(fields=["status", "-submitted_at"])]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(status="rejected") | ~models.Q(decision_reason=""),
                name="device_request_rejection_has_reason",
            ),
        ]

    def __str__(self):
        return f"{self.person}: {self.description[:40]} ({self.get_status_display()})"
