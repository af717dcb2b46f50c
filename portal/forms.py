"""Form plumbing shared by the apps."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.forms.renderers import TemplatesSetting

from common.numbers import NotANumber, decimal_number, whole_number

from .i18n import said_errors


class PortalFormRenderer(TemplatesSetting):
    """Draw ``{{ form }}`` and ``{{ field.as_field_group }}`` with the portal's templates: the summary of the errors
    at the top of the form, then each field's label above it, its help under it and its error at it."""

    form_template_name = "portal/form.html"
    field_template_name = "portal/field.html"


def apply_errors(form: forms.BaseForm, exc: ValidationError) -> None:
    """Show a service's ValidationError beside the fields it names, or above the form for any other.

    A service error is a field -> messages map (or a plain list); a field the
    form does not have (or ``__all__``) goes to the form's own errors, so no
    message is lost. Each message is said in the reader's language (a core's sentence is English until said).
    """
    errors = said_errors(exc)
    if isinstance(errors, dict):
        for field, messages in errors.items():
            form.add_error(field if field in form.fields else None, messages)
    else:
        form.add_error(None, errors)


def focus_first_error(form: forms.BaseForm) -> None:
    """Give the first field with an error ``autofocus``: the page that comes back opens on the refusal.

    A long page (a phone's, the entry page's forms one under the other) would otherwise open at its top, the
    error far below and out of sight; the browser scrolls to the focused field and a screen reader reads it.
    """
    for name, field in form.fields.items():
        if name in form.errors:
            field.widget.attrs["autofocus"] = True
            return


class IntegerField(forms.IntegerField):
    """Django's IntegerField, its text read by ``common.numbers``: the ASCII digits 0-9 only (``٣`` is not 3)."""

    def to_python(self, value):
        if isinstance(value, str) and value.strip():
            try:
                return whole_number(value, signed=True)
            except NotANumber:
                raise ValidationError(self.error_messages["invalid"], code="invalid") from None
        return super().to_python(value)


class DecimalField(forms.DecimalField):
    """Django's DecimalField, its text read by ``common.numbers``: the ASCII digits 0-9 and a point only."""

    def to_python(self, value):
        if isinstance(value, str) and value.strip():
            try:
                return decimal_number(value)
            except NotANumber:
                raise ValidationError(self.error_messages["invalid"], code="invalid") from None
        return super().to_python(value)
