"""The tournament admin loads, and its forms refuse what the services refuse (same check functions)."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.factories import (
    ChampionshipFactory,
    FederationFactory,
    GameFactory,
    PassportFactory,
    PersonFactory,
    RinkFactory,
    RosterEntryFactory,
    TeamEntryFactory,
    VenueFactory,
)
from tournaments import services
from tournaments.models import GameStatus, GoalRecord, Rink, RosterEntry, TeamEntry

from .conftest import full_roster, goal_lines, make_pool, round_robin_games
from .test_views import finish

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, director):
    client.force_login(director)
    return client


@pytest.mark.parametrize(
    "model", ["venue", "championship", "teamentry", "rosterentry", "game", "pool", "disqualification"]
)
def test_changelists_load(staff_client, championship, model):
    pool = make_pool(championship, 2)
    round_robin_games(pool)
    response = staff_client.get(reverse(f"admin:tournaments_{model}_changelist"))
    assert response.status_code == 200


def test_the_venue_page_shows_each_rinks_conformity_per_level_2_1(staff_client, championship):
    RinkFactory(venue=championship.venue, name="Small", length_m=Decimal("44.00"), width_m=Decimal("22.00"))
    response = staff_client.get(reverse("admin:tournaments_venue_change", args=[championship.venue.pk]))
    assert response.status_code == 200
    text = response.content.decode()
    assert "Rule 2.1 C" in text and "cannot host" in text


def test_the_entry_page_shows_every_players_eligibility(staff_client, entry):
    full_roster(entry)
    stranger = PersonFactory(federation=entry.federation)  # no passport: 1.1 B
    RosterEntryFactory(entry=entry, person=stranger, number="77")
    response = staff_client.get(reverse("admin:tournaments_teamentry_change", args=[entry.pk]))
    assert response.status_code == 200
    text = response.content.decode()
    assert "not eligible" in text and "1.1 B" in text


def test_the_entry_form_refuses_a_federation_not_in_good_standing_1_1_a(staff_client, championship):
    federation = FederationFactory(good_standing=False)
    response = staff_client.post(
        reverse("admin:tournaments_teamentry_add"),
        {
            "championship": championship.pk,
            "federation": federation.pk,
            "name": "Team",
            "roster-TOTAL_FORMS": "0",
            "roster-INITIAL_FORMS": "0",
            "officials-TOTAL_FORMS": "0",
            "officials-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 200
    assert "Rule 1.1 A" in response.content.decode()
    assert not TeamEntry.objects.exists()


def test_the_roster_form_refuses_a_leading_zero_3_2_9_c(staff_client, entry):
    person = PersonFactory(federation=entry.federation)
    PassportFactory(person=person)
    url = reverse("admin:tournaments_rosterentry_add")
    data = {"entry": entry.pk, "person": person.pk, "number": "07", "position": "player"}
    response = staff_client.post(url, data)
    assert response.status_code == 200
    assert "Rule 3.2.9 C" in response.content.decode()
    assert not RosterEntry.objects.exists()
    response = staff_client.post(url, {**data, "number": "7"})
    assert response.status_code == 302
    assert RosterEntry.objects.get().number == "7"


def _game_data(game, **changes):
    local = game.start_at.astimezone(datetime.UTC)
    data = {
        "start_at_0": local.strftime("%Y-%m-%d"),
        "start_at_1": local.strftime("%H:%M:%S"),
        "rink": game.rink_id or "",
        "home_goals": "",
        "away_goals": "",
        "decided_in": "",
        "forfeited_by": "",
        "shootout_home_goals": "",
        "shootout_away_goals": "",
    }
    for prefix in ("goals", "penalties", "goalkeeper_records"):
        data[f"{prefix}-TOTAL_FORMS"] = "0"
        data[f"{prefix}-INITIAL_FORMS"] = "0"
    data.update(changes)
    return data


def test_the_game_form_records_a_result_through_the_service(after_the_games, staff_client, championship, settings):
    settings.TIME_ZONE = "UTC"
    pool = make_pool(championship, 2)
    (a, b), games = round_robin_games(pool)
    game = games[(a.name, b.name)]
    goal_lines(game, 3, 2)
    url = reverse("admin:tournaments_game_change", args=[game.pk])
    assert staff_client.get(url).status_code == 200
    response = staff_client.post(url, _game_data(game, home_goals="3", away_goals="2", decided_in="overtime"))
    assert response.status_code == 200
    assert "Rule 1.3 D" in response.content.decode()
    response = staff_client.post(url, _game_data(game, home_goals="3", away_goals="2", decided_in="regulation"))
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.status, game.home_goals, game.away_goals) == (GameStatus.FINAL, 3, 2)


def test_the_goal_inline_refuses_an_assist_on_an_own_goal(after_the_games, staff_client, championship, settings):
    settings.TIME_ZONE = "UTC"
    a = TeamEntryFactory(championship=championship)
    game = GameFactory(championship=championship, home=a)
    skaters = [line.person for line in full_roster(a)]
    data = _game_data(
        game,
        **{
            "goals-TOTAL_FORMS": "1",
            "goals-0-entry": a.pk,
            "goals-0-scorer": skaters[1].pk,
            "goals-0-assist": skaters[2].pk,
            "goals-0-period": "1",
            "goals-0-time_tenths": "100",
            "goals-0-own_goal": "on",
        },
    )
    response = staff_client.post(reverse("admin:tournaments_game_change", args=[game.pk]), data)
    assert response.status_code == 200
    assert "Rule 5.5.11 D" in response.content.decode()
    assert not GoalRecord.objects.exists()


def test_the_entry_form_enters_a_team_through_the_service(staff_client, championship, director):
    federation = FederationFactory()
    response = staff_client.post(
        reverse("admin:tournaments_teamentry_add"),
        {
            "championship": championship.pk,
            "federation": federation.pk,
            "name": "Team",
            "managers": [director.pk],
            "roster-TOTAL_FORMS": "0",
            "roster-INITIAL_FORMS": "0",
            "officials-TOTAL_FORMS": "0",
            "officials-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302
    entry = TeamEntry.objects.get()
    assert entry.fee_due == championship.entry_fee and entry.entered_by == director
    assert list(entry.managers.all()) == [director]


def test_the_roster_form_refuses_a_number_change_after_registration_3_2_9_d(staff_client, entry):
    line = RosterEntryFactory(entry=entry, number="9", confirmed=True)
    response = staff_client.post(
        reverse("admin:tournaments_rosterentry_change", args=[line.pk]),
        {"entry": entry.pk, "person": line.person_id, "number": "19", "position": "player"},
    )
    assert response.status_code == 200
    assert "Rule 3.2.9 D" in response.content.decode()
    line.refresh_from_db()
    assert line.number == "9"


def test_the_championship_form_refuses_entries_closing_after_the_start_1_1_a(staff_client, championship):
    data = {
        "name": "Euro 2027",
        "category": "senior_men",
        "level": "continental",
        "start_date": "2027-07-01",
        "end_date": "2027-07-10",
        "venue": championship.venue.pk,
        "entry_closing_date": "2027-07-05",
        "entry_fee": "500",
        "entry_fee_currency": "usd",
        "sanctioning_body": championship.sanctioning_body.pk,
        "ruleset": "{}",
        "standings_preset": "firs-2017",
        "pools-TOTAL_FORMS": "0",
        "pools-INITIAL_FORMS": "0",
        "entries-TOTAL_FORMS": "0",
        "entries-INITIAL_FORMS": "0",
    }
    url = reverse("admin:tournaments_championship_add")
    response = staff_client.post(url, data)
    assert response.status_code == 200
    assert "Rule 1.1 A: entries close before the championship starts" in response.content.decode()
    response = staff_client.post(url, {**data, "ruleset": '{"roster": {"max_skaters": "many"}}'})
    assert "roster.max_skaters" in response.content.decode()
    response = staff_client.post(url, {**data, "entry_closing_date": "2027-05-01"})
    assert response.status_code == 302


def _championship_admin_data(championship, **changes):
    data = {
        "name": championship.name,
        "category": championship.category,
        "level": championship.level,
        "start_date": championship.start_date.isoformat(),
        "end_date": championship.end_date.isoformat(),
        "venue": championship.venue.pk,
        "entry_closing_date": championship.entry_closing_date.isoformat(),
        "entry_fee": "500",
        "entry_fee_currency": "USD",
        "sanctioning_body": championship.sanctioning_body.pk,
        "ruleset": "{}",
        "standings_preset": championship.standings_preset,
        "pools-TOTAL_FORMS": "0",
        "pools-INITIAL_FORMS": "0",
        "entries-TOTAL_FORMS": "0",
        "entries-INITIAL_FORMS": "0",
    }
    data.update(changes)
    return data


def test_the_championship_admin_saves_through_the_service(staff_client, championship, director):
    url = reverse("admin:tournaments_championship_change", args=[championship.pk])
    response = staff_client.post(url, _championship_admin_data(championship, name="Renamed", entry_fee="650"))
    assert response.status_code == 302
    championship.refresh_from_db()
    assert championship.name == "Renamed" and championship.entry_fee.amount == Decimal("650")
    assert championship.history.first().history_user == director


def test_the_championship_admin_shows_the_frozen_ruleset_and_stores_nothing_3_1_1_b(staff_client, championship):
    pool = make_pool(championship, 2)
    _, games = round_robin_games(pool)
    finish(next(iter(games.values())), 1, 0)
    url = reverse("admin:tournaments_championship_change", args=[championship.pk])
    data = _championship_admin_data(championship, name="Renamed", ruleset='{"roster": {"max_skaters": 12}}')
    response = staff_client.post(url, data)
    assert response.status_code == 200
    assert "frozen once the championship has begun" in response.content.decode()
    championship.refresh_from_db()
    assert championship.ruleset == {} and championship.name != "Renamed"


def test_the_championship_admin_refuses_an_unknown_currency(staff_client, championship):
    url = reverse("admin:tournaments_championship_change", args=[championship.pk])
    response = staff_client.post(url, _championship_admin_data(championship, entry_fee_currency="ABC"))
    assert response.status_code == 200
    assert "PORTAL_CURRENCIES" in response.content.decode()  # issue 26: the portal's currencies only
    championship.refresh_from_db()
    assert str(championship.entry_fee.currency) == "USD"


def _venue_data(venue, **rink):
    data = {
        "name": venue.name,
        "city": venue.city,
        "country": venue.country.code,
        "time_zone": venue.time_zone,
        "rinks-TOTAL_FORMS": "1",
        "rinks-INITIAL_FORMS": "0",
        "rinks-MIN_NUM_FORMS": "0",
        "rinks-MAX_NUM_FORMS": "1000",
    }
    data.update({f"rinks-0-{name}": value for name, value in rink.items()})
    return data


def test_the_rink_inline_refuses_what_the_rink_services_refuse_2_1_b(staff_client, championship):
    """The admin's rink form calls ``services.check_rink``, as the API does: a 39 m rink is refused (2.1 B)."""
    venue = championship.venue
    rink = {"name": "Short", "surface": "sport_tile", "length_m": "39.00", "width_m": "20.00"}
    response = staff_client.post(reverse("admin:tournaments_venue_change", args=[venue.pk]), _venue_data(venue, **rink))
    assert response.status_code == 200
    assert "Rule 2.1 B" in response.content.decode()
    assert not venue.rinks.exists()
    rink["length_m"] = "40.00"
    saved = staff_client.post(reverse("admin:tournaments_venue_change", args=[venue.pk]), _venue_data(venue, **rink))
    assert saved.status_code == 302
    assert venue.rinks.get().length_m == Decimal("40.00")


def test_the_venue_admin_refuses_a_new_time_zone_once_a_game_there_has_started(staff_client, championship):
    """Saved through ``services.venue_update``: the portal rule (5.4 B) holds for the superuser too."""
    venue = championship.venue
    GameFactory(championship=championship, status=GameStatus.FINAL, home_goals=1, away_goals=0)
    url = reverse("admin:tournaments_venue_change", args=[venue.pk])
    data = {**_venue_data(venue), "rinks-TOTAL_FORMS": "0", "time_zone": "Pacific/Kiritimati"}
    response = staff_client.post(url, data)
    assert response.status_code == 200
    assert "Portal rule (venue time zone, 5.4 B)" in response.content.decode()
    venue.refresh_from_db()
    assert venue.time_zone == "Europe/Rome"
    # Its name still changes, through the services (the history names who changed it).
    saved = staff_client.post(url, {**data, "time_zone": "Europe/Rome", "name": "Renamed"})
    assert saved.status_code == 302
    venue.refresh_from_db()
    assert venue.name == "Renamed" and venue.history.latest().history_user is not None


def test_the_venue_admin_removes_a_rink_through_the_services_and_keeps_one_with_games(staff_client, director):
    venue = VenueFactory()
    spare, busy = RinkFactory(venue=venue, name="Spare"), RinkFactory(venue=venue, name="Busy")
    GameFactory(championship=ChampionshipFactory(venue=venue), rink=busy)
    url = reverse("admin:tournaments_venue_change", args=[venue.pk])
    data = {**_venue_data(venue), "rinks-TOTAL_FORMS": "2", "rinks-INITIAL_FORMS": "2"}
    for i, rink in enumerate([spare, busy]):
        data.update(
            {
                f"rinks-{i}-id": rink.pk,
                f"rinks-{i}-venue": venue.pk,
                f"rinks-{i}-name": rink.name,
                f"rinks-{i}-surface": rink.surface,
                f"rinks-{i}-length_m": rink.length_m,
                f"rinks-{i}-width_m": rink.width_m,
                f"rinks-{i}-board_height_m": rink.board_height_m,
                f"rinks-{i}-corner_radius_m": rink.corner_radius_m,
            }
        )
    refused = staff_client.post(url, {**data, "rinks-1-DELETE": "on"})
    assert refused.status_code == 200  # the admin's own check: a game is scheduled on it
    assert venue.rinks.count() == 2
    removed = staff_client.post(url, {**data, "rinks-0-DELETE": "on"})
    assert removed.status_code == 302
    assert [r.name for r in venue.rinks.all()] == ["Busy"]
    assert Rink.history.filter(id=spare.pk, history_type="-").get().history_user == director


def test_rink_delete_refuses_a_rink_games_are_scheduled_on_2_1_f(director):
    rink = RinkFactory()
    game = GameFactory(championship=ChampionshipFactory(venue=rink.venue), rink=rink)
    with pytest.raises(ValidationError) as exc:
        services.rink_delete(rink=rink, by=director)
    assert exc.value.message_dict["rink"][0].startswith(f"Rule 2.1 F: game #{game.number}")
    assert Rink.objects.filter(pk=rink.pk).exists()
