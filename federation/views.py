"""Pages of the federation register and the guarded downloads of private files."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import render

from accounts.access import (
    access_device_request,
    access_passport,
    access_person,
    can_see_confidential,
    federations_visible_to,
)
from portal.filters import id_or_none
from tournaments.selectors import person_eligibility

from .files import private_file_response
from .selectors import PERSON_ROLE_FIELDS, person_list, person_with_records

PEOPLE_PER_PAGE = 25


def _int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value else None
    except ValueError:
        return None


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
    return render(
        request,
        "federation/person_list.html",
        {
            "page": page,
            "search": search,
            "federation_id": federation_id,
            "role": role,
            "roles": [(key, key.replace("_", " ").capitalize()) for key in PERSON_ROLE_FIELDS],
            "federations": federations_visible_to(request.user).only("pk", "name"),
            "query": query.urlencode(),
        },
    )


@login_required
def person_detail_view(request, pk: int):
    person = access_person(request.user, pk)
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
    return render(
        request,
        "federation/person_detail.html",
        {
            "person": person,
            "confidential": confidential,
            "eligibility": eligibility,
            "year": year,
        },
    )


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
