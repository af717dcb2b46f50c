"""The engine is a pure library: no Django, no wall clock (architecture.md, 'Pure cores')."""

import ast
import subprocess
import sys
from pathlib import Path

import games.engine

ENGINE = Path(games.engine.__file__).parent
REPO = ENGINE.parent.parent
SOURCES = sorted(ENGINE.glob("*.py"))
FORBIDDEN_CALLS = {
    ("datetime", "now"),
    ("datetime", "today"),
    ("date", "today"),
    ("time", "time"),
    ("time", "monotonic"),
}


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_no_engine_module_imports_django():
    offenders = {p.name: sorted(n for n in _imports(p) if n.split(".")[0] == "django") for p in SOURCES}
    assert {name: names for name, names in offenders.items() if names} == {}


def test_no_engine_module_reads_the_wall_clock():
    offenders = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            attribute = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            if attribute and (node.value.id, node.attr) in FORBIDDEN_CALLS:
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []


def test_importing_the_engine_loads_no_django():
    code = (
        "import sys, games.engine, games.engine.scripts, games.engine.__main__; "
        "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_python_dash_m_runs_a_script_without_django(tmp_path):
    script = Path(__file__).parent / "scripts" / "6.2.1-B_power_play_goal_ends_minor.json"
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "games.engine", str(script)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert '"score"' in result.stdout
    assert "django" not in result.stderr  # -X importtime lists every imported module on stderr
