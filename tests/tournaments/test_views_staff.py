"""Tournament direction pages: set-up, entries, schedule generation, games, results, summaries, shoot-outs."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from accounts.models import Role
from tests.factories import (
    ChampionshipFactory,
    FederationFactory,
    RinkFactory,
    SuperuserFactory,
    TeamEntryFactory,
    UserFactory,
    federation_staff,
    international_staff,
    with_role,
)
from tournaments.models import (
    Championship,
    DecidedIn,
    EntryStatus,
    Game,
    GameStatus,
    GoalRecord,
    PenaltyRecord,
    StandingsShootout,
)
from tournaments.selectors import standings_for_pool

from .conftest import full_roster, goal_lines, make_pool, round_robin_games
from .test_views import finish

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return international_staff()


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


def test_anonymous_visitors_are_sent_to_log_in_for_staff_pages(client):
    championship = ChampionshipFactory()
    response = client.get(reverse("tournaments:entries", args=[championship.pk]))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_staff_of_another_national_federation_may_not_direct_the_championship(client):
    championship = ChampionshipFactory()
    client.force_login(federation_staff())
    for name in ("championship-edit", "entries", "schedule-generate"):
        assert client.get(reverse(f"tournaments:{name}", args=[championship.pk])).status_code == 403, name


def test_a_team_manager_may_not_move_a_game(client):
    championship = ChampionshipFactory()
    pool = make_pool(championship, 2)
    _, games = round_robin_games(pool)
    manager = with_role(Role.TEAM_MANAGER, FederationFactory())
    client.force_login(manager)
    game = next(iter(games.values()))
    response = client.post(reverse("tournaments:game-manage", args=[game.pk]), {"action": "move"})
    assert response.status_code == 403


# --- set-up --------------------------------------------------------------------------------------------------------


def _parameters() -> dict:
    """The rules' parameters of the set-up form (issue 25: labelled fields, no JSON box), at their defaults."""
    from tournaments.championship_form_views import PARAMETERS
    from tournaments.ruleset import DEFAULT_RULESET

    values = {p.field_name: getattr(getattr(DEFAULT_RULESET, p.section), p.name) for p in PARAMETERS}
    return {name: "" if value is None else str(value) for name, value in values.items()}


def _setup_data(championship: Championship, **changes):
    data = {
        "name": championship.name,
        "category": championship.category,
        "level": championship.level,
        "start_date": championship.start_date.isoformat(),
        "end_date": championship.end_date.isoformat(),
        "venue": championship.venue_id,
        "entry_closing_date": championship.entry_closing_date.isoformat(),
        "sanctioning_body": championship.sanctioning_body_id,
        "standings_preset": championship.standings_preset,
        **_parameters(),
        "entry_fee": "500.00",
        "entry_fee_currency": "USD",
    }
    data.update(changes)
    return data


def test_a_director_creates_a_championship(director_client):
    template = ChampionshipFactory.build()
    template.venue.save()
    template.sanctioning_body.save()
    template.venue_id, template.sanctioning_body_id = template.venue.pk, template.sanctioning_body.pk
    data = _setup_data(template, name="European Championship 2027", entry_fee="750", entry_fee_currency="eur")
    response = director_client.post(reverse("tournaments:championship-create"), data)
    created = Championship.objects.get(name="European Championship 2027")
    assert response.status_code == 302
    assert str(created.entry_fee.currency) == "EUR"
    assert created.entry_fee.amount == Decimal("750")


def test_a_bad_ruleset_is_refused_naming_the_parameter_and_the_input_is_kept(director_client):
    championship = ChampionshipFactory()
    response = director_client.post(
        reverse("tournaments:championship-edit", args=[championship.pk]),
        _setup_data(championship, roster__max_skaters="many", name="Renamed"),
    )
    assert response.status_code == 200
    assert "R-04" in response.context["form"].errors["roster__max_skaters"][0]
    assert "Renamed" in response.text
    championship.refresh_from_db()
    assert championship.ruleset == {}
    assert championship.name != "Renamed"


def test_the_ruleset_is_refused_once_the_championship_has_begun(director_client):
    """The ruleset is frozen after the first game started; the page shows the rule's message and keeps nothing."""
    championship = ChampionshipFactory()
    pool = make_pool(championship, 2)
    _, games = round_robin_games(pool)
    finish(next(iter(games.values())), 1, 0)
    response = director_client.post(
        reverse("tournaments:championship-edit", args=[championship.pk]),
        _setup_data(championship, roster__max_skaters="12", name="Renamed too"),
    )
    assert response.status_code == 200
    assert "frozen once the championship has begun" in response.text
    championship.refresh_from_db()
    assert championship.ruleset == {}
    assert championship.name != "Renamed too"


def test_the_ruleset_can_change_before_the_start(director_client):
    championship = ChampionshipFactory()
    response = director_client.post(
        reverse("tournaments:championship-edit", args=[championship.pk]),
        _setup_data(championship, roster__max_skaters="12", standings_preset="iihf"),
    )
    assert response.status_code == 302
    championship.refresh_from_db()
    assert championship.ruleset == {"roster": {"max_skaters": 12}}
    assert championship.standings_preset == "iihf"


def test_the_set_up_page_shows_an_unknown_currency_beside_its_field(director_client):
    championship = ChampionshipFactory()
    response = director_client.post(
        reverse("tournaments:championship-edit", args=[championship.pk]),
        _setup_data(championship, entry_fee_currency="abc", name="Renamed"),
    )
    assert response.status_code == 200
    assert "PORTAL_CURRENCIES" in response.context["form"].errors["entry_fee_currency"][0]
    championship.refresh_from_db()
    assert championship.name != "Renamed"


# --- entries -------------------------------------------------------------------------------------------------------


def test_the_entries_list_records_a_fee_as_paid(director_client):
    """1.1 A: the entry is confirmed once its fee is recorded as paid."""
    championship = ChampionshipFactory()
    entry = TeamEntryFactory(
        championship=championship, status=EntryStatus.ENTERED, fee_paid=False, fee_paid_at=None, fee_paid_amount=None
    )
    page = director_client.get(reverse("tournaments:entries", args=[championship.pk]))
    assert entry.name in page.text
    assert "Record as paid" in page.text
    response = director_client.post(
        reverse("tournaments:entry-fee-paid", args=[entry.pk]), {"amount": "500", "currency": "USD"}, follow=True
    )
    entry.refresh_from_db()
    assert entry.fee_paid
    assert entry.status == EntryStatus.CONFIRMED
    assert "entry fee recorded as paid" in response.text


def test_a_fee_below_the_amount_due_is_refused_citing_1_1_a(director_client):
    championship = ChampionshipFactory()
    entry = TeamEntryFactory(
        championship=championship, status=EntryStatus.ENTERED, fee_paid=False, fee_paid_at=None, fee_paid_amount=None
    )
    response = director_client.post(
        reverse("tournaments:entry-fee-paid", args=[entry.pk]), {"amount": "100", "currency": "USD"}, follow=True
    )
    assert "Rule 1.1 A" in response.text
    entry.refresh_from_db()
    assert not entry.fee_paid


# session, user, roles, championship, entries with their pools, managers, unread notifications (nav)
ENTRIES_PAGE_QUERIES = 7


@pytest.mark.parametrize("teams", [4, 32])
def test_the_entries_list_runs_the_same_queries_for_4_and_32_entries(director_client, django_assert_num_queries, teams):
    championship = ChampionshipFactory()
    for _ in range(teams):
        TeamEntryFactory(championship=championship).managers.add(UserFactory())
    with django_assert_num_queries(ENTRIES_PAGE_QUERIES):
        response = director_client.get(reverse("tournaments:entries", args=[championship.pk]))
    assert response.text.count("Federation ") >= teams


# --- schedule ------------------------------------------------------------------------------------------------------


def test_schedule_generation_refuses_a_rink_below_the_level_naming_the_rule(director_client):
    """2.1 C: a 40 x 20 m rink cannot host a world championship's games; no game is created."""
    championship = ChampionshipFactory()
    make_pool(championship, 4)
    small = RinkFactory(venue=championship.venue, name="Small", length_m=Decimal(40), width_m=Decimal(20))
    response = director_client.post(
        reverse("tournaments:schedule-generate", args=[championship.pk]),
        {"days": "2027-07-01, 2027-07-02", "slot_times": "10:00, 14:00", "rinks": [small.pk], "rest_slots": "1"},
    )
    assert response.status_code == 200
    errors = response.context["form"].errors["rinks"]
    assert any("2.1" in e for e in errors)
    assert not Game.objects.filter(championship=championship).exists()
    # The director's input stays in the form.
    assert "2027-07-01, 2027-07-02" in response.text


def test_schedule_generation_creates_the_round_robin_in_venue_time(director_client):
    championship = ChampionshipFactory()
    make_pool(championship, 4)
    rink = RinkFactory(venue=championship.venue)
    response = director_client.post(
        reverse("tournaments:schedule-generate", args=[championship.pk]),
        {
            "days": "2027-07-01\n2027-07-02\n2027-07-03",
            "slot_times": "10:00,14:00",
            "rinks": [rink.pk],
            "rest_slots": 1,
        },
    )
    assert response.status_code == 302
    games = Game.objects.filter(championship=championship)
    assert games.count() == 6
    first = games.order_by("start_at").first()
    # 10:00 in Rome in July is 08:00 UTC.
    assert first.start_at == datetime.datetime(2027, 7, 1, 8, 0, tzinfo=datetime.UTC)


def test_a_badly_typed_day_is_a_form_error(director_client):
    championship = ChampionshipFactory()
    rink = RinkFactory(venue=championship.venue)
    response = director_client.post(
        reverse("tournaments:schedule-generate", args=[championship.pk]),
        {"days": "first of July", "slot_times": "10:00", "rinks": [rink.pk], "rest_slots": 1},
    )
    assert response.status_code == 200
    assert "days" in response.context["form"].errors


# --- games ---------------------------------------------------------------------------------------------------------


@pytest.fixture
def pool_games():
    championship = ChampionshipFactory()
    RinkFactory(venue=championship.venue, name="Main rink")
    pool = make_pool(championship, 3)
    entries, games = round_robin_games(pool)
    for entry in entries:
        full_roster(entry, confirmed=True)
    return championship, pool, entries, games


@pytest.fixture
def director_after(after_the_games, client, director):
    """A director logged in once the games have been played (the clock at ``AFTER``)."""
    client.force_login(director)
    return client


def test_a_director_moves_a_game_in_venue_time(director_client, pool_games):
    championship, pool, (a, b, c), games = pool_games
    game = games[(a.name, b.name)]
    rink = championship.venue.rinks.get()
    response = director_client.post(
        reverse("tournaments:game-manage", args=[game.pk]),
        {"action": "move", "start_at": "2027-07-05T15:00", "rink": rink.pk},
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.start_at == datetime.datetime(2027, 7, 5, 13, 0, tzinfo=datetime.UTC)
    assert game.rink == rink


def test_moving_a_game_onto_another_game_of_its_team_is_refused(director_client, pool_games):
    championship, pool, (a, b, c), games = pool_games
    game, other = games[(a.name, b.name)], games[(a.name, c.name)]
    local = other.start_at.astimezone(championship.venue.zone).strftime("%Y-%m-%dT%H:%M")
    response = director_client.post(
        reverse("tournaments:game-manage", args=[game.pk]), {"action": "move", "start_at": local, "rink": ""}
    )
    assert response.status_code == 200
    assert f"game #{other.number}" in " ".join(response.context["move"].errors["start_at"])
    assert Game.objects.get(pk=game.pk).start_at == game.start_at


def test_a_game_under_way_on_its_live_sheet_is_not_offered_nor_taken_to_move(director_client, director, pool_games):
    """4.3 A: once the officials opened the live sheet the game is under way; the page offers no move and a posted
    one is refused naming the field and the rule, nothing changed."""
    from django.utils import timezone

    from games.models import GameSheet

    championship, pool, (a, b, c), games = pool_games
    game = games[(a.name, b.name)]
    url = reverse("tournaments:game-manage", args=[game.pk])
    assert 'value="move"' in director_client.get(url).content.decode()
    GameSheet.objects.create(game=game, teams={}, game_type="round_robin", opened_at=timezone.now(), opened_by=director)
    assert 'value="move"' not in director_client.get(url).content.decode()
    response = director_client.post(url, {"action": "move", "start_at": "2027-07-05T15:00", "rink": ""})
    assert "Rule 4.3 A: the game's live sheet is open" in " ".join(response.context["move"].errors["start_at"])
    assert Game.objects.get(pk=game.pk).start_at == game.start_at


def test_a_director_records_a_forfeit_1_0_to_the_captain(director_after, pool_games):
    """8.1 B: recorded 1-0, the goal to the winner's captain."""
    championship, pool, (a, b, c), games = pool_games
    game = games[(a.name, b.name)]
    response = director_after.post(
        reverse("tournaments:game-manage", args=[game.pk]),
        {"action": "result", "decided_in": DecidedIn.FORFEIT, "forfeited_by": b.pk},
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.status, game.home_goals, game.away_goals) == (GameStatus.FINAL, 1, 0)
    goal = GoalRecord.objects.get(game=game)
    assert goal.scorer == a.roster.get(captain=True).person
    assert goal.assist is None


def test_a_result_against_the_rules_keeps_the_input_and_names_the_rule(director_after, pool_games):
    """1.3 D: a round-robin game has no overtime under 9.3 points."""
    championship, pool, (a, b, c), games = pool_games
    game = games[(a.name, b.name)]
    goal_lines(game, 3, 2)
    response = director_after.post(
        reverse("tournaments:game-manage", args=[game.pk]),
        {"action": "result", "home_goals": "3", "away_goals": "2", "decided_in": DecidedIn.OVERTIME},
    )
    assert response.status_code == 200
    assert "Rule 1.3 D" in response.text
    form = response.context["result"]
    assert form["home_goals"].value() == "3"
    assert form["decided_in"].value() == DecidedIn.OVERTIME
    assert Game.objects.get(pk=game.pk).status == GameStatus.SCHEDULED


def test_a_director_enters_a_goal_and_a_penalty(director_after, pool_games):
    championship, pool, (a, b, c), games = pool_games
    game = games[(a.name, b.name)]
    scorer, passer = [line.person for line in a.roster.order_by("number")[:2]]
    url = reverse("tournaments:game-manage", args=[game.pk])
    response = director_after.post(
        url,
        {"action": "goal", "entry": a.pk, "scorer": scorer.pk, "assist": passer.pk, "period": 1, "minute": 12,
         "second": 30, "power_play": "on"},
    )  # fmt: skip
    assert response.status_code == 302
    goal = GoalRecord.objects.get(game=game)
    assert (goal.scorer, goal.assist, goal.time_tenths, goal.power_play) == (scorer, passer, 7500, True)
    offender = b.roster.order_by("number").first().person
    response = director_after.post(
        url,
        {"action": "penalty", "entry": b.pk, "person": offender.pk, "infraction_code": "tripping", "minutes": 2,
         "period": 2, "minute": 3, "second": 0, "gives_power_play": "on"},
    )  # fmt: skip
    assert response.status_code == 302
    assert PenaltyRecord.objects.get(game=game).person == offender
    page = director_after.get(url)
    assert "<td>12:30</td>" in page.text and "<td>03:00</td>" in page.text


def test_a_goal_assisted_by_its_scorer_is_refused_citing_5_5_11(director_after, pool_games):
    championship, pool, (a, b, c), games = pool_games
    game = games[(a.name, b.name)]
    scorer = a.roster.order_by("number").first().person
    response = director_after.post(
        reverse("tournaments:game-manage", args=[game.pk]),
        {"action": "goal", "entry": a.pk, "scorer": scorer.pk, "assist": scorer.pk, "period": 1, "minute": 1,
         "second": 0},
    )  # fmt: skip
    assert response.status_code == 200
    assert "5.5.11" in " ".join(response.context["goal"].errors["assist"])
    assert not GoalRecord.objects.filter(game=game).exists()


def test_a_penalty_with_minutes_the_records_do_not_know_is_refused_citing_r_21(director_client, pool_games):
    championship, pool, (a, b, c), games = pool_games
    game = finish(games[(a.name, b.name)], 1, 0)
    response = director_client.post(
        reverse("tournaments:game-manage", args=[game.pk]),
        {"action": "penalty", "entry": b.pk, "person": "", "infraction_code": "tripping", "minutes": 3,
         "period": 1, "minute": 1, "second": 0},
    )  # fmt: skip
    assert response.status_code == 200
    assert "R-21" in " ".join(response.context["penalty"].errors["minutes"])
    assert not PenaltyRecord.objects.filter(game=game).exists()


# --- standings shoot-out ---------------------------------------------------------------------------------------------


def test_a_director_enters_the_standings_shootout(director_client):
    """9.3 G: the tie only a shoot-out breaks is decided by the order entered."""
    championship = ChampionshipFactory()
    pool = make_pool(championship, 2)
    (a, b), games = round_robin_games(pool)
    finish(next(iter(games.values())), 2, 2)
    standings_page = director_client.get(reverse("tournaments:standings", args=[championship.pk]))
    url = reverse("tournaments:standings-shootout", args=[pool.pk])
    assert url in standings_page.text
    page = director_client.get(url)
    assert a.name in page.text and "Place 2" in page.text
    response = director_client.post(url, {"group": "0", "g0-place_1": str(b.pk), "g0-place_2": str(a.pk)})
    assert response.status_code == 302
    assert StandingsShootout.objects.filter(pool=pool).exists()
    standings = standings_for_pool(pool)
    assert standings.order == (b.name, a.name)
    assert "9.3 G: shoot-out" in standings.rows[0].decided_by


def test_the_same_team_twice_in_a_shootout_is_refused(director_client):
    championship = ChampionshipFactory()
    pool = make_pool(championship, 2)
    (a, b), games = round_robin_games(pool)
    finish(next(iter(games.values())), 2, 2)
    url = reverse("tournaments:standings-shootout", args=[pool.pk])
    response = director_client.post(url, {"group": "0", "g0-place_1": str(a.pk), "g0-place_2": str(a.pk)})
    assert response.status_code == 200
    assert "listed twice" in response.text
    assert not StandingsShootout.objects.exists()


def test_a_superuser_sees_the_staff_links_on_the_schedule(client):
    championship = ChampionshipFactory()
    pool = make_pool(championship, 2)
    _, games = round_robin_games(pool)
    client.force_login(SuperuserFactory())
    text = client.get(reverse("tournaments:schedule", args=[championship.pk])).text
    assert reverse("tournaments:game-manage", args=[next(iter(games.values())).pk]) in text


def test_staff_see_the_new_championship_link_and_the_public_does_not(client, director_client):
    create = reverse("tournaments:championship-create")
    assert create in director_client.get(reverse("tournaments:championship-list")).text
    client.logout()
    assert create not in client.get(reverse("tournaments:championship-list")).text


def test_a_goal_time_beyond_the_period_is_shown_beside_the_minutes_r_10(director_after, pool_games):
    championship, pool, (a, b, c), games = pool_games
    game = games[(a.name, b.name)]
    scorer = a.roster.order_by("number").first().person
    response = director_after.post(
        reverse("tournaments:game-manage", args=[game.pk]),
        {"action": "goal", "entry": a.pk, "scorer": scorer.pk, "period": 1, "minute": 20, "second": 30},
    )
    assert response.status_code == 200
    assert "R-10" in " ".join(response.context["goal"].errors["minute"])
    assert response.context["goal"]["second"].value() == "30"


def test_a_director_creates_the_bracket_filled_from_the_standings(director_client):
    from .test_views import build_championship

    championship, (pool_a, pool_b) = build_championship(8, with_summaries=False)
    page = director_client.get(reverse("tournaments:bracket", args=[championship.pk]))
    assert "Create the elimination games" in page.text
    response = director_client.post(
        reverse("tournaments:bracket-manage", args=[championship.pk]), {"qualifiers": "2", "placement": "bronze"}
    )
    assert response.status_code == 302
    semi = Game.objects.get(championship=championship, bracket_slot="SF1")
    assert semi.home == pool_a.members.get(seed=1).entry
    response = director_client.post(reverse("tournaments:bracket-manage", args=[championship.pk]), {"fill": "1"})
    assert response.status_code == 302


def test_a_bracket_the_pools_cannot_cross_is_refused_with_the_input_kept(director_client):
    championship = ChampionshipFactory()
    make_pool(championship, 4)
    response = director_client.post(
        reverse("tournaments:bracket-manage", args=[championship.pk]), {"qualifiers": "3", "placement": "none"}
    )
    assert response.status_code == 400
    assert "qualifiers" in response.context["form"].errors
    assert response.context["form"]["qualifiers"].value() == "3"
    assert not Game.objects.filter(championship=championship).exists()
