"""django-filter FilterSets of the championship API lists.

A value that does not parse (a date, an id, a choice) is a 400 naming the
parameter, never an empty list by accident and never a 500.
"""

from __future__ import annotations

import django_filters
from django.db.models import Q
from django.utils.translation import gettext_lazy

from portal.filters import SafeIsoDateTimeFilter, id_filter

from .models import (
    CATEGORY_CHOICES,
    Championship,
    EntryStatus,
    Game,
    GameStatus,
    GoalRecord,
    Level,
    PenaltyRecord,
    PhaseKind,
    Pool,
    Position,
    Rink,
    RosterEntry,
    TeamEntry,
    Venue,
)


class ChampionshipFilter(django_filters.FilterSet):
    category = django_filters.ChoiceFilter(choices=CATEGORY_CHOICES)
    level = django_filters.ChoiceFilter(choices=Level.choices)
    starts_after = django_filters.DateFilter(field_name="start_date", lookup_expr="gte")
    starts_before = django_filters.DateFilter(field_name="start_date", lookup_expr="lte")
    year = django_filters.NumberFilter(field_name="start_date", lookup_expr="year", min_value=1900, max_value=2200)

    class Meta:
        model = Championship
        fields = ["category", "level", "venue", "sanctioning_body"]


class VenueFilter(django_filters.FilterSet):
    class Meta:
        model = Venue
        fields = ["country", "city"]


class RinkFilter(django_filters.FilterSet):
    venue = id_filter(field_name="venue")

    class Meta:
        model = Rink
        fields = ["venue"]


class EntryFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=EntryStatus.choices)

    class Meta:
        model = TeamEntry
        fields = ["championship", "federation", "status", "fee_paid"]


class RosterEntryFilter(django_filters.FilterSet):
    championship = id_filter(field_name="entry__championship")
    position = django_filters.ChoiceFilter(choices=Position.choices)

    class Meta:
        model = RosterEntry
        fields = ["entry", "championship", "position", "confirmed"]


class PoolFilter(django_filters.FilterSet):
    class Meta:
        model = Pool
        fields = ["championship"]


class GameFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=GameStatus.choices)
    phase = django_filters.ChoiceFilter(field_name="phase__kind", choices=PhaseKind.choices)
    team = id_filter(method="filter_team", label=gettext_lazy("Entry id, home or away"))
    starts_after = SafeIsoDateTimeFilter(field_name="start_at", lookup_expr="gte")
    starts_before = SafeIsoDateTimeFilter(field_name="start_at", lookup_expr="lt")

    class Meta:
        model = Game
        fields = ["championship", "pool", "rink", "status", "phase", "team", "bracket_slot"]

    def filter_team(self, queryset, name, value):
        return queryset.filter(Q(home_id=value) | Q(away_id=value))


class GoalFilter(django_filters.FilterSet):
    championship = id_filter(field_name="game__championship")

    class Meta:
        model = GoalRecord
        fields = ["game", "championship", "entry", "scorer"]


class PenaltyFilter(django_filters.FilterSet):
    championship = id_filter(field_name="game__championship")

    class Meta:
        model = PenaltyRecord
        fields = ["game", "championship", "entry", "person"]
