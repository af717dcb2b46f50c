"""The committee's list of cases (R-53): its search box and filters. They shape the input; ``selectors.case_list``
reads the cases the login may see."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import CaseStatus


class CaseFilterForm(forms.Form):
    """``?q=`` (a person, a team, a game number or the case's title), ``?status=`` and ``?championship=``: a value
    outside the choices is a form error naming the field, and the list is then shown unfiltered by it."""

    q = forms.CharField(
        label=_("Search"),
        required=False,
        max_length=100,
        help_text=_("A person's name, a team, a game number (#12) or the case's title."),
    )
    status = forms.ChoiceField(label=_("Status"), required=False)
    championship = forms.TypedChoiceField(label=_("Championship"), required=False, coerce=int, empty_value=None)

    def __init__(self, *args, championships=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["status"].choices = [
            ("", _("Any status")),
            ("pending", _("Not decided yet")),
            *CaseStatus.choices,
        ]
        self.fields["championship"].choices = [("", _("Every championship"))] + [(c.pk, c.name) for c in championships]
