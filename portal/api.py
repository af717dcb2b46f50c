"""API plumbing shared by every app."""

import functools
import logging

from django.contrib.staticfiles import finders
from django.core.exceptions import ImproperlyConfigured, PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from django.http import Http404, HttpResponse
from django.templatetags.static import static
from django.urls import get_resolver, reverse
from django.utils.translation import gettext
from django.views.decorators.cache import cache_control
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, permissions, serializers, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from .i18n import said, said_errors
from .serializers import unknown_fields
from .services import NotYet

logger = logging.getLogger(__name__)


def validation_error_detail(exc: DjangoValidationError) -> dict[str, list[str]]:
    """Return Django's ValidationError as the field -> messages map the API answers with, in the caller's language
    (Accept-Language)."""
    errors = said_errors(exc)
    return errors if isinstance(errors, dict) else {"non_field_errors": errors}


def exception_handler(exc, context):
    """Map domain errors to a 400 that names the field and the rule.

    Services raise Django's ValidationError with a message that cites the
    article or R-id; the API answers 400 with the same field -> messages map
    that the forms show, instead of a 500.
    """
    if isinstance(exc, DjangoValidationError):
        return Response(validation_error_detail(exc), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, IntegrityError):
        # Services validate before writing; a constraint that still fails means a concurrent write won.
        logger.warning("API write refused by a database constraint: %s", exc)
        return Response(
            {
                "non_field_errors": [
                    gettext("This conflicts with a change saved at the same time; reload and try again.")
                ]
            },
            status=status.HTTP_409_CONFLICT,
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(said(exc.args[0]) if isinstance(exc, NotYet) and exc.args else None)
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(said(exc.args[0]) if exc.args and exc.args[0] else None)
    return drf_exception_handler(exc, context)


class RulesPermission(permissions.BasePermission):
    """Allow an action when the user holds the ``rules`` permission the view names for it.

    A view sets ``permission_required = {"list": "app.view_x", "create": "app.add_x", ...}``
    (keys are viewset actions); an action it does not name is refused. The
    permission is asked without an object for the request and with the object
    for object actions, so the predicates of each app's ``rules.py`` decide both.
    """

    def _perm(self, view) -> str | None:
        action = getattr(view, "action", None)
        return getattr(view, "permission_required", {}).get(action)

    def has_permission(self, request, view):
        perm = self._perm(view)
        return bool(perm and request.user and request.user.is_authenticated and request.user.has_perm(perm))

    def has_object_permission(self, request, view, obj):
        perm = self._perm(view)
        return bool(perm and request.user.has_perm(perm, obj))


class ServiceAnswerMixin:
    """A view that writes through a service: ``input`` checks the request's shape, ``answer`` serializes the result.

    The service between them checks who may and the rule; its ValidationError
    becomes a 400 naming the field through ``exception_handler``.
    """

    def input(self, serializer_class, **kwargs) -> dict:
        """Return the request body as ``serializer_class`` validates it (a 400 naming the field otherwise).

        A field the serializer does not take (read-only or unknown) is a 400 naming it, not ignored.
        """
        serializer = serializer_class(data=self.request.data, **kwargs)
        unknown = unknown_fields(serializer, self.request.data)
        if unknown:
            raise exceptions.ValidationError(unknown)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def serialized(self, instance, *, serializer_class=None, many: bool = False):
        """``instance`` serialized by the view's serializer unless one is named (the data of ``answer``)."""
        serializer_class = serializer_class or self.get_serializer_class()
        return serializer_class(instance, many=many, context=self.get_serializer_context()).data

    def answer(self, instance, *, serializer_class=None, created: bool = False, many: bool = False) -> Response:
        """Answer with ``instance`` serialized (by the view's serializer unless one is named): 201 if created, else 200."""
        data = self.serialized(instance, serializer_class=serializer_class, many=many)
        return Response(data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class ApiRootSerializer(serializers.Serializer):
    docs = serializers.URLField(help_text="The interactive documentation (Swagger UI).")
    redoc = serializers.URLField(help_text="The reference documentation (ReDoc).")
    schema = serializers.URLField(help_text="This OpenAPI schema (YAML; ?format=json for JSON).")
    collections = serializers.DictField(child=serializers.URLField(), help_text="Every collection's list, by name.")


def _api_collections(request) -> dict[str, str]:
    """The list URL of every router-registered collection of the API namespaces (``<app>-api``).

    The root resolver's namespaces are those ``reverse()`` reaches: the versioned API's, not its aliases'.
    """
    links = {}
    for namespace, (_prefix, resolver) in get_resolver().namespace_dict.items():
        if not namespace.endswith("-api"):
            continue
        for route in resolver.url_patterns:
            name = getattr(route, "name", None) or ""
            if name.endswith("-list"):
                url = reverse(f"{namespace}:{name}")
                links[url.strip("/").rsplit("/", 1)[-1]] = request.build_absolute_uri(url)
    return dict(sorted(links.items()))


class ApiRootView(APIView):
    """``/api/v1/``: where the documentation, the schema and the collections are."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="The API root: links to the documentation, the schema and every collection",
        description="Anyone may read it. Each collection is a paged list (``?page=``); what a caller sees in it "
        "depends on the roles of the logged-in user (an API token from POST auth/token/, or the portal's "
        "session).",
        responses={200: ApiRootSerializer},
    )
    def get(self, request):
        data = {
            "docs": request.build_absolute_uri(reverse("api-docs")),
            "redoc": request.build_absolute_uri(reverse("api-redoc")),
            "schema": request.build_absolute_uri(reverse("schema")),
            "collections": _api_collections(request),
        }
        return Response(ApiRootSerializer(data).data)


@extend_schema(exclude=True)
@api_view(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
@permission_classes([permissions.AllowAny])
def api_not_found(request, *args, **kwargs):
    """Any other URL under ``/api/v1/`` (or its aliases): the API's JSON 404, not the HTML page (``/api/v1/people/1.5/``)."""
    raise exceptions.NotFound()


# ReDoc's bundle shows Redocly's logo from cdn.redoc.ly; this one shows a local one, so the docs load nothing
# from outside the portal (templates/drf_spectacular/redoc.html uses it).
REDOC_BUNDLE = "drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js"
REDOC_EXTERNAL_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"
DOCS_LOGO = "api-docs/docs-logo.svg"


@functools.cache
def _redoc_bundle_text() -> str:
    path = finders.find(REDOC_BUNDLE)
    if path is None:
        raise ImproperlyConfigured(f"{REDOC_BUNDLE} not found: is drf_spectacular_sidecar installed?")
    with open(path, encoding="utf-8") as bundle:
        return bundle.read().replace(REDOC_EXTERNAL_LOGO, static(DOCS_LOGO))


@cache_control(public=True, max_age=86400)
def redoc_bundle(request):
    """The sidecar's ReDoc bundle with the portal's logo instead of Redocly's (served from outside)."""
    return HttpResponse(_redoc_bundle_text(), content_type="application/javascript; charset=utf-8")
