"""Journey 2 (issue 12): a team manager imports the roster from spreadsheets, on a phone and by keyboard.

The manager of Italia finds the team under "My teams", imports a CSV file whose
one row is refused (a number already worn, 3.2.9 D: nothing is saved), corrects
the file and imports it again, adds the goalkeepers from an XLSX workbook,
confirms the roster with the keyboard alone, and after the team's first game
sees the roster frozen (3.1.1 B, R-05): no add, no import, no confirm offered.
"""

from __future__ import annotations

import io
import re

import openpyxl
from playwright.sync_api import expect

from accounts.models import Role
from tests.e2e.live_helpers import fits_the_screen, open_menu
from tests.factories import ChampionshipFactory, GameFactory, RoleAssignmentFactory, TeamEntryFactory, UserFactory
from tests.tournaments.conftest import eligible_person
from tests.tournaments.test_views import finish
from tournaments.models import Position, RosterEntry
from tournaments.roster_files import XLSX_MIME

PHONE = {"width": 375, "height": 740}
CSV_MIME = "text/csv"

SKATERS = [
    # last name, first name, number: the fourth row of the file (spreadsheet row 5) repeats number 10.
    ("Rossi", "Marco", "10"),
    ("Bianchi", "Luca", "11"),
    ("Verdi", "Paolo", "12"),
    ("Neri", "Andrea", "10"),
    ("Gallo", "Matteo", "14"),
    ("Conti", "Davide", "15"),
]


def roster_csv(skaters) -> bytes:
    """The roster as a spreadsheet saves it as CSV: a header row, then one row per player (rows 2..)."""
    lines = ["last_name,first_name,date_of_birth,number,position,captain"]
    for i, (person, number) in enumerate(skaters):
        born = person.date_of_birth.isoformat()
        lines.append(f"{person.last_name},{person.first_name},{born},{number},player,{'yes' if i == 0 else ''}")
    return ("\n".join(lines) + "\n").encode()


def roster_xlsx(rows) -> bytes:
    """An Excel workbook built with openpyxl: its active sheet holds ``rows``, the header first."""
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def import_file(page, name: str, mime: str, data: bytes) -> None:
    form = page.locator("#import form")
    form.get_by_label("File").set_input_files({"name": name, "mimeType": mime, "buffer": data})
    form.get_by_role("button", name="Import").click()
    page.wait_for_load_state()


def test_a_team_manager_imports_the_roster_from_csv_and_xlsx_on_a_phone(
    page, login_as, screenshot, accessible, outside_requests
):
    championship = ChampionshipFactory(name="World Championship Import")
    entry = TeamEntryFactory(championship=championship, name="Italia")
    rival = TeamEntryFactory(championship=championship, name="Francia")
    manager = UserFactory(username="manager-italia")
    RoleAssignmentFactory(user=manager, role=Role.TEAM_MANAGER, federation=entry.federation)
    entry.managers.add(manager)
    skaters = [
        (eligible_person(entry.federation, is_player=True, last_name=last, first_name=first), number)
        for last, first, number in SKATERS
    ]
    keepers = [
        eligible_person(entry.federation, is_goalkeeper=True, last_name=last, first_name=first)
        for last, first in (("Porta", "Stefano"), ("Muro", "Enrico"))
    ]

    page.set_viewport_size(PHONE)
    login_as(manager)

    # The manager's pages: Championships, then "My teams", then the team.
    page.get_by_role("link", name="Championships").first.click()
    open_menu(page)
    page.get_by_role("link", name="My teams").click()
    expect(page.get_by_role("heading", name="My teams")).to_be_visible()
    fits_the_screen(page)
    accessible(page, "my teams on a phone")
    screenshot(page, "my-teams")
    page.get_by_role("link", name="Italy").click()
    expect(page).to_have_url(re.compile(rf"/tournaments/entries/{entry.pk}/$"))
    expect(page.get_by_role("heading", name="Import from a file (CSV or XLSX)")).to_be_visible()
    expect(page.get_by_text("Open until the championship's first game starts (R-05).")).to_be_visible()
    fits_the_screen(page)
    accessible(page, "the entry page on a phone, roster empty")
    screenshot(page, "entry-empty")

    # 1. A CSV file whose row 5 repeats number 10: the whole file is refused (3.2.9 D), the row named as the
    #    spreadsheet shows it, and nothing is saved.
    import_file(page, "italia.csv", CSV_MIME, roster_csv(skaters))
    errors = page.locator("#import .errorlist")
    expect(errors).to_have_text("Row 5, number: Rule 3.2.9 D: number 10 is already worn by row 2")
    # The page opens on the refusal, not at its top: the file field has the focus, its error in sight.
    expect(page.locator("#import").get_by_label("File")).to_be_focused()
    expect(errors).to_be_in_viewport()
    assert not RosterEntry.objects.filter(entry=entry).exists()
    fits_the_screen(page)
    accessible(page, "the entry page with the refused CSV row")
    screenshot(page, "csv-row-refused")

    # 2. The manager corrects row 5 in the spreadsheet (number 13) and imports the file again: every row added.
    skaters[3] = (skaters[3][0], "13")
    import_file(page, "italia.csv", CSV_MIME, roster_csv(skaters))
    expect(page.locator(".messages")).to_contain_text("6 players imported.")
    expect(page.locator("#import .errorlist")).to_have_count(0)
    table = page.locator("table.roster")
    expect(table.locator("tbody tr")).to_have_count(6)
    expect(table.locator("tbody tr", has_text="NERI Andrea")).to_contain_text("13")
    assert RosterEntry.objects.get(entry=entry, person=skaters[0][0]).captain
    fits_the_screen(page)
    accessible(page, "the entry page after the CSV import")
    screenshot(page, "csv-imported")

    # 3. The goalkeepers come from an Excel workbook (XLSX), by their person id.
    workbook = roster_xlsx(
        [["Person ID", "Number", "Position"], [keepers[0].pk, 1, "goalkeeper"], [keepers[1].pk, 30, "G"]]
    )
    import_file(page, "goalkeepers.xlsx", XLSX_MIME, workbook)
    expect(page.locator(".messages")).to_contain_text("2 players imported.")
    expect(table.locator("tbody tr")).to_have_count(8)
    assert set(
        RosterEntry.objects.filter(entry=entry, position=Position.GOALKEEPER).values_list("number", flat=True)
    ) == {
        "1",
        "30",
    }
    fits_the_screen(page)
    accessible(page, "the entry page after the XLSX import")
    screenshot(page, "xlsx-imported")

    # 4. Confirm the roster with the keyboard alone: Tab from the roster sheet link to the button, then Enter.
    page.get_by_role("link", name=re.compile("^Roster sheet")).focus()
    confirm = page.get_by_role("button", name="Confirm the roster")
    for _ in range(60):
        if confirm.evaluate("button => button === document.activeElement"):
            break
        page.keyboard.press("Tab")
    expect(confirm).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text("Roster confirmed (registered).")
    assert not RosterEntry.objects.filter(entry=entry, confirmed=False).exists()
    expect(table.locator("tbody tr", has_text="yes")).to_have_count(8)
    fits_the_screen(page)
    accessible(page, "the entry page with the roster confirmed")
    screenshot(page, "roster-confirmed")

    # 5. The team's first game is played: the roster is frozen (3.1.1 B, R-05). The page says why and offers
    #    no addition, import, change or confirmation any more.
    finish(GameFactory(championship=championship, home=entry, away=rival), 3, 2)
    page.reload()
    expect(page.get_by_text("Frozen: the championship's first game has started (R-05, Rule 3.1.1 B).")).to_be_visible()
    expect(page.locator("#roster-frozen")).to_have_text("Rule 3.1.1 B: the roster is frozen since the first game.")
    expect(page.get_by_role("heading", name="Add a player")).to_have_count(0)
    expect(page.get_by_role("heading", name="Import from a file (CSV or XLSX)")).to_have_count(0)
    expect(page.locator("#import")).to_have_count(0)
    expect(page.get_by_role("button", name="Confirm the roster")).to_have_count(0)
    expect(page.locator("table.roster").get_by_role("link", name="Change")).to_have_count(0)
    expect(page.locator("table.roster tbody tr")).to_have_count(8)
    # On the phone each player is a card (issue 26): the eligibility is on the screen, labelled by its column.
    eligibility = page.locator("table.roster tbody tr").first.locator("[data-label='Eligibility']")
    expect(eligibility).to_be_visible()
    assert eligibility.bounding_box()["x"] + eligibility.bounding_box()["width"] <= PHONE["width"]
    fits_the_screen(page)
    accessible(page, "the entry page with the roster frozen")
    screenshot(page, "roster-frozen")
    assert outside_requests == []
