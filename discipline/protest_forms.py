"""Forms of the protest pages: they shape the input; ``discipline.protests`` checks who may and the rules."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from djmoney.forms.fields import MoneyField

from portal.forms import IntegerField

from .models import FeeMethod, ProtestKind, ProtestStatus


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files in one input (attachments); each is checked by content by the service."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput())
        kwargs.setdefault("required", False)
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        if not data:
            return []
        files = data if isinstance(data, list | tuple) else [data]
        return [super(MultipleFileField, self).clean(f, initial) for f in files]


class FileProtestForm(forms.Form):
    game = forms.TypedChoiceField(coerce=int, label=_("Game"))
    incident = forms.ChoiceField(label=_("Incident (as the game's records hold it)"), widget=forms.RadioSelect)
    statement = forms.CharField(
        label=_("Statement"),
        widget=forms.Textarea(attrs={"rows": 6}),
        required=False,
        help_text=_("The written protest (9.1). It may follow, but the protest lapses without it at the deadline."),
    )
    attachments = MultipleFileField(
        label=_("Attachments"), help_text=_("JPEG, PNG or PDF, at most 5 MB each, at most 5 files.")
    )

    def __init__(self, *args, games=(), incidents=(), **kwargs):
        super().__init__(*args, **kwargs)
        # "Game #8: Spain – Italy": the game's number said as one, never "#8 Spain" (read as a jersey).
        self.fields["game"].choices = [("", gettext("Choose a game"))] + [
            (
                g.pk,
                gettext("Game #%(number)s: %(home)s – %(away)s (%(championship)s)")
                % {"number": g.number, "home": g.home or "?", "away": g.away or "?", "championship": g.championship},
            )
            for g in games
        ]
        # The kind of protest each incident makes, with its article (9.1 A-D), before the incident itself.
        self.fields["incident"].choices = [
            (f"{i.kind}|{i.key}", f"{ProtestKind(i.kind).label}: {i.label}") for i in incidents
        ]

    def cleaned_kind_and_key(self) -> tuple[str, str]:
        kind, _, key = self.cleaned_data["incident"].partition("|")
        if kind not in ProtestKind.values:
            raise ValidationError({"incident": gettext("Rule 9.1: choose an incident.")})
        return kind, key


class FeeForm(forms.Form):
    """The fee as received (R-52); ``received_at`` is read and shown on the venue's clock (``tz``)."""

    amount = MoneyField(max_digits=10, decimal_places=2, default_currency="USD", label=_("Amount received"))
    method = forms.ChoiceField(choices=FeeMethod.choices)
    received_at = forms.DateTimeField(
        required=False,
        label=_("Received at"),
    )

    def __init__(self, *args, tz=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.tz = tz
        # The label of a money field names no input (a MultiWidget has no id for it): name its two parts.
        amount, currency = self.fields["amount"].widget.widgets
        amount.attrs["aria-label"] = gettext("Amount received")
        currency.attrs["aria-label"] = gettext("Currency of the amount received")
        self.fields["received_at"].help_text = (
            gettext("On the venue's clock (%(zone)s); blank: now. Not in the future (R-52).") % {"zone": tz}
            if tz is not None
            else gettext("On the venue's clock; blank: now. Not in the future (R-52).")
        )

    def full_clean(self):
        # A time typed without a zone is the venue's (the staff record it there), not the server's.
        if self.tz is None:
            return super().full_clean()
        with timezone.override(self.tz):
            return super().full_clean()


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}), required=False)


class TextForm(forms.Form):
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 5}), label=_("Your text"))
    attachments = MultipleFileField(label=_("Attachments"), help_text=_("JPEG, PNG or PDF, at most 5 MB each."))


class ProtestFilterForm(forms.Form):
    status = forms.ChoiceField(
        label=_("Status"), choices=[("", _("Any status"))] + list(ProtestStatus.choices), required=False
    )
    kind = forms.ChoiceField(label=_("Kind"), choices=[("", _("Any kind"))] + list(ProtestKind.choices), required=False)
    championship = IntegerField(label=_("Championship"), required=False, min_value=1)
