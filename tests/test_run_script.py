"""`make run` (scripts/run): DEBUG off unless asked, collected static files, and the right URL in every message.

The script runs for real, with a fake Python in place of `.venv/bin/python`: it logs how it was called,
answers the readiness probe through a one-request HTTP server on the chosen port (then stops, which ends
the script), and lets the readiness probe itself run on the real interpreter.
"""

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

from demo import data as demo_data
from demo.management.commands.demo import logins_table, portal_url

ROOT = Path(__file__).resolve().parent.parent

FAKE_PYTHON = """#!/usr/bin/env bash
echo "DJANGO_DEBUG=${DJANGO_DEBUG:-} PORTAL_COLLECTED_STATIC=${PORTAL_COLLECTED_STATIC:-} \
PORTAL_BASE_URL=${PORTAL_BASE_URL:-} $*" >>"$FAKE_LOG"
case "$1 ${2:-}" in
    "-c "*) exec "$REAL_PYTHON" "$@" ;;
    "-m celery") exec sleep 60 ;;
    "-m uvicorn")
        while [ $# -gt 0 ]; do
            case "$1" in
                --host) address=$2 ;;
                --port) port=$2 ;;
            esac
            shift
        done
        exec "$REAL_PYTHON" -c '
import http.server, sys
class Ok(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
    def log_message(self, *args):
        pass
http.server.HTTPServer((sys.argv[1], int(sys.argv[2])), Ok).handle_request()
' "$address" "$port" ;;
    *) exit 0 ;;
esac
"""

# Stands in for `python manage.py demo`, whose table prints PORTAL_URL (tested below on the real function).
FAKE_DEMO = """#!/usr/bin/env bash
echo "Demo portal: $PORTAL_URL"
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _run(tmp_path, **variables) -> tuple[str, list[str]]:
    fake_python = tmp_path / "python"
    fake_python.write_text(FAKE_PYTHON)
    fake_demo = tmp_path / "demo"
    fake_demo.write_text(FAKE_DEMO)
    fake_python.chmod(0o755)
    fake_demo.chmod(0o755)
    log = tmp_path / "calls.log"
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "PORTAL_")) and k not in ("DEBUG", "FORWARDED_ALLOW_IPS")
    }
    env.update(
        PY=str(fake_python),
        DEMO_COMMAND=str(fake_demo),
        PORTAL_DATA_DIR=str(tmp_path / "data"),
        FAKE_LOG=str(log),
        REAL_PYTHON=sys.executable,
        **variables,
    )
    done = subprocess.run(
        [str(ROOT / "scripts" / "run")], cwd=ROOT, env=env, capture_output=True, text=True, timeout=90
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr, log.read_text().splitlines()


def test_make_run_on_another_port_names_that_port_in_every_message(tmp_path):
    port = _free_port()
    output, calls = _run(tmp_path, PORT=str(port))
    urls = re.findall(r"https?://[^\s/]+/?\S*", output)
    assert f"http://127.0.0.1:{port}/" in urls
    assert f"http://127.0.0.1:{port}/admin/" in urls and f"http://127.0.0.1:{port}/api/v1/docs/" in urls
    assert f"Demo portal: http://127.0.0.1:{port}/" in output
    assert all(f":{port}/" in url for url in urls), urls
    assert ":8000" not in output
    assert any(f"-m uvicorn portal.asgi:application --host 127.0.0.1 --port {port}" in call for call in calls)


def test_make_run_on_another_port_gives_that_address_to_every_e_mail(tmp_path):
    """The worker sends the e-mails and the web server makes some: both get PORTAL_BASE_URL of the served port."""
    port = _free_port()
    _, calls = _run(tmp_path, PORT=str(port))
    served = [call for call in calls if "-m celery" in call or "-m uvicorn" in call]
    assert len(served) == 3  # worker, beat, web server
    assert all(f"PORTAL_BASE_URL=http://127.0.0.1:{port} " in call for call in served), served


def test_the_e_mail_links_start_with_portal_base_url_from_the_environment(tmp_path):
    """The setting the e-mails read (portal.notifications) is the variable scripts/run exports."""
    code = "from django.conf import settings; print(settings.PORTAL_BASE_URL)"
    env = {**os.environ, "PORTAL_BASE_URL": "http://127.0.0.1:8303", "PORTAL_DATA_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.stdout.strip().splitlines()[-1] == "http://127.0.0.1:8303", done.stderr


def test_make_run_believes_no_x_forwarded_for_unless_a_proxy_is_named(tmp_path):
    _, calls = _run(tmp_path, PORT=str(_free_port()))
    web = next(call for call in calls if "-m uvicorn" in call)
    assert web.endswith("--no-proxy-headers"), web
    _, calls = _run(tmp_path, PORT=str(_free_port()), FORWARDED_ALLOW_IPS="127.0.0.9")
    web = next(call for call in calls if "-m uvicorn" in call and "127.0.0.9" in call)
    assert web.endswith("--proxy-headers --forwarded-allow-ips 127.0.0.9"), web


def test_make_run_serves_with_debug_off_and_collected_static_files_by_default(tmp_path):
    output, calls = _run(tmp_path, PORT=str(_free_port()))
    runserver = next(call for call in calls if "-m uvicorn portal.asgi:application" in call)
    assert runserver.startswith("DJANGO_DEBUG=0 PORTAL_COLLECTED_STATIC=1 ")
    assert any("manage.py collectstatic --noinput" in call for call in calls)
    # The worker and beat run with the same settings as the web server.
    assert all(call.startswith("DJANGO_DEBUG=0 ") for call in calls if "-m celery" in call)
    assert "DEBUG off" in output


def test_debug_1_make_run_turns_debug_on_and_skips_collectstatic(tmp_path):
    output, calls = _run(tmp_path, PORT=str(_free_port()), DEBUG="1")
    runserver = next(call for call in calls if "-m uvicorn portal.asgi:application" in call)
    assert runserver.startswith("DJANGO_DEBUG=1 PORTAL_COLLECTED_STATIC=0 ")
    assert not any("collectstatic" in call for call in calls)
    assert "DEBUG on" in output


def test_no_message_of_make_run_hard_codes_port_8000():
    script = (ROOT / "scripts" / "run").read_text()
    assert "8000" not in script.replace("PORT=${PORT:-8000}", "")
    makefile = (ROOT / "Makefile").read_text()
    assert "8000" not in makefile.replace("PORT ?= 8000", "")


def test_the_demo_logins_table_names_portal_url(monkeypatch):
    monkeypatch.setenv("PORTAL_URL", "http://127.0.0.1:8123/")
    assert portal_url() == "http://127.0.0.1:8123/"
    assert logins_table(portal_url()).startswith("Demo portal: http://127.0.0.1:8123/\n")
    monkeypatch.delenv("PORTAL_URL")
    assert portal_url() == demo_data.DEMO_URL
