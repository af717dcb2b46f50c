"""Shared builders for the engine's database-free tests."""

from games.engine import Game, TeamRoster, parse_log, replay, state_at

HOME = TeamRoster("Italy", frozenset(range(2, 12)), frozenset({1, 30}), captain=9)
AWAY = TeamRoster("Spain", frozenset(range(12, 22)), frozenset({31, 35}), captain=12)


def game(game_type: str = "round_robin") -> Game:
    return Game(home=HOME, away=AWAY, game_type=game_type)


def run(entries: list[dict], game_type: str = "round_robin", **kwargs):
    return replay(parse_log(entries), game(game_type), **kwargs)


def run_to(entries: list[dict], period: int, time: int, game_type: str = "round_robin"):
    return state_at(parse_log(entries), game(game_type), period, time)


def ev(type_: str, period: int | None = None, time=None, **fields) -> dict:
    event = {"type": type_, **fields}
    if period is not None:
        event["period"] = period
    if time is not None:
        event["time"] = time
    return event


def regulation_tied(extra_ot: list[dict] | None = None) -> list[dict]:
    """An elimination game 1-1 after two periods, then overtime and the given events."""
    events = [
        ev("period_start", 1),
        ev("goal", 1, "3:00", team="home", player=5),
        ev("clock_start", 1, "3:00"),
        ev("period_end", 1, "20:00"),
        ev("period_start", 2),
        ev("goal", 2, "7:00", team="away", player=14),
        ev("clock_start", 2, "7:00"),
        ev("period_end", 2, "20:00"),
    ]
    return events + (extra_ot or [])
