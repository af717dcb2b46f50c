"""docs/api-guide.md runs (issue 29): its Python blocks, in order, against the portal on uvicorn, calling only what
the schema documents (the stream of section 8 aside: the schema describes request and answer, not pushes).

The first block (the script's configuration) is replaced by the world this test prepares; every other block runs
as written, with ``requests`` counting each call it makes."""

from __future__ import annotations

import ast
import datetime
import re
import threading
from pathlib import Path

import pytest
import requests

from tests.discipline.protest_helpers import world_ended
from tests.factories import ChampionshipFactory, FederationFactory, federation_staff, international_staff, jpeg_upload
from tests.games.sheet_helpers import entry as sheet_entry
from tests.games.sheet_helpers import sheet_game, sign_in
from tests.live_servers import Session
from tests.reports.helpers import staff_result_game
from tests.tournaments.conftest import eligible_person

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "api-guide.md"
PASSWORD = "guide-pass-2027"  # pragma: allowlist secret
LIVE_PATH = re.compile(r"^/live/games/\d+/stream/$")


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", GUIDE.read_text(), flags=re.S)


def schema_operations(base: str) -> list[tuple[str, re.Pattern]]:
    schema = requests.get(f"{base}/api/v1/schema/?format=json", timeout=30).json()
    operations = []
    for path, item in schema["paths"].items():
        pattern = re.compile("^" + re.sub(r"\{[^}]+\}", r"[^/]+", path) + "$")
        operations += [(method.upper(), pattern) for method in item if method != "parameters"]
    return operations


def documented(operations, method: str, path: str) -> bool:
    return any(m == method and pattern.match(path) for m, pattern in operations)


def test_the_guides_python_blocks_name_what_the_test_provides():
    config = ast.parse(python_blocks()[0])
    names = {t.id for node in config.body for t in getattr(node, "targets", []) for t in getattr(t, "elts", [t])}
    assert names == {
        "BASE", "USERNAME", "PASSWORD", "MANAGER_USERNAME", "MANAGER_PASSWORD", "FEDERATION", "CHAMPIONSHIP",
        "SQUAD", "PROTEST_GAME", "LIVE_GAME", "REPORT_GAME", "PASSPORT_SCAN",
    }  # fmt: skip


@pytest.mark.django_db
def test_the_guides_curl_calls_are_in_the_schema(client):
    schema = client.get("/api/v1/schema/?format=json").json()
    templates = [re.compile("^" + re.sub(r"\{[^}]+\}", r"[^/]+", p) + "$") for p in schema["paths"]]
    shell = "\n".join(re.findall(r"```sh\n(.*?)```", GUIDE.read_text(), flags=re.S))
    paths = re.findall(r"\$BASE(/api/v1/[^\"?\s]*)", shell)
    assert len(paths) >= 12
    assert [p for p in paths if not any(t.match(p) for t in templates)] == []


def world(tmp_path):
    """A federation's registrar and a published championship open for entries, seven eligible players already
    registered; a game its team manager may protest; a game being played; a final game with its report."""
    federation = FederationFactory(country="IT", short_name="FIT")
    registrar = federation_staff(federation, username="fit-registrar")
    registrar.set_password(PASSWORD)
    registrar.save()
    championship = ChampionshipFactory()
    squad = [eligible_person(federation) for _ in range(5)]
    goalkeepers = [eligible_person(federation, is_goalkeeper=True) for _ in range(2)]
    protest = world_ended(datetime.timedelta(minutes=30))
    manager = protest.home_manager
    manager.set_password(PASSWORD)
    manager.save()
    live_game = sheet_game()
    director = international_staff()
    sign_in(live_game, director)
    report_game = staff_result_game(international_staff())
    scan = tmp_path / "scan.jpg"
    scan.write_bytes(jpeg_upload().read())
    config = {
        "USERNAME": registrar.username,
        "PASSWORD": PASSWORD,
        "MANAGER_USERNAME": manager.username,
        "MANAGER_PASSWORD": PASSWORD,
        "FEDERATION": federation.pk,
        "CHAMPIONSHIP": championship.pk,
        "SQUAD": [(p.pk, str(10 + i), "player", i == 0) for i, p in enumerate(squad)]
        + [(p.pk, str(1 + i), "goalkeeper", False) for i, p in enumerate(goalkeepers)],
        "PROTEST_GAME": protest.game.pk,
        "LIVE_GAME": live_game.pk,
        "REPORT_GAME": report_game.pk,
        "PASSPORT_SCAN": str(scan),
    }
    return config, live_game, director


def test_the_guides_whole_path_runs_against_a_live_server(asgi_server, tmp_path, monkeypatch):
    config, live_game, director = world(tmp_path)
    operations = schema_operations(asgi_server.url)
    table = Session(director)
    calls: list[tuple[str, str, int]] = []
    request = requests.Session.request

    def recorded(self, method, url, *args, **kwargs):
        response = request(self, method, url, *args, **kwargs)
        path = url.removeprefix(asgi_server.url).split("?")[0]
        calls.append((method.upper(), path, response.status_code))
        if LIVE_PATH.match(path):
            # The stream answered: the viewer is listening. The officials' table records an entry.
            threading.Thread(
                target=asgi_server.post, args=(live_game, [sheet_entry("period_start", period=1)], table)
            ).start()
        return response

    monkeypatch.setattr(requests.Session, "request", recorded)
    monkeypatch.chdir(tmp_path)
    namespace = {"BASE": asgi_server.url, **config, "print": lambda *a, **k: None}
    for number, block in enumerate(python_blocks()[1:], start=1):
        exec(compile(block, f"{GUIDE.name} block {number}", "exec"), namespace)  # noqa: S102

    undocumented = [(m, p) for m, p, _ in calls if not LIVE_PATH.match(p) and not documented(operations, m, p)]
    assert undocumented == []
    called = {(m, p) for m, p, _ in calls}
    assert ("GET", f"/live/games/{live_game.pk}/stream/") in called
    assert ("POST", "/api/v1/protests/") in called and ("POST", "/api/v1/passports/") in called
    # What the blocks left behind: each step's answer, as the script holds it.
    assert namespace["kinds"][0] == "snapshot" and namespace["kinds"][-1] == "delta"
    assert namespace["protest"].json()["status"] == "filed"
    assert [c["eligible"] for c in namespace["eligibility"]["championships"]] == [True]
    assert (tmp_path / "report.pdf").read_bytes().startswith(b"%PDF-")
