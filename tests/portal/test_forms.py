"""Form plumbing shared by the apps (portal.forms.apply_errors): a service's error lands beside its field."""

from django import forms
from django.core.exceptions import ValidationError

from federation.forms import EligibilityWaiverForm
from federation.models import WaivableCode
from portal.forms import apply_errors


class _NumberForm(forms.Form):
    number = forms.CharField()


def _bound() -> _NumberForm:
    form = _NumberForm(data={"number": "07"})
    assert form.is_valid()
    return form


def test_apply_errors_puts_a_named_field_error_beside_the_field():
    form = _bound()
    apply_errors(form, ValidationError({"number": "Rule 3.2.9 C: numbers are 1-99 without a leading zero"}))
    assert form.errors == {"number": ["Rule 3.2.9 C: numbers are 1-99 without a leading zero"]}
    assert "number" not in form.cleaned_data


def test_apply_errors_puts_a_field_the_form_lacks_above_the_form():
    form = _bound()
    apply_errors(form, ValidationError({"roster": ["R-04: at most 14 players", "R-04: at most 2 goalkeepers"]}))
    assert form.non_field_errors() == ["R-04: at most 14 players", "R-04: at most 2 goalkeepers"]
    assert not form.has_error("number")


def test_apply_errors_puts_an_error_without_a_field_above_the_form():
    form = _bound()
    apply_errors(form, ValidationError(["Rule 8.1 C: the team is disqualified"]))
    assert form.non_field_errors() == ["Rule 8.1 C: the team is disqualified"]


def test_a_federation_admin_form_shows_the_service_check_beside_its_field_r_03():
    form = EligibilityWaiverForm(data={"code": WaivableCode.values[0], "reason": "  ", "category": "", "year": ""})
    assert not form.is_valid()
    assert "R-03: a waiver is recorded with its reason." in form.errors["reason"]
    assert "code" not in form.errors
