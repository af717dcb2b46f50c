"""Setting up venues, rinks and pools through the API: the services' checks (2.1, 1.3 B) and who may."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from drf_spectacular.generators import SchemaGenerator

from accounts.models import Role
from tests.factories import (
    ChampionshipFactory,
    FederationFactory,
    GameFactory,
    PoolFactory,
    RinkFactory,
    SuperuserFactory,
    TeamEntryFactory,
    VenueFactory,
    client_for,
    federation_staff,
    international_staff,
    with_role,
)
from tournaments import services
from tournaments.models import EntryStatus, Game, GameStatus, Pool, Rink, Venue

pytestmark = pytest.mark.django_db


@pytest.fixture
def italy():
    return FederationFactory(country="IT")


@pytest.fixture
def keeper(italy):
    """Staff of Italy's national federation: they keep the venues in Italy."""
    return client_for(federation_staff(italy))


@pytest.fixture
def venue(italy):
    return VenueFactory(country="IT")


def rink_data(venue, **changes):
    return {
        "venue": venue.pk,
        "name": "Rink A",
        "surface": "sport_tile",
        "length_m": "50.00",
        "width_m": "25.00",
        "board_height_m": "1.070",
        "corner_radius_m": "5.00",
        **changes,
    }


# --- venues ---------------------------------------------------------------------------------------------------------


def test_national_staff_set_up_a_venue_in_their_country(keeper):
    response = keeper.post(
        "/api/venues/",
        {"name": "PalaRoller", "city": "Roccaraso", "country": "IT", "time_zone": "Europe/Rome"},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["rinks"] == []
    assert Venue.objects.get(pk=response.json()["id"]).history.latest().history_user is not None


def test_a_venue_in_another_country_is_refused_to_national_staff(keeper):
    response = keeper.post(
        "/api/venues/",
        {"name": "Halle", "city": "Berlin", "country": "DE", "time_zone": "Europe/Berlin"},
        format="json",
    )
    assert response.status_code == 403
    assert not Venue.objects.filter(city="Berlin").exists()


@pytest.mark.parametrize(
    "user", [lambda: with_role(Role.TEAM_MANAGER), lambda: with_role(Role.GAME_OFFICIAL), lambda: None]
)
def test_nobody_else_sets_up_venues(user):
    response = client_for(user()).post(
        "/api/venues/", {"name": "X", "city": "Y", "country": "IT", "time_zone": "Europe/Rome"}, format="json"
    )
    assert response.status_code == 403


def test_a_bad_time_zone_and_a_taken_name_are_refused_naming_the_field(keeper, venue):
    bad = keeper.post(
        "/api/venues/", {"name": "New", "city": "Roccaraso", "country": "IT", "time_zone": "Rome"}, format="json"
    )
    assert bad.status_code == 400 and "time_zone" in bad.json()
    taken = keeper.post(
        "/api/venues/",
        {"name": venue.name, "city": venue.city, "country": "IT", "time_zone": "Europe/Rome"},
        format="json",
    )
    assert taken.status_code == 400 and "name" in taken.json()


def test_a_venue_changes_for_its_keepers_and_refuses_unknown_fields(keeper, venue):
    response = keeper.patch(f"/api/venues/{venue.pk}/", {"city": "L'Aquila"}, format="json")
    assert response.status_code == 200 and response.json()["city"] == "L'Aquila"
    unknown = keeper.patch(f"/api/venues/{venue.pk}/", {"capacity": 3000}, format="json")
    assert unknown.status_code == 400 and "capacity" in unknown.json()
    # Moving it abroad needs the right there too.
    abroad = keeper.patch(f"/api/venues/{venue.pk}/", {"country": "DE"}, format="json")
    assert abroad.status_code == 403
    assert Venue.objects.get(pk=venue.pk).country == "IT"


# --- a venue a championship uses: its directors' (issue 23) ------------------------------------------------------------


def test_national_staff_do_not_change_the_venue_of_a_championship_they_do_not_direct(keeper, venue):
    """The probe: Italy's staff moved the World Championship's venue to Pacific/Kiritimati (every game's local
    start 12 hours off), renamed it and added a rink. The championship's directors (its international sanctioning
    body's staff) and international staff change it; national staff of the venue's country do not."""
    rink = RinkFactory(venue=venue)
    ChampionshipFactory(venue=venue)  # sanctioned by an international federation
    before = (venue.name, venue.time_zone)
    assert (
        keeper.patch(f"/api/venues/{venue.pk}/", {"time_zone": "Pacific/Kiritimati"}, format="json").status_code == 403
    )
    assert keeper.patch(f"/api/venues/{venue.pk}/", {"name": "Renamed"}, format="json").status_code == 403
    assert keeper.post("/api/rinks/", rink_data(venue, name="Extra"), format="json").status_code == 403
    assert keeper.patch(f"/api/rinks/{rink.pk}/", {"name": "Mine"}, format="json").status_code == 403
    venue.refresh_from_db()
    assert (venue.name, venue.time_zone) == before
    assert [r.name for r in venue.rinks.all()] == [rink.name]
    director = client_for(international_staff())
    assert director.patch(f"/api/venues/{venue.pk}/", {"name": "Renamed"}, format="json").status_code == 200
    assert director.post("/api/rinks/", rink_data(venue, name="Extra"), format="json").status_code == 201


def test_the_directors_of_a_national_championship_change_its_venue_wherever_it_is(italy, keeper, venue):
    """Staff of the sanctioning body direct the championship and change its venue, even in another country; with
    a second championship of another body there, the venue is changed by the directors of both (or the IHTC)."""
    ChampionshipFactory(venue=venue, sanctioning_body=italy, level="national")
    assert keeper.patch(f"/api/venues/{venue.pk}/", {"city": "L'Aquila"}, format="json").status_code == 200
    abroad = VenueFactory(country="DE")
    ChampionshipFactory(venue=abroad, sanctioning_body=italy, level="national")
    assert keeper.patch(f"/api/venues/{abroad.pk}/", {"city": "Bonn"}, format="json").status_code == 200
    other = FederationFactory(country="FR")
    ChampionshipFactory(venue=venue, sanctioning_body=other, level="national")
    refused = keeper.patch(f"/api/venues/{venue.pk}/", {"city": "Pescara"}, format="json")
    assert refused.status_code == 403
    assert client_for(federation_staff(other)).patch(f"/api/venues/{venue.pk}/", {"city": "Pescara"}).status_code == 403
    assert Venue.objects.get(pk=venue.pk).city == "L'Aquila"


def _started(game, how):
    """Start ``game`` the way ``how`` says: its live sheet opened, its result final, or its scheduled time past."""
    from games.models import GameSheet

    if how == "live sheet":
        GameSheet.objects.create(
            game=game, teams={}, game_type="round_robin", opened_at=game.start_at, opened_by=SuperuserFactory()
        )
    elif how == "final":
        Game.objects.filter(pk=game.pk).update(status=GameStatus.FINAL, home_goals=2, away_goals=1)
    else:
        Game.objects.filter(pk=game.pk).update(start_at=game.start_at.replace(year=2020))


@pytest.mark.parametrize("how", ["live sheet", "final", "scheduled time past"])
def test_the_time_zone_stays_once_a_game_at_the_venue_has_started(venue, how):
    director = client_for(international_staff())
    championship = ChampionshipFactory(venue=venue)
    first = GameFactory(championship=championship)
    # Before any game has started, the directors may still correct it.
    assert director.patch(f"/api/venues/{venue.pk}/", {"time_zone": "Europe/Zurich"}).status_code == 200
    _started(first, how)
    response = director.patch(f"/api/venues/{venue.pk}/", {"time_zone": "Pacific/Kiritimati"}, format="json")
    assert response.status_code == 400
    (message,) = response.json()["time_zone"]
    assert message.startswith("Portal rule (venue time zone, 5.4 B)") and f"game #{first.number}" in message
    assert Venue.objects.get(pk=venue.pk).time_zone == "Europe/Zurich"
    # The same zone again, and the other fields, still change.
    same = director.patch(f"/api/venues/{venue.pk}/", {"time_zone": "Europe/Zurich", "city": "Chieti"})
    assert same.status_code == 200 and same.json()["city"] == "Chieti"


def test_a_game_on_the_venues_rink_for_a_championship_held_elsewhere_freezes_it_too(venue):
    rink = RinkFactory(venue=venue)
    game = GameFactory(rink=rink)  # its championship names another venue
    _started(game, "final")
    with pytest.raises(ValidationError) as exc:
        services.venue_update(venue=venue, time_zone="Asia/Tokyo", by=SuperuserFactory())
    assert list(exc.value.message_dict) == ["time_zone"]


# --- rinks ----------------------------------------------------------------------------------------------------------


def test_a_rink_within_2_1_is_added_and_listed_publicly(keeper, venue):
    response = keeper.post("/api/rinks/", rink_data(venue), format="json")
    assert response.status_code == 201, response.content
    assert response.json()["length_m"] == "50.00" and response.json()["venue"] == venue.pk
    listed = client_for(None).get(f"/api/rinks/?venue={venue.pk}")
    assert [r["name"] for r in listed.json()["results"]] == ["Rink A"]


@pytest.mark.parametrize(
    "changes, field, article, unit",
    [
        ({"length_m": "39.00"}, "length_m", "Rule 2.1 B", "39 m"),
        ({"length_m": "61.00"}, "length_m", "Rule 2.1 B", "61 m"),
        ({"width_m": "19.50"}, "width_m", "Rule 2.1 B", "19.5 m"),
        ({"board_height_m": "1.300"}, "board_height_m", "Rule 2.1 E", "130 cm"),
        ({"surface": "other"}, "surface", "Rule 2.1 A", "IHTC"),
    ],
)
def test_a_rink_outside_2_1_is_refused_naming_the_field_the_article_and_the_unit(
    keeper, venue, changes, field, article, unit
):
    response = keeper.post("/api/rinks/", rink_data(venue, **changes), format="json")
    assert response.status_code == 400
    (message,) = response.json()[field]
    assert message.startswith(article) and unit in message
    assert not Rink.objects.filter(venue=venue).exists()


def test_only_the_ihtc_records_the_approval_of_another_surface(keeper, venue):
    """2.1 A: "any appropriate surface approved by the IHTC"; national staff cannot record that approval."""
    data = rink_data(venue, surface="other", surface_approved_by_ihtc=True)
    refused = keeper.post("/api/rinks/", data, format="json")
    assert refused.status_code == 400 and "Rule 2.1 A" in refused.json()["surface_approved_by_ihtc"][0]
    approved = client_for(international_staff()).post("/api/rinks/", data, format="json")
    assert approved.status_code == 201


def test_a_measurement_with_too_many_decimals_is_refused_naming_it(keeper, venue):
    response = keeper.post("/api/rinks/", rink_data(venue, board_height_m="1.0705"), format="json")
    assert response.status_code == 400 and "board_height_m" in response.json()


def test_a_rink_change_is_checked_against_2_1_and_stored_only_when_it_passes(keeper, venue):
    rink = RinkFactory(venue=venue)
    assert keeper.patch(f"/api/rinks/{rink.pk}/", {"name": "Centre"}, format="json").status_code == 200
    refused = keeper.patch(f"/api/rinks/{rink.pk}/", {"width_m": "31.00", "name": "Other"}, format="json")
    assert refused.status_code == 400 and refused.json()["width_m"][0].startswith("Rule 2.1 B")
    stored = Rink.objects.get(pk=rink.pk)
    assert (stored.name, stored.width_m) == ("Centre", Decimal("25.00"))
    moved = keeper.patch(f"/api/rinks/{rink.pk}/", {"venue": VenueFactory(country="IT").pk}, format="json")
    assert moved.status_code == 400 and "venue" in moved.json()


def test_a_rink_that_hosts_world_games_keeps_the_world_minimum(venue):
    """2.1 C: 50 x 25 m for a World Championship; a continental rink of 45 m cannot host its games."""
    director = client_for(international_staff())  # the World Championship's sanctioning body is international
    rink = RinkFactory(venue=venue)
    championship = ChampionshipFactory(venue=venue, level="world")
    GameFactory(championship=championship, rink=rink)
    response = director.patch(f"/api/rinks/{rink.pk}/", {"length_m": "45.00"}, format="json")
    assert response.status_code == 400
    (message,) = response.json()["length_m"]
    assert message.startswith("Rule 2.1 C") and "50 m" in message and championship.name in message
    assert Rink.objects.get(pk=rink.pk).length_m == Decimal("50.00")
    # Without games on it, the same rink may be made continental size.
    spare = RinkFactory(venue=venue)
    assert director.patch(f"/api/rinks/{spare.pk}/", {"length_m": "45.00"}, format="json").status_code == 200


def test_rinks_of_another_country_are_not_changed_by_national_staff(keeper):
    rink = RinkFactory(venue=VenueFactory(country="DE"))
    assert keeper.patch(f"/api/rinks/{rink.pk}/", {"name": "Mine"}, format="json").status_code == 403
    assert keeper.post("/api/rinks/", rink_data(rink.venue, name="Mine"), format="json").status_code == 403


# --- pools ----------------------------------------------------------------------------------------------------------


@pytest.fixture
def national(italy):
    """A championship Italy's federation sanctions: its staff direct it."""
    return ChampionshipFactory(sanctioning_body=italy, level="national")


def test_directors_add_and_rename_pools(keeper, national):
    created = keeper.post("/api/pools/", {"championship": national.pk, "name": "A"}, format="json")
    assert created.status_code == 201 and created.json()["teams"] == []
    renamed = keeper.patch(f"/api/pools/{created.json()['id']}/", {"name": "B"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "B"


def test_a_pool_name_is_unique_in_its_championship(keeper, national):
    PoolFactory(championship=national, name="A")
    response = keeper.post("/api/pools/", {"championship": national.pk, "name": " A "}, format="json")
    assert response.status_code == 400 and "exists already" in response.json()["name"][0]


def test_others_add_no_pool(national):
    for user in (federation_staff(FederationFactory()), with_role(Role.TEAM_MANAGER)):
        response = client_for(user).post("/api/pools/", {"championship": national.pk, "name": "A"}, format="json")
        assert response.status_code == 403
    assert not Pool.objects.filter(championship=national).exists()


def test_a_pool_with_games_keeps_its_name(keeper, national):
    """1.3 B: the bracket names its teams by pool ("1A"); once the pool's games exist it is not renamed."""
    pool = PoolFactory(championship=national, name="A")
    GameFactory(championship=national, pool=pool)
    response = keeper.patch(f"/api/pools/{pool.pk}/", {"name": "B"}, format="json")
    assert response.status_code == 400 and "schedule exists" in response.json()["name"][0]
    assert Pool.objects.get(pk=pool.pk).name == "A"


def test_no_pool_is_added_to_a_draft_someone_may_not_see(italy):
    draft = ChampionshipFactory(published=False, sanctioning_body=italy)
    outsider = client_for(federation_staff(FederationFactory()))
    response = outsider.post("/api/pools/", {"championship": draft.pk, "name": "A"}, format="json")
    assert response.status_code == 400 and "championship" in response.json()
    director = client_for(federation_staff(italy))
    assert director.post("/api/pools/", {"championship": draft.pk, "name": "A"}, format="json").status_code == 201


# --- the schema -----------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


SETUP_OPERATIONS = [
    ("/api/v1/venues/", "post"),
    ("/api/v1/venues/{id}/", "patch"),
    ("/api/v1/rinks/", "get"),
    ("/api/v1/rinks/", "post"),
    ("/api/v1/rinks/{id}/", "get"),
    ("/api/v1/rinks/{id}/", "patch"),
    ("/api/v1/pools/", "post"),
    ("/api/v1/pools/{id}/", "patch"),
    ("/api/v1/pools/{id}/teams/", "post"),
    ("/api/v1/championships/{id}/publish/", "post"),
]


@pytest.mark.parametrize("path, method", SETUP_OPERATIONS)
def test_each_set_up_operation_has_a_summary_and_a_description(schema, path, method):
    operation = schema["paths"][path][method]
    assert operation.get("summary") and operation.get("description"), (path, method)


def test_rink_measurements_say_their_unit_and_article_in_the_schema(schema):
    for component in ("RinkInputRequest", "PatchedRinkUpdateRequest", "RinkDetail", "Rink"):
        properties = schema["components"]["schemas"][component]["properties"]
        for name in ("length_m", "width_m", "board_height_m"):
            text = properties[name]["description"]
            assert "metres (m)" in text and "Rule 2.1" in text, (component, name)


def test_directors_put_confirmed_teams_in_a_pool(keeper, national):
    pool = PoolFactory(championship=national, name="A")
    entry = TeamEntryFactory(championship=national)
    response = keeper.post(f"/api/pools/{pool.pk}/teams/", {"entry": entry.pk, "seed": 1}, format="json")
    assert response.status_code == 201
    assert response.json()["teams"] == [{"entry": entry.pk, "name": entry.name, "display_name": entry.name, "seed": 1}]


def test_a_pool_takes_no_unconfirmed_team_nor_one_of_another_championship(keeper, national):
    """1.1 A: a team plays once its entry fee is paid (confirmed)."""
    pool = PoolFactory(championship=national, name="A")
    unpaid = TeamEntryFactory(championship=national, status=EntryStatus.ENTERED, fee_paid=False, fee_paid_amount=None)
    refused = keeper.post(f"/api/pools/{pool.pk}/teams/", {"entry": unpaid.pk}, format="json")
    assert refused.status_code == 400 and refused.json()["entry"][0].startswith("Rule 1.1 A")
    elsewhere = TeamEntryFactory()
    missing = keeper.post(f"/api/pools/{pool.pk}/teams/", {"entry": elsewhere.pk}, format="json")
    assert missing.status_code == 400 and "entry" in missing.json()
    assert not pool.members.exists()
