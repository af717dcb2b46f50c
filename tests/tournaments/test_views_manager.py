"""The team manager's pages: entry, roster with eligibility, add/change/confirm, CSV and XLSX import."""

from __future__ import annotations

import datetime
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import Role
from tests.factories import (
    ChampionshipFactory,
    PersonFactory,
    RoleAssignmentFactory,
    TeamEntryFactory,
    UserFactory,
    federation_staff,
    international_staff,
    with_role,
)
from tournaments import services
from tournaments.models import Position, RosterEntry
from tournaments.roster_files import XLSX_MIME

from .conftest import eligible_person, far_cell_xlsx, full_roster, make_pool, round_robin_games, xlsx_bytes
from .test_views import finish

pytestmark = pytest.mark.django_db


@pytest.fixture
def entry():
    return TeamEntryFactory(championship=ChampionshipFactory())


@pytest.fixture
def manager(entry):
    user = with_role(Role.TEAM_MANAGER, entry.federation)
    entry.managers.add(user)
    return user


@pytest.fixture
def manager_client(client, manager):
    client.force_login(manager)
    return client


def url(name, *args):
    return reverse(f"tournaments:{name}", args=args)


def test_a_manager_finds_the_team_under_my_teams(manager_client, entry):
    response = manager_client.get(url("my-entries"))
    assert url("entry-detail", entry.pk) in response.text


def test_the_team_page_lists_its_games_in_order_each_with_its_line_up(manager_client, entry):
    """5.1 A: the team's managers give each game's line-up from the team's page (issue 25)."""
    from tests.factories import GameFactory

    day = datetime.datetime(2027, 7, 2, tzinfo=datetime.UTC)
    later = GameFactory(championship=entry.championship, home=entry, start_at=day + datetime.timedelta(hours=16))
    sooner = GameFactory(championship=entry.championship, away=entry, start_at=day + datetime.timedelta(hours=8))
    elsewhere = GameFactory(championship=entry.championship)
    page = manager_client.get(url("entry-detail", entry.pk)).text
    links = [reverse("games:lineup-edit", args=[game.pk, entry.pk]) for game in (sooner, later)]
    assert page.index(links[0]) < page.index(links[1])
    assert f"Line-up for game #{sooner.number}" in page
    assert f"/games/{elsewhere.pk}/" not in page


def test_national_staff_find_their_federations_entries_under_my_teams(client, entry):
    staff = federation_staff(entry.federation)
    own = TeamEntryFactory(championship=ChampionshipFactory(), federation=entry.federation)
    other = TeamEntryFactory(championship=entry.championship)
    client.force_login(staff)
    page = client.get(url("my-entries"))
    assert page.status_code == 200
    assert url("entry-detail", entry.pk) in page.text
    assert url("entry-detail", own.pk) in page.text
    assert url("entry-detail", other.pk) not in page.text


def test_international_staff_find_every_entry_under_my_teams(client, entry):
    other = TeamEntryFactory(championship=entry.championship)
    client.force_login(international_staff())
    page = client.get(url("my-entries"))
    assert url("entry-detail", entry.pk) in page.text
    assert url("entry-detail", other.pk) in page.text


def _my_teams_queries(client) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as queries:
        page = client.get(url("my-entries"))
    assert page.status_code == 200
    return len(page.context["entries"]), len(queries)


def test_my_teams_runs_the_same_number_of_queries_for_2_and_6_entries(client):
    client.force_login(international_staff())
    TeamEntryFactory.create_batch(2)
    shown_two, two = _my_teams_queries(client)
    TeamEntryFactory.create_batch(4)
    shown_six, six = _my_teams_queries(client)
    assert (shown_two, shown_six) == (2, 6)
    assert six == two


def test_someone_who_does_not_manage_the_entry_is_refused(client, entry):
    other = UserFactory()
    other_entry = TeamEntryFactory(championship=entry.championship)
    RoleAssignmentFactory(user=other, role=Role.TEAM_MANAGER, federation=other_entry.federation)
    other_entry.managers.add(other)
    client.force_login(other)
    assert client.get(url("entry-detail", entry.pk)).status_code == 403
    assert client.post(url("roster-confirm", entry.pk)).status_code == 403


def test_the_roster_shows_every_eligibility_reason_with_its_article(manager_client, entry):
    """A player without a passport of the team's country is listed with each reason and its article (1.1)."""
    ok = eligible_person(entry.federation)
    RosterEntry.objects.create(entry=entry, person=ok, number="10")
    no_passport = PersonFactory(federation=entry.federation)
    RosterEntry.objects.create(entry=entry, person=no_passport, number="11")
    response = manager_client.get(url("entry-detail", entry.pk))
    assert response.status_code == 200
    roster = {line.person_id: result for line, result in response.context["roster"]}
    assert roster[ok.pk].eligible
    reasons = roster[no_passport.pk].reasons
    assert reasons
    for reason in reasons:
        assert reason.article in response.text
        assert reason.message.replace("'", "&#x27;") in response.text
    assert "Not eligible" in response.text


def test_a_manager_adds_a_player(manager_client, entry):
    person = eligible_person(entry.federation, is_player=True)
    response = manager_client.post(
        url("roster-add", entry.pk), {"person": person.pk, "number": "17", "position": Position.PLAYER}
    )
    assert response.status_code == 302
    assert RosterEntry.objects.get(entry=entry, person=person).number == "17"


def test_a_number_with_a_leading_zero_is_refused_citing_3_2_9_c_and_the_input_is_kept(manager_client, entry):
    person = eligible_person(entry.federation, is_player=True)
    response = manager_client.post(
        url("roster-add", entry.pk),
        {"person": person.pk, "number": "07", "position": Position.GOALKEEPER, "alternate": "on"},
    )
    assert response.status_code == 400
    form = response.context["add_form"]
    assert "3.2.9 C" in " ".join(form.errors["number"])
    assert form["number"].value() == "07"
    assert form["position"].value() == Position.GOALKEEPER
    assert 'value="07"' in response.text
    assert not RosterEntry.objects.filter(entry=entry).exists()


def test_a_number_change_after_registration_needs_the_ihtc_approval(manager_client, entry):
    """3.2.9 D: refused without a recorded approval, accepted with one."""
    line = RosterEntry.objects.create(
        entry=entry, person=eligible_person(entry.federation), number="10", confirmed=True
    )
    edit = url("roster-line-edit", line.pk)
    data = {"number": "19", "position": Position.PLAYER}
    response = manager_client.post(edit, data)
    assert response.status_code == 400
    assert "3.2.9 D" in " ".join(response.context["form"].errors["number"])
    assert response.context["form"]["number"].value() == "19"
    line.refresh_from_db()
    assert line.number == "10"
    services.number_change_approve(roster_entry=line, new_number="19", reason="Torn jersey", by=international_staff())
    assert "10 → 19" in manager_client.get(edit).text
    response = manager_client.post(edit, data)
    assert response.status_code == 302
    line.refresh_from_db()
    assert line.number == "19"


def test_confirming_a_roster_with_an_ineligible_player_is_refused_with_the_reason(manager_client, entry):
    lines = full_roster(entry)
    bad = PersonFactory(federation=entry.federation)
    RosterEntry.objects.create(entry=entry, person=bad, number="33")
    response = manager_client.post(url("roster-confirm", entry.pk), follow=True)
    assert f"#33 {bad}:" in response.text
    assert not RosterEntry.objects.filter(entry=entry, confirmed=True).exists()
    assert len(lines) == 8


def test_a_complete_eligible_roster_is_confirmed(manager_client, entry):
    full_roster(entry)
    response = manager_client.post(url("roster-confirm", entry.pk), follow=True)
    assert "Roster confirmed" in response.text
    assert not RosterEntry.objects.filter(entry=entry, confirmed=False).exists()


def test_the_roster_is_shown_frozen_after_the_first_game(manager_client, entry):
    """R-05: no addition once the championship's first game has started; the page says so and refuses."""
    pool = make_pool(entry.championship, 2)
    _, games = round_robin_games(pool)
    finish(next(iter(games.values())), 1, 0)
    page = manager_client.get(url("entry-detail", entry.pk))
    assert "Frozen" in page.text
    assert url("roster-add", entry.pk) not in page.text
    person = eligible_person(entry.federation, is_player=True)
    response = manager_client.post(
        url("roster-add", entry.pk), {"person": person.pk, "number": "40", "position": "player"}
    )
    assert response.status_code == 400
    assert "R-05" in response.text
    assert not RosterEntry.objects.filter(person=person).exists()


def test_a_frozen_roster_offers_no_change_add_import_or_confirm(manager_client, entry):
    """3.1.1 B: after the first game the page shows none of the actions the services would refuse."""
    lines = full_roster(entry)
    pool = make_pool(entry.championship, 2)
    _, games = round_robin_games(pool)
    finish(next(iter(games.values())), 1, 0)
    page = manager_client.get(url("entry-detail", entry.pk))
    assert page.status_code == 200
    assert "Rule 3.1.1 B: the roster is frozen since the first game" in page.text
    for line in lines:
        assert url("roster-line-edit", line.pk) not in page.text
    for action in ("roster-add", "roster-import", "roster-confirm"):
        assert url(action, entry.pk) not in page.text
    assert "Confirm the roster" not in page.text


def test_an_open_roster_offers_change_add_import_and_confirm(manager_client, entry):
    lines = full_roster(entry)
    page = manager_client.get(url("entry-detail", entry.pk))
    assert "the roster is frozen" not in page.text
    assert url("roster-line-edit", lines[0].pk) in page.text
    for action in ("roster-add", "roster-import", "roster-confirm"):
        assert url(action, entry.pk) in page.text


def test_confirming_an_already_confirmed_roster_says_so(manager_client, entry):
    full_roster(entry, confirmed=True)
    response = manager_client.post(url("roster-confirm", entry.pk), follow=True)
    assert "The roster is already confirmed" in response.text
    assert "Roster confirmed (registered)" not in response.text
    assert not RosterEntry.objects.filter(entry=entry, confirmed=False).exists()


def test_confirming_a_partly_confirmed_roster_reports_the_registration(manager_client, entry):
    lines = full_roster(entry, confirmed=True)
    RosterEntry.objects.filter(pk=lines[-1].pk).update(confirmed=False)
    response = manager_client.post(url("roster-confirm", entry.pk), follow=True)
    assert "Roster confirmed (registered)" in response.text
    assert "already confirmed" not in response.text


def _csv(text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile("roster.csv", text.encode(), content_type="text/csv")


def test_a_csv_import_with_one_bad_row_saves_nothing_and_lists_the_row(manager_client, entry):
    first, second = eligible_person(entry.federation), eligible_person(entry.federation)
    body = f"person_id,number,position\n{first.pk},10,player\n{second.pk},07,player\n"
    response = manager_client.post(url("roster-import", entry.pk), {"file": _csv(body)})
    assert response.status_code == 400
    errors = response.context["import_form"].errors["file"]
    assert any(e.startswith("Row 3, number:") and "3.2.9 C" in e for e in errors)
    assert not RosterEntry.objects.filter(entry=entry).exists()


def test_a_refused_form_comes_back_focused_on_the_field_in_error(manager_client, entry):
    """A long page (a phone's) opens on the refusal, not at its top; the other forms take no focus."""
    person = eligible_person(entry.federation)
    response = manager_client.post(
        url("roster-import", entry.pk), {"file": _csv(f"person_id,number\n{person.pk},07\n")}
    )
    assert response.status_code == 400
    assert response.context["import_form"]["file"].field.widget.attrs.get("autofocus")
    assert response.text.count("autofocus") == 1
    response = manager_client.post(
        url("roster-add", entry.pk), {"person": person.pk, "number": "07", "position": "player"}
    )
    assert response.status_code == 400
    assert response.context["add_form"]["number"].field.widget.attrs.get("autofocus")
    assert response.text.count("autofocus") == 1
    assert "autofocus" not in manager_client.get(url("entry-detail", entry.pk)).text


def test_a_good_csv_import_adds_every_row(manager_client, entry):
    born = datetime.date(1995, 4, 2)
    person = eligible_person(entry.federation, last_name="Rossi", first_name="Marco", date_of_birth=born)
    keeper = eligible_person(entry.federation, is_goalkeeper=True)
    body = (
        "last_name;first_name;date_of_birth;number;position;captain\n"
        "Rossi;Marco;1995-04-02;9;P;yes\n"
        f"{keeper.last_name};{keeper.first_name};{keeper.date_of_birth:%Y-%m-%d};1;G;\n"
    )
    response = manager_client.post(url("roster-import", entry.pk), {"file": _csv(body)})
    assert response.status_code == 302, response.context and response.context["import_form"].errors
    line = RosterEntry.objects.get(entry=entry, person=person)
    assert (line.number, line.captain) == ("9", True)
    assert RosterEntry.objects.get(entry=entry, person=keeper).position == Position.GOALKEEPER


def test_the_import_form_accepts_csv_and_xlsx(manager_client, entry):
    response = manager_client.get(url("entry-detail", entry.pk))
    assert 'accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"' in (
        response.text
    )
    assert "CSV or XLSX" in response.text


def test_a_good_xlsx_import_adds_every_row(manager_client, entry):
    person, keeper = eligible_person(entry.federation), eligible_person(entry.federation, is_goalkeeper=True)
    data = xlsx_bytes([["Person ID", "Number", "Position", "Captain"], [person.pk, 9, "P", "yes"], [keeper.pk, 1, "G"]])
    upload = SimpleUploadedFile("roster.xlsx", data, content_type=XLSX_MIME)
    response = manager_client.post(url("roster-import", entry.pk), {"file": upload})
    assert response.status_code == 302, response.context and response.context["import_form"].errors
    assert RosterEntry.objects.get(entry=entry, person=person).captain
    assert RosterEntry.objects.get(entry=entry, person=keeper).position == Position.GOALKEEPER


@pytest.mark.parametrize(
    ("upload", "says"),
    [
        (SimpleUploadedFile("roster.xlsx", b"PK\x03\x04" + bytes(90)), "roster.xlsx is not a readable XLSX workbook."),
        (
            SimpleUploadedFile("big.csv", b"person_id,number\n" + b"1,9\n" * 10_000),
            "big.csv has more rows than the roster can take: Rule 3.1.1 A",
        ),
    ],
    ids=["corrupt", "10000-rows"],
)
def test_a_refused_file_comes_back_beside_the_file_field(manager_client, entry, upload, says):
    response = manager_client.post(url("roster-import", entry.pk), {"file": upload})
    assert response.status_code == 400
    (error,) = response.context["import_form"].errors["file"]
    assert error.startswith(says)
    assert not RosterEntry.objects.filter(entry=entry).exists()


@pytest.mark.parametrize("dimension", ["true", "A1:B2"], ids=["stated", "lying"])
def test_a_workbook_reaching_row_1048576_is_refused_at_once_beside_the_file_field(manager, entry, dimension):
    """A 5 KB workbook whose one cell sits in row 1,048,576, posted as the browser posts the import form
    (multipart, with the page's CSRF token): refused naming the file and the row limit, in far under a second."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(manager)
    client.get(url("entry-detail", entry.pk))
    upload = SimpleUploadedFile("far.xlsx", far_cell_xlsx(dimension=dimension), content_type=XLSX_MIME)
    start = time.perf_counter()
    response = client.post(
        url("roster-import", entry.pk), {"file": upload, "csrfmiddlewaretoken": client.cookies["csrftoken"].value}
    )
    assert time.perf_counter() - start < 0.5
    assert response.status_code == 400
    (error,) = response.context["import_form"].errors["file"]
    assert error.startswith("far.xlsx ")
    assert "a roster file has at most 1,000 rows, blank ones included" in error
    assert not RosterEntry.objects.filter(entry=entry).exists()


def test_a_manager_names_a_team_official_and_a_duplicate_is_refused(manager_client, entry):
    coach = PersonFactory(federation=entry.federation, is_team_official=True)
    data = {"person": coach.pk, "role": "coach"}
    response = manager_client.post(url("official-add", entry.pk), data)
    assert response.status_code == 302
    assert entry.officials.get().person == coach
    again = manager_client.post(url("official-add", entry.pk), data)
    assert again.status_code == 400
    assert "already named" in " ".join(again.context["official_form"].errors["person"])
    assert entry.officials.count() == 1
