"""Reads of the federation register, shaped for the pure cores and the pages."""

from __future__ import annotations

import datetime

from django.db.models import Prefetch, Q, QuerySet, prefetch_related_objects
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.access import (
    device_requests_visible_to,
    equipment_models_visible_to,
    passports_visible_to,
    people_visible_to,
)

from .eligibility import (
    Category,
    ChampionshipFacts,
    EligibilityResult,
    PassportFacts,
    PersonFacts,
    WaiverFacts,
    check_eligibility,
)
from .models import (
    DeviceRequestStatus,
    EligibilityWaiver,
    EquipmentInspection,
    EquipmentModel,
    Passport,
    Person,
    ProtectiveDeviceRequest,
)

# The person page shows eligibility for a typical championship of the year:
# 1-10 July, entered by the person's own federation.
DEFAULT_CHAMPIONSHIP_START = (7, 1)
DEFAULT_CHAMPIONSHIP_END = (7, 10)

PERSON_ROLE_FIELDS = {
    "player": "is_player",
    "goalkeeper": "is_goalkeeper",
    "team_official": "is_team_official",
    "referee": "is_referee",
    "official": "is_official",
}
# The roles as people read them (the filters of the people list, the API's filter), in the reader's language.
PERSON_ROLE_LABELS = {
    "player": _("player"),
    "goalkeeper": _("goalkeeper"),
    "team_official": _("team official"),
    "referee": _("referee"),
    "official": _("game official"),
}


def person_facts(person: Person) -> PersonFacts:
    """Return the facts eligibility needs; reads ``person.passports.all()`` (prefetch it for lists)."""
    return PersonFacts(
        date_of_birth=person.date_of_birth,
        gender=person.gender,
        nationality=str(person.nationality.code),
        passports=tuple(
            PassportFacts(issuing_country=str(p.issuing_country.code), expiry_date=p.expiry_date)
            for p in person.passports.all()
        ),
    )


def _waivers(person: Person) -> list[EligibilityWaiver]:
    # A prefetch (the person page's) is used as is; otherwise one query, approvers included.
    if "eligibility_waivers" in getattr(person, "_prefetched_objects_cache", {}):
        return list(person.eligibility_waivers.all())
    return list(person.eligibility_waivers.select_related("approved_by"))


def _applicable(waivers: list[EligibilityWaiver], *, category: str | None, year: int | None) -> tuple[WaiverFacts, ...]:
    return tuple(
        WaiverFacts(code=w.code, reason=w.reason, approved_by=str(w.approved_by))
        for w in waivers
        if w.applies_to(category=category, year=year)
    )


def waiver_facts(person: Person, *, category: str | None = None, year: int | None = None) -> tuple[WaiverFacts, ...]:
    """Return the person's waivers; with ``category``/``year``, only those that apply to such a championship."""
    return _applicable(_waivers(person), category=category, year=year)


def default_championship_dates(year: int) -> tuple[datetime.date, datetime.date]:
    return datetime.date(year, *DEFAULT_CHAMPIONSHIP_START), datetime.date(year, *DEFAULT_CHAMPIONSHIP_END)


def person_eligibility_by_category(
    person: Person,
    *,
    year: int | None = None,
    start_date: datetime.date | None = None,
    end_date: datetime.date | None = None,
    team_country: str | None = None,
) -> dict[Category, EligibilityResult]:
    """Return the person's eligibility in every category (1.1 B-G, R-01..R-03) with its waivers applied.

    Without dates: a championship from 1 to 10 July of ``year`` (default: the
    current year). Without ``team_country``: the country of the person's
    federation (its nationality for a person of an international body).
    """
    if start_date is None or end_date is None:
        default_start, default_end = default_championship_dates(year or timezone.now().year)
        start_date = start_date or default_start
        end_date = end_date or default_end
    country = team_country or person.federation.country.code or person.nationality.code
    facts = person_facts(person)
    waivers = _waivers(person)
    return {
        category: check_eligibility(
            facts,
            ChampionshipFacts(category=category, start_date=start_date, end_date=end_date, team_country=country),
            # A waiver scoped to a category or year applies only there.
            waivers=_applicable(waivers, category=category.value, year=start_date.year),
        )
        for category in Category
    }


# The home warns federation staff of passports that expire within this many days (issue 12).
PASSPORT_EXPIRY_WARNING = datetime.timedelta(days=90)


def passports_expiring(user, federation_ids, *, today: datetime.date | None = None) -> QuerySet[Passport]:
    """The passports the user may see, of the people of ``federation_ids``, still valid but expiring within
    ``PASSPORT_EXPIRY_WARNING`` (soonest first): renew them before R-03 makes their holders ineligible."""
    today = today or timezone.localdate()
    return (
        passports_visible_to(user)
        .filter(person__federation_id__in=federation_ids, expiry_date__gte=today)
        .filter(expiry_date__lte=today + PASSPORT_EXPIRY_WARNING)
        .select_related("person")
        .order_by("expiry_date", "pk")
    )


def person_list(user, *, search: str = "", federation_id: int | str | None = None, role: str = "") -> QuerySet[Person]:
    """Return the people ``user`` may see, filtered for the people page; one query whatever its length."""
    people = people_visible_to(user).select_related("federation")
    for word in search.split():
        people = people.filter(Q(first_name__icontains=word) | Q(last_name__icontains=word))
    if federation_id:
        people = people.filter(federation_id=federation_id)
    if role in PERSON_ROLE_FIELDS:
        people = people.filter(**{PERSON_ROLE_FIELDS[role]: True})
    return people.order_by("last_name", "first_name", "pk")


def person_with_records(person: Person) -> Person:
    """Load everything the person page shows in a fixed number of queries."""
    prefetch_related_objects(
        [person],
        "passports",
        Prefetch("eligibility_waivers", queryset=EligibilityWaiver.objects.select_related("approved_by")),
        Prefetch("equipment_inspections", queryset=EquipmentInspection.objects.select_related("inspected_by")),
        Prefetch("device_requests", queryset=ProtectiveDeviceRequest.objects.select_related("decided_by")),
    )
    return person


# --- The approvals queue (3.2.6 A, 3.2.8 C) ---------------------------------------------

# The queue's status filter: what waits, or what was decided.
QUEUE_STATUSES = ("waiting", "approved", "rejected")


def device_requests_in_queue(user, *, status: str = "waiting") -> QuerySet[ProtectiveDeviceRequest]:
    """Device requests of ``status`` the user may see, oldest first, with what the queue shows (one query)."""
    wanted = {"waiting": DeviceRequestStatus.SUBMITTED}.get(status, status)
    return (
        device_requests_visible_to(user)
        .filter(status=wanted)
        .select_related("person__federation", "submitted_by", "decided_by")
        .order_by("submitted_at", "pk")
    )


def equipment_models_in_queue(user, *, status: str = "waiting", kind: str = "") -> QuerySet[EquipmentModel]:
    """Equipment models of ``status`` (and ``kind``), oldest registered first (one query)."""
    models = equipment_models_visible_to(user).select_related("approved_by", "rejected_by").order_by("pk")
    if kind:
        models = models.filter(kind=kind)
    if status == "approved":
        return models.filter(approved=True)
    if status == "rejected":
        return models.filter(approved=False, rejected_on__isnull=False)
    return models.filter(approved=False, rejected_on__isnull=True)
