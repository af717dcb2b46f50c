"""CSRF on every form: each POST form of the templates carries the token; a POST without it is refused (403)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from tests.factories import TEST_PASSWORD, UserFactory

ROOT = Path(__file__).resolve().parent.parent.parent
FORM = re.compile(r"<form\b[^>]*>(.*?)</form>", re.S | re.I)
POST = re.compile(r"""method=["']?post""", re.I)


def post_forms() -> list[tuple[str, str]]:
    """Every ``<form method="post">`` of the project's HTML templates, with the file it is in."""
    found = []
    for folder in [ROOT / "templates", *ROOT.glob("*/templates")]:
        if ".venv" in folder.parts:
            continue
        for template in folder.rglob("*.html"):
            text = template.read_text()
            for match in FORM.finditer(text):
                if POST.search(match.group(0)[: match.group(0).index(">") + 1]):
                    found.append((str(template.relative_to(ROOT)), match.group(0)))
    return found


def test_every_post_form_of_the_templates_carries_the_csrf_token():
    forms = post_forms()
    assert len(forms) >= 30  # the crawl found the portal's forms (the count guards against a broken pattern)
    missing = [name for name, form in forms if "{% csrf_token %}" not in form]
    assert missing == []


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/accounts/tokens/", "/notifications/", "/federation/people/"])
def test_each_rendered_post_form_has_a_csrfmiddlewaretoken(path):
    client = Client()
    client.force_login(UserFactory(is_staff=True))
    html = client.get(path).content.decode()
    forms = [f for f in FORM.finditer(html) if POST.search(f.group(0).split(">", 1)[0])]
    assert forms, path
    for form in forms:
        assert 'name="csrfmiddlewaretoken"' in form.group(0), form.group(0)[:200]


@pytest.mark.django_db
def test_a_login_without_the_csrf_token_is_refused():
    user = UserFactory()
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("login"), {"username": user.username, "password": TEST_PASSWORD})
    assert response.status_code == 403
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_a_write_page_without_the_csrf_token_is_refused():
    user = UserFactory()
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    response = client.post(reverse("accounts:tokens"), {"password": TEST_PASSWORD, "name": "forged", "days": 30})
    assert response.status_code == 403
    assert not ApiToken.objects.exists()
    # With the token the page's form sends, the same POST is accepted.
    client.get(reverse("accounts:tokens"))
    token = client.cookies["csrftoken"].value
    response = client.post(
        reverse("accounts:tokens"),
        {"password": TEST_PASSWORD, "name": "mine", "days": 30, "csrfmiddlewaretoken": token},
    )
    assert response.status_code == 200 and ApiToken.objects.filter(name="mine").exists()
