"""The committee's pages and API (R-53, 8.2): confidentiality of every screen, endpoint and download, the
suspension lists of staff and team managers, constant query counts as the lists grow."""

from __future__ import annotations

import datetime
from urllib.parse import urlencode

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from discipline import cases
from discipline.models import Attachment, ConfidentialReport, IncidentReport
from discipline.services import receive_game_consequences
from games.models import GameOfficial, OfficialAccount
from tests.factories import (
    GameFactory,
    PersonFactory,
    RosterEntryFactory,
    client_for,
    federation_staff,
    game_consequence,
    international_staff,
    pdf_upload,
    with_role,
)
from tournaments.models import GameStatus

pytestmark = pytest.mark.django_db

HOUR = datetime.timedelta(hours=1)


def offend(game, count=1):
    people = [RosterEntryFactory(entry=game.home).person for _ in range(count)]
    receive_game_consequences(
        game=game,
        consequences=[game_consequence(game, p, penalty_id=f"p{p.pk}") for p in people],
        now=game.start_at + 2 * HOUR,
    )
    return people


@pytest.fixture
def world():
    game = GameFactory(status=GameStatus.FINAL, home_goals=1, away_goals=0)
    GameFactory(championship=game.championship, phase=game.phase, home=game.home, start_at=game.start_at + 24 * HOUR)
    (player,) = offend(game)
    referee = with_role(Role.GAME_OFFICIAL)
    person = PersonFactory(is_referee=True)
    GameOfficial.objects.create(game=game, person=person, duty="referee", position=1, assigned_at=game.start_at)
    OfficialAccount.objects.create(person=person, user=referee)
    report = cases.file_confidential_report(
        game=game, kind="referee", text="Deliberate.", by=referee, attachments=[pdf_upload()]
    )
    committee = with_role(Role.DISCIPLINE_COMMITTEE)
    case = cases.open_case(reports=[IncidentReport.objects.get()], title="Match penalty", by=committee)
    manager = with_role(Role.TEAM_MANAGER)
    game.home.managers.add(manager)
    other_manager = with_role(Role.TEAM_MANAGER)
    game.away.managers.add(other_manager)
    return {
        "game": game, "player": player, "report": report, "case": case,
        "attachment": Attachment.objects.get(), "incident": IncidentReport.objects.get(),
        "users": {
            "committee": committee, "executive": with_role(Role.IHTC_EXECUTIVE), "referee": referee,
            "director": federation_staff(game.championship.sanctioning_body), "intl": international_staff(),
            "manager": manager, "other_manager": other_manager, "official": with_role(Role.GAME_OFFICIAL),
        },
    }  # fmt: skip


READ_CONFIDENTIAL = {"committee", "executive", "referee"}


def _page(user, url):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(url)


def test_confidential_report_page_api_and_download_only_for_committee_executive_author(world):
    urls = [
        reverse("discipline:confidential", args=[world["report"].pk]),
        reverse("discipline:attachment", args=[world["attachment"].pk]),
    ]
    api = reverse("discipline-api:confidential-report", args=[world["report"].pk])
    for who, user in world["users"].items():
        for url in urls:
            assert _page(user, url).status_code == (200 if who in READ_CONFIDENTIAL else 404), (who, url)
        answer = client_for(user).get(api)
        assert answer.status_code == (200 if who in READ_CONFIDENTIAL else 404), who
        if who in READ_CONFIDENTIAL:
            assert answer.json()["text"] == "Deliberate." and answer.json()["attachments"][0]["url"] == urls[1]
    assert _page(None, urls[0]).status_code == 302 and client_for(None).get(api).status_code == 403
    download = _page(world["users"]["referee"], urls[1])
    assert download["Content-Disposition"].startswith("attachment") and download["Cache-Control"] == "private, no-store"


def test_reports_and_cases_only_for_the_committee_and_the_executive(world):
    committee = {"committee", "executive"}
    pages = {
        reverse("discipline:queue"): 403,
        reverse("discipline:report", args=[world["incident"].pk]): 404,
        reverse("discipline:case", args=[world["case"].pk]): 404,
    }
    apis = {
        reverse("discipline-api:report-queue"): 403,
        reverse("discipline-api:report", args=[world["incident"].pk]): 404,
        reverse("discipline-api:case", args=[world["case"].pk]): 404,
    }
    for who, user in world["users"].items():
        for url, refused in pages.items():
            response = _page(user, url)
            assert response.status_code == (200 if who in committee else refused), (who, url)
            if who in committee:
                assert b"Deliberate" not in response.content or "confidential" in url  # the text stays on its page
        for url, refused in apis.items():
            assert client_for(user).get(url).status_code == (200 if who in committee else refused), (who, url)


def test_the_committee_decides_through_the_page_and_the_api_names_the_rule_on_bad_input(world):
    committee = world["users"]["committee"]
    client = Client()
    client.force_login(committee)
    url = reverse("discipline:case", args=[world["case"].pk])
    bad = client.post(
        url, {"action": "decide", "outcome": "sanctions", "reasons": "r", "person": world["player"].pk, "kind": "games"}
    )
    assert bad.status_code == 400 and "Rule 8.2" in bad.content.decode()
    api = client_for(committee).post(
        reverse("discipline-api:case-decision", args=[world["case"].pk]),
        {"outcome": "sanctions", "reasons": "Deliberate.", "sanctions": [{"person": world["player"].pk, "kind": "games", "games": 3, "article": "7.1"}]},
        format="json",
    )  # fmt: skip
    assert api.status_code == 201, api.content
    assert api.json()["decision"]["suspensions"][0]["games_required"] == 3
    again = client_for(committee).post(
        reverse("discipline-api:case-decision", args=[world["case"].pk]),
        {"outcome": "no_action", "reasons": "x"},
        format="json",
    )
    assert again.status_code == 400 and "R-53" in again.json()["status"][0]


def test_suspension_lists_staff_per_championship_managers_their_people_public_none(world):
    championship = world["game"].championship
    page = reverse("discipline:championship-suspensions", args=[championship.pk])
    api = reverse("discipline-api:championship-suspensions", args=[championship.pk])
    users = world["users"]
    for who in ("director", "intl", "committee", "executive"):
        assert _page(users[who], page).status_code == 200, who
        assert len(client_for(users[who]).get(api).json()) == 1, who
    for who in ("manager", "other_manager", "official", "referee"):
        assert _page(users[who], page).status_code == 403, who
        assert client_for(users[who]).get(api).status_code == 403, who
    mine = reverse("discipline-api:suspensions")
    assert [s["person"] for s in client_for(users["manager"]).get(mine).json()] == [world["player"].pk]
    assert client_for(users["other_manager"]).get(mine).json() == []
    assert client_for(users["official"]).get(mine).json() == []
    assert client_for(None).get(mine).status_code == 403
    assert _page(None, reverse("discipline:suspensions")).status_code == 302
    assert str(world["player"]).encode() in _page(users["manager"], reverse("discipline:suspensions")).content
    assert client_for(users["director"]).get(api, {"status": "served"}).json() == []


@pytest.mark.parametrize(
    "query",
    [{"status": "a\x00b"}, {"kind": "\x00"}, {"provisional": "1\x00"}, {"status": "gone"}, {"provisional": "maybe"}],
)
def test_a_suspension_filter_outside_its_choices_is_a_400_naming_it_and_a_form_error_on_the_page(world, query):
    """8.2: a filter value outside the choices (a NUL, which PostgreSQL cannot hold) is refused by name, not a 500."""
    championship = world["game"].championship
    director = world["users"]["director"]
    for url in (
        reverse("discipline-api:championship-suspensions", args=[championship.pk]),
        reverse("discipline-api:suspensions"),
    ):
        answer = client_for(director).get(url, query)
        assert answer.status_code == 400, (url, query)
        assert list(answer.json()) == list(query)
    page = _page(
        director, reverse("discipline:championship-suspensions", args=[championship.pk]) + "?" + urlencode(query)
    )
    assert page.status_code == 200
    assert b'<div role="alert"><ul class="errors">' in page.content
    # the form's "all" option sends the parameter empty: no filter, no error
    page = _page(director, reverse("discipline:championship-suspensions", args=[championship.pk]) + "?status=&kind=")
    assert page.status_code == 200 and b'role="alert"' not in page.content
    api = reverse("discipline-api:championship-suspensions", args=[championship.pk])
    split = [len(client_for(director).get(api, {"provisional": flag}).json()) for flag in ("true", "false", "1", "0")]
    assert split[0] + split[1] == 1 and split[:2] == split[2:]


def test_list_pages_and_endpoints_keep_their_query_count_as_data_grows(world, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    committee = world["users"]["committee"]
    championship = world["game"].championship
    urls = [
        ("page", reverse("discipline:queue")),
        ("page", reverse("discipline:championship-suspensions", args=[championship.pk])),
        ("page", reverse("discipline:suspensions")),
        ("api", reverse("discipline-api:report-queue")),
        ("api", reverse("discipline-api:championship-suspensions", args=[championship.pk])),
    ]

    def counts():
        found = []
        for kind, url in urls:
            with CaptureQueriesContext(connection) as ctx:
                response = _page(committee, url) if kind == "page" else client_for(committee).get(url)
            assert response.status_code == 200
            found.append(len(ctx))
        return found

    offend(GameFactory(championship=championship, status=GameStatus.FINAL, home_goals=0, away_goals=1))
    small = counts()
    offend(GameFactory(championship=championship, status=GameStatus.FINAL, home_goals=0, away_goals=1), count=5)
    assert counts() == small
    assert ConfidentialReport.objects.count() == 1


def test_the_queue_shows_each_reports_deadline_in_the_venues_time_zone(world):
    from django.utils import timezone

    base = world["game"]
    game = GameFactory(
        championship=base.championship, phase=base.phase, status=GameStatus.FINAL, home_goals=0, away_goals=0,
        start_at=base.start_at + 48 * HOUR,
    )  # fmt: skip
    nxt = GameFactory(
        championship=game.championship, phase=game.phase, home=game.home, start_at=game.start_at + 5 * HOUR
    )
    offend(game)
    committee = world["users"]["committee"]
    rows = client_for(committee).get(reverse("discipline-api:report-queue")).json()
    assert len(rows) == 1 and rows[0]["game"] == game.pk and rows[0]["status"] == "open"
    assert datetime.datetime.fromisoformat(rows[0]["deadline"]) == nxt.start_at
    local = timezone.localtime(nxt.start_at, game.championship.venue.zone)
    page = _page(committee, reverse("discipline:queue")).content.decode()
    assert local.strftime("%H:%M") in page and "attempt_to_injure" not in page and "Attempt to Injure (" in page
    assert "Match penalty (6.1.6)" in page and f"Game #{game.number}: {game.home.name} – {game.away.name}" in page
    assert "Times are local to each game&#x27;s venue." in page and " UTC" not in page


def test_the_case_page_reads_the_hearing_and_its_history_on_the_venues_clock_labelled_once(world):
    """Issue 25: a hearing set at 18:00 venue time reads 18:00 on the page and in the history, never UTC."""
    committee = world["users"]["committee"]
    case = world["case"]
    client = Client(enforce_csrf_checks=True)
    client.force_login(committee)
    url = reverse("discipline:case", args=[case.pk])
    token = client.get(url).cookies["csrftoken"].value
    answer = client.post(url, {"csrfmiddlewaretoken": token, "action": "hearing", "hearing_at": "2027-07-03T18:00"})
    assert answer.status_code in (200, 302), answer.content.decode()[:500]
    case.refresh_from_db()
    zone = case.championship.venue.zone
    assert case.hearing_at.astimezone(zone).hour == 18
    page = _page(committee, url).content.decode()
    assert "Sat 3 Jul 2027, 18:00" in page and "hearing on 2027-07-03 18:00 (venue time)" in page
    assert " UTC" not in page and page.count(f"Times are the venue&#x27;s local time ({zone}).") == 1
    assert "Open → Hearing scheduled" in page and "open → hearing" not in page  # the statuses' names
    assert f"Game #{world['game'].number}, {world['player']}" in page  # never "#8 NAME", read as a jersey
