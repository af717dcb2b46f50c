"""The pure cores of the tournaments app import no Django (architecture: pure cores, thin shells)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tournaments

PURE_CORES = ("errors", "rinks", "roster_files", "rosters", "ruleset", "scheduling", "standings", "statistics")


@pytest.mark.parametrize("name", PURE_CORES)
def test_the_pure_core_imports_no_django(name):
    source = Path(tournaments.__file__).with_name(f"{name}.py").read_text()
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            imported.add(node.module)
    assert not {module for module in imported if module.split(".")[0] in ("django", "rest_framework", "djmoney")}


@pytest.mark.parametrize("name", ["rinks", "ruleset", "scheduling", "standings", "statistics"])
def test_each_cores_error_names_the_field(name):
    module = __import__(f"tournaments.{name}", fromlist=["*"])
    (error_class,) = [
        value
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, ValueError) and value.__module__ == module.__name__
    ]
    error = error_class("length_m", "a measurement in metres is above 0")
    assert (error.field, error.message) == ("length_m", "a measurement in metres is above 0")
    assert str(error) == "length_m: a measurement in metres is above 0"
