"""Writes of the federation register: federations, people, passports, waivers, equipment, device requests.

Every function has the same shape: check (raising ValidationError with a
field -> "Rule ...: message" map, which forms show and the API turns into a
400), then ``transaction.atomic()``, lock what two people could change at
once, write. The ``check_*`` functions are the rules themselves: admin forms
call them in ``clean`` so a page shows the same message as the API.
"""

from __future__ import annotations

import dataclasses
import datetime
import numbers
from collections.abc import Iterable, Mapping

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from accounts.roles import can_manage_federations, is_federation_staff
from common.text import Words, said
from federation.access import (
    can_approve_equipment,
    can_decide_device_request,
    can_edit_federation,
    can_edit_person,
    can_grant_waiver,
    can_record_inspection,
    can_request_waiver,
    possible_duplicates,
)
from portal.i18n import said as said_now
from portal.i18n import storable, untranslated
from portal.services import audited_save, check_transition

from . import eligibility, equipment, hooks
from .files import check_scan_upload
from .models import (
    DEVICE_REQUEST_TRANSITIONS,
    WAIVER_REQUEST_TRANSITIONS,
    CategoryChoice,
    DeviceRequestStatus,
    EligibilityWaiver,
    EquipmentInspection,
    EquipmentKind,
    EquipmentModel,
    Federation,
    FederationLevel,
    InspectionKind,
    Passport,
    Person,
    ProtectiveDeviceRequest,
    WaivableCode,
    WaiverRequest,
    WaiverRequestStatus,
)
from .selectors import PERSON_ROLE_FIELDS

# --- Federations (1.1 A) -------------------------------------------------------------

# What a registry entry holds (the API's fields and the admin form's, in this order).
FEDERATION_FIELDS = (
    "name",
    "short_name",
    "country",
    "level",
    "parent",
    "firs_affiliated",
    "good_standing",
    "contact_name",
    "contact_email",
    "contact_phone",
    "website",
    "address",
)


def check_federation(*, level: str, country: str, parent: Federation | None = None, federation_pk=None) -> None:
    """Raise ValidationError unless a federation of ``level`` may stand for ``country`` below ``parent`` (1.1 A).

    1.1 A speaks of "National Federations": a national federation is the
    federation of one country, and a country has one. ``federation_pk`` is the
    federation being changed (None for a new one), so it does not count
    against itself and cannot be placed below itself.
    """
    errors = {}
    country = str(country or "")
    if level == FederationLevel.NATIONAL and not country:
        errors["country"] = gettext(
            "Rule 1.1 A: a national federation is the federation of a country; give its country."
        )
    elif level == FederationLevel.NATIONAL:
        others = Federation.objects.filter(level=FederationLevel.NATIONAL, country=country)
        if federation_pk is not None:
            others = others.exclude(pk=federation_pk)
        if others.exists():
            errors["country"] = gettext(
                "Rule 1.1 A: %(country)s already has a national federation (one per country)."
            ) % {"country": country}
    if parent is not None and federation_pk is not None:
        ancestor, seen = parent, set()
        while ancestor is not None and ancestor.pk not in seen:
            if ancestor.pk == federation_pk:
                errors["parent"] = gettext("A federation cannot be placed below itself.")
                break
            seen.add(ancestor.pk)
            ancestor = ancestor.parent
    if errors:
        raise ValidationError(errors)


def check_can_manage_federations(user) -> None:
    """1.1 A: affiliation and good standing are the IHTC's to record; its executives keep the registry."""
    if not can_manage_federations(user):
        raise PermissionDenied(gettext("Rule 1.1 A: only IHTC executives keep the federation registry."))


def _unknown_fields(changes: Mapping, allowed: Iterable[str]) -> None:
    unknown = set(changes) - set(allowed)
    if unknown:
        raise ValidationError(dict.fromkeys(sorted(unknown), gettext("This field cannot be changed here.")))


def _write_federation(federation: Federation, *, by) -> Federation:
    check_federation(
        level=federation.level, country=federation.country, parent=federation.parent, federation_pk=federation.pk
    )
    federation.full_clean()
    try:
        with transaction.atomic():
            audited_save(federation, by)  # the audit trail names who changed the registry
    except IntegrityError:
        # Another executive registered the country's federation meanwhile: answer with the rule, not a crash.
        check_federation(level=federation.level, country=federation.country, federation_pk=federation.pk)
        raise
    return federation


def federation_create(*, by, **fields) -> Federation:
    """Register a federation (1.1 A: one national federation per country); IHTC executives only."""
    check_can_manage_federations(by)
    _unknown_fields(fields, FEDERATION_FIELDS)
    return _write_federation(Federation(**fields), by=by)


def federation_update(*, federation: Federation, by, **changes) -> Federation:
    """Change a federation's registry entry; ``changes`` are any of FEDERATION_FIELDS."""
    check_can_manage_federations(by)
    _unknown_fields(changes, FEDERATION_FIELDS)
    with transaction.atomic():
        # Two executives editing the same entry: the second works on the first's result.
        locked = Federation.objects.select_for_update().get(pk=federation.pk)
        for name, value in changes.items():
            setattr(locked, name, value)
        return _write_federation(locked, by=by)


# --- People -------------------------------------------------------------------------

# What a person's record holds: identity, then the roles (selectors.PERSON_ROLE_FIELDS).
PERSON_FIELDS = (
    "federation",
    "first_name",
    "last_name",
    "date_of_birth",
    "gender",
    "nationality",
    *PERSON_ROLE_FIELDS.values(),
)


# Plausibility of dates (no article of the rulebook governs them): a typing slip such as year 1 or 9999 is refused,
# never stored to give an age of 2,000 years or a passport valid for ever.
EARLIEST_PLAUSIBLE_DATE = datetime.date(1900, 1, 1)
PASSPORT_MAX_YEARS_AHEAD = 20


def _today(today: datetime.date | None) -> datetime.date:
    return today or timezone.now().date()


def _years_after(day: datetime.date, years: int) -> datetime.date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February
        return day.replace(year=day.year + years, day=28)


def check_date_of_birth(date_of_birth: datetime.date | None, *, today: datetime.date | None = None) -> None:
    """Raise ValidationError unless ``date_of_birth`` is plausible: from 1 January 1900 to today (no article)."""
    if date_of_birth is None:
        return
    today = _today(today)
    if not EARLIEST_PLAUSIBLE_DATE <= date_of_birth <= today:
        raise ValidationError(
            {
                "date_of_birth": gettext(
                    "Plausibility (no article of the rules sets it): a date of birth lies between %(earliest)s and today (%(today)s), not on %(given)s."
                )
                % {
                    "earliest": EARLIEST_PLAUSIBLE_DATE.isoformat(),
                    "today": today.isoformat(),
                    "given": date_of_birth.isoformat(),
                }
            }
        )


def check_passport_expiry(expiry_date: datetime.date | None, *, today: datetime.date | None = None) -> None:
    """Raise ValidationError unless ``expiry_date`` is plausible: from 1900 to 20 years ahead (no article).

    A passport that expired long ago is still recorded (1.1 B then finds it expired); one "expiring" in year 1
    or in a century is a typing slip.
    """
    if expiry_date is None:
        return
    latest = _years_after(_today(today), PASSPORT_MAX_YEARS_AHEAD)
    if not EARLIEST_PLAUSIBLE_DATE <= expiry_date <= latest:
        raise ValidationError(
            {
                "expiry_date": gettext(
                    "Plausibility (no article of the rules sets it; 1.1 B reads the expiry): a passport expires between %(earliest)s and %(years)s years from today (%(latest)s), not on %(given)s."
                )
                % {
                    "earliest": EARLIEST_PLAUSIBLE_DATE.isoformat(),
                    "years": PASSPORT_MAX_YEARS_AHEAD,
                    "latest": latest.isoformat(),
                    "given": expiry_date.isoformat(),
                }
            }
        )


def check_can_register_person(user, federation: Federation) -> None:
    """Only staff of ``federation`` (or international staff) register its people or move someone into it."""
    if not can_edit_federation(user, federation):
        raise PermissionDenied(gettext("Only staff of a federation or international staff may register its people."))


def check_can_edit_person(user, person: Person) -> None:
    """Only staff of the person's federation (or international staff) change the person or their records.

    Every service that writes a person's record asks this itself, whoever
    calls it (a page, the API, the admin and its history revert form).
    """
    if not can_edit_person(user, person):
        raise PermissionDenied(
            gettext("Only staff of the person's federation or international staff may change their records.")
        )


def _write_person(person: Person, *, by) -> Person:
    # Names are kept without surrounding spaces; a blank one is refused by the model ("This field cannot be blank").
    person.first_name = str(person.first_name or "").strip()
    person.last_name = str(person.last_name or "").strip()
    person.full_clean()
    check_date_of_birth(person.date_of_birth)
    with transaction.atomic():
        audited_save(person, by)  # the audit trail names who registered or changed the person
        hooks.eligibility_facts_changed(person_id=person.pk)  # webhooks: told after the commit, if it changed
    return person


def person_create(*, by, **fields) -> Person:
    """Register a person in a federation ``by`` works for; validation errors name the field."""
    _unknown_fields(fields, PERSON_FIELDS)
    federation = fields.get("federation")
    if federation is not None:
        check_can_register_person(by, federation)
    with transaction.atomic():
        return _write_person(Person(**fields), by=by)


def person_version(person: Person) -> int:
    """The version of the stored record: the id of its latest history entry (0 if it has none). An edit form carries
    the version it was read at; ``person_update`` refuses it once the record changed (``check_person_version``)."""
    latest = person.history.order_by("-history_id").values_list("history_id", flat=True).first()
    return latest or 0


def check_person_version(person: Person, expected_version: int | None) -> None:
    """Portal rule (concurrent edits): a form read before someone else saved the person is refused, never saved over
    the other change. ``person`` is the locked, stored record."""
    if expected_version is None:
        return
    if person_version(person) != expected_version:
        raise ValidationError(
            gettext(
                "Portal rule (concurrent edits): someone changed this person after you opened the form; nothing was "
                "saved. Open the form again to see their change, then make yours."
            ),
            code="stale",
        )


def check_not_a_duplicate(by, *, first_name: str, last_name: str, date_of_birth, exclude_pk=None) -> None:
    """Portal rule (no silent duplicate): a person whose name and date of birth are those of someone ``by`` may see
    is registered only when ``by`` confirms it is someone else (``allow_duplicate``)."""
    if not date_of_birth:
        return
    same = list(
        possible_duplicates(
            by, first_name=first_name, last_name=last_name, date_of_birth=date_of_birth, exclude_pk=exclude_pk
        )[:5]
    )
    if same:
        names = "; ".join(f"{person} ({person.federation.name})" for person in same)
        raise ValidationError(
            gettext(
                "Portal rule (no silent duplicate): %(people)s already has this name and date of birth. Open that "
                "record, or confirm this is another person to register anyway."
            )
            % {"people": names},
            code="duplicate",
        )


def person_update(*, person: Person, by, expected_version: int | None = None, **changes) -> Person:
    """Change a person; moving them to another federation needs ``by`` to work for that one as well.

    With ``expected_version`` (``person_version`` when the form was read), a change made meanwhile by someone else
    refuses this one (``check_person_version``)."""
    _unknown_fields(changes, PERSON_FIELDS)
    with transaction.atomic():
        # Two staff members editing the same person: the second works on the first's result.
        locked = Person.objects.select_for_update().get(pk=person.pk)
        # Checked on the stored person, not on the caller's copy (an admin revert form brings an old one).
        check_can_edit_person(by, locked)
        check_person_version(locked, expected_version)
        federation = changes.get("federation")
        if federation is not None and federation.pk != locked.federation_id:
            check_can_register_person(by, federation)
        for name, value in changes.items():
            setattr(locked, name, value)
        return _write_person(locked, by=by)


PASSPORT_FIELDS = ("issuing_country", "number", "expiry_date", "scan")


def person_register(*, by, passport: Mapping | None = None, allow_duplicate: bool = False, **fields) -> Person:
    """Register a person and, optionally, one passport (``passport``: PASSPORT_FIELDS) at once (1.1 B).

    Both are checked before anything stays stored: a refused passport (its
    scan, its number already recorded) leaves no person behind. Someone ``by``
    may see with the same name and date of birth refuses it unless
    ``allow_duplicate`` (``check_not_a_duplicate``).
    """
    if not allow_duplicate:
        check_not_a_duplicate(
            by,
            first_name=fields.get("first_name", ""),
            last_name=fields.get("last_name", ""),
            date_of_birth=fields.get("date_of_birth"),
        )
    with transaction.atomic():
        person = person_create(by=by, **fields)
        if passport:
            _unknown_fields(passport, PASSPORT_FIELDS)
            passport_add(person=person, by=by, **passport)
    return person


# --- Passports ------------------------------------------------------------------


def normalize_passport_number(number: str) -> str:
    # "ya 123 456" and "YA123456" are the same passport.
    return "".join(str(number or "").split()).upper()


def _delete_file_on_commit(storage, name: str) -> None:
    # A file is deleted only once the change that drops it is safely recorded.
    if name:
        transaction.on_commit(lambda: storage.delete(name))


def _write_passport(passport: Passport, *, scan, clear_scan: bool = False) -> Passport:
    content_type = check_scan_upload(scan) if scan is not None else None
    # Model validation: issuing country is ISO 3166, number unique per country.
    passport.full_clean(exclude=["scan", "person"])
    check_passport_expiry(passport.expiry_date)
    replaced = passport.scan.name if passport.pk and (content_type or clear_scan) else ""
    with transaction.atomic():
        if content_type:
            passport.scan = scan
            passport.scan_content_type = content_type
        elif clear_scan:
            passport.scan = ""
            passport.scan_content_type = ""
        passport.save()
        if replaced != passport.scan.name:
            _delete_file_on_commit(passport.scan.storage, replaced)
        hooks.eligibility_facts_changed(person_id=passport.person_id)  # 1.1 B: a passport is a fact of eligibility
    return passport


def passport_add(
    *,
    person: Person,
    issuing_country: str,
    number: str,
    expiry_date: datetime.date,
    by,
    scan=None,
) -> Passport:
    """Record a passport of ``person`` (1.1 B); ``scan`` is checked by its content before anything is stored."""
    check_can_edit_person(by, person)
    passport = Passport(
        person=person,
        issuing_country=str(issuing_country).upper(),
        number=normalize_passport_number(number),
        expiry_date=expiry_date,
    )
    return _write_passport(passport, scan=scan)


def check_passport_renewal(old: Passport, *, expiry_date: datetime.date | None) -> None:
    """Rule 1.1 B (R-03: the passport valid on the championship's last day counts): a renewal expires after the
    passport it renews; otherwise it is a correction of that passport, not a new one."""
    if expiry_date is not None and expiry_date <= old.expiry_date:
        raise ValidationError(
            {
                "expiry_date": gettext(
                    "Rule 1.1 B: a renewed passport expires after the one it renews (%(date)s); to correct that "
                    "passport, change it instead."
                )
                % {"date": old.expiry_date.isoformat()}
            }
        )


def passport_renew(
    *, passport: Passport, by, number: str, expiry_date: datetime.date, issuing_country: str | None = None, scan=None
) -> Passport:
    """Record the passport that renews ``passport`` (1.1 B): a new passport of the same holder, with its own scan; the
    old one stays as it was, with its history and scan (an expired passport still tells what was checked when)."""
    check_can_edit_person(by, passport.person)
    check_passport_renewal(passport, expiry_date=expiry_date)
    return passport_add(
        person=passport.person,
        issuing_country=issuing_country or str(passport.issuing_country.code),
        number=number,
        expiry_date=expiry_date,
        by=by,
        scan=scan,
    )


def passport_update(
    *,
    passport: Passport,
    by,
    issuing_country: str | None = None,
    number: str | None = None,
    expiry_date: datetime.date | None = None,
    scan=None,
    clear_scan: bool = False,
) -> Passport:
    """Change a passport; arguments left as None keep their value.

    A new ``scan`` replaces the stored one; ``clear_scan`` removes it. The
    replaced file is deleted from the private storage after the commit.
    """
    with transaction.atomic():
        # Two staff members editing the same passport: the second works on the first's result.
        locked = Passport.objects.select_for_update(of=("self",)).select_related("person").get(pk=passport.pk)
        check_can_edit_person(by, locked.person)
        if issuing_country is not None:
            locked.issuing_country = str(issuing_country).upper()
        if number is not None:
            locked.number = normalize_passport_number(number)
        if expiry_date is not None:
            locked.expiry_date = expiry_date
        _write_passport(locked, scan=scan, clear_scan=clear_scan)
    return locked


def passport_remove(*, passport: Passport, by) -> None:
    """Delete a passport and, after the commit, its scan (the history keeps the passport's data)."""
    with transaction.atomic():
        locked = Passport.objects.select_for_update(of=("self",)).select_related("person").get(pk=passport.pk)
        check_can_edit_person(by, locked.person)
        _delete_file_on_commit(locked.scan.storage, locked.scan.name)
        locked.delete()
        hooks.eligibility_facts_changed(person_id=locked.person_id)


# --- Eligibility waivers -------------------------------------------------------------


def check_waiver(*, code: str, reason: str, category: str = "", year: int | None = None) -> None:
    """Raise ValidationError unless this waiver may be granted (1.1 B, R-03)."""
    errors = {}
    if code not in eligibility.WAIVABLE_CODES:
        errors["code"] = gettext(
            "R-03: only the conditions of Rule 1.1 B (nationality, passport) can be waived; "
            "%(code)s cannot (ages 1.1 C-G and gender R-02 have no exception)."
        ) % {"code": repr(code)}
    if not (reason or "").strip():
        errors["reason"] = gettext("R-03: a waiver is recorded with its reason.")
    if category and category not in CategoryChoice.values:
        errors["category"] = gettext("Unknown category %(category)s.") % {"category": repr(category)}
    if year is not None and (isinstance(year, bool) or not isinstance(year, int) or not 1900 <= year <= 2200):
        errors["year"] = gettext("%(year)s is not a championship year.") % {"year": repr(year)}
    if errors:
        raise ValidationError(errors)


def check_can_grant_waiver(user) -> None:
    """R-03: the exception that "normally" in 1.1 B allows is the IHTC's to make."""
    if not can_grant_waiver(user):
        raise PermissionDenied(gettext("R-03: only the IHTC (international staff) grants eligibility waivers."))


def waiver_grant(
    *,
    person: Person,
    code: str,
    reason: str,
    approved_by,
    category: str = "",
    year: int | None = None,
    at: datetime.datetime | None = None,
) -> EligibilityWaiver:
    """Record an IHTC waiver lifting one 1.1 B condition for ``person`` (R-03)."""
    check_can_grant_waiver(approved_by)
    check_waiver(code=code, reason=reason, category=category, year=year)
    with transaction.atomic():
        waiver = EligibilityWaiver.objects.create(
            person=person,
            code=code,
            category=category or "",
            year=year,
            reason=reason.strip(),
            approved_by=approved_by,
            approved_at=at or timezone.now(),
        )
        hooks.eligibility_facts_changed(person_id=person.pk)  # a waiver lifts a 1.1 B condition
        return waiver


# --- Waiver requests: the federation asks, the IHTC grants or refuses --------------------------


def check_can_request_waiver(user, person: Person) -> None:
    """R-03: the staff who keep the person's record ask the IHTC for a waiver."""
    if not can_request_waiver(user, person):
        raise PermissionDenied(_("R-03: only staff of the person's federation or the IHTC may ask for a waiver."))


def check_waiver_request(*, person: Person, code: str, justification: str, category: str = "", year=None) -> None:
    """Raise ValidationError unless this waiver may be asked for (the rules of ``check_waiver``, R-03), and no
    request for the same waiver already waits for the IHTC."""
    try:
        check_waiver(code=code, reason=justification, category=category, year=year)
    except ValidationError as error:
        errors = {("justification" if field == "reason" else field): messages for field, messages in error}
        if "justification" in errors:
            errors["justification"] = [_("R-03: a waiver request states why the exception is asked for.")]
        raise ValidationError(errors) from None
    waiting = WaiverRequest.objects.filter(
        person=person, code=code, category=category or "", year=year, status=WaiverRequestStatus.REQUESTED
    )
    if waiting.exists():
        raise ValidationError(
            {"code": _("R-03: the same waiver for this person already waits for the IHTC's decision.")}
        )


def request_waiver(
    *,
    person: Person,
    code: str,
    justification: str,
    requested_by,
    category: str = "",
    year: int | None = None,
    at: datetime.datetime | None = None,
) -> WaiverRequest:
    """Ask the IHTC to waive one 1.1 B condition for ``person`` (R-03); it waits in the IHTC's queue."""
    check_can_request_waiver(requested_by, person)
    check_waiver_request(person=person, code=code, justification=justification, category=category, year=year)
    with transaction.atomic():
        return WaiverRequest.objects.create(
            person=person,
            code=code,
            category=category or "",
            year=year,
            justification=justification.strip(),
            requested_by=requested_by,
            requested_at=at or timezone.now(),
        )


def check_waiver_request_transition(*, current: str, target: str) -> None:
    """Raise ValidationError unless a waiver request may move from ``current`` to ``target`` (decided once)."""
    check_transition(WAIVER_REQUEST_TRANSITIONS, current, target, subject=gettext("a waiver request"), article="R-03")


def waiver_request_decide(
    *, request: WaiverRequest, grant: bool, reason: str, decided_by, at: datetime.datetime | None = None
) -> WaiverRequest:
    """Grant (recording the EligibilityWaiver eligibility reads) or refuse a waiting request, with a reason (R-03).

    The requester is told of the decision.
    """
    check_can_grant_waiver(decided_by)
    if not (reason or "").strip():
        raise ValidationError({"decision_reason": _("R-03: the IHTC's decision on a waiver states its reason.")})
    target = WaiverRequestStatus.GRANTED if grant else WaiverRequestStatus.REFUSED
    at = at or timezone.now()
    with transaction.atomic():
        # Two IHTC members deciding at once: the second sees the first's decision and is refused.
        locked = WaiverRequest.objects.select_for_update(of=("self",)).select_related("person").get(pk=request.pk)
        check_waiver_request_transition(current=locked.status, target=target)
        if grant:
            locked.waiver = waiver_grant(
                person=locked.person,
                code=locked.code,
                category=locked.category,
                year=locked.year,
                reason=reason,
                approved_by=decided_by,
                at=at,
            )
        locked.status = target
        locked.decided_by = decided_by
        locked.decided_at = at
        locked.decision_reason = reason.strip()
        locked.save(update_fields=["status", "decided_by", "decided_at", "decision_reason", "waiver"])
        _tell_requester(locked)
    return locked


def grant_waiver_request(*, by, request: WaiverRequest, reason: str, at=None) -> WaiverRequest:
    """Grant a waiting waiver request (R-03): the person's eligibility then reads the waiver it records."""
    return waiver_request_decide(request=request, grant=True, reason=reason, decided_by=by, at=at)


def refuse_waiver_request(*, by, request: WaiverRequest, reason: str, at=None) -> WaiverRequest:
    """Refuse a waiting waiver request, stating why (R-03)."""
    return waiver_request_decide(request=request, grant=False, reason=reason, decided_by=by, at=at)


def _tell_requester(waiver_request: WaiverRequest) -> None:
    from django.urls import reverse

    from portal.notifications import notify  # the portal's notifications sit above the apps

    granted = waiver_request.status == WaiverRequestStatus.GRANTED
    # Stored as messages, said in each reader's language (issue 26); the IHTC's reasons are its own words.
    person, what = str(waiver_request.person), untranslated(WaivableCode(waiver_request.code).label)
    reason = Words(waiver_request.decision_reason)
    if granted:
        subject = said("Waiver granted: {person}", person=person)
        body = said(
            "The IHTC granted the waiver you asked for {person} ({what}, R-03): {reason}",
            person=person,
            what=what,
            reason=reason,
        )
    else:
        subject = said("Waiver refused: {person}", person=person)
        body = said(
            "The IHTC refused the waiver you asked for {person} ({what}, R-03): {reason}",
            person=person,
            what=what,
            reason=reason,
        )
    notify(
        users=[waiver_request.requested_by],
        key=f"waiver-request:{waiver_request.pk}:{waiver_request.status}",
        subject=subject,
        body=body,
        url=reverse("federation:person-detail", args=[waiver_request.person_id]),
    )


# --- Equipment approval registry (3.2.6 A) ---------------------------------------------


def normalize_certifications(certifications: Iterable[str] | str | None) -> list[str]:
    """Return the certification bodies as an ordered list of upper-case names, or raise ValidationError."""
    if certifications is None:
        return []
    if isinstance(certifications, str):
        certifications = certifications.replace(",", " ").split()
    if not isinstance(certifications, list | tuple | set | frozenset):
        raise ValidationError({"certifications": gettext('Give the certification bodies as a list, e.g. ["CE"].')})
    names = []
    for raw in certifications:
        if not isinstance(raw, str):
            raise ValidationError(
                {"certifications": gettext("%(value)s is not a certification body name.") % {"value": repr(raw)}}
            )
        name = raw.strip().upper()
        if name not in equipment.CERTIFICATION_BODIES:
            raise ValidationError(
                {
                    "certifications": gettext("Rule 3.2.6 A: %(name)s is not one of %(bodies)s.")
                    % {"name": repr(raw.strip()), "bodies": ", ".join(equipment.CERTIFICATION_BODIES)}
                }
            )
        if name not in names:
            names.append(name)
    return names


def check_equipment_approval(*, kind: str, certifications: Iterable[str], approved: bool) -> list[str]:
    """Return the normalised certifications; raise ValidationError if they cannot carry this approval (3.2.6 A)."""
    if kind not in EquipmentKind.values:
        raise ValidationError({"kind": gettext("Unknown equipment kind %(kind)s.") % {"kind": repr(kind)}})
    names = normalize_certifications(certifications)
    if approved:
        violations = equipment.check_certification(kind=kind, certifications=names)
        if violations:
            raise ValidationError({"certifications": [said_now(v.message) for v in violations]})
    return names


def check_can_approve_equipment(user) -> None:
    if not can_approve_equipment(user):
        raise PermissionDenied(gettext("Rule 3.2.6 A: only the IHTC (international staff) approves equipment models."))


def check_can_register_equipment(user) -> None:
    """Federation staff register models in the registry (3.2.6 A); approving them is the IHTC's."""
    if not is_federation_staff(user):
        raise PermissionDenied(gettext("Rule 3.2.6 A: only federation staff register equipment models."))


def _write_equipment_model(item: EquipmentModel, *, by, on: datetime.date | None) -> EquipmentModel:
    check_can_register_equipment(by)
    item.certifications = check_equipment_approval(
        kind=item.kind, certifications=item.certifications, approved=item.approved
    )
    was_approved = bool(item.pk) and EquipmentModel.objects.filter(pk=item.pk, approved=True).exists()
    if item.approved != was_approved:
        check_can_approve_equipment(by)
    if item.approved and not was_approved:
        item.approved_on = on or timezone.localdate()
        item.approved_by = by
    elif not item.approved:
        item.approved_on = None
        item.approved_by = None
    item.full_clean()
    item.save()
    return item


def equipment_model_create(
    *,
    kind: str,
    manufacturer: str,
    model_name: str,
    certifications: Iterable[str] = (),
    approved: bool = False,
    by,
    on: datetime.date | None = None,
) -> EquipmentModel:
    """Register a helmet, face protection or goalkeeper mask model; approving it needs HECC/CSA/CE (3.2.6 A)."""
    item = EquipmentModel(
        kind=kind,
        manufacturer=str(manufacturer or "").strip(),
        model_name=str(model_name or "").strip(),
        certifications=certifications,
        approved=approved,
    )
    with transaction.atomic():
        return _write_equipment_model(item, by=by, on=on)


_EQUIPMENT_MODEL_FIELDS = ("kind", "manufacturer", "model_name", "certifications", "approved")


def equipment_model_update(
    *, equipment_model: EquipmentModel, by, on: datetime.date | None = None, **changes
) -> EquipmentModel:
    """Change a registered model; ``changes`` are any of kind, manufacturer, model_name, certifications, approved."""
    _unknown_fields(changes, _EQUIPMENT_MODEL_FIELDS)
    with transaction.atomic():
        locked = EquipmentModel.objects.select_for_update().get(pk=equipment_model.pk)
        for name, value in changes.items():
            setattr(locked, name, value)
        if locked.approved or set(changes) - {"approved"}:
            # An approved model, or a refused one that was changed, is no longer refused: back in the queue.
            _clear_rejection(locked)
        return _write_equipment_model(locked, by=by, on=on)


def _clear_rejection(item: EquipmentModel) -> None:
    item.rejected_on = None
    item.rejected_by = None
    item.rejection_reason = ""


def equipment_model_waiting(item: EquipmentModel) -> bool:
    """Whether the model waits for the IHTC's decision (3.2.6 A): neither approved nor refused."""
    return not item.approved and item.rejected_on is None


def equipment_model_decide(
    *,
    equipment_model: EquipmentModel,
    approve: bool,
    reason: str = "",
    decided_by,
    on: datetime.date | None = None,
) -> EquipmentModel:
    """Approve or refuse a waiting model (3.2.6 A); approval needs HECC, CSA or CE, a refusal states its reason.

    Two IHTC members deciding at once: the second finds the model decided and is refused.
    """
    check_can_approve_equipment(decided_by)
    reason = (reason or "").strip()
    if not approve and not reason:
        raise ValidationError({"reason": gettext("Rule 3.2.6 A: a refusal states its reason.")})
    with transaction.atomic():
        locked = EquipmentModel.objects.select_for_update().get(pk=equipment_model.pk)
        if not equipment_model_waiting(locked):
            raise ValidationError(
                gettext("Rule 3.2.6 A: %(model)s was decided already (%(decision)s); nothing was changed.")
                % {"model": locked, "decision": gettext("approved") if locked.approved else gettext("refused")}
            )
        if approve:
            locked.approved = True
            return _write_equipment_model(locked, by=decided_by, on=on)
        locked.rejected_on = on or timezone.localdate()
        locked.rejected_by = decided_by
        locked.rejection_reason = reason
        locked.save(update_fields=["rejected_on", "rejected_by", "rejection_reason"])
    return locked


# --- Equipment inspections (3.2.2 C-D, 3.2.5 C-E) -----------------------------------


def _measurement_class(kind: str):
    if kind in (InspectionKind.PLAYER_STICK, InspectionKind.GOALKEEPER_STICK):
        return equipment.StickMeasurements
    return equipment.GoalkeeperEquipmentMeasurements


def measurement_fields(kind: str) -> dict[str, type]:
    """Return the measurements an inspection of ``kind`` takes: name -> float (millimetres) or bool."""
    result = {}
    for f in dataclasses.fields(_measurement_class(kind)):
        if f.name == "goalkeeper":
            continue  # set from the kind, not measured
        result[f.name] = float if f.name.endswith("_mm") else bool
    return result


def check_inspection_measurements(*, kind: str, measurements: Mapping) -> tuple[dict, tuple[equipment.Violation, ...]]:
    """Return (clean measurements, violations) for an inspection, or raise ValidationError on malformed input.

    Malformed input (unknown names, non-numbers, non-positive lengths) is an
    error; a measurement outside its limit is not: it is a violation the
    inspection records, citing 3.2.2 C-D or 3.2.5 C-E.
    """
    if kind not in InspectionKind.values:
        raise ValidationError(
            {
                "kind": gettext("Unknown inspection kind %(kind)s; one of %(choices)s.")
                % {"kind": repr(kind), "choices": ", ".join(InspectionKind.values)}
            }
        )
    if not isinstance(measurements, Mapping):
        raise ValidationError({"measurements": gettext("Give the measurements as an object of name: millimetres.")})
    allowed = measurement_fields(kind)
    problems = []
    clean: dict = {}
    for name, value in measurements.items():
        expected = allowed.get(name)
        if expected is None:
            problems.append(
                gettext("%(name)s is not measured for this kind; expected some of %(fields)s.")
                % {"name": repr(name), "fields": ", ".join(allowed)}
            )
        elif value is None:
            continue
        elif expected is bool:
            if not isinstance(value, bool):
                problems.append(gettext("%(name)s must be true or false.") % {"name": name})
            else:
                clean[name] = value
        elif isinstance(value, bool) or not isinstance(value, numbers.Real):
            problems.append(gettext("%(name)s must be a number of millimetres.") % {"name": name})
        elif not 0 < value < 10000:
            problems.append(
                gettext("%(name)s must be a positive number of millimetres, not %(value)s.")
                % {"name": name, "value": value}
            )
        else:
            clean[name] = float(value)
    if not problems and not any(allowed[name] is float for name in clean):
        problems.append(gettext("Record at least one measurement in millimetres."))
    if problems:
        raise ValidationError({"measurements": problems})
    if kind == InspectionKind.GOALKEEPER_EQUIPMENT:
        violations = equipment.check_goalkeeper_equipment(equipment.GoalkeeperEquipmentMeasurements(**clean))
    else:
        goalkeeper = kind == InspectionKind.GOALKEEPER_STICK
        violations = equipment.check_stick(equipment.StickMeasurements(**clean, goalkeeper=goalkeeper))
    return clean, violations


def equipment_inspection_record(
    *,
    person: Person,
    kind: str,
    measurements: Mapping,
    inspected_by,
    inspected_at: datetime.datetime | None = None,
    notes: str = "",
) -> EquipmentInspection:
    """Record an inspection; its violations are computed here from the measurements, never typed in.

    ``inspected_by`` must keep the person's record or be a game official (3.2.2, 3.2.5: inspected at the rink).
    """
    if not can_record_inspection(inspected_by, person):
        raise PermissionDenied(gettext("Only the person's federation staff and game officials record inspections."))
    clean, violations = check_inspection_measurements(kind=kind, measurements=measurements)
    with transaction.atomic():
        return EquipmentInspection.objects.create(
            person=person,
            kind=kind,
            measurements=clean,
            # Each violation's sentence is stored as its message too ("said"): shown in the reader's language.
            violations=[{**dataclasses.asdict(v), "said": storable(v.message)} for v in violations],
            compliant=not violations,
            notes=notes,
            inspected_by=inspected_by,
            inspected_at=inspected_at or timezone.now(),
        )


# --- Protective device requests (3.2.8 C) -------------------------------------------


def check_device_request(*, description: str, physician: str) -> None:
    errors = {}
    if not (description or "").strip():
        errors["description"] = gettext("Rule 3.2.8 C: describe the protective device.")
    if not (physician or "").strip():
        errors["physician"] = gettext("Rule 3.2.8 C: name the physician who prescribed the device.")
    if errors:
        raise ValidationError(errors)


def check_device_transition(*, current: str, target: str) -> None:
    """Raise ValidationError unless a request may move from ``current`` to ``target`` (DEVICE_REQUEST_TRANSITIONS)."""
    check_transition(
        DEVICE_REQUEST_TRANSITIONS, current, target, subject=gettext("a request"), article=gettext("Rule 3.2.8 C")
    )


def check_can_decide_device_request(user) -> None:
    """3.2.8 C: the IHTC gives (or refuses) permission to play with a prescribed device."""
    if not can_decide_device_request(user):
        raise PermissionDenied(
            gettext("Rule 3.2.8 C: only the IHTC (international staff) decides protective device requests.")
        )


def device_request_submit(
    *,
    person: Person,
    description: str,
    physician: str,
    prescription,
    submitted_by,
    at: datetime.datetime | None = None,
) -> ProtectiveDeviceRequest:
    """Ask the IHTC's permission for ``person`` to wear a physician-prescribed device (3.2.8 C)."""
    check_can_edit_person(submitted_by, person)
    check_device_request(description=description, physician=physician)
    if prescription is None:
        raise ValidationError({"prescription": gettext("Rule 3.2.8 C: attach the physician's prescription.")})
    content_type = check_scan_upload(prescription, field="prescription")
    with transaction.atomic():
        return ProtectiveDeviceRequest.objects.create(
            person=person,
            description=description.strip(),
            physician=physician.strip(),
            prescription=prescription,
            prescription_content_type=content_type,
            status=DeviceRequestStatus.SUBMITTED,
            submitted_by=submitted_by,
            submitted_at=at or timezone.now(),
        )


def device_request_decide(
    *,
    request: ProtectiveDeviceRequest,
    approve: bool,
    reason: str = "",
    decided_by,
    at: datetime.datetime | None = None,
) -> ProtectiveDeviceRequest:
    """Approve or reject a submitted request (3.2.8 C); a rejection states its reason."""
    check_can_decide_device_request(decided_by)
    target = DeviceRequestStatus.APPROVED if approve else DeviceRequestStatus.REJECTED
    if not approve and not (reason or "").strip():
        raise ValidationError({"decision_reason": gettext("Rule 3.2.8 C: a rejection states its reason.")})
    with transaction.atomic():
        # Two IHTC members deciding at once: the second sees the first's decision and is refused.
        locked = ProtectiveDeviceRequest.objects.select_for_update().get(pk=request.pk)
        check_device_transition(current=locked.status, target=target)
        locked.status = target
        locked.decided_by = decided_by
        locked.decided_at = at or timezone.now()
        locked.decision_reason = (reason or "").strip()
        locked.save(update_fields=["status", "decided_by", "decided_at", "decision_reason"])
        _notify_device_decision(locked)
    return locked


def _notify_device_decision(device_request: ProtectiveDeviceRequest) -> None:
    """Tell whoever submitted the request the IHTC's decision (3.2.8 C), in their language."""
    from portal.notifications import notify  # the portal's notifications sit above the apps

    approved = device_request.status == DeviceRequestStatus.APPROVED
    # Stored as messages, said in each reader's language (issue 26); the description and the reasons are the
    # people's own words, never translated.
    person, device = str(device_request.person), Words(device_request.description)
    if approved:
        subject = said("Protective device approved for {person}", person=person)
        body = said("Rule 3.2.8 C: the IHTC allows {person} to wear: {device}.", person=person, device=device)
    else:
        subject = said("Protective device refused for {person}", person=person)
        body = said(
            "Rule 3.2.8 C: the IHTC refused {person}'s request for: {device}. Reason: {reason}",
            person=person,
            device=device,
            reason=Words(device_request.decision_reason),
        )
    notify(
        users=[device_request.submitted_by],
        key=f"device-request:{device_request.pk}:{device_request.status}:{device_request.decided_at.isoformat()}",
        subject=subject,
        body=body,
        url=reverse("federation:person-detail", args=[device_request.person_id]),
    )


def device_request_resubmit(
    *,
    request: ProtectiveDeviceRequest,
    submitted_by,
    description: str | None = None,
    physician: str | None = None,
    prescription=None,
    at: datetime.datetime | None = None,
) -> ProtectiveDeviceRequest:
    """Submit a rejected request again, optionally with a new description, physician or prescription."""
    content_type = check_scan_upload(prescription, field="prescription") if prescription is not None else None
    with transaction.atomic():
        locked = (
            ProtectiveDeviceRequest.objects.select_for_update(of=("self",)).select_related("person").get(pk=request.pk)
        )
        check_can_edit_person(submitted_by, locked.person)
        check_device_transition(current=locked.status, target=DeviceRequestStatus.SUBMITTED)
        if description is not None:
            locked.description = description.strip()
        if physician is not None:
            locked.physician = physician.strip()
        check_device_request(description=locked.description, physician=locked.physician)
        old_name = None
        if content_type:
            old_name = locked.prescription.name
            locked.prescription = prescription
            locked.prescription_content_type = content_type
        locked.status = DeviceRequestStatus.SUBMITTED
        locked.submitted_by = submitted_by
        locked.submitted_at = at or timezone.now()
        # The previous decision stays in the history; the request starts afresh.
        locked.decided_by = None
        locked.decided_at = None
        locked.decision_reason = ""
        locked.save()
        if old_name:
            storage = locked.prescription.storage
            transaction.on_commit(lambda: storage.delete(old_name))
    return locked
