"""Championship pages: public reads, tournament direction (staff) and the team manager's entry.

Views translate: they read through ``tournaments.selectors``, change state
through ``tournaments.services`` and show a service's error beside the field
it names (the message cites the article or R-id). No rule is checked here.
"""

from __future__ import annotations

import datetime
import zoneinfo
from collections import OrderedDict

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext
from django.views.decorators.http import require_POST

from accounts.roles import is_federation_staff
from federation.access import federations_registering_for
from federation.models import Federation, Person
from portal.forms import DecimalField, IntegerField, apply_errors, focus_first_error
from portal.i18n import said_errors
from portal.page_cache import page_key, public_page

from . import hooks as tournament_hooks
from . import rinks as rink_rules
from . import roster_files, selectors, services
from .models import (
    Championship,
    DecidedIn,
    EntryStatus,
    Game,
    GameStatus,
    GoalRecord,
    OfficialRole,
    Pool,
    Position,
    Rink,
    RosterEntry,
    TeamEntry,
)

LEADERS = selectors.LEADERS

# --- forms ----------------------------------------------------------------------------------------------------------


class FeePaidForm(forms.Form):
    amount = DecimalField(label=gettext_lazy("Amount"), max_digits=10, decimal_places=2, min_value=0)
    currency = forms.CharField(label=gettext_lazy("Currency"), max_length=3)


def _parse_list(value: str, parse, empty: str, invalid: str) -> list:
    items = [item.strip() for item in value.replace("\n", ",").split(",") if item.strip()]
    if not items:
        raise ValidationError(empty)
    try:
        return [parse(item) for item in items]
    except ValueError:
        raise ValidationError(invalid) from None


class ScheduleForm(forms.Form):
    days = forms.CharField(
        label=gettext_lazy("Days"), help_text=gettext_lazy("Dates at the venue, YYYY-MM-DD, separated by commas.")
    )
    slot_times = forms.CharField(
        label=gettext_lazy("Slot times"),
        help_text=gettext_lazy("Start times at the venue, HH:MM, separated by commas."),
    )
    rinks = forms.ModelMultipleChoiceField(
        label=gettext_lazy("Rinks"), queryset=Rink.objects.none(), widget=forms.CheckboxSelectMultiple
    )
    rest_slots = IntegerField(
        label=gettext_lazy("Rest slots"),
        min_value=0,
        max_value=10,
        initial=1,
        help_text=gettext_lazy("Slots a team rests between games."),
    )

    def __init__(self, *args, championship: Championship, **kwargs):
        super().__init__(*args, **kwargs)
        # Every rink of the venue is offered; the service refuses one below the level (2.1 C).
        self.fields["rinks"].queryset = Rink.objects.filter(venue=championship.venue).select_related("venue")

    def clean_days(self):
        return _parse_list(
            self.cleaned_data["days"],
            datetime.date.fromisoformat,
            _("give at least one date (YYYY-MM-DD)"),
            _("a comma-separated list of dates (YYYY-MM-DD)"),
        )

    def clean_slot_times(self):
        return _parse_list(
            self.cleaned_data["slot_times"],
            datetime.time.fromisoformat,
            _("give at least one time (HH:MM)"),
            _("a comma-separated list of times (HH:MM)"),
        )


class BracketForm(forms.Form):
    qualifiers = IntegerField(
        label=gettext_lazy("Qualifiers"),
        min_value=1,
        max_value=16,
        initial=2,
        help_text=gettext_lazy("Teams per pool (1, 2, 4...)."),
    )
    placement = forms.ChoiceField(
        label=gettext_lazy("Placement"),
        choices=[
            ("all", gettext_lazy("Every place")),
            ("bronze", gettext_lazy("Third place only")),
            ("none", gettext_lazy("No placement games")),
        ],
        initial="all",
    )


class GameMoveForm(forms.Form):
    start_at = forms.DateTimeField(
        label=gettext_lazy("Start (venue time)"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    rink = forms.ModelChoiceField(label=gettext_lazy("Rink"), queryset=Rink.objects.none(), required=False)

    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["rink"].queryset = Rink.objects.filter(venue_id=game.championship.venue_id).select_related("venue")


class ResultForm(forms.Form):
    home_goals = IntegerField(label=gettext_lazy("Home goals"), min_value=0, required=False)
    away_goals = IntegerField(label=gettext_lazy("Away goals"), min_value=0, required=False)
    decided_in = forms.ChoiceField(
        label=gettext_lazy("Decided in"), choices=DecidedIn.choices, initial=DecidedIn.REGULATION
    )
    forfeited_by = forms.ModelChoiceField(
        label=gettext_lazy("Forfeited by"), queryset=TeamEntry.objects.none(), required=False
    )
    shootout_home_goals = IntegerField(label=gettext_lazy("Shootout home goals"), min_value=0, required=False)
    shootout_away_goals = IntegerField(label=gettext_lazy("Shootout away goals"), min_value=0, required=False)

    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["forfeited_by"].queryset = TeamEntry.objects.filter(pk__in=[game.home_id, game.away_id])


def _game_people(game: Game):
    return Person.objects.filter(roster_entries__entry_id__in=[game.home_id, game.away_id]).distinct()


class _TimeFields(forms.Form):
    period = IntegerField(label=gettext_lazy("Period"), min_value=1, max_value=3)
    minute = IntegerField(
        label=gettext_lazy("Minute"),
        min_value=0,
        max_value=20,
        help_text=gettext_lazy("Elapsed time in the period (R-10)."),
    )
    second = IntegerField(label=gettext_lazy("Second"), min_value=0, max_value=59)

    def service_values(self) -> dict:
        """The cleaned data as the summary services take it: minutes and seconds become elapsed tenths (R-10)."""
        values = {name: value for name, value in self.cleaned_data.items() if name not in ("minute", "second")}
        values["time_tenths"] = (self.cleaned_data["minute"] * 60 + self.cleaned_data["second"]) * 10
        return values


class GoalForm(_TimeFields):
    entry = forms.ModelChoiceField(queryset=TeamEntry.objects.none(), label=gettext_lazy("Scoring team"))
    scorer = forms.ModelChoiceField(label=gettext_lazy("Scorer"), queryset=Person.objects.none())
    assist = forms.ModelChoiceField(
        label=gettext_lazy("Assist"),
        queryset=Person.objects.none(),
        required=False,
        help_text=gettext_lazy("At most one (R-32)."),
    )
    own_goal = forms.BooleanField(label=gettext_lazy("Own goal"), required=False)
    empty_net = forms.BooleanField(label=gettext_lazy("Empty net"), required=False)
    power_play = forms.BooleanField(label=gettext_lazy("Power play"), required=False)
    shorthanded = forms.BooleanField(label=gettext_lazy("Shorthanded"), required=False)
    penalty_shot = forms.BooleanField(label=gettext_lazy("Penalty shot"), required=False)

    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entry"].queryset = TeamEntry.objects.filter(pk__in=[game.home_id, game.away_id])
        self.fields["scorer"].queryset = self.fields["assist"].queryset = _game_people(game)


class PenaltyForm(_TimeFields):
    entry = forms.ModelChoiceField(queryset=TeamEntry.objects.none(), label=gettext_lazy("Team"))
    person = forms.ModelChoiceField(
        label=gettext_lazy("Person"),
        queryset=Person.objects.none(),
        required=False,
        help_text=gettext_lazy("Empty: bench penalty."),
    )
    infraction_code = forms.CharField(
        label=gettext_lazy("Infraction code"), max_length=60, help_text=gettext_lazy("Annex C index code.")
    )
    minutes = IntegerField(label=gettext_lazy("Minutes"), min_value=0, max_value=10)
    gives_power_play = forms.BooleanField(
        label=gettext_lazy("Gives power play"),
        required=False,
        help_text=gettext_lazy("R-22: the team was left shorthanded."),
    )

    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entry"].queryset = TeamEntry.objects.filter(pk__in=[game.home_id, game.away_id])
        self.fields["person"].queryset = Person.objects.filter(
            Q(roster_entries__entry_id__in=[game.home_id, game.away_id])
            | Q(team_official_roles__entry_id__in=[game.home_id, game.away_id])
        ).distinct()


class AmendForm(forms.Form):
    """An amendment of a final result: why, the goal lines removed, optionally one added; the score follows them."""

    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy("Recorded with who and when."),
    )
    remove_goals = forms.ModelMultipleChoiceField(
        label=gettext_lazy("Remove goals"),
        queryset=GoalRecord.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    add_goal = forms.BooleanField(required=False, label=gettext_lazy("Add the goal below"))
    decided_in = forms.ChoiceField(
        label=gettext_lazy("Decided in"), choices=[("", "as recorded"), *DecidedIn.choices], required=False
    )
    shootout_home_goals = IntegerField(label=gettext_lazy("Shootout home goals"), min_value=0, required=False)
    shootout_away_goals = IntegerField(label=gettext_lazy("Shootout away goals"), min_value=0, required=False)

    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["remove_goals"].queryset = GoalRecord.objects.filter(game=game).select_related("entry", "scorer")


class ShootoutForm(forms.Form):
    """The order of a shoot-out between teams still tied (9.3 G): one choice per place."""

    def __init__(self, *args, teams: list[TeamEntry], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(str(e.pk), e.display_name) for e in teams]
        self.teams = {str(e.pk): e for e in teams}
        for place in range(1, len(teams) + 1):
            self.fields[f"place_{place}"] = forms.ChoiceField(
                choices=choices, label=_("Place %(place)s") % {"place": place}
            )

    def ordered_entries(self) -> list[TeamEntry]:
        return [self.teams[self.cleaned_data[name]] for name in self.fields]


class RosterAddForm(forms.Form):
    person = forms.ModelChoiceField(label=gettext_lazy("Person"), queryset=Person.objects.none())
    # Text, as printed: "07" reaches the 3.2.9 C check instead of becoming 7.
    number = forms.CharField(label=gettext_lazy("Number"), max_length=3)
    position = forms.ChoiceField(label=gettext_lazy("Position"), choices=Position.choices, initial=Position.PLAYER)
    captain = forms.BooleanField(label=gettext_lazy("Captain"), required=False)
    alternate = forms.BooleanField(required=False, label=gettext_lazy("Alternate captain"))

    def __init__(self, *args, entry: TeamEntry, **kwargs):
        super().__init__(*args, **kwargs)
        # The people of the entering federation who are not on this roster yet.
        self.fields["person"].queryset = (
            Person.objects.filter(federation_id=entry.federation_id)
            .filter(Q(is_player=True) | Q(is_goalkeeper=True))
            .exclude(roster_entries__entry=entry)
            .order_by("last_name", "first_name")
        )


class RosterLineForm(forms.Form):
    number = forms.CharField(label=gettext_lazy("Number"), max_length=3)
    position = forms.ChoiceField(label=gettext_lazy("Position"), choices=Position.choices)
    captain = forms.BooleanField(label=gettext_lazy("Captain"), required=False)
    alternate = forms.BooleanField(required=False, label=gettext_lazy("Alternate captain"))


class OfficialForm(forms.Form):
    person = forms.ModelChoiceField(label=gettext_lazy("Person"), queryset=Person.objects.none())
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=OfficialRole.choices)

    def __init__(self, *args, entry: TeamEntry, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["person"].queryset = Person.objects.filter(federation_id=entry.federation_id).order_by(
            "last_name", "first_name"
        )


class RosterImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("File"),
        help_text=gettext_lazy(
            "CSV (UTF-8) or XLSX: person_id or last_name, first_name, date_of_birth; number, position…"
        ),
        widget=forms.ClearableFileInput(attrs={"accept": roster_files.ACCEPT}),
    )


class EntryCreateForm(forms.Form):
    """Enter a national team (1.1 A): the federation, one of those the login acts for; the team's name."""

    federation = forms.ModelChoiceField(queryset=Federation.objects.none(), label=gettext_lazy("Federation"))
    name = forms.CharField(
        max_length=200,
        required=False,
        label=gettext_lazy("Team name"),
        help_text=gettext_lazy("Leave empty for the federation's short name."),
    )

    def __init__(self, *args, user, offer: services.EntryOffer, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["federation"]
        # Any federation the login acts for is taken (the service then says which rule refuses it); the ones that
        # may enter now are offered.
        field.queryset = federations_registering_for(user)
        field.widget.choices = [("", "—"), *((f.pk, f.name) for f in offer.federations)]
        if len(offer.federations) == 1:
            self.initial.setdefault("federation", offer.federations[0].pk)


# --- access ---------------------------------------------------------------------------------------------------------


def _championship(request, pk: int) -> Championship:
    """The championship, if the user may see it: a draft is no such page to anyone but its directors (404)."""
    championships = selectors.visible_championships(request.user).select_related("venue", "sanctioning_body")
    return get_object_or_404(championships, pk=pk)


def can_direct(user, championship: Championship) -> bool:
    """Whether the user directs the championship (the services' check; used to show staff links)."""
    if not getattr(user, "is_authenticated", False):
        return False
    try:
        services.check_can_direct(user, championship)
    except PermissionDenied:
        return False
    return True


def _directed_championship(request, pk: int) -> Championship:
    championship = _championship(request, pk)
    services.check_can_direct(request.user, championship)
    return championship


def _managed_entry(request, pk: int) -> TeamEntry:
    return services.access_managed_entry(request.user, pk)


def _error_messages(request, exc: ValidationError) -> None:
    """Show each message of a service's refusal on the next page (it names the rule)."""
    for errors in exc.message_dict.values():
        for error in errors:
            messages.error(request, error)


def _zone(championship: Championship) -> zoneinfo.ZoneInfo:
    return championship.venue.zone


# --- public pages ---------------------------------------------------------------------------------------------------


def championship_list(request):
    championships = (
        selectors.visible_championships(request.user).select_related("venue").order_by("-start_date", "name")
    )
    # Staff of a federation may direct the championships their federation sanctions (the service decides which).
    can_create = is_federation_staff(request.user)
    return render(
        request, "tournaments/championship_list.html", {"championships": championships, "can_create": can_create}
    )


def _published_rinks(championship: Championship):
    """The venue's rinks with their dimensions (2.1 F) and what keeps one from hosting this level (2.1 A-E)."""
    rows = []
    for rink in Rink.objects.filter(venue=championship.venue).order_by("name"):
        dims = services.rink_dimensions(rink)
        rows.append(
            {
                "rink": rink,
                "violations": services.rink_violations(rink, level=championship.level),
                "notice": rink_rules.needs_dimension_notice(dims),
            }
        )
    return rows


def championship_public_page(request, championship: Championship, name: str, template: str, context):
    """A championship's public page, from the cache for anonymous viewers at the championship's data version
    (``portal.page_cache``; ``tournaments.versions``): ``context()`` is read only when the page is rendered."""
    return public_page(
        request,
        template,
        key=page_key(name, championship.pk),
        # The day is part of it: the entries' offer closes on a date (1.1 A).
        version=(championship.data_version, timezone.localdate().isoformat()),
        context=context,
    )


def championship_detail(request, pk: int):
    championship = _championship(request, pk)

    def context() -> dict:
        director = can_direct(request.user, championship)
        return {
            "championship": championship,
            "rinks": _published_rinks(championship),
            "pools": Pool.objects.filter(championship=championship).prefetch_related("members__entry").order_by("name"),
            "entries_count": TeamEntry.objects.filter(championship=championship).count(),
            "director": director,
            "offer": services.entry_offer(request.user, championship),
            "our_entries": selectors.entries_managed_by(request.user).filter(championship=championship)
            if request.user.is_authenticated and not director
            else [],
            "tab": "overview",
        }

    return championship_public_page(request, championship, "overview", "tournaments/championship_detail.html", context)


@login_required
def entry_create(request, pk: int):
    """Enter a national team in a published championship (1.1 A): staff of a national federation, or international
    staff for any; the fee and the closing date shown; a draft is no such page (404) to anyone but its directors."""
    championship = _championship(request, pk)
    if not is_federation_staff(request.user):
        raise PermissionDenied(_("Only staff of a national federation (or international staff) enter a team."))
    offer = services.entry_offer(request.user, championship)
    form = EntryCreateForm(request.POST or None, user=request.user, offer=offer)
    if request.method == "POST":
        if form.is_valid():
            try:
                entry = services.entry_create(
                    championship=championship,
                    federation=form.cleaned_data["federation"],
                    name=form.cleaned_data["name"],
                    by=request.user,
                )
            except ValidationError as exc:
                apply_errors(form, exc)
            else:
                messages.success(
                    request,
                    _("%(team)s is entered in %(championship)s; the entry fee of %(fee)s is due (Rule 1.1 A).")
                    % {"team": entry.name, "championship": championship.name, "fee": entry.fee_due},
                )
                return redirect("tournaments:entry-detail", pk=entry.pk)
        focus_first_error(form)
    return render(
        request,
        "tournaments/entry_create.html",
        {"championship": championship, "form": form, "offer": offer, "tab": "overview"},
        status=400 if form.errors else 200,
    )


def _games(championship: Championship):
    return selectors.games_shown().filter(championship=championship).order_by("start_at", "number")


def _by_day(games, zone) -> OrderedDict:
    """Group games by their day at the venue; games without a time come last."""
    days: OrderedDict = OrderedDict()
    unscheduled = []
    for game in games:
        if game.start_at is None:
            unscheduled.append(game)
            continue
        game.local_start = timezone.localtime(game.start_at, zone)
        days.setdefault(game.local_start.date(), []).append(game)
    if unscheduled:
        days[None] = unscheduled
    return days


def schedule(request, pk: int):
    championship = _championship(request, pk)
    return championship_public_page(
        request,
        championship,
        "schedule",
        "tournaments/schedule.html",
        lambda: {
            "championship": championship,
            "days": _by_day(_games(championship), _zone(championship)),
            "director": can_direct(request.user, championship),
            "tab": "schedule",
        },
    )


def results(request, pk: int):
    championship = _championship(request, pk)
    return championship_public_page(
        request,
        championship,
        "results",
        "tournaments/results.html",
        lambda: {
            "championship": championship,
            "days": _by_day(_games(championship).filter(status=GameStatus.FINAL), _zone(championship)),
            "tab": "results",
        },
    )


def standings(request, pk: int):
    championship = _championship(request, pk)
    return championship_public_page(
        request,
        championship,
        "standings",
        "tournaments/standings.html",
        lambda: {
            "championship": championship,
            "tables": selectors.championship_standings(championship),
            "points": services.championship_standings_rules(championship).points,
            "director": can_direct(request.user, championship),
            "tab": "standings",
        },
    )


def bracket(request, pk: int, *, form: BracketForm | None = None):
    championship = _championship(request, pk)
    if form is None:
        return championship_public_page(
            request,
            championship,
            "bracket",
            "tournaments/bracket.html",
            lambda: _bracket_context(request, championship),
        )
    return render(request, "tournaments/bracket.html", _bracket_context(request, championship, form=form), status=400)


def _bracket_context(request, championship: Championship, *, form: BracketForm | None = None) -> dict:
    the_bracket = selectors.bracket_for(championship)
    rounds: OrderedDict = OrderedDict()
    games = {}
    if the_bracket is not None:
        for game in _games(championship).exclude(bracket_slot=""):
            if game.start_at:
                game.local_start = timezone.localtime(game.start_at, _zone(championship))
            games[game.bracket_slot] = game
        for item in sorted(the_bracket.games, key=lambda g: (g.stage == "placement", g.round)):
            label = "Placement games" if item.stage == "placement" else item.stage.replace("_", "-").capitalize()
            rounds.setdefault(label, []).append((item, games.get(item.code)))
    director = can_direct(request.user, championship)
    return {
        "championship": championship,
        "bracket": the_bracket,
        "rounds": rounds,
        "ranking": sorted(the_bracket.ranking.items()) if the_bracket else [],
        "provisional": the_bracket is not None and any(game.provisional for game in the_bracket.games),
        "director": director,
        "form": form or (BracketForm() if director and the_bracket is None else None),
        "tab": "bracket",
    }


@login_required
@require_POST
def bracket_manage(request, pk: int):
    """Create the elimination games (1.3 B), or put the teams the standings and results decide into them."""
    championship = _directed_championship(request, pk)
    if "fill" in request.POST:
        changed = services.bracket_fill(championship=championship, by=request.user)
        messages.success(
            request, _("%(count)s games filled in from the standings and results.") % {"count": len(changed)}
        )
        return redirect("tournaments:bracket", pk=championship.pk)
    form = BracketForm(request.POST)
    if form.is_valid():
        try:
            games = services.bracket_generate(championship=championship, **form.cleaned_data, by=request.user)
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            messages.success(request, _("%(count)s elimination and placement games created.") % {"count": len(games)})
            return redirect("tournaments:bracket", pk=championship.pk)
    return bracket(request, championship.pk, form=form)


def leaders(request, pk: int):
    championship = _championship(request, pk)

    def context() -> dict:
        stats = selectors.championship_statistics(championship)
        return {
            "championship": championship,
            # The core orders players by points and goalkeepers by save percentage (the official tables).
            **selectors.leader_tables(stats, LEADERS),
            "roster_games": stats.roster_games,
            "tab": "leaders",
        }

    return championship_public_page(request, championship, "leaders", "tournaments/leaders.html", context)


# --- tournament direction (staff) -----------------------------------------------------------------------------------


@login_required
@require_POST
def championship_publish(request, pk: int):
    """Publish a draft championship: its pages, teams and rosters are public from then on."""
    championship = _directed_championship(request, pk)
    try:
        services.championship_publish(championship=championship, by=request.user)
    except ValidationError as exc:
        _error_messages(request, exc)
    else:
        messages.success(
            request, _("%(championship)s is published: everyone sees it now.") % {"championship": championship}
        )
    return redirect("tournaments:championship-detail", pk=championship.pk)


@login_required
def entries(request, pk: int):
    championship = _directed_championship(request, pk)
    entry_list = (
        TeamEntry.objects.filter(championship=championship)
        .select_related("federation", "pool_membership__pool")
        .prefetch_related("managers")
        .order_by("name")
    )
    return render(
        request,
        "tournaments/entries.html",
        {"championship": championship, "entries": entry_list, "tab": "entries", "director": True},
    )


@login_required
@require_POST
def entry_fee_paid(request, pk: int):
    entries = TeamEntry.objects.select_related("championship__sanctioning_body")
    entry = get_object_or_404(selectors.of_visible_championships(entries, request.user), pk=pk)
    services.check_can_direct(request.user, entry.championship)
    form = FeePaidForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(dict(form.errors.items()))
        amount = services.money(form.cleaned_data["amount"], form.cleaned_data["currency"])
        services.entry_record_fee_paid(entry=entry, amount=amount, by=request.user)
    except ValidationError as exc:
        said = said_errors(exc)
        for field, errors in said.items() if isinstance(said, dict) else [("", said)]:
            text = " ".join(errors)
            if field:
                text = pgettext("error summary: a field's label, then its error", "%(label)s: %(error)s") % {
                    "label": field,
                    "error": text,
                }
            messages.error(
                request,
                pgettext("error summary: a field's label, then its error", "%(label)s: %(error)s")
                % {"label": entry, "error": text},
            )
    else:
        messages.success(request, _("%(team)s: entry fee recorded as paid (1.1 A).") % {"team": entry})
    return redirect("tournaments:entries", pk=entry.championship_id)


@login_required
def schedule_generate(request, pk: int):
    championship = _directed_championship(request, pk)
    form = ScheduleForm(request.POST or None, championship=championship)
    if request.method == "POST" and form.is_valid():
        try:
            games = services.schedule_generate(
                championship=championship,
                days=form.cleaned_data["days"],
                slot_times=form.cleaned_data["slot_times"],
                rinks=list(form.cleaned_data["rinks"]),
                rest_slots=form.cleaned_data["rest_slots"],
                by=request.user,
            )
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            messages.success(request, _("%(count)s games scheduled.") % {"count": len(games)})
            return redirect("tournaments:schedule", pk=championship.pk)
    return render(
        request,
        "tournaments/schedule_generate.html",
        {"championship": championship, "form": form, "rinks": _published_rinks(championship)},
    )


def _game(request, pk: int) -> Game:
    games = Game.objects.select_related(
        "championship__venue", "championship__sanctioning_body", "home", "away", "rink", "pool", "phase"
    )
    return get_object_or_404(selectors.of_visible_championships(games, request.user), pk=pk)


@login_required
def game_manage(request, pk: int):
    """Move the game, enter its final result and its goal and penalty summaries."""
    game = _game(request, pk)
    championship = game.championship
    services.check_can_direct(request.user, championship)
    zone = _zone(championship)
    action = request.POST.get("action") if request.method == "POST" else None
    local = timezone.localtime(game.start_at, zone).replace(tzinfo=None) if game.start_at else None
    move = GameMoveForm(
        request.POST if action == "move" else None, game=game, initial={"start_at": local, "rink": game.rink}
    )
    result = ResultForm(request.POST if action == "result" else None, game=game)
    goal = GoalForm(request.POST if action == "goal" else None, game=game)
    penalty = PenaltyForm(request.POST if action == "penalty" else None, game=game)
    amend = AmendForm(request.POST if action == "amend" else None, game=game)
    amend_goal = GoalForm(request.POST if action == "amend" else None, game=game, prefix="add")
    forms_ = {"move": move, "result": result, "goal": goal, "penalty": penalty, "amend": amend}
    # Times typed on this page are the venue's (architecture: shown in the venue's time zone).
    with timezone.override(zone):
        done = _game_action(request, game, action, forms_, amend_goal=amend_goal)
    if done:
        return redirect("tournaments:game-manage", pk=game.pk)
    try:  # the forms are offered only where the service takes them (4.3 A: a live sheet is the record)
        services.check_summary_source(game, request.user, from_sheet=False)
        summary_entry = True
    except (ValidationError, PermissionDenied):
        summary_entry = False
    try:
        services.check_game_movable(game)
        movable = True
    except ValidationError:
        movable = False
    with timezone.override(zone):
        return render(
            request,
            "tournaments/game_manage.html",
            {
                "game": game,
                "championship": championship,
                "local_start": timezone.localtime(game.start_at, zone) if game.start_at else None,
                "move": move,
                "result": result,
                "goal": goal,
                "penalty": penalty,
                "amend": amend,
                "amend_goal": amend_goal,
                "summary_entry": summary_entry,
                "movable": movable,
                "live": tournament_hooks.game_live_board(game),
                "amendable": game.is_final and game.decided_in != DecidedIn.FORFEIT,
                "amendments": game.amendments.select_related("amended_by"),
                "goals": _with_clock(game.goals.select_related("entry", "scorer", "assist")),
                "penalties": _with_clock(game.penalties.select_related("entry", "person")),
            },
        )


def _with_clock(records):
    """Give each summary line its elapsed time in the period as mm:ss (R-10 keeps tenths)."""
    records = list(records)
    for record in records:
        seconds = record.time_tenths // 10
        record.clock = f"{seconds // 60:02d}:{seconds % 60:02d}"
    return records


def _game_action(request, game, action, forms_, *, amend_goal) -> bool:
    form = forms_.get(action)
    if form is None or not form.is_valid():
        return False
    data = form.cleaned_data
    if action == "amend" and data["add_goal"] and not amend_goal.is_valid():
        return False
    try:
        if action == "move":
            services.game_move(game=game, **data, by=request.user)
            messages.success(request, _("Game moved."))
        elif action == "result":
            services.game_record_result(game=game, **data, by=request.user)
            messages.success(request, _("Result recorded."))
        elif action == "goal":
            services.goal_add(game=game, **form.service_values(), by=request.user)
            messages.success(request, _("Goal added."))
        elif action == "amend":
            services.result_amend(
                game=game,
                reason=data["reason"],
                remove_goals=list(data["remove_goals"]),
                add_goals=[amend_goal.service_values()] if data["add_goal"] else [],
                decided_in=data["decided_in"] or None,
                shootout_home_goals=data["shootout_home_goals"],
                shootout_away_goals=data["shootout_away_goals"],
                by=request.user,
            )
            messages.success(request, _("Result amended; the standings follow."))
        else:
            services.penalty_add(game=game, **form.service_values(), by=request.user)
            messages.success(request, _("Penalty added."))
    except ValidationError as exc:
        errors = getattr(exc, "error_dict", None)
        if errors and "time_tenths" in errors:
            # The page asks for minutes and seconds; the service speaks of tenths.
            errors["minute"] = errors.pop("time_tenths")
        if action == "amend" and errors and set(errors) & set(amend_goal.fields):
            # A refused added goal is shown beside its own fields.
            apply_errors(amend_goal, exc)
        else:
            apply_errors(form, exc)
        return False
    return True


@login_required
def standings_shootout(request, pk: int):
    """Enter the order of a shoot-out between teams still tied after 9.3 C-F (9.3 G, R-42)."""
    pools = Pool.objects.select_related("championship__venue", "championship__sanctioning_body")
    pool = get_object_or_404(selectors.of_visible_championships(pools, request.user), pk=pk)
    services.check_can_direct(request.user, pool.championship)
    table = selectors.pool_standings(pool)
    groups = [[table.entries[name] for name in group] for group in table.standings.unresolved]
    index = request.POST.get("group") if request.method == "POST" else None
    forms_ = []
    for i, teams in enumerate(groups):
        bound = request.POST if index == str(i) else None
        form = ShootoutForm(bound, teams=teams, prefix=f"g{i}")
        if bound is not None and form.is_valid():
            try:
                services.standings_shootout_enter(pool=pool, ordered_entries=form.ordered_entries(), by=request.user)
            except ValidationError as exc:
                apply_errors(form, exc)
            else:
                messages.success(request, _("Shoot-out result entered (9.3 G)."))
                return redirect(reverse("tournaments:standings", args=[pool.championship_id]) + f"#pool-{pool.pk}")
        forms_.append((i, teams, form))
    return render(
        request,
        "tournaments/shootout.html",
        {"pool": pool, "championship": pool.championship, "table": table, "groups": forms_},
    )


# --- team managers ----------------------------------------------------------------------------------------------------


@login_required
def my_entries(request):
    """The entries the user manages (team managers) or may act for (staff of the federation)."""
    mine = selectors.entries_managed_by(request.user).order_by("-championship__start_date", "name")
    return render(request, "tournaments/my_entries.html", {"entries": mine})


def _entry_page(request, entry, *, add=None, imp=None, official=None, status=200):
    roster = selectors.roster_with_eligibility(entry)
    begun = services.championship_has_begun(entry.championship)
    is_open = entry.status not in (EntryStatus.WITHDRAWN, EntryStatus.DISQUALIFIED)
    return render(
        request,
        "tournaments/entry_detail.html",
        {
            "entry": entry,
            "championship": entry.championship,
            "roster": roster,
            "officials": entry.officials.select_related("person"),
            # 5.1 A: each game's line-up is given from here (and from the home while it is due).
            "games": selectors.games_of_entry(entry),
            "add_form": add or RosterAddForm(entry=entry),
            "import_form": imp or RosterImportForm(),
            "official_form": official or OfficialForm(entry=entry),
            "begun": begun,
            "open": is_open,
            # 3.1.1 B: once frozen, the page offers no roster change the services would refuse.
            "editable": is_open and not begun,
            "refused_forms": [form for form in (add, imp) if form is not None],
        },
        status=status,
    )


@login_required
def entry_detail(request, pk: int):
    entry = _managed_entry(request, pk)
    return _entry_page(request, entry)


def _entry_form_post(request, pk: int, *, slot: str, make_form, write, done):
    """Post one of the entry page's forms: the service writes and the page says ``done(result)``,
    or the page comes back (400) with the service's error beside the field it names."""
    entry = _managed_entry(request, pk)
    form = make_form(entry)
    if form.is_valid():
        try:
            result = write(entry, form.cleaned_data)
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            messages.success(request, done(result))
            return redirect("tournaments:entry-detail", pk=entry.pk)
    focus_first_error(form)
    return _entry_page(request, entry, status=400, **{slot: form})


@login_required
@require_POST
def roster_add(request, pk: int):
    return _entry_form_post(
        request,
        pk,
        slot="add",
        make_form=lambda entry: RosterAddForm(request.POST, entry=entry),
        write=lambda entry, data: services.roster_add_player(entry=entry, **data, by=request.user),
        done=lambda line: f"#{line.number} {line.person} added to the roster.",
    )


@login_required
@require_POST
def roster_remove(request, pk: int):
    """Take a player off the roster before the championship begins (3.1.1 B, R-05)."""
    line = _roster_line(request, pk)
    entry = _managed_entry(request, line.entry_id)
    try:
        services.roster_remove(roster_entry=line, by=request.user)
    except ValidationError as exc:
        _error_messages(request, exc)
        return redirect("tournaments:roster-line-edit", pk=line.pk)
    messages.success(
        request, _("#%(number)s %(person)s taken off the roster.") % {"number": line.number, "person": line.person}
    )
    return redirect("tournaments:entry-detail", pk=entry.pk)


def _file_answer(document: services.RosterDocument) -> HttpResponse:
    response = HttpResponse(document.content, content_type=document.content_type)
    response["Content-Disposition"] = f'attachment; filename="{document.filename}"'
    return response


def _file_kind(kind: str) -> str:
    if kind not in roster_files.CONTENT_TYPES:
        raise Http404(_("CSV or XLSX"))
    return kind


@login_required
def roster_export(request, pk: int, kind: str):
    """The roster as CSV or XLSX, in the import's columns."""
    entry = _managed_entry(request, pk)
    return _file_answer(services.roster_export(entry=entry, kind=_file_kind(kind), by=request.user))


@login_required
def roster_import_template(request, kind: str):
    """The roster import's template, CSV or XLSX: its header (and, in the workbook, a help sheet)."""
    return _file_answer(services.roster_import_template(_file_kind(kind)))


def _roster_line(request, pk: int) -> RosterEntry:
    lines = RosterEntry.objects.select_related("person", "entry")
    return get_object_or_404(
        selectors.of_visible_championships(lines, request.user, through="entry__championship"), pk=pk
    )


@login_required
def roster_line_edit(request, pk: int):
    line = _roster_line(request, pk)
    entry = _managed_entry(request, line.entry_id)
    initial = {f: getattr(line, f) for f in services.ROSTER_LINE_FIELDS}
    form = RosterLineForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.roster_update(roster_entry=line, **form.cleaned_data, by=request.user)
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            messages.success(request, _("%(person)s: roster line saved.") % {"person": line.person})
            return redirect("tournaments:entry-detail", pk=entry.pk)
    approvals = line.number_change_approvals.filter(applied_at__isnull=True)
    return render(
        request,
        "tournaments/roster_line_form.html",
        {
            "form": form,
            "line": line,
            "entry": entry,
            "approvals": approvals,
            # 3.1.1 B: once frozen, no removal is offered (the service refuses it too).
            "frozen": (frozen := services.championship_has_begun(entry.championship)),
            "removable": entry.status not in (EntryStatus.WITHDRAWN, EntryStatus.DISQUALIFIED) and not frozen,
        },
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def official_add(request, pk: int):
    """Name a team official of the entry (Terminology: Team Official)."""
    return _entry_form_post(
        request,
        pk,
        slot="official",
        make_form=lambda entry: OfficialForm(request.POST, entry=entry),
        write=lambda entry, data: services.team_official_add(entry=entry, **data, by=request.user),
        done=lambda official: f"{official} named.",
    )


@login_required
@require_POST
def roster_confirm(request, pk: int):
    entry = _managed_entry(request, pk)
    already = selectors.roster_is_confirmed(entry)
    try:
        services.roster_confirm(entry=entry, by=request.user)
    except ValidationError as exc:
        _error_messages(request, exc)
    else:
        if already:
            messages.info(request, _("The roster is already confirmed."))
        else:
            messages.success(request, _("Roster confirmed (registered)."))
    return redirect("tournaments:entry-detail", pk=entry.pk)


@login_required
@require_POST
def roster_import(request, pk: int):
    return _entry_form_post(
        request,
        pk,
        slot="imp",
        make_form=lambda entry: RosterImportForm(request.POST, request.FILES),
        write=lambda entry, data: services.roster_import(entry=entry, file=data["file"], by=request.user),
        done=lambda added: f"{len(added)} players imported.",
    )
