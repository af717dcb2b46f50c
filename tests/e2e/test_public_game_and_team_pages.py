"""Issue 25, the public: from the home page, by clicking, a visitor reads the schedule on a 390 px phone, a finished
game's page (box score: goals with assists and "P1 5:00", penalties with the infraction's article, shots per period,
goalkeepers, officials, the protest mark; the official report's PDF beside it), the teams' pages (roster with
numbers, games with results), and, in French, a team reached from the standings."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from games.models import GameProtestMark
from reports import services
from tests.e2e.live_helpers import fits_the_screen, open_menu
from tests.factories import international_staff
from tests.reports.helpers import signed_sheet_game
from tests.tournaments.conftest import circle_of_wins

PHONE = {"width": 390, "height": 844}


def test_a_visitor_reads_the_schedule_a_game_page_and_the_teams_pages_on_a_phone(
    page, screenshot, accessible, outside_requests, monkeypatch
):
    monkeypatch.setattr(services, "queue_render", lambda document_id: None)
    director = international_staff()
    game, _ = signed_sheet_game(director)  # 3-2, a minor for tripping, a double minor, a major
    GameProtestMark.objects.create(
        game=game, entry=game.away, subject="rink", made_at=game.start_at, recorded_by=director
    )
    championship = game.championship
    circle_of_wins(championship, name="B")

    page.set_viewport_size(PHONE)
    page.goto("/")
    page.get_by_role("link", name="Championships").first.click()
    page.get_by_role("link", name=championship.name).click()
    page.get_by_role("navigation", name=championship.name).get_by_role("link", name="Schedule").click()
    expect(page).to_have_url(re.compile(rf"/tournaments/{championship.pk}/schedule/$"))
    expect(page.locator("table.games").first).to_be_visible()
    fits_the_screen(page)  # the round and the rink fold under the time: nothing scrolls sideways
    accessible(page, "the schedule on a phone")
    screenshot(page, "schedule-on-a-phone")

    page.get_by_role("navigation", name=championship.name).get_by_role("link", name="Results").click()
    page.get_by_title("Game page: box score and official report").first.click()
    expect(page).to_have_url(re.compile(rf"/reports/games/{game.pk}/box-score/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(
        f"Game #{game.number}: {game.home.name} – {game.away.name}"
    )
    goals = page.locator("table.goals tbody tr")
    expect(goals).to_have_count(5)
    expect(goals.first).to_contain_text("P1 5:00")
    expect(goals.first).to_contain_text("#9")  # the assist
    penalties = page.locator("table.penalties")
    expect(penalties).to_contain_text("Tripping (6.4.33 A)")
    expect(penalties).to_contain_text("Double minor")
    expect(page.locator("table.shots")).to_contain_text("P2")
    expect(page.locator("table.goalkeepers tbody tr")).not_to_have_count(0)
    expect(page.get_by_role("heading", name="Played under protest (9.1 B)")).to_be_visible()
    expect(page.get_by_text(re.compile(r"Referee.*\(lead\)"))).to_be_visible()
    pdf = page.get_by_role("link", name="Official game report (PDF, 4.2 O)")
    expect(pdf).to_have_attribute("href", f"/reports/games/{game.pk}/pdf/")
    for raw in ("None", "NaN", "undefined", "power_play", "double_minor"):
        expect(page.locator("main")).not_to_contain_text(raw)
    fits_the_screen(page)
    accessible(page, "a finished game's page on a phone")
    screenshot(page, "game-page-on-a-phone")

    page.locator(".box-score").get_by_role("link", name=game.home.name).click()
    expect(page).to_have_url(re.compile(rf"/tournaments/teams/{game.home_id}/$"))
    expect(page.get_by_role("heading", name=game.home.name)).to_be_visible()
    numbers = page.locator("table.roster tbody td.num").all_inner_texts()
    assert numbers and numbers == sorted(numbers, key=int), numbers  # number order: 5 before 10
    expect(page.locator("table.games")).to_contain_text("3–2")
    expect(page.get_by_text("1 played: 1 won, 0 tied, 0 lost")).to_be_visible()
    fits_the_screen(page)
    accessible(page, "a team's page on a phone")
    screenshot(page, "team-page-on-a-phone")

    # In French: the standings name each team with a link to its page.
    open_menu(page)
    page.get_by_label("Language").select_option("fr")
    page.get_by_role("button", name="Change").click()
    page.wait_for_load_state()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.get_by_role("navigation", name=championship.name).get_by_role("link", name="Classement").click()
    standings = page.locator("table.standings").first
    team_link = standings.get_by_role("link").first
    name = team_link.inner_text()
    team_link.click()
    expect(page).to_have_url(re.compile(r"/tournaments/teams/\d+/$"))
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    expect(page.get_by_role("heading", name="Feuille d'équipe")).to_be_visible()
    expect(page.get_by_text("2 joués : 1 gagnés, 0 nuls, 1 perdus")).to_be_visible()
    fits_the_screen(page)
    accessible(page, "a team's page in French on a phone")
    screenshot(page, "team-page-in-french")
    assert outside_requests == []
