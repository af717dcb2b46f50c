"""Property tests of the engine over random valid game logs (hypothesis; database-free).

The logs come from tests/engine/generators.py: periods, stoppages, goals, shots,
penalties of every kind (immediate and signalled), penalty shots, time-outs within
the limits, goalkeepers pulled and returned, corrections, overtime, shoot-out,
forfeit. Properties: a valid log replays without error; entitled strength stays
between 2 and 4 floor players (6.2.1 A, R-22); minutes charged per player are the
sum over his penalties (R-21); the order of entry does not matter (R-10); a broken
log is refused with the engine's own error family, never another exception.
"""

import copy
import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import EngineError, parse_log, parse_time, replay
from games.engine.replay import Replayer, sort_events
from tests.engine.generators import random_log

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

logs = st.builds(
    random_log,
    st.randoms(use_true_random=False),
    events=st.integers(min_value=3, max_value=140),
    game_type=st.sampled_from(["round_robin", "elimination"]),
)

# minutes charged in the records per penalty kind; game ejection and gross misconduct charge none.
R21_MINUTES = {
    "minor": 2,
    "bench_minor": 2,
    "double_minor": 4,
    "major": 5,
    "misconduct": 10,
    "game_misconduct": 10,
    "match": 5,
    "game_ejection": 0,
    "gross_misconduct": 0,
    "penalty_shot": 0,
}
# 6.3 C / R-26: a washed-out signalled minor is recorded but charges nothing; 6.1.8 D: nor does a minor
# replaced by a penalty shot (6.4.6 C, 6.4.8 B).
UNCHARGED = frozenset({"not_served", "penalty_shot"})


@PROPERTY
@given(logs)
def test_random_valid_logs_replay_without_error(log):
    state = replay(log.events(), log.game, log.ruleset)
    assert state.status in ("in_progress", "intermission", "shootout", "ended")
    assert state.teams["home"].score >= 0 and state.teams["away"].score >= 0
    if state.result is not None:
        assert state.result.decided_by in ("regulation", "overtime", "shootout", "forfeit")


@PROPERTY
@given(logs)
def test_entitled_strength_stays_between_two_and_four_floor_players(log):
    """6.2.1 A, R-22: never below 2 floor players + goalkeeper, never above 4, after every event."""
    replayer = Replayer(log.game, log.ruleset)
    for event in sort_events(log.events()):
        replayer.apply(event)
        for side in ("home", "away"):
            assert 2 <= replayer.state.strength(side) <= 4, (event, side)
    state = replayer.finish()
    for side in ("home", "away"):
        assert 2 <= state.strength(side) <= 4


@PROPERTY
@given(logs)
def test_the_box_and_the_strength_agree_after_every_event(log):
    """R-22, R-24: at most two penalties remove players at once (6.2.2 A), a stacked one waits only while two
    run, the strength is 4 minus the running ones (never below 2), no remaining time is negative or longer
    than the penalty, and at a stoppage nobody waits in the box and no penalty is still signalled."""
    replayer = Replayer(log.game, log.ruleset)
    longest = 2 * max(log.ruleset.misconduct_length, log.ruleset.major_length, 2 * log.ruleset.minor_length)
    for event in sort_events(log.events()):
        replayer.apply(event)
        state = replayer.state
        for side in ("home", "away"):
            entries = state.box_entries(side)
            running = sum(1 for e in entries if e["status"] == "running" and e["affects_strength"])
            assert running <= 2, (event, side, entries)
            assert state.strength(side) == max(2, 4 - running), (event, side, entries)
            for entry in entries:
                assert 0 <= parse_time(entry["remaining"]) <= longest, (event, entry)
                if entry["status"] == "stacked":
                    assert running == 2 and not entry["coincidental"], (event, entry)
            if state.status == "in_progress" and not state.running:
                # 6.1.4 A, 6.2.2 B, 6.2.3 B: nobody whose time is over stays past a stoppage;
                # 6.3 B: a signalled penalty is assessed at the stoppage.
                assert all(e["status"] != "expired" for e in entries), (event, entries)
                assert not state.teams[side].signalled, event


@PROPERTY
@given(logs)
def test_minutes_charged_equal_the_sum_over_each_players_penalties(log):
    """R-21: minutes are charged to who incurred them (also when someone else serves), per the kind's table."""
    state = replay(log.events(), log.game, log.ruleset)
    expected: dict[tuple[str, int | None], int] = {}
    for record in state.penalties:
        minutes = 0 if record.status in UNCHARGED else R21_MINUTES[record.kind]
        assert record.minutes == minutes, record
        key = (record.team, record.player)
        expected[key] = expected.get(key, 0) + minutes
    for side in ("home", "away"):
        team = state.teams[side]
        for number, player in team.players.items():
            assert player.minutes == expected.get((side, number), 0), (side, number)
        assert team.bench_minutes == expected.get((side, None), 0), side


@PROPERTY
@given(logs, st.randoms(use_true_random=False))
def test_any_order_of_entry_gives_the_same_state(log, shuffler):
    """R-10: events carry their own entry sequence; the list order they arrive in changes nothing."""
    reference = replay(log.events(), log.game, log.ruleset).to_dict()
    entries = list(log.entries)
    shuffler.shuffle(entries)
    assert replay(parse_log(entries), log.game, log.ruleset).to_dict() == reference


CITATION = re.compile(r"\bR-\d\d\b|\b\d\.\d")
MUTATED_FIELDS = (
    "type",
    "period",
    "time",
    "team",
    "player",
    "assist",
    "penalty",
    "served_by",
    "voids",
    "seq",
    "scored",
)
MUTATION_VALUES = (None, 0, 1, 5, 14, 31, 99, 100, -1, True, "home", "away", "x", "5:00", "20:00", "minor", "goal")


@PROPERTY
@given(logs, st.randoms(use_true_random=False))
def test_mutated_logs_raise_only_engine_errors(log, rng: random.Random):
    """A broken log (dropped, duplicated or altered events) replays or is refused with an EngineError."""
    entries = copy.deepcopy(log.entries)
    for _ in range(rng.randint(1, 3)):
        roll = rng.random()
        if roll < 0.3 and len(entries) > 1:
            entries.pop(rng.randrange(len(entries)))
        elif roll < 0.5:
            index = rng.randrange(len(entries))
            copy_of = dict(entries[index], id=f"dup{index}", seq=10**6 + index)
            entries.insert(rng.randrange(len(entries) + 1), copy_of)
        else:
            rng.choice(entries)[rng.choice(MUTATED_FIELDS)] = rng.choice(MUTATION_VALUES)
    try:
        state = replay(parse_log(entries), log.game, log.ruleset)
    except EngineError as error:
        assert CITATION.search(error.message), error.message  # every refusal cites its article or R-id
    else:
        assert 2 <= state.strength("home") <= 4 and 2 <= state.strength("away") <= 4


def test_the_generator_covers_every_kind_of_ending():
    """The generated games are varied: regulation, overtime, shoot-out and forfeit all occur."""
    endings = set()
    for seed in range(400):
        state = replay(*_game(random_log(random.Random(seed), events=80)))
        endings.add(state.result.decided_by if state.result else state.status)
    assert {"regulation", "overtime", "shootout", "forfeit"} <= endings


def _game(log):
    return log.events(), log.game, log.ruleset


# -- a reference model of the box for games with minors only ----------------------------------------------

MINOR_LENGTH = 1200


class MinorBox:
    """An independent model of one team's box when it takes only minors and the other team scores.

    6.2.1 A / 6.2.2 A: at most two minors run, a third is stacked and starts when one ends.
    6.2.2 B: a player whose time ends while a stacked minor starts waits for the stoppage; when a later
    expiry lets the team have one more player, the first of the waiting players returns at once.
    6.2.1 B / R-23: a goal against ends the running minor that started first and starts a stacked one.
    A goal or any stoppage lets the waiting players go.
    """

    def __init__(self):
        self.running: list[tuple[int, int, int, int]] = []  # (player, start, end, order)
        self.stacked: list[tuple[int, int]] = []  # (player, order)
        self.waiting: list[tuple[int, int, int]] = []  # (player, expired at, order)
        self.order = 0

    def contents(self) -> list[tuple[int, str]]:
        return sorted(
            [(p, "running") for p, *_ in self.running]
            + [(p, "stacked") for p, _ in self.stacked]
            + [(p, "expired") for p, *_ in self.waiting]
        )

    def strength(self) -> int:
        return max(2, 4 - len(self.running))

    def _start_stacked(self, now: int) -> bool:
        if not self.stacked:
            return False
        player, order = self.stacked.pop(0)
        self.running.append((player, now, now + MINOR_LENGTH, order))
        return True

    def advance(self, now: int) -> None:
        while self.running:
            first = min(self.running, key=lambda p: (p[2], p[3]))
            player, _, end, order = first
            if end > now:
                return
            self.running.remove(first)
            if self._start_stacked(end):
                self.waiting.append((player, end, order))
            elif self.waiting:
                self.waiting.sort(key=lambda w: (w[1], w[2]))
                self.waiting.pop(0)
                self.waiting.append((player, end, order))

    def stoppage(self) -> None:
        self.waiting = []

    def minor(self, player: int, now: int) -> None:
        self.order += 1
        if len(self.running) < 2:
            self.running.append((player, now, now + MINOR_LENGTH, self.order))
        else:
            self.stacked.append((player, self.order))

    def goal_against(self, now: int) -> None:
        if self.running:
            first = min(self.running, key=lambda p: (p[1], p[3]))
            self.running.remove(first)
            self._start_stacked(now)
        self.stoppage()


def minor_only_game(rng: random.Random):
    """Return a two-period log where home takes minors and away scores, and the model's box after each stoppage."""
    model, entries, checks, calls = MinorBox(), [], [], {}
    period, time, now = 1, 0, 0

    def add(entry):
        entries.append({**entry, "period": period, "time": time, "seq": len(entries), "id": f"e{len(entries)}"})

    add({"type": "period_start"})
    while True:
        step = rng.choice([0, rng.randint(1, 300), rng.randint(300, 1500)])
        if time + step >= 12000 or len(entries) > 150 * period:
            model.advance(now + 12000 - time)
            now, time = now + 12000 - time, 12000
            add({"type": "period_end"})
            model.stoppage()
            checks.append((len(entries), model.strength(), model.contents()))
            if period == 2:
                return entries, checks
            period, time = 2, 0
            add({"type": "period_start"})
            continue
        time, now = time + step, now + step
        model.advance(now)
        free = [p for p in range(2, 12) if p not in {n for n, _ in model.contents()} and calls.get(p, 0) < 2]
        roll = rng.random()
        if roll < 0.45 and free:
            player = rng.choice(free)
            calls[player] = calls.get(player, 0) + 1  # two calls at most: 6.1.7 stays out of the model
            add({"type": "penalty", "team": "home", "player": player, "penalty": "minor", "infraction": "hooking"})
            model.stoppage()
            model.minor(player, now)
        elif roll < 0.7:
            add({"type": "goal", "team": "away", "player": rng.randint(12, 21)})
            model.goal_against(now)
        else:
            add({"type": "clock_stop"})
            model.stoppage()
        add({"type": "clock_start"})
        checks.append((len(entries), model.strength(), model.contents()))


@PROPERTY
@given(st.integers(min_value=0, max_value=2**32).map(random.Random))
def test_minor_only_games_match_a_reference_model_of_the_box(rng):
    """6.2.1 A-B, 6.2.2 A-B, R-23, R-24: who sits in the box, in which status, and the strength, after every
    face-off, agree with an independent model over random sequences of minors, goals and stoppages."""
    entries, checks = minor_only_game(rng)
    log = random_log(random.Random(0), events=3)
    replayer = Replayer(log.game, log.ruleset)
    events = sort_events(parse_log(entries))
    applied = 0
    for count, strength, contents in checks:
        while applied < count:
            replayer.apply(events[applied])
            applied += 1
        state = replayer.state
        box = sorted((e["player"], e["status"]) for e in state.box_entries("home"))
        assert (state.strength("home"), box) == (strength, contents), events[count - 1]
        assert state.strength("away") == 4
