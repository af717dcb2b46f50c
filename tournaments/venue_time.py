"""The venue's clock (architecture principle 4, issue 25): every real time a person reads is shown in the time zone
of the championship's venue, labelled once per page. One function renders an aware datetime in the venue's zone
(``venue_local``, the ``venue_time`` template filter); one says which zone a page's times are in
(``venue_zone_note``, the ``venue_zone`` template tag). The API keeps ISO 8601 with the offset."""

from __future__ import annotations

import datetime
import zoneinfo

from django.utils import timezone
from django.utils.dateformat import DateFormat
from django.utils.formats import date_format, get_format
from django.utils.translation import gettext

from common.text import Moment

# How a page shows a moment: the weekday, then the date and the venue's hour as the reader's locale writes them
# (DATETIME_FORMAT: "Sat 3 Jul 2027, 18:00", "sam. 3 juillet 2027 18:00", "sáb 3 de julio de 2027 a las 18:00";
# issue 26; the English formats are portal/formats/en).
VENUE_FORMAT = "DATETIME_FORMAT"
# Only the hour, in the reader's locale ("18:00").
VENUE_HOUR_FORMAT = "TIME_FORMAT"


def venue_zone(where: object) -> datetime.tzinfo:
    """The time zone of ``where``: a zone, a zone's name, a venue, a championship, or anything with a game or
    championship (a game, a protest, a case, a report)."""
    if isinstance(where, datetime.tzinfo):
        return where
    if isinstance(where, str):
        return zoneinfo.ZoneInfo(where)
    for path in ("zone", "venue", "championship", "game"):
        inner = getattr(where, path, None)
        if inner is not None:
            return venue_zone(inner)
    raise ValueError(f"no venue time zone for {where!r}")


def venue_local(moment: datetime.datetime | None, where: object, fmt: str = VENUE_FORMAT) -> str:
    """``moment`` (aware) as the venue's clock reads it, in the reader's language; empty when there is none."""
    if moment is None or moment == "":
        return ""
    local = timezone.localtime(moment, venue_zone(where))
    if fmt == VENUE_FORMAT:
        return f"{date_format(local, 'D')} {date_format(local, fmt)}"
    return date_format(local, fmt)


def venue_time_formatter(fmt: str = VENUE_FORMAT):
    """``venue_local`` for the many rows of one page (issue 27): the reader's format looked up once and each venue's
    zone once, then ``formatted(moment, where)`` per row, reading as ``venue_local`` does."""
    # The weekday first, as venue_local writes it: one format for both.
    pattern = f"D {get_format(fmt)}" if fmt == VENUE_FORMAT else get_format(fmt)
    zones: dict[object, datetime.tzinfo] = {}

    def formatted(moment: datetime.datetime | None, where: object) -> str:
        if moment is None or moment == "":
            return ""
        key = (type(where), getattr(where, "pk", where))
        zone = zones.get(key)
        if zone is None:
            zone = zones[key] = venue_zone(where)
        return DateFormat(moment.astimezone(zone)).format(pattern)

    return formatted


def venue_stamp(moment: datetime.datetime, where: object) -> Moment:
    """``moment`` as a stored sentence gives it (a case's history, a refusal, an e-mail): the venue's
    ``2027-07-03 18:00 (venue time)`` in English, said in the reader's language and locale where it is shown (a
    ``common.text.Moment``)."""
    return Moment(timezone.localtime(moment, venue_zone(where)), "venue")


def venue_zone_note(where: object = None) -> str:
    """The page's one label of its clock: "Times are the venue's local time (Europe/Rome)"; without ``where`` (a
    list of several championships' games), each row's venue."""
    if where is None or where == "":
        return gettext("Times are local to each game's venue.")
    return gettext("Times are the venue's local time (%(zone)s).") % {"zone": venue_zone(where)}
