"""docs/api-guide.md runs (issue 29): its Python blocks, in order, against the portal on uvicorn, calling only what
the schema documents (the stream of section 8 aside: the schema describes request and answer, not pushes).

The first block (the script's configuration) is replaced by the world this test prepares; every other block runs
as written, with ``requests`` counting each call it makes."""

from __future__ import annotations

import ast
import datetime
import json
import re
import shlex
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


def sections() -> list[tuple[str, str, str]]:
    """Each section of the guide: its title, its shell commands, its Python code (empty when it has none)."""
    out = []
    for section in re.split(r"^## ", GUIDE.read_text(), flags=re.M)[1:]:
        shell = "".join(re.findall(r"```sh\n(.*?)```", section, flags=re.S))
        python = re.findall(r"```python\n(.*?)```", section, flags=re.S)
        assert len(python) <= 1, f"one Python block a section: {section.splitlines()[0]}"
        out.append((section.splitlines()[0], shell, python[0] if python else ""))
    return out


def shape(method: str, path: str, fields) -> tuple[str, str, frozenset[str]]:
    """A call as the guide's two languages can agree on it: the method, the path with its ids as ``{}``, the names
    of the body's fields."""
    return method.upper(), re.sub(r"(?<=/)\d+(?=/)", "{}", path), frozenset(fields)


def curl_calls(shell: str) -> set[tuple[str, str, frozenset[str]]]:
    """The calls of a section's ``curl`` commands: ``-X`` or the body's presence says the method, ``-d`` (JSON) and
    ``-F`` the fields."""
    calls, command = set(), ""
    for line in shell.replace("\\\n", " ").splitlines():
        command += line + "\n"
        try:
            args = shlex.split(command, comments=True)
        except ValueError:  # a quoted body that goes on on the next line
            continue
        command = ""
        if not args or args[0] != "curl":
            continue
        path = next(a for a in args if a.startswith("$BASE")).removeprefix("$BASE")
        fields = [a.split("=")[0] for f, a in zip(args, args[1:], strict=False) if f == "-F"]
        fields += [k for f, a in zip(args, args[1:], strict=False) if f == "-d" for k in json.loads(a)]
        method = args[args.index("-X") + 1] if "-X" in args else ("POST" if fields else "GET")
        calls.add(shape(method, path, fields))
    return calls


def schema_operations(schema: dict) -> list[tuple[str, re.Pattern]]:
    operations = []
    for path, item in schema["paths"].items():
        pattern = re.compile("^" + re.sub(r"\{[^}]+\}", r"[^/]+", path) + "$")
        operations += [(method.upper(), pattern) for method in item if method != "parameters"]
    return operations


def documented(operations, method: str, path: str) -> bool:
    return LIVE_PATH.match(path) is not None or any(m == method and p.match(path) for m, p in operations)


def test_the_guides_configuration_names_what_the_test_provides():
    config = ast.parse(sections()[0][2])
    names = {t.id for node in config.body for t in getattr(node, "targets", []) for t in getattr(t, "elts", [t])}
    assert names == {
        "BASE", "USERNAME", "PASSWORD", "MANAGER_USERNAME", "MANAGER_PASSWORD", "FEDERATION", "CHAMPIONSHIP",
        "SQUAD", "PROTEST_GAME", "LIVE_GAME", "REPORT_GAME", "PASSPORT_SCAN",
    }  # fmt: skip


@pytest.mark.django_db
def test_the_guides_curl_calls_are_in_the_schema(client):
    operations = schema_operations(client.get("/api/v1/schema/?format=json").json())
    calls = set().union(*(curl_calls(shell) for _, shell, _ in sections()))
    assert len(calls) >= 14
    paths = [(m, p.replace("{}", "1")) for m, p, _ in calls]
    assert [(m, p) for m, p in paths if not documented(operations, m, p)] == []


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
    """Each section's Python block runs in turn; what it calls is what the section's ``curl`` lines call."""
    config, live_game, director = world(tmp_path)
    operations = schema_operations(requests.get(f"{asgi_server.url}/api/v1/schema/?format=json", timeout=30).json())
    table = Session(director)
    calls: list[tuple[str, str, frozenset[str]]] = []
    request = requests.Session.request

    def recorded(self, method, url, *args, **kwargs):
        response = request(self, method, url, *args, **kwargs)
        path = url.removeprefix(asgi_server.url).split("?")[0]
        assert documented(operations, method.upper(), path), f"{method} {path} is not in the schema"
        fields = [*(kwargs.get("json") or {}), *(kwargs.get("data") or {}), *(kwargs.get("files") or {})]
        calls.append(shape(method, path, fields))
        if LIVE_PATH.match(path):
            # The stream answered: the viewer listens. The officials' table records an entry.
            entry = sheet_entry("period_start", period=1)
            threading.Thread(target=asgi_server.post, args=(live_game, [entry], table)).start()
        return response

    monkeypatch.setattr(requests.Session, "request", recorded)
    monkeypatch.chdir(tmp_path)
    namespace = {"BASE": asgi_server.url, **config, "print": lambda *a, **k: None}
    for title, shell, python in sections()[1:]:
        calls.clear()
        exec(compile(python, f"{GUIDE.name}, {title}", "exec"), namespace)  # noqa: S102
        assert set(calls) == curl_calls(shell), title

    # What the blocks left behind: each step's answer, as the script holds it.
    assert namespace["kinds"][0] == "snapshot" and namespace["kinds"][-1] == "delta"
    assert namespace["protest"].json()["status"] == "filed"
    assert [c["eligible"] for c in namespace["eligibility"]["championships"]] == [True]
    assert namespace["confirmed"].json()["id"] == namespace["entry_id"]
    assert (tmp_path / "report.pdf").read_bytes().startswith(b"%PDF-")
