"""docs/game-scripts.md lists every Annex C infraction code with its article, as the index gives it now."""

from io import StringIO
from pathlib import Path

import pytest

from games.engine.infraction_table import END, START, documented_table, main, markdown_table, with_table
from games.engine.penalty_index import INFRACTIONS

DOC = Path(__file__).resolve().parents[2] / "docs" / "game-scripts.md"


def test_the_documents_table_is_the_one_the_penalty_index_gives_now():
    assert documented_table(DOC.read_text(encoding="utf-8")) == markdown_table(), (
        "docs/game-scripts.md is out of date: run python -m games.engine.infraction_table docs/game-scripts.md"
    )


def test_the_table_has_one_row_per_index_line_with_its_code_and_article():
    rows = markdown_table().splitlines()[2:]
    assert len(rows) == len(INFRACTIONS) == 83
    for row, line in zip(rows, INFRACTIONS.values(), strict=True):
        cells = [cell.strip() for cell in row.strip("|").split(" | ")]
        assert cells[:3] == [f"`{line.code}`", line.article, line.name]
    assert "| `slashing` | 6.4.30 A | Slashing | `2'` | yes |" in rows
    assert "| `leaving_bench_altercation` | 6.4.27 F |" in "\n".join(rows)
    assert "| `interference_by_spectators` | 6.4.25 | Interference by Spectators | none |  |" in rows


def test_with_table_replaces_only_what_lies_between_the_markers():
    stale = f"# Doc\n\nBefore.\n\n{START}\n| old | table |\n{END}\n\nAfter.\n"
    fresh = with_table(stale)
    assert fresh == f"# Doc\n\nBefore.\n\n{START}\n{markdown_table()}\n{END}\n\nAfter.\n"
    assert with_table(fresh) == fresh


@pytest.mark.parametrize("text", ["no markers", f"{START}\n{START}\n{END}\n", f"{END}\n{START}\n"])
def test_a_document_without_its_markers_once_and_in_order_is_refused(text):
    with pytest.raises(ValueError, match="infraction-codes"):
        with_table(text)


def test_the_command_checks_and_rewrites_a_stale_table(tmp_path):
    doc = tmp_path / "game-scripts.md"
    doc.write_text(f"Intro\n{START}\n| stale |\n{END}\n", encoding="utf-8")
    err = StringIO()
    assert main(["--check", str(doc)], stderr=err) == 1
    assert "out of date" in err.getvalue()
    assert "| stale |" in doc.read_text(encoding="utf-8")  # --check writes nothing
    assert main([str(doc)], stderr=StringIO()) == 0
    assert documented_table(doc.read_text(encoding="utf-8")) == markdown_table()
    assert main(["--check", str(doc)], stderr=StringIO()) == 0


def test_the_command_reports_a_missing_file_or_marker_and_needs_a_file(tmp_path):
    unmarked = tmp_path / "plain.md"
    unmarked.write_text("no table here\n", encoding="utf-8")
    err = StringIO()
    assert main([str(unmarked), str(tmp_path / "missing.md")], stderr=err) == 1
    assert "plain.md: the document needs the marker lines" in err.getvalue()
    assert "missing.md" in err.getvalue()
    assert main([], stderr=StringIO()) == 2
