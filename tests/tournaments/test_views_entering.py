"""Issue 25: a national federation's staff enter their team (1.1 A) and keep its roster from the pages: remove a
player before the freeze (3.1.1 B), import with dates as spreadsheets store them and homonyms named by their id,
export the roster and download the import's template; "My teams" in the menu. Posted form-encoded (multipart
for files), as a browser posts."""

from __future__ import annotations

import csv
import datetime
import io

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from accounts.models import Role
from tests.factories import (
    FederationFactory,
    GameFactory,
    RosterEntryFactory,
    TeamEntryFactory,
    federation_staff,
    international_staff,
    with_role,
)
from tournaments import roster_files, services
from tournaments.models import EntryStatus, RosterEntry, TeamEntry

from .conftest import eligible_person, open_championship, xlsx_bytes
from .test_views import finish

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"tournaments:{name}", args=args)


@pytest.fixture
def federation():
    return FederationFactory(name="Federazione Italiana", short_name="Italia")


@pytest.fixture
def staff_client(client, federation):
    client.force_login(federation_staff(federation))
    return client


# --- entering a team (1.1 A) ----------------------------------------------------------------------------------------


def test_staff_are_offered_to_enter_and_enter_their_team_1_1_a(staff_client, federation):
    championship = open_championship()
    page = staff_client.get(url("championship-detail", championship.pk))
    assert url("entry-create", championship.pk) in page.text
    form = staff_client.get(url("entry-create", championship.pk))
    assert form.status_code == 200
    assert "500" in form.text and "Rule 1.1 A" in form.text  # the fee and the rule
    done = staff_client.post(url("entry-create", championship.pk), {"federation": federation.pk, "name": ""})
    entry = TeamEntry.objects.get(championship=championship, federation=federation)
    assert done.status_code == 302 and done["Location"] == url("entry-detail", entry.pk)
    assert (entry.name, entry.status, entry.fee_due) == ("Italia", EntryStatus.ENTERED, championship.entry_fee)
    # Entered: the page links to the team and no longer offers to enter it.
    again = staff_client.get(url("championship-detail", championship.pk))
    assert url("entry-detail", entry.pk) in again.text
    assert url("entry-create", championship.pk) not in again.text


def test_a_second_entry_of_the_federation_is_refused_citing_1_1_a(staff_client, federation):
    championship = open_championship()
    TeamEntryFactory(championship=championship, federation=federation)
    refused = staff_client.post(url("entry-create", championship.pk), {"federation": federation.pk, "name": "B"})
    assert refused.status_code == 400
    assert "Rule 1.1 A" in refused.text and "already entered" in refused.text
    assert TeamEntry.objects.filter(championship=championship).count() == 1


def test_after_the_closing_date_the_page_says_so_and_nothing_is_stored_1_1_a(staff_client, federation):
    today = timezone.localdate()
    championship = open_championship(entry_closing_date=today)
    page = staff_client.get(url("championship-detail", championship.pk))
    assert url("entry-create", championship.pk) not in page.text
    assert "entries closed" in page.text
    refused = staff_client.post(url("entry-create", championship.pk), {"federation": federation.pk})
    assert refused.status_code == 400 and "Rule 1.1 A" in refused.text
    assert not TeamEntry.objects.filter(championship=championship).exists()


def test_a_federation_not_in_good_standing_is_told_why_and_cannot_enter_1_1_a(client):
    federation = FederationFactory(good_standing=False)
    client.force_login(federation_staff(federation))
    championship = open_championship()
    page = client.get(url("championship-detail", championship.pk))
    assert url("entry-create", championship.pk) not in page.text
    assert "not in good standing" in page.text
    refused = client.post(url("entry-create", championship.pk), {"federation": federation.pk})
    assert refused.status_code == 400 and "Rule 1.1 A" in refused.text
    assert not TeamEntry.objects.exists()


def test_a_draft_is_never_offered_even_to_its_directors(client, federation):
    draft = open_championship(published=False, sanctioning_body=federation)
    client.force_login(federation_staff(federation))
    page = client.get(url("championship-detail", draft.pk))
    assert page.status_code == 200  # its directors see the draft
    assert url("entry-create", draft.pk) not in page.text
    refused = client.post(url("entry-create", draft.pk), {"federation": federation.pk})
    assert refused.status_code == 400 and "not published" in refused.text
    assert not TeamEntry.objects.exists()


def test_another_federation_is_not_entered_by_national_staff(staff_client):
    championship = open_championship()
    other = FederationFactory()
    refused = staff_client.post(url("entry-create", championship.pk), {"federation": other.pk})
    assert refused.status_code == 400  # not one of the federations offered
    assert not TeamEntry.objects.exists()


def test_international_staff_may_enter_any_national_federation(client, federation):
    championship = open_championship()
    client.force_login(international_staff())
    done = client.post(url("entry-create", championship.pk), {"federation": federation.pk, "name": "Squadra"})
    assert done.status_code == 302
    assert TeamEntry.objects.get(championship=championship).name == "Squadra"


def test_a_team_manager_is_not_offered_to_enter(client, federation):
    championship = open_championship()
    client.force_login(with_role(Role.TEAM_MANAGER, federation))
    assert url("entry-create", championship.pk) not in client.get(url("championship-detail", championship.pk)).text
    assert client.get(url("entry-create", championship.pk)).status_code == 403


# --- removing a player (3.1.1 B) --------------------------------------------------------------------------------------


def test_a_player_is_removed_before_the_first_game_and_not_after_it_3_1_1_b(staff_client, federation):
    championship = open_championship()
    entry = TeamEntryFactory(championship=championship, federation=federation)
    line = RosterEntryFactory(entry=entry, person=eligible_person(federation), number="9")
    kept = RosterEntryFactory(entry=entry, person=eligible_person(federation), number="10")
    page = staff_client.get(url("roster-line-edit", line.pk))
    assert url("roster-remove", line.pk) in page.text
    done = staff_client.post(url("roster-remove", line.pk))
    assert done.status_code == 302 and done["Location"] == url("entry-detail", entry.pk)
    assert list(RosterEntry.objects.filter(entry=entry)) == [kept]
    # The first game starts: the remove action is gone and the service refuses it, citing 3.1.1 B.
    GameFactory(championship=championship, home=entry, start_at=timezone.now() - datetime.timedelta(minutes=5))
    frozen = staff_client.get(url("roster-line-edit", kept.pk))
    assert url("roster-remove", kept.pk) not in frozen.text
    assert "Rule 3.1.1 B" in frozen.text
    refused = staff_client.post(url("roster-remove", kept.pk), follow=True)
    assert RosterEntry.objects.filter(pk=kept.pk).exists()
    assert "Rule 3.1.1 B" in refused.text
    with pytest.raises(Exception, match="3.1.1 B"):
        services.roster_remove(roster_entry=kept, by=international_staff())


def test_after_a_finished_game_the_removal_is_refused_too_3_1_1_b(federation):
    entry = TeamEntryFactory(federation=federation)
    line = RosterEntryFactory(entry=entry, person=eligible_person(federation), number="9")
    finish(GameFactory(championship=entry.championship, home=entry), 1, 0)
    with pytest.raises(Exception, match="Rule 3.1.1 B: once the championship has begun, the roster is frozen"):
        services.roster_remove(roster_entry=line, by=federation_staff(federation))
    assert RosterEntry.objects.filter(pk=line.pk).exists()


# --- the import: dates, homonyms, errors per row ---------------------------------------------------------------------


@pytest.fixture
def entry(federation):
    return TeamEntryFactory(championship=open_championship(), federation=federation)


def upload(client, entry, name, content, mime="text/csv"):
    return client.post(
        url("roster-import", entry.pk), {"file": SimpleUploadedFile(name, content, content_type=mime)}, follow=True
    )


def test_dates_are_read_as_spreadsheets_store_them(staff_client, entry, federation):
    born = datetime.date(2001, 3, 4)
    people = [
        eligible_person(federation, last_name=f"Rossi{i}", first_name="Marco", date_of_birth=born) for i in range(5)
    ]
    serial = (born - roster_files.EXCEL_EPOCH).days
    workbook = xlsx_bytes(
        [
            ["last_name", "first_name", "date_of_birth", "number"],
            [people[0].last_name, "Marco", born, 10],  # a date cell
            [people[1].last_name, "Marco", serial, 11],  # a number: Excel's serial
            [people[2].last_name, "Marco", "04/03/2001", 12],  # day/month/year text
            [people[3].last_name, "Marco", "4.3.2001", 13],
            [people[4].last_name, "Marco", "2001-03-04", 14],  # ISO
        ]
    )
    page = upload(staff_client, entry, "team.xlsx", workbook, roster_files.XLSX_MIME)
    assert "5 players imported." in page.text
    assert RosterEntry.objects.filter(entry=entry).count() == 5


def test_a_date_that_is_not_one_names_the_row_and_the_column(staff_client, entry, federation):
    person = eligible_person(federation)
    content = f"last_name,first_name,date_of_birth,number\n{person.last_name},{person.first_name},31/02/2001,9\n"
    page = upload(staff_client, entry, "team.csv", content.encode())
    assert page.status_code == 400
    assert "Row 2, date_of_birth: a date of birth as &#x27;31/02/2001&#x27; is no day of the calendar" in page.text
    assert not RosterEntry.objects.exists()


def test_two_people_of_the_same_name_and_birth_are_named_by_their_person_id(staff_client, entry, federation):
    born = datetime.date(2000, 1, 2)
    first, second = (
        eligible_person(federation, last_name="Bianchi", first_name="Luca", date_of_birth=born) for _ in range(2)
    )
    content = "last_name,first_name,date_of_birth,number\nBianchi,Luca,02/01/2000,9\n"
    page = upload(staff_client, entry, "team.csv", content.encode())
    assert page.status_code == 400
    assert (
        f"Row 2, person_id: 2 people of Federazione Italiana are named Luca Bianchi, born 02/01/2000 (person ids {first.pk}, {second.pk})"
        in page.text
    )
    assert "the Person id their pages show" in page.text
    # The row gives the id the person's page shows: that person is added.
    assert f">{second.pk}</dd>" in staff_client.get(reverse("federation:person-detail", args=[second.pk])).text
    content = f"person_id,last_name,first_name,date_of_birth,number\n{second.pk},Bianchi,Luca,02/01/2000,9\n"
    page = upload(staff_client, entry, "team.csv", content.encode())
    assert "1 players imported." in page.text
    assert RosterEntry.objects.get(entry=entry).person == second


def test_an_id_that_is_another_person_than_the_row_names_is_refused(staff_client, entry, federation):
    person = eligible_person(federation, last_name="Verdi")
    content = f"person_id,last_name,number\n{person.pk},Neri,9\n"
    page = upload(staff_client, entry, "team.csv", content.encode())
    assert page.status_code == 400
    assert f"Row 2, last_name: person id {person.pk} is" in page.text
    assert not RosterEntry.objects.exists()


# --- files out: the template and the export ----------------------------------------------------------------------------


def test_the_import_template_downloads_as_csv_and_xlsx_and_reads_back(staff_client, entry):
    page = staff_client.get(url("entry-detail", entry.pk))
    for kind in ("csv", "xlsx"):
        assert url("roster-import-template", kind) in page.text
    as_csv = staff_client.get(url("roster-import-template", "csv"))
    assert as_csv["Content-Type"] == "text/csv"
    assert "attachment" in as_csv["Content-Disposition"]
    header = next(csv.reader(io.StringIO(as_csv.content.decode("utf-8-sig"))))
    assert header == list(roster_files.COLUMNS)
    as_xlsx = staff_client.get(url("roster-import-template", "xlsx"))
    workbook = openpyxl.load_workbook(io.BytesIO(as_xlsx.content))
    assert [cell.value for cell in workbook.active[1]] == list(roster_files.COLUMNS)
    assert workbook.sheetnames == ["Roster", "Help"]
    assert staff_client.get(url("roster-import-template", "pdf")).status_code == 404


def test_a_roster_exports_as_csv_and_xlsx_and_imports_into_another_entry(staff_client, entry, federation):
    captain = eligible_person(federation, last_name="Àlvarez")
    RosterEntryFactory(entry=entry, person=captain, number="7", captain=True)
    RosterEntryFactory(
        entry=entry, person=eligible_person(federation, is_goalkeeper=True), number="1", position="goalkeeper"
    )
    page = staff_client.get(url("entry-detail", entry.pk))
    assert url("roster-export", entry.pk, "csv") in page.text and url("roster-export", entry.pk, "xlsx") in page.text
    as_csv = staff_client.get(url("roster-export", entry.pk, "csv"))
    rows = list(csv.DictReader(io.StringIO(as_csv.content.decode("utf-8-sig"))))
    assert [(r["number"], r["position"], r["captain"]) for r in rows] == [
        ("1", "goalkeeper", ""),
        ("7", "player", "yes"),
    ]
    assert rows[1]["last_name"] == "Àlvarez" and rows[1]["person_id"] == str(captain.pk)
    as_xlsx = staff_client.get(url("roster-export", entry.pk, "xlsx"))
    sheet = openpyxl.load_workbook(io.BytesIO(as_xlsx.content)).active
    assert sheet.cell(row=3, column=5).value == "7"
    assert isinstance(sheet.cell(row=3, column=4).value, datetime.datetime)  # a date cell
    # The export reads back as an import, into the federation's entry of another championship.
    other = TeamEntryFactory(championship=open_championship(), federation=federation)
    done = upload(staff_client, other, "export.xlsx", as_xlsx.content, roster_files.XLSX_MIME)
    assert "2 players imported." in done.text


def test_another_federations_staff_get_no_export(client, entry):
    client.force_login(federation_staff(FederationFactory()))
    assert client.get(url("roster-export", entry.pk, "csv")).status_code == 403


# --- My teams ---------------------------------------------------------------------------------------------------------


def test_my_teams_is_in_the_menu_of_team_managers_and_staff_only(client, entry, federation):
    manager = with_role(Role.TEAM_MANAGER, federation)
    entry.managers.add(manager)
    client.force_login(manager)
    home = client.get("/")
    assert url("my-entries") in home.text
    teams = client.get(url("my-entries"))
    assert url("entry-detail", entry.pk) in teams.text and reverse("discipline:suspensions") in teams.text
    client.force_login(with_role(Role.GAME_OFFICIAL, None))
    assert url("my-entries") not in client.get("/").text
    client.force_login(federation_staff(federation))
    assert url("my-entries") in client.get("/").text


def test_the_admin_offers_no_removal_once_the_first_game_has_started_3_1_1_b(client, federation):
    from tests.factories import SuperuserFactory

    entry = TeamEntryFactory(federation=federation)
    line = RosterEntryFactory(entry=entry, person=eligible_person(federation), number="9")
    finish(GameFactory(championship=entry.championship, home=entry), 1, 0)
    client.force_login(SuperuserFactory())
    assert client.get(reverse("admin:tournaments_rosterentry_delete", args=[line.pk])).status_code == 403
    bulk = client.post(
        reverse("admin:tournaments_rosterentry_changelist"),
        {"action": "delete_selected", "_selected_action": [line.pk], "post": "yes"},
    )
    assert bulk.status_code in (302, 403)
    assert RosterEntry.objects.filter(pk=line.pk).exists()
