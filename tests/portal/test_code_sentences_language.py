"""Sentences made in code, said in the reader's language (issue 26): the engine's refusals, the duties of the
officials' table, the Annex C index's names, the documents' version lines and the roster sheet's words."""

from __future__ import annotations

import pytest
from django.utils.translation import override

from games.devices import DUTY_NAMES
from games.engine import InvalidEvent
from games.engine.penalty_index import INFRACTIONS
from games.labels import infraction_label
from portal.i18n import say
from reports.championship_documents import _progress
from reports.roster_sheet import roster_sheet_data
from tests.engine.helpers import ev, run
from tests.reports.test_roster_sheet import entry as entry  # the fixture


def test_the_engines_refusal_is_a_message_said_in_french_and_spanish():
    events = [
        ev("period_start", 1),
        ev("penalty", 1, "2:00", team="home", player=1, penalty="game_misconduct"),
        ev("goalkeeper_replaced", 1, "2:00", team="home", player=55),
    ]
    with pytest.raises(InvalidEvent) as info:
        run(events, "round_robin")
    message = info.value.message
    assert message == "Rule 5.1 B / R-07: 55 is not on the home line-up"  # the English, as the API and tests read it
    with override("fr"):
        assert say(message) == "Règle 5.1 B / R-07 : 55 n'est pas sur la composition de l'équipe à domicile"
    with override("es"):
        assert say(message) == "Regla 5.1 B / R-07: 55 no figura en la alineación del equipo local"


def test_the_duties_and_the_index_names_are_said_in_french():
    holding = INFRACTIONS["holding"]
    assert infraction_label("holding") == f"Holding ({holding.article})"
    with override("fr"):
        assert str(DUTY_NAMES["timekeeper"]) == "chronométreur du match (4.4)"
        assert infraction_label("holding") == f"Retenue ({holding.article})"
    with override("es"):
        assert infraction_label("holding") == f"Agarrar ({holding.article})"


def test_the_version_lines_are_said_in_french():
    assert _progress([1, 2, 9], 12, "standings") == "Standings after 3 of 12 games, last final game #9"
    with override("fr"):
        assert _progress([1, 2, 9], 12, "standings") == "Classement après 3 matchs sur 12, dernier match terminé : n° 9"
        assert _progress([], 1, "statistics") == "Statistiques avant tout match terminé (1 match à jouer)"
    with override("es"):
        assert _progress([1], 6, "statistics").startswith("Estadísticas tras 1 de 6 partidos")


@pytest.mark.django_db
def test_the_roster_sheets_words_are_said_in_french(entry):
    with override("fr"):
        data = roster_sheet_data(entry)
    assert {player["status"] for player in data["players"]} == {"Éligible"}
    assert [row["what"] for row in data["limits"]["rows"]] == [
        "Joueurs de champ",
        "Gardiens",
        "Capitaine",
        "Capitaines suppléants",
    ]
    assert data["limits"]["rows"][2]["wanted"] == "exactement 1"


def test_the_engines_time_out_problems_are_said_in_french():
    used = [ev("period_start", 1), ev("clock_stop", 1, "5:00"), ev("timeout", 1, "5:00", team="home")]
    refused = run(used).timeout_problem("home")
    assert refused == "Rule 1.2 B / 5.5.2 B / R-12: home already used its time-out of period 1"
    with override("fr"):
        assert (
            say(refused)
            == "Règle 1.2 B / 5.5.2 B / R-12 : l'équipe à domicile a déjà pris son temps mort de la période 1"
        )
    with override("es"):
        assert say(run([ev("period_start", 1)]).timeout_problem("home")) == (
            "R-71 / 5.5.2 A: no hay tiempo muerto antes del saque inicial del periodo 1"
        )
