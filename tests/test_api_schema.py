"""The OpenAPI schema: generated for the whole project without warnings, and it lists the federation API."""

import pytest
import yaml
from django.core.management import call_command
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

FEDERATION_PATHS = {
    "/api/v1/federations/": {"get", "post"},
    "/api/v1/federations/{id}/": {"get", "put", "patch"},
    "/api/v1/people/": {"get", "post"},
    "/api/v1/people/{id}/": {"get", "put", "patch"},
    "/api/v1/people/{id}/eligibility/": {"get"},
    "/api/v1/people/{id}/merge/": {"post"},
    "/api/v1/passports/": {"get", "post"},
    "/api/v1/passports/{id}/": {"get", "patch", "delete"},
    "/api/v1/passports/{id}/renew/": {"post"},
    "/api/v1/eligibility-waivers/": {"get", "post"},
    "/api/v1/eligibility-waivers/{id}/": {"get"},
    "/api/v1/equipment-models/": {"get", "post"},
    "/api/v1/equipment-models/{id}/": {"get", "patch"},
    "/api/v1/equipment-inspections/": {"get", "post"},
    "/api/v1/equipment-inspections/{id}/": {"get"},
    "/api/v1/device-requests/": {"get", "post"},
    "/api/v1/device-requests/{id}/": {"get"},
    "/api/v1/device-requests/{id}/approve/": {"post"},
    "/api/v1/device-requests/{id}/reject/": {"post"},
    "/api/v1/device-requests/{id}/resubmit/": {"post"},
    "/api/v1/waiver-requests/": {"get", "post"},
    "/api/v1/waiver-requests/{id}/": {"get"},
    "/api/v1/waiver-requests/{id}/decision/": {"post"},
}
# The operations issue 29 added for tasks that had none: each shows its request, its answer and a refusal.
ISSUE_29_OPERATIONS = [
    ("/api/v1/cases/", "post"),
    ("/api/v1/entries/{id}/managers/", "post"),
    ("/api/v1/roster-entries/{id}/number-change-approvals/", "post"),
    ("/api/v1/waiver-requests/", "post"),
    ("/api/v1/waiver-requests/{id}/decision/", "post"),
    ("/api/v1/people/{id}/merge/", "post"),
    ("/api/v1/passports/{id}/renew/", "post"),
]


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def test_the_schema_is_valid_openapi(schema):
    validate_schema(schema)


def test_the_schema_lists_every_federation_endpoint_and_method(schema):
    for path, methods in FEDERATION_PATHS.items():
        assert path in schema["paths"], path
        assert methods <= set(schema["paths"][path]), (path, set(schema["paths"][path]))


def _examples(content: dict) -> set[str]:
    return {name for media in content.values() for name in media.get("examples", {})}


@pytest.mark.parametrize("path, method", ISSUE_29_OPERATIONS)
def test_the_operations_of_issue_29_show_a_request_an_answer_and_a_refusal(schema, path, method):
    operation = schema["paths"][path][method]
    assert _examples(operation["requestBody"]["content"]), "no request example"
    answered = [code for code, response in operation["responses"].items() if _examples(response.get("content", {}))]
    assert any(code.startswith("2") for code in answered), answered
    assert any(code.startswith("4") for code in answered), answered
    managers = schema["paths"]["/api/v1/entries/{id}/managers/"]["get"]["responses"]["200"]["content"]
    assert _examples(managers)


def test_list_endpoints_document_their_filters_search_and_pages(schema):
    names = {p["name"] for p in schema["paths"]["/api/v1/people/"]["get"]["parameters"]}
    assert {"federation", "gender", "nationality", "role", "search", "ordering", "page"} <= names
    names = {p["name"] for p in schema["paths"]["/api/v1/passports/"]["get"]["parameters"]}
    assert {"expiry_before", "expiry_after", "issuing_country", "federation"} <= names


def test_a_passport_exposes_the_scan_url_never_the_file(schema):
    passport = schema["components"]["schemas"]["Passport"]["properties"]
    assert "scan_url" in passport
    assert "scan" not in passport
    upload = schema["paths"]["/api/v1/passports/"]["post"]["requestBody"]["content"]
    assert "multipart/form-data" in upload


def test_the_eligibility_endpoint_documents_its_championship_parameters(schema):
    names = {p["name"] for p in schema["paths"]["/api/v1/people/{id}/eligibility/"]["get"]["parameters"]}
    assert {"year", "start_date", "end_date", "team_country"} <= names


def test_spectacular_validates_the_whole_project_without_warnings(tmp_path):
    target = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    assert "/api/v1/people/" in yaml.safe_load(target.read_text())["paths"]


@pytest.mark.django_db
def test_the_schema_and_the_docs_are_served(client):
    from tests.factories import UserFactory

    client.force_login(UserFactory())
    assert client.get("/api/v1/schema/").status_code == 200
    assert client.get("/api/v1/docs/").status_code == 200
    assert client.get("/api/v1/redoc/").status_code == 200


@pytest.mark.django_db
def test_the_docs_pages_load_nothing_from_outside(client):
    """Swagger UI and ReDoc: every asset is the portal's (no Google Fonts, no Redocly logo from cdn.redoc.ly)."""
    import re

    from tests.factories import UserFactory

    client.force_login(UserFactory())
    for page in ("/api/v1/docs/", "/api/v1/redoc/"):
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


def _operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            yield path, method, operation


def test_every_operation_has_a_summary_and_a_description(schema):
    missing = [
        (method.upper(), path)
        for path, method, operation in _operations(schema)
        if not (operation.get("summary", "").strip() and operation.get("description", "").strip())
    ]
    assert not missing
    assert sum(1 for _ in _operations(schema)) >= 70


def test_rules_are_named_in_the_operations_that_enforce_them(schema):
    def text(path, method):
        operation = schema["paths"][path][method]
        return operation["summary"] + " " + operation["description"]

    assert "3.2.6 A" in text("/api/v1/equipment-models/", "post")
    assert "3.2.8 C" in text("/api/v1/device-requests/{id}/approve/", "post")
    assert "9.3" in text("/api/v1/pools/{id}/standings/", "get")
    assert "R-32" in text("/api/v1/goals/", "post")
    assert "1.1 A" in text("/api/v1/entries/", "post")


def test_measurements_say_their_unit(schema):
    components = schema["components"]["schemas"]
    violation = components["Violation"]["properties"]
    assert "millimetres" in violation["limit_mm"]["description"]
    assert "millimetres" in violation["measured_mm"]["description"]
    assert "millimetres" in components["EquipmentInspectionInputRequest"]["properties"]["measurements"]["description"]
    rink = components["Rink"]["properties"]
    for name in ("length_m", "width_m", "board_height_m", "corner_radius_m"):
        assert "metres" in rink[name]["description"], name


def _response_schema(schema, path, method, code="200"):
    return schema["paths"][path][method]["responses"][code]["content"]["application/json"]["schema"]


def test_list_actions_other_than_list_answer_bare_unfiltered_lists(schema):
    for path, method in (
        ("/api/v1/entries/{id}/roster/", "get"),
        ("/api/v1/championships/{id}/standings/", "get"),
        ("/api/v1/championships/{id}/generate-schedule/", "post"),
        ("/api/v1/entries/{id}/roster-import/", "post"),
    ):
        code = "200" if method == "get" else "201"
        assert _response_schema(schema, path, method, code)["type"] == "array", path
        names = {p["name"] for p in schema["paths"][path][method].get("parameters", []) if p["in"] == "query"}
        assert not names, (path, names)
    assert "$ref" in _response_schema(schema, "/api/v1/roster-entries/", "get")  # a page
    names = {p["name"] for p in schema["paths"]["/api/v1/roster-entries/"]["get"]["parameters"]}
    assert {"entry", "championship", "position", "confirmed", "page"} <= names
    assert "search" not in names  # roster lines are not searched: not documented
    assert "search" in {p["name"] for p in schema["paths"]["/api/v1/people/"]["get"]["parameters"]}


def test_public_reads_need_no_authentication_and_the_rest_do(schema):
    def security(path, method):
        return schema["paths"][path][method]["security"]

    for path in (
        "/api/v1/championships/",
        "/api/v1/games/{id}/",
        "/api/v1/pools/{id}/standings/",
        "/api/v1/",
        "/api/v1/lineups/",
        "/api/v1/lineups/{id}/",
        "/api/v1/protest-marks/",
    ):
        assert {} in security(path, "get"), path
    for path, method in (
        ("/api/v1/entries/{id}/roster/", "get"),
        ("/api/v1/people/", "get"),
        ("/api/v1/games/{id}/result/", "post"),
        ("/api/v1/roster-entries/", "post"),
    ):
        assert {} not in security(path, method), path


def test_refusals_are_documented_with_the_error_body(schema):
    responses = schema["paths"]["/api/v1/passports/{id}/"]["patch"]["responses"]
    assert {"200", "400", "403", "404", "409"} <= set(responses)
    bad_input = responses["400"]["content"]["application/json"]["schema"]
    assert {"$ref": "#/components/schemas/FieldErrors"} in bad_input["anyOf"]
    assert responses["404"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
    assert "404" in schema["paths"]["/api/v1/people/"]["get"]["responses"]  # a page beyond the last
    components = schema["components"]["schemas"]
    assert components["PatchedPassportUpdateRequest"]["additionalProperties"] is False
    assert "additionalProperties" not in components["ProtectiveDeviceRequest"]  # an answer, not a request body


def test_nullable_answers_say_so(schema):
    components = schema["components"]["schemas"]
    game = components["Game"]["properties"]
    for name in ("home_name", "away_name", "rink_name", "local_start"):
        assert game[name].get("nullable") is True, name
    assert components["Passport"]["properties"]["scan_url"]["nullable"] is True
    assert components["ProtectiveDeviceRequest"]["properties"]["prescription_url"]["nullable"] is True
    assert components["ProtectiveDeviceRequest"]["properties"]["decided_by"]["nullable"] is True
    assert components["EquipmentModel"]["properties"]["approved_by"]["nullable"] is True
    assert components["Entry"]["properties"]["pool"]["nullable"] is True


def test_a_blank_country_matches_one_branch_only(schema):
    country = schema["components"]["schemas"]["Federation"]["properties"]["country"]
    patterned = [branch for branch in country["oneOf"] if "pattern" in branch]
    assert [b["pattern"] for b in patterned] == ["^[A-Za-z]{2}$"]


@pytest.mark.django_db
def test_the_api_root_links_the_docs_the_schema_and_every_collection(client):
    data = client.get("/api/v1/").json()
    assert data["schema"].endswith("/api/v1/schema/") and data["redoc"].endswith("/api/v1/redoc/")
    assert data["docs"].endswith("/api/v1/docs/")
    assert {"people", "passports", "championships", "roster-entries", "games"} <= set(data["collections"])
    assert client.get(data["collections"]["championships"]).status_code == 200
    response = client.get("/api/v1/people/1.5/")
    assert response.status_code == 404 and response["Content-Type"] == "application/json"


# Routes under api/ that are not operations of the API: the schema and its two documentation pages, ReDoc's
# script, and the catch-all that answers the API's JSON 404 for any other URL.
API_ROUTES_OUTSIDE_THE_SCHEMA = {"schema", "api-docs", "api-redoc", "api-redoc-bundle", None}


def _api_routes() -> dict[str, set[str]]:
    """Every URL pattern under api/v1/ (from Django's resolver), by its route, with the methods its view answers."""
    from django.urls import URLResolver, get_resolver

    from portal.api_versions import ALIAS_NAMESPACE
    from tests.test_permission_matrix import _join_route

    routes: dict[str, set[str]] = {}

    def walk(patterns, prefix):
        for pattern in patterns:
            joined = _join_route(prefix, str(pattern.pattern))
            if isinstance(pattern, URLResolver):
                if pattern.namespace != ALIAS_NAMESPACE:  # the deprecated aliases: the same views, undocumented
                    walk(pattern.url_patterns, joined)
            elif joined.removeprefix("^").startswith("api/") and pattern.name not in API_ROUTES_OUTSIDE_THE_SCHEMA:
                view = pattern.callback
                if getattr(view, "actions", None):  # a viewset's route: the methods its router mapped
                    # DRF adds "head" to a route's actions (the same dict) once it has answered a request: HEAD
                    # is GET without the body and, as for plain views below, not an operation of its own.
                    methods = set(view.actions) - {"options", "head"}
                else:
                    cls = view.cls
                    methods = {m for m in cls.http_method_names if hasattr(cls, m)} - {"options", "head"}
                routes[joined] = routes.get(joined, set()) | methods

    walk(get_resolver().url_patterns, "")
    return routes


def test_every_api_route_and_method_is_in_the_schema(schema):
    """A DRF view added under api/ without a schema entry (or a method the schema leaves out) fails here; the
    conformance test (tests/test_api_conformance.py) then fuzzes every operation the schema lists."""
    from django.urls import resolve

    documented: dict[str, set[str]] = {}
    for path, operations in schema["paths"].items():
        route = resolve(path.replace("{id}", "1").replace("{game_id}", "1")).route
        documented[route] = documented.get(route, set()) | (set(operations) & {"get", "post", "put", "patch", "delete"})
    routes = _api_routes()
    assert len(routes) >= 100
    missing = {route: methods - documented.get(route, set()) for route, methods in routes.items()}
    missing = {route: methods for route, methods in missing.items() if methods}
    assert not missing, f"API routes or methods not in the OpenAPI schema: {missing}"
    assert set(documented) <= set(routes)


def test_ids_are_declared_from_1_in_the_path_and_the_filters(schema):
    """Issue 23: an id is 1 to MAX_ID (``portal.openapi``); a filter's text is not empty (``portal.filters``)."""
    from portal.filters import MAX_ID

    from_zero = []
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            for parameter in operation.get("parameters", []):
                if parameter["schema"].get("type") != "integer" or parameter["name"] == "page":
                    continue
                assert "minimum" in parameter["schema"], (method, path, parameter["name"])
                if parameter["schema"]["minimum"] < 1:
                    from_zero.append(parameter["name"])
    assert from_zero == ["after"]  # the sheet log's sequence number: 0 is the start
    games = {p["name"]: p["schema"] for p in schema["paths"]["/api/v1/games/"]["get"]["parameters"]}
    assert games["team"] == {"type": "integer", "minimum": 1, "maximum": MAX_ID}
    assert games["starts_before"]["minLength"] == 1
    lineup = schema["paths"]["/api/v1/lineups/{id}/"]["get"]["parameters"][0]
    assert lineup["schema"] == {"type": "integer", "minimum": 1, "maximum": MAX_ID}


def test_the_token_exchange_and_revocation_are_documented(schema):
    """Issue 29 (accounts.token_api): the request, the 201 answer and the refusals of POST and DELETE auth/token/."""
    item = schema["paths"]["/api/v1/auth/token/"]
    post, delete = item["post"], item["delete"]
    assert post["security"] == [{}]  # no token nor session needed to get one
    body = schema["components"]["schemas"]["TokenExchangeInputRequest"]
    assert set(body["required"]) == {"username", "password", "name"}
    assert body["additionalProperties"] is False
    days = body["properties"]["expires_in_days"]
    assert (days["minimum"], days["maximum"], days["default"]) == (1, 365, 30)
    assert body["properties"]["password"]["writeOnly"] is True
    assert _response_schema(schema, "/api/v1/auth/token/", "post", "201") == {"$ref": "#/components/schemas/Token"}
    assert set(schema["components"]["schemas"]["Token"]["required"]) == {"token", "name", "expires"}
    assert {"201", "400", "403"} <= set(post["responses"]) and "401" not in post["responses"]
    assert "lockout" in post["responses"]["400"]["description"]
    assert "locked" in post["responses"]["403"]["description"]
    assert delete["security"] == [{"knoxApiToken": []}]
    assert {"204", "401", "403"} <= set(delete["responses"])


def test_a_refused_token_is_documented_as_a_401_and_a_refused_caller_as_a_403(schema):
    """Every operation that reads a token may answer 401 (unknown, expired or revoked token), public reads too."""
    for path, method in (
        ("/api/v1/people/", "get"),
        ("/api/v1/championships/", "get"),
        ("/api/v1/passports/{id}/", "patch"),
        ("/api/v1/auth/token/", "delete"),
    ):
        responses = schema["paths"][path][method]["responses"]
        assert "WWW-Authenticate: Token" in responses["401"]["description"], (path, method)
        assert responses["401"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
        assert "not allowed" in responses["403"]["description"]
    missing = [(m, p) for p, m, operation in _operations(schema) if "401" not in operation["responses"]]
    assert missing == [("post", "/api/v1/auth/token/")]


def test_the_protest_incident_key_and_the_sheet_entries_say_their_format(schema):
    """Issue 29: the formats the services check are in the schema (pattern, nullability, description, example)."""
    import re

    from discipline.protests import INCIDENT_KEY_PATTERN

    components = schema["components"]["schemas"]
    for key in (
        components["ProtestFileInputRequest"]["properties"]["incident"],
        components["Incident"]["properties"]["key"],
    ):
        assert key["pattern"] == INCIDENT_KEY_PATTERN
        assert re.fullmatch(key["pattern"], key["example"])
        assert "mark:<id>" in key["description"] and "event:<uuid>" in key["description"]
    events = components["SheetEventsInputRequest"]["properties"]["events"]
    entry = events["items"]
    assert {"id", "type", "device_time"} <= set(entry["required"]) and "clock_offset_ms" not in entry["required"]
    device_time, offset = entry["properties"]["device_time"], entry["properties"]["clock_offset_ms"]
    assert device_time["format"] == "date-time" and not device_time.get("nullable")
    assert "never null" in device_time["description"] and "R-10" in device_time["description"]
    assert offset["nullable"] is True and "unknown" in offset["description"]
    assert entry["properties"]["id"]["format"] == "uuid"
    assert [e["clock_offset_ms"] for e in events["example"]] == [-350, None]
    assert all(set(entry["required"]) <= set(e) for e in events["example"])
    assert "never null" in events["description"]
    log_line = components["SheetLogLine"]["properties"]
    assert log_line["clock_offset_ms"]["nullable"] is True and "null" in log_line["clock_offset_ms"]["description"]
