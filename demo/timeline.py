"""When the demo world happens: around the day it is built, on the venue's clock (plain Python, no Django).

``demo.data`` keeps the world's dates as they were written, for a championship starting on
``REFERENCE_START``. ``Timeline(now)`` moves them whole days so that the championship's first day is
yesterday on the venue's clock: yesterday's games are final, today's are being played (one of them live, one
ended an hour ago), the hearing is tomorrow. Local times stay local (``local``: a date and a wall-clock time in
the venue's zone, so a daylight-saving change between two days moves nothing on the venue's clock), and the
same ``now`` always gives the same world.
"""

from __future__ import annotations

import datetime
import zoneinfo
from dataclasses import dataclass

UTC = datetime.UTC
DAY = datetime.timedelta(days=1)

# The first day of the championship as the data were written (demo.data.CHAMPIONSHIP.start_date).
REFERENCE_START = datetime.date(2027, 7, 3)


@dataclass(frozen=True)
class Timeline:
    """The demo world's dates for a world built at ``now`` (an aware datetime) in the venue's ``time_zone``."""

    now: datetime.datetime
    time_zone: str = "Europe/Rome"

    def __post_init__(self) -> None:
        if self.now.tzinfo is None:
            raise ValueError("the demo's now is an aware datetime")
        object.__setattr__(self, "now", self.now.astimezone(UTC))

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.time_zone)

    @property
    def today(self) -> datetime.date:
        """Today on the venue's clock: the championship's second day."""
        return self.now.astimezone(self.zone).date()

    @property
    def start(self) -> datetime.date:
        """The championship's first day: yesterday on the venue's clock."""
        return self.today - DAY

    @property
    def shift(self) -> datetime.timedelta:
        """How far the data's dates move: from ``REFERENCE_START`` to ``start``."""
        return self.start - REFERENCE_START

    @property
    def years(self) -> int:
        """Whole years the data's years move (birth years, passport expiry years)."""
        return self.start.year - REFERENCE_START.year

    def day(self, written: datetime.date) -> datetime.date:
        """A date of the data, moved with the championship."""
        return written + self.shift

    def year(self, written: int) -> int:
        return written + self.years

    def local(self, written: datetime.date, at: datetime.time) -> datetime.datetime:
        """A date of the data at a wall-clock time of the venue, as an aware UTC datetime."""
        return datetime.datetime.combine(self.day(written), at, tzinfo=self.zone).astimezone(UTC)

    def utc(self, written: datetime.date, hour: int = 12, minute: int = 0) -> datetime.datetime:
        """A date of the data at an hour in UTC (when something was done: entries, fees, approvals)."""
        day = self.day(written)
        return datetime.datetime(day.year, day.month, day.day, hour, minute, tzinfo=UTC)

    def venue(self, day: datetime.date, hour: int, minute: int = 0) -> datetime.datetime:
        """A day (already moved) at a wall-clock time of the venue, as an aware UTC datetime."""
        return datetime.datetime.combine(day, datetime.time(hour, minute), tzinfo=self.zone).astimezone(UTC)

    # --- today, relative to now -------------------------------------------------------------------------------

    @property
    def live_face_off(self) -> datetime.datetime:
        """The live game's face-off: ten minutes ago (its first period is under way when the portal starts)."""
        return self.now - datetime.timedelta(minutes=10)

    @property
    def recent_end(self) -> datetime.datetime:
        """When the game that ended an hour ago ended (its administrative protest window, 9.1 B, still open)."""
        return self.now - datetime.timedelta(hours=1)

    @property
    def recent_face_off(self) -> datetime.datetime:
        return self.recent_end - datetime.timedelta(minutes=100)

    def later_today(self, hours: int) -> datetime.datetime:
        """A game still to play: ``hours`` from now, on the next quarter hour of the venue's clock."""
        at = (self.now + datetime.timedelta(hours=hours)).astimezone(self.zone).replace(second=0, microsecond=0)
        at += datetime.timedelta(minutes=-at.minute % 15)
        return at.astimezone(UTC)

    @property
    def hearing_at(self) -> datetime.datetime:
        """The case's hearing: tomorrow at 10:00 on the venue's clock."""
        return self.venue(self.today + DAY, 10)
