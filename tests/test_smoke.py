import pytest
from django.urls import reverse

# `make test` runs the unit suite on PostgreSQL and the tests marked `sqlite` again on SQLite, the embedded default
# of `make run`: its first pages.
pytestmark = pytest.mark.sqlite


@pytest.mark.django_db
def test_home_page_renders(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert b"IHTC Portal" in response.content


@pytest.mark.django_db
def test_api_docs_page_serves_local_assets(client):
    response = client.get(reverse("api-docs"))
    assert response.status_code == 200
    # drf-spectacular-sidecar: Swagger UI comes from our own static files, no CDN.
    assert b"cdn.jsdelivr" not in response.content
    assert b"/static/drf_spectacular_sidecar/" in response.content


@pytest.mark.django_db
def test_redoc_page_loads_no_google_fonts(client):
    response = client.get(reverse("api-redoc"))
    assert response.status_code == 200
    assert b"fonts.googleapis" not in response.content and b"fonts.gstatic" not in response.content
    # The sidecar's bundle, served by the portal with a local logo (portal.api.redoc_bundle).
    assert reverse("api-redoc-bundle").encode() in response.content
