"""The webhooks page's form: a federation's new endpoint (the rules are the services')."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from . import access
from .addresses import MAX_URL_LENGTH
from .models import EventType


class EndpointForm(forms.Form):
    federation = forms.ModelChoiceField(label=_("Federation"), queryset=None, empty_label=None)
    url = forms.CharField(
        label=_("URL"),
        max_length=MAX_URL_LENGTH,
        help_text=_("An https:// address of your federation's system; the events are posted there as JSON."),
        widget=forms.URLInput(attrs={"placeholder": "https://"}),
    )
    event_types = forms.MultipleChoiceField(
        label=_("Events"), choices=EventType.choices, widget=forms.CheckboxSelectMultiple
    )
    description = forms.CharField(label=_("Description"), max_length=200, required=False)

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        federations = access.federations_for_webhooks(user).order_by("name")
        self.fields["federation"].queryset = federations
        if "event_types" not in self.initial:
            self.initial["event_types"] = list(EventType.values)
