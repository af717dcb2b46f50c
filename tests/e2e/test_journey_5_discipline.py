"""Journey 5 (issue 12): a match penalty from the sheet to the refused line-up (6.1.6, 7.1, 8.2; R-53, R-07).

The crew signs a game sheet with a match penalty (6.1.6 A) for the away team's no. 16: the final sheet hands
its consequence to the discipline module, which makes the incident report (4.2 P, 7.1 a) and the provisional
suspension "until the committee decides" (7.1 b). A member of the discipline committee finds the report on his
home page, opens a case from it, decides a three-game suspension with its reasons, and reads it in the
suspension list. The away team's manager then gives the line-up of the team's next game: no. 16 is refused,
the suspension named.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import Role
from discipline.models import Case, IncidentReport, ReportStatus, Suspension, SuspensionStatus
from games.models import Lineup
from tests.e2e.live_helpers import open_menu
from tests.factories import GameFactory, international_staff, with_role
from tests.games.endgame_helpers import played_yesterday, post_log, sign_all
from tests.games.sheet_helpers import entry
from tournaments.models import GameStatus, RosterEntry

REASONS = (
    "Match penalty (6.1.6 A) for kicking an opponent (6.4.15 C), investigated under 7.1 a: "
    "suspended for three games (7.1 b)."
)


def match_penalty_game() -> list[dict]:
    """A round-robin game won 1-0 by the home team; away 16 gets a match penalty for kicking an opponent
    (6.4.15 C, 6.1.6 A) at 12:00 of period 2, a substitute serving its five minutes."""
    return [
        entry("period_start", period=1),
        entry("goal", period=1, time="5:00", team="home", player=8, assist=9),
        entry("clock_start", period=1, time="5:00"),
        entry("period_end", period=1, time="20:00"),
        entry("period_start", period=2),
        entry(
            "penalty", period=2, time="12:00", team="away", player=16, penalty="match", infraction="kicking_opponent"
        ),
        entry("clock_start", period=2, time="12:00"),
        entry("period_end", period=2, time="20:00"),
    ]


@pytest.fixture
def world():
    """The offence game final through its sheet (the real path to the incident report); the away team's next
    game tomorrow; a committee member; the away team's manager."""
    director = international_staff()
    game, scorer = played_yesterday(director)
    post_log(game, scorer, match_penalty_game())
    sign_all(game, scorer, now=timezone.now())
    game.refresh_from_db()
    assert game.status == GameStatus.FINAL
    player = RosterEntry.objects.get(entry=game.away, number="16").person
    next_game = GameFactory(
        championship=game.championship,
        phase=game.phase,
        home=game.away,
        start_at=timezone.now() + datetime.timedelta(days=1),
    )
    committee = with_role(Role.DISCIPLINE_COMMITTEE, username="committee-e2e")
    manager = with_role(Role.TEAM_MANAGER, username="away-manager-e2e")
    game.away.managers.add(manager)
    return game, player, next_game, committee, manager


def test_a_match_penalty_is_decided_three_games_and_the_player_is_refused_on_the_next_line_up(
    page, login_as, world, screenshot, outside_requests, accessible
):
    game, player, next_game, committee, manager = world
    # The final sheet made the incident report (4.2 P, 7.1 a) and the provisional suspension (7.1 b): no hand.
    report = IncidentReport.objects.get(game=game)
    assert (report.person, report.kind, report.article, report.status) == (player, "match", "6.4.15 C", "open")
    provisional = Suspension.objects.get(person=player)
    assert (provisional.provisional, provisional.kind, provisional.article) == (True, "until_decision", "7.1")

    # The committee member finds the report on his home page and opens it.
    login_as(committee)
    page.goto("/")
    section = page.locator("section.home-section", has=page.get_by_role("heading", name="Discipline committee"))
    link = section.get_by_role("link", name=str(report))
    expect(link).to_be_visible()
    accessible(page, "the committee's home page")
    screenshot(page, "home-open-report")
    # The queue lists it too, with the match penalty's article.
    open_menu(page)
    page.get_by_role("link", name="Discipline", exact=True).click()
    expect(page.get_by_role("heading", name="Incident reports")).to_be_visible()
    row = page.locator("tbody tr", has_text=str(player))
    expect(row).to_contain_text("Match penalty (6.1.6) · 6.4.15 C")
    accessible(page, "the incident report queue")
    screenshot(page, "queue")
    row.get_by_role("link").click()
    expect(page.get_by_role("heading", name=f"Incident report: game #{game.number}")).to_be_visible()
    expect(page.locator("main")).to_contain_text("Match penalty (6.1.6) · 6.4.15 C")
    expect(page.locator("main")).to_contain_text("P2 12:00")
    accessible(page, "the incident report")
    screenshot(page, "report")

    # He opens a case from it by keyboard: the title, then Enter.
    page.get_by_label("Title").focus()
    page.keyboard.type(f"Match penalty, {player} (6.1.6)")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/discipline/cases/\d+/$"))
    case = Case.objects.get()
    assert case.title == f"Match penalty, {player} (6.1.6)"
    report.refresh_from_db()
    assert report.status == ReportStatus.IN_CASE
    expect(page.get_by_role("heading", name=case.title)).to_be_visible()
    accessible(page, "the case")

    # The decision: sanctions, three games (7.1 b: the committee sets the suspension's duration), with reasons.
    decide = page.locator("form", has=page.get_by_role("button", name="Record the decision"))
    decide.get_by_label("Outcome").select_option(label="Sanctions")
    decide.get_by_label("Reasons").fill(REASONS)
    # The people of the case are offered by number and team, the report's player first (issue 25).
    decide.get_by_label("Person").select_option(label=f"#16 {player} ({game.away})")
    decide.get_by_label("Kind").select_option(label="Games")
    decide.get_by_label("Games").fill("3")
    decide.get_by_label("Article").fill("7.1")
    screenshot(page, "case-decision-filled")
    decide.get_by_label("Article").press("Enter")  # the form submits from the keyboard
    page.wait_for_load_state()
    expect(page.get_by_role("heading", name="Decision")).to_be_visible()
    decided = "Rule 7.1: suspended (decided) for 3 game(s), 0 served"
    expect(page.locator("main")).to_contain_text(REASONS)
    expect(page.locator("main")).to_contain_text(decided)
    accessible(page, "the decided case")
    screenshot(page, "case-decided")
    provisional.refresh_from_db()
    assert provisional.status == SuspensionStatus.REPLACED
    suspension = Suspension.objects.get(person=player, provisional=False)
    assert (suspension.kind, suspension.games_required, suspension.status) == ("games", 3, SuspensionStatus.ACTIVE)

    # The suspension list shows it in force, the provisional one replaced.
    open_menu(page)
    page.get_by_role("link", name="Suspensions", exact=True).click()
    expect(page.get_by_role("heading", name="Suspensions")).to_be_visible()
    rows = page.locator("tbody tr", has_text=str(player))
    expect(rows.filter(has_text=decided)).to_contain_text("In force")
    expect(rows.filter(has_text="Rule 7.1: suspended (provisional)")).to_contain_text("Replaced")
    accessible(page, "the suspension list")
    screenshot(page, "suspensions")

    # The away team's manager gives the line-up of the team's next game, no. 16 among the players.
    page.context.clear_cookies()  # the next person, in a fresh session
    login_as(manager)
    page.goto(f"/games/{next_game.pk}/lineup/{next_game.home_id}/")
    expect(page.get_by_role("heading", name=re.compile(rf"game #{next_game.number}$"))).to_be_visible()
    accessible(page, "the line-up form")
    listed = ["12", "13", "14", "15", "16", "17", "31"]
    for number in listed:
        person = RosterEntry.objects.get(entry=next_game.home, number=number).person
        box = page.get_by_role("checkbox", name=f"Listed {person}", exact=True)
        box.focus()
        if not box.is_checked():  # the form comes ticked with the roster's captain (issue 25)
            page.keyboard.press("Space")  # the keyboard ticks the boxes
        expect(box).to_be_checked()
    captain = RosterEntry.objects.get(entry=next_game.home, number="12").person
    page.get_by_role("checkbox", name=f"Captain {captain}", exact=True).check()
    page.get_by_role("button", name="Give the line-up").click()
    page.wait_for_load_state()

    # Refused: the message names the player, the rule and the suspension; nothing is stored.
    errors = page.locator(".errors")
    expect(errors).to_contain_text(f"#16 {player}")
    expect(errors).to_contain_text("a suspended player cannot be on the line-up")
    expect(errors).to_contain_text(decided)
    assert not Lineup.objects.filter(game=next_game).exists()
    # What the manager ticked is still ticked: he unticks no. 16 and gives it again.
    for number in listed:
        person = RosterEntry.objects.get(entry=next_game.home, number=number).person
        expect(page.get_by_role("checkbox", name=f"Listed {person}", exact=True)).to_be_checked()
    accessible(page, "the refused line-up")
    screenshot(page, "lineup-refused")
    page.get_by_role("checkbox", name=f"Listed {player}", exact=True).uncheck()
    page.get_by_role("button", name="Give the line-up").click()
    page.wait_for_load_state()
    expect(page.locator(".messages")).to_contain_text("saved")
    lineup = Lineup.objects.get(game=next_game)
    assert player.pk not in set(lineup.players.values_list("person_id", flat=True))
    assert lineup.players.count() == len(listed) - 1
    screenshot(page, "lineup-given")
    assert outside_requests == []
