"""Browser journeys of "everyone with a login" (issue 25): the profile and a new password (in Spanish, at phone
width), a forgotten password reset by e-mail, a team official invited by e-mail from the team's page (in French)
who makes a login, and federation staff revoking a team login whose open session ends at once."""

from __future__ import annotations

import re

from django.core import mail
from playwright.sync_api import expect

from accounts.models import ApiToken, Role, RoleAssignment, User
from tests.e2e.conftest import log_in
from tests.e2e.live_helpers import fits_the_screen, open_menu
from tests.factories import TEST_PASSWORD, FederationFactory, TeamEntryFactory, UserFactory, federation_staff
from tournaments.models import EntryStatus

NEW_PASSWORD = "a-brand-new-passphrase-42"  # pragma: allowlist secret
PHONE = {"width": 390, "height": 844}


def _link_in(message, pattern: str) -> str:
    match = re.search(pattern, message.body)
    assert match, message.body
    return match.group(0)


def test_a_manager_sets_spanish_on_the_profile_then_changes_the_password_on_a_phone(
    page, login_as, screenshot, accessible, outside_requests
):
    manager = UserFactory(username="gestor", first_name="Ana", last_name="Ruiz")
    RoleAssignment.objects.create(user=manager, role=Role.TEAM_MANAGER)
    ApiToken.objects.create(user=manager, name="script")
    page.set_viewport_size(PHONE)
    login_as(manager)
    open_menu(page)
    page.get_by_role("link", name="Profile").click()
    expect(page.get_by_role("heading", name="Profile", exact=True)).to_be_visible()
    accessible(page, "the profile")
    page.locator("main").get_by_label("Language", exact=True).select_option("es")
    page.get_by_label("E-mail").fill("ana.ruiz@example.org")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.get_by_role("heading", name="Perfil")).to_be_visible()
    expect(page.get_by_text("Su perfil está guardado.")).to_be_visible()
    screenshot(page, "profile-in-spanish")
    fits_the_screen(page)
    manager.refresh_from_db()
    assert (manager.language, manager.email) == ("es", "ana.ruiz@example.org")

    page.get_by_role("link", name="Cambiar su contraseña").click()
    accessible(page, "the password change in Spanish")
    page.locator("#id_old_password").fill(TEST_PASSWORD)
    page.locator("#id_new_password1").fill(NEW_PASSWORD)
    page.locator("#id_new_password2").fill(NEW_PASSWORD)
    page.locator("main [type=submit]").click()
    expect(page.get_by_role("heading", name="Contraseña cambiada")).to_be_visible()
    screenshot(page, "password-changed-in-spanish")
    fits_the_screen(page)
    manager.refresh_from_db()
    assert manager.check_password(NEW_PASSWORD)
    assert not ApiToken.objects.filter(user=manager).exists()  # revoked with the old password
    # The signing PIN and the API tokens are one click from the profile.
    page.get_by_role("link", name="Volver a su perfil").click()
    page.get_by_role("link", name="PIN de firma").click()
    expect(page).to_have_url(re.compile(r"/accounts/signing-pin/$"))
    assert outside_requests == []


def test_a_forgotten_password_is_reset_from_the_login_page_by_email(
    page, live_server, settings, screenshot, accessible, outside_requests
):
    from django.core.cache import cache

    cache.clear()
    settings.PORTAL_BASE_URL = live_server.url
    user = UserFactory(username="forgetful", email="forgetful@example.org")
    page.goto("/")
    page.get_by_role("link", name="Log in").click()
    page.get_by_role("link", name="Forgot your password?").click()
    expect(page.locator("#reset-limit")).to_contain_text("At most 3 e-mails an hour")
    accessible(page, "the reset form")
    page.get_by_label("Email").fill("forgetful@example.org")
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_role("heading", name="Check your e-mail")).to_be_visible()
    assert len(mail.outbox) == 1
    link = _link_in(mail.outbox[0], r"http://\S+/accounts/password-reset/\S+/\S+/")
    assert link.startswith(live_server.url)
    page.goto(link)  # the person opens the e-mail's link
    page.locator("#id_new_password1").fill(NEW_PASSWORD)
    page.locator("#id_new_password2").fill(NEW_PASSWORD)
    accessible(page, "the new password form")
    page.get_by_role("button", name="Set the password").click()
    expect(page.get_by_role("heading", name="Password set")).to_be_visible()
    screenshot(page, "password-set")
    page.locator("main").get_by_role("link", name="Log in").click()
    log_in(page, username="forgetful", password=NEW_PASSWORD)
    open_menu(page)
    expect(page.get_by_role("button", name=re.compile("Log out forgetful"))).to_be_visible()
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert outside_requests == []


def test_staff_invite_a_coach_in_french_who_makes_a_login_and_keeps_the_team(
    page, browser, live_server, settings, login_as, screenshot, accessible, outside_requests
):
    settings.PORTAL_BASE_URL = live_server.url
    federation = FederationFactory(name="Fédération française")
    entry = TeamEntryFactory(
        federation=federation, name="France", status=EntryStatus.ENTERED, fee_paid=False, fee_paid_amount=None,
        fee_paid_at=None,
    )  # fmt: skip
    staff = federation_staff(federation, language="fr", first_name="Claire", last_name="Dubois")
    login_as(staff)
    page.get_by_role("link", name="France").first.click()
    page.get_by_role("link", name="Responsables et officiels : inviter par e-mail").click()
    expect(page.get_by_role("heading", name="Responsables et officiels")).to_be_visible()
    accessible(page, "the invitation form in French")
    page.get_by_label("E-mail").fill("coach@example.org")
    page.get_by_label("Fonction").select_option("coach")
    page.get_by_role("button", name="Envoyer l'invitation").click()
    expect(page.get_by_text("Une invitation est envoyée à coach@example.org")).to_be_visible()
    expect(page.get_by_role("list", name="Invitations en attente")).to_contain_text("coach@example.org")
    screenshot(page, "invitation-sent-in-french")
    message = mail.outbox[0]
    assert "vous invite" in message.body and "France" in message.body  # the inviter's language
    link = _link_in(message, r"http://\S+/accounts/invitations/\S+/")

    invitee = browser.new_context(base_url=live_server.url, viewport=PHONE)
    try:
        tab = invitee.new_page()
        tab.goto(link)  # the invitee opens the e-mail's link, on a phone
        expect(tab.locator("#invitation-summary")).to_contain_text("coach@example.org")
        accessible(tab, "the invitation page")
        tab.get_by_label("Username").fill("coach-fr")
        tab.get_by_label("First name").fill("Luc")
        tab.get_by_label("Last name").fill("Martin")
        tab.get_by_label("Password", exact=True).fill(NEW_PASSWORD)
        tab.get_by_label("The password again").fill(NEW_PASSWORD)
        tab.get_by_role("button", name="Accept and make my login").click()
        expect(tab.get_by_text(re.compile("Welcome: your login is made"))).to_be_visible()
        fits_the_screen(tab)
        screenshot(tab, "invitee-welcomed")
        coach = User.objects.get(username="coach-fr")
        assert coach in entry.managers.all()
        tab.goto(link)  # once
        expect(tab.get_by_role("alert")).to_contain_text("cannot be used")
    finally:
        invitee.close()
    assert outside_requests == []


def test_staff_revoke_a_team_login_whose_open_session_ends_at_once(
    page, browser, live_server, login_as, screenshot, accessible, outside_requests
):
    federation = FederationFactory(name="Deutschland")
    entry = TeamEntryFactory(federation=federation, name="Deutschland")
    manager = UserFactory(username="manager-de", first_name="Jonas", last_name="Keller")
    RoleAssignment.objects.create(user=manager, role=Role.TEAM_MANAGER, federation=federation)
    entry.managers.add(manager)
    ApiToken.objects.create(user=manager, name="script")
    staff = federation_staff(federation)

    other = browser.new_context(base_url=live_server.url)
    try:
        managers_tab = other.new_page()
        log_in(managers_tab, username="manager-de", password=TEST_PASSWORD)
        open_menu(managers_tab)
        expect(managers_tab.get_by_role("button", name=re.compile("Log out manager-de"))).to_be_visible()

        login_as(staff)
        open_menu(page)
        page.get_by_role("link", name="Logins").click()
        page.get_by_label("Search", exact=True).fill("Keller")
        page.locator("main [role=search] [type=submit]").click()
        expect(page.get_by_role("cell", name="manager-de", exact=True)).to_be_visible()
        accessible(page, "the logins page")
        screenshot(page, "logins")
        page.get_by_role("button", name="Revoke the role Team manager of manager-de").click()
        expect(page.get_by_text(re.compile("no longer holds the role Team manager"))).to_be_visible()
        assert not RoleAssignment.objects.filter(user=manager).exists()
        assert not ApiToken.objects.filter(user=manager).exists()
        assert not entry.managers.exists()

        managers_tab.reload()  # the manager's next request
        expect(managers_tab.get_by_role("link", name="Log in")).to_be_visible()
    finally:
        other.close()
    assert outside_requests == []
