"""Without nginx a request's body is still limited: over 12 MB is a 413 before it is read (issue 23).

``portal.request_limits``: the ASGI wrapper around the portal's application (what uvicorn serves) refuses a
declared ``Content-Length`` over the limit without reading a byte, and a chunked body as soon as it passes the
limit; the middleware does the first for the WSGI path (the tests' client). Below the limit, uploads meet their
own checks as before.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from portal.asgi import application
from portal.request_limits import RequestBodyLimit
from tests.factories import FederationFactory, PassportFactory, client_for, federation_staff

MB = 1024 * 1024


def _scope(path: str, headers: list[tuple[bytes, bytes]]) -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), *headers],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }


def _serve(app, path: str, *, chunks: int, declared: int | None) -> tuple[int, bytes, int]:
    """Send ``chunks`` bodies of 1 MB to ``app``; return the status, the answer's body and the chunks it pulled."""
    pulled = 0
    sent: list[dict] = []

    async def receive():
        nonlocal pulled
        if pulled >= chunks:
            await asyncio.sleep(3600)  # the client has nothing more to send
        pulled += 1
        return {"type": "http.request", "body": b"x" * MB, "more_body": pulled < chunks}

    async def send(message):
        sent.append(message)

    headers = [(b"content-type", b"application/octet-stream")]
    if declared is not None:
        headers.append((b"content-length", str(declared).encode()))
    asyncio.run(asyncio.wait_for(app(_scope(path, headers), receive, send), timeout=60))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, body, pulled


def test_a_declared_13_mb_body_is_a_413_without_reading_a_byte():
    status, body, pulled = _serve(application, "/accounts/login/", chunks=13, declared=13 * MB)
    assert (status, pulled) == (413, 0)
    assert b"at most 12 MB" in body


def test_a_chunked_50_mb_body_is_refused_as_soon_as_it_passes_12_mb():
    status, body, pulled = _serve(application, "/api/federations/", chunks=50, declared=None)
    assert status == 413
    assert pulled == 13  # 13 MB read, not 50
    assert json.loads(body)["code"] == "request_too_large"


def test_a_body_under_the_limit_reaches_the_application_whole():
    async def app(scope, receive, send):
        size, more = 0, True
        while more:
            message = await receive()
            size, more = size + len(message["body"]), message["more_body"]
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": str(size).encode()})

    for declared in (11 * MB, None):
        assert _serve(RequestBodyLimit(app), "/x/", chunks=11, declared=declared) == (200, b"11534336", 11)


@pytest.mark.django_db
def test_a_13_mb_post_is_a_413_on_the_wsgi_path_too():
    def big():
        return {"file": SimpleUploadedFile("big.bin", b"0" * (13 * MB))}

    response = Client().post("/accounts/login/", big())
    assert response.status_code == 413
    response = Client().post("/api/federations/", big())
    assert response.status_code == 413 and response.json()["code"] == "request_too_large"


@pytest.mark.django_db
def test_an_11_mb_upload_gets_its_own_validation_error():
    fed = FederationFactory()
    passport = PassportFactory(person__federation=fed)
    scan = SimpleUploadedFile("scan.pdf", b"%PDF-1.4\n" + b"0" * (11 * MB), content_type="application/pdf")
    response = client_for(federation_staff(fed)).patch(
        f"/api/passports/{passport.pk}/", {"scan": scan}, format="multipart"
    )
    assert response.status_code == 400
    assert "5 MB" in response.json()["scan"][0]
