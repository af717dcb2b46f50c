"""``manage.py game_replay`` is a thin wrapper of ``python -m games.engine``."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

SCRIPT = Path(__file__).parent / "scripts" / "6.2.1-B_power_play_goal_ends_minor.json"


def test_it_prints_the_final_state_as_json():
    out = StringIO()
    call_command("game_replay", str(SCRIPT), stdout=out, stderr=StringIO())
    state = json.loads(out.getvalue())
    assert state["score"] == {"home": 0, "away": 1}


def test_it_fails_naming_each_mismatch(tmp_path):
    data = json.loads(SCRIPT.read_text())
    data["expect"] = [{"at": "end", "score": {"home": 5, "away": 1}}]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("game_replay", str(bad), stdout=StringIO(), stderr=err)
    assert "MISMATCH expect[0] at end: score.home: expected 5, got 0" in err.getvalue()
