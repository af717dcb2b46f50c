"""The API's token exchange and revocation (issue 29, accounts.token_api), and how a refused token is answered:
401 with ``WWW-Authenticate: Token`` for a token the portal does not know, 403 for a known caller who may not."""

import datetime

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import ApiToken
from tests.factories import TEST_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

WRONG = "wrong-password-guess"  # pragma: allowlist secret


def exchange(client, ip="203.0.113.7", **body):
    return client.post(reverse("accounts-api:token"), body, content_type="application/json", REMOTE_ADDR=ip)


def token_works(token: str) -> bool:
    return Client().get("/api/federations/", HTTP_AUTHORIZATION=f"Token {token}").status_code == 200


# --- the exchange ----------------------------------------------------------------------------------------------


def test_a_login_and_password_make_a_named_token_that_opens_the_api(client):
    user = UserFactory(is_staff=True)
    response = exchange(client, username=user.username, password=TEST_PASSWORD, name="registrations sync")
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"token", "name", "expires"} and body["name"] == "registrations sync"
    stored = ApiToken.objects.get(user=user)
    assert stored.name == "registrations sync" and body["token"] not in stored.digest
    # 30 days when the body names none.
    expires = datetime.datetime.fromisoformat(body["expires"])
    assert expires == stored.expiry
    assert abs(expires - (timezone.now() + datetime.timedelta(days=30))) < datetime.timedelta(minutes=1)
    response = Client().get("/api/federations/", HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert response.status_code == 200


def test_the_token_lives_the_days_asked_from_1_to_365(client):
    user = UserFactory()
    for days in (1, 365):
        response = exchange(
            client, username=user.username, password=TEST_PASSWORD, name=f"d{days}", expires_in_days=days
        )
        assert response.status_code == 201
    lives = {t.name: t.expiry - t.created for t in ApiToken.objects.filter(user=user)}
    assert {name: round(life / datetime.timedelta(days=1)) for name, life in lives.items()} == {"d1": 1, "d365": 365}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"expires_in_days": 0}, "expires_in_days"),
        ({"expires_in_days": 366}, "expires_in_days"),
        ({"expires_in_days": "٣"}, "expires_in_days"),
        ({"expires_in_days": 1.5}, "expires_in_days"),
        ({"name": ""}, "name"),
        ({"name": "x" * 101}, "name"),
        ({"username": None}, "username"),
        ({"scope": "all"}, "scope"),
    ],
)
def test_bad_input_is_a_400_naming_the_field_and_makes_no_token(client, change, field):
    user = UserFactory()
    body = {"username": user.username, "password": TEST_PASSWORD, "name": "script", **change}
    response = exchange(client, **body)
    assert response.status_code == 400 and field in response.json()
    assert not ApiToken.objects.exists()
    assert not AccessAttempt.objects.exists()  # no password was checked


def test_a_missing_password_is_a_400_naming_it(client):
    response = exchange(client, username=UserFactory().username, name="script")
    assert response.status_code == 400 and "password" in response.json()


def test_a_wrong_password_is_a_400_and_counts_toward_the_lockout(client):
    user = UserFactory()
    response = exchange(client, username=user.username, password=WRONG, name="script")
    assert response.status_code == 400
    assert response.json() == {"non_field_errors": ["The username or the password is wrong: no token is made."]}
    assert not ApiToken.objects.exists()
    assert AccessAttempt.objects.get(username=user.username).failures_since_start == 1


def test_an_unknown_login_and_an_inactive_one_are_refused_the_same_way(client):
    inactive = UserFactory(is_active=False)
    for username in ("nobody-at-all", inactive.username):
        response = exchange(client, username=username, password=TEST_PASSWORD, name="script")
        assert response.status_code == 400 and list(response.json()) == ["non_field_errors"]
    assert not ApiToken.objects.exists()


def test_wrong_passwords_lock_the_login_as_on_the_login_page_and_a_locked_one_gets_no_token(client):
    user = UserFactory()
    for _ in range(4):
        assert exchange(client, username=user.username, password=WRONG, name="script").status_code == 400
    # The fifth failure reaches the limit (per login and address): that answer already says the login is locked.
    response = exchange(client, username=user.username, password=WRONG, name="script")
    assert response.status_code == 403 and response["Content-Type"] == "application/json"
    assert "it is locked for 1 hour" in response.json()["detail"]
    assert "ask an IHTC executive to unlock it now" in response.json()["detail"]
    # Locked: not even the right password makes a token, and the login page is locked too.
    response = exchange(client, username=user.username, password=TEST_PASSWORD, name="script")
    assert response.status_code == 403 and "locked" in response.json()["detail"]
    assert not ApiToken.objects.exists()
    page = Client().post(
        reverse("login"), {"username": user.username, "password": TEST_PASSWORD}, REMOTE_ADDR="203.0.113.7"
    )
    assert page.status_code == 429
    # Another address is not locked out (per login and address, accounts.lockout).
    assert (
        exchange(client, ip="198.51.100.9", username=user.username, password=TEST_PASSWORD, name="s").status_code == 201
    )


def test_failures_on_the_login_page_count_toward_the_exchange(client):
    user = UserFactory()
    for _ in range(5):
        Client().post(reverse("login"), {"username": user.username, "password": WRONG}, REMOTE_ADDR="203.0.113.7")
    response = exchange(client, username=user.username, password=TEST_PASSWORD, name="script")
    assert response.status_code == 403 and "locked" in response.json()["detail"]


def test_guesses_from_many_addresses_lock_the_login_too(client):
    """The per-login limit (10 from any addresses) holds for the exchange as for the login page."""
    user = UserFactory()
    for i in range(9):
        assert (
            exchange(client, ip=f"198.51.100.{i + 1}", username=user.username, password=WRONG, name="s").status_code
            == 400
        )
    response = exchange(client, ip="198.51.100.200", username=user.username, password=WRONG, name="s")
    assert response.status_code == 403
    response = exchange(client, ip="192.0.2.1", username=user.username, password=TEST_PASSWORD, name="s")
    assert response.status_code == 403 and not ApiToken.objects.exists()


def test_the_exchange_needs_no_session_and_no_csrf_token():
    user = UserFactory()
    client = Client(enforce_csrf_checks=True)
    client.force_login(UserFactory())
    response = exchange(client, username=user.username, password=TEST_PASSWORD, name="script")
    assert response.status_code == 201
    assert ApiToken.objects.get().user == user  # the body's login, not the session's


# --- the revocation --------------------------------------------------------------------------------------------


def test_delete_revokes_the_token_in_use_only(client):
    user = UserFactory(is_staff=True)
    _, used = ApiToken.objects.create(user=user, name="used")
    _, other = ApiToken.objects.create(user=user, name="other")
    response = client.delete(reverse("accounts-api:token"), HTTP_AUTHORIZATION=f"Token {used}")
    assert response.status_code == 204 and not response.content
    assert list(ApiToken.objects.values_list("name", flat=True)) == ["other"]
    assert not token_works(used) and token_works(other)
    again = client.delete(reverse("accounts-api:token"), HTTP_AUTHORIZATION=f"Token {used}")
    assert again.status_code == 401 and again["WWW-Authenticate"] == "Token"


def test_delete_without_a_token_is_refused_even_with_a_session(client):
    user = UserFactory()
    ApiToken.objects.create(user=user, name="kept")
    client.force_login(user)
    response = client.delete(reverse("accounts-api:token"))
    assert response.status_code == 403 and "WWW-Authenticate" not in response
    assert ApiToken.objects.filter(user=user).count() == 1


# --- 401 for a token the portal does not know, 403 for a known caller who may not --------------------------------


@pytest.mark.parametrize("path", ["/api/people/", "/api/championships/"])
def test_an_unknown_token_is_a_401_naming_the_scheme_on_closed_and_public_operations(client, path):
    response = client.get(path, HTTP_AUTHORIZATION="Token 0123456789abcdef0123456789abcdef")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json() == {"detail": "Invalid token."}


def test_an_expired_token_is_a_401_and_a_fresh_one_works(client):
    user = UserFactory(is_staff=True)
    _, expired = ApiToken.objects.create(user=user, name="old", expiry=datetime.timedelta(seconds=-1))
    response = client.get("/api/people/", HTTP_AUTHORIZATION=f"Token {expired}")
    assert (response.status_code, response["WWW-Authenticate"]) == (401, "Token")
    fresh = exchange(client, username=user.username, password=TEST_PASSWORD, name="new").json()["token"]
    assert token_works(fresh)


def test_a_token_of_an_inactive_login_is_a_401(client):
    user = UserFactory()
    _, token = ApiToken.objects.create(user=user, name="script")
    user.is_active = False
    user.save(update_fields=["is_active"])
    response = client.get("/api/federations/", HTTP_AUTHORIZATION=f"Token {token}")
    assert (response.status_code, response["WWW-Authenticate"]) == (401, "Token")


def test_a_token_header_without_the_token_is_a_401(client):
    response = client.get("/api/federations/", HTTP_AUTHORIZATION="Token")
    assert (response.status_code, response["WWW-Authenticate"]) == (401, "Token")


def test_a_known_caller_who_may_not_is_a_403_not_a_401(client):
    _, token = ApiToken.objects.create(user=UserFactory(), name="script")
    response = client.post(
        "/api/federations/",
        {"name": "Confederation", "level": "continental"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {token}",
    )
    assert response.status_code == 403 and "WWW-Authenticate" not in response


def test_no_credentials_stay_a_403(client):
    response = client.get("/api/people/")
    assert response.status_code == 403 and "WWW-Authenticate" not in response
    assert response.json() == {"detail": "Authentication credentials were not provided."}


def test_a_bad_token_is_refused_even_beside_a_valid_session(client):
    """The token is checked first: a script's stale token is told so, not hidden by a browser's session."""
    user = UserFactory(is_staff=True)
    client.force_login(user)
    response = client.get("/api/people/", HTTP_AUTHORIZATION="Token 0123456789abcdef0123456789abcdef")
    assert response.status_code == 401
    assert client.get("/api/federations/").status_code == 200  # the session alone still works
