"""Setting up a championship (issue 25, IHTC executive and championship directors): a form with the standings
preset chosen from the presets (9.3) and the ruleset's parameters as labelled fields with their articles
(minutes, fees, deadlines: never a raw JSON box), and publishing after a page that says what becomes public.

The rules stay the services' and the ruleset's (``tournaments.ruleset.ChampionshipRuleset.from_dict`` refuses a
bad value naming the parameter and its rule): this form only says each refusal beside the field it names.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from decimal import Decimal

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.roles import is_federation_staff
from portal.currencies import CurrencyChoiceField
from portal.forms import apply_errors
from portal.i18n import said

from . import services
from .forms import ChampionshipForm
from .models import Game, StandingsPreset, TeamEntry
from .ruleset import ChampionshipRuleset, RulesetError
from .views import _directed_championship


@dataclass(frozen=True)
class Parameter:
    """One ruleset parameter shown as a field: its ruleset key, its label, the article it comes from."""

    section: str
    name: str
    label: object
    article: str
    kind: str = "count"  # count, amount, currency, optional (a count that may be left empty)

    @property
    def field_name(self) -> str:
        return f"{self.section}__{self.name}"


PARAMETERS = (
    Parameter("game", "period_minutes", _("Period length (minutes)"), "1.2 A, R-11"),
    Parameter("game", "halftime_minutes", _("Half-time rest (minutes)"), "1.2 A, R-11"),
    Parameter("game", "overtime_minutes", _("Overtime, elimination games (minutes)"), "1.3 B, R-11"),
    Parameter("game", "timeouts_per_period", _("Time-outs per team and period"), "1.2 B, R-12"),
    Parameter("game", "shootout_shooters", _("Shoot-out shooters per team"), "1.3 E, R-40"),
    Parameter("roster", "min_skaters", _("Fewest players on a roster"), "3.1.1 A, R-04"),
    Parameter("roster", "max_skaters", _("Most players on a roster"), "3.1.1 A, R-04"),
    Parameter("roster", "max_goalkeepers", _("Most goalkeepers on a roster"), "3.1.1 A, R-04"),
    Parameter("protests", "fee_amount", _("Protest fee"), "9.1 A, R-52", "amount"),
    Parameter("protests", "fee_currency", _("Protest fee currency"), "9.1 A, R-52", "currency"),
    Parameter(
        "protests", "administrative_confirm_minutes", _("Administrative protest: confirmed within (minutes)"), "9.1 B"
    ),
    Parameter("protests", "ruling_minutes", _("Protest of a ruling: filed within (minutes)"), "9.1 A, D"),
    Parameter("protests", "federation_minutes", _("Federation's protest: filed within (minutes)"), "9.1 C"),
    Parameter("protests", "answer_minutes", _("Opposing team's answer: within (minutes)"), "9.1 A, R-51"),
    Parameter(
        "appeals", "general_assembly_days", _("Appeal to the General Assembly: within (days)"), "9.2, R-54", "optional"
    ),  # fmt: skip
    Parameter("appeals", "congress_days", _("Appeal to the Congress: within (days)"), "9.2, R-54", "optional"),
)
SECTIONS = (
    ("game", _("Game time")),
    ("roster", _("Rosters")),
    ("protests", _("Protests: fee and deadlines")),
    ("appeals", _("Appeals: deadlines")),
)


def _field(parameter: Parameter, initial) -> forms.Field:
    help_text = gettext("Rule %(article)s") % {"article": parameter.article}
    invalid = {"invalid": gettext("%(article)s: enter a whole number.") % {"article": parameter.article}}
    if parameter.kind == "amount":
        invalid = {"invalid": gettext("%(article)s: enter an amount such as 200.00.") % {"article": parameter.article}}
        return forms.DecimalField(label=parameter.label, help_text=help_text, initial=initial, error_messages=invalid)
    if parameter.kind == "currency":
        # Issue 26: the portal's currencies (PORTAL_CURRENCIES) and the championship's own if it is another.
        return CurrencyChoiceField(label=parameter.label, help_text=help_text, initial=initial, keep=str(initial))
    required = parameter.kind != "optional"
    if not required:
        help_text = gettext("Rule %(article)s; empty: no deadline is set for this championship.") % {
            "article": parameter.article
        }
    return forms.IntegerField(
        label=parameter.label, help_text=help_text, initial=initial, required=required, error_messages=invalid
    )


class ChampionshipSetupForm(ChampionshipForm):
    """The championship's set-up with the standings preset (9.3) and the ruleset's parameters as fields."""

    standings_preset = forms.ChoiceField(
        label=_("Standings rules (preset)"),
        choices=StandingsPreset.choices,
        help_text=_("Points and tie-breakers, Rule 9.3 and R-41, R-42."),
    )

    class Meta(ChampionshipForm.Meta):
        fields = [name for name in services.CHAMPIONSHIP_FIELDS if name != "ruleset"]
        widgets = {name: widget for name, widget in ChampionshipForm.Meta.widgets.items() if name != "ruleset"}

    field_order = [name for name in ChampionshipForm.field_order if name != "ruleset"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.stored_ruleset = dict(self.instance.ruleset or {}) if self.instance.pk else {}
        try:
            current = ChampionshipRuleset.from_dict(self.stored_ruleset)
        except RulesetError:
            current = ChampionshipRuleset()
        self.current_ruleset = current
        for parameter in PARAMETERS:
            value = getattr(getattr(current, parameter.section), parameter.name)
            self.fields[parameter.field_name] = _field(parameter, value)

    def sections(self):
        """The parameters' fields by section, for the template."""
        return [
            (title, [self[p.field_name] for p in PARAMETERS if p.section == section]) for section, title in SECTIONS
        ]

    def setup_fields(self):
        return [self[name] for name in self.fields if "__" not in name]

    def _ruleset(self) -> dict | None:
        """The stored ruleset with the fields' values; None when a value is refused (the error is on its field)."""
        data = copy.deepcopy(self.stored_ruleset)
        defaults = ChampionshipRuleset()
        for parameter in PARAMETERS:
            value = self.cleaned_data.get(parameter.field_name)
            default = getattr(getattr(defaults, parameter.section), parameter.name)
            section = data.setdefault(parameter.section, {})
            if value == default and parameter.name not in section:
                continue
            if isinstance(value, Decimal):
                value = str(value)
            if parameter.kind == "currency" and isinstance(value, str):
                value = value.strip().upper()
            section[parameter.name] = value
        data = {name: section for name, section in data.items() if section != {}}
        try:
            ruleset = ChampionshipRuleset.from_dict(data)
        except RulesetError as exc:
            self._refuse(exc)
            return None
        return None if ruleset == self.current_ruleset and self.instance.pk else data

    def _refuse(self, exc: RulesetError) -> None:
        names = {f"{p.section}.{p.name}": p for p in PARAMETERS}
        parameter = names.get(exc.field)
        if parameter is None:
            self.add_error(None, f"{exc.field}: {said(exc.message)}")
        else:
            self.add_error(parameter.field_name, f"{parameter.label}: {said(exc.message)}")

    def clean(self):
        if not self.errors:
            ruleset = self._ruleset()
            if ruleset is not None:
                self.cleaned_data["ruleset"] = ruleset
        if self.errors:
            return self.cleaned_data
        return super().clean()


@login_required
def championship_edit(request, pk: int | None = None):
    """Set up a new championship, or change one's set-up (its directors)."""
    championship = _directed_championship(request, pk) if pk else None
    if championship is None and not is_federation_staff(request.user):
        # Championships are set up by federation staff; which body a user may sanction is the service's check.
        raise PermissionDenied(gettext("Only federation staff set up championships."))
    form = ChampionshipSetupForm(request.POST or None, instance=championship, by=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            if championship is None:
                saved = services.championship_create(**form.service_values(), by=request.user)
            else:
                saved = services.championship_update(
                    championship=championship, **form.service_values(), by=request.user
                )
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            messages.success(request, gettext("%(name)s saved.") % {"name": saved})
            return redirect("tournaments:championship-detail", pk=saved.pk)
    return render(
        request,
        "tournaments/championship_setup.html",
        {"form": form, "championship": championship},
    )


@login_required
def publish_confirm(request, pk: int):
    """What publishing shows to everyone, before the directors publish (the publish itself: ``championship_publish``)."""
    championship = _directed_championship(request, pk)
    return render(
        request,
        "tournaments/publish_confirm.html",
        {
            "championship": championship,
            "entries": TeamEntry.objects.filter(championship=championship).count(),
            "games": Game.objects.filter(championship=championship).count(),
        },
    )
