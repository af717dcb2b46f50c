"""Two `make test` runs share Redis but not keys: every key carries the checkout's prefix; tests delete only theirs."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.conftest import delete_own_keys, redis_pattern

ROOT = Path(__file__).resolve().parent.parent


class FakeRedis:
    """The two commands `delete_own_keys` uses, with Redis's glob matching (backslash escapes a character)."""

    def __init__(self, keys):
        self.keys = set(keys)

    @staticmethod
    def _regex(pattern: str) -> re.Pattern:
        out, chars = [], iter(pattern)
        for c in chars:
            if c == "\\":
                out.append(re.escape(next(chars)))
            elif c == "*":
                out.append(".*")
            elif c == "?":
                out.append(".")
            else:
                out.append(re.escape(c))
        return re.compile("".join(out) + r"\Z", re.S)

    def scan_iter(self, match, count):
        regex = self._regex(match)
        return iter(sorted(k for k in self.keys if regex.match(k)))

    def delete(self, *keys):
        self.keys -= set(keys)


def test_only_the_keys_of_this_checkouts_prefix_are_deleted():
    ours = {"portal_1a2b3c4d:celery", "portal_1a2b3c4d:_kombu.binding.celery", "portal_1a2b3c4d:celery-task-meta-1"}
    theirs = {"portal_99999999:celery", "celery", "portal_1a2b3c4d", "other:portal_1a2b3c4d:x"}
    client = FakeRedis(ours | theirs)
    assert delete_own_keys(client, "portal_1a2b3c4d:") == 3
    assert client.keys == theirs


def test_glob_characters_in_a_prefix_match_only_themselves():
    client = FakeRedis({"a*b:1", "axb:1"})
    assert redis_pattern("a*b:") == "a\\*b:*"
    delete_own_keys(client, "a*b:")
    assert client.keys == {"axb:1"}


def test_without_a_prefix_nothing_is_deleted():
    client = FakeRedis({"celery"})
    with pytest.raises(ValueError):
        delete_own_keys(client, "")
    assert client.keys == {"celery"}


def test_redis_key_prefix_reaches_the_cache_celery_and_the_channel_layer(tmp_path):
    code = (
        "import json; from django.conf import settings as s; print(json.dumps({"
        "'cache': s.CACHES['default']['KEY_PREFIX'], 'channels': s.CHANNEL_LAYERS['default']['CONFIG']['prefix'], "
        "'broker': s.CELERY_BROKER_TRANSPORT_OPTIONS, 'results': s.CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS}))"
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "portal.settings",
        "PORTAL_DATA_DIR": str(tmp_path),
        "REDIS_URL": "redis://cache.example:6379/9",
        "REDIS_KEY_PREFIX": "portal_1a2b3c4d:",
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    values = json.loads(done.stdout.strip().splitlines()[-1])
    assert values["cache"] == "portal_1a2b3c4d:"
    assert values["channels"] == "portal_1a2b3c4d:asgi"
    assert values["broker"]["global_keyprefix"] == values["results"]["global_keyprefix"] == "portal_1a2b3c4d:"


def test_make_test_gives_the_integration_run_a_prefix_of_the_checkout():
    makefile = (ROOT / "Makefile").read_text()
    assert "TEST_REDIS_KEY_PREFIX ?= portal_$(CHECKOUT_ID):" in makefile
    assert "REDIS_KEY_PREFIX=$(TEST_REDIS_KEY_PREFIX)" in makefile
    tests = (ROOT / "tests" / "integration").rglob("*.py")
    assert not any("flushdb" in path.read_text().lower() for path in tests)
