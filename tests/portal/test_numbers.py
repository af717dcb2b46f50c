"""Numbers read from input go through ``common.numbers``: ASCII digits only, a 400 or a form error naming the field.

Issue 23: ``str.isdigit()`` accepts ``²`` and ``int()`` then raised, a 500 (an HTML page, even under /api/);
``int()`` reads ``٣`` as 3. Each request the outside probe reproduced is here, with both kinds of digit.
"""

from __future__ import annotations

from decimal import Decimal
from unittest import mock

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import include, path, reverse
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.plumbing import force_instance
from rest_framework import permissions, serializers
from rest_framework.views import APIView

from common.numbers import NotANumber, decimal_number, whole_number, whole_number_or_none
from games.engine.errors import EventFormatError
from games.engine.events import parse_time
from games.models import SheetEvent
from portal import serializers as strict
from portal.models import Notification
from portal.notifications import notify
from portal.openapi import PortalAutoSchema
from tests.factories import (
    ChampionshipFactory,
    FederationFactory,
    GameFactory,
    PersonFactory,
    SuperuserFactory,
    UserFactory,
    client_for,
    international_staff,
)
from tests.games.sheet_helpers import entry, events_url, sign_in_through_api
from tournaments.models import RosterEntry, TeamEntry

NOT_ASCII = ["²", "٣", "１", "3\u00a0", "1_0"]

# --- the one parser ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [*NOT_ASCII, "", " ", "-1", "+1", "1.0", "1e3", "x", "0x10", "9" * 31])
def test_a_whole_number_is_ascii_digits_only(text):
    with pytest.raises(NotANumber):
        whole_number(text)
    assert whole_number_or_none(text) is None


def test_a_whole_number_reads_ascii_digits_signs_and_bounds():
    assert whole_number(" 042\n") == 42
    assert whole_number("-7", signed=True) == -7
    assert whole_number(7, maximum=7) == 7
    with pytest.raises(NotANumber, match="at most 9"):
        whole_number("10", maximum=9)
    with pytest.raises(NotANumber, match="at least 1"):
        whole_number("0", minimum=1)
    with pytest.raises(NotANumber):
        whole_number(True)
    with pytest.raises(NotANumber):
        whole_number(7.0)


@pytest.mark.parametrize("text", ["٣.5", "1e3", "nan", "Infinity", "1,5", "²", ""])
def test_a_decimal_number_is_ascii_digits_and_a_point_only(text):
    with pytest.raises(NotANumber):
        decimal_number(text)


def test_a_decimal_number_reads_a_point_and_a_sign():
    assert decimal_number("-12.50") == Decimal("-12.50")
    assert decimal_number(".5") == Decimal("0.5")


@pytest.mark.parametrize("text", ["²:00", "٣:00", "1:٣0", "1:00.٣", "1:0²", "1:60", ":00"])
def test_a_game_clock_time_in_other_digits_is_refused_naming_r10(text):
    with pytest.raises(EventFormatError, match="R-10"):
        parse_time(text)


def test_a_game_clock_time_in_ascii_digits_reads_as_before():
    assert parse_time("12:34.5") == 12 * 600 + 34 * 10 + 5
    assert parse_time("0:07") == 70


# --- every API body's numbers are strict ------------------------------------------------------------------------


def _request_body_fields() -> list[tuple[str, str, serializers.Field]]:
    """Each writable field of each request body the schema documents: (operation, field name, field)."""
    seen: list[tuple[str, serializers.Serializer]] = []
    original = PortalAutoSchema._get_request_for_media_type

    def record(self, serializer, *args, **kwargs):
        if isinstance(instance := force_instance(serializer), serializers.BaseSerializer):
            seen.append((f"{self.method} {self.path}", instance))
        return original(self, serializer, *args, **kwargs)

    with mock.patch.object(PortalAutoSchema, "_get_request_for_media_type", record):
        SchemaGenerator().get_schema(request=None, public=True)
    fields = []

    def walk(operation, serializer, prefix=""):
        serializer = getattr(serializer, "child", serializer)
        for name, field in serializer.fields.items():
            if field.read_only:
                continue
            inner = getattr(field, "child", None) or getattr(field, "child_relation", None)
            if isinstance(field, serializers.BaseSerializer):
                walk(operation, field, f"{prefix}{name}.")
            elif inner is not None:
                fields.append((operation, f"{prefix}{name}[]", inner))
            else:
                fields.append((operation, f"{prefix}{name}", field))

    for operation, serializer in seen:
        walk(operation, serializer)
    return fields


STRICT = (strict.IntegerField, strict.DecimalField, strict.FloatField, strict.StrictPrimaryKeyRelatedField)
NUMBERS = (
    serializers.IntegerField,
    serializers.DecimalField,
    serializers.FloatField,
    serializers.PrimaryKeyRelatedField,
)


def test_every_number_an_api_body_takes_is_read_by_the_strict_fields():
    fields = _request_body_fields()
    assert len({operation for operation, _, _ in fields}) > 40
    loose = sorted(
        {
            f"{operation} {name}: {type(field).__name__}"
            for operation, name, field in fields
            if isinstance(field, NUMBERS) and not isinstance(field, STRICT)
        }
    )
    assert loose == []


@pytest.mark.parametrize("value", ["²", "٣", "1_0", "١٢"])
def test_the_strict_fields_refuse_other_digits(value):
    for field in (strict.IntegerField(), strict.DecimalField(max_digits=5, decimal_places=2), strict.FloatField()):
        with pytest.raises(serializers.ValidationError, match="0-9"):
            field.run_validation(value)


def test_the_strict_fields_read_ascii_strings_and_json_numbers():
    assert strict.IntegerField().run_validation("-12") == -12
    assert strict.IntegerField().run_validation(12) == 12
    assert strict.DecimalField(max_digits=5, decimal_places=2).run_validation("12.5") == Decimal("12.50")
    assert strict.FloatField().run_validation("2.5") == 2.5


# --- the requests of the probe ----------------------------------------------------------------------------------


@pytest.fixture
def world(db):
    championship = ChampionshipFactory()
    game = GameFactory(championship=championship)
    return {"championship": championship, "game": game, "federation": game.home.federation}


@pytest.mark.django_db
@pytest.mark.parametrize("digit", ["²", "٣"])
@pytest.mark.parametrize(
    ("name", "field"),
    [("sheet-log", "after"), ("protest-incidents", "entry"), ("entries", "championship"), ("roster-entries", "entry")],
)
def test_an_api_number_in_other_digits_is_a_json_400_naming_the_field(world, digit, name, field):
    game, client = world["game"], client_for(SuperuserFactory())
    if name == "sheet-log":
        response = client.get(f"/api/games/{game.pk}/sheet/events/", {"after": digit})
    elif name == "protest-incidents":
        response = client.get(f"/api/games/{game.pk}/protest-incidents/", {"entry": digit})
    elif name == "entries":
        body = {"championship": digit, "federation": FederationFactory().pk, "name": "Team ²"}
        response = client.post("/api/entries/", body, format="json")
    else:
        body = {"entry": digit, "person": PersonFactory().pk, "number": "12", "position": "player"}
        response = client.post("/api/roster-entries/", body, format="json")
    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"] == "application/json"
    assert field in response.json()
    assert TeamEntry.objects.count() == 2 and RosterEntry.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize("time", ["²:00", "٣:00"])
def test_a_sheet_event_at_a_time_in_other_digits_is_a_400_citing_r10(time):
    from tests.games.sheet_helpers import sheet_game

    game, director = sheet_game(), international_staff()
    client = client_for(director)
    sign_in_through_api(client, game, "table-1")
    events = [entry("period_start", period=1), entry("shot", period=1, time=time, team="home")]
    response = client.post(events_url(game), {"device": "table-1", "events": events}, format="json")
    assert response.status_code == 400, response.content[:300]
    assert "R-10" in str(response.json()["events"])
    assert not SheetEvent.objects.filter(sheet__game=game).exists()


def _browser(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def _csrf(client: Client, url: str) -> str:
    assert client.get(url).status_code == 200
    return client.cookies["csrftoken"].value


@pytest.mark.django_db
@pytest.mark.parametrize("query", ["²", "#²", "٣", "#٣", "#" + "9" * 40])
def test_a_search_for_other_digits_finds_games_by_name_only(query):
    game = GameFactory(number=3)
    response = _browser(SuperuserFactory()).get(reverse("search"), {"q": query})
    assert response.status_code == 200
    assert game not in response.context["results"].games.rows


@pytest.mark.django_db
def test_a_search_for_a_game_number_in_ascii_digits_still_finds_it():
    game = GameFactory(number=3)
    response = _browser(SuperuserFactory()).get(reverse("search"), {"q": "#3"})
    assert game in response.context["results"].games.rows


@pytest.mark.django_db
@pytest.mark.parametrize("raw", ["²", "٣", "1.5", "0"])
def test_marking_a_notification_read_by_an_id_in_other_digits_marks_nothing(raw):
    user = UserFactory()
    notify(users=[user], key="k", subject="Hello", body="World", url="")
    client = _browser(user)
    token = _csrf(client, reverse("notifications"))
    response = client.post(reverse("notifications-read"), {"id": raw, "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert Notification.objects.filter(user=user, read_at__isnull=True).count() == 1
    assert any("id:" in str(m) for m in get_messages(response.wsgi_request))


@pytest.mark.django_db
@pytest.mark.parametrize("raw", ["²", "٣"])
def test_assigning_an_official_to_a_game_in_other_digits_is_a_form_error_naming_it(world, raw):
    client = _browser(SuperuserFactory())
    url = reverse("games:assignments", args=[world["championship"].pk])
    token = _csrf(client, url)
    response = client.post(url, {"game": raw, "person": "1", "duty": "referee", "csrfmiddlewaretoken": token})
    assert response.status_code == 400
    assert "game: Choose one" in str(response.context["errors"])


# --- a 500 under /api/ is JSON ----------------------------------------------------------------------------------


class _Boom(APIView):
    permission_classes = [permissions.AllowAny]

    def get(self, request):
        raise RuntimeError("a bug")


def _plain_boom(request):
    raise RuntimeError("a bug")


# The portal's URLs plus two views that fail, one of the API and one plain Django view under /api/.
urlpatterns = [
    path("api/boom/", _Boom.as_view()),
    path("api/plain-boom/", _plain_boom),
    path("boom/", _plain_boom),
    path("", include("portal.urls")),
]
handler500 = "portal.errors.server_error"


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/boom/", "/api/plain-boom/"])
def test_a_server_error_of_the_api_is_answered_as_json(settings, url):
    settings.ROOT_URLCONF = __name__
    response = Client(raise_request_exception=False).get(url)
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "server_error"
    assert "a bug" not in response.content.decode()


@pytest.mark.django_db
def test_a_server_error_of_a_page_is_still_the_portals_500_page(settings):
    settings.ROOT_URLCONF = __name__
    response = Client(raise_request_exception=False).get("/boom/")
    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")


# --- the pages' number fields (portal.forms) --------------------------------------------------------------------


@pytest.mark.parametrize("value", ["²", "٣", "1_0", "١٢"])
def test_the_pages_number_fields_refuse_other_digits(value):
    from django import forms

    from portal.forms import DecimalField, IntegerField

    for field in (IntegerField(), DecimalField(max_digits=5, decimal_places=2)):
        with pytest.raises(forms.ValidationError):
            field.clean(value)
    assert IntegerField().clean(" 12 ") == 12
    assert DecimalField(max_digits=5, decimal_places=2).clean("12.5") == Decimal("12.5")


@pytest.mark.django_db
def test_a_fee_posted_in_other_digits_is_refused_naming_the_amount_and_not_recorded():
    from tests.factories import TeamEntryFactory
    from tournaments.models import EntryStatus

    entry = TeamEntryFactory(status=EntryStatus.ENTERED, fee_paid=False, fee_paid_at=None, fee_paid_amount=None)
    client = _browser(SuperuserFactory())
    token = _csrf(client, reverse("tournaments:entries", args=[entry.championship_id]))
    url = reverse("tournaments:entry-fee-paid", args=[entry.pk])
    response = client.post(url, {"amount": "٥٠٠", "currency": "USD", "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert any("amount:" in str(m) for m in get_messages(response.wsgi_request))
    entry.refresh_from_db()
    assert not entry.fee_paid
