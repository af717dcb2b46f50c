"""Pages: an official's "My games" (assignments, crew, readiness) and a team's line-up form; the games admin."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Role
from games import services
from games.models import GameOfficial, Lineup, OfficialAccount, OfficialDuty
from tests.factories import PersonFactory, SuperuserFactory, with_role
from tournaments.models import RosterEntry

from .conftest import goalkeepers_of, skaters_of

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_my_games_lists_the_officials_assignments_with_the_lead_and_crew(game, director, referee):
    login = with_role(Role.GAME_OFFICIAL)
    OfficialAccount.objects.create(person=referee, user=login)
    services.official_assign(game=game, person=referee, duty=OfficialDuty.REFEREE, by=director)
    scorer = PersonFactory(is_official=True)
    services.official_assign(game=game, person=scorer, duty=OfficialDuty.SCORER, by=director)
    page = logged_in(login).get(reverse("games:my-games")).content.decode()
    assert "lead referee (4.2 C)" in page
    assert str(scorer) in page
    assert "Rule 5.1 A / 5.3 B" in page  # no line-up given yet: the game cannot start


def test_my_games_says_when_the_login_is_no_official(db):
    page = logged_in(with_role(Role.GAME_OFFICIAL)).get(reverse("games:my-games")).content.decode()
    assert "not linked to a registered game official" in page


def test_my_games_runs_a_constant_number_of_queries(game, director):
    from tests.factories import GameFactory

    referee = PersonFactory(is_referee=True)
    login = with_role(Role.GAME_OFFICIAL)
    OfficialAccount.objects.create(person=referee, user=login)
    client = logged_in(login)

    # One game every two hours: an official is at one game at a time (4.1).
    def next_game(n):
        return GameFactory(championship=game.championship, start_at=game.start_at + datetime.timedelta(hours=2 * n))

    for n in range(5):
        services.official_assign(game=next_game(n), person=referee, duty="referee", by=director)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as few:
        client.get(reverse("games:my-games"))
    for n in range(5, 10):
        services.official_assign(game=next_game(n), person=referee, duty="referee", by=director)
    with CaptureQueriesContext(connection) as many:
        client.get(reverse("games:my-games"))
    assert len(many) == len(few)


def test_the_manager_gives_the_lineup_on_its_page(game, manager, home_roster):
    lines = skaters_of(home_roster)[:4] + goalkeepers_of(home_roster)[:1]
    data = {f"listed-{line.person_id}": "on" for line in lines}
    data[f"captain-{lines[0].person_id}"] = "on"
    url = reverse("games:lineup-edit", args=[game.pk, game.home.pk])
    response = logged_in(manager).post(url, data)
    assert response.status_code == 302
    assert Lineup.objects.get(game=game, entry=game.home).players.count() == 5


def test_a_refused_lineup_shows_the_rule_and_stores_nothing(game, manager, home_roster):
    data = {f"listed-{line.person_id}": "on" for line in skaters_of(home_roster)[:15]}
    data[f"captain-{home_roster[0].person_id}"] = "on"
    response = logged_in(manager).post(reverse("games:lineup-edit", args=[game.pk, game.home.pk]), data)
    assert response.status_code == 400
    assert "Rule 5.1 A" in response.content.decode()
    assert not Lineup.objects.exists()


def test_a_refused_lineup_names_the_player_and_keeps_what_was_ticked(game, manager, home_roster, monkeypatch):
    """R-07, R-53: the page says "#number Name", not the service's "players[i]"; the boxes stay as ticked."""
    from discipline import services as discipline
    from discipline.services import ActiveSuspension

    lines = skaters_of(home_roster)[:4] + goalkeepers_of(home_roster)[:1]
    suspended = lines[2]
    monkeypatch.setattr(
        discipline,
        "active_suspensions",
        lambda *, game, person_ids: {suspended.person_id: ActiveSuspension(suspended.person_id, "Rule 7.1: 3 games")},
    )
    data = {f"listed-{line.person_id}": "on" for line in lines}
    data[f"captain-{lines[0].person_id}"] = "on"
    response = logged_in(manager).post(reverse("games:lineup-edit", args=[game.pk, game.home.pk]), data)
    assert response.status_code == 400
    page = response.content.decode()
    assert f"#{suspended.number} {suspended.person}: Rule 8.2 A: a suspended player cannot" in page
    assert "Rule 7.1: 3 games" in page and "players[" not in page
    for line in lines:
        assert f'name="listed-{line.person_id}" aria-labelledby="col-listed player-{line.person_id}" checked' in page
    assert (
        f'name="captain-{lines[0].person_id}" aria-labelledby="col-captain player-{lines[0].person_id}" checked' in page
    )
    assert not Lineup.objects.exists()


def test_the_opponents_manager_cannot_open_the_lineup(game, manager):
    response = logged_in(manager).get(reverse("games:lineup-edit", args=[game.pk, game.away.pk]))
    assert response.status_code == 403


def test_the_admin_refuses_a_referee_of_a_teams_federation_r_08(game):
    referee = PersonFactory(federation=game.home.federation, is_referee=True)
    response = logged_in(SuperuserFactory()).post(
        reverse("admin:games_gameofficial_add"), {"game": game.pk, "person": referee.pk, "duty": "referee"}
    )
    assert response.status_code == 200
    assert "R-08" in response.content.decode()
    assert not GameOfficial.objects.exists()


def test_the_admin_assigns_through_the_service(game, referee):
    admin_user = SuperuserFactory()
    response = logged_in(admin_user).post(
        reverse("admin:games_gameofficial_add"), {"game": game.pk, "person": referee.pk, "duty": "referee"}
    )
    assert response.status_code == 302
    assignment = GameOfficial.objects.get()
    assert (assignment.position, assignment.assigned_by) == (1, admin_user)


def test_game_times_show_on_the_venues_clock_on_my_games_assignments_and_the_game_page(game, director, referee):
    """The pages say the venue's local time, not UTC under the venue's name (Django's date filter would turn an
    aware local time back into the current time zone)."""
    from django.utils import timezone

    login = with_role(Role.GAME_OFFICIAL)
    OfficialAccount.objects.create(person=referee, user=login)
    services.official_assign(game=game, person=referee, duty=OfficialDuty.REFEREE, by=director)
    local = timezone.localtime(game.start_at, game.championship.venue.zone)
    utc = game.start_at.astimezone(datetime.UTC)
    assert local.strftime("%H:%M") != utc.strftime("%H:%M")  # a venue away from UTC, or the test proves nothing
    shown = local.strftime("%H:%M")
    pages = [
        logged_in(login).get(reverse("games:my-games")),
        logged_in(director).get(reverse("games:assignments", args=[game.championship.pk])),
        logged_in(director).get(reverse("tournaments:game-manage", args=[game.pk])),
    ]
    for response in pages:
        assert response.status_code == 200
        assert shown in response.content.decode(), response.request["PATH_INFO"]


def test_my_games_lists_each_game_once_with_its_duties_links_and_the_past_apart(game, director, referee):
    """Issue 25: one row per game with every duty, links to the line-ups, the console, signing and the confidential
    report (referees), and a finished game under "Past games", not under "Next games"."""
    from tests.factories import GameFactory
    from tournaments.models import GameStatus

    login = with_role(Role.GAME_OFFICIAL)
    OfficialAccount.objects.create(person=referee, user=login)
    for duty in (OfficialDuty.REFEREE, OfficialDuty.SCORER):
        GameOfficial.objects.create(game=game, person=referee, duty=duty, position=1, assigned_at=game.start_at)
    done = GameFactory(
        championship=game.championship, status=GameStatus.FINAL, home_goals=3, away_goals=1,
        start_at=game.start_at - datetime.timedelta(days=1),
    )  # fmt: skip
    GameOfficial.objects.create(
        game=done, person=referee, duty=OfficialDuty.REFEREE, position=1, assigned_at=done.start_at
    )
    page = logged_in(login).get(reverse("games:my-games")).content.decode()
    upcoming = page[page.index("Next games") : page.index("Past games")]
    past = page[page.index("Past games") :]
    assert upcoming.count(f"Game #{game.number}:") == 1 and f"Game #{done.number}:" not in upcoming
    assert f"Game #{done.number}:" in past and "3–1" in past
    # The next games' last column says whether the game can start (5.3 B), not a result.
    assert "Before the start" in upcoming and "Result" not in upcoming and "Result" in past
    for url in (
        reverse("games:lineups", args=[game.pk]),
        reverse("games:console", args=[game.pk]),
        reverse("games:sheet-sign", args=[game.pk]),
        reverse("discipline:confidential-file", args=[game.pk]),
    ):
        assert f'href="{url}"' in upcoming, url
    assert "Referee" in upcoming and "Official scorer" in upcoming
    assert f'href="{reverse("discipline:confidential-file", args=[done.pk])}"' in past
    # The referee signs the report (4.2 O) without keeping the sheet: signing, not the console.
    assert f'href="{reverse("games:sheet-sign", args=[done.pk])}"' in past
    assert f'href="{reverse("games:console", args=[done.pk])}"' not in past


def test_the_lineups_page_shows_both_teams_in_number_order_to_the_games_referee(game, director, referee, home_roster):
    login = with_role(Role.GAME_OFFICIAL)
    OfficialAccount.objects.create(person=referee, user=login)
    services.official_assign(game=game, person=referee, duty=OfficialDuty.REFEREE, by=director)
    lines = skaters_of(home_roster)[:4] + goalkeepers_of(home_roster)[:1]
    for line, number in zip(lines[:2], ("36", "5"), strict=True):  # as text, "5" sorts after "36"
        line.number = number
        line.save(update_fields=["number"])
    choices = [services.LineupChoice(person_id=line.person_id, captain=i == 0) for i, line in enumerate(lines)]
    services.lineup_submit(game=game, entry=game.home, players=choices, by=director)
    page = logged_in(login).get(reverse("games:lineups", args=[game.pk])).content.decode()
    assert str(lines[0].person) in page and "Not given yet (5.1 A)." in page  # the away team gave none
    numbers = [line.number for line in sorted(lines, key=lambda line: (len(line.number), line.number))]
    positions = [page.index(f"<td>{n}</td>") for n in numbers]
    assert positions == sorted(positions)
    assert f'href="{reverse("games:game-live", args=[game.pk])}"' in page
    outsider = logged_in(with_role(Role.GAME_OFFICIAL)).get(reverse("games:lineups", args=[game.pk])).content.decode()
    assert str(lines[0].person) not in outsider


def _csrf_post(user, url, data):
    """Post ``data`` as the browser does: form-encoded, with the CSRF token of the page it was shown on."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    token = client.get(url).cookies["csrftoken"].value
    return client.post(url, {"csrfmiddlewaretoken": token, **data})


def test_the_lineup_form_is_in_number_order_dated_on_the_venues_clock_and_links_the_game(game, manager, home_roster):
    """Issue 25: numbers in numeric order (5 before 36), the game's date and time (venue), a link to the game."""
    lines = skaters_of(home_roster)
    for line, number in zip(lines[:2], ("36", "5"), strict=True):
        line.number = number
        line.save(update_fields=["number"])
    page = logged_in(manager).get(reverse("games:lineup-edit", args=[game.pk, game.home.pk])).content.decode()
    assert page.index(">5</td>") < page.index(">12</td>") < page.index(">36</td>")
    local = timezone.localtime(game.start_at, game.championship.venue.zone)
    assert f"{local:%H:%M}" in page and f"({game.championship.venue.time_zone})" in page
    assert f'href="{reverse("games:game-live", args=[game.pk])}"' in page
    assert 'class="lineup-form"' in page and 'class="table-wrap"' in page  # the 390 px rules of portal.css


def test_the_lineup_form_is_prefilled_from_the_roster_marks_then_from_the_last_lineup(game, manager, home_roster):
    from tests.factories import GameFactory

    captain, alternate = skaters_of(home_roster)[:2]
    RosterEntry.objects.filter(pk=captain.pk).update(captain=True)
    RosterEntry.objects.filter(pk=alternate.pk).update(alternate=True)
    url = reverse("games:lineup-edit", args=[game.pk, game.home.pk])
    page = logged_in(manager).get(url).content.decode()
    assert (
        f'name="captain-{captain.person_id}" aria-labelledby="col-captain player-{captain.person_id}" checked' in page
    )
    assert (
        f'name="listed-{alternate.person_id}" aria-labelledby="col-listed player-{alternate.person_id}" checked' in page
    )
    lines = skaters_of(home_roster)[:4] + goalkeepers_of(home_roster)[:1]
    data = {f"listed-{line.person_id}": "on" for line in lines}
    data[f"captain-{lines[2].person_id}"] = "on"
    assert _csrf_post(manager, url, data).status_code == 302
    later = GameFactory(
        championship=game.championship,
        phase=game.phase,
        home=game.home,
        start_at=game.start_at + datetime.timedelta(days=1),
    )
    page = logged_in(manager).get(reverse("games:lineup-edit", args=[later.pk, game.home.pk])).content.decode()
    assert f"line-up for game #{game.number}" in page
    for line in lines:
        assert f'name="listed-{line.person_id}" aria-labelledby="col-listed player-{line.person_id}" checked' in page
    assert (
        f'name="captain-{lines[2].person_id}" aria-labelledby="col-captain player-{lines[2].person_id}" checked' in page
    )


def test_a_lineup_with_two_starting_goalkeepers_names_them_and_the_rule(game, manager, home_roster):
    skaters, keepers = skaters_of(home_roster)[:4], goalkeepers_of(home_roster)[:2]
    data = {f"listed-{line.person_id}": "on" for line in skaters + keepers}
    data.update({f"starting-{line.person_id}": "on" for line in keepers})
    data[f"captain-{skaters[0].person_id}"] = "on"
    response = _csrf_post(manager, reverse("games:lineup-edit", args=[game.pk, game.home.pk]), data)
    assert response.status_code == 400
    text = response.content.decode()
    named = ", ".join(f"#{line.number} {line.person}" for line in keepers)
    assert f"Rule 5.3 A: the starting line-up has one goalkeeper (5.3 B); 2 are marked: {named}" in text
    assert "not 1 and 2" not in text
    assert not Lineup.objects.exists()
