"""Issue 25, "everyone with a login": the profile, a new password, a forgotten one, invitations by e-mail and the
revocation of a team role (its sessions and API tokens end at once). Forms are posted as a browser posts them."""

import datetime
import re

import pytest
from django.conf import settings
from django.core import mail
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from accounts import invitations, logins
from accounts.models import ApiToken, Invitation, Role, RoleAssignment, User
from accounts.password_reset import RESET_LIMIT_PER_EMAIL
from tests.browser_forms import browser_client, post_form
from tests.factories import (
    TEST_PASSWORD,
    FederationFactory,
    RoleAssignmentFactory,
    TeamEntryFactory,
    UserFactory,
    federation_staff,
    international_staff,
)

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "a-brand-new-passphrase-42"  # pragma: allowlist secret


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def logged_in(user):
    client = browser_client()
    client.force_login(user)
    return client


# --- Profile -------------------------------------------------------------------------------------------------------


def test_the_profile_saves_name_email_and_language_and_the_pages_follow_the_language():
    user = UserFactory()
    client = logged_in(user)
    url = reverse("accounts:profile")
    response = post_form(
        client, url, {"first_name": "Ana", "last_name": "Ruiz", "email": "ana@example.org", "language": "es"}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert (user.first_name, user.email, user.language) == ("Ana", "ana@example.org", "es")
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "es"
    assert "Perfil" in client.get(url).content.decode()


def test_the_profile_refuses_an_address_another_login_uses():
    UserFactory(email="taken@example.org")
    user = UserFactory()
    response = post_form(
        logged_in(user),
        reverse("accounts:profile"),
        {"first_name": "A", "last_name": "B", "email": "Taken@example.org", "language": ""},
    )
    assert response.status_code == 400
    assert "another login uses this address" in response.content.decode()
    user.refresh_from_db()
    assert user.email != "taken@example.org"


# --- Password change -----------------------------------------------------------------------------------------------


def test_changing_the_password_keeps_the_session_and_revokes_the_api_tokens():
    user = UserFactory()
    ApiToken.objects.create(user=user, name="script")
    client = logged_in(user)
    response = post_form(
        client,
        reverse("accounts:password-change"),
        {"old_password": TEST_PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302 and response["Location"] == reverse("accounts:password-change-done")
    assert not ApiToken.objects.filter(user=user).exists()
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert client.get(reverse("accounts:profile")).status_code == 200  # still logged in


def test_a_wrong_current_password_changes_nothing():
    user = UserFactory()
    response = post_form(
        logged_in(user),
        reverse("accounts:password-change"),
        {
            "old_password": "wrong",  # pragma: allowlist secret
            "new_password1": NEW_PASSWORD,
            "new_password2": NEW_PASSWORD,
        },
    )
    assert response.status_code == 200 and "old_password" in response.context["form"].errors
    user.refresh_from_db()
    assert user.check_password(TEST_PASSWORD)


# --- Password reset ------------------------------------------------------------------------------------------------


def _reset_link(message) -> str:
    match = re.search(r"https?://\S+/accounts/password-reset/\S+/\S+/", message.body)
    assert match, message.body
    return match.group(0)


def test_a_reset_link_uses_the_portal_address_and_the_login_language_and_sets_a_new_password(settings):
    settings.PORTAL_BASE_URL = "https://portal.example.net"
    user = UserFactory(email="lost@example.org", language="fr")
    ApiToken.objects.create(user=user, name="script")
    client = browser_client()
    response = post_form(client, reverse("accounts:password-reset"), {"email": "lost@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = _reset_link(mail.outbox[0])
    assert link.startswith("https://portal.example.net/accounts/password-reset/")
    assert "mot de passe" in mail.outbox[0].body.lower()
    path = link.removeprefix("https://portal.example.net")
    form_page = client.get(path, follow=True)
    set_url = form_page.redirect_chain[-1][0]
    response = post_form(client, set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert not ApiToken.objects.filter(user=user).exists()


def test_the_reset_page_answers_the_same_for_an_unknown_address():
    response = post_form(browser_client(), reverse("accounts:password-reset"), {"email": "nobody@example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("accounts:password-reset-done")
    assert mail.outbox == []


def test_resets_are_limited_per_address_and_the_page_says_the_limit():
    UserFactory(email="lost@example.org")
    client = browser_client()
    page = client.get(reverse("accounts:password-reset"))
    assert f"At most {RESET_LIMIT_PER_EMAIL} e-mails an hour" in page.content.decode()
    for _ in range(RESET_LIMIT_PER_EMAIL):
        assert post_form(client, reverse("accounts:password-reset"), {"email": "lost@example.org"}).status_code == 302
    refused = post_form(client, reverse("accounts:password-reset"), {"email": "LOST@example.org"})
    assert refused.status_code == 429 and "Too many resets" in refused.content.decode()
    assert len(mail.outbox) == RESET_LIMIT_PER_EMAIL


def test_resets_are_limited_per_network_address_whatever_the_addresses():
    client = browser_client()
    answers = [
        post_form(client, reverse("accounts:password-reset"), {"email": f"n{i}@example.org"}).status_code
        for i in range(11)
    ]
    assert answers[:10] == [302] * 10 and answers[10] == 429


# --- Invitations ---------------------------------------------------------------------------------------------------


def _invitation_link(message) -> str:
    match = re.search(r"https?://\S+/accounts/invitations/\S+/", message.body)
    assert match, message.body
    return match.group(0)


def _invite(by, entry, email="coach@example.org", duty="coach"):
    response = post_form(
        logged_in(by), reverse("tournaments:entry-invite", args=[entry.pk]), {"email": email, "duty": duty}
    )
    assert response.status_code == 302, response.content[:500]
    return Invitation.objects.get(email=email)


def test_staff_invite_by_email_and_the_invitee_makes_a_login_and_manages_the_entry(settings):
    settings.PORTAL_BASE_URL = "https://portal.example.net"
    entry = TeamEntryFactory()
    staff = federation_staff(entry.federation, language="es")
    invitation = _invite(staff, entry)
    assert invitation.expires_at - invitation.created_at == datetime.timedelta(days=7)
    message = mail.outbox[0]
    assert message.to == ["coach@example.org"]
    assert "Entrenador" in message.body or "invita" in message.body  # the inviter's language: Spanish
    link = _invitation_link(message)
    token = link.rstrip("/").rsplit("/", 1)[1]
    assert token not in invitation.token_digest  # only its digest is stored
    path = link.removeprefix("https://portal.example.net")
    client = browser_client()
    response = post_form(
        client,
        path,
        {
            "username": "coach1",
            "first_name": "Ana",
            "last_name": "Ruiz",
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
        },
    )
    assert response.status_code == 302
    user = User.objects.get(username="coach1")
    assert user.email == "coach@example.org" and user.check_password(NEW_PASSWORD)
    assert RoleAssignment.objects.filter(user=user, role=Role.TEAM_MANAGER, federation=entry.federation).exists()
    assert list(entry.managers.all()) == [user]
    assert client.get(reverse("tournaments:entry-detail", args=[entry.pk])).status_code == 200
    # Once: the link is used up.
    assert browser_client().get(path).status_code == 404


def test_an_invitation_goes_in_the_invitees_language_when_known():
    entry = TeamEntryFactory()
    UserFactory(email="known@example.org", language="fr")
    _invite(federation_staff(entry.federation, language="es"), entry, email="known@example.org")
    assert "vous invite" in mail.outbox[0].body


def test_a_logged_in_invitee_with_the_address_only_accepts():
    entry = TeamEntryFactory()
    invitee = UserFactory(email="known@example.org")
    _invite(international_staff(), entry, email="known@example.org", duty="manager")
    path = re.search(r"/accounts/invitations/\S+/", mail.outbox[0].body).group(0)
    assert browser_client().get(path).status_code == 200  # logged out: asked to log in first
    response = post_form(logged_in(invitee), path, {})
    assert response.status_code == 302
    assert invitee in entry.managers.all()


def test_another_login_cannot_accept_and_an_expired_link_is_refused():
    entry = TeamEntryFactory()
    invitation = _invite(federation_staff(entry.federation), entry)
    path = re.search(r"/accounts/invitations/\S+/", mail.outbox[0].body).group(0)
    response = post_form(logged_in(UserFactory(email="other@example.org")), path, {})
    assert response.status_code == 400 and not entry.managers.exists()
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    assert browser_client().get(path).status_code == 404


def test_staff_of_another_federation_and_team_managers_cannot_invite():
    entry = TeamEntryFactory()
    other = federation_staff(FederationFactory())
    manager = UserFactory()
    RoleAssignmentFactory(user=manager, role=Role.TEAM_MANAGER, federation=entry.federation)
    entry.managers.add(manager)
    url = reverse("tournaments:entry-invite", args=[entry.pk])
    assert (
        post_form(
            logged_in(manager), url, {"email": "x@example.org", "duty": "coach"}, page=reverse("home")
        ).status_code
        == 403
    )
    assert (
        post_form(logged_in(other), url, {"email": "x@example.org", "duty": "coach"}, page=reverse("home")).status_code
        == 403
    )
    assert not Invitation.objects.exists() and mail.outbox == []


def test_a_bad_address_is_a_form_error_naming_the_field():
    entry = TeamEntryFactory()
    response = post_form(
        logged_in(federation_staff(entry.federation)),
        reverse("tournaments:entry-invite", args=[entry.pk]),
        {"email": "not an address", "duty": "coach"},
    )
    assert response.status_code == 400 and "email" in response.context["form"].errors
    assert not Invitation.objects.exists()


# --- Logins and revocation -----------------------------------------------------------------------------------------


def _manager_of(entry, **kwargs):
    user = UserFactory(**kwargs)
    RoleAssignmentFactory(user=user, role=Role.TEAM_MANAGER, federation=entry.federation)
    entry.managers.add(user)
    return user


def test_revoking_a_role_ends_every_session_at_its_next_request_and_revokes_the_tokens():
    entry = TeamEntryFactory()
    manager = _manager_of(entry)
    ApiToken.objects.create(user=manager, name="script")
    open_session = logged_in(manager)
    assert open_session.get(reverse("tournaments:entry-detail", args=[entry.pk])).status_code == 200
    staff = federation_staff(entry.federation)
    assignment = RoleAssignment.objects.get(user=manager, role=Role.TEAM_MANAGER)
    assert logins.revoke_role(assignment, by=staff) == 1
    assert not ApiToken.objects.filter(user=manager).exists()
    assert not RoleAssignment.objects.filter(user=manager).exists()
    assert not entry.managers.exists()
    response = open_session.get(reverse("accounts:profile"))
    assert response.status_code == 302 and reverse("login") in response["Location"]  # logged out


def test_end_access_logs_out_every_session_but_a_fresh_login_works():
    user = UserFactory()
    first, second = logged_in(user), logged_in(user)
    logins.end_access(user)
    for client in (first, second):
        assert client.get(reverse("accounts:profile")).status_code == 302
    again = browser_client()
    again.force_login(User.objects.get(pk=user.pk))
    assert again.get(reverse("accounts:profile")).status_code == 200


def test_the_logins_page_shows_the_federations_team_logins_with_search_and_revokes_one():
    entry = TeamEntryFactory()
    mine = _manager_of(entry, last_name="Mineur")
    elsewhere = _manager_of(TeamEntryFactory(), last_name="Ailleurs")
    staff = federation_staff(entry.federation)
    client = logged_in(staff)
    page = client.get(reverse("accounts:logins")).content.decode()
    assert "Mineur" in page and "Ailleurs" not in page
    assert "Ailleurs" in logged_in(international_staff()).get(reverse("accounts:logins")).content.decode()
    assert "Mineur" not in client.get(reverse("accounts:logins") + "?q=nobody").content.decode()
    assignment = RoleAssignment.objects.get(user=mine)
    response = post_form(
        client, reverse("accounts:role-revoke", args=[assignment.pk]), {}, page=reverse("accounts:logins")
    )
    assert response.status_code == 302
    assert not RoleAssignment.objects.filter(user=mine).exists()
    other = RoleAssignment.objects.get(user=elsewhere)
    refused = post_form(client, reverse("accounts:role-revoke", args=[other.pk]), {}, page=reverse("accounts:logins"))
    assert refused.status_code == 404 and RoleAssignment.objects.filter(pk=other.pk).exists()


def test_only_staff_see_the_logins_page():
    entry = TeamEntryFactory()
    assert logged_in(_manager_of(entry)).get(reverse("accounts:logins")).status_code == 403


def test_invite_service_rechecks_access():
    entry = TeamEntryFactory()
    with pytest.raises(Exception, match="Only staff"):
        invitations.invite(
            email="x@example.org", role=Role.TEAM_MANAGER, federation_id=entry.federation_id, by=UserFactory()
        )
