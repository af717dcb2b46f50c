"""The tournaments app's layers: selectors read, services write, and neither imports the other in a circle."""

from __future__ import annotations

import ast
import pathlib

import pytest

import tournaments.services as services

APP = pathlib.Path(__file__).resolve().parents[2] / "tournaments"
SERVICE_MODULES = ["championships", "entries", "rosters", "schedule", "results", "venues"]


def imported_modules(path: pathlib.Path) -> set[str]:
    """Every module ``path`` imports, at the top or inside a function, as an absolute dotted name."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = "tournaments" if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize("module", ["selectors.py", "facts.py"])
def test_readers_never_import_the_services(module):
    imports = imported_modules(APP / module)
    assert not any(name == "tournaments.services" or name.startswith("tournaments.services.") for name in imports)


def test_the_services_are_one_module_per_concept():
    files = sorted(p.stem for p in (APP / "services").glob("*.py") if p.stem != "__init__")
    assert files == sorted(SERVICE_MODULES)
    assert not (APP / "services.py").exists()


@pytest.mark.parametrize("module", SERVICE_MODULES)
def test_every_public_name_stays_importable_from_tournaments_services(module):
    concept = getattr(services, module)
    public = [
        name
        for name, value in vars(concept).items()
        if not name.startswith("_") and getattr(value, "__module__", None) == concept.__name__
    ]
    assert public, module
    for name in public:
        assert getattr(services, name) is getattr(concept, name), name
        assert name in services.__all__, name
