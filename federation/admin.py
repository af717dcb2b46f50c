"""Admin of the federation register.

What a staff member may see and change comes from their roles through the
access layer (federation.access), not from Django's model permissions: national
staff work on their own federation's people, international staff on all.
Every page, history and revert included, asks the ``federation.*`` rules of
``federation/rules.py`` with the object (``portal.admin.AccessAdmin``); the
admins below only narrow them. Every list keeps its history (django-simple-history).
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy, ngettext

from accounts.roles import is_federation_staff, is_international_staff, staff_federation_ids
from federation.access import (
    can_approve_equipment,
    can_decide_device_request,
    device_requests_visible_to,
    inspections_visible_to,
    passports_visible_to,
    people_editable_q,
    waivers_visible_to,
)
from portal.admin import AccessAdmin
from portal.i18n import stored

from . import services
from .forms import (
    DeviceRequestForm,
    EligibilityWaiverForm,
    EquipmentInspectionForm,
    EquipmentModelForm,
    FederationForm,
    PassportForm,
    PersonForm,
    RejectionForm,
)
from .models import (
    EligibilityWaiver,
    EquipmentInspection,
    EquipmentModel,
    Federation,
    Passport,
    Person,
    ProtectiveDeviceRequest,
)
from .selectors import PERSON_ROLE_FIELDS, person_eligibility_by_category


def _adopt(obj, saved) -> None:
    """Give the admin's unsaved object the values the service stored (for its log entry and redirect)."""
    for field in saved._meta.concrete_fields:
        setattr(obj, field.attname, getattr(saved, field.attname))
    obj._state.adding = False


def _form_values(form, names) -> dict:
    """The cleaned values of the form's fields that a service takes (``names``)."""
    return {name: value for name, value in form.cleaned_data.items() if name in names}


def _save_passport_form(passport_form, *, person, by) -> Passport:
    """Save a passport form (the inline or the passport page) through the services."""
    data = passport_form.cleaned_data
    fields = {"issuing_country": data["issuing_country"], "number": data["number"], "expiry_date": data["expiry_date"]}
    scan = data.get("scan")
    new_scan = scan if isinstance(scan, UploadedFile) else None
    if passport_form.instance.pk:
        # The clear checkbox of a file field cleans to False.
        return services.passport_update(
            passport=passport_form.instance, by=by, **fields, scan=new_scan, clear_scan=scan is False
        )
    return services.passport_add(person=person, by=by, **fields, scan=new_scan)


def _is_portal_staff(user) -> bool:
    """Staff of some federation (or international staff) with access to the admin site."""
    return bool(user.is_active and user.is_staff and is_federation_staff(user))


class RoleScopedAdmin(AccessAdmin):
    """For federation staff with the admin flag: the rules permission, asked with the object; deletions
    are international staff's (the subclasses narrow further, never widen)."""

    def has_module_permission(self, request):
        return _is_portal_staff(request.user) and super().has_module_permission(request)

    def has_view_permission(self, request, obj=None):
        return _is_portal_staff(request.user) and super().has_view_permission(request, obj)

    def has_add_permission(self, request):
        return _is_portal_staff(request.user) and super().has_add_permission(request)

    def has_change_permission(self, request, obj=None):
        return _is_portal_staff(request.user) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return is_international_staff(request.user) and super().has_delete_permission(request, obj)


class PersonScopedAdmin(RoleScopedAdmin):
    """For records that belong to a person: national staff see and change their federation's only."""

    # The access layer's selector of the records a user may see (user -> QuerySet); set by each subclass.
    visible_to: Callable

    def get_queryset(self, request):
        return super().get_queryset(request) & self.visible_to(request.user)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "person":
            kwargs["queryset"] = Person.objects.filter(people_editable_q(request.user)).select_related("federation")
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


# --- Federations -----------------------------------------------------------------


@admin.register(Federation)
class FederationAdmin(RoleScopedAdmin):
    form = FederationForm
    list_display = ["name", "short_name", "country", "level", "parent", "firs_affiliated", "good_standing"]
    list_filter = ["level", "firs_affiliated", "good_standing"]
    search_fields = ["name", "short_name"]
    list_select_related = ["parent"]
    autocomplete_fields = ["parent"]

    # The registry itself (affiliation, good standing: 1.1 A) is kept by IHTC executives (federation/rules.py).

    def save_model(self, request, obj, form, change):
        # Through the service, as from the API (1.1 A, the lock, the audit trail).
        fields = _form_values(form, services.FEDERATION_FIELDS)
        if change:
            saved = services.federation_update(federation=obj, by=request.user, **fields)
        else:
            saved = services.federation_create(by=request.user, **fields)
        _adopt(obj, saved)


# --- People and passports --------------------------------------------------------


class PassportInline(admin.TabularInline):
    model = Passport
    form = PassportForm
    extra = 0
    # The scan widget links a stored scan through the guarded view (forms.PrivateScanInput).
    fields = ["issuing_country", "number", "expiry_date", "scan"]
    # federation/admin.css: narrower widgets, and the table scrolls within its module.
    classes = ["passports-inline"]


class EligibilityWaiverInline(admin.TabularInline):
    """Waivers are granted on their own page (only the IHTC, R-03); here they are listed."""

    model = EligibilityWaiver
    extra = 0
    fields = ["code", "category", "year", "reason", "approved_by", "approved_at"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_view_permission(self, request, obj=None):
        return _is_portal_staff(request.user)


@admin.register(Person)
class PersonAdmin(PersonScopedAdmin):
    form = PersonForm
    list_display = ["__str__", "federation", "date_of_birth", "gender", "nationality", "roles"]
    list_filter = ["federation", "gender", "nationality", *PERSON_ROLE_FIELDS.values()]
    search_fields = ["first_name", "last_name", "passports__number"]
    list_select_related = ["federation"]
    inlines = [PassportInline, EligibilityWaiverInline]
    readonly_fields = ["eligibility"]

    class Media:
        # Layout of the eligibility table and the passports inline (no inline styles).
        css = {"all": ["federation/admin.css"]}

    fieldsets = [
        (None, {"fields": ["federation", "first_name", "last_name", "date_of_birth", "gender", "nationality"]}),
        ("Roles", {"fields": list(PERSON_ROLE_FIELDS.values())}),
        ("Eligibility", {"fields": ["eligibility"], "description": "1.1 B-G, R-01, R-02, R-03."}),
    ]

    @staticmethod
    def visible_to(user):
        # The admin is for keeping records: national staff get their federation's people only.
        return Person.objects.filter(people_editable_q(user))

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "federation" and not is_international_staff(request.user):
            kwargs["queryset"] = Federation.objects.filter(pk__in=staff_federation_ids(request.user))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        # Through the service, as from the API (the lock, the audit trail, the federation check).
        fields = _form_values(form, services.PERSON_FIELDS)
        if change:
            saved = services.person_update(person=obj, by=request.user, **fields)
        else:
            saved = services.person_create(by=request.user, **fields)
        _adopt(obj, saved)

    def save_formset(self, request, form, formset, change):
        if formset.model is not Passport:
            return super().save_formset(request, form, formset, change)
        # Passports go through the services, as from the API; the lists below feed the admin's change log.
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
        for passport_form in formset.forms:
            if passport_form in formset.deleted_forms:
                if passport_form.instance.pk:
                    services.passport_remove(passport=passport_form.instance, by=request.user)
                    formset.deleted_objects.append(passport_form.instance)
            elif passport_form.has_changed():
                existed = bool(passport_form.instance.pk)
                saved = _save_passport_form(passport_form, person=form.instance, by=request.user)
                if existed:
                    formset.changed_objects.append((saved, passport_form.changed_data))
                else:
                    formset.new_objects.append(saved)
        return None

    @admin.display(description=gettext_lazy("Roles"))
    def roles(self, obj):
        # The roles' labels are the fields' verbose names ("player", ..., "game official").
        held = [name for name in PERSON_ROLE_FIELDS.values() if getattr(obj, name)]
        return ", ".join(str(Person._meta.get_field(name).verbose_name) for name in held) or "—"

    @admin.display(description=gettext_lazy("Eligibility this year (championship 1-10 July)"))
    def eligibility(self, obj):
        if not obj or not obj.pk:
            return "Saved people show their eligibility per category here."
        results = person_eligibility_by_category(obj)
        rows = []
        for category, result in results.items():
            reasons = format_html_join(
                "", "<li><strong>{}</strong> {}</li>", ((r.article, r.message) for r in result.reasons)
            )
            waived = format_html_join(
                "",
                "<li>Waived by {}: {} ({})</li>",
                ((w.approved_by, r.message, w.reason) for r, w in result.waived),
            )
            verdict = (
                mark_safe('<span class="verdict-eligible">eligible</span>')
                if result.eligible
                else mark_safe('<span class="verdict-not-eligible">not eligible</span>')
            )
            rows.append(
                (category.label, verdict, format_html('<ul class="eligibility-reasons">{}{}</ul>', reasons, waived))
            )
        body = format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td></tr>", rows)
        return format_html(
            '<table class="eligibility-table"><thead>'
            "<tr><th>Category</th><th>Verdict</th><th>Reasons (article)</th></tr></thead>"
            "<tbody>{}</tbody></table>",
            body,
        )


@admin.register(Passport)
class PassportAdmin(PersonScopedAdmin):
    form = PassportForm
    list_display = ["__str__", "person", "expiry_date", "has_scan"]
    list_filter = ["issuing_country"]
    search_fields = ["number", "person__first_name", "person__last_name"]
    list_select_related = ["person"]
    date_hierarchy = "expiry_date"

    visible_to = staticmethod(passports_visible_to)

    def get_fields(self, request, obj=None):
        return ["person", *PassportForm.Meta.fields]

    @admin.display(boolean=True, description=gettext_lazy("Scan"))
    def has_scan(self, obj):
        return bool(obj.scan)

    def save_model(self, request, obj, form, change):
        person = obj.person if change else form.cleaned_data["person"]
        _adopt(obj, _save_passport_form(form, person=person, by=request.user))

    def get_readonly_fields(self, request, obj=None):
        return ["person"] if obj else []

    def delete_model(self, request, obj):
        services.passport_remove(passport=obj, by=request.user)

    def delete_queryset(self, request, queryset):
        for passport in queryset:
            services.passport_remove(passport=passport, by=request.user)


# --- Waivers -----------------------------------------------------------------------


@admin.register(EligibilityWaiver)
class EligibilityWaiverAdmin(PersonScopedAdmin):
    form = EligibilityWaiverForm
    list_display = ["person", "code", "category", "year", "approved_by", "approved_at"]
    list_filter = ["code", "category", "year"]
    search_fields = ["person__first_name", "person__last_name", "reason"]
    list_select_related = ["person", "approved_by"]

    visible_to = staticmethod(waivers_visible_to)

    def get_readonly_fields(self, request, obj=None):
        return ["person", "code", "category", "year", "reason", "approved_by", "approved_at"] if obj else []

    # the IHTC grants waivers (federation/rules.py); a granted waiver is a record, not edited
    # (delete and grant anew).
    def has_change_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        saved = services.waiver_grant(
            person=data["person"],
            code=data["code"],
            reason=data["reason"],
            category=data.get("category") or "",
            year=data.get("year"),
            approved_by=request.user,
        )
        _adopt(obj, saved)


# --- Equipment -----------------------------------------------------------------------


@admin.register(EquipmentModel)
class EquipmentModelAdmin(RoleScopedAdmin):
    form = EquipmentModelForm
    list_display = ["manufacturer", "model_name", "kind", "certification_list", "approved", "approved_on"]
    list_filter = ["kind", "approved"]
    search_fields = ["manufacturer", "model_name"]
    readonly_fields = ["approved_on", "approved_by"]

    # 3.2.6 A: the approval registry is kept by the IHTC.
    def has_add_permission(self, request):
        return super().has_add_permission(request) and can_approve_equipment(request.user)

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and can_approve_equipment(request.user)

    @admin.display(description=gettext_lazy("Certifications"))
    def certification_list(self, obj):
        return ", ".join(obj.certifications) or "—"

    def save_model(self, request, obj, form, change):
        data = {name: form.cleaned_data[name] for name in EquipmentModelForm.Meta.fields}
        if change:
            saved = services.equipment_model_update(equipment_model=obj, by=request.user, **data)
        else:
            saved = services.equipment_model_create(by=request.user, **data)
        _adopt(obj, saved)


@admin.register(EquipmentInspection)
class EquipmentInspectionAdmin(PersonScopedAdmin):
    form = EquipmentInspectionForm
    list_display = ["person", "kind", "compliant", "inspected_by", "inspected_at"]
    list_filter = ["kind", "compliant"]
    search_fields = ["person__first_name", "person__last_name"]
    list_select_related = ["person", "inspected_by"]
    date_hierarchy = "inspected_at"

    @staticmethod
    def visible_to(user):
        # Officials see every person's inspections elsewhere; the admin keeps the records of one's own people.
        return inspections_visible_to(user).filter(person__in=Person.objects.filter(people_editable_q(user)))

    def get_readonly_fields(self, request, obj=None):
        if obj:
            return ["person", "kind", "measurements", "notes", "violation_list", "inspected_by", "inspected_at"]
        return ["violation_list"]

    def get_fields(self, request, obj=None):
        fields = ["person", "kind", "measurements", "notes", "violation_list"]
        return [*fields, "inspected_by", "inspected_at"] if obj else fields

    # An inspection is a record of what was measured: a new one corrects it.
    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request)

    @admin.display(description=gettext_lazy("Violations (computed from the measurements)"))
    def violation_list(self, obj):
        if not obj or not obj.pk:
            return gettext("Computed when saved (3.2.2 C-D, 3.2.5 C-E).")
        if not obj.violations:
            return gettext("No violation.")
        said = ((stored(v.get("said"), v["message"]),) for v in obj.violations)  # in the reader's language
        return format_html("<ul>{}</ul>", format_html_join("", "<li>{}</li>", said))

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        saved = services.equipment_inspection_record(
            person=data["person"],
            kind=data["kind"],
            measurements=data["measurements"],
            notes=data.get("notes", ""),
            inspected_by=request.user,
        )
        _adopt(obj, saved)


# --- Protective device requests (3.2.8 C) --------------------------------------------


@admin.register(ProtectiveDeviceRequest)
class ProtectiveDeviceRequestAdmin(PersonScopedAdmin):
    form = DeviceRequestForm
    list_display = ["person", "description", "status", "submitted_at", "decided_by", "decided_at"]
    list_filter = ["status"]
    search_fields = ["person__first_name", "person__last_name", "description", "physician"]
    list_select_related = ["person", "decided_by"]
    actions = ["approve", "reject", "resubmit"]
    decision_fields = ["status", "submitted_by", "submitted_at", "decided_by", "decided_at", "decision_reason"]

    visible_to = staticmethod(device_requests_visible_to)

    def get_fields(self, request, obj=None):
        if obj:
            return ["person", "description", "physician", "prescription_link", *self.decision_fields]
        return ["person", "description", "physician", "prescription"]

    def get_readonly_fields(self, request, obj=None):
        if obj:
            return ["person", "description", "physician", "prescription_link", *self.decision_fields]
        return []

    @admin.display(description=gettext_lazy("Prescription"))
    def prescription_link(self, obj):
        # Through the guarded view: the storage path is no URL.
        return format_html('<a href="{}">Download</a>', reverse("federation:device-prescription", args=[obj.pk]))

    # The status moves only through the actions below (DEVICE_REQUEST_TRANSITIONS).
    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request)

    def has_approve_permission(self, request):
        return can_decide_device_request(request.user)

    def has_reject_permission(self, request):
        return can_decide_device_request(request.user)

    def has_resubmit_permission(self, request):
        return _is_portal_staff(request.user)

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        saved = services.device_request_submit(
            person=data["person"],
            description=data["description"],
            physician=data["physician"],
            prescription=data["prescription"],
            submitted_by=request.user,
        )
        _adopt(obj, saved)

    def _apply(self, request, queryset, verb, do):
        done = 0
        for device_request in queryset:
            try:
                do(device_request)
                done += 1
            except (ValidationError, PermissionDenied) as error:
                text = "; ".join(getattr(error, "messages", [str(error)]))
                self.message_user(
                    request,
                    gettext("%(request)s: %(error)s") % {"request": device_request, "error": text},
                    messages.ERROR,
                )
        if done:
            self.message_user(request, verb(done), messages.SUCCESS)

    @admin.action(description=gettext_lazy("Approve selected requests (3.2.8 C)"), permissions=["approve"])
    def approve(self, request, queryset):
        self._apply(
            request,
            queryset,
            lambda n: ngettext("%(count)s request approved.", "%(count)s requests approved.", n) % {"count": n},
            lambda r: services.device_request_decide(request=r, approve=True, decided_by=request.user),
        )

    @admin.action(description=gettext_lazy("Reject selected requests, with a reason (3.2.8 C)"), permissions=["reject"])
    def reject(self, request, queryset):
        form = RejectionForm(request.POST if "apply" in request.POST else None)
        if form.is_bound and form.is_valid():
            reason = form.cleaned_data["decision_reason"]
            self._apply(
                request,
                queryset,
                lambda n: ngettext("%(count)s request rejected.", "%(count)s requests rejected.", n) % {"count": n},
                lambda r: services.device_request_decide(
                    request=r, approve=False, reason=reason, decided_by=request.user
                ),
            )
            return None
        return TemplateResponse(
            request,
            "federation/admin/reject_device_requests.html",
            {
                **self.admin_site.each_context(request),
                "title": gettext("Reject protective device requests"),
                "opts": self.model._meta,
                "form": form,
                "requests": queryset,
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            },
        )

    @admin.action(description=gettext_lazy("Resubmit selected rejected requests"), permissions=["resubmit"])
    def resubmit(self, request, queryset):
        self._apply(
            request,
            queryset,
            lambda n: ngettext("%(count)s request resubmitted.", "%(count)s requests resubmitted.", n) % {"count": n},
            lambda r: services.device_request_resubmit(request=r, submitted_by=request.user),
        )
