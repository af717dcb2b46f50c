"""Posting a form as a browser does: the page first (it sets the CSRF cookie), then the form-encoded POST with the
page's ``csrfmiddlewaretoken``, on a client that enforces CSRF checks (``browser_client``)."""

from django.test import Client


def browser_client() -> Client:
    return Client(enforce_csrf_checks=True)


def post_form(client: Client, url: str, data: dict, *, page: str | None = None, **extra):
    """GET ``page`` (default ``url``) like a browser opening the form, then POST ``data`` to ``url`` with its token."""
    client.get(page or url, **extra)
    token = client.cookies["csrftoken"].value
    return client.post(url, {**data, "csrfmiddlewaretoken": token}, **extra)
