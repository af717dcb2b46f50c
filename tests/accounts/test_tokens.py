"""API tokens (django-rest-knox): made on the "API tokens" page, shown once, revocable; no HTTP Basic anywhere."""

import base64
import datetime
import io

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from tests.browser_forms import browser_client, post_form
from tests.factories import TEST_PASSWORD, SuperuserFactory, UserFactory

pytestmark = pytest.mark.django_db


def make_token(client, name="scoring script", days=90) -> str:
    response = client.post(reverse("accounts:tokens"), {"password": TEST_PASSWORD, "name": name, "days": days})
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
    response = client.post(reverse("accounts:tokens"), {"password": TEST_PASSWORD, "name": "", "days": 90})
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
    # 401 naming the scheme (accounts.authentication): the token is no longer known, get a new one.
    assert (response.status_code, response.json()) == (401, {"detail": "Invalid token."})
    assert response["WWW-Authenticate"] == "Token"


def test_an_expired_token_is_refused(client):
    user = UserFactory()
    _, token = ApiToken.objects.create(user=user, name="old", expiry=datetime.timedelta(seconds=-1))
    response = client.get("/api/federations/", HTTP_AUTHORIZATION=f"Token {token}")
    assert (response.status_code, response.json()) == (401, {"detail": "Invalid token."})
    assert response["WWW-Authenticate"] == "Token"
    assert not ApiToken.objects.filter(user=user).exists()  # knox deletes an expired token it meets


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
    # The token first: its header makes a refused token a 401 (accounts.authentication).
    assert classes[0] == "accounts.authentication.TokenAuthentication"


def test_the_schema_declares_the_token_scheme(client):
    client.force_login(UserFactory())
    schema = client.get("/api/v1/schema/?format=json").json()
    assert schema["components"]["securitySchemes"]["knoxApiToken"] == {
        "type": "apiKey",
        "in": "header",
        "name": "Authorization",
        "description": 'Token-based authentication with required prefix "Token"',
    }


# --- Issue 23: a token is made with the password, and a new password revokes every token -----------------------


def _token_works(token: str) -> bool:
    return Client().get("/api/federations/", HTTP_AUTHORIZATION=f"Token {token}").status_code == 200


def test_making_a_token_asks_for_the_password_and_a_session_alone_makes_none():
    client = browser_client()
    client.force_login(UserFactory())
    url = reverse("accounts:tokens")
    response = post_form(client, url, {"name": "stolen session", "days": 365})
    assert response.status_code == 200 and response.context["created"] is None
    assert "password" in response.context["form"].errors
    response = post_form(client, url, {"password": "not-my-password-at-all", "name": "stolen session", "days": 365})
    assert response.status_code == 200 and response.context["created"] is None
    assert response.context["form"].errors["password"] == [
        "This is not your password: a token is made only with your current password."
    ]
    assert not ApiToken.objects.exists()
    response = post_form(client, url, {"password": TEST_PASSWORD, "name": "mine", "days": 365})
    assert response.context["created"] and _token_works(response.context["created"])
    assert b'name="password"' in client.get(url).content and b'type="password"' in client.get(url).content


def test_wrong_passwords_on_the_token_page_count_toward_the_login_lockout():
    user = UserFactory()
    client = browser_client()
    client.force_login(user)
    url = reverse("accounts:tokens")
    for _ in range(4):
        response = post_form(client, url, {"password": "guess-guess-guess", "name": "x", "days": 30})
        assert response.status_code == 200 and "password" in response.context["form"].errors
    # The fifth failure reaches the limit (django-axes, per username and address): the page is the lockout's.
    response = post_form(client, url, {"password": "guess-guess-guess", "name": "x", "days": 30})
    assert response.status_code == 429
    # Locked out: not even the right password makes a token, and the login page refuses it too.
    response = post_form(client, url, {"password": TEST_PASSWORD, "name": "x", "days": 30})
    assert response.status_code == 429 and not ApiToken.objects.exists()
    other = browser_client()
    response = post_form(other, reverse("login"), {"username": user.username, "password": TEST_PASSWORD})
    assert response.status_code == 429


def test_set_password_in_any_service_revokes_every_token_of_that_person_only():
    user, bystander = UserFactory(), UserFactory()
    _, first = ApiToken.objects.create(user=user, name="laptop")
    _, second = ApiToken.objects.create(user=user, name="server")
    _, kept = ApiToken.objects.create(user=bystander, name="theirs")
    user.set_password("a-brand-new-long-password")
    user.save()
    assert user.revoked_api_tokens == 2
    assert not _token_works(first) and not _token_works(second)
    assert _token_works(kept) and not ApiToken.objects.filter(user=user).exists()


def test_an_ordinary_save_or_a_hash_upgrade_at_login_keeps_the_tokens(settings):
    user = UserFactory()
    _, token = ApiToken.objects.create(user=user, name="script")
    user.first_name = "Renamed"
    user.save()
    # A login with a hasher newer than the stored hash's re-hashes the same password: no change of password.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher", *settings.PASSWORD_HASHERS]
    client = browser_client()
    assert (
        post_form(client, reverse("login"), {"username": user.username, "password": TEST_PASSWORD}).status_code == 302
    )
    user.refresh_from_db()
    assert user.password.startswith("pbkdf2_sha1$")  # re-hashed
    assert _token_works(token)


def test_the_admins_change_password_page_revokes_the_tokens_and_says_so():
    target = UserFactory()
    _, token = ApiToken.objects.create(user=target, name="script")
    client = browser_client()
    client.force_login(SuperuserFactory())
    url = f"/admin/accounts/user/{target.pk}/password/"
    new = "a-brand-new-long-password"  # pragma: allowlist secret
    response = post_form(client, url, {"password1": new, "password2": new, "usable_password": "true"})
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert f"The new password revoked 1 API token of {target.username}" in page
    assert not _token_works(token)


def test_ones_own_password_change_in_the_admin_revokes_the_tokens_and_says_so():
    staff = SuperuserFactory()
    _, token = ApiToken.objects.create(user=staff, name="script")
    client = browser_client()
    client.force_login(staff)
    new = "a-brand-new-long-password"  # pragma: allowlist secret
    data = {"old_password": TEST_PASSWORD, "new_password1": new, "new_password2": new}
    response = post_form(client, "/admin/password_change/", data)
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "Every API token you had is revoked with the old password" in page
    assert not _token_works(token)


def test_the_changepassword_command_revokes_the_tokens(monkeypatch):
    user = UserFactory()
    _, token = ApiToken.objects.create(user=user, name="script")
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "a-brand-new-long-password")
    call_command("changepassword", user.username, stdout=io.StringIO())
    assert not _token_works(token)
