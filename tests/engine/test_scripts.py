"""The conformance suite: every game script under tests/engine/scripts/ replays and meets its expectations."""

import json
from pathlib import Path

import pytest

from games.engine.scripts import run_file

SCRIPTS = Path(__file__).parent / "scripts"
SCRIPT_FILES = sorted(SCRIPTS.glob("*.json"))


@pytest.mark.parametrize("path", SCRIPT_FILES, ids=[p.name for p in SCRIPT_FILES])
def test_script_meets_its_expectations(path):
    outcome = run_file(path)
    assert outcome.mismatches == []


@pytest.mark.parametrize("path", SCRIPT_FILES, ids=[p.name for p in SCRIPT_FILES])
def test_script_is_named_after_and_cites_its_rule(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    rule = data["rule"]
    assert path.name.startswith(rule.replace(" ", "-").replace(",", "").split("/")[0].strip("-"))
    assert rule.split(",")[0].split("/")[0].strip() in data["description"]
    assert data["expect"] or data.get("expect_error")


def test_the_suite_has_scripts():
    assert len(SCRIPT_FILES) >= 1
