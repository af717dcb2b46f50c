"""Forms of the tournament admin and pages. Their ``clean`` calls the services' checks, so a rule is
checked by one function whether the change comes from a form, the API or another service."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone

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


def _apply(form: forms.BaseForm, exc: ValidationError) -> None:
    """Show a service's error beside its field when the form has it, else at the top."""
    for field, messages in exc.message_dict.items():
        form.add_error(field if field in form.fields else None, messages)


class ChampionshipForm(forms.ModelForm):
    class Meta:
        model = Championship
        fields = [
            "name",
            "category",
            "level",
            "start_date",
            "end_date",
            "venue",
            "entry_closing_date",
            "entry_fee",
            "sanctioning_body",
            "ruleset",
            "standings_preset",
        ]

    def clean_ruleset(self):
        data = self.cleaned_data.get("ruleset") or {}
        try:
            services.check_ruleset(data)
        except ValidationError as exc:
            raise ValidationError(exc.message_dict["ruleset"]) from None
        return data

    def clean(self):
        cleaned = super().clean()
        if self.instance.pk and ({"ruleset", "standings_preset"} & set(self.changed_data)):
            try:
                services.check_ruleset_editable(self.instance)
            except ValidationError as exc:
                _apply(self, exc)
        return cleaned


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
                _apply(self, exc)
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
        try:
            if self.instance.pk is None:
                entry = cleaned["entry"]
                services.check_roster_add(
                    entry=entry,
                    roster=list(entry.roster.all()),
                    person=cleaned["person"],
                    number=cleaned["number"],
                    position=cleaned["position"],
                    captain=cleaned["captain"],
                    alternate=cleaned["alternate"],
                    now=now,
                )
            else:
                entry = self.instance.entry
                if cleaned["entry"] != entry or cleaned["person"].pk != self.instance.person_id:
                    raise ValidationError({"person": "Rule 3.1.1 B: a line is not moved; remove it and add a new one."})
                roster = list(entry.roster.all())
                line = next(r for r in roster if r.pk == self.instance.pk)
                services.check_roster_update(
                    entry=entry,
                    roster=roster,
                    line=line,
                    number=cleaned["number"],
                    position=cleaned["position"],
                    captain=cleaned["captain"],
                    alternate=cleaned["alternate"],
                    now=now,
                )
        except ValidationError as exc:
            _apply(self, exc)
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
            if game.status == GameStatus.FINAL:
                if set(self.changed_data) - {"start_at", "rink"}:
                    raise ValidationError({"home_goals": "the result is final"})
                if {"start_at", "rink"} & set(self.changed_data):
                    raise ValidationError({"start_at": "a final game cannot be moved"})
                return cleaned
            if {"start_at", "rink"} & set(self.changed_data):
                rink = cleaned.get("rink")
                if rink is not None and rink != game.rink:
                    services.check_rink_for(rink, game.championship)
                if cleaned.get("start_at") is not None:
                    problems = services.game_conflicts(game, start_at=cleaned["start_at"], rink=rink)
                    if problems:
                        raise ValidationError({"start_at": problems})
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
            _apply(self, exc)
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
            _apply(self, exc)
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
