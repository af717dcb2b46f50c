"""A database that cannot be reached answers 503 with Retry-After (portal.errors), not a bare 500: a page for
people, JSON under /api/. Any other error keeps the 500 page. The real restart of PostgreSQL is
tests/integration/test_postgres_restart.py."""

import pytest
from django.db import InterfaceError, OperationalError
from django.test import Client
from django.urls import include, path

from portal.errors import database_unavailable


def _restarting(request):
    raise OperationalError("terminating connection due to administrator command")


def _closed(request):
    raise InterfaceError("connection already closed")


def _wrapped(request):
    try:
        raise OperationalError("server closed the connection unexpectedly")
    except OperationalError as error:
        raise RuntimeError("while saving") from error


def _bug(request):
    raise RuntimeError("a bug")


urlpatterns = [
    path("down/", _restarting),
    path("api/down/", _closed),
    path("wrapped/", _wrapped),
    path("bug/", _bug),
    path("", include("portal.urls")),
]
handler500 = "portal.errors.server_error"


@pytest.mark.django_db
@pytest.mark.urls(__name__)
def test_a_page_is_a_503_saying_the_database_is_unavailable():
    response = Client(raise_request_exception=False).get("/down/")
    assert response.status_code == 503 and response["Retry-After"] == "10"
    page = " ".join(response.content.decode().split())
    assert "<h1>The database is unavailable at the moment</h1>" in page
    assert "Nothing of this request was saved." in page
    assert "administrator command" not in page


@pytest.mark.django_db
@pytest.mark.urls(__name__)
def test_the_api_answers_json_503():
    response = Client(raise_request_exception=False).get("/api/down/")
    assert response.status_code == 503 and response["Content-Type"] == "application/json"
    assert response.json()["code"] == "database_unavailable"
    assert "nothing was saved" in response.json()["detail"]


@pytest.mark.django_db
@pytest.mark.urls(__name__)
def test_an_error_raised_from_a_lost_connection_is_a_503_and_a_bug_stays_a_500():
    client = Client(raise_request_exception=False)
    assert client.get("/wrapped/").status_code == 503
    bug = client.get("/bug/")
    assert bug.status_code == 500 and "Something went wrong on our side" in bug.content.decode()


def test_database_unavailable_reads_the_chain_of_causes():
    assert database_unavailable(OperationalError("x")) and database_unavailable(InterfaceError("x"))
    assert not database_unavailable(RuntimeError("x")) and not database_unavailable(None)
