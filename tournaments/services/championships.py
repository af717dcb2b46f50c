"""Championship set-up: the ruleset, the standings preset and who directs a championship."""

from __future__ import annotations

import datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from djmoney.money import Money
from moneyed import CurrencyDoesNotExist

from accounts.models import User
from accounts.roles import is_international_staff
from federation.access import can_edit_federation
from federation.models import Federation
from portal.services import audited_save
from tournaments.facts import (
    championship_has_begun,
    check_ruleset,
    field_error,
)
from tournaments.models import (
    Championship,
    Game,
    StandingsPreset,
    Venue,
)
from tournaments.standings import PRESETS
from tournaments.versions import championship_changed


def check_ruleset_editable(championship: Championship, *, now: datetime.datetime | None = None) -> None:
    """Refuse a ruleset change once the championship has begun: the parameters it is played under stay fixed."""
    if championship.pk and championship_has_begun(championship, now=now):
        raise field_error(
            "ruleset",
            _(
                "Rules interpretation (ruleset parameters): the ruleset is frozen once the championship has begun (its first game has started, 3.1.1 B)."
            ),
        )


def check_standings_preset(preset: str) -> None:
    """Refuse a standings preset the standings do not know (9.3 and the presets of rules-interpretation.md)."""
    if preset not in PRESETS:
        raise field_error(
            "standings_preset",
            _("unknown preset %(preset)s; one of %(presets)s")
            % {"preset": repr(preset), "presets": ", ".join(PRESETS)},
        )


def championship_update_ruleset(
    *,
    championship: Championship,
    ruleset: dict,
    standings_preset: str | None = None,
    by: User,
    now: datetime.datetime | None = None,
) -> Championship:
    """Change the championship's ruleset parameters and standings preset before it begins."""
    check_can_direct(by, championship)
    check_ruleset(ruleset)
    if standings_preset is not None:
        check_standings_preset(standings_preset)
    with transaction.atomic():
        championship = (
            Championship.objects.select_for_update(of=("self",)).select_related("venue").get(pk=championship.pk)
        )
        check_ruleset_editable(championship, now=now)
        championship.ruleset = ruleset
        fields = ["ruleset"]
        if standings_preset is not None:
            championship.standings_preset = standings_preset
            fields.append("standings_preset")
        audited_save(championship, by, update_fields=fields)
        championship_changed(championship.pk)
    return championship


# What a championship's set-up is made of; the ruleset and its preset change through ``championship_update_ruleset``.
CHAMPIONSHIP_SETUP_FIELDS = (
    "name",
    "category",
    "level",
    "start_date",
    "end_date",
    "venue",
    "entry_closing_date",
    "entry_fee",
    "sanctioning_body",
)
CHAMPIONSHIP_FIELDS = (*CHAMPIONSHIP_SETUP_FIELDS, "standings_preset", "ruleset")


def money(amount, currency: str, *, field: str = "currency") -> Money:
    """Return the amount in the currency named by its ISO 4217 code (any case); refuse a code that names none."""
    code = (currency or "").strip().upper()
    try:
        return Money(amount, code)
    except CurrencyDoesNotExist:
        raise field_error(
            field, _("%(currency)s is not an ISO 4217 currency code (e.g. USD, EUR).") % {"currency": repr(currency)}
        ) from None


def check_championship_setup(
    *,
    championship: Championship | None,
    changes: dict,
    by: User,
    now: datetime.datetime | None = None,
) -> None:
    """Refuse a set-up (``championship`` None: a new one) that ``by`` may not make or the rules do not allow.

    The championship's directors change it, and only to a sanctioning body
    they direct; the ruleset parameters must be valid; the ruleset and its
    standings preset are frozen once the championship has begun (3.1.1 B);
    its dates (and venue) keep every game within them (``check_games_within_dates``).
    The model's own validation (dates, 1.1 A closing date) is the caller's
    ``full_clean``, which a form runs itself.
    """
    unknown = sorted(set(changes) - set(CHAMPIONSHIP_FIELDS))
    if unknown:
        raise ValidationError(dict.fromkeys(unknown, "This field is not part of a championship's set-up."))
    if championship is not None:
        check_can_direct(by, championship)
    body = changes.get("sanctioning_body") or (championship.sanctioning_body if championship else None)
    if body is None:
        raise field_error("sanctioning_body", _("name the federation that sanctions the championship"))
    # The (new) sanctioning body's staff or international staff direct the championship.
    check_can_sanction(by, body)
    if "ruleset" in changes:
        check_ruleset(changes["ruleset"])
    if "standings_preset" in changes:
        check_standings_preset(changes["standings_preset"])
    if championship is not None and _ruleset_changes(championship, changes):
        check_ruleset_editable(championship, now=now)
    if championship is not None and {"start_date", "end_date", "venue"} & set(changes):
        check_games_within_dates(
            championship,
            start_date=changes.get("start_date", championship.start_date),
            end_date=changes.get("end_date", championship.end_date),
            venue=changes.get("venue", championship.venue),
        )
    if championship is not None and changes.get("venue", championship.venue) != championship.venue:
        check_rinks_of_games_at(championship, venue=changes["venue"])


def check_rinks_of_games_at(championship: Championship, *, venue: Venue) -> None:
    """Refuse a venue whose rinks do not host the championship's scheduled games (2.1 F: the venue's rinks)."""
    elsewhere = Game.objects.filter(championship=championship, rink__isnull=False).exclude(rink__venue=venue)
    number = elsewhere.order_by("number").values_list("number", flat=True).first()
    if number is not None:
        raise field_error(
            "venue",
            _(
                "Rule 2.1 F: game #%(number)s is scheduled on a rink of %(old_venue)s; move the games to rinks of %(venue)s first."
            )
            % {"number": number, "old_venue": championship.venue, "venue": venue},
        )


def check_games_within_dates(
    championship: Championship, *, start_date: datetime.date, end_date: datetime.date, venue: Venue
) -> None:
    """Refuse dates that leave a game of the championship outside them: its games are played on its days.

    A championship's days are the venue's (``venue_today``), as the schedule's
    days are (``schedule_generate``); move the games first, then the dates.
    """
    if start_date is None or end_date is None or venue is None:
        return  # the model's own validation names the missing field
    starts = Game.objects.filter(championship=championship, start_at__isnull=False).values_list("number", "start_at")
    for number, start_at in starts.order_by("start_at"):
        day = start_at.astimezone(venue.zone).date()
        if day < start_date:
            raise field_error(
                "start_date",
                _(
                    "Game #%(number)s is played on %(day)s (venue time), before %(start_date)s: the championship's games lie within its dates; move the game first."
                )
                % {"number": number, "day": day, "start_date": start_date},
            )
        if day > end_date:
            raise field_error(
                "end_date",
                _(
                    "Game #%(number)s is played on %(day)s (venue time), after %(end_date)s: the championship's games lie within its dates; move the game first."
                )
                % {"number": number, "day": day, "end_date": end_date},
            )


def _ruleset_changes(championship: Championship, changes: dict) -> dict:
    """The ruleset parameters and preset among ``changes`` that differ from the championship's."""
    return {
        name: changes[name]
        for name in ("ruleset", "standings_preset")
        if name in changes and changes[name] != getattr(championship, name)
    }


def championship_create(
    *,
    name: str,
    category: str,
    level: str,
    start_date: datetime.date,
    end_date: datetime.date,
    venue: Venue,
    entry_closing_date: datetime.date,
    entry_fee: Money,
    sanctioning_body: Federation,
    standings_preset: str = StandingsPreset.FIRS_2017,
    ruleset: dict | None = None,
    by: User,
) -> Championship:
    """Set up a championship, for staff of its sanctioning body or international staff."""
    fields = {
        "name": name,
        "category": category,
        "level": level,
        "start_date": start_date,
        "end_date": end_date,
        "venue": venue,
        "entry_closing_date": entry_closing_date,
        "entry_fee": entry_fee,
        "sanctioning_body": sanctioning_body,
        "standings_preset": standings_preset,
        "ruleset": ruleset or {},
    }
    check_championship_setup(championship=None, changes=fields, by=by)
    championship = Championship(**fields)
    championship.full_clean()
    with transaction.atomic():
        audited_save(championship, by)
    return championship


def championship_update(
    *,
    championship: Championship,
    by: User,
    now: datetime.datetime | None = None,
    **changes,
) -> Championship:
    """Change a championship's set-up (``changes``: any of CHAMPIONSHIP_FIELDS), for its directors.

    A changed ruleset or standings preset goes through ``championship_update_ruleset``,
    which refuses it once the championship has begun; nothing is saved then.
    """
    check_can_direct(by, championship)
    with transaction.atomic():
        # Two directors editing at once: the second works on the first's result.
        stored = Championship.objects.select_for_update(of=("self",)).select_related("venue").get(pk=championship.pk)
        check_championship_setup(championship=stored, changes=changes, by=by, now=now)
        ruleset_changes = _ruleset_changes(stored, changes)
        setup = [name for name in CHAMPIONSHIP_SETUP_FIELDS if name in changes]
        for name in setup:
            setattr(stored, name, changes[name])
        stored.full_clean(exclude=["ruleset", "standings_preset"])
        if setup:
            # The money field is stored as two columns: amount and currency.
            columns = [*setup, "entry_fee_currency"] if "entry_fee" in setup else setup
            audited_save(stored, by, update_fields=columns)
            championship_changed(stored.pk)
        if ruleset_changes:
            stored = championship_update_ruleset(
                championship=stored,
                ruleset=ruleset_changes.get("ruleset", stored.ruleset),
                standings_preset=ruleset_changes.get("standings_preset"),
                by=by,
                now=now,
            )
    return stored


def championship_publish(*, championship: Championship, by: User) -> Championship:
    """Publish a draft championship: from now on everyone sees it, its teams, rosters, schedule and results.

    For its directors (staff of the sanctioning body, international staff).
    Publishing is not undone here: what the public has read stays published.
    """
    check_can_direct(by, championship)
    with transaction.atomic():
        stored = Championship.objects.select_for_update(of=("self",)).select_related("venue").get(pk=championship.pk)
        if stored.published:
            raise field_error("published", _("%(stored)s is already published.") % {"stored": stored})
        stored.published = True
        audited_save(stored, by, update_fields=["published"])
        championship_changed(stored.pk)
    return stored


def check_can_sanction(user: User, federation: Federation) -> None:
    """Tournament direction: staff of the sanctioning body, or international staff."""
    if not (is_international_staff(user) or can_edit_federation(user, federation)):
        raise PermissionDenied(_("Only staff of the sanctioning body or international staff may do this."))


def check_can_direct(user: User, championship: Championship) -> None:
    """Tournament direction: staff of the championship's sanctioning body, or international staff."""
    check_can_sanction(user, championship.sanctioning_body)
