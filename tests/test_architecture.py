"""The layers of docs/architecture.md hold: no upward import between layers, no cycle between modules.

The graph is built with ``ast`` from every .py file of the project's packages (migrations and tests left out):
every ``import`` and ``from ... import`` counts, at module level, inside functions and under ``TYPE_CHECKING``, and
so does ``import_string("dotted.path")`` with a literal path. The layer order is read from docs/architecture.md,
so the document and the code cannot drift apart. No cycle is allowed, not even one inside an app.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from accounts import roles
from federation.models import FederationLevel

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"


def _block(kind: str) -> list[list[str]]:
    match = re.search(rf"```{kind}\n(.*?)```", DOC.read_text(), re.S)
    assert match, f"docs/architecture.md has no ```{kind} block"
    return [line.split() for line in match.group(1).splitlines() if line.strip()]


def layers() -> list[tuple[str, list[str]]]:
    """The layers, top first: (name, module prefixes)."""
    return [(row[0], row[1:]) for row in _block("layers")]


def project_modules() -> dict[str, Path]:
    packages = {prefix.split(".")[0] for _, prefixes in layers() for prefix in prefixes}
    modules = {}
    for package in sorted(packages):
        for path in (ROOT / package).rglob("*.py"):
            rel = path.relative_to(ROOT)
            if "migrations" in rel.parts:
                continue
            name = ".".join(rel.with_suffix("").parts)
            modules[name.removesuffix(".__init__")] = path
    return modules


def _known(modules: dict[str, Path], name: str) -> str | None:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> dict[str, dict[str, int]]:
    """module -> {imported module: line of the first import}."""
    modules = project_modules()
    graph: dict[str, dict[str, int]] = {}
    for module, path in modules.items():
        package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        edges = graph.setdefault(module, {})
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package[: len(package) - (node.level - 1)]
                    base = ".".join([*parent, base] if base else parent)
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names
                ]
            elif (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None)) == "import_string"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                targets = [node.args[0].value]
            for target in targets:
                found = _known(modules, target)
                if found and found != module:
                    edges.setdefault(found, node.lineno)
    return graph


def layer_of(module: str) -> int:
    best, rank = -1, -1
    for index, (_, prefixes) in enumerate(layers()):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), index
    assert rank >= 0, f"{module} is in no layer of docs/architecture.md"
    return rank


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph.get(root, ())))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph.get(child, ()))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_every_module_is_in_a_layer():
    for module in project_modules():
        layer_of(module)


def test_no_upward_import():
    graph = import_graph()
    names = [name for name, _ in layers()]
    upward = [
        f"{module}:{line} -> {target} ({names[layer_of(module)]} imports {names[layer_of(target)]})"
        for module, edges in sorted(graph.items())
        for target, line in sorted(edges.items())
        if layer_of(target) < layer_of(module)
    ]
    assert not upward, "upward imports (docs/architecture.md):\n" + "\n".join(upward)


def test_no_cycle():
    graph = import_graph()
    found = [
        " | ".join(
            f"{module}:{line} -> {target}"
            for module in component
            for target, line in sorted(graph[module].items())
            if target in component
        )
        for component in sorted(cycles(graph))
    ]
    assert not found, "import cycles (docs/architecture.md):\n" + "\n".join(found)


def test_the_document_lists_no_cycle_to_allow():
    """The allowance is gone: docs/architecture.md has no ``cycles`` block for the test to read."""
    assert "```cycles" not in DOC.read_text()


def test_the_checker_sees_imports_inside_functions_and_type_checking(tmp_path):
    """The checker itself: a cycle made only of an in-function import and a TYPE_CHECKING import is found."""
    graph = {"a": {"b": 3}, "b": {"a": 7}, "c": {"a": 1}}
    assert cycles(graph) == [["a", "b"]]
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import x\ndef f():\n    from y import z\n"
    seen = {
        node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Import | ast.ImportFrom)
    }
    assert seen == {"typing", "x", "y"}


def test_accounts_names_the_international_levels_as_federation_does():
    assert {FederationLevel.INTERNATIONAL, FederationLevel.CONTINENTAL} == roles._INTERNATIONAL_LEVELS
