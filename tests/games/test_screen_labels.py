"""Issue 25, item 1: every value a person reads on the game's pages is a label in their language (games.labels),
never the raw value of the sheet (``clock_start``, ``in_progress``, ``team=home``)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from discipline.models import ProtestKind
from discipline.protests import incidents_of
from games import labels
from tests.factories import international_staff
from tournaments.models import RosterEntry

from .endgame_helpers import played_game, post_log, whole_game
from .sheet_helpers import entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return international_staff()


@pytest.fixture
def game(director):
    game, scorer = played_game(director)
    post_log(game, scorer, whole_game()[:5])
    return game


def _page(user, name, game, lang="en"):
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(user)
    response = client.get(reverse(name, args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_labels_of_each_concept():
    assert labels.event_kind_label("clock_start") == "Clock started"
    assert labels.period_clock(1, 7494) == "P1 12:29"
    assert labels.period_clock(2, "5:00") == "P2 5:00"
    assert labels.period_clock(None, None) == ""
    assert labels.infraction_label("holding") == "Holding (6.4.22 A)"
    assert labels.game_state_label("in_progress") == "in progress"
    with translation.override("fr"):
        assert labels.event_kind_label("period_end") == "Fin de période"
    with translation.override("es"):
        assert labels.event_kind_label("game_end") == "Fin del partido"


def test_the_sheet_log_names_the_kinds_the_game_time_the_team_and_the_infraction(game, director):
    page = _page(director, "games:sheet-log", game)
    assert "Clock started" in page and "Period started" in page and "P1 6:00" in page
    assert f"{game.away}, #14, Tripping (6.4.33 A), Minor" in page
    for raw in ("clock_start", ">period_start<", "team=", "infraction=tripping", "penalty=minor"):
        assert raw not in page.replace('value="clock_start"', "").replace('value="period_start"', "")


def test_the_sheet_log_speaks_french(game, director):
    page = _page(director, "games:sheet-log", game, "fr")
    assert "Chronomètre lancé" in page and "Mineure" in page


def test_the_sign_page_says_the_game_status_in_words(game, director):
    page = _page(director, "games:sheet-sign", game)
    assert "in progress, P1" in page and "in_progress" not in page


def test_a_protests_incidents_name_the_team_the_infraction_and_the_game_time(game):
    found = [i.label for i in incidents_of(game, ProtestKind.FEDERATION)]
    scorer, assist = (RosterEntry.objects.get(entry=game.home, number=n).person.last_name.upper() for n in "89")
    penalized = RosterEntry.objects.get(entry=game.away, number="14").person.last_name.upper()
    # Who wore the number, by the team's line-up or roster (issue 25: "Goal by Spain, P1 12:29 (#8 FAVRE)").
    assert f"Goal by {game.home}, P1 5:00 (#8 {scorer}): assists #9 {assist}" in found
    assert f"Penalty to {game.away}, P1 6:00 (#14 {penalized}): Tripping (6.4.33 A), Minor" in found
    assert not [label for label in found if "home" in label.split(",")[0] or " at " in label]


def test_an_on_rink_protest_reads_its_game_time(director):
    game, scorer = played_game(director)
    post_log(game, scorer, [*whole_game()[:3], entry("protest", period=1, time="5:00", team="home")])
    (incident,) = incidents_of(game, ProtestKind.RULING)
    assert incident.label == f"On-rink protest by {game.home}, P1 5:00"


def test_the_sign_pages_groups_are_named_in_french(game, director):
    page = _page(director, "games:sheet-sign", game, "fr")
    assert "Arbitres (4.2 O)" in page
    assert f"{game.home} — capitaine ou entraîneur" in page
    assert "capitaine ou entraîneur de" in page and "captain or coach" not in page
