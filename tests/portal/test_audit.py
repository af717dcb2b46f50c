"""scripts/audit (make test): a known vulnerability in a pin fails it, and so does a secret in a file.

This workplace reaches no vulnerability database (PyPI's per-release records and OSV are not served here), so
the vulnerability service is an OSV-compatible one on loopback, answering for one real advisory: Django 3.2.1's
CVE-2021-33203 (GHSA-68w8-qjq3-2gfm, fixed in 3.2.4). The run is pip-audit's own, end to end, only the address
of the service differs (``--osv-url``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent

ADVISORY = {
    "id": "GHSA-68w8-qjq3-2gfm",
    "aliases": ["CVE-2021-33203"],
    "summary": "Path traversal in django.contrib.admindocs",
    "details": "Staff members could use the admindocs TemplateDetailView to check the existence of files.",
    "affected": [
        {
            "package": {"name": "django", "ecosystem": "PyPI"},
            "ranges": [{"type": "ECOSYSTEM", "events": [{"introduced": "3.2"}, {"fixed": "3.2.4"}]}],
        }
    ],
}


class Osv(BaseHTTPRequestHandler):
    def do_POST(self):
        query = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        hit = query["package"]["name"].lower() == "django" and query.get("version") == "3.2.1"
        body = json.dumps({"vulns": [ADVISORY]} if hit else {}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def osv_url():
    server = HTTPServer(("127.0.0.1", 0), Osv)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/v1/query"
    server.shutdown()


def audit(requirements: Path, osv_url: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "AUDIT_SERVICE": f"-s osv --osv-url {osv_url}"}
    return subprocess.run(
        [sys.executable, "scripts/audit", "--no-secrets", str(requirements)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def test_a_pin_with_a_known_vulnerability_fails_the_audit(tmp_path, osv_url):
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("Django==3.2.1\nfiletype==1.2.0\n")
    done = audit(requirements, osv_url)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "VULNERABLE django==3.2.1: CVE-2021-33203 (fixed in 3.2.4)" in done.stdout
    assert "2 pinned packages, 2 audited, 1 with a known vulnerability" in done.stdout


def test_the_fixed_release_passes_the_audit(tmp_path, osv_url):
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("Django==3.2.4\n")
    done = audit(requirements, osv_url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 pinned packages, 1 audited, 0 with a known vulnerability" in done.stdout


def test_detect_secrets_finds_a_private_key_and_a_password_in_settings(tmp_path):
    (tmp_path / "settings.py").write_text(
        'DATABASE_PASSWORD = "Zq8!rT4v#Lm2pW9x"\n'  # pragma: allowlist secret
        "KEY = '''-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----'''\n"  # pragma: allowlist secret
    )
    done = subprocess.run(
        [str(Path(sys.executable).parent / "detect-secrets-hook"), "settings.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 1
    assert "Private Key" in done.stdout and "Secret Keyword" in done.stdout
