"""The API's version (issue 29; the policy is docs/api-changelog.md).

The documented API lives under ``/api/v1/``. The paths it had before, under ``/api/``, serve the same views as
deprecated aliases until ``ALIAS_SUNSET``: ``portal.urls`` includes one list of API routes under both prefixes,
the aliases in their own namespace (``ALIAS_NAMESPACE``) so that ``reverse()`` of every name gives ``/api/v1/``.
Every answer of an alias says so (``ApiDeprecationMiddleware``) and the schema documents only ``/api/v1/``
(``documented_endpoints``).
"""

import datetime
import json
from pathlib import Path

from django.urls import get_script_prefix
from django.utils.http import http_date

API_VERSION = "v1"
ALIAS_NAMESPACE = "api-alias"
# Six months after v1 was released (2026-12-07): the date the aliases may stop answering (docs/api-changelog.md).
ALIAS_SUNSET = datetime.date(2027, 6, 7)


def versioned_prefix() -> str:
    """Return the documented API's path prefix, ``/api/v1/``."""
    return f"/api/{API_VERSION}/"


def successor_url(full_path: str) -> str:
    """Return the ``/api/v1/`` URL that replaces an alias's ``full_path`` (path and query string)."""
    alias_prefix = f"{get_script_prefix()}api/"
    return f"{alias_prefix}{API_VERSION}/{full_path.removeprefix(alias_prefix)}"


class ApiDeprecationMiddleware:
    """Answers of the deprecated ``/api/...`` aliases carry ``Deprecation``, ``Sunset`` and the successor's ``Link``.

    The headers of RFC 8594 (Sunset) and the IETF deprecation header as the API contract names it
    (``Deprecation: true``); errors of an alias (a 404 under ``/api/`` included) carry them too.
    """

    def __init__(self, get_response):
        self.get_response = get_response
        midnight = datetime.datetime.combine(ALIAS_SUNSET, datetime.time(), tzinfo=datetime.UTC)
        self.sunset = http_date(midnight.timestamp())

    def __call__(self, request):
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        if match is not None and ALIAS_NAMESPACE in match.namespaces:
            response["Deprecation"] = "true"
            response["Sunset"] = self.sunset
            link = f'<{successor_url(request.get_full_path())}>; rel="successor-version"'
            response["Link"] = f"{response['Link']}, {link}" if response.has_header("Link") else link
        return response


def documented_endpoints(endpoints):
    """Keep the ``/api/v1/`` endpoints: the schema documents the versioned API, never its aliases.

    A drf-spectacular preprocessing hook (``SPECTACULAR_SETTINGS["PREPROCESSING_HOOKS"]``).
    """
    prefix = versioned_prefix()
    return [endpoint for endpoint in endpoints if endpoint[0].startswith(prefix)]


# The schema of the released v1 (``manage.py api_release`` writes it) and the changelog that names every breaking
# change since (tests/portal/test_api_versions.py compares them with the schema of the code).
RELEASED_SCHEMA = Path(__file__).resolve().parent.parent / "docs" / "api" / f"openapi-{API_VERSION}.json"
CHANGELOG = RELEASED_SCHEMA.parent.parent / "api-changelog.md"


def current_schema() -> dict:
    """Return the schema of the code as ``manage.py spectacular --format openapi-json`` writes it, read back."""
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.renderers import OpenApiJsonRenderer

    schema = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(schema, renderer_context={}))


def released_schema() -> dict:
    """Return the schema of the released version (``RELEASED_SCHEMA``)."""
    return json.loads(RELEASED_SCHEMA.read_text(encoding="utf-8"))
