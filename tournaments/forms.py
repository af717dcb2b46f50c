"""Forms of the tournament admin and pages. Their ``clean`` calls the services' checks, so a rule is
checked by one function whether the change comes from a form, the API or another service."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from portal.currencies import CurrencyChoiceField, check_portal_currency
from portal.forms import DecimalField, apply_errors

from . import services
from .models import (
    Championship,
    DecidedIn,
    Game,
    GameStatus,
    GoalkeeperRecord,
    GoalRecord,
    NumberChangeApproval,
    PenaltyRecord,
    RosterEntry,
    TeamEntry,
)


class ChampionshipForm(forms.ModelForm):
    """A championship's set-up, for the page and the admin: checked by ``services.check_championship_setup``
    as ``championship_create`` / ``championship_update`` check it; ``service_values`` is what they take."""

    entry_fee = DecimalField(max_digits=10, decimal_places=2, min_value=0)
    entry_fee_currency = CurrencyChoiceField(label=_("Entry fee currency"), initial="USD")

    class Meta:
        model = Championship
        fields = services.CHAMPIONSHIP_FIELDS
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}),
            "end_date": forms.DateInput(attrs={"type": "date"}),
            "entry_closing_date": forms.DateInput(attrs={"type": "date"}),
            "ruleset": forms.Textarea(attrs={"rows": 6}),
        }

    # The currency right after the amount.
    _after_fee = services.CHAMPIONSHIP_FIELDS.index("entry_fee") + 1
    field_order = [
        *services.CHAMPIONSHIP_FIELDS[:_after_fee],
        "entry_fee_currency",
        *services.CHAMPIONSHIP_FIELDS[_after_fee:],
    ]

    def __init__(self, *args, by, **kwargs):
        super().__init__(*args, **kwargs)
        self.by = by
        if self.instance.pk:
            self.initial["entry_fee"] = self.instance.entry_fee.amount
            self.initial["entry_fee_currency"] = str(self.instance.entry_fee.currency)
        # Issue 26: the portal's currencies (PORTAL_CURRENCIES), named in the reader's language; a stored one
        # outside the setting stays offered for this championship.
        self.fields["entry_fee_currency"] = CurrencyChoiceField(
            label=_("Entry fee currency"),
            initial=self.initial.get("entry_fee_currency", "USD"),
            keep=self._stored_currency(),
        )

    def _stored_currency(self) -> str:
        return str(self.instance.entry_fee.currency) if self.instance.pk else ""

    def clean(self):
        cleaned = super().clean()
        if "ruleset" in cleaned:
            cleaned["ruleset"] = cleaned["ruleset"] or {}
        if "entry_fee" in cleaned and "entry_fee_currency" in cleaned:
            try:
                currency = check_portal_currency(
                    cleaned.pop("entry_fee_currency"),
                    field="entry_fee_currency",
                    label=str(self.fields["entry_fee_currency"].label),
                    keep=self._stored_currency(),
                )
                cleaned["entry_fee"] = services.money(cleaned["entry_fee"], currency, field="entry_fee_currency")
            except ValidationError as exc:
                apply_errors(self, exc)
        if not self.errors:
            try:
                services.check_championship_setup(
                    championship=self.instance if self.instance.pk else None, changes=self.service_values(), by=self.by
                )
            except ValidationError as exc:
                apply_errors(self, exc)
        return cleaned

    def service_values(self) -> dict:
        return {name: self.cleaned_data[name] for name in services.CHAMPIONSHIP_FIELDS if name in self.cleaned_data}


class TeamEntryForm(forms.ModelForm):
    """Entering a team (1.1 A); the fee and status change through the services only."""

    class Meta:
        model = TeamEntry
        fields = ["championship", "federation", "name", "managers"]

    def clean(self):
        cleaned = super().clean()
        if self.instance.pk is None and cleaned.get("championship") and cleaned.get("federation"):
            try:
                services.check_federation_may_enter(cleaned["federation"])
                services.check_entries_open(cleaned["championship"], now=timezone.now())
            except ValidationError as exc:
                apply_errors(self, exc)
        return cleaned


class RosterEntryForm(forms.ModelForm):
    """A roster line, checked as the roster services check it (3.1.1, 3.1.2, 3.2.9; R-04..R-06)."""

    class Meta:
        model = RosterEntry
        fields = ["entry", "person", "number", "position", "captain", "alternate"]

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        now = timezone.now()
        changes = {name: cleaned[name] for name in services.ROSTER_LINE_FIELDS}
        try:
            if self.instance.pk is None:
                entry = cleaned["entry"]
                services.check_roster_add(
                    entry=entry, roster=list(entry.roster.all()), person=cleaned["person"], **changes, now=now
                )
            else:
                entry = self.instance.entry
                if cleaned["entry"] != entry or cleaned["person"].pk != self.instance.person_id:
                    raise ValidationError(
                        {"person": gettext("Rule 3.1.1 B: a line is not moved; remove it and add a new one.")}
                    )
                roster = list(entry.roster.all())
                line = next(r for r in roster if r.pk == self.instance.pk)
                services.check_roster_update(entry=entry, roster=roster, line=line, **changes, now=now)
        except ValidationError as exc:
            apply_errors(self, exc)
        return cleaned


class NumberChangeApprovalForm(forms.ModelForm):
    class Meta:
        model = NumberChangeApproval
        fields = ["roster_entry", "new_number", "reason"]

    def clean_new_number(self):
        try:
            return services.check_jersey_number(self.cleaned_data.get("new_number", ""))
        except ValidationError as exc:
            raise ValidationError(exc.message_dict["number"]) from None


class GameForm(forms.ModelForm):
    """Moving a game (no team twice at once, rinks fit for the level) and entering its final result."""

    class Meta:
        model = Game
        fields = [
            "start_at",
            "rink",
            "home_goals",
            "away_goals",
            "decided_in",
            "forfeited_by",
            "shootout_home_goals",
            "shootout_away_goals",
        ]

    def has_result(self) -> bool:
        cleaned = self.cleaned_data
        return bool(cleaned.get("decided_in")) or cleaned.get("home_goals") is not None

    def clean(self):
        cleaned = super().clean()
        game = self.instance
        if self.errors or game.pk is None:
            return cleaned
        try:
            if game.status == GameStatus.FINAL and set(self.changed_data) - {"start_at", "rink"}:
                raise ValidationError(
                    {
                        "home_goals": gettext(
                            "The result is final; it is corrected by an amendment on the game's page or the API."
                        )
                    }
                )
            if {"start_at", "rink"} & set(self.changed_data):
                # What ``game_move`` will do: an empty time or rink keeps the game's.
                services.check_game_move(
                    game, start_at=cleaned.get("start_at") or game.start_at, rink=cleaned.get("rink") or game.rink
                )
            if game.status == GameStatus.FINAL:
                return cleaned
            if self.has_result():
                services.check_result(
                    game,
                    home_goals=cleaned.get("home_goals"),
                    away_goals=cleaned.get("away_goals"),
                    decided_in=cleaned.get("decided_in") or DecidedIn.REGULATION,
                    forfeited_by=cleaned.get("forfeited_by"),
                    shootout_home_goals=cleaned.get("shootout_home_goals"),
                    shootout_away_goals=cleaned.get("shootout_away_goals"),
                    rules=services.championship_standings_rules(game.championship),
                )
        except ValidationError as exc:
            apply_errors(self, exc)
        return cleaned


class _SummaryForm(forms.ModelForm):
    """A line of a game's summary; ``check`` is the service's check for that kind of line."""

    check = None

    def clean(self):
        cleaned = super().clean()
        if self.errors or not self.has_changed() or cleaned.get("DELETE"):
            return cleaned
        record = self.instance
        fields = {f.name for f in record._meta.fields if not f.primary_key}
        for name, value in cleaned.items():
            if name in fields:
                setattr(record, name, value)
        if record.game_id is None or record.entry_id is None:
            return cleaned
        try:
            type(self).check(record)
        except ValidationError as exc:
            apply_errors(self, exc)
        return cleaned


class GoalRecordForm(_SummaryForm):
    check = staticmethod(services.check_goal)

    class Meta:
        model = GoalRecord
        fields = [
            "game",
            "entry",
            "scorer",
            "assist",
            "period",
            "time_tenths",
            "own_goal",
            "empty_net",
            "power_play",
            "shorthanded",
            "penalty_shot",
        ]


class PenaltyRecordForm(_SummaryForm):
    check = staticmethod(services.check_penalty)

    class Meta:
        model = PenaltyRecord
        fields = ["game", "entry", "person", "infraction_code", "minutes", "gives_power_play", "period", "time_tenths"]


class GoalkeeperRecordForm(_SummaryForm):
    check = staticmethod(services.check_goalkeeper_line)

    class Meta:
        model = GoalkeeperRecord
        fields = ["game", "entry", "goalkeeper", "shots_against", "saves", "goals_against"]
