"""Forms drawn one way (issue 26): a refused form opens with a summary of its errors, each a link to its field, and
each error also stands at its field, under the field's label (portal.forms.PortalFormRenderer)."""

from __future__ import annotations

import re

import pytest
from django import forms
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


class _EntryForm(forms.Form):
    team = forms.CharField(label="Team name", help_text="As on the passport")
    number = forms.IntegerField(label="Number")

    def clean(self):
        raise forms.ValidationError("Rule 3.1.1 B: the roster is frozen")


def test_a_whole_form_has_the_summary_then_each_field_with_its_label_help_and_error():
    html = str(_EntryForm(data={"team": "", "number": "x"}))
    summary = html.index('class="error-summary"')
    assert summary < html.index('<label for="id_team">Team name</label>') < html.index('id="id_team"')
    assert re.search(r'<a href="#id_team">Team name: This field is required.</a>', html)
    assert re.search(r'<a href="#id_number">Number: Enter a whole number.</a>', html)
    assert "Rule 3.1.1 B: the roster is frozen" in html  # the form's own error, once, above the fields
    assert html.count("Rule 3.1.1 B") == 1
    # The input names its help and its error for a screen reader; both are there, with those ids.
    assert 'aria-describedby="id_team_helptext id_team_error"' in html
    assert 'id="id_team_helptext"' in html and 'id="id_team_error"' in html
    assert 'class="field invalid"' in html


def test_a_form_with_only_its_own_error_has_no_empty_summary():
    html = str(_EntryForm(data={"team": "Italy", "number": "7"}))
    assert "Rule 3.1.1 B" in html
    assert "error-summary" not in html


def test_a_refused_page_form_links_its_summary_to_the_field(client):
    client.force_login(UserFactory(username="summary-user"))
    response = client.post(reverse("accounts:password-change"), {"old_password": "", "new_password1": ""})
    page = response.content.decode()
    assert response.status_code == 200
    assert 'class="error-summary"' in page
    assert '<a href="#id_old_password">' in page
    assert page.index("error-summary") < page.index('id="id_old_password"')


def _csrf_token(page: str) -> str:
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert match, "the form carries no CSRF token"
    return match.group(1)


def test_a_refused_login_posted_as_a_browser_does_links_its_summary_to_the_field_in_french():
    """The log-in page's form, drawn whole by the portal's renderer (not ``as_p``): posted form-encoded with its
    CSRF token (the client checks it, as the site does), with no username, it comes back in French with the summary
    at the top, a link to the username's field, and the error at that field under its label."""
    from django.test import Client

    browser = Client(enforce_csrf_checks=True, headers={"accept-language": "fr"})
    url = reverse("login")
    form_page = browser.get(url).content.decode()
    assert (
        'class="field"' in form_page
        and "<p>" not in form_page.split('name="csrfmiddlewaretoken"')[1].split("</form>")[0]
    )
    response = browser.post(
        url,
        f"csrfmiddlewaretoken={_csrf_token(form_page)}&username=&password=secret",
        content_type="application/x-www-form-urlencoded",
    )
    page = response.content.decode()
    assert response.status_code == 200  # refused, not forbidden: the CSRF token was accepted
    assert '<html lang="fr"' in page
    summary = page.index('class="error-summary"')
    assert "Il y a un problème" in page
    link = re.search(r'<a href="#id_username">([^<]+)</a>', page)
    assert link and "Ce champ est obligatoire." in link.group(1), page[summary : summary + 600]
    assert " : Ce champ" in link.group(1)  # French puts a space before the colon
    assert summary < page.index('<label for="id_username">') < page.index('id="id_username"')
    assert 'id="id_username_error"' in page and 'class="field invalid"' in page
    assert 'name="csrfmiddlewaretoken"' in page  # the refused form can be posted again


def test_no_template_draws_a_form_with_as_p():
    """Every form is drawn by the portal's renderer: ``{{ form }}``, never Django's ``as_p``, ``as_table`` or
    ``as_ul`` (label and input in one paragraph or cell, no summary of the errors)."""
    from django.conf import settings

    found = [
        f"{path}: {match.group(0)}"
        for folder in settings.TEMPLATES[0]["DIRS"]
        for path in sorted(folder.rglob("*.html"))
        for match in re.finditer(r"\{\{ *\w+\.as_(p|table|ul) *\}\}", path.read_text())
    ]
    assert found == []
