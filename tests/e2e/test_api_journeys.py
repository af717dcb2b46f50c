"""The API as a logged-in federation staff member meets it in a browser (issue 2): the docs page from local assets,
then the page's own session calling the API, scoped to their federation, with bad input refused field by field."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from federation.models import Passport, Person
from tests.e2e.live_helpers import open_menu
from tests.factories import FederationFactory, PersonFactory, federation_staff

# fetch() from the docs page, with the session cookie and Django's CSRF token as a page script would send them.
FETCH_JSON = """async ([method, url, body]) => {
    const token = (document.cookie.match(/(?:^|; )csrftoken=([^;]+)/) || [])[1] || "";
    const options = {method, credentials: "same-origin", headers: {"Accept": "application/json"}};
    if (body !== null) {
        options.headers["Content-Type"] = "application/json";
        options.headers["X-CSRFToken"] = token;
        options.body = JSON.stringify(body);
    }
    const response = await fetch(url, options);
    return {status: response.status, type: response.headers.get("content-type"), body: await response.json()};
}"""

# A multipart upload from the page (FormData), as a file picker would send it.
FETCH_UPLOAD = """async ([url, fields, file]) => {
    const token = (document.cookie.match(/(?:^|; )csrftoken=([^;]+)/) || [])[1] || "";
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append("scan", new File([file.content], file.name, {type: file.type}));
    const response = await fetch(url, {
        method: "POST", credentials: "same-origin", headers: {"X-CSRFToken": token, "Accept": "application/json"},
        body: form,
    });
    return {status: response.status, body: await response.json()};
}"""


@pytest.fixture
def italy():
    return FederationFactory(name="Federazione Italiana Test", short_name="FIT", country="IT")


@pytest.fixture
def germany():
    return FederationFactory(name="Deutscher Verband Test", short_name="DVT", country="DE")


@pytest.fixture
def assets():
    """URLs of the scripts and stylesheets the tab loaded."""
    return []


@pytest.fixture
def docs_page(login_as, italy, assets):
    """National staff of Italy on the API docs page, reached through the site's API link."""
    page = login_as(federation_staff(italy, username="fit-staff"))
    page.on("request", lambda r: assets.append(r.url) if r.resource_type in ("script", "stylesheet") else None)
    open_menu(page)
    page.get_by_role("link", name="API", exact=True).click()
    expect(page).to_have_url(re.compile(r"/api/v1/docs/$"))
    # Swagger UI renders once it has the whole schema: 30 s on a loaded machine, as in tests/e2e/test_csp.py.
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("IHTC Portal API", timeout=30_000)
    return page


def _scrolled_to(page, locator, *, steps: int = 120):
    """Scroll down the docs page from its top until ``locator`` is rendered (at most ``steps`` times); return it."""
    page.evaluate("window.scrollTo(0, 0)")
    page.mouse.move(640, 450)
    for _ in range(steps):
        if locator.count():
            return locator
        page.mouse.wheel(0, 600)
        page.wait_for_timeout(50)
    return locator


def test_the_api_docs_list_the_operations_from_local_assets(docs_page, assets, live_server, outside_requests):
    page = docs_page
    # Swagger UI built the operation list from the schema it fetched. With more than a hundred operations it
    # renders only those near the viewport (a windowed list), so the page is scrolled to each one as a reader does.
    assert page.evaluate("ui.specSelectors.operations().size") > 100
    expect(page.locator(".opblock").first).to_be_visible()
    people_list = page.locator(".opblock-get", has=page.locator("[data-path='/api/v1/people/']"))
    expect(_scrolled_to(page, people_list).first).to_be_visible()
    passports = page.locator(".opblock-post", has=page.locator("[data-path='/api/v1/passports/']"))
    expect(_scrolled_to(page, passports).first).to_be_visible()
    # Its scripts and styles came from this server (drf-spectacular-sidecar), nothing from a CDN.
    assert any("swagger-ui" in url for url in assets), assets
    server = urlsplit(live_server.url).netloc
    assert {urlsplit(url).netloc for url in assets} == {server}
    assert outside_requests == []


def test_the_page_session_reads_only_its_federation_people(docs_page, italy, germany):
    mine = {PersonFactory(federation=italy, last_name=f"Bianchi{n}").pk for n in range(3)}
    PersonFactory(federation=germany, last_name="Bergmann")
    answer = docs_page.evaluate(FETCH_JSON, ["GET", "/api/people/", None])
    assert answer["status"] == 200
    assert answer["type"].startswith("application/json")
    assert answer["body"]["count"] == 3
    assert {row["id"] for row in answer["body"]["results"]} == mine
    assert {row["federation"] for row in answer["body"]["results"]} == {italy.pk}
    assert "Bergmann" not in str(answer["body"])
    # Asking for the other federation's people by filter gives nothing, not their records.
    answer = docs_page.evaluate(FETCH_JSON, ["GET", f"/api/people/?federation={germany.pk}", None])
    assert answer["status"] == 200
    assert answer["body"]["results"] == []


def test_a_post_with_bad_data_is_a_400_naming_the_field_and_stores_nothing(docs_page, italy):
    person = {
        "federation": italy.pk,
        "first_name": "Luca",
        "last_name": "Verdi",
        "date_of_birth": "2001-04-12",
        "gender": "M",
        "nationality": "XX",
    }
    answer = docs_page.evaluate(FETCH_JSON, ["POST", "/api/people/", person])
    assert answer["status"] == 400
    assert list(answer["body"]) == ["nationality"]
    answer = docs_page.evaluate(
        FETCH_JSON, ["POST", "/api/people/", {**person, "nationality": "IT", "date_of_birth": "2001-02-30"}]
    )
    assert answer["status"] == 400
    assert list(answer["body"]) == ["date_of_birth"]
    assert not Person.objects.filter(last_name="Verdi").exists()
    # The same body, corrected, is accepted: the refusals were about the fields named.
    answer = docs_page.evaluate(FETCH_JSON, ["POST", "/api/people/", {**person, "nationality": "IT"}])
    assert answer["status"] == 201
    assert Person.objects.get(pk=answer["body"]["id"]).federation == italy


def test_an_html_page_renamed_png_is_refused_by_the_api_naming_the_scan(docs_page, italy):
    holder = PersonFactory(federation=italy)
    fields = {"person": str(holder.pk), "issuing_country": "IT", "number": "YA7654321", "expiry_date": "2031-06-30"}
    file = {"name": "scan.png", "type": "image/png", "content": "<!doctype html><html><script>alert(1)</script></html>"}
    answer = docs_page.evaluate(FETCH_UPLOAD, ["/api/passports/", fields, file])
    assert answer["status"] == 400
    assert list(answer["body"]) == ["scan"]
    assert "Only JPEG, PNG or PDF files are accepted" in answer["body"]["scan"][0]
    assert not Passport.objects.exists()
