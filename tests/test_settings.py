"""Settings come from the environment: each case runs `manage.py` in a subprocess with its own variables."""

import json
import os
import secrets
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_SERVICE_VARIABLES = {"DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "PORTAL_DATA_DIR"}
_SETTINGS_AS_JSON = (
    "import json; from django.conf import settings as s; print(json.dumps({"
    "'engine': s.DATABASES['default']['ENGINE'], 'db_name': s.DATABASES['default']['NAME'], "
    "'db_host': s.DATABASES['default'].get('HOST'), 'cache': s.CACHES['default']['BACKEND'], "
    "'broker': s.CELERY_BROKER_URL, 'results': s.CELERY_RESULT_BACKEND, "
    "'channels': s.CHANNEL_LAYERS['default']['BACKEND'], 'remote_control': s.CELERY_WORKER_ENABLE_REMOTE_CONTROL, "
    "'debug': s.DEBUG}))"
)


def _manage(*args, tmp_path, **variables):
    env = {
        k: v
        for k, v in os.environ.items()
        if (k not in _SERVICE_VARIABLES and not k.startswith("DJANGO_")) or k == "DJANGO_SETTINGS_MODULE"
    }
    env.update(PORTAL_DATA_DIR=str(tmp_path / "data"), **variables)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def _settings(tmp_path, **variables):
    done = _manage("shell", "-c", _SETTINGS_AS_JSON, tmp_path=tmp_path, **variables)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _production(**extra):
    return {
        "DJANGO_PRODUCTION": "1",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_ALLOWED_HOSTS": "portal.ihtc.example",
        **extra,
    }


def test_production_mode_passes_check_deploy_with_no_warnings(tmp_path):
    done = _manage("check", "--deploy", "--fail-level", "WARNING", tmp_path=tmp_path, **_production())
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues (0 silenced)." in done.stdout
    assert "WARNING" not in done.stdout + done.stderr


def test_the_development_default_fails_check_deploy(tmp_path):
    # The guard works both ways: the dev default (DEBUG, known key) is not deployable.
    done = _manage("check", "--deploy", "--fail-level", "WARNING", tmp_path=tmp_path)
    assert done.returncode != 0
    assert "security.W018" in done.stdout + done.stderr  # DEBUG on


def test_production_mode_refuses_to_start_without_a_secret_key(tmp_path):
    variables = _production()
    del variables["DJANGO_SECRET_KEY"]
    done = _manage("check", tmp_path=tmp_path, **variables)
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY" in done.stderr


def test_production_mode_refuses_to_start_without_allowed_hosts(tmp_path):
    variables = _production()
    del variables["DJANGO_ALLOWED_HOSTS"]
    done = _manage("check", tmp_path=tmp_path, **variables)
    assert done.returncode != 0
    assert "DJANGO_ALLOWED_HOSTS" in done.stderr


def test_production_mode_turns_debug_off(tmp_path):
    assert _settings(tmp_path, **_production())["debug"] is False


def test_the_default_is_sqlite_and_the_filesystem_broker(tmp_path):
    values = _settings(tmp_path)
    assert values["engine"] == "django.db.backends.sqlite3"
    assert values["db_name"] == str(tmp_path / "data" / "portal.sqlite3")
    assert values["broker"] == "filesystem://"
    assert values["results"] == f"file://{tmp_path / 'data' / 'celery' / 'results'}"
    assert values["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert values["channels"] == "channels.layers.InMemoryChannelLayer"
    assert values["remote_control"] is False


def test_database_url_selects_postgresql(tmp_path):
    values = _settings(tmp_path, DATABASE_URL="postgres://portal@db.example:5432/ihtc")
    assert values["engine"] == "django.db.backends.postgresql"
    assert (values["db_name"], values["db_host"]) == ("ihtc", "db.example")


def test_redis_url_selects_redis_for_cache_broker_results_and_channels(tmp_path):
    values = _settings(tmp_path, REDIS_URL="redis://cache.example:6379/2")
    assert values["broker"] == values["results"] == "redis://cache.example:6379/2"
    assert values["cache"] == "django_redis.cache.RedisCache"
    assert values["channels"] == "channels_redis.core.RedisChannelLayer"
    assert values["remote_control"] is True


def test_production_mode_serves_pages_after_collectstatic(tmp_path):
    """The production path: collectstatic, then uvicorn (ASGI) serves the home page, login and API docs with their
    CSS (WhiteNoise), as scripts/production starts it."""
    import re
    import socket
    import time
    import urllib.request

    variables = _production(DJANGO_ALLOWED_HOSTS="127.0.0.1", DJANGO_SECURE_SSL_REDIRECT="0")
    for command in (("migrate", "--noinput"), ("collectstatic", "--noinput")):
        done = _manage(*command, tmp_path=tmp_path, **variables)
        assert done.returncode == 0, done.stderr
    assert (tmp_path / "data" / "static" / "staticfiles.json").exists()

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k not in _SERVICE_VARIABLES and not k.startswith("DJANGO_")}
    env.update(PORTAL_DATA_DIR=str(tmp_path / "data"), DJANGO_SETTINGS_MODULE="portal.settings", **variables)
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "portal.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            "1",
            "--lifespan",
            "off",
        ],  # fmt: skip
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{base}/accounts/login/", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        for path in ("/", "/accounts/login/", "/api/docs/"):
            with urllib.request.urlopen(f"{base}{path}", timeout=10) as answer:
                assert answer.status == 200, path
                page = answer.read().decode()
        home = urllib.request.urlopen(f"{base}/", timeout=10).read().decode()
        # The stylesheet is named by its hashed name from the manifest and served by WhiteNoise.
        css = re.search(r'href="(/static/[^"]*portal\.[0-9a-f]{12}\.css)"', home)
        assert css, home[:500]
        with urllib.request.urlopen(f"{base}{css.group(1)}", timeout=10) as answer:
            assert answer.status == 200
            assert "max-age" in answer.headers.get("Cache-Control", "")
        assert "swagger" in page.lower()
    finally:
        server.terminate()
        server.wait(timeout=20)


_DATABASE_AS_JSON = (
    "import json; from django.conf import settings as s; d = s.DATABASES['default']; "
    "print(json.dumps({'max_age': d['CONN_MAX_AGE'], 'pool': d.get('OPTIONS', {}).get('pool')}))"
)


def test_database_pool_size_draws_connections_from_psycopgs_pool_instead_of_persistent_ones(tmp_path):
    url = "postgres://portal@db.example:5432/ihtc"
    done = _manage("shell", "-c", _DATABASE_AS_JSON, tmp_path=tmp_path, DATABASE_URL=url, DATABASE_POOL_SIZE="8")
    assert done.returncode == 0, done.stderr
    values = json.loads(done.stdout.strip().splitlines()[-1])
    # Django refuses a pool with persistent connections; the pool bounds the node's connections.
    assert values == {"max_age": 0, "pool": {"min_size": 1, "max_size": 8, "timeout": 20.0}}
    done = _manage("shell", "-c", _DATABASE_AS_JSON, tmp_path=tmp_path, DATABASE_URL=url)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"max_age": 60, "pool": None}


def test_production_without_the_https_redirect_passes_check_deploy_with_only_that_reminder_silenced(tmp_path):
    # scripts/topology serves plain http on loopback: the redirect is off on purpose, every other check still runs.
    variables = _production(DJANGO_SECURE_SSL_REDIRECT="0")
    done = _manage("check", "--deploy", "--fail-level", "WARNING", tmp_path=tmp_path, **variables)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues (1 silenced)." in done.stdout
    done = _manage(
        "check", "--deploy", "--fail-level", "WARNING", tmp_path=tmp_path, **{**variables, "DJANGO_HSTS_SECONDS": "0"}
    )
    assert done.returncode != 0 and "security.W004" in done.stdout + done.stderr


_POOL_AS_JSON = (
    "import json; from django.conf import settings as s; d = s.DATABASES['default']; "
    "print(json.dumps({'pool': d.get('OPTIONS', {}).get('pool'), 'conn_max_age': d['CONN_MAX_AGE']}))"
)


def _pool(tmp_path, **variables):
    done = _manage("shell", "-c", _POOL_AS_JSON, tmp_path=tmp_path, **variables)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_production_on_postgresql_takes_connections_from_psycopgs_pool_by_default(tmp_path):
    # Issue 27: no CONN_MAX_AGE exhaustion outside the topology: one bounded pool per process.
    database = {"DATABASE_URL": "postgres://portal@db.example:5432/portal"}
    pooled = _pool(tmp_path, **_production(**database))
    assert pooled == {"pool": {"min_size": 1, "max_size": 8, "timeout": 20.0}, "conn_max_age": 0}
    assert _pool(tmp_path, **_production(DATABASE_POOL_SIZE="3", **database))["pool"]["max_size"] == 3
    unpooled = _pool(tmp_path, **_production(DATABASE_POOL_SIZE="0", **database))
    assert unpooled["pool"] is None and unpooled["conn_max_age"] == 60
    # The development default keeps persistent connections (no pool) unless asked.
    assert _pool(tmp_path, **database)["pool"] is None


_REDIS_TIMEOUTS_AS_JSON = (
    "import json; from django.conf import settings as s; print(json.dumps({"
    "'cache': s.CACHES['default']['OPTIONS'], 'channels': s.CHANNEL_LAYERS['default']['CONFIG']['hosts'], "
    "'broker': s.CELERY_BROKER_TRANSPORT_OPTIONS, 'results': s.CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS, "
    "'results_timeouts': [s.CELERY_REDIS_SOCKET_CONNECT_TIMEOUT, s.CELERY_REDIS_SOCKET_TIMEOUT], "
    "'publish': s.CELERY_TASK_PUBLISH_RETRY_POLICY}))"
)


def test_every_redis_client_has_a_connect_and_a_read_timeout(tmp_path):
    """Issue 27, "Faults": a Redis that hangs costs each call a bounded time (docs/operations.md, "Redis hung")."""
    done = _manage("shell", "-c", _REDIS_TIMEOUTS_AS_JSON, tmp_path=tmp_path, REDIS_URL="redis://cache.example:6379/2")
    assert done.returncode == 0, done.stderr
    values = json.loads(done.stdout.strip().splitlines()[-1])
    assert values["cache"]["SOCKET_CONNECT_TIMEOUT"] == values["cache"]["SOCKET_TIMEOUT"] == 0.3
    # The layer's receive blocks 5 s in Redis (channels_redis' BZPOPMIN): its read timeout is longer.
    assert values["channels"] == [
        {"address": "redis://cache.example:6379/2", "socket_connect_timeout": 0.3, "socket_timeout": 8.0}
    ]
    assert values["broker"]["socket_connect_timeout"] == values["broker"]["socket_timeout"] == 0.5
    assert values["results_timeouts"] == [0.5, 0.5]
    assert values["publish"]["max_retries"] == values["results"]["retry_policy"]["max_retries"] == 1


_CALLS_TO_A_HUNG_REDIS = """
import json, time
from django.core.cache import cache
from games import live
from portal.celery import app
from portal.page_cache import CACHE_ERRORS

def timed(call):
    started = time.monotonic()
    try:
        call()
        error = None
    except CACHE_ERRORS as raised:  # what the page cache renders without
        error = type(raised).__name__
    except Exception as raised:
        error = "not a cache error: " + type(raised).__name__
    return [round(time.monotonic() - started, 3), error]

print(json.dumps({
    "cache": timed(lambda: cache.get("page")),
    "push": timed(lambda: live._send(["live.game.1", "live.championship.1"], {"kind": "delta"})),
    "task": timed(lambda: app.send_task("portal.tasks.heartbeat")),
}))
"""


def test_each_redis_client_gives_up_on_a_redis_that_hangs(tmp_path):
    """A socket that listens and never accepts is a Redis stopped by SIGSTOP: the kernel completes the connection,
    nothing answers. The cache gives up after its read timeout, a push after its deadline (its entry is answered),
    a task's publish after a few timeouts (it is left to its sweep)."""
    with socket.socket() as hung:
        hung.bind(("127.0.0.1", 0))
        hung.listen(64)
        port = hung.getsockname()[1]
        done = _manage(
            "shell", "-c", _CALLS_TO_A_HUNG_REDIS, tmp_path=tmp_path, REDIS_URL=f"redis://127.0.0.1:{port}/0"
        )
    assert done.returncode == 0, done.stderr
    took = json.loads(done.stdout.strip().splitlines()[-1])
    # redis-py's TimeoutError as it connects (a new connection's handshake), django-redis' wrapper on a command:
    # both are what portal.page_cache renders without (CACHE_ERRORS).
    assert took["cache"][1] in ("TimeoutError", "ConnectionInterrupted") and 0.3 <= took["cache"][0] < 1.0
    assert took["push"][1] is None and 0.25 <= took["push"][0] < 0.8  # logged, never raised
    assert took["task"][1] and took["task"][0] < 4.0
