"""The portal's own 403, 404 and 500 pages (templates/403.html, 404.html, 500.html): its layout, what to do next.

Tests run with DEBUG off (pytest-django), as `make run` and production do: Django's handlers render these templates.
"""

import pytest
from django.test import Client
from django.urls import include, path, reverse

from accounts.models import Role
from tests.factories import FederationFactory, with_role


def _boom(request):
    raise RuntimeError("a bug")


# The portal's URLs plus one view that fails: the 500 page as a user would meet it.
urlpatterns = [path("boom/", _boom), path("", include("portal.urls"))]


def _logged_in_team_manager():
    user = with_role(Role.TEAM_MANAGER, FederationFactory())
    client = Client()
    client.force_login(user)
    return user, client


def _in_portal_layout(page: str) -> None:
    assert '<header class="site-header">' in page
    assert 'class="brand" href="/"' in page
    assert "/static/portal" in page and ".css" in page
    assert "Traceback" not in page and "Django" not in page


@pytest.mark.django_db
def test_a_missing_page_is_the_portals_404_with_a_way_home_and_to_log_in(client, settings):
    assert settings.DEBUG is False
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    page = " ".join(response.content.decode().split())
    _in_portal_layout(page)
    assert "<h1>Page not found</h1>" in page
    assert "What to do next" in page
    assert f'href="{reverse("home")}"' in page
    assert f'href="{reverse("login")}?next=/no-such-page/"' in page


@pytest.mark.django_db
def test_a_logged_in_users_404_names_the_login_and_the_federation_office():
    user, client = _logged_in_team_manager()
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    page = " ".join(response.content.decode().split())
    _in_portal_layout(page)
    assert f"logged in as <strong>{user.username}</strong>" in page
    assert "ask your federation's office" in page


@pytest.mark.django_db
def test_a_forbidden_page_is_the_portals_403_saying_what_to_do_next():
    # A team manager may not create championships (the permission matrix: championship-create, TM 403).
    user, client = _logged_in_team_manager()
    url = reverse("tournaments:championship-create")
    response = client.get(url)
    assert response.status_code == 403
    page = " ".join(response.content.decode().split())
    _in_portal_layout(page)
    assert "<h1>You may not open this page</h1>" in page
    assert f"logged in as <strong>{user.username}</strong>" in page
    assert f'href="{reverse("login")}?next={url}"' in page  # another login
    assert "ask your federation" in page
    assert f'href="{reverse("home")}"' in page


@pytest.mark.django_db
@pytest.mark.urls(__name__)
def test_a_server_error_is_the_portals_500_page_without_a_request_context():
    client = Client(raise_request_exception=False)
    response = client.get("/boom/")
    assert response.status_code == 500
    page = " ".join(response.content.decode().split())
    _in_portal_layout(page)
    assert "<h1>Something went wrong on our side</h1>" in page
    assert "contact the federation office" in page
    assert f'href="{reverse("home")}"' in page
    assert "a bug" not in page and "RuntimeError" not in page
