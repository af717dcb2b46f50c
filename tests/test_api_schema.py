"""The OpenAPI schema: generated for the whole project without warnings, and it lists the federation API."""

import pytest
import yaml
from django.core.management import call_command
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

FEDERATION_PATHS = {
    "/api/federations/": {"get", "post"},
    "/api/federations/{id}/": {"get", "put", "patch"},
    "/api/people/": {"get", "post"},
    "/api/people/{id}/": {"get", "put", "patch"},
    "/api/people/{id}/eligibility/": {"get"},
    "/api/passports/": {"get", "post"},
    "/api/passports/{id}/": {"get", "patch", "delete"},
    "/api/eligibility-waivers/": {"get", "post"},
    "/api/eligibility-waivers/{id}/": {"get"},
    "/api/equipment-models/": {"get", "post"},
    "/api/equipment-models/{id}/": {"get", "patch"},
    "/api/equipment-inspections/": {"get", "post"},
    "/api/equipment-inspections/{id}/": {"get"},
    "/api/device-requests/": {"get", "post"},
    "/api/device-requests/{id}/": {"get"},
    "/api/device-requests/{id}/approve/": {"post"},
    "/api/device-requests/{id}/reject/": {"post"},
    "/api/device-requests/{id}/resubmit/": {"post"},
}


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def test_the_schema_is_valid_openapi(schema):
    validate_schema(schema)


def test_the_schema_lists_every_federation_endpoint_and_method(schema):
    for path, methods in FEDERATION_PATHS.items():
        assert path in schema["paths"], path
        assert methods <= set(schema["paths"][path]), (path, set(schema["paths"][path]))


def test_list_endpoints_document_their_filters_search_and_pages(schema):
    names = {p["name"] for p in schema["paths"]["/api/people/"]["get"]["parameters"]}
    assert {"federation", "gender", "nationality", "role", "search", "ordering", "page"} <= names
    names = {p["name"] for p in schema["paths"]["/api/passports/"]["get"]["parameters"]}
    assert {"expiry_before", "expiry_after", "issuing_country", "federation"} <= names


def test_a_passport_exposes_the_scan_url_never_the_file(schema):
    passport = schema["components"]["schemas"]["Passport"]["properties"]
    assert "scan_url" in passport
    assert "scan" not in passport
    upload = schema["paths"]["/api/passports/"]["post"]["requestBody"]["content"]
    assert "multipart/form-data" in upload


def test_the_eligibility_endpoint_documents_its_championship_parameters(schema):
    names = {p["name"] for p in schema["paths"]["/api/people/{id}/eligibility/"]["get"]["parameters"]}
    assert {"year", "start_date", "end_date", "team_country"} <= names


def test_spectacular_validates_the_whole_project_without_warnings(tmp_path):
    target = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    assert "/api/people/" in yaml.safe_load(target.read_text())["paths"]


@pytest.mark.django_db
def test_the_schema_and_the_docs_are_served(client):
    from tests.factories import UserFactory

    client.force_login(UserFactory())
    assert client.get("/api/schema/").status_code == 200
    assert client.get("/api/docs/").status_code == 200
    assert client.get("/api/redoc/").status_code == 200


@pytest.mark.django_db
def test_the_docs_pages_load_nothing_from_outside(client):
    """Swagger UI and ReDoc: every asset is the portal's (no Google Fonts, no Redocly logo from cdn.redoc.ly)."""
    import re

    from tests.factories import UserFactory

    client.force_login(UserFactory())
    for page in ("/api/docs/", "/api/redoc/"):
        html = client.get(page).content.decode()
        assert not re.findall(r"https?://", html), page
        for asset in re.findall(r'(?:src|href)="([^"]+)"', html):
            assert asset.startswith("/"), (page, asset)
            response = client.get(asset)
            assert response.status_code == 200, (page, asset)
            if asset.endswith("redoc.standalone.js"):
                bundle = b"".join(response.streaming_content) if response.streaming else response.content
                assert b"cdn.redoc.ly" not in bundle
                (logo,) = set(re.findall(rb'src:"([^"]+\.svg)"', bundle))
                assert logo.startswith(b"/") and client.get(logo.decode()).status_code == 200
