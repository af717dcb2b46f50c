"""Every refusal of test_invalid_events.py is expressible as a game script, and one exists (issue 8).

The refusals are read from the test file itself (each ``refused(..., match)`` and ``pytest.raises(...,
match=...)``), so a refusal added there without a script fails here; nothing is listed by hand.
"""

import ast
import re
from functools import cache
from pathlib import Path

import pytest

from games.engine.scripts import load_script, run_script

HERE = Path(__file__).parent
INVALID_EVENTS = HERE / "test_invalid_events.py"
SCRIPTS = HERE / "scripts"


def _match_argument(call: ast.Call) -> ast.expr | None:
    """Return the expression a ``refused(entries, match)`` or ``pytest.raises(..., match=...)`` call matches."""
    func = call.func
    keyword = next((k.value for k in call.keywords if k.arg == "match"), None)
    if isinstance(func, ast.Name) and func.id == "refused":
        return keyword if keyword is not None else (call.args[1] if len(call.args) > 1 else None)
    if isinstance(func, ast.Attribute) and func.attr == "raises":
        return keyword
    return None


def asserted_refusals(source: str, helper: str = "refused") -> list[tuple[str, str]]:
    """Return (test name, pattern) of every refusal the tests of a module assert, in file order.

    A pattern that is not a literal string is refused (it could not be checked against the scripts),
    except inside the helper that forwards its ``match`` argument.
    """
    found = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.FunctionDef):
            continue
        for call in ast.walk(node):
            if not isinstance(call, ast.Call):
                continue
            argument = _match_argument(call)
            if argument is None:
                continue
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                found.append((node.name, argument.value))
            elif node.name != helper:
                raise AssertionError(f"{node.name}: line {call.lineno} matches a pattern that is not a literal")
    return found


@cache
def refusal_messages() -> tuple[tuple[str, str], ...]:
    """Return (file name, error) of every script that expects a refusal and gets it."""
    out = []
    for path in sorted(SCRIPTS.glob("*.json")):
        script = load_script(path)
        if script.expect_error is None:
            continue
        outcome = run_script(script)
        assert outcome.ok, (path.name, outcome.mismatches)
        out.append((path.name, outcome.error.message))
    return tuple(out)


REFUSALS = asserted_refusals(INVALID_EVENTS.read_text(encoding="utf-8"))


def test_the_refusals_are_read_from_the_test_file():
    tests = {name for name, _ in REFUSALS}
    assert len(tests) >= 40, tests  # the file asserts about 45 refusals; a broken reader finds none
    assert ("test_it_refuses_a_second_assist", r"5\.5\.11 C / R-32") in REFUSALS


@pytest.mark.parametrize("test, pattern", REFUSALS, ids=[f"{name}-{pattern}" for name, pattern in REFUSALS])
def test_every_asserted_refusal_has_a_script_expecting_it(test, pattern):
    """A script with ``expect_error`` passes, and its refusal's message is the one the test asserts."""
    scripts = [name for name, message in refusal_messages() if re.search(pattern, message)]
    assert scripts, f"{test}: no script under tests/engine/scripts/ expects an error matching {pattern!r}"


def test_the_reader_finds_refused_and_raises_patterns_and_refuses_a_computed_one():
    source = (
        "import pytest\n"
        "def refused(entries, match):\n    with pytest.raises(ValueError, match=match):\n        pass\n"
        "def test_a():\n    refused([], r'1\\.2 A')\n    refused([], match='R-10')\n"
        "def test_b():\n    with pytest.raises(KeyError, match='R-20'):\n        pass\n"
        "def test_c():\n    pytest.raises(KeyError)\n"
    )
    assert asserted_refusals(source) == [("test_a", r"1\.2 A"), ("test_a", "R-10"), ("test_b", "R-20")]
    with pytest.raises(AssertionError, match="test_d: line 2 matches a pattern that is not a literal"):
        asserted_refusals("def test_d():\n    refused([], 'R-' + '10')\n")
