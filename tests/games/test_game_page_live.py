"""The staff's game page during a live game (issue 25): it shows the open sheet's state as the live pages read it
and links to the live sheet, and offers the result, goal and penalty forms only where the service takes them (a
live sheet is the record, Rule 4.3 A: ``tournaments.services.check_summary_source``)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from games.sheet import record_events
from tests.browser_forms import browser_client, post_form
from tests.factories import GameFactory, international_staff
from tournaments.models import GoalRecord, PenaltyRecord

from .sheet_helpers import entry, sheet_game, sign_in

pytestmark = pytest.mark.django_db

FORMS = ('name="action" value="result"', 'name="action" value="goal"', 'name="action" value="penalty"')


def live_game():
    """A game 1-0 in period 1 on its open sheet, entered by the championship's director."""
    game = sheet_game(start_at=timezone.now() - datetime.timedelta(minutes=30))
    director = international_staff()
    sign_in(game, director)
    events = [
        entry("period_start", period=1),
        entry("goal", period=1, time="5:00", team="home", player=8),
        entry("clock_start", period=1, time="5:00"),
    ]
    record_events(game=game, by=director, device="table-1", events=events)
    return game, director


def page(client, game) -> str:
    response = client.get(reverse("tournaments:game-manage", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_a_live_game_shows_its_sheets_state_and_link_and_no_form_the_sheet_refuses_4_3_a():
    game, director = live_game()
    client = browser_client()
    client.force_login(director)
    html = page(client, game)
    assert "Live sheet: In progress, period 1, 1–0" in html
    assert f'href="{reverse("games:game-live", args=[game.pk])}"' in html
    assert "Scheduled" not in html and "No goal entered." not in html
    assert not [form for form in FORMS if form in html]
    assert "Rule 4.3 A" in html
    # A penalty posted as a browser posts it anyway is refused by the service: nothing stored, no form offered.
    url = reverse("tournaments:game-manage", args=[game.pk])
    body = {"action": "penalty", "entry": game.home_id, "infraction_code": "tripping", "minutes": 2,
            "period": 1, "minute": 6, "second": 0}  # fmt: skip
    response = post_form(client, url, body)
    assert response.status_code == 200
    assert not PenaltyRecord.objects.filter(game=game).exists() and not GoalRecord.objects.filter(game=game).exists()
    assert not [form for form in FORMS if form in response.content.decode()]


def test_a_game_without_a_sheet_keeps_its_forms():
    director = international_staff()
    game = GameFactory(start_at=timezone.now() - datetime.timedelta(minutes=30))
    client = browser_client()
    client.force_login(director)
    html = page(client, game)
    assert all(form in html for form in FORMS)
    assert "Live sheet:" not in html
