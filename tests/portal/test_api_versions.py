"""The API's version (issue 29): /api/v1/ documented, /api/... its deprecated aliases, the released schema kept."""

import pytest
from django.urls import URLResolver, get_resolver, resolve, reverse
from drf_spectacular.validation import validate_schema

from common.api_compat import unnamed_breaks
from portal import urls as project_urls
from portal.api_versions import (
    ALIAS_NAMESPACE,
    ALIAS_SUNSET,
    API_VERSION,
    CHANGELOG,
    current_schema,
    released_schema,
)
from tests.factories import PersonFactory, SuperuserFactory, UserFactory

SUNSET = "Mon, 07 Jun 2027 00:00:00 GMT"


@pytest.fixture(scope="module")
def schema():
    return current_schema()


@pytest.mark.django_db
def test_the_versioned_api_answers_without_deprecation(client):
    client.force_login(SuperuserFactory())
    root = client.get("/api/v1/")
    assert root.status_code == 200 and root.json()["schema"] == "http://testserver/api/v1/schema/"
    people = client.get("/api/v1/people/")
    assert people.status_code == 200
    for response in (root, people):
        assert not {"Deprecation", "Sunset", "Link"} & set(response.headers)


@pytest.mark.django_db
def test_an_alias_answers_as_its_successor_with_the_deprecation_headers(client):
    PersonFactory.create_batch(2)
    client.force_login(SuperuserFactory())
    alias, successor = client.get("/api/people/?ordering=id&page=1"), client.get("/api/v1/people/?ordering=id&page=1")
    assert alias.status_code == successor.status_code == 200
    assert alias.json() == successor.json() and alias.json()["count"] == 2
    assert alias["Deprecation"] == "true"
    assert alias["Sunset"] == SUNSET
    assert alias["Link"] == '</api/v1/people/?ordering=id&page=1>; rel="successor-version"'


@pytest.mark.django_db
def test_the_aliases_errors_and_writes_carry_the_headers_too(client):
    anonymous = client.get("/api/people/")
    assert anonymous.status_code == 403 and anonymous["Deprecation"] == "true"
    missing = client.get("/api/no-such-thing/")
    assert missing.status_code == 404 and missing["Content-Type"] == "application/json"
    assert missing["Link"] == '</api/v1/no-such-thing/>; rel="successor-version"'
    client.force_login(UserFactory())
    refused = client.post("/api/people/", {}, content_type="application/json")
    assert refused.status_code == client.post("/api/v1/people/", {}, content_type="application/json").status_code
    assert refused["Deprecation"] == "true" and refused["Sunset"] == SUNSET
    # The documented API's own 404 is not deprecated.
    assert "Deprecation" not in client.get("/api/v1/no-such-thing/")


def test_the_sunset_is_six_months_after_v1_and_the_changelog_says_so():
    changelog = CHANGELOG.read_text()
    assert "## v1 (2026-12-07)" in changelog
    assert ALIAS_SUNSET.isoformat() in changelog and SUNSET in changelog
    assert (ALIAS_SUNSET.year, ALIAS_SUNSET.month) == (2027, 6)


def test_reverse_gives_the_versioned_paths():
    assert reverse("api-root") == "/api/v1/"
    assert reverse("schema") == "/api/v1/schema/"
    assert reverse("api-docs") == "/api/v1/docs/" and reverse("api-redoc") == "/api/v1/redoc/"
    assert reverse("games-api:game-sheet", args=[7]) == "/api/v1/games/7/sheet/"
    names = 0
    for namespace, (_prefix, resolver) in get_resolver().namespace_dict.items():
        if namespace.endswith("-api"):
            for pattern in resolver.url_patterns:
                if (
                    pattern.name
                    and not getattr(pattern.pattern, "converters", {})
                    and "(?P" not in str(pattern.pattern)
                ):
                    assert reverse(f"{namespace}:{pattern.name}").startswith("/api/v1/"), pattern.name
                    names += 1
    assert names >= 20


def test_every_api_route_is_served_under_both_prefixes_from_one_list():
    """An include added under "api/" in urlpatterns (not in portal.urls.api_patterns) would be unversioned."""
    api_routes = [p for p in project_urls.urlpatterns if str(p.pattern).removeprefix("^").startswith("api")]
    assert [str(p.pattern) for p in api_routes] == [f"api/{API_VERSION}/", "api/"]
    versioned, alias = api_routes
    assert isinstance(versioned, URLResolver) and versioned.namespace is None
    assert isinstance(alias, URLResolver) and alias.namespace == ALIAS_NAMESPACE
    assert versioned.url_patterns is alias.url_patterns is project_urls.api_patterns
    assert resolve("/api/people/").func is resolve("/api/v1/people/").func
    assert ALIAS_NAMESPACE in resolve("/api/people/").namespaces
    assert ALIAS_NAMESPACE not in resolve("/api/v1/people/").namespaces


def test_the_schema_documents_only_the_versioned_paths(schema):
    assert len(schema["paths"]) >= 100
    assert all(path.startswith("/api/v1/") for path in schema["paths"])
    # Tags and operation ids leave the version out (SCHEMA_PATH_PREFIX).
    assert schema["paths"]["/api/v1/people/"]["get"]["operationId"] == "people_list"
    assert schema["paths"]["/api/v1/people/"]["get"]["tags"] == ["people"]


@pytest.mark.django_db
def test_the_schema_served_under_the_alias_documents_the_versioned_paths(client, schema):
    client.force_login(UserFactory())
    served = client.get("/api/schema/?format=json")
    assert served["Link"] == '</api/v1/schema/?format=json>; rel="successor-version"'
    assert set(served.json()["paths"]) == set(schema["paths"])


def test_the_released_schema_is_a_valid_v1_schema():
    released = released_schema()
    validate_schema(released)
    assert released["paths"] and all(path.startswith("/api/v1/") for path in released["paths"])


def test_the_schema_keeps_the_released_one_or_the_changelog_names_each_breaking_change(schema):
    """docs/api-changelog.md, "How a breaking change is made": name the change, or keep the API compatible."""
    unnamed = unnamed_breaks(released_schema(), schema, CHANGELOG.read_text())
    lines = "\n".join(f"- Breaking: {change}" for change in unnamed)
    assert not unnamed, f"Breaking changes to the released API that {CHANGELOG.name} does not name:\n{lines}"
