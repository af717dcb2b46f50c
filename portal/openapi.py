"""The OpenAPI schema's conventions, in one place for every app (``DEFAULT_SCHEMA_CLASS``).

drf-spectacular describes each view; ``PortalAutoSchema`` adds what the
portal does the same way everywhere, so the schema says what the answers are:

- the refusals: 400 (the field -> messages map of ``portal.api.exception_handler``,
  or ``{"detail": ...}`` for a body that does not parse), 401 (a token the portal
  does not know: unknown, expired or revoked, with ``WWW-Authenticate: Token``;
  ``accounts.authentication``), 403 (no credentials, or a known caller who may not),
  404 (no such object, or one the caller may not know of; a page beyond the last)
  and 409 (a write that lost to a concurrent one), each with its body;
- pages and filters only on ``list`` actions: an extra action answering a list
  (a roster, the standings, generated games) answers a bare list, unfiltered;
  ``?search=`` only where the view searches (``search_fields``);
- no authentication needed where a permission says anonymous callers may
  read (``allows_anonymous(view, method)``, e.g. published championships);
- every operation takes ``Accept-Language`` (en, fr, es): messages, refusals included, come in that language;
- ids are whole numbers from 1 to ``MAX_ID``, in the path and in the filters, and a
  filter takes a value or is left out (``portal.filters.FilterBackend`` refuses
  an empty one with a 400 naming it).
"""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.contrib.django_filters import DjangoFilterExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent, build_examples_list, build_parameter_type
from rest_framework import filters, permissions
from rest_framework.authentication import BaseAuthentication

from .filters import _NUMBER_FILTERS, MAX_ID

ERROR_SCHEMA = {
    "type": "object",
    "description": "A refusal that concerns the whole request.",
    "properties": {"detail": {"type": "string", "description": "What was refused and why."}},
    "required": ["detail"],
}
FIELD_ERRORS_SCHEMA = {
    "type": "object",
    "description": "Bad input: each field (or ``non_field_errors``) with its messages, which cite the rule "
    "(article or R-id) they apply. A list or nested field gives its errors by position or by sub-field.",
    "additionalProperties": {"anyOf": [{"type": "array", "items": {}}, {"type": "object"}]},
}

REFUSALS = {
    "400": "Bad input: the field and the rule it breaks (nothing is changed).",
    "401": "The token sent is unknown, expired or revoked (answered with ``WWW-Authenticate: Token``): get a new "
    "one (the token exchange, POST auth/token/).",
    "403": "No credentials (no token, no session), or not allowed for this user.",
    "404": "No such object, or one you may not see; for a list, a page beyond the last.",
    "409": "A change saved at the same time conflicts with this one; reload and try again.",
}


def accept_language_parameter() -> dict:
    """The ``Accept-Language`` header every operation reads (Django's ``LocaleMiddleware``; issue 26)."""
    return build_parameter_type(
        name="Accept-Language",
        schema={"type": "string", "example": "fr"},
        location="header",
        description="The language of the answer's messages (refusals and rule citations included): "
        + ", ".join(code for code, _name in settings.LANGUAGES)
        + f", with quality values as browsers send them (e.g. ``fr-FR,fr;q=0.9``). Without it, or in another "
        f"language, the answer is in {dict(settings.LANGUAGES)[settings.LANGUAGE_CODE]}. A browser session's language "
        "switch (its cookie) wins over the header. Articles and R-ids are cited as they are in every language; "
        "the fields' values (codes, enums) are never translated.",
    )


class _ErrorBodies:
    """Identities of the error components (drf-spectacular keys components by an object)."""


class PortalAutoSchema(AutoSchema):
    def _is_list_action(self) -> bool:
        return getattr(self.view, "action", "list") == "list"

    def _get_paginator(self):
        # Only a ``list`` action pages its answer; other actions answer the whole (bare) list.
        return super()._get_paginator() if self._is_list_action() else None

    def get_filter_backends(self):
        if not self._is_list_action():
            return []
        # ``?search=`` does nothing on a view without ``search_fields``: not documented there.
        return [
            backend
            for backend in super().get_filter_backends()
            if not (issubclass(backend, filters.SearchFilter) and not getattr(self.view, "search_fields", None))
        ]

    def _resolve_path_parameters(self, variables):
        parameters = super()._resolve_path_parameters(variables)
        for parameter in parameters:
            if parameter["schema"].get("type") == "integer":
                parameter["schema"].update(minimum=1, maximum=MAX_ID)
        return parameters

    def _get_parameters(self):
        parameters = super()._get_parameters()
        if not any(p.get("in") == "header" and p.get("name") == "Accept-Language" for p in parameters):
            parameters.append(accept_language_parameter())
        return parameters

    def get_auth(self):
        auths = super().get_auth()
        if {} not in auths and self._allows_anonymous():
            auths.append({})
        return auths

    def _allows_anonymous(self) -> bool:
        for permission in self.view.get_permissions():
            allows = getattr(permission, "allows_anonymous", None)
            if allows is not None and allows(self.view, self.method):
                return True
        return False

    def _answers_401(self) -> bool:
        """Whether a refused credential is a 401: the first authenticator names a scheme (DRF asks it only)."""
        authenticators = self.view.get_authenticators()
        return bool(authenticators) and type(authenticators[0]).authenticate_header is not (
            BaseAuthentication.authenticate_header
        )

    def _refusals(self) -> list[str]:
        codes = ["403"]
        if self._answers_401():
            codes.append("401")
        has_query = any(p.get("in") == "query" for p in self._get_parameters())
        if self.method not in permissions.SAFE_METHODS or has_query:
            codes.append("400")
        if "{" in self.path or (self._is_list_action() and self._get_paginator() and self.method == "GET"):
            codes.append("404")
        if self.method not in permissions.SAFE_METHODS:
            codes.append("409")
        return sorted(codes)

    def _error_component(self, name: str, schema: dict) -> dict:
        component = ResolvedComponent(name=name, type=ResolvedComponent.SCHEMA, object=_ErrorBodies, schema=schema)
        self.registry.register_on_missing(component)
        return component.ref

    def _error_body(self, code: str) -> dict:
        error = self._error_component("Error", ERROR_SCHEMA)
        if code == "400":
            schema = {"anyOf": [self._error_component("FieldErrors", FIELD_ERRORS_SCHEMA), error]}
        else:
            schema = error
        return {"application/json": {"schema": schema}}

    def _add_error_examples(self, code: str, content: dict) -> None:
        """Show the view's examples of this refusal (``OpenApiExample(..., status_codes=["400"])``) beside its body:
        drf-spectacular attaches examples to the answers it builds, and the refusals' bodies are built here."""
        examples = [e for e in self.get_examples() if e.response_only and code in {str(c) for c in e.status_codes}]
        if examples and "application/json" in content:
            content["application/json"].setdefault("examples", build_examples_list(examples))

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        for code in self._refusals():
            responses.setdefault(code, {"description": REFUSALS[code]})
        for code, response in responses.items():
            if code.startswith("4"):
                response.setdefault("content", self._error_body(code))
                self._add_error_examples(code, response["content"])
                if not response.get("description"):
                    response["description"] = REFUSALS.get(code, "Refused.")
        return dict(sorted(responses.items()))


class StrictFilterExtension(DjangoFilterExtension):
    """The filters of ``portal.filters.FilterBackend`` as it reads them: a number filter is an integer within its
    bounds (an id: 1 to MAX_ID), a text filter is not empty."""

    target_class = "portal.filters.FilterBackend"
    priority = 1

    def resolve_filter_field(self, auto_schema, model, filterset_class, field_name, filter_field):
        parameters = super().resolve_filter_field(auto_schema, model, filterset_class, field_name, filter_field)
        for parameter in parameters:
            schema = parameter["schema"]
            if isinstance(filter_field, _NUMBER_FILTERS):
                item = schema.get("items", schema)
                item["type"] = "integer"
                item["minimum"] = filter_field.extra.get("min_value", 1)
                item["maximum"] = filter_field.extra.get("max_value", MAX_ID)
            elif schema.get("type") == "string" and "enum" not in schema:
                schema["minLength"] = 1
        return parameters


def closed_request_bodies(result, generator, request, public):
    """Request bodies take only the fields they list (``additionalProperties: false``): ``ServiceAnswerMixin.input``
    refuses any other with a 400 naming it. A postprocessing hook (``SPECTACULAR_SETTINGS``)."""
    schemas = result.get("components", {}).get("schemas", {})
    for item in result.get("paths", {}).values():
        for operation in item.values():
            for media in operation.get("requestBody", {}).get("content", {}).values():
                ref = media.get("schema", {}).get("$ref", "")
                component = schemas.get(ref.rsplit("/", 1)[-1]) if ref.startswith("#/components/schemas/") else None
                if component is not None and component.get("type") == "object":
                    component["additionalProperties"] = False
    return result
