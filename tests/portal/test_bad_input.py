"""Bad input to the API is a 400 naming the field, never a 500 (ids, datetimes, nesting, empty relations)."""

import pytest

from federation.api_urls import router as federation_router
from tests.factories import (
    EquipmentModelFactory,
    GameFactory,
    PersonFactory,
    ProtectiveDeviceRequestFactory,
    SuperuserFactory,
    client_for,
)
from tournaments.api_urls import router as tournaments_router
from tournaments.models import GoalRecord

pytestmark = pytest.mark.django_db

TOO_BIG = "99999999999999999999"


@pytest.mark.parametrize(
    ("url", "field"),
    [
        ("/api/equipment-inspections/", "person"),
        ("/api/passports/", "person"),
        ("/api/eligibility-waivers/", "person"),
        ("/api/device-requests/", "person"),
        ("/api/device-requests/", "federation"),
        ("/api/people/", "federation"),
        ("/api/federations/", "parent"),
        ("/api/games/", "championship"),
        ("/api/games/", "team"),
        ("/api/goals/", "scorer"),
        ("/api/entries/", "championship"),
    ],
)
def test_an_id_filter_beyond_the_database_range_is_a_400_naming_the_field(url, field):
    response = client_for(SuperuserFactory()).get(url, {field: TOO_BIG})
    assert response.status_code == 400
    assert field in response.json()


def test_no_filter_of_any_api_list_answers_a_500_for_a_value_out_of_range():
    client = client_for(SuperuserFactory())
    out_of_range = [TOO_BIG, f"-{TOO_BIG}", "0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "0001-01-01"]
    server_errors = []
    for router in (federation_router, tournaments_router):
        for prefix, viewset, _basename in router.registry:
            filterset = getattr(viewset, "filterset_class", None)
            for name in filterset.base_filters if filterset else ():
                for value in out_of_range:
                    status = client.get(f"/api/{prefix}/", {name: value}).status_code
                    if status >= 500:
                        server_errors.append((prefix, name, value, status))
    assert server_errors == []


def test_a_datetime_filter_that_cannot_be_converted_to_utc_is_a_400_naming_the_field():
    response = client_for(None).get("/api/games/", {"starts_after": "0001-01-01T00:00:00+14:00"})
    assert response.status_code == 400
    assert "starts_after" in response.json()


def test_an_undecided_device_request_answers_null_for_who_decided():
    device_request = ProtectiveDeviceRequestFactory(decided_by=None)
    response = client_for(SuperuserFactory()).get(f"/api/device-requests/{device_request.pk}/")
    assert response.status_code == 200
    assert response.json()["decided_by"] is None


def test_an_unapproved_equipment_model_answers_null_for_who_approved():
    model = EquipmentModelFactory(approved_by=None)
    response = client_for(SuperuserFactory()).get(f"/api/equipment-models/{model.pk}/")
    assert response.status_code == 200
    assert response.json()["approved_by"] is None


def test_an_unassisted_goal_answers_null_for_the_assist_name():
    game = GameFactory()
    goal = GoalRecord.objects.create(
        game=game, entry=game.home, scorer=PersonFactory(federation=game.home.federation), period=1, time_tenths=600
    )
    response = client_for(SuperuserFactory()).get(f"/api/goals/{goal.pk}/")
    assert response.status_code == 200
    assert response.json()["assist_name"] is None


@pytest.mark.parametrize("url", ["/api/people/", "/api/equipment-models/", "/api/device-requests/"])
def test_a_deeply_nested_json_body_is_a_400_not_a_recursion_error(url):
    body = "[" * 5000 + "]" * 5000
    response = client_for(SuperuserFactory()).post(url, body, content_type="application/json")
    assert response.status_code == 400
    assert "detail" in response.json()
    assert "nested" in response.json()["detail"].lower()


def test_the_people_screen_with_a_federation_id_beyond_the_database_range_answers_without_a_500(client):
    client.force_login(SuperuserFactory())
    response = client.get("/federation/people/", {"federation": TOO_BIG})
    assert response.status_code in (200, 400)


# --- query parameters: every refusal names the parameter (issue 23) --------------------------------------------


def test_a_nul_in_search_is_a_400_naming_search():
    response = client_for(SuperuserFactory()).get("/api/entries/", {"search": "a\x00b"})
    assert response.status_code == 400
    assert response.json() == {"search": ["Null characters are not allowed."]}


@pytest.mark.parametrize(
    ("url", "query", "parameter"),
    [
        ("/api/championships/", {"starts_before": ""}, "starts_before"),
        ("/api/games/", {"starts_before": ""}, "starts_before"),
        ("/api/entries/", {"fee_paid": "null"}, "fee_paid"),
        ("/api/entries/", {"fee_paid": ""}, "fee_paid"),
        ("/api/entries/", {"championship": ""}, "championship"),
        ("/api/entries/", {"championship": "٣"}, "championship"),
        ("/api/entries/", {"championship": "²"}, "championship"),
        ("/api/games/", {"team": "٣"}, "team"),
        ("/api/games/", {"team": "1.5"}, "team"),
        ("/api/championships/", {"year": "٢٠٢٧"}, "year"),
        ("/api/people/", {"federation": "١"}, "federation"),
        ("/api/lineups/", {"game": "٣"}, "game"),
    ],
)
def test_a_query_value_the_schema_does_not_allow_is_a_400_naming_the_parameter(url, query, parameter):
    response = client_for(SuperuserFactory()).get(url, query)
    assert response.status_code == 400, response.content[:200]
    assert list(response.json()) == [parameter]


def test_a_query_value_the_schema_allows_still_filters():
    client = client_for(SuperuserFactory())
    game = GameFactory()
    assert client.get("/api/entries/", {"fee_paid": "false"}).status_code == 200
    response = client.get("/api/games/", {"team": str(game.home_id), "championship": str(game.championship_id)})
    assert response.status_code == 200
    assert [row["id"] for row in response.json()["results"]] == [game.pk]
