"""A finished game's public page (issue 25): the box score in HTML with the official report's PDF beside it,
reached from the results and the schedule; the teams' pages from the standings, schedule and results."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import GameProtestMark
from tests.factories import GameFactory

from .helpers import signed_sheet_game, staff_result_game

pytestmark = pytest.mark.django_db


def _text(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def test_a_sheet_game_page_shows_goals_penalties_shots_goalkeepers_officials_and_the_pdf(
    director, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        game, _ = signed_sheet_game(director)
    GameProtestMark.objects.create(
        game=game, entry=game.away, subject="rink", made_at=game.start_at, recorded_by=director
    )
    response = Client().get(reverse("reports:game-page", args=[game.pk]))
    assert response.status_code == 200
    text = _text(response)
    assert f"Game #{game.number}: {game.home.name} – {game.away.name}" in text
    assert "3–2" in text
    # Goals with scorer, assist and "P1 5:00"; the penalty with its infraction's name and article.
    assert "P1 5:00" in text and "P2 15:00" in text
    assert "power play" in text
    assert "Tripping (6.4.33 A)" in text and "Slashing (6.4.30 B)" in text
    assert "Double minor" in text
    # Shots per period, the goalkeepers, the officials, the protest mark and the PDF beside it.
    assert "Shots on goal" in text and "Total" in text
    assert "Referee" in text and "(lead)" in text
    assert "Played under protest (9.1 B)" in text
    assert reverse("reports:game-report-pdf", args=[game.pk]) in response.content.decode()
    for raw in ("None", "NaN", "power_play", "double_minor", "home_goals"):
        assert raw not in text, raw


def test_a_staff_result_game_page_in_french(director, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        game = staff_result_game(director)
    client = Client(headers={"accept-language": "fr"})
    response = client.get(reverse("reports:game-page", args=[game.pk]))
    assert response.status_code == 200
    text = _text(response)
    assert "Buts" in text and "Pénalités" in text
    assert "P1 5:00" in text and "P2 7:00" in text
    assert "Tripping (6." in text or "Croc-en-jambe" in text


def test_a_game_not_final_has_no_page_and_a_draft_s_is_hidden():
    game = GameFactory()
    assert Client().get(reverse("reports:game-page", args=[game.pk])).status_code == 404


def test_results_schedule_and_standings_link_to_the_game_and_team_pages(director, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        game = staff_result_game(director)
    client = Client()
    for view in ("results", "schedule"):
        page = client.get(reverse(f"tournaments:{view}", args=[game.championship_id])).content.decode()
        assert reverse("reports:game-page", args=[game.pk]) in page, view
        assert reverse("tournaments:team", args=[game.home_id]) in page, view
    team = client.get(reverse("tournaments:team", args=[game.home_id]))
    assert team.status_code == 200
    text = _text(team)
    assert game.home.name in text and "Roster" in text
    assert "1 played: 1 won, 0 tied, 0 lost" in text
    assert reverse("reports:game-page", args=[game.pk]) in team.content.decode()
    # The roster in number order: 5 before 10, as numbers read.
    numbers = re.findall(r'<td class="num">(\d+)</td><td>', team.content.decode())
    assert numbers == sorted(numbers, key=int), numbers
