"""Issue 25, in the browser from the role's home by clicking: a national federation's staff enter their team in a
published championship (1.1 A) and keep its roster (import with a template, dates as spreadsheets store them and
a homonym named by its person id; add, change, remove before the freeze, 3.1.1 B; confirm; export), and a team
manager finds "My teams" in the menu, the roster with each player's eligibility and the team's suspensions."""

from __future__ import annotations

import csv
import datetime
import io
import re

import openpyxl
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import Role
from tests.e2e.live_helpers import fits_the_screen, open_menu
from tests.factories import (
    FederationFactory,
    GameFactory,
    RoleAssignmentFactory,
    TeamEntryFactory,
    UserFactory,
    federation_staff,
)
from tests.tournaments.conftest import eligible_person, open_championship
from tournaments import roster_files
from tournaments.models import RosterEntry, TeamEntry

PHONE = {"width": 390, "height": 844}


def _switch(page, language: str) -> None:
    """Choose ``language`` in the header's switch and press its button, as a person does."""
    open_menu(page)
    switch = page.locator("form.language-switch")
    switch.locator("select[name=language]").select_option(language)
    switch.locator("[type=submit]").click()
    page.wait_for_load_state()


def download(page, link) -> bytes:
    with page.expect_download() as info:
        link.click()
    with open(info.value.path(), "rb") as file:
        return file.read()


def test_national_staff_enter_their_team_from_the_championship_page_in_french_on_a_phone(
    page, login_as, screenshot, accessible, outside_requests
):
    italia = FederationFactory(name="Federazione Italiana", short_name="Italia")
    championship = open_championship(name="Mondiali 2027")
    # A draft their federation sanctions: they direct it, and it offers no entry.
    draft = open_championship(name="Coppa in bozza", published=False, sanctioning_body=italia)
    staff = federation_staff(italia)

    page.set_viewport_size(PHONE)
    login_as(staff)
    page.goto("/")  # the role's home
    _switch(page, "fr")
    open_menu(page)
    page.get_by_role("navigation", name="Principale").get_by_role("link", name="Championnats").click()
    page.get_by_role("link", name="Coppa in bozza").click()
    expect(page.get_by_role("heading", name="Coppa in bozza")).to_be_visible()
    expect(page.get_by_role("link", name="Inscrire une équipe")).to_have_count(0)
    page.go_back()
    page.get_by_role("link", name="Mondiali 2027").click()
    # The championship's own page, not the list the click leaves: its width is read once it has replaced the list.
    expect(page.get_by_role("heading", level=1, name="Mondiali 2027")).to_be_visible()
    fits_the_screen(page)
    screenshot(page, "championship-fr")
    page.get_by_role("link", name="Inscrire une équipe").click()
    expect(page.get_by_role("heading", name="Inscrire une équipe")).to_be_visible()
    expect(page.get_by_text("US$500.00").or_(page.get_by_text("500,00"))).to_be_visible()
    fits_the_screen(page)
    accessible(page, "enter a team, in French, on a phone")
    screenshot(page, "enter-form-fr")
    expect(page.get_by_label("Fédération")).to_have_value(str(italia.pk))
    page.get_by_label("Nom de l'équipe").fill("Italia Senior")
    page.get_by_role("button", name="Inscrire l'équipe").click()
    page.wait_for_load_state()
    entry = TeamEntry.objects.get(championship=championship, federation=italia)
    expect(page).to_have_url(re.compile(rf"/tournaments/entries/{entry.pk}/$"))
    expect(page.get_by_role("heading", name="Italia Senior")).to_be_visible()
    expect(page.locator(".messages")).to_contain_text("Italia Senior est inscrite à Mondiali 2027")
    fits_the_screen(page)
    accessible(page, "the new entry's page, in French")
    screenshot(page, "entered-fr")
    assert entry.fee_due == championship.entry_fee and not TeamEntry.objects.filter(championship=draft).exists()
    assert outside_requests == []


def test_national_staff_keep_the_roster_import_add_change_remove_confirm_and_export(
    page, login_as, screenshot, accessible, outside_requests
):
    italia = FederationFactory(name="Federazione Italiana", short_name="Italia")
    championship = open_championship(name="Mondiali Roster")
    entry = TeamEntryFactory(championship=championship, federation=italia, name="Italia")
    rival = TeamEntryFactory(championship=championship, name="Francia")
    staff = federation_staff(italia)
    born = datetime.date(2001, 3, 4)
    skaters = [eligible_person(italia, last_name=f"Rossi{c}", first_name="Marco", date_of_birth=born) for c in "ABCDEF"]
    keepers = [eligible_person(italia, is_goalkeeper=True, last_name=n, first_name="Gianni") for n in ("Porta", "Muro")]
    # Two people of the same name and birth: the file must name the one it means by the id their page shows.
    twins = [eligible_person(italia, last_name="Bianchi", first_name="Luca", date_of_birth=born) for _ in range(2)]
    extra = eligible_person(italia, last_name="Verdi", first_name="Paolo")

    login_as(staff)
    page.goto("/")
    open_menu(page)
    page.get_by_role("link", name="My teams", exact=True).click()
    page.get_by_role("link", name="Italy", exact=True).click()
    expect(page.get_by_role("heading", name="Italy")).to_be_visible()

    # The template, as CSV and as a workbook, from the import's section.
    section = page.locator("#import")
    template_csv = download(page, section.get_by_role("link", name="CSV file"))
    assert next(csv.reader(io.StringIO(template_csv.decode("utf-8-sig")))) == list(roster_files.COLUMNS)
    template = openpyxl.load_workbook(
        io.BytesIO(download(page, section.get_by_role("link", name="Excel workbook (XLSX)")))
    )
    sheet = template.active
    assert [cell.value for cell in sheet[1]] == list(roster_files.COLUMNS)
    # Filled as a spreadsheet stores it: a date cell, an Excel serial, day/month/year text; the twin by name only.
    serial = (born - roster_files.EXCEL_EPOCH).days
    rows = [
        [
            None,
            person.last_name,
            "Marco",
            [born, serial, "04/03/2001"][i % 3],
            str(10 + i),
            "player",
            "yes" if i == 0 else "",
        ]
        for i, person in enumerate(skaters)
    ]
    rows += [[person.pk, None, None, None, str(1 + i), "goalkeeper"] for i, person in enumerate(keepers)]
    rows.append([None, "Bianchi", "Luca", "04/03/2001", "20", "player"])  # row 10 of the sheet

    def workbook_bytes() -> bytes:
        for number, row in enumerate(rows, start=2):
            for column, value in enumerate(row, start=1):
                sheet.cell(row=number, column=column, value=value)
        out = io.BytesIO()
        template.save(out)
        return out.getvalue()

    def import_file(data: bytes) -> None:
        form = page.locator("#import form")
        form.get_by_label("File").set_input_files(
            {"name": "italia.xlsx", "mimeType": roster_files.XLSX_MIME, "buffer": data}
        )
        form.get_by_role("button", name="Import").click()
        page.wait_for_load_state()

    import_file(workbook_bytes())
    error = page.locator("#import .errorlist")
    expect(error).to_contain_text("Row 10, person_id: 2 people of Federazione Italiana are named Luca Bianchi")
    expect(error).to_contain_text(f"(person ids {twins[0].pk}, {twins[1].pk})")
    assert not RosterEntry.objects.filter(entry=entry).exists()
    accessible(page, "the import refused: two people match")
    screenshot(page, "import-homonym-refused")
    # The id is the one the person's page shows ("Person id"): People, then the second Luca Bianchi.
    open_menu(page)
    page.get_by_role("link", name="People", exact=True).click()
    page.locator(f"a[href='{reverse('federation:person-detail', args=[twins[1].pk])}']").click()
    expect(page.locator("#person-id")).to_have_text(str(twins[1].pk))
    open_menu(page)
    page.get_by_role("link", name="My teams", exact=True).click()
    page.get_by_role("link", name="Italy", exact=True).click()
    rows[-1][0] = twins[1].pk
    import_file(workbook_bytes())
    expect(page.locator(".messages")).to_contain_text("9 players imported.")
    table = page.locator("table.roster")
    expect(table.locator("tbody tr")).to_have_count(9)
    assert RosterEntry.objects.filter(entry=entry, person=twins[1]).exists()

    # Add a player by hand, change one, remove one (before the first game: 3.1.1 B allows it).
    add = page.locator("#add form")
    add.locator("#id_person").select_option(str(extra.pk))
    add.locator("#id_number").fill("21")
    add.get_by_role("button", name="Add").click()
    expect(page.locator(".messages")).to_contain_text("#21")
    page.get_by_role("link", name=f"Change or remove {twins[1]}").click()
    page.locator("#id_number").fill("22")
    page.get_by_role("button", name="Save").click()
    expect(table.locator("tbody tr", has_text=str(twins[1]))).to_contain_text("22")
    page.get_by_role("link", name=f"Change or remove {extra}").click()
    accessible(page, "a roster line with its remove action")
    screenshot(page, "line-remove")
    page.get_by_role("button", name=f"Remove {extra} from the roster").click()
    expect(page.locator(".messages")).to_contain_text(f"#21 {extra} taken off the roster.")
    expect(table.locator("tbody tr")).to_have_count(9)
    assert not RosterEntry.objects.filter(entry=entry, person=extra).exists()

    # Confirm, then export as CSV and XLSX.
    page.get_by_role("button", name="Confirm the roster").click()
    expect(page.locator(".messages")).to_contain_text("Roster confirmed (registered).")
    exported = page.locator("#roster-export")
    rows = list(
        csv.DictReader(io.StringIO(download(page, exported.get_by_role("link", name="CSV file")).decode("utf-8-sig")))
    )
    assert sorted(int(r["number"]) for r in rows) == [1, 2, 10, 11, 12, 13, 14, 15, 22]
    workbook = openpyxl.load_workbook(
        io.BytesIO(download(page, exported.get_by_role("link", name="Excel workbook (XLSX)")))
    )
    assert workbook.active.max_row == 10

    # Phone and Spanish: the entry page reads on a 390 px phone.
    page.set_viewport_size(PHONE)
    _switch(page, "es")
    expect(
        page.get_by_role("link", name="CSV file").or_(page.get_by_role("link", name="Archivo CSV")).first
    ).to_be_visible()
    fits_the_screen(page)
    accessible(page, "the entry page in Spanish on a phone")
    screenshot(page, "entry-es-phone")

    # The first game starts: no change, no removal offered any more (3.1.1 B).
    GameFactory(
        championship=championship, home=entry, away=rival, start_at=timezone.now() - datetime.timedelta(minutes=1)
    )
    page.reload()
    expect(page.locator("#roster-frozen")).to_be_visible()
    expect(page.locator("table.roster a[href*='/tournaments/roster/']")).to_have_count(0)
    screenshot(page, "roster-frozen-es")
    assert outside_requests == []


def test_a_team_manager_finds_my_teams_the_roster_eligibility_and_suspensions_in_spanish_on_a_phone(
    page, login_as, screenshot, accessible, outside_requests
):
    championship = open_championship(name="Mundial 2027")
    entry = TeamEntryFactory(championship=championship, name="España")
    manager = UserFactory(username="manager-espana")
    RoleAssignmentFactory(user=manager, role=Role.TEAM_MANAGER, federation=entry.federation)
    entry.managers.add(manager)
    player = eligible_person(entry.federation, last_name="García", first_name="Pablo")
    from tests.factories import RosterEntryFactory

    RosterEntryFactory(entry=entry, person=player, number="9")

    page.set_viewport_size(PHONE)
    login_as(manager)
    page.goto("/")
    _switch(page, "es")
    open_menu(page)
    page.get_by_role("navigation", name="Principal").get_by_role("link", name="Mis equipos").click()
    expect(page.get_by_role("heading", name="Mis equipos")).to_be_visible()
    fits_the_screen(page)
    accessible(page, "my teams in Spanish on a phone")
    screenshot(page, "my-teams-es")
    page.get_by_role("link", name="España", exact=True).click()
    expect(page).to_have_url(re.compile(rf"/tournaments/entries/{entry.pk}/"))
    row = page.locator("table.roster tbody tr", has_text="GARCÍA")
    expect(row).to_contain_text("9")
    expect(row).to_contain_text(re.compile("Elegible|No elegible"))
    fits_the_screen(page)
    accessible(page, "the team's page for its manager")
    screenshot(page, "team-es")
    page.get_by_role("link", name=re.compile("Suspensiones de las personas de sus equipos")).click()
    expect(page).to_have_url(re.compile(r"/discipline/suspensions/"))
    fits_the_screen(page)
    screenshot(page, "suspensions-es")
    assert outside_requests == []
