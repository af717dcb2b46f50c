"""docs/rules-coverage.md stays true: one row per clause, and every name it gives exists.

Database-free: the named functions are imported (Django is configured by pytest-django)
and the named tests are found by parsing their files.
"""

import ast
import importlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from tests.rulebook import BODY_NUMBER, parse_clauses, parse_contents, read_text, rulebook_clauses

ROOT = Path(__file__).resolve().parent.parent
COVERAGE = ROOT / "docs" / "rules-coverage.md"
HEADER = ("Article", "Subject", "Status", "Enforced by", "Test")
STATUS = re.compile(r"enforced|recorded|not enforced|issue #\d+|later issue")


@dataclass(frozen=True)
class Row:
    line: int
    article: str
    subject: str
    status: str
    enforced_by: tuple[str, ...]
    tests: tuple[str, ...]


def _cells(line: str) -> list[str]:
    inner = line.strip()[1:-1]
    return [cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", inner)]


def _names(cell: str) -> tuple[str, ...]:
    return tuple(name.strip().strip("`") for name in cell.split("<br>") if name.strip().strip("`"))


def parse_table(text: str) -> list[Row]:
    """Return the rows of the one table whose header is Article | Subject | Status | Enforced by | Test."""
    lines = text.splitlines()
    start = next(
        (index for index, line in enumerate(lines) if line.startswith("|") and tuple(_cells(line)) == HEADER), None
    )
    if start is None:
        raise AssertionError(f"no table with the columns {' | '.join(HEADER)}")
    rows = []
    for number, line in enumerate(lines[start + 2 :], start=start + 3):
        if not line.startswith("|"):
            break
        cells = _cells(line)
        assert len(cells) == len(HEADER), f"line {number}: {len(cells)} cells instead of {len(HEADER)}"
        article, subject, status, enforced_by, tests = cells
        rows.append(Row(number, article, subject, status, _names(enforced_by), _names(tests)))
    return rows


@cache
def coverage_rows() -> tuple[Row, ...]:
    return tuple(parse_table(COVERAGE.read_text(encoding="utf-8")))


def resolve(dotted: str) -> object:
    """Import the longest importable module prefix of a dotted path, then get the rest as attributes."""
    parts = dotted.split(".")
    for split in range(len(parts), 0, -1):
        module_name = ".".join(parts[:split])
        try:
            target = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            # Only "this module does not exist" moves on to a shorter prefix; a broken import is an error.
            if error.name is not None and module_name.startswith(error.name):
                continue
            raise
        for attribute in parts[split:]:
            if not hasattr(target, attribute):
                raise LookupError(
                    f"{dotted}: {'.'.join(parts[:split])} has no attribute path {'.'.join(parts[split:])}"
                )
            target = getattr(target, attribute)
        return target
    raise LookupError(f"{dotted}: no importable module")


# Tests whose parameter ids are file names: the id must name a file of this folder.
FILE_PARAMETRIZED = {("tests/engine/test_scripts.py", "test_script_meets_its_expectations"): "tests/engine/scripts"}


def _is_parametrized(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
    """Return True if the node carries a ``@pytest.mark.parametrize(...)`` decorator."""
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute) and target.attr == "parametrize":
            return True
    return False


def find_test(reference: str) -> None:
    """Fail with LookupError unless `tests/path/test_x.py::[Class::]test_name[param]` names a defined test.

    A parameter id (`name[param]`) needs a parametrized test; for the tests of FILE_PARAMETRIZED,
    whose ids are file names (the game scripts), the file must exist too.
    """
    path, _, qualified = reference.partition("::")
    file = ROOT / path
    if not path.startswith("tests/") or not file.is_file():
        raise LookupError(f"{reference}: no test file {path}")
    parts = qualified.split("::")
    if not qualified or not 1 <= len(parts) <= 2:
        raise LookupError(f"{reference}: expected file.py::test_name or file.py::Class::test_name")
    match = re.fullmatch(r"([^\[\]]+)(?:\[(.+)\])?", parts[-1])
    if match is None or any("[" in part for part in parts[:-1]):
        raise LookupError(f"{reference}: a parameter id is written once, after the test name: test_name[id]")
    names = [*parts[:-1], match.group(1)]
    param = match.group(2)
    scope: list[ast.stmt] = ast.parse(file.read_text(encoding="utf-8")).body
    found: list[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef] = []
    for position, name in enumerate(names):
        kinds = (ast.FunctionDef, ast.AsyncFunctionDef) if position == len(names) - 1 else (ast.ClassDef,)
        node = next((node for node in scope if isinstance(node, kinds) and node.name == name), None)
        if node is None:
            raise LookupError(f"{reference}: {name} is not defined in {path}")
        found.append(node)
        scope = node.body if isinstance(node, ast.ClassDef) else []
    if not names[-1].startswith("test"):
        raise LookupError(f"{reference}: {names[-1]} is not a test")
    if param is None:
        return
    if not any(_is_parametrized(node) for node in found):
        raise LookupError(f"{reference}: {names[-1]} is not parametrized, so it has no id [{param}]")
    folder = FILE_PARAMETRIZED.get((path, names[-1]))
    if folder is not None and ("/" in param or not (ROOT / folder / param).is_file()):
        raise LookupError(f"{reference}: no file {folder}/{param}")


# Game scripts are named after the clause they play: `6.2.2-B_...json`, `6.2.3_...json` (an article
# whose clause the file name does not letter) or `R-30_...json` (a decision, which has no row).
SCRIPT_TEST = "tests/engine/test_scripts.py::test_script_meets_its_expectations"
_SCRIPT_PREFIX = re.compile(r"(\d+(?:\.\d+)+)(?:-([A-Z]))?_")
_CONTENTS_NUMBER = {body: contents for contents, body in BODY_NUMBER.items()}


def script_prefix(name: str) -> tuple[str, str, str | None] | None:
    """Return (file-name prefix, article, letter) of a game script, or None for a script named after an R-nn."""
    match = _SCRIPT_PREFIX.match(name)
    if match is None:
        return None
    number = match.group(1)
    # Scripts citing the body's 9.3 belong to the row of the contents' 10.1.
    return match.group(0)[:-1], _CONTENTS_NUMBER.get(number, number), match.group(2)


def unlisted_script_articles(script_names, rows) -> list[str]:
    """Return the script prefixes whose row names none of the scripts with that prefix.

    A lettered prefix (`6.2.2-B`) belongs to its clause's row; an unlettered one (`6.2.3`) to the
    article's row or to any of its clauses' rows.
    """
    problems = []
    for prefix, article, letter in sorted({p for p in map(script_prefix, script_names) if p is not None}):
        if letter is not None:
            candidates = [row for row in rows if row.article == f"{article} {letter}"]
        else:
            candidates = [row for row in rows if row.article == article or row.article.startswith(f"{article} ")]
        if not candidates:
            problems.append(f"{prefix}: no row {article}{' ' + letter if letter else ''}")
            continue
        named = f"{SCRIPT_TEST}[{prefix}_"
        if not any(test.startswith(named) for row in candidates for test in row.tests):
            problems.append(f"{prefix}: {', '.join(row.article for row in candidates)} names none of its scripts")
    return problems


# The checks on the table.


def test_the_table_has_one_row_per_article_and_clause_of_the_rulebook():
    expected = [clause.ref for clause in rulebook_clauses()]
    found = [row.article for row in coverage_rows()]
    missing = [ref for ref in expected if ref not in found]
    unknown = [ref for ref in found if ref not in expected]
    repeated = sorted({ref for ref in found if found.count(ref) > 1})
    assert not missing, f"rows missing from docs/rules-coverage.md: {missing}"
    assert not unknown, f"rows that are no article or clause of the rulebook: {unknown}"
    assert not repeated, f"rows repeated: {repeated}"
    assert found == expected, "rows are not in rulebook order"


def test_every_row_has_a_known_status():
    bad = [(row.line, row.article, row.status) for row in coverage_rows() if not STATUS.fullmatch(row.status)]
    assert not bad, f"unknown status (enforced, recorded, not enforced, issue #N, later issue): {bad}"


def test_every_enforced_row_names_a_function_and_a_test():
    bad = [row.article for row in coverage_rows() if row.status == "enforced" and not (row.enforced_by and row.tests)]
    assert not bad, f"enforced rows without a function or a test: {bad}"


def test_every_named_function_exists():
    errors = []
    for row in coverage_rows():
        for dotted in row.enforced_by:
            try:
                resolve(dotted)
            except (LookupError, ImportError) as error:
                errors.append(f"{row.article}: {error}")
    assert not errors, "\n".join(errors)


def test_every_named_test_exists():
    errors = []
    for row in coverage_rows():
        for reference in row.tests:
            try:
                find_test(reference)
            except LookupError as error:
                errors.append(f"{row.article}: {error}")
    assert not errors, "\n".join(errors)


def test_every_clause_a_game_script_plays_names_one_of_its_scripts():
    names = sorted(path.name for path in (ROOT / "tests" / "engine" / "scripts").glob("*.json"))
    problems = unlisted_script_articles(names, coverage_rows())
    assert not problems, "game scripts whose row names none of them:\n" + "\n".join(problems)


# The checker's own parts, so a broken checker cannot pass everything.


def test_resolve_finds_functions_classes_and_methods():
    assert resolve("games.engine.penalty_index.get_infraction").__name__ == "get_infraction"
    assert resolve("games.engine.penalty_index.Infraction.__post_init__")
    assert resolve("tests.rulebook.Clause.ref")


@pytest.mark.parametrize(
    "dotted",
    [
        "games.engine.penalty_index.no_such_function",
        "games.engine.no_such_module.function",
        "no_such_package.function",
        "games.engine.penalty_index.Infraction.no_such_method",
    ],
)
def test_resolve_rejects_a_name_that_does_not_exist(dotted):
    with pytest.raises(LookupError):
        resolve(dotted)


def test_find_test_accepts_functions_class_methods_and_parametrized_ids():
    find_test("tests/engine/test_penalty_index.py::test_it_holds_every_line_of_annex_c")
    find_test("tests/engine/test_penalty_index.py::test_it_reads_the_lines_the_extraction_scrambled[slashing-6.4.30 A]")
    find_test("tests/engine/test_replay.py::TestAutomaticPenalties::test_a_double_minor_is_one_call")


def test_find_test_accepts_a_game_script_that_exists():
    script = sorted((ROOT / "tests" / "engine" / "scripts").glob("*.json"))[0].name
    find_test(f"tests/engine/test_scripts.py::test_script_meets_its_expectations[{script}]")


@pytest.mark.parametrize(
    "param",
    ["no_such_script.json", "../test_scripts.py", "6.2.2-B_three_in_box_expiry_waits_for_stoppage"],
)
def test_find_test_rejects_a_game_script_that_does_not_exist(param):
    with pytest.raises(LookupError, match="no file tests/engine/scripts/"):
        find_test(f"tests/engine/test_scripts.py::test_script_meets_its_expectations[{param}]")


def test_find_test_rejects_a_parameter_id_on_a_test_that_is_not_parametrized(tmp_path, monkeypatch):
    folder = tmp_path / "tests"
    folder.mkdir()
    (folder / "test_sample.py").write_text(
        "import pytest\n\n\n@pytest.mark.parametrize('n', [1, 2])\ndef test_with_ids(n):\n    assert n\n\n\n"
        "def test_without_ids():\n    assert True\n\n\n"
        "@pytest.mark.parametrize('n', [1])\nclass TestSample:\n    def test_it_works(self, n):\n        assert n\n"
    )
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    find_test("tests/test_sample.py::test_with_ids[1]")
    find_test("tests/test_sample.py::TestSample::test_it_works[1]")
    with pytest.raises(LookupError, match="not parametrized"):
        find_test("tests/test_sample.py::test_without_ids[1]")
    with pytest.raises(LookupError, match="written once"):
        find_test("tests/test_sample.py::TestSample[1]::test_it_works")


def test_find_test_accepts_a_method_of_a_test_class(tmp_path, monkeypatch):
    folder = tmp_path / "tests"
    folder.mkdir()
    (folder / "test_sample.py").write_text("class TestSample:\n    def test_it_works(self):\n        assert True\n")
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    find_test("tests/test_sample.py::TestSample::test_it_works")
    with pytest.raises(LookupError, match="test_other is not defined"):
        find_test("tests/test_sample.py::TestSample::test_other")
    with pytest.raises(LookupError, match="test_it_works is not defined"):
        find_test("tests/test_sample.py::test_it_works")


@pytest.mark.parametrize(
    "reference",
    [
        "tests/engine/test_no_such_file.py::test_x",
        "tests/engine/test_penalty_index.py::test_no_such_test",
        "tests/engine/test_penalty_index.py",
        "tests/engine/test_penalty_index.py::_annex",
        "tests/engine/test_penalty_index.py::NoClass::test_x",
        "docs/rules-coverage.md::test_x",
    ],
)
def test_find_test_rejects_a_test_that_does_not_exist(reference):
    with pytest.raises(LookupError):
        find_test(reference)


def test_parse_table_reads_cells_and_several_names():
    text = (
        "Intro\n\n| Article | Subject | Status | Enforced by | Test |\n| --- | --- | --- | --- | --- |\n"
        "| 1.1 A | Entry \\| fee | enforced | `a.b`<br>c.d | tests/x.py::test_y |\n\nAfter the table.\n"
    )
    (row,) = parse_table(text)
    assert (row.article, row.subject, row.status) == ("1.1 A", "Entry | fee", "enforced")
    assert row.enforced_by == ("a.b", "c.d")
    assert row.tests == ("tests/x.py::test_y",)


def test_the_rulebook_parser_finds_every_article_and_clause():
    clauses = parse_clauses(read_text())
    refs = [clause.ref for clause in clauses]
    assert refs[:7] == ["1.1 A", "1.1 B", "1.1 C", "1.1 D", "1.1 E", "1.1 F", "1.1 G"]
    assert refs[-4:] == ["10.1 G", "Annex A", "Annex B", "Annex C"]
    # Articles without lettered clauses have one row; stacked headings keep their own text.
    assert {"3.2.7", "6.1.1", "7.1"} <= set(refs)
    assert "3.2.7 A" not in refs
    texts = {clause.ref: clause.text for clause in clauses}
    assert texts["2.6 A"].startswith("Each rink should have seats or a bench")
    assert texts["2.7 A"].startswith("Each rink will have seats or benches")
    assert texts["4.2 P"].startswith("Referees are required to report")
    # The longest runs of clauses: 4.2 A-P, 5.5.11 A-L, 6.4.9 A-L.
    assert [ref for ref in refs if ref.startswith("4.2 ")][-1] == "4.2 P"
    assert [ref for ref in refs if ref.startswith("6.4.9 ")][-1] == "6.4.9 L"
    assert len(refs) == len(set(refs)) == 366


def test_the_contents_list_every_article_once():
    numbers = [number for number, _ in parse_contents(read_text())]
    assert len(numbers) == len(set(numbers))
    assert numbers[:4] == ["1", "1.1", "1.2", "1.3"]
    assert numbers[-2:] == ["10", "10.1"]


def _row(article: str, *tests: str) -> Row:
    return Row(0, article, "", "enforced", ("a.b",), tests)


def test_script_prefix_reads_the_clause_and_maps_the_body_number_9_3_to_10_1():
    assert script_prefix("6.2.2-B_three_in_box.json") == ("6.2.2-B", "6.2.2", "B")
    assert script_prefix("6.2.3_coincidental_minors_alone.json") == ("6.2.3", "6.2.3", None)
    assert script_prefix("9.3-G_shootout.json") == ("9.3-G", "10.1", "G")
    assert script_prefix("R-30_designated_server.json") is None


def test_unlisted_script_articles_wants_one_script_of_each_prefix_in_its_row():
    rows = [
        _row("6.2.2 B", f"{SCRIPT_TEST}[6.2.2-B_one.json]"),
        _row("6.2.3 A", f"{SCRIPT_TEST}[6.2.3_alone.json]"),
        _row("6.2.3 C"),
        _row("5.5.11 E", "tests/engine/test_replay.py::test_x"),
    ]
    listed = ["6.2.2-B_one.json", "6.2.2-B_two.json", "6.2.3_alone.json", "R-30_x.json"]
    assert unlisted_script_articles(listed, rows) == []
    problems = unlisted_script_articles(
        [*listed, "6.2.3-C_on_top.json", "5.5.11-E_deflected.json", "7.7-A_x.json"], rows
    )
    assert problems == [
        "5.5.11-E: 5.5.11 E names none of its scripts",
        "6.2.3-C: 6.2.3 C names none of its scripts",
        "7.7-A: no row 7.7 A",
    ]
