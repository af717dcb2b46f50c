"""Line-ups (5.1, 5.3, 5.4 F; R-07) and the start of the game (5.3 B), at their boundaries."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from accounts.models import Role
from discipline import services as discipline
from discipline.services import ActiveSuspension
from games import services
from games.models import Lineup, LineupPlayer
from tests.factories import RosterEntryFactory, UserFactory, with_role
from tournaments.models import GameStatus, Position

from .conftest import AFTER, BEFORE, goalkeepers_of, skaters_of, team_officials


def choices(lines, *, captain=True, starting=()):
    """The line-up of ``lines``: the first floor player is captain."""
    first_skater = next((line for line in lines if line.position == Position.PLAYER), None)
    return [
        services.LineupChoice(
            person_id=line.person_id,
            captain=captain and line is first_skater,
            starting=line.person_id in starting,
        )
        for line in lines
    ]


def submit(game, entry, lines, *, by, officials=(), now=BEFORE, **kwargs):
    return services.lineup_submit(
        game=game,
        entry=entry,
        players=choices(lines, **kwargs),
        bench_officials=[o.person_id for o in officials],
        by=by,
        now=now,
    )


def refusal(call) -> dict[str, list[str]]:
    with pytest.raises(ValidationError) as exc:
        call()
    return exc.value.message_dict


@pytest.mark.parametrize(("skaters", "ok"), [(14, True), (15, False)])
def test_a_lineup_lists_at_most_14_floor_players_r_07(game, home_roster, manager, skaters, ok):
    lines = skaters_of(home_roster)[:skaters] + goalkeepers_of(home_roster)[:2]
    if ok:
        lineup = submit(game, game.home, lines, by=manager)
        assert lineup.players.filter(position=Position.PLAYER).count() == 14
    else:
        errors = refusal(lambda: submit(game, game.home, lines, by=manager))
        assert "Rule 5.1 A" in errors["players"][0] and "14" in errors["players"][0]
        assert not Lineup.objects.exists()


@pytest.mark.parametrize(("goalkeepers", "ok"), [(2, True), (3, False)])
def test_a_lineup_lists_at_most_2_goalkeepers_r_07(game, home_roster, manager, goalkeepers, ok):
    lines = skaters_of(home_roster)[:10] + goalkeepers_of(home_roster)[:goalkeepers]
    if ok:
        assert submit(game, game.home, lines, by=manager).players.count() == 12
    else:
        errors = refusal(lambda: submit(game, game.home, lines, by=manager))
        assert any("at most 2 goalkeepers" in m and "R-07" in m for m in errors["players"])


@pytest.mark.parametrize(("count", "ok"), [(5, True), (6, False)])
def test_at_most_five_team_officials_sit_on_the_bench_5_4_f(game, home_roster, manager, count, ok):
    officials = team_officials(game.home, count=count)
    lines = skaters_of(home_roster)[:10] + goalkeepers_of(home_roster)[:2]
    if ok:
        assert submit(game, game.home, lines, by=manager, officials=officials).bench_officials.count() == 5
    else:
        errors = refusal(lambda: submit(game, game.home, lines, by=manager, officials=officials))
        assert errors["bench_officials"][0].startswith("Rule 5.4 F")


def test_only_the_teams_registered_officials_sit_on_the_bench(game, home_roster, manager):
    stranger = team_officials(game.away, count=1)
    errors = refusal(lambda: submit(game, game.home, home_roster[:5], by=manager, officials=stranger))
    assert "5.4 F" in errors["bench_officials"][0]


def test_a_player_off_the_registered_roster_is_refused_5_1_b(game, home_roster, manager):
    unregistered = RosterEntryFactory(entry=game.home, number="77", confirmed=False)
    errors = refusal(lambda: submit(game, game.home, [*home_roster[:6], unregistered], by=manager))
    assert errors["players"] == ["players[6]: Rule 5.1 B: only players on the registered team roster can play (R-07)"]


def test_a_lineup_marks_the_captain_or_an_alternate_3_1_2(game, home_roster, manager):
    errors = refusal(lambda: submit(game, game.home, home_roster[:6], by=manager, captain=False))
    assert "3.1.2 B" in errors["captain"][0]


def test_a_suspended_player_is_refused_with_the_suspension_named(game, home_roster, manager, monkeypatch):
    """R-07, R-53: the discipline module names who is suspended; the line-up refuses them."""
    suspended = home_roster[3]

    def suspensions(*, game, person_ids):
        wanted = set(person_ids)
        assert suspended.person_id in wanted
        return {
            suspended.person_id: ActiveSuspension(
                suspended.person_id, "suspended for the next game after a major + game misconduct (8.2 A)"
            )
        }

    monkeypatch.setattr(discipline, "active_suspensions", suspensions)
    errors = refusal(lambda: submit(game, game.home, home_roster[:8], by=manager))
    assert errors["players"] == [
        "players[3]: Rule 8.2 A: a suspended player cannot be on the line-up: "
        "suspended for the next game after a major + game misconduct (8.2 A) (R-07, R-53)"
    ]
    assert not Lineup.objects.exists()


def test_a_suspended_team_official_is_refused_on_the_bench(game, home_roster, manager, monkeypatch):
    coach = team_officials(game.home, count=1)
    monkeypatch.setattr(
        discipline,
        "active_suspensions",
        lambda *, game, person_ids: {
            coach[0].person_id: ActiveSuspension(coach[0].person_id, "8.2 C, rest of tournament")
        },
    )
    errors = refusal(lambda: submit(game, game.home, home_roster[:6], by=manager, officials=coach))
    assert "8.2 C, rest of tournament" in errors["bench_officials"][0]


def test_a_player_suspended_by_the_discipline_module_is_refused_naming_the_suspension(game, home_roster, manager):
    """R-53, 8.2 A: a major + game misconduct in the team's previous game; the real suspension is named."""
    import datetime

    from tests.factories import GameFactory, game_consequence

    assert discipline.active_suspensions(game=game, person_ids=[line.person_id for line in home_roster]) == {}
    earlier = GameFactory(
        championship=game.championship, phase=game.phase, home=game.home,
        start_at=game.start_at - datetime.timedelta(days=1), status=GameStatus.FINAL, home_goals=1, away_goals=0,
    )  # fmt: skip
    offender = home_roster[3]
    discipline.receive_game_consequences(
        game=earlier,
        consequences=[
            game_consequence(earlier, offender.person, kind="game_misconduct", article="6.1.3 B", infraction="")
        ],
    )
    errors = refusal(lambda: submit(game, game.home, home_roster[:8], by=manager))
    assert errors["players"] == [
        "players[3]: Rule 8.2 A: a suspended player cannot be on the line-up: "
        "Rule 8.2 A: suspended (provisional) for 1 game(s), 0 served (R-07, R-53)"
    ]
    assert not Lineup.objects.exists()


def test_giving_the_lineup_again_replaces_it(game, home_roster, manager):
    submit(game, game.home, home_roster[:10], by=manager)
    lineup = submit(game, game.home, home_roster[2:8], by=manager)
    assert set(lineup.players.values_list("person_id", flat=True)) == {line.person_id for line in home_roster[2:8]}
    assert Lineup.objects.count() == 1


def test_the_lineup_takes_number_and_position_from_the_roster(game, home_roster, manager):
    lineup = submit(game, game.home, [home_roster[0], goalkeepers_of(home_roster)[0]], by=manager)
    assert sorted(lineup.players.values_list("number", "position")) == [("1", "goalkeeper"), ("10", "player")]


def test_no_change_after_the_start_5_1_c(game, home_roster, manager):
    submit(game, game.home, home_roster[:10], by=manager)
    errors = refusal(lambda: submit(game, game.home, home_roster[:12], by=manager, now=AFTER))
    assert errors["players"] == ["Rule 5.1 C: the line-up cannot change after the game has started (R-07)"]
    assert LineupPlayer.objects.count() == 10


def test_a_final_game_has_started_whatever_its_time(game):
    game.status, game.home_goals, game.away_goals = GameStatus.FINAL, 1, 0
    assert services.game_has_started(game, now=BEFORE)
    game.status = GameStatus.SCHEDULED
    assert not services.game_has_started(game, now=BEFORE)
    assert services.game_has_started(game, now=AFTER)


def test_the_team_manager_gives_only_his_own_teams_lineup(game, home_roster, away_roster, manager):
    with pytest.raises(PermissionDenied):
        submit(game, game.away, away_roster[:6], by=manager)
    for user in (with_role(Role.GAME_OFFICIAL), UserFactory()):
        with pytest.raises(PermissionDenied):
            submit(game, game.home, home_roster[:6], by=user)


def test_a_team_that_does_not_play_the_game_is_refused(game, manager):
    from tests.factories import TeamEntryFactory

    other = TeamEntryFactory(championship=game.championship)
    errors = refusal(lambda: submit(game, other, [], by=manager))
    assert "5.1 A" in errors["entry"][0]


def test_the_starting_line_up_is_four_floor_players_and_a_goalkeeper_5_3_a(game, home_roster, manager):
    lines = skaters_of(home_roster)[:8] + goalkeepers_of(home_roster)[:2]
    five = {line.person_id for line in skaters_of(lines)[:5]}
    errors = refusal(lambda: submit(game, game.home, lines, by=manager, starting=five))
    assert "5.3 A" in errors["starting"][0]
    four = {line.person_id for line in skaters_of(lines)[:4]} | {goalkeepers_of(lines)[0].person_id}
    assert submit(game, game.home, lines, by=manager, starting=four).players.filter(starting=True).count() == 5


# --- 5.1 C: the injured or ill goalkeeper ------------------------------------------------------------------------


@pytest.fixture
def started_lineup(game, home_roster, manager):
    lines = skaters_of(home_roster)[:8] + goalkeepers_of(home_roster)[:2]
    return submit(game, game.home, lines, by=manager)


def test_an_injured_goalkeeper_is_replaced_by_a_player_on_the_list_5_1_c(started_lineup, manager):
    goalkeeper = started_lineup.players.filter(position=Position.GOALKEEPER).first()
    captain = started_lineup.players.get(captain=True)
    replacement = services.lineup_replace_injured_goalkeeper(
        lineup=started_lineup,
        goalkeeper_id=goalkeeper.person_id,
        replacement_id=captain.person_id,
        by=manager,
        now=AFTER,
    )
    assert (replacement.position, replacement.captain, replacement.replaces_id) == ("goalkeeper", False, goalkeeper.pk)
    goalkeeper.refresh_from_db()
    assert goalkeeper.injured_at == AFTER
    roster_now = services.lineup_team_roster(started_lineup)
    assert int(goalkeeper.number) not in roster_now.goalkeepers
    assert int(replacement.number) in roster_now.goalkeepers


def test_the_replacement_must_already_be_on_the_list_5_1_c(started_lineup, home_roster, manager):
    goalkeeper = started_lineup.players.filter(position=Position.GOALKEEPER).first()
    off_list = goalkeepers_of(home_roster)[2]
    with pytest.raises(ValidationError) as exc:
        services.lineup_replace_injured_goalkeeper(
            lineup=started_lineup,
            goalkeeper_id=goalkeeper.person_id,
            replacement_id=off_list.person_id,
            by=manager,
            now=AFTER,
        )
    assert "5.1 C" in exc.value.message_dict["replacement"][0]


def test_only_a_goalkeeper_is_replaced_and_only_after_the_start_5_1_c(started_lineup, manager):
    skater, other = started_lineup.players.filter(position=Position.PLAYER)[:2]
    with pytest.raises(ValidationError, match="5.1 C"):
        services.lineup_replace_injured_goalkeeper(
            lineup=started_lineup, goalkeeper_id=skater.person_id, replacement_id=other.person_id, by=manager, now=AFTER
        )
    goalkeeper = started_lineup.players.filter(position=Position.GOALKEEPER).first()
    with pytest.raises(ValidationError, match="before the start"):
        services.lineup_replace_injured_goalkeeper(
            lineup=started_lineup,
            goalkeeper_id=goalkeeper.person_id,
            replacement_id=other.person_id,
            by=manager,
            now=BEFORE,
        )


# --- 5.3 B: the game starts with four floor players and a goalkeeper per team --------------------------------------


@pytest.mark.parametrize(
    ("skaters", "goalkeepers", "ok"), [(3, 1, False), (4, 0, False), (4, 1, True)], ids=["3+1", "4+0", "4+1"]
)
def test_a_game_starts_with_four_floor_players_and_a_goalkeeper_5_3_b(
    game, home_roster, away_roster, manager, director, skaters, goalkeepers, ok
):
    home_lines = skaters_of(home_roster)[:skaters] + goalkeepers_of(home_roster)[:goalkeepers]
    submit(game, game.home, home_lines, by=manager)
    submit(game, game.away, skaters_of(away_roster)[:4] + goalkeepers_of(away_roster)[:1], by=director)
    if ok:
        services.check_game_can_start(game)
        assert services.game_start_problems(game) == {}
    else:
        with pytest.raises(ValidationError) as exc:
            services.check_game_can_start(game)
        errors = exc.value.message_dict
        assert list(errors) == ["home"]
        assert errors["home"][0].startswith("Rule 5.3 B / 8.1 A")
        assert f"{skaters} floor player(s) and {goalkeepers} goalkeeper(s)" in errors["home"][0]


def test_a_game_without_a_lineup_cannot_start(game, home_roster, manager):
    submit(game, game.home, skaters_of(home_roster)[:4] + goalkeepers_of(home_roster)[:1], by=manager)
    assert set(services.game_start_problems(game)) == {"away"}
    assert "5.1 A" in services.game_start_problems(game)["away"]


def test_the_start_check_counts_as_the_engine_does(game, home_roster, manager):
    """One count of 5.3 B: the portal's check and the engine's period start share starting_line_up_problem."""
    from games.engine.replay import starting_line_up_problem

    lineup = submit(game, game.home, skaters_of(home_roster)[:3] + goalkeepers_of(home_roster)[:1], by=manager)
    expected = starting_line_up_problem("home", services.lineup_team_roster(lineup), floor_players=4)
    assert services.game_start_problems(game)["home"] == expected


def test_an_injured_goalkeeper_no_longer_counts_for_the_start(game, home_roster, away_roster, manager, director):
    lines = skaters_of(home_roster)[:5] + goalkeepers_of(home_roster)[:1]
    lineup = submit(game, game.home, lines, by=manager)
    submit(game, game.away, skaters_of(away_roster)[:4] + goalkeepers_of(away_roster)[:1], by=director)
    goalkeeper = lineup.players.get(position=Position.GOALKEEPER)
    skater = lineup.players.filter(position=Position.PLAYER).first()
    services.lineup_replace_injured_goalkeeper(
        lineup=lineup, goalkeeper_id=goalkeeper.person_id, replacement_id=skater.person_id, by=manager, now=AFTER
    )
    assert services.game_start_problems(game) == {}  # 4 floor players and the replacement in goal
