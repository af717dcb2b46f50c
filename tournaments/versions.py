"""The version of a championship's public data: what its cached pages and API answers are keyed by (issue 27).

Every service that changes what the public pages of a championship show (a result, a summary line, the schedule,
the pools and the bracket, an entry, a roster, the set-up, publishing; the games' officials and protest marks)
calls ``championship_changed`` inside its transaction, so the new version and the new data commit together: the
next request reads the new version and renders afresh, never a stale page. A game's live pages add the sheet's
own version, its ``sequence`` (``games.models.GameSheet``).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import F

from .models import Championship


def championship_changed(*championship_ids: int | None) -> None:
    """Add one to the data version of each championship named (None is left out: a game without one)."""
    ids = {pk for pk in championship_ids if pk is not None}
    if ids:
        # An UPDATE with F(): two services committing at once both count, and no history row is written.
        Championship.objects.filter(pk__in=ids).update(data_version=F("data_version") + 1)


def championships_changed(championship_ids: Iterable[int]) -> None:
    """``championship_changed`` for many (a venue's or a rink's change reaches every championship held there)."""
    championship_changed(*championship_ids)


def data_version(championship_id: int) -> int:
    """The championship's data version as stored now (0 for one that does not exist)."""
    version = Championship.objects.filter(pk=championship_id).values_list("data_version", flat=True).first()
    return version or 0
