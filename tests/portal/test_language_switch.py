"""The header's language switch (issue 12), posted as a browser posts it: form-encoded, with the CSRF token."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _switch(client: Client, language: str, next_url: str = "/"):
    """Load the home, read the switch's token from its form, and post the form as the browser encodes it."""
    home = client.get("/")
    assert home.status_code == 200
    token = TOKEN.search(home.content.decode()).group(1)
    return client.post(
        reverse("set_language"),
        urlencode({"csrfmiddlewaretoken": token, "language": language, "next": next_url}),
        content_type="application/x-www-form-urlencoded",
    )


def _form_client(user=None) -> Client:
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.django_db
def test_a_logged_in_person_switches_language_and_it_is_stored():
    user = UserFactory(language="")
    client = _form_client(user)
    response = _switch(client, "fr", "/notifications/")
    assert response.status_code == 302
    assert response["Location"] == "/notifications/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    user.refresh_from_db()
    assert user.language == "fr"  # the e-mails follow it (portal.notifications.notify)
    # The next page is in French, and switching again replaces the stored choice.
    assert client.get("/").headers["Content-Language"] == "fr"
    response = _switch(client, "es")
    assert response.status_code == 302 and response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "es"
    user.refresh_from_db()
    assert user.language == "es"


@pytest.mark.django_db
def test_a_language_the_portal_does_not_speak_changes_nothing():
    user = UserFactory(language="fr")
    response = _switch(_form_client(user), "xx")
    assert response.status_code == 302
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
    user.refresh_from_db()
    assert user.language == "fr"


@pytest.mark.django_db
def test_a_visitor_switches_language_with_the_cookie_only():
    response = _switch(_form_client(), "es")
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "es"


@pytest.mark.django_db
def test_the_switch_without_the_csrf_token_is_refused():
    user = UserFactory(language="")
    response = _form_client(user).post(reverse("set_language"), {"language": "fr", "next": "/"})
    assert response.status_code == 403
    user.refresh_from_db()
    assert user.language == ""
