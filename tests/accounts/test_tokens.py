"""API tokens (django-rest-knox): made on the "API tokens" page, shown once, revocable; no HTTP Basic anywhere."""

import base64
import datetime

import pytest
from django.urls import reverse

from accounts.models import ApiToken
from tests.factories import TEST_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def make_token(client, name="scoring script", days=90) -> str:
    response = client.post(reverse("accounts:tokens"), {"name": name, "days": days})
    assert response.status_code == 200
    return response.context["created"]


def test_a_token_made_on_the_page_is_shown_once_and_opens_the_api(client):
    user = UserFactory()
    client.force_login(user)
    token = make_token(client)
    page = client.get(reverse("accounts:tokens"))
    assert b"scoring script" in page.content and token.encode() not in page.content
    stored = ApiToken.objects.get(user=user, name="scoring script")
    assert token not in stored.digest  # only the digest is kept
    client.logout()
    response = client.get("/api/federations/", HTTP_AUTHORIZATION=f"Token {token}")
    assert response.status_code == 200


def test_a_person_has_several_tokens_each_with_its_expiry(client):
    user = UserFactory()
    client.force_login(user)
    make_token(client, "laptop", 30)
    make_token(client, "server", 365)
    tokens = {t.name: (t.expiry - t.created).days for t in ApiToken.objects.filter(user=user)}
    assert tokens == {"laptop": 29, "server": 364}  # whole days, counted from a moment after the expiry was set


def test_a_token_without_a_name_is_refused_naming_the_field(client):
    client.force_login(UserFactory())
    response = client.post(reverse("accounts:tokens"), {"name": "", "days": 90})
    assert response.status_code == 200 and response.context["created"] is None
    assert "name" in response.context["form"].errors
    assert not ApiToken.objects.exists()


def test_a_revoked_token_is_refused(client):
    user = UserFactory()
    client.force_login(user)
    token = make_token(client)
    key = ApiToken.objects.get(user=user).token_key
    assert client.post(reverse("accounts:token-revoke", args=[key])).status_code == 302
    assert not ApiToken.objects.filter(user=user).exists()
    client.logout()
    response = client.get("/api/federations/", HTTP_AUTHORIZATION=f"Token {token}")
    # 403, as every refusal of the API (portal.openapi: the session authenticator comes first).
    assert (response.status_code, response.json()) == (403, {"detail": "Invalid token."})


def test_an_expired_token_is_refused(client):
    user = UserFactory()
    _, token = ApiToken.objects.create(user=user, name="old", expiry=datetime.timedelta(seconds=-1))
    response = client.get("/api/federations/", HTTP_AUTHORIZATION=f"Token {token}")
    # 403, as every refusal of the API (portal.openapi: the session authenticator comes first).
    assert (response.status_code, response.json()) == (403, {"detail": "Invalid token."})


def test_another_persons_token_can_be_neither_seen_nor_revoked(client):
    owner, other = UserFactory(), UserFactory()
    ApiToken.objects.create(user=owner, name="owner's script")
    key = ApiToken.objects.get(user=owner).token_key
    client.force_login(other)
    assert b"owner&#x27;s script" not in client.get(reverse("accounts:tokens")).content
    assert client.post(reverse("accounts:token-revoke", args=[key])).status_code == 404
    assert ApiToken.objects.filter(user=owner).count() == 1


def test_the_tokens_page_needs_a_login(client):
    response = client.get(reverse("accounts:tokens"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_http_basic_is_not_accepted_by_the_api(client):
    user = UserFactory()
    basic = base64.b64encode(f"{user.username}:{TEST_PASSWORD}".encode()).decode()
    response = client.get("/api/federations/", HTTP_AUTHORIZATION=f"Basic {basic}")
    assert response.status_code == 403
    assert response.json() == {"detail": "Authentication credentials were not provided."}


def test_a_wrong_password_loop_over_basic_auth_cannot_lock_the_person_out(client):
    """Basic auth is off, so a script sending a wrong password never reaches authentication (nor django-axes)."""
    user = UserFactory()
    wrong = base64.b64encode(f"{user.username}:wrong-password-guess".encode()).decode()
    for _ in range(10):
        assert client.get("/api/federations/", HTTP_AUTHORIZATION=f"Basic {wrong}").status_code == 403
    response = client.post(reverse("login"), {"username": user.username, "password": TEST_PASSWORD})
    assert response.status_code == 302


def test_production_settings_have_no_basic_authentication():
    from django.conf import settings

    classes = settings.REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"]
    assert "rest_framework.authentication.BasicAuthentication" not in classes
    assert "knox.auth.TokenAuthentication" in classes


def test_the_schema_declares_the_token_scheme(client):
    client.force_login(UserFactory())
    schema = client.get("/api/schema/?format=json").json()
    assert schema["components"]["securitySchemes"]["knoxApiToken"] == {
        "type": "apiKey",
        "in": "header",
        "name": "Authorization",
        "description": 'Token-based authentication with required prefix "Token"',
    }
