"""Pages that keep a person's record (issue 25): edit it, add or renew a passport with its scan, merge two records of
one person (international staff), and download the people list (CSV, XLSX)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from common.spreadsheets import CSV_CONTENT_TYPE, XLSX_CONTENT_TYPE, csv_bytes, xlsx_bytes
from federation.access import (
    access_passport,
    access_person,
    can_merge_people,
    federations_registering_for,
    people_visible_to,
    possible_duplicates,
)
from portal.filters import id_or_none
from portal.forms import apply_errors, focus_first_error

from . import merge, services
from .exports import EXPORT_KINDS, people_table
from .forms import PassportEntryForm, PersonEditForm

MERGE_CANDIDATES = 20


@login_required
def person_edit_view(request, pk: int):
    """Staff of the person's federation (or international staff) change the person's record; a form read before
    someone else's change is refused (``services.check_person_version``)."""
    person = access_person(request.user, pk, for_edit=True)
    federations = federations_registering_for(request.user)
    version = services.person_version(person)
    form = PersonEditForm(request.POST or None, instance=person, federations=federations, initial={"version": version})
    if request.method == "POST" and form.is_valid():
        try:
            services.person_update(
                person=person, by=request.user, expected_version=form.cleaned_data["version"], **form.changes()
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, _("%(person)s: the changes are saved.") % {"person": person})
            return redirect("federation:person-detail", pk=person.pk)
    focus_first_error(form)
    return render(
        request,
        "federation/person_edit.html",
        {"form": form, "person": access_person(request.user, pk) if form.errors else person},
        status=400 if form.errors else 200,
    )


def _passport_page(request, *, person, form, renews=None):
    focus_first_error(form)
    return render(
        request,
        "federation/passport_form.html",
        {"form": form, "person": person, "renews": renews},
        status=400 if form.errors else 200,
    )


@login_required
def passport_add_view(request, pk: int):
    """Add a passport with its scan to a person (1.1 B): staff who keep the person's record."""
    person = access_person(request.user, pk, for_edit=True)
    form = PassportEntryForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.passport_add(person=person, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, _("The passport is recorded with its scan."))
            return redirect("federation:person-detail", pk=person.pk)
    return _passport_page(request, person=person, form=form)


@login_required
def passport_renew_view(request, pk: int):
    """Renew a passport (1.1 B): a new passport with its scan; the old one stays with its history."""
    old = access_passport(request.user, pk, for_edit=True)
    form = PassportEntryForm(
        request.POST or None, request.FILES or None, initial={"issuing_country": old.issuing_country}
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.passport_renew(passport=old, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, _("The renewed passport is recorded; the old one stays in the record."))
            return redirect("federation:person-detail", pk=old.person_id)
    return _passport_page(request, person=old.person, form=form, renews=old)


def _merge_keep(request, pk: int):
    if not can_merge_people(request.user):
        raise PermissionDenied(_("Portal rule (merge): only international staff merge two records of a person."))
    return access_person(request.user, pk)


@login_required
def person_merge_choose_view(request, pk: int):
    """International staff choose the duplicate to merge into this record: same name and date of birth first, or
    anyone found by name."""
    keep = _merge_keep(request, pk)
    search = request.GET.get("q", "").strip()[:100]
    duplicates = list(
        possible_duplicates(
            request.user, first_name=keep.first_name, last_name=keep.last_name, date_of_birth=keep.date_of_birth,
            exclude_pk=keep.pk,
        )[:MERGE_CANDIDATES]
    )  # fmt: skip
    found = []
    if search:
        people = people_visible_to(request.user).exclude(pk=keep.pk).select_related("federation")
        for word in search.split():
            people = people.filter(Q(last_name__icontains=word) | Q(first_name__icontains=word))
        found = list(people.order_by("last_name", "first_name", "pk")[:MERGE_CANDIDATES])
    return render(
        request,
        "federation/person_merge_choose.html",
        {"keep": keep, "duplicates": duplicates, "found": found, "search": search},
    )


def _related_counts(person) -> list[tuple[str, int]]:
    """What points to ``person``, by the kind of record (passports, roster lines, suspensions...): the merge moves
    them all. One query per kind of record, whatever the app that keeps it."""
    counts: dict[str, int] = {}
    for model, field in merge.person_foreign_keys():
        count = model._default_manager.filter(**{field: person}).count()
        if count:
            name = str(model._meta.verbose_name_plural)
            counts[name] = counts.get(name, 0) + count
    return sorted(counts.items())


@login_required
def person_merge_confirm_view(request, pk: int, other: int):
    """Both records side by side; confirming merges ``other`` into this one (``federation.merge.person_merge``)."""
    keep = _merge_keep(request, pk)
    duplicate = access_person(request.user, other)
    error = None
    if request.method == "POST":
        try:
            moved = merge.person_merge(keep=keep, duplicate=duplicate, by=request.user)
        except ValidationError as refused:
            error = " ".join(refused.messages)
        else:
            messages.success(
                request,
                _("%(duplicate)s is merged into this record: %(count)s records moved.")
                % {"duplicate": duplicate, "count": sum(moved.values())},
            )
            return redirect("federation:person-detail", pk=keep.pk)
    return render(
        request,
        "federation/person_merge_confirm.html",
        {
            "keep": keep,
            "duplicate": duplicate,
            "columns": [(keep, _related_counts(keep)), (duplicate, _related_counts(duplicate))],
            "error": error,
        },
        status=400 if error else 200,
    )


@login_required
def person_export_view(request, kind: str):
    """The people list as CSV or XLSX: the rows and columns the user may read, with the list's filters."""
    if kind not in EXPORT_KINDS:
        raise Http404(gettext("No such kind of file."))
    header, rows = people_table(
        request.user,
        search=request.GET.get("q", "").strip()[:100],
        federation_id=id_or_none(request.GET.get("federation")),
        role=request.GET.get("role", ""),
    )
    if kind == "csv":
        response = HttpResponse(csv_bytes(header, rows), content_type=CSV_CONTENT_TYPE)
    else:
        response = HttpResponse(xlsx_bytes(header, rows, title=_("People")), content_type=XLSX_CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="people.{kind}"'
    response["Cache-Control"] = "private, no-store"
    return response
