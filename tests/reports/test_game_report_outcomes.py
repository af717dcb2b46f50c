"""The game report says, in the reader's language, what the penalty situations the rulebook leaves open made of a
goal or a penalty: the washed-out half of a signalled double minor (R-58), the awarded goal without assist (R-69),
the penalty assessed at the buzzer (R-70). The words are games.labels.OUTCOMES, the live scoreboard's too."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from reports.game_report import game_report_data
from tests.games.sheet_helpers import entry

from .helpers import report_log, signed_sheet_game

pytestmark = pytest.mark.django_db


def outcomes_log() -> list[dict]:
    """Home 2-0: a goal washes out the first half of away's signalled double minor (R-58), an awarded goal on an
    empty net (6.4.35, R-69), a minor signalled as period 1 runs out, assessed at its buzzer (R-70)."""
    return [
        entry("period_start", period=1),
        entry(
            "penalty",
            period=1,
            time="1:00",
            team="away",
            player=13,
            penalty="double_minor",
            infraction="spearing_butt_ending_attempted",
            delayed=True,
        ),  # fmt: skip
        entry("goal", period=1, time="1:10", team="home", player=10),
        entry("clock_start", period=1, time="1:10"),
        entry("clock_stop", period=1, time="5:30"),
        entry("goalkeeper_pulled", period=1, time="5:30", team="away"),
        entry("clock_start", period=1, time="5:30"),
        entry("goal", period=1, time="6:00", team="home", player=9, awarded=True),
        entry("clock_start", period=1, time="6:00"),
        entry(
            "penalty",
            period=1,
            time="19:50",
            team="away",
            player=14,
            penalty="minor",
            infraction="tripping",
            delayed=True,
        ),  # fmt: skip
        entry("period_end", period=1, time="20:00"),
        entry("period_start", period=2),
        entry("period_end", period=2, time="20:00"),
    ]


def _html(data: dict, language: str) -> str:
    with translation.override(language):
        return render_to_string("reports/game_report.html", {**data, "version": "0" * 64, "stylesheet": ""})


def test_the_report_says_the_washed_out_half_the_awarded_goal_and_the_penalty_at_the_buzzer(director):
    game, _ = signed_sheet_game(director, log=outcomes_log())
    data = game_report_data(game)
    awarded = [g for g in data["goals"] if g.get("outcomes")]
    assert [(g["time"], g["outcomes"], g["assist"]) for g in awarded] == [("6:00", ["awarded"], "")]
    marked = {(p["time"], p["kind"]): p["outcomes"] for p in data["penalties"] if p.get("outcomes")}
    assert marked == {("1:10", "Double minor"): ["washed_out_half"], ("20:00", "Minor"): ["at_buzzer"]}

    english = _html(data, "en")
    assert "awarded goal, no assist (R-69)" in english
    assert "first half washed out by a goal, second half served (R-58)" in english
    assert "assessed at the buzzer that ended the period (R-70)" in english
    french = _html(data, "fr")
    assert "but accordé, sans assistance (R-69)" in french
    assert "première moitié annulée par un but, seconde moitié purgée (R-58)" in french
    assert "infligée à la sirène de fin de période (R-70)" in french
    spanish = _html(data, "es")
    assert "gol concedido, sin asistencia (R-69)" in spanish
    assert "primera mitad anulada por un gol, segunda mitad cumplida (R-58)" in spanish
    assert "impuesta con la bocina de fin de periodo (R-70)" in spanish


def test_a_report_without_such_outcomes_keeps_its_data_as_before(director):
    """No outcome, no key: the data (and so the version) of the reports already stored do not change."""
    game, _ = signed_sheet_game(director, log=report_log())
    data = game_report_data(game)
    assert not any("outcomes" in row for row in data["goals"] + data["penalties"])
    assert "(R-69)" not in _html(data, "en") and "(R-58)" not in _html(data, "en")
