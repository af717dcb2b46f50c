"""The site's icon: ``/favicon.ico``, which browsers ask of every site, answers the icon kept in static (it was a 404
on every page), and every page built on base.html names it (``<link rel="icon">``)."""

import pytest
from django.templatetags.static import static
from django.test import Client

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ICO_HEADER = b"\x00\x00\x01\x00"  # an ICO file's first bytes: reserved 0, type 1 (icon)


def test_favicon_ico_leads_to_the_icon_in_static_for_anyone():
    client = Client()
    answer = client.get("/favicon.ico")
    assert answer.status_code == 302
    assert answer["Location"] == static("favicon.ico")
    assert "max-age=86400" in answer["Cache-Control"] and "public" in answer["Cache-Control"]
    icon = client.get(answer["Location"])
    assert icon.status_code == 200
    assert icon["Content-Type"] in ("image/x-icon", "image/vnd.microsoft.icon")
    assert b"".join(icon.streaming_content).startswith(ICO_HEADER)
    assert client.head("/favicon.ico").status_code == 302
    assert client.post("/favicon.ico").status_code == 405


@pytest.mark.parametrize("path", ["/", "/tournaments/", "/federation/people/", "/accounts/login/", "/notifications/"])
def test_every_page_names_the_icon(path):
    client = Client()
    client.force_login(UserFactory())
    page = client.get(path)
    assert page.status_code == 200
    assert f'<link rel="icon" href="{static("favicon.ico")}"' in page.content.decode()
