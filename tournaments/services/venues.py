"""Venues and their rinks (2.1): set up by those who keep the venues of the venue's country; a venue a
championship uses is changed by that championship's directors (``can_change_venue``)."""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.roles import is_international_staff, staff_federation_ids
from federation.access import can_keep_venues_in
from portal.i18n import said
from portal.services import audited_delete, audited_save
from tournaments import rinks as rink_rules
from tournaments.facts import core_error, field_error, resolve_now
from tournaments.models import Championship, Game, GameStatus, Rink, Venue
from tournaments.services.schedule import rink_dimensions
from tournaments.versions import championships_changed

VENUE_FIELDS = ("name", "city", "country", "time_zone")
RINK_FIELDS = (
    "name",
    "surface",
    "surface_approved_by_ihtc",
    "length_m",
    "width_m",
    "board_height_m",
    "corner_radius_m",
)


def _check_known(changes: dict, fields: Iterable[str], what: str) -> None:
    unknown = sorted(set(changes) - set(fields))
    if unknown:
        message = _("This field is not part of %(what)s (or cannot be changed).") % {"what": what}
        raise ValidationError(dict.fromkeys(unknown, message))


def check_can_keep_venue(user: User, country) -> None:
    """Venues are kept by international staff and by staff of the national federation of their country."""
    if not can_keep_venues_in(user, country):
        raise PermissionDenied(
            _("Only staff of the national federation of the venue's country or international staff keep its venues.")
        )


def championships_at(venue: Venue) -> QuerySet[Championship]:
    """The championships that use the venue: held there, or with games on its rinks (drafts included)."""
    return Championship.objects.filter(Q(venue=venue) | Q(games__rink__venue=venue)).distinct()


def can_change_venue(user: User, venue: Venue) -> bool:
    """Whether the user may change the venue and its rinks (add, change, delete one).

    A venue a championship uses is that championship's: its time zone sets every game's local start, the
    deadlines and the reports, its rinks host the games (2.1 C, F). Only the championship's directors (staff of
    its sanctioning body) and international staff change it; with several championships, the directors of each.
    A venue no championship uses is kept by staff of its country's national federation (``can_keep_venues_in``).
    """
    if is_international_staff(user):
        return True
    bodies = set(championships_at(venue).values_list("sanctioning_body_id", flat=True))
    if bodies:
        return bodies <= staff_federation_ids(user)
    return can_keep_venues_in(user, venue.country)


def check_can_change_venue(user: User, venue: Venue) -> None:
    """Refuse a change of the venue or its rinks to whoever ``can_change_venue`` does not allow (403)."""
    if can_change_venue(user, venue):
        return
    if championships_at(venue).exists():
        # No championship named: a draft is no one's business but its directors'.
        raise PermissionDenied(
            _(
                "%(venue)s is the venue of a championship: only the championship's directors (staff of its sanctioning body) or international staff change it or its rinks."
            )
            % {"venue": venue}
        )
    check_can_keep_venue(user, venue.country)


def check_time_zone_change(venue: Venue, time_zone: str, *, now: datetime.datetime | None = None) -> None:
    """Refuse a new time zone once a game at the venue has started (portal rule, 5.4 B).

    5.4 B: a game starts at the time scheduled, which the venue's clock shows. Once a game there has started
    (its live sheet is open or final, its result is final, or its scheduled time has come), its local start,
    its protest deadlines and its reports have been given in the venue's time zone; a new zone would move them
    all after the fact. Times are stored in UTC: the zone only says how they read at the venue.
    """
    if venue.pk is None or time_zone == Venue.objects.filter(pk=venue.pk).values_list("time_zone", flat=True)[0]:
        return
    started = Game.objects.filter(Q(rink__venue=venue) | Q(championship__venue=venue)).filter(
        Q(status=GameStatus.FINAL) | Q(sheet__isnull=False) | Q(start_at__lte=resolve_now(now))
    )
    first = started.order_by("start_at", "pk").select_related("championship").first()
    if first is not None:
        raise field_error(
            "time_zone",
            _(
                "Portal rule (venue time zone, 5.4 B): the time zone of %(venue)s cannot change once a game there has started (game #%(number)s of %(championship)s); its games' local times, deadlines and reports were given in it."
            )
            % {"venue": venue, "number": first.number, "championship": first.championship},
        )


def _check_venue(venue: Venue) -> None:
    """The model's own checks (an IANA time zone, lengths), and one venue per name in a city."""
    venue.full_clean(validate_constraints=False)
    if Venue.objects.filter(name=venue.name, city=venue.city).exclude(pk=venue.pk).exists():
        raise field_error(
            "name", _("%(city)s has a venue named %(name)s already.") % {"city": venue.city, "name": repr(venue.name)}
        )


def venue_create(*, name: str, city: str, country: str, time_zone: str, by: User) -> Venue:
    """Set up a venue in ``country``, for staff of that country's national federation or international staff."""
    check_can_keep_venue(by, country)
    venue = Venue(name=(name or "").strip(), city=(city or "").strip(), country=country, time_zone=time_zone)
    _check_venue(venue)
    with transaction.atomic():
        audited_save(venue, by)
    return venue


def venue_update(*, venue: Venue, by: User, **changes) -> Venue:
    """Change a venue (``changes``: any of VENUE_FIELDS), for those who ``can_change_venue``; moving it to another
    country needs the right there too; its time zone stays once a game there has started."""
    _check_known(changes, VENUE_FIELDS, _("a venue"))
    check_can_change_venue(by, venue)
    if "country" in changes and changes["country"] != venue.country:
        check_can_keep_venue(by, changes["country"])
    with transaction.atomic():
        stored = Venue.objects.select_for_update().get(pk=venue.pk)
        if "time_zone" in changes:
            check_time_zone_change(stored, changes["time_zone"])
        for name, value in changes.items():
            setattr(stored, name, value.strip() if name in ("name", "city") else value)
        _check_venue(stored)
        if changes:
            audited_save(stored, by, update_fields=list(changes))
            championships_changed(championships_at(stored).values_list("pk", flat=True))
    return stored


def _rink_violations(rink: Rink) -> dict[str, list[str]]:
    """What refuses the rink: 2.1 A, B and E for any rink (the national minimum of 40 x 20 m), and 2.1 C
    for the level of each championship whose games are scheduled on it."""
    found: dict[str, list[str]] = {}
    dimensions = rink_dimensions(rink)
    try:
        for violation in rink_rules.rink_errors(dimensions, level=rink_rules.NATIONAL):
            found.setdefault(violation.field, []).append(said(violation.message))  # in the reader's language
        if rink.pk is not None and not found:
            hosting = Championship.objects.filter(games__rink=rink).distinct().order_by("name")
            for championship in hosting:
                for violation in rink_rules.rink_errors(dimensions, level=championship.level):
                    found.setdefault(violation.field, []).append(
                        _("%(problem)s (%(championship)s plays its games on this rink)")
                        % {"problem": said(violation.message), "championship": championship}
                    )
    except rink_rules.RinkError as exc:
        raise core_error(exc) from None
    return found


def check_rink(rink: Rink, *, approval_changed: bool, by: User) -> None:
    """Refuse a rink the rules do not allow, naming the field and the article (measurements in metres).

    2.1 A: a surface other than sport tile, wood, asphalt or cement needs the
    IHTC's approval, which only international staff record; 2.1 B: 40-60 m by
    20-30 m; 2.1 E: boards 101-122 cm high; 2.1 C: a rink that hosts games of
    a championship keeps the minimum of its level.
    """
    if approval_changed and not is_international_staff(by):
        raise field_error(
            "surface_approved_by_ihtc", _("Rule 2.1 A: the IHTC approves another surface; only its staff record it.")
        )
    found = _rink_violations(rink)
    if found:
        raise ValidationError(found)


def _check_rink_record(rink: Rink) -> None:
    """The model's own checks (numbers that fit the columns, a known surface), and one rink per name at a venue."""
    rink.full_clean(validate_constraints=False)
    if Rink.objects.filter(venue_id=rink.venue_id, name=rink.name).exclude(pk=rink.pk).exists():
        raise field_error(
            "name", _("%(venue)s has a rink named %(name)s already.") % {"venue": rink.venue, "name": repr(rink.name)}
        )


def rink_create(*, venue: Venue, by: User, **fields) -> Rink:
    """Add a rink to a venue (``fields``: RINK_FIELDS), for those who ``can_change_venue``; checked against 2.1."""
    _check_known(fields, RINK_FIELDS, _("a rink"))
    check_can_change_venue(by, venue)
    rink = Rink(venue=venue, **fields)
    if isinstance(rink.name, str):
        rink.name = rink.name.strip()
    _check_rink_record(rink)
    check_rink(rink, approval_changed=bool(rink.surface_approved_by_ihtc), by=by)
    with transaction.atomic():
        audited_save(rink, by)
        championships_changed(championships_at(venue).values_list("pk", flat=True))
    return rink


def rink_update(*, rink: Rink, by: User, **changes) -> Rink:
    """Change a rink's name, surface or measurements (``changes``: any of RINK_FIELDS), for those who
    ``can_change_venue``; checked against 2.1."""
    _check_known(changes, RINK_FIELDS, _("a rink"))
    check_can_change_venue(by, rink.venue)
    with transaction.atomic():
        # Two keepers changing one rink at once: the second works on the first's result.
        stored = Rink.objects.select_for_update(of=("self",)).select_related("venue").get(pk=rink.pk)
        approved = stored.surface_approved_by_ihtc
        for name, value in changes.items():
            setattr(stored, name, value.strip() if name == "name" and isinstance(value, str) else value)
        _check_rink_record(stored)
        check_rink(stored, approval_changed=stored.surface_approved_by_ihtc != approved, by=by)
        if changes:
            audited_save(stored, by, update_fields=list(changes))
            # The championship pages show the venue's rinks with their dimensions (2.1 F).
            championships_changed(championships_at(stored.venue).values_list("pk", flat=True))
    return stored


def rink_delete(*, rink: Rink, by: User) -> None:
    """Remove a rink from its venue, for those who ``can_change_venue``; a rink games are scheduled on stays
    (2.1 F: the championship's games are played on its venue's published rinks)."""
    check_can_change_venue(by, rink.venue)
    with transaction.atomic():
        stored = Rink.objects.select_for_update(of=("self",)).select_related("venue").get(pk=rink.pk)
        scheduled = Game.objects.filter(rink=stored).select_related("championship").order_by("pk").first()
        if scheduled is not None:
            raise field_error(
                "rink",
                _(
                    "Rule 2.1 F: game #%(number)s of %(championship)s is scheduled on %(stored)s; move the games to another rink first."
                )
                % {"number": scheduled.number, "championship": scheduled.championship, "stored": stored},
            )
        audited_delete(stored, by)
        championships_changed(championships_at(stored.venue).values_list("pk", flat=True))
