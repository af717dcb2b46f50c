"""Secure headers on real responses of a production-mode server: uvicorn, DJANGO_PRODUCTION=1, behind a proxy.

The server is a child process (``python -m uvicorn portal.asgi:application``, as scripts/production starts it)
on a migrated SQLite file of its own; requests say ``X-Forwarded-Proto: https`` as the TLS-terminating proxy does.
"""

from __future__ import annotations

import http.client
import os
import re
import secrets
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import pytest

from tests.live_servers import free_port

ROOT = Path(__file__).resolve().parent.parent.parent
HOST = "portal.ihtc.example"


@pytest.fixture(scope="module")
def production_env(tmp_path_factory):
    data = tmp_path_factory.mktemp("production")
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("DJANGO_") and k not in ("DATABASE_URL", "REDIS_URL")
    }
    env.update(
        DJANGO_PRODUCTION="1",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS=HOST,
        PORTAL_DATA_DIR=str(data),
        # The pages' static files from the apps' folders: no collectstatic (a minute) for a headers check.
        PORTAL_COLLECTED_STATIC="0",
        PYTHONUNBUFFERED="1",
    )
    return env


@pytest.fixture(scope="module")
def production_server(production_env):
    env = production_env
    migrated = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert migrated.returncode == 0, migrated.stderr
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "portal.asgi:application", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                get(port, "/accounts/login/")
                break
            except OSError:
                assert time.monotonic() < deadline, "the production server did not start"
                time.sleep(0.3)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=20)


def get(port: int, path: str, *, https: bool = True, keep_body: bool = False) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Host": HOST, **({"X-Forwarded-Proto": "https"} if https else {})}
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    if keep_body:
        response.body = body.decode()
    connection.close()
    return response


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/tournaments/", "/api/", "/api/docs/"])
def test_every_response_carries_the_secure_headers(production_server, path):
    response = get(production_server, path)
    assert response.status in (200, 403), (path, response.status)
    headers = response.headers
    assert headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Cross-Origin-Opener-Policy"] == "same-origin"
    policy = headers["Content-Security-Policy"]
    for directive in ("default-src 'self'", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'"):
        assert directive in policy
    script_src = re.search(r"script-src ([^;]*)", policy).group(1)
    assert script_src == "'self'"  # no inline script, no eval, on any page
    assert f"wss://{HOST}" in policy


def test_the_login_page_sets_secure_cookies(production_server):
    response = get(production_server, "/accounts/login/")
    cookies = response.headers.get_all("Set-Cookie")
    csrf = next(c for c in cookies if c.startswith("csrftoken="))
    assert "; Secure" in csrf and "SameSite=Lax" in csrf


def test_a_login_on_the_real_server_sets_a_secure_http_only_session_cookie(production_server, production_env):
    password = secrets.token_urlsafe(16)
    made = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c",
         f"from accounts.models import User; User.objects.create_user('cookie-check', password='{password}')"],
        cwd=ROOT, env=production_env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    page = get(production_server, "/accounts/login/", keep_body=True)
    csrf_cookie = next(c for c in page.headers.get_all("Set-Cookie") if c.startswith("csrftoken="))
    csrf_token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.body).group(1)
    form = urllib.parse.urlencode({"username": "cookie-check", "password": password, "csrfmiddlewaretoken": csrf_token})
    connection = http.client.HTTPConnection("127.0.0.1", production_server, timeout=10)
    connection.request("POST", "/accounts/login/", body=form, headers={
        "Host": HOST, "X-Forwarded-Proto": "https", "Origin": f"https://{HOST}",
        "Referer": f"https://{HOST}/accounts/login/", "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": csrf_cookie.split(";")[0],
    })  # fmt: skip
    response = connection.getresponse()
    response.read()
    connection.close()
    assert response.status == 302, response.status  # signed in: redirected on
    session = next(c for c in response.headers.get_all("Set-Cookie") if c.startswith("sessionid="))
    attributes = [a.strip().lower() for a in session.split(";")[1:]]
    assert "secure" in attributes and "httponly" in attributes and "samesite=lax" in attributes, session


def test_plain_http_is_redirected_to_https(production_server):
    response = get(production_server, "/accounts/login/", https=False)
    assert response.status == 301
    assert response.headers["Location"] == f"https://{HOST}/accounts/login/"
