"""A refusal is one INFO line in the log, not an error with a traceback (issue 23: 2,546 tracebacks in one run).

``portal.log_filters.RefusalsAsInfo`` on the ``django.request`` logger (settings.LOGGING); a 500 keeps its
ERROR level and its traceback. The records are read as the root logger's handlers get them (caplog).
"""

import logging

import pytest
from django.test import Client
from django.urls import include, path

from accounts.models import Role
from tests.factories import FederationFactory, UserFactory, with_role

pytestmark = pytest.mark.django_db


def _boom(request):
    raise RuntimeError("a bug")


urlpatterns = [path("boom/", _boom), path("", include("portal.urls"))]


def _request_records(caplog) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name == "django.request"]


def _assert_one_info_line_without_traceback(caplog, status: int) -> None:
    records = _request_records(caplog)
    assert len(records) == 1, records
    record = records[0]
    assert record.status_code == status
    assert record.levelno == logging.INFO, record.levelname
    assert record.exc_info is None and record.exc_text is None
    assert "Traceback" not in caplog.text


def test_a_page_refused_with_permission_denied_is_an_info_line(caplog):
    client = Client()
    client.force_login(with_role(Role.TEAM_MANAGER, FederationFactory()))
    caplog.set_level(logging.INFO)
    assert client.get("/tournaments/new/").status_code == 403
    _assert_one_info_line_without_traceback(caplog, 403)


def test_a_missing_page_is_an_info_line(client, caplog):
    caplog.set_level(logging.INFO)
    assert client.get("/no-such-page/").status_code == 404
    _assert_one_info_line_without_traceback(caplog, 404)


def test_the_apis_refusals_are_info_lines(client, caplog):
    caplog.set_level(logging.INFO)
    assert client.get("/api/federations/").status_code == 403  # DRF's NotAuthenticated
    _assert_one_info_line_without_traceback(caplog, 403)
    caplog.clear()
    client.force_login(UserFactory())
    assert client.get("/api/federations/999999/").status_code == 404
    _assert_one_info_line_without_traceback(caplog, 404)


@pytest.mark.urls(__name__)
def test_a_server_error_stays_an_error_with_its_traceback(caplog):
    caplog.set_level(logging.INFO)
    response = Client(raise_request_exception=False).get("/boom/")
    assert response.status_code == 500
    records = _request_records(caplog)
    assert [record.levelno for record in records] == [logging.ERROR]
    assert records[0].exc_info is not None
