"""Issue 25, the game officials' and the team manager's line-up tasks, done in a browser from the role's home by
clicking, never typing a URL (4.1-4.3, 4.2 P, 5.1 A-C, 5.3 A-B, 6.4.29; R-07):

- a referee goes from the home to "My games": one row per game in the order of the day, his duties, the links to
  the line-ups (read), the signing (4.2 O) and the confidential report; a finished game under "Past games"; he reads a
  line-up in number order and files his confidential report from the game's row, then again on a phone;
- an official who keeps the table as timekeeper and scorer sees that game once, with both duties, on the home and
  in "My games", with the console and the signing;
- a team manager goes from the home to My teams, the team, the game's line-up: ticked from the roster's captain
  and alternate, players in number order (5 before 36), the game's date and time and a link back to the game, 390 px
  wide; a wrong line-up is refused naming the players, the rule and its article, a right one is stored; the next
  game's line-up is ticked as the last one given, in French;
- the staff open a game's page while its sheet is open: the sheet's state and its link, no form it would refuse.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import Role
from discipline.models import ConfidentialReport
from games import services
from games.models import Lineup, OfficialAccount, OfficialDuty
from tests.e2e.live_helpers import fits_the_screen, open_menu
from tests.factories import (
    ChampionshipFactory,
    GameFactory,
    PassportFactory,
    PersonFactory,
    RosterEntryFactory,
    TeamEntryFactory,
    international_staff,
    with_role,
)
from tests.games.endgame_helpers import played_game
from tournaments.models import GameStatus, Position
from tournaments.venue_time import venue_zone

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# Raw values a person must never read on these pages.
RAW = re.compile(r"\b[a-z]+_[a-z_]+\b|\bNone\b|NaN|undefined|\[object Object\]")


def _readable(page) -> None:
    text = page.locator("main").inner_text()
    assert not RAW.search(text), RAW.search(text)


def _switch(page, language: str) -> None:
    """The header's language switch, as a person uses it."""
    open_menu(page)
    switch = page.locator("form.language-switch")
    switch.locator("select[name=language]").select_option(language)
    switch.locator("[type=submit]").click()
    page.wait_for_load_state()


def _at(championship, day: datetime.date, hour: int) -> datetime.datetime:
    """``hour`` o'clock at the venue on ``day``."""
    return datetime.datetime.combine(day, datetime.time(hour), tzinfo=venue_zone(championship))


def _running_championship():
    """A championship that began yesterday at the venue and runs five more days."""
    championship = ChampionshipFactory()
    today = timezone.localtime(timezone.now(), venue_zone(championship)).date()
    championship.start_date = today - datetime.timedelta(days=1)
    championship.end_date = today + datetime.timedelta(days=5)
    championship.entry_closing_date = today - datetime.timedelta(days=30)
    championship.save(update_fields=["start_date", "end_date", "entry_closing_date"])
    return championship, today


def _official_login(person):
    login = with_role(Role.GAME_OFFICIAL)
    OfficialAccount.objects.create(person=person, user=login)
    return login


@pytest.fixture
def referee_world(transactional_db):
    """A referee's three games: yesterday's (final, 3-1), and tomorrow's at 18:00 and at 10:00 (the 18:00 one was
    scheduled first, so its number is the lower: the day's order is the clock's, not the numbers'). The home team
    of the 10:00 game gave its line-up."""
    director = international_staff(username="director-officials")
    championship, today = _running_championship()
    tomorrow = today + datetime.timedelta(days=1)
    late = GameFactory(championship=championship, start_at=_at(championship, tomorrow, 18))
    early, _ = played_game(
        director, referees=0, scorer=False, championship=championship, start_at=_at(championship, tomorrow, 10)
    )
    past = GameFactory(championship=championship, start_at=_at(championship, today - datetime.timedelta(days=1), 18))
    referee = PersonFactory(is_referee=True)
    login = _official_login(referee)
    before = timezone.now() - datetime.timedelta(days=10)
    for game in (late, early, past):
        services.official_assign(game=game, person=referee, duty=OfficialDuty.REFEREE, by=director, now=before)
    type(past).objects.filter(pk=past.pk).update(status=GameStatus.FINAL, home_goals=3, away_goals=1)
    home_lines = list(early.home.roster.select_related("person"))
    services.lineup_submit(
        game=early,
        entry=early.home,
        players=[services.LineupChoice(person_id=line.person_id, captain=line.captain) for line in home_lines],
        by=director,
    )
    return {"login": login, "early": early, "late": late, "past": past, "director": director}


def test_a_referee_finds_his_games_reads_a_line_up_and_files_the_confidential_report_then_on_a_phone(
    page, login_as, referee_world, screenshot, accessible, outside_requests
):
    w = referee_world
    early, late, past = w["early"], w["late"], w["past"]
    login_as(w["login"])
    page.goto("/")
    # The home lists his next games, each once; "My games" is in the menu.
    home_games = page.locator("section.home-section", has=page.get_by_role("heading", name="Your next games"))
    expect(home_games.locator("li")).to_have_count(2)
    open_menu(page)
    page.get_by_role("navigation").get_by_role("link", name="My games", exact=True).click()
    expect(page.get_by_role("heading", name="My games", level=1)).to_be_visible()

    # One row per game, in the order of the day (10:00 before 18:00, whatever the numbers); the past apart.
    upcoming = page.locator("table.my-games").first.locator("tbody tr")
    expect(upcoming).to_have_count(2)
    expect(upcoming.nth(0)).to_contain_text(f"Game #{early.number}: {early.home.name} – {early.away.name}")
    expect(upcoming.nth(0)).to_contain_text("10:00")
    expect(upcoming.nth(1)).to_contain_text(f"Game #{late.number}:")
    expect(upcoming.nth(1)).to_contain_text("18:00")
    assert late.number < early.number
    expect(upcoming.nth(0)).to_contain_text("Referee (4.2) — lead referee (4.2 C)")
    # Before the start, whether the game can start (5.3 B), never an empty result.
    expect(page.locator("table.my-games").first.locator("thead")).to_contain_text("Before the start")
    expect(upcoming.nth(0)).to_contain_text(f"{early.away} has given no line-up for game {early.number}.")
    expect(page.get_by_role("heading", name="Past games")).to_be_visible()
    finished = page.locator("table.my-games").nth(1).locator("tbody tr")
    expect(finished).to_have_count(1)
    expect(finished).to_contain_text(f"Game #{past.number}:")
    expect(finished).to_contain_text("3–1")
    # A referee keeps no sheet (4.3): no console; he signs the report (4.2 O) and files his own (4.2 P).
    row = upcoming.nth(0)
    for name in ("Line-ups", "Signing", "Confidential report"):
        expect(row.get_by_role("link", name=name, exact=True)).to_be_visible()
    expect(row.get_by_role("link", name="Open the console")).to_have_count(0)
    _readable(page)
    accessible(page, "a referee's games")
    screenshot(page, "my-games")

    # The signing page, where he will sign once the game ends (4.2 O).
    row.get_by_role("link", name="Signing", exact=True).click()
    expect(page.locator("main")).to_contain_text(f"#{early.number}")
    _readable(page)
    page.go_back()
    row = page.locator("table.my-games").first.locator("tbody tr").nth(0)

    # The line-ups, to read: the home team's in number order (2 before 10, 30 last), the away team's not given.
    row.get_by_role("link", name="Line-ups", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"game #{early.number}")
    home = page.locator("section.lineup-read", has=page.get_by_role("heading", name=early.home.name))
    numbers = [int(n) for n in home.locator("tbody tr td:first-child").all_inner_texts()]
    assert numbers == sorted(numbers) and len(numbers) == early.home.roster.count(), numbers
    expect(page.locator("section.lineup-read", has=page.get_by_role("heading", name=early.away.name))).to_contain_text(
        "Not given yet (5.1 A)."
    )
    expect(page.locator("main input, main textarea, main select")).to_have_count(0)  # read only
    expect(page.get_by_role("link", name="The game's page")).to_be_visible()
    _readable(page)
    accessible(page, "the line-ups, read by the referee")
    screenshot(page, "line-ups-read")

    # The confidential report (4.2 P), from the game's row of "My games".
    page.go_back()
    page.locator("table.my-games").first.locator("tbody tr").nth(0).get_by_role(
        "link", name="Confidential report"
    ).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Confidential report: game #{early.number}")
    accessible(page, "the confidential report's form")
    page.get_by_label("Kind of report").select_option(label="Referee's report (4.2 P)")
    page.get_by_label("Your report").fill("The away coach insulted the linesman after the second goal.")
    page.get_by_role("button", name="File", exact=True).click()
    page.wait_for_url(re.compile(r"/discipline/confidential/\d+/$"))
    report = ConfidentialReport.objects.get(game=early)
    assert report.author == w["login"] and report.kind == "referee"
    expect(page.locator("main")).to_contain_text("The away coach insulted the linesman")
    expect(page.locator(".messages")).to_contain_text("Your confidential report is filed.")
    _readable(page)
    screenshot(page, "confidential-report-filed")

    # On a phone: the same way, nothing scrolls sideways.
    page.set_viewport_size(PHONE)
    open_menu(page)
    page.get_by_role("navigation").get_by_role("link", name="My games", exact=True).click()
    expect(page.locator("table.my-games").first.locator("tbody tr")).to_have_count(2)
    fits_the_screen(page)
    accessible(page, "a referee's games on a phone")
    screenshot(page, "my-games-phone")
    page.locator("table.my-games").first.locator("tbody tr").nth(0).get_by_role("link", name="Line-ups").click()
    expect(page.locator("section.lineup-read")).to_have_count(2)
    fits_the_screen(page)
    screenshot(page, "line-ups-phone")
    page.go_back()
    page.locator("table.my-games").nth(1).get_by_role("link", name="Confidential report").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"game #{past.number}")
    page.get_by_label("Your report").fill("Nothing to add on the game; the rink's lights failed twice.")
    fits_the_screen(page)
    screenshot(page, "confidential-form-phone")
    page.get_by_role("button", name="File", exact=True).click()
    page.wait_for_url(re.compile(r"/discipline/confidential/\d+/$"))
    assert ConfidentialReport.objects.filter(game=past, author=w["login"]).count() == 1
    fits_the_screen(page)
    assert outside_requests == []


def test_an_official_keeping_the_table_in_two_duties_sees_the_game_once(page, login_as, referee_world, screenshot):
    """4.1 B: the timekeeper may also keep the score; the game is one row with both duties, home and "My games"."""
    w = referee_world
    early = w["early"]
    person = PersonFactory(is_official=True)
    login = _official_login(person)
    before = timezone.now() - datetime.timedelta(days=10)
    for duty in (OfficialDuty.TIMEKEEPER, OfficialDuty.SCORER):
        services.official_assign(game=early, person=person, duty=duty, by=w["director"], now=before)
    login_as(login)
    page.goto("/")
    home_games = page.locator("section.home-section", has=page.get_by_role("heading", name="Your next games"))
    expect(home_games.locator("li")).to_have_count(1)
    expect(home_games.locator("li")).to_contain_text("Game timekeeper (4.4)")
    expect(home_games.locator("li")).to_contain_text("Official scorer (4.3)")
    expect(home_games.get_by_role("link", name=f"Console of game #{early.number}")).to_have_count(1)
    open_menu(page)
    page.get_by_role("navigation").get_by_role("link", name="My games", exact=True).click()
    rows = page.locator("table.my-games tbody tr")
    expect(rows).to_have_count(1)
    expect(rows).to_contain_text("Game timekeeper (4.4)")
    expect(rows).to_contain_text("Official scorer (4.3)")
    for name in ("Line-ups", "Open the console", "Signing"):
        expect(rows.get_by_role("link", name=name, exact=True)).to_be_visible()
    # The referee's report is the referees' (4.2 P): not offered to the table.
    expect(rows.get_by_role("link", name="Confidential report")).to_have_count(0)
    screenshot(page, "two-duties-one-row")


# --- the team manager's line-up ---------------------------------------------------------------------------------


def _eligible_line(entry, number: str, position=Position.PLAYER, **marks):
    person = PersonFactory(federation=entry.federation, is_goalkeeper=position == Position.GOALKEEPER)
    PassportFactory(person=person)
    return RosterEntryFactory(entry=entry, person=person, number=number, position=position, confirmed=True, **marks)


@pytest.fixture
def manager_world(transactional_db):
    """A team with two games tomorrow (10:00 and 18:00) and a registered roster numbered so that text order is not
    number order (5, 7, 9, 12, 14, 22, 36 and goalkeepers 1, 30); its captain no. 36, alternate no. 5."""
    championship, today = _running_championship()
    tomorrow = today + datetime.timedelta(days=1)
    team = TeamEntryFactory(championship=championship)
    first = GameFactory(championship=championship, home=team, start_at=_at(championship, tomorrow, 10))
    second = GameFactory(
        championship=championship, phase=first.phase, away=team, start_at=_at(championship, tomorrow, 18)
    )
    lines = {
        number: _eligible_line(team, number, captain=number == "36", alternate=number == "5")
        for number in ("36", "5", "12", "7", "22", "9", "14")
    }
    lines.update({number: _eligible_line(team, number, Position.GOALKEEPER) for number in ("30", "1")})
    manager = with_role(Role.TEAM_MANAGER, team.federation)
    team.managers.add(manager)
    return {"team": team, "first": first, "second": second, "lines": lines, "manager": manager}


def _row(page, number: str):
    return page.locator("table.lineup-form tbody tr", has=page.locator("td.num", has_text=re.compile(rf"^{number}$")))


def _ticked(page, number: str, column: str):
    return _row(page, number).locator(f"input[name^={column}-]")


def test_a_team_manager_gives_the_line_up_from_my_teams_on_a_phone_and_the_next_one_in_french(
    page, login_as, manager_world, screenshot, accessible, outside_requests
):
    w = manager_world
    team, first, second = w["team"], w["first"], w["second"]
    login_as(w["manager"])
    page.set_viewport_size(PHONE)
    page.goto("/")
    open_menu(page)
    page.get_by_role("navigation").get_by_role("link", name="My teams", exact=True).click()
    page.get_by_role("link", name=team.name, exact=True).first.click()
    expect(page.get_by_role("heading", name=team.name, level=1)).to_be_visible()
    games = page.locator("table.entry-games tbody tr")
    expect(games).to_have_count(2)
    expect(games.nth(0)).to_contain_text(f"Game #{first.number}")
    fits_the_screen(page)
    screenshot(page, "team-games-phone")
    page.get_by_role("link", name=f"Line-up for game #{first.number}").click()

    # The line-up page: the game's teams, date and time at the venue, a link back to the game; 390 px wide.
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Line-up of {team.name} — game #{first.number}")
    local = timezone.localtime(first.start_at, venue_zone(first.championship))
    expect(page.locator(".lineup-game")).to_contain_text(f"{first.home.name} – {first.away.name}")
    expect(page.locator(".lineup-game")).to_contain_text(f"{local.day} ")
    expect(page.locator(".lineup-game")).to_contain_text("10:00")
    expect(page.locator(".lineup-game").get_by_role("link", name="The game's page")).to_be_visible()
    # Number order, not text order: 1, 5, 7, 9, 12, 14, 22, 30, 36.
    numbers = page.locator("table.lineup-form tbody td.num").all_inner_texts()
    assert numbers == ["1", "5", "7", "9", "12", "14", "22", "30", "36"], numbers
    # Nothing given yet: ticked from the roster's marks, the captain (36) and the alternate (5).
    expect(page.locator("main")).to_contain_text("the roster's captain and alternate captains are ticked")
    expect(_ticked(page, "36", "listed")).to_be_checked()
    expect(_ticked(page, "36", "captain")).to_be_checked()
    expect(_ticked(page, "5", "listed")).to_be_checked()
    expect(_ticked(page, "5", "alternate")).to_be_checked()
    expect(_ticked(page, "12", "listed")).not_to_be_checked()
    fits_the_screen(page)
    _readable(page)
    accessible(page, "the line-up form on a phone")
    screenshot(page, "line-up-prefilled-phone")

    # A wrong line-up: both goalkeepers in the starting line-up (5.3 A-B): refused, naming them and the rule.
    for number in ("1", "30", "7", "9", "12", "14", "22"):
        _ticked(page, number, "listed").check()
    _ticked(page, "1", "starting").check()
    _ticked(page, "30", "starting").check()
    page.get_by_role("button", name="Give the line-up").click()
    page.wait_for_load_state()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Rule 5.3 A: the starting line-up has one goalkeeper (5.3 B); 2 are marked")
    goalkeepers = [w["lines"][n] for n in ("1", "30")]
    for line in goalkeepers:
        expect(alert).to_contain_text(f"#{line.number} {line.person}")
    expect(alert).not_to_contain_text("not 1 and 2")
    assert not Lineup.objects.filter(game=first).exists()
    # The refused form comes back as it was ticked.
    expect(_ticked(page, "30", "starting")).to_be_checked()
    fits_the_screen(page)
    screenshot(page, "line-up-refused-phone")

    # The right one: goalkeeper no. 1 starts with four floor players.
    _ticked(page, "30", "starting").uncheck()
    for number in ("7", "9", "12", "36"):
        _ticked(page, number, "starting").check()
    page.get_by_role("button", name="Give the line-up").click()
    page.wait_for_load_state()
    expect(page.locator(".messages")).to_contain_text(f"Line-up of {team} for game {first.number} saved.")
    lineup = Lineup.objects.get(game=first, entry=team)
    given = {p.number: p for p in lineup.players.all()}
    assert sorted(given, key=int) == ["1", "5", "7", "9", "12", "14", "22", "30", "36"]
    assert given["36"].captain and given["5"].alternate
    assert {n for n, p in given.items() if p.starting} == {"1", "7", "9", "12", "36"}
    expect(page.locator("main")).to_contain_text("Last given")

    # The next game, in French, from the home's "line-ups due": ticked as the line-up just given.
    page.set_viewport_size(DESKTOP)
    _switch(page, "fr")
    page.locator("a.brand").click()
    page.get_by_role("link", name=f"Donner la composition de {team.name} pour le match n° {second.number}").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(
        f"Composition de {team.name} — match n° {second.number}"
    )
    expect(page.locator("main")).to_contain_text(f"match n° {first.number}")
    for number in given:
        expect(_ticked(page, number, "listed")).to_be_checked()
    expect(_ticked(page, "36", "captain")).to_be_checked()
    numbers = page.locator("table.lineup-form tbody td.num").all_inner_texts()
    assert numbers == ["1", "5", "7", "9", "12", "14", "22", "30", "36"], numbers
    expect(page.locator(".lineup-game").get_by_role("link", name="La page du match")).to_be_visible()
    expect(page.locator(".lineup-game")).to_contain_text("18:00")
    page.set_viewport_size(PHONE)
    fits_the_screen(page)
    accessible(page, "the next line-up, in French, on a phone")
    screenshot(page, "next-line-up-french-phone")
    page.get_by_role("button", name="Remettre la composition").click()
    page.wait_for_load_state()
    assert Lineup.objects.get(game=second, entry=team).players.count() == 9
    # The game's page, reached from the line-up's link.
    page.locator(".lineup-game").get_by_role("link", name="La page du match").click()
    page.wait_for_url(f"**/games/{second.pk}/live/")
    assert outside_requests == []


# --- the staff's game page while its sheet is open ----------------------------------------------------------------


def test_staff_open_a_game_page_while_its_sheet_is_open_and_follow_it(page, login_as, screenshot, outside_requests):
    """4.3 A: while the officials keep the live sheet, the staff's game page shows the sheet's state and links to
    it; it offers no move, result, goal or penalty form the services would refuse (the sheet is the record)."""
    from tests.e2e.live_helpers import entered_at_the_table
    from tests.games.sheet_helpers import entry, sheet_game

    director = international_staff(username="director-sheet-open")
    game = sheet_game()
    entered_at_the_table(
        game,
        by=director,
        device="table",
        events=[
            entry("period_start", period=1, time="00:00"),
            entry("goal", period=1, time="04:10", team="home", player=8, assist=9, seconds=1),
        ],
    )
    login_as(director)
    page.goto("/")
    open_menu(page)
    page.get_by_role("navigation").get_by_role("link", name="Championships", exact=True).click()
    page.get_by_role("link", name=game.championship.name, exact=True).click()
    page.get_by_role("link", name="Schedule", exact=True).click()
    page.locator("tr", has=page.locator("td.num", has_text=re.compile(rf"^{game.number}$"))).get_by_role(
        "link", name="Manage"
    ).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Game {game.number}:")
    facts = page.locator("dl.facts")
    expect(facts).to_contain_text("Live sheet: ")
    expect(facts).to_contain_text("period 1, 1–0")
    expect(facts).not_to_contain_text("Scheduled")
    expect(page.locator("main")).to_contain_text("The goals are entered on the live sheet.")
    expect(page.locator("main")).not_to_contain_text("No goal entered.")
    for refused in ("Move", "Record the result", "Add the goal", "Add the penalty"):
        expect(page.get_by_role("button", name=refused)).to_have_count(0)
    _readable(page)
    screenshot(page, "game-page-sheet-open")
    facts.get_by_role("link", name="Follow the live sheet").click()
    page.wait_for_url(f"**/games/{game.pk}/live/")
    assert outside_requests == []
