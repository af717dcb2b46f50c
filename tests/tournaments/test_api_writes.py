"""Championship API writes: who may, and bad input answered 400 naming the field and the rule, nothing stored."""

from __future__ import annotations

import time
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from accounts.models import Role, RoleAssignment
from tests.factories import (
    ChampionshipFactory,
    FederationFactory,
    PersonFactory,
    RinkFactory,
    TeamEntryFactory,
    UserFactory,
    client_for,
    federation_staff,
    international_staff,
    with_role,
)
from tournaments import services
from tournaments.models import (
    Championship,
    DecidedIn,
    Disqualification,
    EntryStatus,
    Game,
    GameStatus,
    GoalkeeperRecord,
    GoalRecord,
    PenaltyRecord,
    RosterEntry,
    StandingsShootout,
    TeamEntry,
)
from tournaments.roster_files import XLSX_MIME

from .conftest import eligible_person, far_cell_xlsx, full_roster, goal_lines, make_pool, round_robin_games, xlsx_bytes
from .test_views import finish

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return international_staff()


@pytest.fixture
def api(director):
    client = client_for(director)
    return client


@pytest.fixture
def played():
    """A pool of three with registered rosters (captains named), no game played yet."""
    championship = ChampionshipFactory()
    RinkFactory(venue=championship.venue, name="Main rink")
    pool = make_pool(championship, 3)
    entries, games = round_robin_games(pool)
    for entry in entries:
        full_roster(entry, confirmed=True)
    return championship, pool, entries, games


def _championship_body(championship: Championship, **changes):
    body = {
        "name": "Euro 2027",
        "category": "senior_men",
        "level": "continental",
        "start_date": "2027-08-01",
        "end_date": "2027-08-07",
        "venue": championship.venue_id,
        "entry_closing_date": "2027-06-01",
        "entry_fee": "300.00",
        "entry_fee_currency": "eur",
        "sanctioning_body": championship.sanctioning_body_id,
    }
    body.update(changes)
    return body


# --- permissions ---------------------------------------------------------------------------------------------------


def test_an_anonymous_write_is_refused_and_stores_nothing(played):
    championship, pool, (a, b, c), games = played
    game = games[(a.name, b.name)]
    response = APIClient().post(f"/api/games/{game.pk}/result/", {"home_goals": 1, "away_goals": 0}, format="json")
    assert response.status_code in (401, 403)
    assert Game.objects.get(pk=game.pk).status == GameStatus.SCHEDULED


def test_staff_of_another_federation_may_not_record_a_result(played):
    championship, pool, (a, b, c), games = played
    game = games[(a.name, b.name)]
    client = client_for(federation_staff())
    response = client.post(f"/api/games/{game.pk}/result/", {"home_goals": 1, "away_goals": 0}, format="json")
    assert response.status_code == 403
    assert Game.objects.get(pk=game.pk).status == GameStatus.SCHEDULED


# --- championships -------------------------------------------------------------------------------------------------


def test_a_director_sets_up_a_championship(api):
    template = ChampionshipFactory()
    response = api.post("/api/championships/", _championship_body(template), format="json")
    assert response.status_code == 201, response.json()
    created = Championship.objects.get(pk=response.json()["id"])
    assert created.entry_fee.amount == Decimal("300.00") and str(created.entry_fee.currency) == "EUR"


def test_only_staff_of_the_sanctioning_body_set_up_its_championship():
    template = ChampionshipFactory()
    client = client_for(federation_staff())
    response = client.post("/api/championships/", _championship_body(template), format="json")
    assert response.status_code == 403
    assert not Championship.objects.filter(name="Euro 2027").exists()


def test_a_bad_ruleset_is_a_400_naming_the_parameter(api):
    championship = ChampionshipFactory()
    response = api.patch(
        f"/api/championships/{championship.pk}/", {"ruleset": {"roster": {"max_skaters": -3}}}, format="json"
    )
    assert response.status_code == 400
    assert "max_skaters" in response.json()["ruleset"][0]


def test_the_ruleset_is_frozen_once_the_championship_has_begun(api, played):
    championship, pool, (a, b, c), games = played
    finish(games[(a.name, b.name)], 1, 0)
    response = api.patch(
        f"/api/championships/{championship.pk}/",
        {"name": "Renamed", "ruleset": {"roster": {"max_skaters": 12}}},
        format="json",
    )
    assert response.status_code == 400
    assert "frozen once the championship has begun" in response.json()["ruleset"][0]
    championship.refresh_from_db()
    assert championship.ruleset == {} and championship.name != "Renamed"


def test_dates_in_the_wrong_order_are_a_400_not_a_500(api):
    template = ChampionshipFactory()
    body = _championship_body(template, start_date="2027-08-07", end_date="2027-08-01")
    response = api.post("/api/championships/", body, format="json")
    assert response.status_code == 400


def test_an_unknown_currency_is_a_400_naming_the_field_not_a_500(api):
    template = ChampionshipFactory()
    response = api.post("/api/championships/", _championship_body(template, entry_fee_currency="abc"), format="json")
    assert response.status_code == 400
    assert "PORTAL_CURRENCIES" in response.json()["entry_fee_currency"][0]
    assert not Championship.objects.filter(name="Euro 2027").exists()


def test_a_partial_change_of_the_fee_keeps_the_stored_currency(api):
    championship = ChampionshipFactory()
    response = api.patch(f"/api/championships/{championship.pk}/", {"entry_fee": "120.00"}, format="json")
    assert response.status_code == 200, response.json()
    championship.refresh_from_db()
    assert championship.entry_fee.amount == Decimal("120.00") and str(championship.entry_fee.currency) == "USD"


def test_an_unknown_fee_currency_is_a_400_naming_the_field(api):
    entry = TeamEntryFactory(status=EntryStatus.ENTERED, fee_paid=False, fee_paid_amount=None, fee_paid_at=None)
    response = api.post(f"/api/entries/{entry.pk}/fee-paid/", {"amount": "500", "currency": "zzz"}, format="json")
    assert response.status_code == 400
    assert "ISO 4217" in response.json()["currency"][0]
    entry.refresh_from_db()
    assert not entry.fee_paid


# --- entries -------------------------------------------------------------------------------------------------------


def test_a_federation_not_in_good_standing_cannot_enter_1_1_a(api):
    championship = ChampionshipFactory()
    federation = FederationFactory(good_standing=False)
    response = api.post("/api/entries/", {"championship": championship.pk, "federation": federation.pk}, format="json")
    assert response.status_code == 400
    assert "Rule 1.1 A" in response.json()["federation"][0]
    assert not TeamEntry.objects.filter(federation=federation).exists()


def test_a_federation_enters_and_pays_its_fee(api):
    championship = ChampionshipFactory()
    federation = FederationFactory()
    response = api.post("/api/entries/", {"championship": championship.pk, "federation": federation.pk}, format="json")
    assert response.status_code == 201
    entry_id = response.json()["id"]
    short = api.post(f"/api/entries/{entry_id}/fee-paid/", {"amount": "100", "currency": "USD"}, format="json")
    assert short.status_code == 400 and "Rule 1.1 A" in short.json()["amount"][0]
    paid = api.post(f"/api/entries/{entry_id}/fee-paid/", {"amount": "500", "currency": "usd"}, format="json")
    assert paid.status_code == 200
    assert paid.json()["status"] == EntryStatus.CONFIRMED


def test_a_draft_takes_no_entry_and_those_who_may_see_it_are_told_why_1_1_a(api):
    """Issue 29: the draft's directors learn that entries open when it is published (1.1 A), not "Invalid pk"."""
    federation = FederationFactory()
    draft = ChampionshipFactory(published=False, sanctioning_body=federation)
    body = {"championship": draft.pk, "federation": federation.pk}
    for client in (api, client_for(federation_staff(federation))):  # international staff; staff of its sanctioning body
        response = client.post("/api/entries/", body, format="json")
        assert response.status_code == 400
        assert response.json() == {
            "championship": [
                "Rule 1.1 A: the championship is not published yet: entries open once its directors publish it."
            ]
        }
    assert not TeamEntry.objects.filter(championship=draft).exists()


def test_a_draft_is_no_such_championship_to_who_may_not_see_it():
    draft = ChampionshipFactory(published=False)
    federation = FederationFactory()
    client = client_for(federation_staff(federation))
    response = client.post("/api/entries/", {"championship": draft.pk, "federation": federation.pk}, format="json")
    missing = client.post("/api/entries/", {"championship": 999999, "federation": federation.pk}, format="json")
    assert response.status_code == missing.status_code == 400
    assert response.json()["championship"] == [
        m.replace("999999", str(draft.pk)) for m in missing.json()["championship"]
    ]
    assert "published" not in str(response.json())
    assert not TeamEntry.objects.filter(championship=draft).exists()
    draft.published = True
    draft.save(update_fields=["published"])
    response = client.post("/api/entries/", {"championship": draft.pk, "federation": federation.pk}, format="json")
    assert response.status_code == 201  # published: the same call enters the team


def test_staff_of_the_federation_name_its_team_managers():
    entry = TeamEntryFactory()
    staff = federation_staff(entry.federation)
    manager = UserFactory()
    client = client_for(staff)
    response = client.post(f"/api/entries/{entry.pk}/managers/", {"managers": [manager.pk]}, format="json")
    assert response.status_code == 200
    assert list(entry.managers.all()) == [manager]
    unknown = client.post(f"/api/entries/{entry.pk}/managers/", {"managers": [999999]}, format="json")
    assert unknown.status_code == 400 and "managers" in unknown.json()
    client.force_authenticate(federation_staff())
    assert client.post(f"/api/entries/{entry.pk}/managers/", {"managers": []}, format="json").status_code == 403


def test_a_caller_who_may_not_name_managers_learns_nothing_about_user_ids():
    entry = TeamEntryFactory()
    client = client_for(federation_staff())
    for ids in ([999999], [UserFactory().pk]):
        response = client.post(f"/api/entries/{entry.pk}/managers/", {"managers": ids}, format="json")
        assert response.status_code == 403
    assert not entry.managers.exists()


def test_a_manager_taken_off_the_entry_loses_the_rights_it_gave():
    entry = TeamEntryFactory()
    staff = client_for(federation_staff(entry.federation))
    manager = UserFactory()
    assert (
        staff.post(f"/api/entries/{entry.pk}/managers/", {"managers": [manager.pk]}, format="json").status_code == 200
    )
    assert RoleAssignment.objects.filter(user=manager, role=Role.TEAM_MANAGER, federation=entry.federation).exists()
    as_manager = client_for(manager)
    assert as_manager.get(f"/api/entries/{entry.pk}/roster/").status_code == 200

    assert staff.post(f"/api/entries/{entry.pk}/managers/", {"managers": []}, format="json").status_code == 200
    assert not RoleAssignment.objects.filter(user=manager, role=Role.TEAM_MANAGER).exists()
    assert as_manager.get(f"/api/entries/{entry.pk}/roster/").status_code in (403, 404)


def test_a_manager_of_another_entry_of_the_federation_keeps_his_role():
    entry = TeamEntryFactory()
    other = TeamEntryFactory(federation=entry.federation)
    manager = UserFactory()
    by = federation_staff(entry.federation)
    services.entry_set_managers(entry=entry, managers=[manager], by=by)
    services.entry_set_managers(entry=other, managers=[manager], by=by)
    services.entry_set_managers(entry=entry, managers=[], by=by)
    assert RoleAssignment.objects.filter(user=manager, role=Role.TEAM_MANAGER, federation=entry.federation).exists()
    assert list(other.managers.all()) == [manager]


# --- rosters -------------------------------------------------------------------------------------------------------


@pytest.fixture
def manager_api():
    entry = TeamEntryFactory(championship=ChampionshipFactory())
    user = with_role(Role.TEAM_MANAGER, entry.federation)
    entry.managers.add(user)
    client = client_for(user)
    return client, entry


def test_a_manager_adds_a_player_and_a_leading_zero_is_refused_3_2_9_c(manager_api):
    client, entry = manager_api
    person = eligible_person(entry.federation)
    body = {"entry": entry.pk, "person": person.pk, "number": "07"}
    response = client.post("/api/roster-entries/", body, format="json")
    assert response.status_code == 400
    assert "3.2.9 C" in response.json()["number"][0]
    assert not RosterEntry.objects.filter(entry=entry).exists()
    response = client.post("/api/roster-entries/", {**body, "number": "7"}, format="json")
    assert response.status_code == 201
    assert response.json()["number"] == "7"


def test_a_person_of_another_federation_is_a_400_naming_the_person(manager_api):
    client, entry = manager_api
    stranger = PersonFactory()
    response = client.post(
        "/api/roster-entries/", {"entry": entry.pk, "person": stranger.pk, "number": "9"}, format="json"
    )
    assert response.status_code == 400
    assert "person" in response.json()


def test_a_number_change_after_registration_needs_approval_3_2_9_d(manager_api):
    client, entry = manager_api
    line = RosterEntry.objects.create(
        entry=entry, person=eligible_person(entry.federation), number="10", confirmed=True
    )
    response = client.patch(f"/api/roster-entries/{line.pk}/", {"number": "11"}, format="json")
    assert response.status_code == 400
    assert "3.2.9 D" in response.json()["number"][0]
    assert RosterEntry.objects.get(pk=line.pk).number == "10"


def test_the_roster_endpoint_gives_every_reason_with_its_article(manager_api):
    client, entry = manager_api
    RosterEntry.objects.create(entry=entry, person=PersonFactory(federation=entry.federation), number="4")
    (row,) = client.get(f"/api/entries/{entry.pk}/roster/").json()
    assert row["eligibility"]["eligible"] is False
    assert all(reason["article"] and reason["message"] for reason in row["eligibility"]["reasons"])


def test_confirming_a_roster_with_an_ineligible_player_is_a_400(manager_api):
    client, entry = manager_api
    full_roster(entry)
    RosterEntry.objects.create(entry=entry, person=PersonFactory(federation=entry.federation), number="44")
    response = client.post(f"/api/entries/{entry.pk}/confirm-roster/")
    assert response.status_code == 400
    assert any(message.startswith("#44 ") for message in response.json()["roster"])
    assert not RosterEntry.objects.filter(entry=entry, confirmed=True).exists()


def test_a_csv_import_with_a_bad_row_is_a_400_listing_it_and_saves_nothing(manager_api):
    client, entry = manager_api
    first, second = eligible_person(entry.federation), eligible_person(entry.federation)
    body = f"person_id,number\n{first.pk},10\n{second.pk},100\n".encode()
    upload = SimpleUploadedFile("roster.csv", body, content_type="text/csv")
    response = client.post(f"/api/entries/{entry.pk}/roster-import/", {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert any(e.startswith("Row 3, number:") for e in response.json()["file"])
    assert not RosterEntry.objects.filter(entry=entry).exists()
    good = SimpleUploadedFile("roster.csv", f"person_id,number\n{first.pk},10\n".encode(), content_type="text/csv")
    response = client.post(f"/api/entries/{entry.pk}/roster-import/", {"file": good}, format="multipart")
    assert response.status_code == 201
    assert [row["number"] for row in response.json()] == ["10"]


@pytest.mark.parametrize("dimension", ["true", "A1:B2", None], ids=["stated", "lying", "missing"])
def test_a_workbook_reaching_row_1048576_is_a_400_at_once(manager_api, dimension):
    """A 5 KB workbook whose one cell sits in row 1,048,576: refused naming the file and the row limit, in far
    under a second (a million blank rows took 1.2 s an upload)."""
    client, entry = manager_api
    upload = SimpleUploadedFile("far.xlsx", far_cell_xlsx(dimension=dimension), content_type=XLSX_MIME)
    start = time.perf_counter()
    response = client.post(f"/api/entries/{entry.pk}/roster-import/", {"file": upload}, format="multipart")
    assert time.perf_counter() - start < 0.5
    assert response.status_code == 400
    (error,) = response.json()["file"]
    assert error.startswith("far.xlsx ")
    assert "a roster file has at most 1,000 rows, blank ones included" in error
    assert not entry.roster.exists()


def test_an_xlsx_import_is_a_201_and_its_errors_name_the_sheets_rows(manager_api):
    client, entry = manager_api
    first, second = eligible_person(entry.federation), eligible_person(entry.federation)
    bad = xlsx_bytes([["person_id", "number"], [first.pk, 10], None, [second.pk, 100]])
    upload = SimpleUploadedFile("roster.xlsx", bad, content_type=XLSX_MIME)
    response = client.post(f"/api/entries/{entry.pk}/roster-import/", {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert response.json() == {
        "file": ['Row 4, number: Rule 3.2.9 C: numbers are 1-99 without a leading zero, not "100"']
    }
    good = xlsx_bytes([["person_id", "number"], [first.pk, 10], None, [second.pk, 11]])
    upload = SimpleUploadedFile("roster.xlsx", good, content_type=XLSX_MIME)
    response = client.post(f"/api/entries/{entry.pk}/roster-import/", {"file": upload}, format="multipart")
    assert response.status_code == 201
    assert [row["number"] for row in response.json()] == ["10", "11"]


@pytest.mark.parametrize(
    ("name", "content", "says"),
    [
        ("roster.xlsx", b"PK\x03\x04" + bytes(26) + b"xl/worksheets/sheet1.xml" + bytes(40), "is not a readable XLSX"),
        ("roster.pdf", b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "is a PDF file"),
    ],
)
def test_a_corrupt_or_unsupported_upload_is_a_400_naming_the_file_field(manager_api, name, content, says):
    client, entry = manager_api
    upload = SimpleUploadedFile(name, content)
    response = client.post(f"/api/entries/{entry.pk}/roster-import/", {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert list(response.json()) == ["file"]
    assert response.json()["file"][0].startswith(f"{name} ") and says in response.json()["file"][0]
    assert not RosterEntry.objects.filter(entry=entry).exists()


def test_a_10000_row_upload_is_refused_at_once_with_the_roster_limit_r_04(manager_api):
    client, entry = manager_api
    person = eligible_person(entry.federation)
    body = "person_id,number\n" + f"{person.pk},9\n" * 10_000
    upload = SimpleUploadedFile("big.csv", body.encode(), content_type="text/csv")
    response = client.post(f"/api/entries/{entry.pk}/roster-import/", {"file": upload}, format="multipart")
    assert response.status_code == 400
    (message,) = response.json()["file"]
    assert message.startswith("big.csv has more rows than the roster can take: Rule 3.1.1 A")
    assert "R-04" in message
    assert not RosterEntry.objects.filter(entry=entry).exists()


# --- schedule and games --------------------------------------------------------------------------------------------


def test_schedule_generation_refuses_a_rink_below_the_level_2_1(api):
    championship = ChampionshipFactory()
    make_pool(championship, 4)
    small = RinkFactory(venue=championship.venue, length_m=Decimal(40), width_m=Decimal(20))
    days = ["2027-07-01", "2027-07-02", "2027-07-03"]
    body = {"days": days, "slot_times": ["10:00", "14:00"], "rinks": [small.pk]}
    response = api.post(f"/api/championships/{championship.pk}/generate-schedule/", body, format="json")
    assert response.status_code == 400
    assert any("2.1" in m for m in response.json()["rinks"])
    assert not Game.objects.filter(championship=championship).exists()
    good = RinkFactory(venue=championship.venue)
    body["rinks"] = [good.pk]
    response = api.post(f"/api/championships/{championship.pk}/generate-schedule/", body, format="json")
    assert response.status_code == 201
    assert len(response.json()) == 6


def test_a_forfeit_is_1_0_to_the_captain_and_a_second_disqualifies_8_1(api, played, after_the_games):
    championship, pool, (a, b, c), games = played
    first = api.post(
        f"/api/games/{games[(a.name, b.name)].pk}/result/",
        {"decided_in": DecidedIn.FORFEIT, "forfeited_by": b.pk},
        format="json",
    )
    assert first.status_code == 200
    assert (first.json()["home_goals"], first.json()["away_goals"]) == (1, 0)
    assert GoalRecord.objects.get(game_id=first.json()["id"]).scorer == a.roster.get(captain=True).person
    second = api.post(
        f"/api/games/{games[(b.name, c.name)].pk}/result/",
        {"decided_in": DecidedIn.FORFEIT, "forfeited_by": b.pk},
        format="json",
    )
    assert second.status_code == 200
    assert Disqualification.objects.filter(entry=b).exists()
    rows = api.get(f"/api/pools/{pool.pk}/standings/").json()["rows"]
    assert rows[-1]["team"] == b.name and rows[-1]["disqualified"] is True


@pytest.mark.parametrize(
    ("body", "field", "rule"),
    [
        ({"home_goals": 2, "away_goals": 1, "decided_in": "overtime"}, "decided_in", "1.3 D"),
        ({"home_goals": "many", "away_goals": 1}, "home_goals", ""),
        ({"home_goals": 1, "away_goals": 0, "decided_in": "penalties"}, "decided_in", ""),
        ({"decided_in": "forfeit"}, "forfeited_by", "8.1 B"),
        ({"away_goals": 1}, "home_goals", ""),
    ],
)
def test_a_bad_result_is_a_400_naming_the_field(api, played, after_the_games, body, field, rule):
    championship, pool, (a, b, c), games = played
    game = games[(a.name, b.name)]
    goal_lines(game, 2, 1)
    response = api.post(f"/api/games/{game.pk}/result/", body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert rule in " ".join(response.json()[field])
    assert Game.objects.get(pk=game.pk).status == GameStatus.SCHEDULED


def test_a_malformed_body_is_a_400(api, played):
    championship, pool, (a, b, c), games = played
    response = api.post(
        f"/api/games/{games[(a.name, b.name)].pk}/result/", data="{not json", content_type="application/json"
    )
    assert response.status_code == 400


def test_moving_a_game_onto_its_teams_other_game_is_refused(api, played):
    championship, pool, (a, b, c), games = played
    game, other = games[(a.name, b.name)], games[(a.name, c.name)]
    response = api.post(f"/api/games/{game.pk}/move/", {"start_at": other.start_at.isoformat()}, format="json")
    assert response.status_code == 400
    assert f"game #{other.number}" in response.json()["start_at"][0]
    moved = api.post(f"/api/games/{game.pk}/move/", {"start_at": "2027-07-06T18:00:00+02:00"}, format="json")
    assert moved.status_code == 200
    assert moved.json()["local_start"] == "2027-07-06T18:00:00+02:00"


def test_summaries_go_through_the_rules(api, played, after_the_games):
    championship, pool, (a, b, c), games = played
    game = games[(a.name, b.name)]
    scorer, passer = [line.person for line in a.roster.order_by("number")[:2]]
    body = {"game": game.pk, "entry": a.pk, "scorer": scorer.pk, "assist": scorer.pk, "period": 1, "time_tenths": 60}
    response = api.post("/api/goals/", body, format="json")
    assert response.status_code == 400 and "5.5.11 C" in response.json()["assist"][0]
    response = api.post("/api/goals/", {**body, "assist": passer.pk}, format="json")
    assert response.status_code == 201
    penalty = {"game": game.pk, "entry": b.pk, "infraction_code": "tripping", "minutes": 3, "period": 1}
    response = api.post("/api/penalties/", {**penalty, "time_tenths": 100}, format="json")
    assert response.status_code == 400 and "R-21" in response.json()["minutes"][0]
    assert not PenaltyRecord.objects.exists()
    keeper = b.roster.get(position="goalkeeper", number="1").person
    line = {"entry": b.pk, "goalkeeper": keeper.pk, "shots_against": 10, "saves": 8, "goals_against": 1}
    response = api.post(f"/api/games/{game.pk}/goalkeeper-line/", line, format="json")
    assert response.status_code == 400 and "4.6" in response.json()["shots_against"][0]
    response = api.post(f"/api/games/{game.pk}/goalkeeper-line/", {**line, "saves": 9}, format="json")
    assert response.status_code == 200
    assert GoalkeeperRecord.objects.get(game=game).saves == 9


def test_the_standings_shootout_is_entered_only_for_teams_still_tied_9_3_g(api):
    championship = ChampionshipFactory()
    pool = make_pool(championship, 2)
    (a, b), games = round_robin_games(pool)
    finish(next(iter(games.values())), 2, 2)
    other = TeamEntryFactory(championship=championship)
    response = api.post(f"/api/pools/{pool.pk}/shootout/", {"entries": [b.pk, other.pk]}, format="json")
    assert response.status_code == 400 and "entries" in response.json()
    response = api.post(f"/api/pools/{pool.pk}/shootout/", {"entries": [b.pk, a.pk]}, format="json")
    assert response.status_code == 201
    assert [row["team"] for row in response.json()["rows"]] == [b.name, a.name]
    again = api.post(f"/api/pools/{pool.pk}/shootout/", {"entries": [a.pk, b.pk]}, format="json")
    assert again.status_code == 400 and "9.3 G" in again.json()["ordered_entries"][0]
    assert StandingsShootout.objects.count() == 1


def test_the_bracket_is_generated_and_filled(api):
    from .test_views import build_championship

    championship, _ = build_championship(8, with_summaries=False)
    response = api.post(f"/api/championships/{championship.pk}/generate-bracket/", {"qualifiers": 2}, format="json")
    assert response.status_code == 201
    semis = [g for g in response.json() if g["bracket_slot"].startswith("SF")]
    assert all(g["home"] and g["away"] for g in semis)
    again = api.post(f"/api/championships/{championship.pk}/generate-bracket/", {}, format="json")
    assert again.status_code == 400
    assert services.championship_has_begun(championship)


def test_ids_too_large_for_the_database_are_a_400(api, played):
    championship, pool, (a, b, c), games = played
    entry = a
    response = api.post(f"/api/entries/{entry.pk}/managers/", {"managers": [10**30]}, format="json")
    assert response.status_code == 400 and "managers" in response.json()
    response = api.post("/api/roster-entries/", {"entry": entry.pk, "person": 10**30, "number": "5"}, format="json")
    assert response.status_code == 400 and "person" in response.json()
    game = games[(a.name, b.name)]
    body = {"entry": b.pk, "goalkeeper": 1, "shots_against": 10**6, "saves": 0, "goals_against": 0}
    response = api.post(f"/api/games/{game.pk}/goalkeeper-line/", body, format="json")
    assert response.status_code == 400 and "shots_against" in response.json()
