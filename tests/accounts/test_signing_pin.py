"""The signing PIN (issue 23): set on the login's own page after the current password, stored hashed, checked
when a signer signs a game report on the officials' device (4.2 O, 4.3 A), and locked after wrong ones."""

import datetime

import pytest
from django.contrib.auth.hashers import check_password
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.pins import PASSWORD, PIN, set_signing_pin, verify_signing_secret
from tests.factories import TEST_PASSWORD, TEST_PIN, UserFactory

pytestmark = pytest.mark.django_db

RULE = "Rule 4.2 O / 4.3 A: each signer signs the game report in person"


def browser(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def post_form(client, data):
    """Post the page's form as a browser does: form-encoded, with the CSRF token of the page."""
    page = client.get(reverse("accounts:signing-pin"))
    assert page.status_code == 200
    return client.post(reverse("accounts:signing-pin"), {**data, "csrfmiddlewaretoken": page.context["csrf_token"]})


def test_the_page_sets_the_pin_hashed_after_the_current_password():
    user = UserFactory(signing_pin="")
    client = browser(user)
    page = client.get(reverse("accounts:signing-pin"))
    assert b"You have no signing PIN yet." in page.content
    answer = post_form(client, {"current_password": TEST_PASSWORD, "pin": "90817263", "pin_again": "90817263"})
    assert answer.status_code == 302
    user.refresh_from_db()
    assert user.signing_pin and "90817263" not in user.signing_pin  # a hash, not the PIN
    assert check_password("90817263", user.signing_pin)
    assert verify_signing_secret(user, pin="90817263", rule=RULE) == PIN
    assert b"You have a signing PIN." in client.get(reverse("accounts:signing-pin")).content


@pytest.mark.parametrize(
    ("data", "field", "says"),
    [
        (
            {"current_password": "wrong-password", "pin": "123456", "pin_again": "123456"},  # pragma: allowlist secret
            "current_password",
            "wrong",
        ),
        ({"current_password": TEST_PASSWORD, "pin": "12345", "pin_again": "12345"}, "pin", "6 to 12 digits"),
        ({"current_password": TEST_PASSWORD, "pin": "12ab56", "pin_again": "12ab56"}, "pin", "6 to 12 digits"),
        ({"current_password": TEST_PASSWORD, "pin": "123456", "pin_again": "654321"}, "pin_again", "differ"),
    ],
)
def test_a_bad_pin_form_is_a_400_naming_the_field_and_changes_nothing(data, field, says):
    user = UserFactory()
    before = user.signing_pin
    answer = post_form(browser(user), data)
    assert answer.status_code == 400
    assert says in " ".join(answer.context["form"].errors[field])
    user.refresh_from_db()
    assert user.signing_pin == before


def test_the_page_is_for_logged_in_users_only(client):
    answer = client.get(reverse("accounts:signing-pin"))
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]


def test_the_pin_or_the_password_proves_the_signer_and_a_wrong_one_names_its_field():
    user = UserFactory()
    assert verify_signing_secret(user, pin=TEST_PIN, rule=RULE) == PIN
    assert verify_signing_secret(user, password=TEST_PASSWORD, rule=RULE) == PASSWORD
    for secret, field in (
        ({"pin": "000000"}, "pin"),
        ({"password": "nope"}, "password"),  # pragma: allowlist secret
        ({}, "pin"),
    ):
        with pytest.raises(ValidationError) as refused:
            verify_signing_secret(user, rule=RULE, **secret)
        assert RULE in refused.value.message_dict[field][0]
    without = UserFactory(signing_pin="")
    with pytest.raises(ValidationError, match="no signing PIN"):
        verify_signing_secret(without, pin=TEST_PIN, rule=RULE)


def test_wrong_secrets_lock_signing_for_the_cooloff_then_a_right_one_resets_the_count(settings):
    user = UserFactory()
    now = timezone.now()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        with pytest.raises(ValidationError):
            verify_signing_secret(user, pin="000000", rule=RULE, now=now)
    user.refresh_from_db()
    assert user.signing_failures == settings.AXES_FAILURE_LIMIT - 1 and user.signing_locked_until is None
    with pytest.raises(ValidationError):
        verify_signing_secret(user, pin="000000", rule=RULE, now=now)
    user.refresh_from_db()
    assert user.signing_locked_until == now + datetime.timedelta(hours=settings.AXES_COOLOFF_TIME)
    with pytest.raises(ValidationError, match="locked"):
        verify_signing_secret(user, pin=TEST_PIN, rule=RULE, now=now)
    with pytest.raises(ValidationError, match="locked"):
        set_signing_pin(user, current_password=TEST_PASSWORD, pin="123456", now=now)
    later = now + datetime.timedelta(hours=settings.AXES_COOLOFF_TIME, minutes=1)
    assert verify_signing_secret(user, pin=TEST_PIN, rule=RULE, now=later) == PIN
    user.refresh_from_db()
    assert user.signing_failures == 0 and user.signing_locked_until is None
