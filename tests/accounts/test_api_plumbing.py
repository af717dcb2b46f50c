"""portal.api: the exception handler and RulesPermission shared by every app's API."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError
from django.http import Http404
from rest_framework.test import APIRequestFactory

from portal.api import RulesPermission, exception_handler
from tests.factories import UserFactory, federation_staff


def test_a_service_validation_error_is_a_400_naming_the_field():
    response = exception_handler(ValidationError({"number": "Rule 3.2.9 C: numbers are 1-99"}), {})
    assert response.status_code == 400
    assert response.data == {"number": ["Rule 3.2.9 C: numbers are 1-99"]}


def test_a_validation_error_without_a_field_is_a_non_field_error():
    response = exception_handler(ValidationError("Rule 3.1.1 B: the roster is frozen"), {})
    assert response.status_code == 400
    assert response.data == {"non_field_errors": ["Rule 3.1.1 B: the roster is frozen"]}


def test_django_404_and_permission_denied_become_api_answers():
    assert exception_handler(Http404("x"), {}).status_code == 404
    denied = exception_handler(PermissionDenied("Rule 3.2.8 C: only the IHTC decides"), {})
    assert denied.status_code == 403
    assert "3.2.8 C" in str(denied.data["detail"])


def test_a_constraint_lost_to_a_concurrent_write_is_a_409_not_a_500():
    response = exception_handler(IntegrityError("UNIQUE constraint failed"), {})
    assert response.status_code == 409
    assert "non_field_errors" in response.data


class _View:
    permission_required = {"list": "federation.view_passport"}

    def __init__(self, action):
        self.action = action


@pytest.mark.django_db
def test_rules_permission_refuses_an_action_the_view_does_not_name():
    request = APIRequestFactory().get("/")
    request.user = federation_staff()
    assert RulesPermission().has_permission(request, _View("list"))
    assert not RulesPermission().has_permission(request, _View("destroy"))
    request.user = UserFactory()
    assert not RulesPermission().has_permission(request, _View("list"))
