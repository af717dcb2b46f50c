"""The currencies the portal offers for fees (issue 26): those member federations use, not ISO 4217's ~300.

``settings.PORTAL_CURRENCIES`` lists them (ISO 4217 codes); the choices are labelled in the reader's language with
Babel's currency names (py-moneyed's own dependency). A championship whose fee was set in a currency the setting
no longer lists keeps it: the choice stays offered for that championship and its amounts show as stored.
"""

from __future__ import annotations

from babel.numbers import get_currency_name
from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import get_language, gettext, to_locale

# USD: the FIRS' and the IHTC's fees; EUR: most European member federations (Italy, Spain, France, Germany...);
# CHF: Switzerland; GBP: Great Britain; CZK: the Czech Republic; ARS: Argentina; CAD and AUD: Canada and Australia,
# the other federations that host championships.
DEFAULT_CURRENCIES = ("USD", "EUR", "CHF", "GBP", "CZK", "ARS", "CAD", "AUD")


def portal_currencies() -> tuple[str, ...]:
    """The ISO 4217 codes the portal offers, in the setting's order."""
    return tuple(str(code).upper() for code in getattr(settings, "PORTAL_CURRENCIES", DEFAULT_CURRENCIES))


def currency_label(code: str) -> str:
    """ "EUR – euro": the code, then the currency's name in the active language (Babel)."""
    locale = to_locale(get_language() or settings.LANGUAGE_CODE)
    try:
        name = get_currency_name(code, locale=locale)
    except (ValueError, LookupError):  # a locale Babel does not know: its English name
        name = get_currency_name(code, locale="en")
    return f"{code} – {name}" if name and name != code else code


def currency_choices(*, keep: str = "") -> list[tuple[str, str]]:
    """The choices of a currency field: the setting's currencies, and ``keep`` (a stored one) if it is not among
    them."""
    codes = list(portal_currencies())
    keep = (keep or "").strip().upper()
    if keep and keep not in codes:
        codes.append(keep)
    return [(code, currency_label(code)) for code in codes]


def check_portal_currency(code: str, *, field: str, label: str = "", keep: str = "") -> str:
    """Return ``code`` in capitals; raise ValidationError on ``field`` (its message names ``label``, the field as
    the reader knows it, and the setting) unless the setting lists it or it is ``keep``, the currency already
    stored, which an update may leave as it is."""
    code = (code or "").strip().upper()
    if code in portal_currencies() or (keep and code == keep.strip().upper()):
        return code
    raise ValidationError({field: _refusal(label or field, code or '""')})


def _refusal(field: str, code: str) -> str:
    return gettext(
        "%(field)s: %(code)s is not one of the currencies the portal uses (PORTAL_CURRENCIES: %(codes)s)."
    ) % {"field": field, "code": code, "codes": ", ".join(portal_currencies())}


def invalid_choice_message(label: object) -> str:
    """A currency choice field's ``invalid_choice`` message (Django fills in ``%(value)s``), as
    ``check_portal_currency`` says it."""
    return _refusal(str(label), "%(value)s")


class CurrencyChoiceField(forms.ChoiceField):
    """A currency chosen among the portal's (``currency_choices``; ``keep``, a stored one, stays offered); the
    code may come in any case ("eur"), as the API takes it; a refusal names the field and the setting."""

    def __init__(self, *, keep: str = "", **kwargs):
        super().__init__(choices=currency_choices(keep=keep), **kwargs)
        self.error_messages["invalid_choice"] = invalid_choice_message(self.label or "")

    def to_python(self, value):
        return super().to_python(value).strip().upper()
