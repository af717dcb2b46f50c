"""API plumbing shared by every app."""

from django.core.exceptions import PermissionDenied, ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc, context):
    """Map domain errors to a 400 that names the field and the rule.

    Services raise Django's ValidationError with a message that cites the
    article or R-id; the API answers 400 with the same field -> messages map
    that the forms show, instead of a 500.
    """
    if isinstance(exc, DjangoValidationError):
        if hasattr(exc, "error_dict"):
            detail = {field: [m for e in errors for m in e.messages] for field, errors in exc.error_dict.items()}
        else:
            detail = {"non_field_errors": exc.messages}
        return Response(detail, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    return drf_exception_handler(exc, context)
