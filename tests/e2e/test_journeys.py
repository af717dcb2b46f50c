"""First journeys: a superuser in the admin (federations, API docs); a user through the site login."""

import re

from playwright.sync_api import expect

from tests.e2e.live_helpers import open_menu
from tests.factories import FederationFactory, UserFactory

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_a_superuser_logs_in_and_sees_the_federation_list(admin_page, screenshot, outside_requests):
    FederationFactory(name="Federazione Italiana Hockey Test")
    page = admin_page
    expect(page.locator("#site-name")).to_contain_text("IHTC Portal administration")
    page.get_by_role("link", name="Federations", exact=True).click()
    expect(page).to_have_url(re.compile(r"/admin/federation/federation/$"))
    expect(page.locator("#result_list")).to_contain_text("Federazione Italiana Hockey Test")
    shot = screenshot(page, "admin-federations")
    assert shot.read_bytes().startswith(PNG_MAGIC)
    assert outside_requests == []


def test_the_api_docs_render_from_local_assets(admin_page, screenshot, outside_requests):
    page = admin_page
    page.goto("/api/docs/")
    # Swagger UI builds the page from the schema it fetched: title and operations appear.
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("IHTC Portal API")
    operations = page.locator(".opblock")
    expect(operations.first).to_be_visible()
    assert operations.count() > 0
    shot = screenshot(page, "api-docs")
    assert shot.read_bytes().startswith(PNG_MAGIC)
    # drf-spectacular-sidecar: no CDN, nothing fetched from outside this machine.
    assert outside_requests == []


def test_a_user_logs_in_through_the_site_and_out_again(login_as):
    page = login_as(UserFactory(username="ita-staff-e2e"))
    expect(page).to_have_url(re.compile(r"/$"))
    open_menu(page)
    logout = page.get_by_role("button", name="Log out ita-staff-e2e")
    expect(logout).to_be_visible()
    # Not staff: the header offers no admin link.
    open_menu(page)
    expect(page.get_by_role("link", name="Admin")).to_have_count(0)
    logout.click()
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
