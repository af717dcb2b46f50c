"""Championship journeys in a browser: the public on a phone, a team manager fixing a roster error."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from accounts.models import Role
from tests.e2e.live_helpers import fits_the_screen
from tests.factories import TEST_PASSWORD, ChampionshipFactory, RoleAssignmentFactory, TeamEntryFactory, UserFactory
from tests.tournaments.conftest import circle_of_wins, eligible_person
from tournaments.models import RosterEntry

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
PHONE = {"width": 375, "height": 740}


def test_the_public_reads_the_standings_on_a_phone(page, screenshot, outside_requests, accessible):
    championship = ChampionshipFactory(name="World Championship Phone")
    # A circle of wins: the head-to-head is level, goals allowed (9.3 D) decide.
    circle_of_wins(championship)
    page.set_viewport_size(PHONE)
    page.goto("/")
    page.get_by_role("link", name="Championships").first.click()
    page.get_by_role("link", name="World Championship Phone").click()
    page.get_by_role("link", name="Standings").click()
    expect(page).to_have_url(re.compile(rf"/tournaments/{championship.pk}/standings/$"))
    table = page.locator("table.standings")
    expect(table).to_be_visible()
    expect(table.locator("tbody tr")).to_have_count(3)
    expect(page.get_by_text("How the ties were broken")).to_be_visible()
    expect(page.locator("details li").filter(has_text="9.3 D")).not_to_have_count(0)
    # The points and the criterion that broke each tie are on screen without scrolling sideways.
    points = table.locator("th", has_text="Pts")
    expect(points).to_be_visible()
    box = points.bounding_box()
    assert box["x"] + box["width"] <= PHONE["width"]
    expect(table.locator("tbody tr").first.locator(".narrow")).to_contain_text("9.3 D")
    # The page fits the phone: only a table's own box may scroll sideways, never the page.
    fits_the_screen(page)
    accessible(page, "the public standings on a phone")
    shot = screenshot(page, "standings-phone")
    assert shot.read_bytes().startswith(PNG_MAGIC)
    assert outside_requests == []


def test_a_team_manager_fixes_a_roster_error(page, screenshot, outside_requests):
    entry = TeamEntryFactory(championship=ChampionshipFactory(), name="Italia")
    manager = UserFactory(username="manager-e2e")
    RoleAssignmentFactory(user=manager, role=Role.TEAM_MANAGER, federation=entry.federation)
    entry.managers.add(manager)
    player = eligible_person(entry.federation, is_player=True, first_name="Marco", last_name="Bianchi")

    page.goto("/accounts/login/")
    page.fill("#id_username", manager.username)
    page.fill("#id_password", TEST_PASSWORD)
    page.locator("form button[type=submit], form input[type=submit]").last.click()
    page.goto("/tournaments/my-entries/")
    page.get_by_role("link", name="Italy").click()

    add = page.locator("#add form")
    add.locator("#id_person").select_option(str(player.pk))
    add.locator("#id_number").fill("07")
    add.get_by_role("button", name="Add").click()
    # 3.2.9 C: refused with the rule; what the manager typed is still there.
    expect(page.locator("#add .errorlist")).to_contain_text("3.2.9 C")
    expect(page.locator("#add #id_number")).to_have_value("07")
    expect(page.locator("#add #id_person")).to_have_value(str(player.pk))
    assert not RosterEntry.objects.filter(entry=entry).exists()

    page.locator("#add #id_number").fill("7")
    page.locator("#add").get_by_role("button", name="Add").click()
    expect(page.locator(".messages")).to_contain_text("added to the roster")
    expect(page.locator("table.roster")).to_contain_text("BIANCHI Marco")
    assert RosterEntry.objects.get(entry=entry, person=player).number == "7"
    shot = screenshot(page, "roster-fixed")
    assert shot.read_bytes().startswith(PNG_MAGIC)
    assert outside_requests == []
