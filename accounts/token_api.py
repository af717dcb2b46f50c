"""The API's token exchange (issue 29): a script trades a login and password for a named, expiring token, and
revokes the token it uses, without the pages.

``POST auth/token/`` checks the password through ``authenticate``, so django-axes counts a wrong one toward the
login's lockout exactly as the login page does (``accounts.lockout``); a locked login gets no token, even with the
right password (403, with the lockout's message). ``DELETE auth/token/`` deletes the token the request carries.
"""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import exceptions, permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from portal.api import ServiceAnswerMixin
from portal.serializers import IntegerField

from .authentication import TokenAuthentication
from .lockout import is_locked_out, lockout_message
from .tokens import MAX_LIFETIME_DAYS, token_issue

DEFAULT_LIFETIME_DAYS = 30


class TokenExchangeInputSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, help_text="The login's username, as on the login page.")
    password = serializers.CharField(
        max_length=4096,
        trim_whitespace=False,
        write_only=True,
        style={"input_type": "password"},
        help_text="The login's password. A wrong one counts toward the login's lockout, as on the login page.",
    )
    name = serializers.CharField(
        max_length=100,
        help_text="What the token is for, e.g. the script or computer that uses it (listed on the API tokens page).",
    )
    expires_in_days = IntegerField(
        min_value=1,
        max_value=MAX_LIFETIME_DAYS,
        default=DEFAULT_LIFETIME_DAYS,
        help_text=f"Days until the token expires: 1 to {MAX_LIFETIME_DAYS}; {DEFAULT_LIFETIME_DAYS} if left out.",
    )


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(
        help_text="The token, shown only in this answer (the portal keeps its digest): send it as "
        "``Authorization: Token <token>``."
    )
    name = serializers.CharField(help_text="The name given.")
    expires = serializers.DateTimeField(help_text="When the token stops working (UTC).")


_WRONG = OpenApiResponse(
    description="Bad input (the field named), or a wrong username or password (``non_field_errors``); each wrong "
    "password counts toward the login's lockout."
)
_LOCKED = OpenApiResponse(
    description="The login is locked after too many wrong passwords (django-axes, as the login page): no token, "
    "even with the right password; ``detail`` says for how long and how to be unlocked sooner."
)


class TokenView(ServiceAnswerMixin, APIView):
    """``auth/token/``: exchange a login and password for a token (POST), revoke the token in use (DELETE)."""

    def _exchanging(self) -> bool:
        # The schema's generator asks for the authenticators before the view has its request.
        return getattr(self.request, "method", None) == "POST"

    def get_authenticators(self):
        # The exchange is how a script without a token starts: it takes no credentials but the body's (and no
        # session, so no CSRF token to fetch). The revocation knows its caller only by the token it revokes.
        return [] if self._exchanging() else [TokenAuthentication()]

    def get_permissions(self):
        return [permissions.AllowAny()] if self._exchanging() else [permissions.IsAuthenticated()]

    @extend_schema(
        summary="Exchange a login and password for a named, expiring API token",
        description="Anyone may call it; no token or session is needed. The token acts as the login on every "
        "operation until it expires (``expires_in_days``, 1 to 365, default 30), its owner revokes it (here with "
        "DELETE, or on the API tokens page) or the password changes. Wrong passwords are limited as on the login "
        "page: after 5 from one address, or 10 from any addresses, the login is locked for an hour (403).",
        request=TokenExchangeInputSerializer,
        responses={201: TokenSerializer, 400: _WRONG, 403: _LOCKED},
        examples=[
            OpenApiExample(
                "A federation's script",
                value={
                    "username": "fed-script",
                    "password": "its password",  # pragma: allowlist secret
                    "name": "registrations sync",
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request):
        data = self.input(TokenExchangeInputSerializer)
        # The Django request: django-axes flags it (and its middleware answers) when the login is locked out.
        user = authenticate(request._request, username=data["username"], password=data["password"])
        if user is None:
            if is_locked_out(request._request):
                raise exceptions.PermissionDenied(lockout_message())
            raise exceptions.ValidationError(
                {"non_field_errors": [_("The username or the password is wrong: no token is made.")]}
            )
        token, text = token_issue(user=user, name=data["name"], days=data["expires_in_days"])
        body = TokenSerializer({"token": text, "name": token.name, "expires": token.expiry}).data
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Revoke the API token this request carries",
        description="The token sent as ``Authorization: Token <token>`` is deleted: from now on it is refused "
        "(401). The login's other tokens and sessions are untouched. A request without a token is refused (403).",
        request=None,
        responses={204: None},
    )
    def delete(self, request):
        request.auth.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)
