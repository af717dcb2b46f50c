"""The penalty box: strength, stacking, expiry, goals that end penalties, accumulation.

Entitled strength and who sits in the box are two separate things (R-22,
R-24): ``TeamState.running_strength`` counts the time penalties that remove a
floor player; ``TeamState.box`` lists every person in the box, including
those whose time is over but who wait for a stoppage.
"""

from .ruleset import (
    BENCH_MINOR,
    DOUBLE_MINOR,
    GAME_EJECTION,
    GAME_MISCONDUCT,
    MAJOR,
    MATCH,
    MINOR,
    MISCONDUCT,
    Ruleset,
)
from .state import DONE, EXPIRED, QUEUED, RUNNING, STACKED, PlayerRecord, Serve, TeamState

# Penalties whose time a goal against the shorthanded team can end (6.2.1 B, R-23).
GOAL_ENDS = frozenset({MINOR, BENCH_MINOR, DOUBLE_MINOR})
# Penalties that remove a floor player while they run (6.2.1 A, R-22, R-27, R-30).
STRENGTH = frozenset({MINOR, BENCH_MINOR, DOUBLE_MINOR, MAJOR, MATCH})
# Total length of the penalties that can be coincidental, in minutes (6.1.3 C-D, 6.2.3, R-25).
COINCIDENT_LENGTH = {MINOR: 2, BENCH_MINOR: 2, DOUBLE_MINOR: 4, MAJOR: 5, MATCH: 5}


def segments(kind: str, ruleset: Ruleset) -> tuple[int, ...]:
    """Return the stretches of box time a penalty kind gives (a double minor is two minors, R-23)."""
    if kind in (MINOR, BENCH_MINOR):
        return (ruleset.minor_length,)
    if kind == DOUBLE_MINOR:
        return (ruleset.minor_length, ruleset.minor_length)
    if kind == MAJOR:
        return (ruleset.major_length,)
    if kind == MATCH:
        return (ruleset.match_length,)
    if kind == MISCONDUCT:
        return (ruleset.misconduct_length,)
    return ()


def automatic_penalties(player: PlayerRecord, kind: str, stick: bool, ruleset: Ruleset) -> list[tuple[str, str]]:
    """Count a penalty call of a player and return the penalties it adds, with their article.

    6.1.3 B: a major brings a game misconduct. R-29: a double minor, or a major
    with its game misconduct, is one call; the penalties added here are not calls.
    6.1.7 A: the 3rd call adds a misconduct; B: every later call a game ejection;
    C: the 3rd stick infraction a game ejection; D: a second misconduct of any
    origin a game misconduct.
    """
    added: list[tuple[str, str]] = []
    misconducts_before = player.misconducts
    if kind == MAJOR:
        added.append((GAME_MISCONDUCT, "6.1.3 B"))
    player.calls += 1
    if kind == MISCONDUCT:
        player.misconducts += 1
    if player.calls == ruleset.calls_for_misconduct:
        added.append((MISCONDUCT, "6.1.7 A"))
        player.misconducts += 1
    elif player.calls > ruleset.calls_for_misconduct:
        added.append((GAME_EJECTION, "6.1.7 B"))
    if stick:
        player.stick_infractions += 1
        if player.stick_infractions == ruleset.stick_infractions_for_ejection:
            if added and added[-1][0] == GAME_EJECTION:
                added[-1] = (GAME_EJECTION, "6.1.7 B, C")
            else:
                added.append((GAME_EJECTION, "6.1.7 C"))
    if misconducts_before < 2 <= player.misconducts:
        added.append((GAME_MISCONDUCT, "6.1.7 D"))
    return added


def start(team: TeamState, serve: Serve, now: int) -> None:
    """Start a serve's time now."""
    serve.status = RUNNING
    serve.start = now
    serve.end = now + serve.length
    team.running.append(serve)
    if serve.strength and not serve.coincidental:
        team.running_strength += 1


def activate(team: TeamState, serve: Serve, now: int, ruleset: Ruleset) -> None:
    """Start a serve, or stack it when two penalties already remove floor players (6.2.1 A, 6.2.2 A)."""
    if serve.strength and not serve.coincidental and team.running_strength >= ruleset.max_running:
        serve.status = STACKED
        team.stack.append(serve)
    else:
        start(team, serve, now)


def _leave(team: TeamState, serve: Serve) -> None:
    serve.status = DONE
    team.box.remove(serve)


def _hold(serve: Serve, now: int, by_stacking: bool) -> None:
    serve.status = EXPIRED
    serve.expired_at = now
    serve.held_by_stacking = by_stacking


def end_serve(team: TeamState, serve: Serve, now: int, ruleset: Ruleset, *, by_goal: bool = False) -> None:
    """End a serve whose time expired (or that a goal ended) and let the box move on."""
    team.running.remove(serve)
    serve.end = now
    following = serve.next
    stays = following is not None and following.served_by == serve.served_by and serve.served_by is not None
    if not (serve.strength and not serve.coincidental):
        # 6.1.4 A, 6.2.3 B, 6.4.1 D-E: the player stays in the box until the first stoppage after expiry.
        if following is not None:
            activate(team, following, now, ruleset)
        if stays or by_goal:
            _leave(team, serve)
        else:
            _hold(serve, now, by_stacking=False)
        return
    team.running_strength -= 1
    if following is not None and following.strength and not following.coincidental:
        # The same chain keeps its place: second half of a double minor, consecutive penalties (6.3 F).
        _leave(team, serve)
        start(team, following, now)
        return
    if following is not None:
        activate(team, following, now, ruleset)
    stacked = None
    if team.stack and team.running_strength < ruleset.max_running:
        stacked = team.stack.pop(0)
        start(team, stacked, now)
    if stays or by_goal:
        _leave(team, serve)  # a goal is a stoppage: nobody waits (6.2.2 B)
    elif stacked is not None:
        # 6.2.2 B: with three in the box, the player whose time ended waits for the stoppage.
        _hold(serve, now, by_stacking=True)
    else:
        held = [s for s in team.box if s.status == EXPIRED and s.held_by_stacking]
        if held:
            # 6.2.2 B last sentence: the team may have one more floor player: the first to expire returns now.
            first = min(held, key=lambda s: (s.expired_at, s.order))
            _leave(team, first)
            _hold(serve, now, by_stacking=True)
        else:
            _leave(team, serve)


def release_at_stoppage(team: TeamState) -> None:
    """Let every player whose time is over leave the box at a stoppage, in order of expiry (6.2.2 B-C)."""
    if team.box:
        for serve in [s for s in team.box if s.status == EXPIRED]:
            _leave(team, serve)


def next_expiry(team: TeamState) -> tuple[tuple[int, int, int], Serve] | None:
    """Return ((end, captain's-choice rank, order), serve) of the next serve to expire; the choice first (6.2.2 C)."""
    best: tuple[tuple[int, int, int], Serve] | None = None
    for serve in team.running:
        key = (serve.ends_at, 0 if serve.served_by == team.return_first and serve.served_by else 1, serve.order)
        if best is None or key < best[0]:
            best = (key, serve)
    return best


def goal_ends_penalty(conceding: TeamState, scoring: TeamState, now: int, ruleset: Ruleset) -> Serve | None:
    """End the minor that made the conceding team shorthanded, if it is (6.2.1 B, R-23, R-31); return it.

    Only when the conceding team's entitled strength is below its opponent's.
    Majors, match penalties, misconducts and coincidental penalties never end.
    ``ruleset.goal_ends_penalty`` picks the first (6.2.1 B) or the one with the least time left.
    """
    if conceding.entitled(ruleset) >= scoring.entitled(ruleset):
        return None
    candidates = [s for s in conceding.running if s.goal_ends and not s.coincidental]
    if not candidates:
        return None
    if ruleset.goal_ends_penalty == "first":
        # The penalty that first made the team shorthanded: a double minor counts from its first half.
        serve = min(candidates, key=lambda s: (s.penalty.serves[0].start, s.order))
    else:
        serve = min(candidates, key=lambda s: (s.end, s.order))
    end_serve(conceding, serve, now, ruleset, by_goal=True)
    if serve.next is None or serve.next.penalty is not serve.penalty:
        serve.penalty.status = "ended_by_goal"
    return serve


def link_after(serve: Serve, previous: Serve) -> None:
    """Queue a serve behind another one (6.1.4 C, 6.2.1 C, 6.3 F)."""
    previous.next = serve
    serve.prev = previous
    serve.status = QUEUED


def unfinished(team: TeamState, number: int) -> list[Serve]:
    """Return a person's serves that are still to run or running."""
    return [s for s in team.box if s.served_by == number and s.status in (QUEUED, STACKED, RUNNING)]


def remove_from_game(team: TeamState, number: int, now: int, ruleset: Ruleset) -> None:
    """A player leaves for the dressing room (6.1.5 A, 6.1.6 A, 6.1.7 C note).

    A substitute serves the player's time penalties; a misconduct is personal and is not served
    in the box any more (its minutes stay in the records).
    """
    for serve in [s for s in team.box if s.served_by == number]:
        if serve.kind != MISCONDUCT:
            serve.served_by = None  # a substitute is designated with a serve event
            if serve.penalty.served_by == number:
                serve.penalty.served_by = None
            continue
        was_running = serve in team.running
        if was_running:
            team.running.remove(serve)
        following = serve.next
        if serve.prev is not None:
            serve.prev.next = following
        if following is not None:
            following.prev = serve.prev
        _leave(team, serve)
        if was_running and following is not None:
            following.prev = None
            activate(team, following, now, ruleset)
