"""The README's promises about the repository's own files: the two commands, the targets, the dependencies, CI."""

import ast
import os
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
MAKEFILE = (ROOT / "Makefile").read_text()


def _section(title):
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, flags=re.M | re.S)
    assert match, f"README.md has no section '## {title}'"
    return match.group(1)


def _make_targets():
    return set(re.findall(r"^([a-z][a-z-]*):", MAKEFILE, flags=re.M))


def test_the_readme_opens_with_exactly_two_commands_run_and_test():
    first_block = re.search(r"```sh\n(.*?)```", README, flags=re.S).group(1)
    commands = [line.split("#")[0].strip() for line in first_block.splitlines() if line.split("#")[0].strip()]
    assert commands == ["make run", "make test"]
    # "At the top": before the tour and everything else.
    assert README.index("```sh") < README.index("## Tour")


def test_every_make_target_the_readme_names_exists():
    named = set(re.findall(r"`make ([a-z-]+)", README))
    assert {"run", "test", "lint", "format", "migrate", "demo", "worker", "beat", "bench"} <= named
    assert named <= _make_targets()


def test_every_pinned_package_is_explained_in_the_readme():
    dependencies = _section("Dependencies").lower()
    for name in ("requirements.txt", "requirements-dev.txt"):
        for line in (ROOT / name).read_text().splitlines():
            line = line.split("#")[0].strip()
            if not line or line.startswith("-r"):
                continue
            package = re.split(r"[=<>\[ ]", line, maxsplit=1)[0].lower()
            assert f"| {package}" in dependencies or f", {package}" in dependencies, f"{package} ({name})"


def test_ci_runs_the_readmes_test_command():
    ci = ROOT / ".ci" / "run"
    assert os.access(ci, os.X_OK)
    lines = [line.strip() for line in ci.read_text().splitlines() if line.strip() and not line.startswith("#")]
    assert lines[0] == "set -euo pipefail"
    assert lines[-1] == "make test"
    assert ci.read_text().startswith("#!/usr/bin/env bash\n")


def test_the_default_test_run_leaves_benchmarks_out():
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert "-m 'not bench'" in pyproject
    assert "tests/bench -m bench" in MAKEFILE


# The pure cores (plain Python, no Django) that `make lint` type-checks with mypy in strict mode.
MYPY_PURE_CORES = {
    "games/engine",
    "federation/eligibility.py",
    "federation/equipment.py",
    "tournaments/standings.py",
    "tournaments/rosters.py",
    "tournaments/rinks.py",
    "tournaments/scheduling.py",
    "tournaments/statistics.py",
    "tournaments/ruleset.py",
    "tournaments/errors.py",
    "tournaments/roster_files.py",
    "common/text.py",
    "common/numbers.py",
    "common/api_compat.py",
    "webhooks/signing.py",
}


def _mypy_config():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]


def test_mypy_checks_every_pure_core_in_strict_mode():
    config = _mypy_config()
    assert config["strict"] is True
    assert set(config["files"]) == MYPY_PURE_CORES, "a pure core was dropped from (or added to) [tool.mypy] files"
    assert all((ROOT / path).exists() for path in config["files"])
    # The project's minimum Python (scripts/find-python, ruff's target-version py311).
    assert config["python_version"] == "3.11"
    # Imports outside the listed cores are read for their types only: mypy never reports on Django code.
    assert config["follow_imports"] == "silent"
    assert not any("ignore" in key for key in config), "no error is switched off for the whole run"


def test_the_pure_cores_mypy_checks_import_no_django():
    sources = [
        source
        for path in MYPY_PURE_CORES
        for source in ((ROOT / path).glob("*.py") if (ROOT / path).is_dir() else [ROOT / path])
    ]
    assert len(sources) > len(MYPY_PURE_CORES)
    for source in sources:
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                modules = [node.module or ""]
            else:
                continue
            roots = {module.split(".")[0] for module in modules}
            assert not roots & {"django", "rest_framework"}, f"{source.relative_to(ROOT)} imports {modules}"


def test_make_lint_runs_mypy_after_ruff_and_make_test_runs_lint():
    lint = re.search(r"^lint:.*\n((?:\t.*\n)+)", MAKEFILE, flags=re.M).group(1).splitlines()
    assert [line.strip() for line in lint] == [
        "$(PY) -m ruff check .",
        "$(PY) -m ruff format --check .",
        "$(PY) -m mypy",
        "@# No secret in the tracked files (detect-secrets), no known vulnerability in the pins (pip-audit).",
        "$(PY) scripts/audit",
    ]
    test = re.search(r"^test:.*\n((?:\t.*\n)+)", MAKEFILE, flags=re.M).group(1)
    assert "$(MAKE) --no-print-directory lint" in test
    assert "mypy" in README[README.index("| `make lint` |") :].splitlines()[0]


@pytest.mark.django_db
def test_the_migrations_make_the_schema_of_the_models(settings):
    """The unit run on PostgreSQL makes its test databases from the models (`--nomigrations`, the Makefile), production
    from the migrations: they must agree (no model change without its migration). The migrations themselves run in
    the `-m sqlite` run, the browser and integration runs, and the tests that move along them (migrations_applied)."""
    import importlib

    from django.core.management import call_command

    assert "--nomigrations" in MAKEFILE.split("UNIT_TESTS :=", 1)[1].split("\n", 1)[0]
    settings.MIGRATION_MODULES = importlib.import_module(os.environ["DJANGO_SETTINGS_MODULE"]).MIGRATION_MODULES
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)  # exits 1 when a migration is missing
