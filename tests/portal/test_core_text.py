"""The pure cores' sentences: English as written, said in the reader's language with their articles (issue 12)."""

import pickle

from django.utils import translation

from common.text import Text
from federation.eligibility import check_eligibility
from portal.i18n import say
from tournaments.standings import GameResult, compute_standings


def test_a_text_is_its_english_sentence_and_keeps_its_message():
    text = Text("9.3 B: %(teams)s are equal on %(points)s points", teams="A and B", points=4)
    assert text == "9.3 B: A and B are equal on 4 points"
    assert (text.msgid, dict(text.args)) == (
        "9.3 B: %(teams)s are equal on %(points)s points",
        {"teams": "A and B", "points": 4},
    )
    again = pickle.loads(pickle.dumps(text))
    assert again == text and again.msgid == text.msgid
    assert say("plain") == "plain"


def _circle():
    # A beats B, B beats C, C beats A: level on points and head to head; 9.3 D (goals allowed) decides.
    return compute_standings(
        ["A", "B", "C"],
        [
            GameResult(1, "A", "B", 1, 0),
            GameResult(2, "B", "C", 3, 0),
            GameResult(3, "A", "C", 0, 5),
        ],
    )


def test_a_tie_break_explanation_is_said_in_spanish_with_its_article():
    standings = _circle()
    first = standings.explanations[0]
    assert first.startswith("9.3 B: A, B and C are equal on 2 points")
    with translation.override("es"):
        assert say(first) == "9.3 B: A, B y C están empatados a 2 puntos"
        said = [say(line) for line in standings.explanations]
        decided = [say(row.decided_by) for row in standings.rows if row.decided_by]
    assert any(line.startswith("9.3 D: goles recibidos en la fase") for line in said), said
    assert all("9.3" in line for line in said + decided)
    with translation.override("fr"):
        assert say(first) == "9.3 B : A, B et C sont à égalité avec 2 points"


def test_an_eligibility_reason_is_said_in_french_and_spanish_with_its_article():
    from datetime import date

    from federation.eligibility import Category, PassportFacts
    from tests.federation.test_eligibility import championship, person

    result = check_eligibility(
        person(born=date(2016, 5, 5), passports=[PassportFacts("CH", date(2027, 7, 16))]),
        championship(Category.JUNIOR_MEN),
    )
    messages = {reason.code: reason.message for reason in result.reasons}
    passport, age = messages["passport_expired"], next(m for c, m in messages.items() if c != "passport_expired")
    assert passport.startswith("Rule 1.1 B / R-03: the player's passport of CH expires on 2027-07-16")
    assert "Junior Men players must be at least" in age and "1 January 2027" in age
    with translation.override("fr"):
        assert say(passport).startswith("Règle 1.1 B / R-03 : le passeport de CH du joueur expire le 2027-07-16")
        assert "les joueurs Juniors hommes doivent avoir au moins" in say(age) and "1 janvier 2027" in say(age)
    with translation.override("es"):
        assert "los jugadores de Júnior masculino deben tener al menos" in say(age)
        assert "1 de enero de 2027" in say(age) and "1.1 C / R-01" in say(age)
