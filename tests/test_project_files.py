"""The README's promises about the repository's own files: the two commands, the targets, the dependencies, CI."""

import os
import re
from pathlib import Path

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
