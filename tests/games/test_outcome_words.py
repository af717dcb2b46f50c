"""The words of the outcomes of the penalty situations the rulebook leaves open (R-58, R-69, R-70): the codes
games.labels gives a goal or a penalty of the engine's state, and the translated words the live scoreboard reads
from its page (static/scoreboard.js says them after the goal or the penalty)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import labels
from games.engine import Ruleset
from tests.factories import international_staff
from tests.games.sheet_helpers import sheet_game

RULES = Ruleset.from_dict({})


def test_an_awarded_goal_is_said_without_assist_r69():
    assert labels.goal_outcomes({"awarded": True, "assist": None}) == ["awarded"]
    assert labels.goal_outcomes({"awarded": False}) == []
    with translation.override("fr"):
        assert str(labels.OUTCOMES["awarded"]) == "but accordé, sans assistance (R-69)"


def test_the_washed_out_half_r58_and_the_penalty_at_the_buzzer_r70():
    end = labels.period_end_time(1, RULES)
    assert labels.penalty_outcomes({"washed_out_half": True, "period": 1, "time": "1:10"}, RULES) == ["washed_out_half"]
    assert labels.penalty_outcomes({"washed_out_half": False, "period": 1, "time": end}, RULES) == ["at_buzzer"]
    # In overtime the buzzer sounds at the overtime's length (1.3 B); a regular period's end time is not it.
    overtime = RULES.periods + 1
    assert labels.penalty_outcomes({"period": overtime, "time": labels.period_end_time(overtime, RULES)}, RULES) == [
        "at_buzzer"
    ]
    if labels.period_end_time(overtime, RULES) != end:
        assert labels.penalty_outcomes({"period": overtime, "time": end}, RULES) == []
    assert labels.penalty_outcomes({"period": 1, "time": "19:59.9"}, RULES) == []
    with translation.override("es"):
        assert (
            str(labels.OUTCOMES["washed_out_half"]) == "primera mitad anulada por un gol, segunda mitad cumplida (R-58)"
        )
        assert str(labels.OUTCOMES["at_buzzer"]) == "impuesta con la bocina de fin de periodo (R-70)"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "assessed at the buzzer that ended the period (R-70)"),
        ("fr", "infligée à la sirène de fin de période (R-70)"),
        ("es", "impuesta con la bocina de fin de periodo (R-70)"),
    ],
)
def test_the_scoreboard_page_gives_its_script_the_outcomes_in_the_readers_language(language, words):
    game = sheet_game()
    director = international_staff()
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(director)
    response = client.get(reverse("games:game-live", args=[game.pk]))
    assert response.status_code == 200
    found = re.search(r'<script id="board-settings" type="application/json">(.*?)</script>', response.content.decode())
    settings = json.loads(found.group(1))
    assert settings["outcomes"]["at_buzzer"] == words
    assert set(settings["outcomes"]) == {"awarded", "washed_out_half", "at_buzzer"}
    assert settings["period_ends"]["regular"] == labels.period_end_time(1, RULES)
    assert settings["period_ends"]["periods"] == RULES.periods
