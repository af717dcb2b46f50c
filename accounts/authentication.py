"""How the API knows its caller by token (django-rest-knox), and how it says a token is refused (issue 29).

``TokenAuthentication`` comes first in ``DEFAULT_AUTHENTICATION_CLASSES``: DRF answers a failed authentication with
the first class's ``authenticate_header``. A caller that sent a token the portal does not know (unknown, expired,
revoked, or its login inactive) is answered 401 with ``WWW-Authenticate: Token``: get a new token. A caller that
sent no token (nor a session) stays a 403, as is every refusal of a known caller who may not.
"""

from __future__ import annotations

from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from knox import auth
from knox.settings import knox_settings
from rest_framework.authentication import get_authorization_header


def sends_token(request) -> bool:
    """Whether the request's ``Authorization`` header is of the token scheme (``Token <t>``)."""
    scheme = get_authorization_header(request).split(b" ", 1)[0]
    return scheme.lower() == knox_settings.AUTH_HEADER_PREFIX.lower().encode()


class TokenAuthentication(auth.TokenAuthentication):
    """knox's token authentication; a refused token is a 401 that names the scheme, no token leaves the 403."""

    def authenticate(self, request):
        if not sends_token(request):
            return None  # another scheme, or none: the session may know the caller
        return super().authenticate(request)

    def authenticate_header(self, request):
        return knox_settings.AUTH_HEADER_PREFIX if sends_token(request) else None


class TokenScheme(KnoxTokenScheme):
    """The schema's ``knoxApiToken`` security scheme for this class (drf-spectacular matches the exact class)."""

    target_class = "accounts.authentication.TokenAuthentication"

    def get_security_definition(self, auto_schema):
        return build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix=knox_settings.AUTH_HEADER_PREFIX
        )
