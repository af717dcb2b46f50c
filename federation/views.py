"""Pages of the federation register and the guarded downloads of private files."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.roles import is_federation_staff
from common.numbers import whole_number_or_none
from federation.access import (
    access_device_request,
    access_passport,
    access_person,
    access_waiver_request,
    can_edit_person,
    can_grant_waiver,
    can_merge_people,
    can_request_waiver,
    can_see_confidential,
    federations_registering_for,
    federations_visible_to,
    possible_duplicates,
    waiver_requests_visible_to,
)
from federation.hooks import person_eligibility
from portal.filters import id_or_none
from portal.forms import apply_errors

from . import services
from .files import private_file_response
from .forms import PersonRegistrationForm, WaiverDecisionForm, WaiverRequestForm
from .models import WaiverRequestStatus
from .queue_rows import waiting_request_rows
from .selectors import PERSON_ROLE_LABELS, person_list, person_with_records

PEOPLE_PER_PAGE = 25
RECENT_DECISIONS = 10


def _int_or_none(value: str | None) -> int | None:
    return whole_number_or_none(value)


@login_required
def person_list_view(request):
    search = request.GET.get("q", "").strip()[:100]
    federation_id = id_or_none(request.GET.get("federation"))
    role = request.GET.get("role", "")
    people = person_list(request.user, search=search, federation_id=federation_id, role=role)
    page = Paginator(people, PEOPLE_PER_PAGE).get_page(request.GET.get("page"))
    # Page links keep the filters.
    query = request.GET.copy()
    query.pop("page", None)
    # The downloads keep the list's filters (only those: the page number is no filter).
    filters = QueryDict(mutable=True)
    filters.update(
        {name: value for name, value in (("q", search), ("federation", federation_id or ""), ("role", role)) if value}
    )
    return render(
        request,
        "federation/person_list.html",
        {
            "page": page,
            "search": search,
            "federation_id": federation_id,
            "role": role,
            "roles": [(key, capfirst(label)) for key, label in PERSON_ROLE_LABELS.items()],
            "federations": federations_visible_to(request.user).only("pk", "name"),
            "query": query.urlencode(),
            "filters": filters.urlencode(),
            "can_register": is_federation_staff(request.user),
            "can_decide_waivers": can_grant_waiver(request.user),
        },
    )


@login_required
def person_detail_view(request, pk: int):
    person = access_person(request.user, pk)
    return _person_page(request, person)


def _person_page(request, person, *, waiver_form: WaiverRequestForm | None = None, status: int = 200):
    # Passports, eligibility, waivers and medical requests are for the staff who
    # keep the person's record (the audience of passports_visible_to); officials
    # and the committee see the person's plain data only.
    confidential = can_see_confidential(request.user, person)
    person_with_records(person)
    year = _int_or_none(request.GET.get("year"))
    if year is not None and not 1900 <= year <= 2200:
        year = None
    # First the championships the person is entered in; an assumed one only when entered nowhere or asked for a year.
    eligibility = person_eligibility(person, year=year) if confidential else None
    may_request = confidential and can_request_waiver(request.user, person)
    if may_request and waiver_form is None:
        waiver_form = WaiverRequestForm(person=person, initial={"year": year})
    return render(
        request,
        "federation/person_detail.html",
        {
            "person": person,
            "confidential": confidential,
            "eligibility": eligibility,
            "year": year,
            "waiver_requests": person.waiver_requests.select_related("requested_by", "decided_by")
            if confidential
            else (),
            "waiver_form": waiver_form if may_request else None,
            "can_edit": can_edit_person(request.user, person),
            "can_merge": can_merge_people(request.user),
        },
        status=status,
    )


@login_required
def person_register_view(request):
    """Federation staff register a person and one passport with its scan (1.1 B)."""
    if not is_federation_staff(request.user):
        raise PermissionDenied(_("Only federation staff register people."))
    federations = federations_registering_for(request.user)
    form = PersonRegistrationForm(request.POST or None, request.FILES or None, federations=federations)
    duplicates = ()
    if request.method == "POST" and form.is_valid():
        try:
            person = services.person_register(
                by=request.user,
                passport=form.passport(),
                allow_duplicate=request.POST.get("register_anyway") == "1",
                **form.person_fields(),
            )
        except ValidationError as error:
            if getattr(error, "code", None) == "duplicate":
                # Not saved: the page names the people with this name and date of birth, with a link to each, and
                # asks to confirm (a "register anyway" button) before a second record is made.
                fields = form.person_fields()
                duplicates = possible_duplicates(
                    request.user,
                    first_name=fields["first_name"],
                    last_name=fields["last_name"],
                    date_of_birth=fields["date_of_birth"],
                )
            else:
                apply_errors(form, error)
        else:
            messages.success(request, _("%(person)s is registered.") % {"person": person})
            return redirect("federation:person-detail", pk=person.pk)
    return render(
        request,
        "federation/person_register.html",
        {
            "form": form,
            "passport_fields": services.PASSPORT_FIELDS,
            "duplicates": duplicates,
            "scan_given": bool(request.FILES.get("scan")),
        },
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def waiver_request_create_view(request, pk: int):
    """Staff of the person's federation ask the IHTC for a waiver (R-03)."""
    person = access_person(request.user, pk, for_edit=True)
    form = WaiverRequestForm(request.POST, person=person)
    if form.is_valid():
        try:
            services.request_waiver(
                person=person,
                requested_by=request.user,
                code=form.cleaned_data["code"],
                category=form.cleaned_data["category"],
                year=form.cleaned_data["year"],
                justification=form.cleaned_data["justification"],
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, _("The waiver request waits for the IHTC's decision (R-03)."))
            year = _int_or_none(request.GET.get("year"))
            url = reverse("federation:person-detail", args=[pk])
            return redirect(f"{url}?year={year}" if year else url)
    return _person_page(request, person, waiver_form=form, status=400)


@login_required
def waiver_queue_view(request):
    """The IHTC's queue: waiver requests waiting for a decision, oldest first (R-03)."""
    if not can_grant_waiver(request.user):
        raise PermissionDenied(_("R-03: only the IHTC grants or refuses eligibility waivers."))
    return _queue_page(request)


def _queue_page(request, *, failed=None, status: int = 200):
    waiting = list(
        waiver_requests_visible_to(request.user)
        .filter(status=WaiverRequestStatus.REQUESTED)
        .select_related("person", "person__federation", "requested_by")
        # What the rows show (federation.queue_rows), and no more: a page of 100 requests reads 400 records.
        .only(
            *("pk", "code", "category", "year", "justification", "requested_at", "status"),
            *("person__first_name", "person__last_name", "person__federation__name"),
            *("requested_by__username", "requested_by__first_name", "requested_by__last_name"),
        )
        .order_by("requested_at", "pk")
    )
    # One blank form serves every request's row (only a refused decision's row shows its own, with the errors).
    blank = WaiverDecisionForm()
    rows = [(item, failed[1] if failed and failed[0] == item.pk else blank) for item in waiting]
    decided = (
        waiver_requests_visible_to(request.user)
        .exclude(status=WaiverRequestStatus.REQUESTED)
        .select_related("person", "decided_by")
        .order_by("-decided_at")[:RECENT_DECISIONS]
    )
    return render(
        request,
        "federation/waiver_queue.html",
        {"rows": rows, "waiting": waiting_request_rows(request, rows), "decided": decided},
        status=status,
    )


@login_required
@require_POST
def waiver_request_decide_view(request, pk: int):
    """Grant or refuse a waiting waiver request with a reason (R-03): the IHTC only."""
    waiver_request = access_waiver_request(request.user, pk, for_decision=True)
    form = WaiverDecisionForm(request.POST)
    if form.is_valid():
        decide = (
            services.grant_waiver_request
            if form.cleaned_data["decision"] == "grant"
            else services.refuse_waiver_request
        )
        try:
            decided = decide(by=request.user, request=waiver_request, reason=form.cleaned_data["decision_reason"])
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(
                request,
                _("%(person)s: %(decision)s.") % {"person": decided.person, "decision": decided.get_status_display()},
            )
            return redirect("federation:waiver-queue")
    return _queue_page(request, failed=(waiver_request.pk, form), status=400)


@login_required
def passport_scan_view(request, pk: int):
    """Serve a passport scan to whoever may see the passport (another federation's: 404)."""
    passport = access_passport(request.user, pk)
    return private_file_response(
        passport.scan, content_type=passport.scan_content_type, filename_stem=f"passport-{passport.pk}"
    )


@login_required
def device_prescription_view(request, pk: int):
    """Serve a device request's prescription to whoever may see the holder's passports (3.2.8 C)."""
    # Medical documents: the audience of passport scans; others may not know the request exists.
    device_request = access_device_request(request.user, pk)
    return private_file_response(
        device_request.prescription,
        content_type=device_request.prescription_content_type,
        filename_stem=f"prescription-{device_request.pk}",
    )
