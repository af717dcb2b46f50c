"""Property tests of the engine over random valid game logs (hypothesis; database-free).

The logs come from tests/engine/generators.py: periods, stoppages, goals, shots,
penalties of every kind (immediate and signalled), penalty shots, time-outs within
the limits, goalkeepers pulled and returned, corrections, overtime, shoot-out,
forfeit. Properties: a valid log replays without error; entitled strength stays
between 2 and 4 floor players (6.2.1 A, R-22); minutes charged per player are the
sum over his penalties (R-21); the order of entry does not matter (R-10); a broken
log is refused with the engine's own error family, citing its rule, never another
exception; the box and the strength agree after every event.

Three properties compare the engine with models written here from the rules alone:
both penalty boxes over random games of minors, double minors, majors and
misconducts (immediate, signalled, coincidental; 6.2, 6.3, R-23-R-28), the automatic
penalties of accumulation (6.1.3 B, 6.1.7, R-29), and the end of the shoot-out (R-40).
"""

import copy
import random
import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.engine import EngineError, parse_log, parse_time, replay, state_at
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
    than the penalty, nobody out of the game serves time (R-30), and at a stoppage nobody waits in the box
    and no penalty is still signalled."""
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
                if entry["player"] is not None and entry["status"] in ("running", "queued", "stacked"):
                    # nobody removed from the game sits in the box for time still to serve.
                    assert state.teams[side].players[entry["player"]].out_of_game is None, (event, entry)
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
        if record.washed_out_half:
            minutes = R21_MINUTES["minor"]  # a goal washed out the first half of a signalled double minor
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


@PROPERTY
@given(logs)
def test_scores_and_player_records_agree_with_the_goal_list(log):
    """5.5.11 B-D, R-32, R-41: each team's score is its goals; each player's goals and assists are those the
    goal list credits to him (after a forfeit, the one goal of the captain, 8.1 B)."""
    state = replay(log.events(), log.game, log.ruleset)
    for side in ("home", "away"):
        team = state.teams[side]
        goals = [g for g in state.goals if g.team == side]
        assert team.score == len(goals)
        for number, player in team.players.items():
            assert player.goals == sum(g.scorer == number for g in goals), (side, number)
            assert player.assists == sum(g.assist == number for g in goals), (side, number)
        for goal in goals:
            assert not (goal.own_goal and goal.assist is not None), goal


@PROPERTY
@given(logs)
def test_the_two_minute_mark_is_noted_once_in_every_period_played_to_the_end(log):
    """4.4, R-13: the last two minutes are announced once per period, at 18:00 (8:00 in overtime)."""
    state = replay(log.events(), log.game, log.ruleset)
    marks = [n for n in state.notices if n.article == "4.4"]
    ended = {e["period"] for e in log.entries if e["type"] == "period_end"}
    for period in ended:
        assert sum(n.period == period for n in marks) == 1, period
    for notice in marks:
        length = log.ruleset.overtime_length if notice.period > log.ruleset.periods else log.ruleset.period_length
        assert notice.time == length - log.ruleset.two_minute_mark, notice


@PROPERTY
@given(logs, st.randoms(use_true_random=False))
def test_the_state_at_a_moment_of_play_is_the_log_replayed_up_to_it(log, rng):
    """R-10: ``state_at`` a game time while the clock runs equals replaying the events up to that time and
    one more event at that time (a shot on goal, which only adds the shot and the save)."""
    timed = [e for e in log.entries if "period" in e]
    anchor = rng.choice(timed)
    period, time = anchor["period"], anchor["time"] + rng.randint(1, 400)
    length = log.ruleset.overtime_length if period > log.ruleset.periods else log.ruleset.period_length
    assume(time < length)
    moment = state_at(log.events(), log.game, period, time, log.ruleset)
    assume(moment.running and moment.status == "in_progress" and moment.period == period)
    kept = [e for e in timed if (e["period"], e["time"]) <= (period, time)]
    ids = {e["id"] for e in kept}
    kept += [e for e in log.entries if e["type"] == "correction" and e["voids"] in ids]
    probe = {"type": "shot", "team": "home", "period": period, "time": time, "seq": 10**6, "id": "probe"}
    replayed = replay(parse_log([*kept, probe]), log.game, log.ruleset).to_dict()
    expected = moment.to_dict()
    expected["teams"]["home"]["shots"] += 1
    for state in (expected, replayed):
        for side in state["players"].values():
            for record in side.values():
                record.pop("saves", None)
    assert replayed == expected


@PROPERTY
@given(logs, st.randoms(use_true_random=False))
def test_voiding_a_correction_restores_the_state(log, rng):
    """R-10: a correction voids an event by id; a correction of that correction brings the event back."""
    reference = replay(log.events(), log.game, log.ruleset).to_dict()
    target = rng.choice([e for e in log.entries if e["type"] != "correction"])
    corrections = [
        {"type": "correction", "id": "undo", "seq": 10**6, "voids": target["id"]},
        {"type": "correction", "id": "redo", "seq": 10**6 + 1, "voids": "undo"},
    ]
    assert replay(parse_log(log.entries + corrections), log.game, log.ruleset).to_dict() == reference


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
MUTATION_VALUES = (
    None,
    0,
    1,
    5,
    14,
    31,
    99,
    100,
    -1,
    True,
    "home",
    "away",
    "x",
    "5:00",
    "20:00",
    "minor",
    "goal",
    [],
    {},
)


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


# -- an independent model of both boxes ----------------------------------------------------------------------

PERIOD_LENGTH = 12000
OTHER = {"home": "away", "away": "home"}
PENALTY_POOL = {"home": range(2, 8), "away": range(12, 18)}
SCORERS = {"home": range(8, 12), "away": range(18, 22)}
# Time in the box per kind, one entry per stretch (a double minor is two minors, R-23).
# a signalled double minor whose first half a goal washed out ("washed") serves its second half only.
STRETCHES = {
    "minor": (1200,),
    "double_minor": (1200, 1200),
    "washed": (1200,),
    "major": (3000,),
    "misconduct": (6000,),
}
REMOVES_A_PLAYER = frozenset({"minor", "double_minor", "washed", "major"})
ENDED_BY_GOAL = frozenset({"minor", "double_minor", "washed"})  # 6.2.1 B, R-23
RECORDED_FIRST = {"minor": 0, "double_minor": 0, "washed": 0, "major": 1, "misconduct": 2}  # 6.2.2 C


class ModelBox:
    """One team's box, modelled from the rules without the engine's code.

    6.2.1 A / 6.2.2 A: at most two penalties remove players; a third is stacked and starts when one ends.
    6.2.2 B: a player whose time ends while a stacked penalty starts waits for the stoppage; when a later
    expiry lets the team have one more player, the first of the waiting players returns at once.
    6.2.2 C: at one stoppage the minors are recorded (and started) before a major.
    6.2.3, 6.4.1 D, R-25: coincidental penalties run without touching the strength or the stacking, and their
    players wait for the first stoppage after expiry; so does a misconduct (6.1.4 A).
    6.2.1 B, R-23: a goal against a team below its opponent's strength ends the minor that first made it
    shorthanded (earliest start; a double minor counts from its first half); in a double minor the running
    half ends and the second starts at once. Majors (served by a designated team-mate, 6.1.3 A) never end.
    """

    def __init__(self):
        self.running: list[dict] = []
        self.stacked: list[dict] = []
        self.waiting: list[tuple[int, int, int]] = []  # (player, expired at, order): kept by 6.2.2 B
        self.waiting_for_stoppage: list[int] = []  # coincidental penalties and misconducts (6.1.4 A, 6.2.3 B)

    def removing(self) -> list[dict]:
        return [p for p in self.running if p["kind"] in REMOVES_A_PLAYER and not p["coincidental"]]

    def strength(self) -> int:
        return max(2, 4 - len(self.removing()))

    def contents(self) -> list[tuple[int, str]]:
        return sorted(
            [(p["server"], "running") for p in self.running]
            + [(p["server"], "stacked") for p in self.stacked]
            + [(w[0], "expired") for w in self.waiting]
            + [(n, "expired") for n in self.waiting_for_stoppage]
        )

    def next_end(self) -> tuple[int, int] | None:
        return min(((p["end"], p["order"]) for p in self.running), default=None)

    def _start(self, penalty: dict, now: int) -> None:
        penalty.update(start=now, end=now + penalty["stretches"][0])
        penalty.setdefault("first_start", now)
        self.running.append(penalty)

    def _start_stacked(self, now: int) -> bool:
        if not self.stacked or len(self.removing()) >= 2:
            return False
        self._start(self.stacked.pop(0), now)
        return True

    def expire_next(self) -> None:
        penalty = min(self.running, key=lambda p: (p["end"], p["order"]))
        self.running.remove(penalty)
        end = penalty["end"]
        if len(penalty["stretches"]) > 1:
            penalty["stretches"] = penalty["stretches"][1:]
            self._start(penalty, end)
        elif penalty["coincidental"] or penalty["kind"] == "misconduct":
            self.waiting_for_stoppage.append(penalty["server"])
        elif self._start_stacked(end):
            self.waiting.append((penalty["server"], end, penalty["order"]))
        elif self.waiting:
            self.waiting.sort(key=lambda w: (w[1], w[2]))
            self.waiting.pop(0)
            self.waiting.append((penalty["server"], end, penalty["order"]))

    def stoppage(self) -> None:
        self.waiting, self.waiting_for_stoppage = [], []

    def add(self, penalty: dict, now: int) -> None:
        if penalty["kind"] in REMOVES_A_PLAYER and not penalty["coincidental"] and len(self.removing()) >= 2:
            self.stacked.append(penalty)
        else:
            self._start(penalty, now)

    def goal_against(self, now: int) -> bool:
        minors = [p for p in self.removing() if p["kind"] in ENDED_BY_GOAL]
        if not minors:
            return False
        first = min(minors, key=lambda p: (p["first_start"], p["order"]))
        self.running.remove(first)
        if len(first["stretches"]) > 1:
            first["stretches"] = first["stretches"][1:]
            self._start(first, now)
        else:
            self._start_stacked(now)
        return True


class ModelGame:
    """Both teams' boxes, the signalled penalties (6.3 B-E, R-26) and the clock."""

    def __init__(self):
        self.box = {"home": ModelBox(), "away": ModelBox()}
        self.signalled: dict[str, list[tuple[str, int, int]]] = {"home": [], "away": []}  # (kind, player, server)
        self.order = 0
        self.now = 0

    def view(self) -> dict:
        return {side: (box.strength(), box.contents()) for side, box in self.box.items()}

    def advance(self, now: int) -> None:
        while True:
            ends = [(box.next_end(), side) for side, box in self.box.items() if box.next_end() is not None]
            if not ends or min(ends)[0][0] > now:
                break
            self.box[min(ends)[1]].expire_next()
        self.now = now

    def stoppage(self, immediate: dict) -> None:
        """Assess the signalled and immediate penalties; when both teams have some, they are the same
        kind (the generator makes them so) and coincide, a misconduct excepted (R-25)."""
        batch = {side: self.signalled[side] + immediate.get(side, []) for side in OTHER}
        self.signalled = {"home": [], "away": []}
        for box in self.box.values():
            box.stoppage()
        both = bool(batch["home"]) and bool(batch["away"])
        for side in ("home", "away"):
            penalties = []
            for kind, _player, server in batch[side]:
                self.order += 1
                penalties.append(
                    {
                        "kind": kind,
                        "server": server,
                        "stretches": STRETCHES[kind],
                        "coincidental": both and kind != "misconduct",
                        "order": self.order,
                    }
                )
            for penalty in sorted(penalties, key=lambda p: (RECORDED_FIRST[p["kind"]], p["order"])):
                self.box[side].add(penalty, self.now)

    def goal(self, side: str) -> None:
        conceding = OTHER[side]
        ended = self.box[conceding].strength() < self.box[side].strength() and self.box[conceding].goal_against(
            self.now
        )
        if not ended:  # 6.3 C: a signalled minor is washed out; 6.3 E: served when the goal ended a running minor
            # only the minor signalled first (at one instant, the first entered); the others are served.
            # a signalled double minor loses its first half.
            waiting = self.signalled[conceding]
            first = next((i for i, s in enumerate(waiting) if s[0] in ("minor", "double_minor")), None)
            if first is not None:
                kind, player, server = waiting[first]
                washed = [("washed", player, server)] if kind == "double_minor" else []
                self.signalled[conceding] = waiting[:first] + washed + waiting[first + 1 :]
        self.stoppage({})


def penalties_game(rng: random.Random):
    """Return a two-period log of minors, double minors, majors and misconducts (immediate, signalled,
    coincidental), goals and stoppages, and the model's view of both boxes at face-offs and during play.

    One penalty per player at most, so 6.1.7 stays out of the model; a major is served by a designated
    team-mate (6.1.3 A), any other penalty by the offender.
    """
    model, entries, checks, used, taken = ModelGame(), [], [], set(), set()
    period, time = 1, 0

    def add(entry):
        entries.append({**entry, "period": period, "time": time, "seq": len(entries), "id": f"e{len(entries)}"})

    def pick(side, kind):
        busy = {n for n, _ in model.box[side].contents()} | taken | used
        busy |= {s[1] for s in model.signalled[side]} | {s[2] for s in model.signalled[side]}
        free = [n for n in PENALTY_POOL[side] if n not in busy]
        if len(free) < (2 if kind == "major" else 1):
            return None
        player = rng.choice(free)
        server = rng.choice([n for n in free if n != player]) if kind == "major" else player
        used.add(player)
        taken.update({player, server})
        return (kind, player, server)

    def kind():
        return rng.choices(("minor", "double_minor", "major", "misconduct"), (6, 2, 1, 1))[0]

    def penalty(side, item, delayed=False):
        entry = {"type": "penalty", "team": side, "player": item[1], "penalty": item[0]}
        if item[0] == "major":
            entry["served_by"] = item[2]
        if delayed:
            entry["delayed"] = True
        add(entry)

    add({"type": "period_start"})
    while True:
        step = rng.choice([0, rng.randint(1, 300), rng.randint(300, 1500)])
        if time + step >= PERIOD_LENGTH or len(entries) > 150 * period:
            model.advance(period * PERIOD_LENGTH)
            time = PERIOD_LENGTH
            add({"type": "period_end"})
            model.stoppage({})
            checks.append((len(entries), model.view()))
            if period == 2:
                return entries, checks
            period, time = 2, 0
            add({"type": "period_start"})
            continue
        time += step
        model.advance((period - 1) * PERIOD_LENGTH + time)
        taken.clear()
        roll = rng.random()
        if roll < 0.15:  # play goes on: look at the boxes now
            side = rng.choice(("home", "away"))
            add({"type": "shot", "team": side, "player": rng.choice(SCORERS[side])})
            checks.append((len(entries), model.view()))
            continue
        if roll < 0.3:  # a signalled penalty against the team without the puck (one team at a time)
            side = rng.choice(("home", "away"))
            item = None if model.signalled[OTHER[side]] else pick(side, kind())
            if item is not None:
                penalty(side, item, delayed=True)
                model.signalled[side].append(item)
            continue
        if roll < 0.55:  # a whistle for penalties: one team's, or one of the same kind to each team
            immediate = {"home": [], "away": []}
            if rng.random() < 0.4 and not model.signalled["home"] and not model.signalled["away"]:
                same = kind()
                pair = pick("home", same), pick("away", same)
                if None not in pair:
                    immediate = {"home": [pair[0]], "away": [pair[1]]}
            if not immediate["home"] and not immediate["away"]:
                waiting = model.signalled
                side = "away" if waiting["away"] else "home" if waiting["home"] else rng.choice(("home", "away"))
                item = pick(side, kind())
                if item is not None:
                    immediate[side].append(item)
            if immediate["home"] or immediate["away"]:
                for side in ("home", "away"):
                    for item in immediate[side]:
                        penalty(side, item)
            else:
                add({"type": "clock_stop"})
            model.stoppage(immediate)
        elif roll < 0.8:
            side = rng.choice(("home", "away"))
            add({"type": "goal", "team": side, "player": rng.choice(SCORERS[side])})
            model.goal(side)
        else:
            add({"type": "clock_stop"})
            model.stoppage({})
        add({"type": "clock_start"})
        checks.append((len(entries), model.view()))


@PROPERTY
@given(st.integers(min_value=0, max_value=2**32).map(random.Random))
def test_random_games_match_an_independent_model_of_both_boxes(rng):
    """6.1.3 A, 6.1.4 A, 6.2.1-6.2.3, 6.3 B-E, R-22-R-28: who sits in each box, in which status, and both
    strengths agree with the model at every face-off and at moments of play, over random sequences of
    immediate, signalled and coincidental minors, double minors, majors and misconducts, goals and
    stoppages across two periods."""
    entries, checks = penalties_game(rng)
    log = random_log(random.Random(0), events=3)
    replayer = Replayer(log.game, log.ruleset)
    events = sort_events(parse_log(entries))
    applied = 0
    for count, expected in checks:
        while applied < count:
            replayer.apply(events[applied])
            applied += 1
        state = replayer.state
        actual = {
            side: (state.strength(side), sorted((e["player"], e["status"]) for e in state.box_entries(side)))
            for side in OTHER
        }
        assert actual == expected, events[count - 1]


# -- accumulation: the automatic penalties of 6.1.3 B and 6.1.7 ----------------------------------------------

CALLS = (
    ("minor", "hooking"),
    ("minor", "tripping"),
    ("minor", "slashing"),
    ("minor", "high_sticks"),
    ("minor", "cross_checking"),
    ("double_minor", "spearing_butt_ending_attempted"),
    ("bench_minor", "delaying_the_game"),
    ("misconduct", "protest"),
    ("major", "tripping_major"),
    ("major", "slashing_major"),
    ("game_misconduct", "resisting_referee"),
    ("match", "kicking_opponent"),
    ("penalty_shot", "penalty_shot_awarded_goal"),
)
STICK_INFRACTIONS = frozenset({"slashing", "high_sticks", "cross_checking", "spearing_butt_ending_attempted"})
STICK_INFRACTIONS |= {"slashing_major"}
ENDS_THE_GAME = frozenset({"major", "game_misconduct", "match", "game_ejection"})


def automatic_by_the_rules(calls: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """Return, per call, the penalties the rules add: 6.1.3 B a game misconduct with a major; R-29 counts
    calls (a double minor or a major is one); 6.1.7 A a misconduct on the 3rd, B a game ejection on every
    later one, C a game ejection on the 3rd stick infraction (one ejection when B and C meet), D a game
    misconduct on the second misconduct of any origin."""
    sticks = misconducts = 0
    added_per_call = []
    for count, (kind, infraction) in enumerate(calls, start=1):
        added, misconducts_before = [], misconducts
        if kind == "major":
            added.append(("game_misconduct", "6.1.3 B"))
        misconducts += kind == "misconduct"
        if count == 3:
            added.append(("misconduct", "6.1.7 A"))
            misconducts += 1
        elif count > 3:
            added.append(("game_ejection", "6.1.7 B"))
        if infraction in STICK_INFRACTIONS:
            sticks += 1
            if sticks == 3 and added and added[-1] == ("game_ejection", "6.1.7 B"):
                added[-1] = ("game_ejection", "6.1.7 B, C")
            elif sticks == 3:
                added.append(("game_ejection", "6.1.7 C"))
        if misconducts_before < 2 <= misconducts:
            added.append(("game_misconduct", "6.1.7 D"))
        added_per_call.append(added)
    return added_per_call


@PROPERTY
@given(st.integers(min_value=0, max_value=2**32).map(random.Random))
def test_accumulated_penalties_add_the_automatic_ones_of_6_1_7(rng):
    """6.1.3 B, 6.1.7 A-D, R-21, R-29: one player's penalty calls at separate stoppages, until he is out of
    the game: the automatic penalties, his minutes, calls, stick infractions and removal follow the rules."""
    entries, calls, time = [{"type": "period_start", "period": 1}], [], 0
    for index in range(rng.randint(1, 7)):
        time += rng.randint(10, 300)
        kind, infraction = rng.choice(CALLS)
        entry = {"type": "penalty", "id": f"p{index}", "period": 1, "time": time, "team": "home", "player": 5}
        entry.update(penalty=kind, infraction=infraction)
        if kind in ("major", "match"):
            entry["served_by"] = 6
        entries += [entry, {"type": "clock_start", "period": 1, "time": time}]
        calls.append((kind, infraction))
        if any(k in ENDS_THE_GAME for k, _ in [(kind, ""), *sum(automatic_by_the_rules(calls), [])]):
            break
    log = random_log(random.Random(0), events=3)
    state = replay(parse_log(entries), log.game, log.ruleset)
    added_per_call: list[list[tuple[str, str]]] = []
    for record in state.penalties:
        if record.automatic is None:
            added_per_call.append([])
        else:
            added_per_call[-1].append((record.kind, record.automatic))
    expected = automatic_by_the_rules(calls)
    assert added_per_call == expected
    player = state.teams["home"].players[5]
    assert player.calls == len(calls)
    assert player.stick_infractions == sum(infraction in STICK_INFRACTIONS for _, infraction in calls)
    charged = [(k, "") for k, _ in calls] + sum(expected, [])  # a penalty shot charges nothing (R-21 table)
    assert player.minutes == sum(R21_MINUTES[k] for k, _ in charged)
    assert (player.out_of_game is not None) == any(k in ENDS_THE_GAME for k, _ in charged)


# -- the shoot-out -------------------------------------------------------------------------------------------


def shootout_decided(results: list[bool], shooters: int = 3) -> bool:
    """Whether the shoot-out is over after these attempts (first team's at even positions), by brute force:
    in the first rounds, no outcome of the attempts left can change the winner (R-40); after them, a
    complete extra round that is not tied (1.3 E)."""
    done = len(results)
    if done <= 2 * shooters:
        left = 2 * shooters - done
        winners = set()
        for mask in range(1 << left):
            rest = [bool(mask >> i & 1) for i in range(left)]
            full = results + rest
            first, second = sum(full[0::2]), sum(full[1::2])
            winners.add("tie" if first == second else "first" if first > second else "second")
        return len(winners) == 1 and "tie" not in winners
    extra = results[2 * shooters :]
    return len(extra) % 2 == 0 and extra[-2] != extra[-1]


@PROPERTY
@given(st.lists(st.booleans(), min_size=0, max_size=20), st.sampled_from(["home", "away"]))
def test_the_shootout_ends_exactly_when_the_result_cannot_change(outcomes, first):
    """1.3 E, R-40: three shooters a team alternately, then one-shooter rounds started by the team that shot
    second, new shooters each time; the shoot-out ends at the first attempt after which the winner is
    certain, and nothing is accepted after it."""
    second = OTHER[first]
    shooters = {"home": [8, 9, 10, 11, 2, 3, 4, 5, 6, 7], "away": [18, 19, 20, 21, 12, 13, 14, 15, 16, 17]}
    entries = [
        {"type": "period_start", "period": 1},
        {"type": "period_end", "period": 1, "time": "20:00"},
        {"type": "period_start", "period": 2},
        {"type": "period_end", "period": 2, "time": "20:00"},
        {"type": "period_start", "period": 3},
        {"type": "period_end", "period": 3, "time": "10:00"},
    ]
    results: list[bool] = []
    for scored in outcomes:
        count = len(results)
        side = (first if count % 2 == 0 else second) if count < 6 else (second if count % 2 == 0 else first)
        player = shooters[side][count // 2]
        entries.append({"type": "shootout_attempt", "team": side, "player": player, "scored": scored})
        results.append(scored)
        if shootout_decided(results):
            break
    log = random_log(random.Random(0), events=3, game_type="elimination")
    state = replay(parse_log(entries), log.game, log.ruleset)
    goals = {first: sum(results[0::2][:3]) + sum(results[6:][1::2]), second: sum(results[1::2][:3])}
    goals[second] += sum(results[6:][0::2])
    assert state.shootout.goals == goals
    if shootout_decided(results):
        winner = first if goals[first] > goals[second] else second
        assert state.status == "ended" and state.result.decided_by == "shootout" and state.result.winner == winner
        late = {"type": "shootout_attempt", "team": "home", "player": 7, "scored": True}
        with pytest.raises(EngineError):
            replay(parse_log([*entries, late]), log.game, log.ruleset)
    else:
        assert state.status == "shootout" and state.result is None
