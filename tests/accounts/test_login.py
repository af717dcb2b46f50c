"""Login hardening: django-axes locks a username+IP out after 5 failures, a username from any address after 10;
passwords need 12+ characters."""

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from accounts.lockout import failures_toward_lockout
from accounts.models import ApiToken
from tests.browser_forms import browser_client, post_form
from tests.factories import TEST_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def attempt(client, username, password, ip="203.0.113.7"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip)


def logged_in(client) -> bool:
    return SESSION_KEY in client.session


def test_the_right_password_logs_in(client):
    user = UserFactory()
    response = attempt(client, user.username, TEST_PASSWORD)
    assert response.status_code == 302
    assert logged_in(client)


def test_the_sixth_attempt_after_five_failures_is_refused_even_with_the_right_password(client):
    user = UserFactory()
    for _ in range(5):
        response = attempt(client, user.username, "wrong-password-guess")
        assert not logged_in(client)
    response = attempt(client, user.username, TEST_PASSWORD)
    assert response.status_code == 429
    assert not logged_in(client)


def test_four_failures_do_not_lock_the_account_out(client):
    user = UserFactory()
    for _ in range(4):
        attempt(client, user.username, "wrong-password-guess")
    assert attempt(client, user.username, TEST_PASSWORD).status_code == 302
    assert logged_in(client)


def test_the_lockout_is_per_username_and_ip_address(client):
    user = UserFactory()
    for _ in range(5):
        attempt(client, user.username, "wrong-password-guess", ip="198.51.100.1")
    assert attempt(client, user.username, TEST_PASSWORD, ip="198.51.100.1").status_code == 429
    # Another address is not locked out: a guesser elsewhere cannot lock the real user out.
    assert attempt(client, user.username, TEST_PASSWORD, ip="198.51.100.2").status_code == 302
    assert logged_in(client)


def test_a_locked_out_user_keeps_using_the_api_with_a_token(client):
    """The lockout guards passwords; a token (made before) is no password and keeps working."""
    user = UserFactory()
    _, token = ApiToken.objects.create(user=user, name="script")
    for _ in range(5):
        attempt(client, user.username, "wrong-password-guess")
    assert attempt(client, user.username, TEST_PASSWORD).status_code == 429
    response = client.get("/api/federations/", HTTP_AUTHORIZATION=f"Token {token}", REMOTE_ADDR="203.0.113.7")
    assert response.status_code == 200


def test_the_admin_login_is_locked_out_after_five_failures_too(client):
    staff = UserFactory(is_staff=True)
    login = reverse("admin:login")
    for _ in range(4):
        response = client.post(login, {"username": staff.username, "password": "wrong-password-guess"})
        assert response.status_code == 200 and not logged_in(client)
    # The fifth failure reaches the limit: that answer already locks the username and address out.
    wrong = {"username": staff.username, "password": "wrong-password-guess"}  # pragma: allowlist secret
    assert client.post(login, wrong).status_code == 429
    response = client.post(login, {"username": staff.username, "password": TEST_PASSWORD})
    assert response.status_code == 429
    assert not logged_in(client)


@pytest.mark.parametrize(
    "password",
    [
        "Sh0rt&sweet",  # 11 characters: below the 12 minimum
        "password1234",  # a common password
        "314159265358979",  # entirely numeric
    ],
)
def test_a_weak_password_is_refused_by_the_validators(password):
    user = UserFactory()
    with pytest.raises(ValidationError):
        validate_password(password, user)
    form = SetPasswordForm(user, {"new_password1": password, "new_password2": password})
    assert not form.is_valid()
    assert "new_password2" in form.errors


def test_a_password_similar_to_the_username_is_refused():
    user = UserFactory(username="marcorossi1990")
    with pytest.raises(ValidationError):
        validate_password("marcorossi1990", user)


def test_a_long_uncommon_password_is_accepted():
    user = UserFactory()
    validate_password("rink-puck-visor-2026", user)
    form = SetPasswordForm(user, {"new_password1": "rink-puck-visor-2026", "new_password2": "rink-puck-visor-2026"})
    assert form.is_valid()


# --- Issue 23: a per-login limit from any address; the lockout page says how to be unlocked ----------------------


def test_rotating_the_address_and_x_forwarded_for_does_not_escape_the_per_login_limit():
    """A guesser who changes address (and X-Forwarded-For) with every try is locked after 10 failures in all."""
    user = UserFactory(username="gbr.staff")
    client = browser_client()
    for n in range(10):
        address = {"REMOTE_ADDR": f"198.51.100.{n + 1}", "HTTP_X_FORWARDED_FOR": f"203.0.113.{n + 1}"}
        response = post_form(client, reverse("login"), {"username": user.username, "password": "guess-" * 3}, **address)
        assert response.status_code == (429 if n == 9 else 200), n
    fresh = {"REMOTE_ADDR": "192.0.2.77", "HTTP_X_FORWARDED_FOR": "192.0.2.78"}
    response = post_form(
        browser_client(), reverse("login"), {"username": user.username, "password": TEST_PASSWORD}, **fresh
    )
    assert response.status_code == 429
    assert not AccessAttempt.objects.filter(ip_address="203.0.113.1").exists()  # the header was never believed


def test_nine_failures_spread_over_addresses_do_not_lock_the_login():
    user = UserFactory()
    for n in range(9):
        attempt(Client(), user.username, "wrong-password-guess", ip=f"198.51.100.{n + 1}")
    client = Client()
    assert attempt(client, user.username, TEST_PASSWORD, ip="192.0.2.1").status_code == 302
    assert logged_in(client)


def test_the_login_page_locks_after_the_limit_and_says_how_to_be_unlocked():
    user = UserFactory()
    client = browser_client()
    for _ in range(4):
        response = post_form(client, reverse("login"), {"username": user.username, "password": "guess-" * 3})
        assert response.status_code == 200 and not logged_in(client)
    response = post_form(client, reverse("login"), {"username": user.username, "password": "guess-" * 3})
    assert response.status_code == 429
    response = post_form(client, reverse("login"), {"username": user.username, "password": TEST_PASSWORD})
    assert response.status_code == 429 and not logged_in(client)
    page = response.content.decode()
    assert "it is locked for 1 hour" in page
    assert "ask an IHTC executive to unlock it now" in page and "Access attempts" in page
    # The executive deletes the login's attempts in the admin: the right password works at once.
    AccessAttempt.objects.filter(username=user.username).delete()
    response = post_form(client, reverse("login"), {"username": user.username, "password": TEST_PASSWORD})
    assert response.status_code == 302 and logged_in(client)


@pytest.mark.parametrize(
    ("per_address", "per_account", "locked"),
    [(4, 4, False), (5, 5, True), (1, 9, False), (1, 10, True), (0, 12, True)],
)
def test_failures_toward_lockout(per_address, per_account, locked):
    failures = failures_toward_lockout(per_address, per_account, address_limit=5, account_limit=10)
    assert (failures >= 5) is locked
