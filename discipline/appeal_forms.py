"""Forms of the appeal pages (9.2 A; R-54): they shape the input and name the rule of each field; who may and
the rules of the appeal itself are ``discipline.appeals``'."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from djmoney.forms.fields import MoneyField

from .models import AppealLevel, AppealStatus

LEVELS_RULE = _("Rule 9.2 A: an appeal goes to the IHTC General Assembly, then to the FIRS Congress.")


class LodgeAppealForm(forms.Form):
    level = forms.ChoiceField(
        choices=AppealLevel.choices,
        label=_("Appeal to"),
        error_messages={"required": LEVELS_RULE, "invalid_choice": LEVELS_RULE},
    )
    grounds = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_("Rule 9.2 A: why the decision should be changed."),
        error_messages={"required": _("Rule 9.2 A: the appeal gives its grounds.")},
    )
    fee = MoneyField(
        max_digits=10,
        decimal_places=2,
        default_currency="USD",
        required=False,
        label=_("Fee paid (if any)"),
        help_text=_("Empty when no fee is paid with the appeal."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        amount, currency = self.fields["fee"].fields
        # The label of a money field names no input (a MultiWidget has no id for it): name its two parts.
        amount_widget, currency_widget = self.fields["fee"].widget.widgets
        amount_widget.attrs["aria-label"] = _("Fee paid")
        currency_widget.attrs["aria-label"] = _("Currency of the fee")
        amount.error_messages["invalid"] = _("Rule 9.2 A: the fee is an amount, e.g. 200.00.")
        currency.error_messages["invalid_choice"] = _(
            "Rule 9.2 A: the currency of the fee is an ISO 4217 code, e.g. USD."
        )

    def clean_fee(self):
        fee = self.cleaned_data.get("fee")
        if fee is not None and fee.amount < 0:
            raise ValidationError(_("Rule 9.2 A: the fee is an amount of 0 or more."))
        return fee


APPEAL_OUTCOMES = [(AppealStatus.UPHELD.value, _("Upheld")), (AppealStatus.DISMISSED.value, _("Dismissed"))]
OUTCOME_RULE = _("Rule 9.2 A: the appeal is upheld or dismissed.")


class DecideAppealForm(forms.Form):
    outcome = forms.ChoiceField(
        choices=APPEAL_OUTCOMES,
        widget=forms.RadioSelect,
        error_messages={"required": OUTCOME_RULE, "invalid_choice": OUTCOME_RULE},
    )
    reasons = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 5}),
        error_messages={"required": _("Rule 9.2 A: the decision gives its reasons.")},
    )
