"""Synthetic game logs for the engine's property tests and benchmark: random, valid by construction.

``random_log(rng, events=...)`` plays a game with a ``random.Random``: periods and
stoppages, goals, shots, penalties of every kind (immediate and signalled),
penalty shots, time-outs within the limits (1.2 B, 5.5.2, R-12), goalkeepers
pulled and returned, corrections, period ends, overtime, shoot-out or forfeit.

It stays valid without modelling the penalty box: each team's roster is split
into a penalty pool (the first six floor players and the goalkeepers, the only
ones ever penalized or designated to serve) and a clean pool (four floor players
never penalized, the only scorers, assists and shooters), so a goal is never
credited to a player in the box or out of the game (6.4.1 B, R-30). A player is
taken off the penalty pool before accumulation could remove him (R-29: after a
3rd call, a misconduct, a 2nd stick infraction or any penalty that ends his game).

Events are plain mappings with an explicit ``id`` and ``seq`` (entry sequence),
so shuffling the list keeps each event's own place in the replay order (R-10).
"""

import random
from dataclasses import dataclass, field

from games.engine import Game, Ruleset, TeamRoster, parse_log
from games.engine.ruleset import ELIMINATION, ROUND_ROBIN

HOME = TeamRoster("Home", frozenset(range(2, 12)), frozenset({1, 30}), captain=9)
AWAY = TeamRoster("Away", frozenset(range(12, 22)), frozenset({31, 35}), captain=12)
SIDES = ("home", "away")
CLEAN = {"home": (8, 9, 10, 11), "away": (18, 19, 20, 21)}
PENALTY_POOL = {"home": (2, 3, 4, 5, 6, 7, 1, 30), "away": (12, 13, 14, 15, 16, 17, 31, 35)}
GOALKEEPERS = {"home": frozenset({1, 30}), "away": frozenset({31, 35})}

# Infractions of the Annex C index (games.engine.penalty_index) per penalty kind; stick ones flagged there.
INFRACTIONS = {
    "minor": (
        "hooking",
        "tripping",
        "holding",
        "interference",
        "roughing",
        "slashing",
        "cross_checking",
        "high_sticks",
    ),
    "bench_minor": ("delaying_the_game", "illegal_substitution", "refusal_to_start_play"),
    "double_minor": ("spearing_butt_ending_attempted",),
    "major": ("boarding_major", "tripping_major", "slashing_major", "checking_from_behind"),
    "misconduct": ("banging_boards", "protest", "entering_referee_crease"),
    "game_misconduct": ("obscene_language_or_gestures", "resisting_referee"),
    "match": ("kicking_opponent", "deliberate_injury", "slashing_altercation"),
    "game_ejection": (None,),
    "gross_misconduct": (None,),
    "penalty_shot": ("penalty_shot_awarded_goal", "displacing_goal_post"),
}
STICK = frozenset({"slashing", "cross_checking", "high_sticks", "spearing_butt_ending_attempted", "slashing_major"})
STICK |= {"slashing_altercation"}
ENDS_GAME = frozenset({"major", "game_misconduct", "match", "game_ejection", "gross_misconduct"})
# Relative frequency of each penalty kind.
KIND_WEIGHTS = (
    ("minor", 40),
    ("bench_minor", 6),
    ("double_minor", 5),
    ("major", 4),
    ("misconduct", 4),
    ("game_misconduct", 2),
    ("match", 2),
    ("game_ejection", 1),
    ("gross_misconduct", 1),
    ("penalty_shot", 3),
)
KINDS = tuple(k for k, _ in KIND_WEIGHTS)
KIND_W = tuple(w for _, w in KIND_WEIGHTS)

# What happens while the clock runs, as cumulative thresholds of one random draw:
# shot by a player, goal, penalty, clock stop, correction of a shot; the rest are shots with no player.
# DENSE packs penalties to exercise the box; REALISTIC is closer to a real game sheet
# (about 10 goals, 15-20 penalties and many shots and stoppages in 400 events).
DENSE = (0.30, 0.45, 0.70, 0.85, 0.90)
REALISTIC = (0.45, 0.48, 0.53, 0.92, 0.93)


@dataclass
class Log:
    """A generated game: what the engine needs before the first event, and the events as entered."""

    game: Game
    ruleset: Ruleset
    entries: list[dict]
    penalized: dict = field(default_factory=dict)  # (side, number) -> kinds, for the minutes property

    def events(self):
        return parse_log(self.entries)


class _Builder:
    def __init__(self, rng: random.Random, target: int, game_type: str, ruleset: Ruleset, mix=DENSE):
        self.mix = mix
        self.rng = rng
        self.target = target
        self.rules = ruleset
        self.game_type = game_type
        self.entries: list[dict] = []
        self.score = {"home": 0, "away": 0}
        self.period = 0
        self.time = 0
        self.running = False
        self.pulled = {"home": False, "away": False}
        self.timeouts: dict[tuple[str, int], int] = {}
        self.calls = {}  # (side, number) -> [calls, misconducts, stick]
        self.available = {side: list(PENALTY_POOL[side]) for side in SIDES}
        self.shots: list[str] = []  # ids of shots, for corrections
        self.penalized: dict = {}
        self.ended = False

    # -- writing ---------------------------------------------------------------------------------

    def add(self, entry: dict, timed: bool = True) -> dict:
        seq = len(self.entries)
        entry = {"id": f"e{seq}", "seq": seq, **entry}
        if timed:
            entry["period"] = self.period
            entry["time"] = self.time
        self.entries.append(entry)
        return entry

    def start_clock(self):
        if not self.running:
            self.add({"type": "clock_start"})
            self.running = True

    def length(self) -> int:
        return self.rules.overtime_length if self.period > self.rules.periods else self.rules.period_length

    # -- a period ----------------------------------------------------------------------------------

    def play_period(self, budget: int) -> None:
        self.period += 1
        self.time = 0
        self.add({"type": "period_start"})
        self.running = True
        length = self.length()
        step = max(1, (2 * length) // max(1, budget))
        made = 0
        while made < budget and not self.ended:
            nxt = self.time + self.rng.randint(0, step)
            if nxt >= length:
                break
            before = len(self.entries)
            if nxt != self.time:
                if not self.running:
                    self.start_clock()
                self.time = nxt
            self.incident()
            made += len(self.entries) - before
        if self.ended:
            return
        if self.rng.random() < 0.02:
            self.add({"type": "forfeit", "team": self.rng.choice(SIDES)}, timed=False)
            self.ended = True
            return
        self.start_clock()
        self.time = length
        self.add({"type": "period_end"})
        self.running = False

    def incident(self) -> None:
        rng = self.rng
        roll = rng.random()
        if not self.running:
            # At a stoppage: a time-out, a goalkeeper change, more penalties, or the face-off.
            if roll < 0.15 and self.period <= self.rules.periods:
                self.timeout()
            elif roll < 0.25:
                self.goalkeeper()
            elif roll < 0.4:
                self.penalty(immediate=True)
            else:
                self.start_clock()
            return
        shot, goal, penalty, stop, correction = self.mix
        if roll < shot:
            side = rng.choice(SIDES)
            entry = self.add({"type": "shot", "team": side, "player": rng.choice(CLEAN[side])})
            self.shots.append(entry["id"])
        elif roll < goal:
            self.goal()
        elif roll < penalty:
            self.penalty(immediate=rng.random() < 0.7)
        elif roll < stop:
            self.add({"type": "clock_stop"})
            self.running = False
        elif roll < correction and self.shots:
            self.add({"type": "correction", "voids": self.shots.pop(rng.randrange(len(self.shots)))}, timed=False)
        else:
            self.add({"type": "shot", "team": rng.choice(SIDES)})

    def goal(self) -> None:
        rng = self.rng
        side = rng.choice(SIDES)
        scorer = rng.choice(CLEAN[side])
        entry = {"type": "goal", "team": side, "player": scorer}
        kind = rng.random()
        if kind < 0.05:
            entry = {"type": "goal", "team": side, "awarded": True}
        elif kind < 0.1:
            entry["own_goal"] = True
        elif kind < 0.7:
            entry["assist"] = rng.choice([n for n in CLEAN[side] if n != scorer])
        self.add(entry)
        self.score[side] += 1
        self.running = False
        if self.period > self.rules.periods:
            self.ended = True  # 1.3 B: sudden death

    def timeout(self) -> None:
        side = self.rng.choice(SIDES)
        key = (side, self.period)
        if self.timeouts.get(key, 0) < self.rules.timeouts_per_period:
            self.timeouts[key] = self.timeouts.get(key, 0) + 1
            self.add({"type": "timeout", "team": side})

    def goalkeeper(self) -> None:
        side = self.rng.choice(SIDES)
        if self.pulled[side]:
            self.add({"type": "goalkeeper_returned", "team": side})
        else:
            self.add({"type": "goalkeeper_pulled", "team": side})
        self.pulled[side] = not self.pulled[side]

    def penalty(self, immediate: bool) -> None:
        rng = self.rng
        side = rng.choice(SIDES)
        kind = rng.choices(KINDS, KIND_W)[0]
        infraction = rng.choice(INFRACTIONS[kind])
        entry = {"type": "penalty", "team": side, "penalty": kind}
        if kind != "bench_minor" or rng.random() < 0.5:
            if not self.available[side]:
                kind, infraction = "bench_minor", "delaying_the_game"
                entry["penalty"] = kind
            else:
                player = rng.choice(self.available[side])
                if player in GOALKEEPERS[side] and kind in ("bench_minor", "double_minor"):
                    kind = entry["penalty"] = "minor"
                    infraction = "goalkeeper_penalties"
                entry["player"] = player
                self.count(side, player, kind, infraction)
        if infraction is not None:
            entry["infraction"] = infraction
        servers = [n for n in self.available[side] if n not in GOALKEEPERS[side] and n != entry.get("player")]
        if kind in ("minor", "bench_minor", "double_minor", "misconduct") and servers and rng.random() < 0.3:
            entry["served_by"] = rng.choice(servers)
        if not immediate and self.running and kind != "penalty_shot":
            entry["delayed"] = True
            self.add(entry)
            return
        self.add(entry)
        self.running = False
        if kind == "penalty_shot":
            shooter_side = "away" if side == "home" else "home"
            scored = rng.random() < 0.3
            self.add(
                {
                    "type": "penalty_shot",
                    "team": shooter_side,
                    "player": rng.choice(CLEAN[shooter_side]),
                    "scored": scored,
                }
            )
            if scored:
                self.score[shooter_side] += 1
                if self.period > self.rules.periods:
                    self.ended = True

    def count(self, side: str, player: int, kind: str, infraction: str | None) -> None:
        """Keep the player off the penalty pool before 6.1.7 / R-29 could remove him from the game."""
        self.penalized.setdefault((side, player), []).append(kind)
        calls, misconducts, stick = self.calls.get((side, player), (0, 0, 0))
        calls += 1
        misconducts += (kind == "misconduct") + (calls == 3)  # 6.1.7 A: the 3rd call adds a misconduct
        stick += infraction in STICK
        self.calls[(side, player)] = (calls, misconducts, stick)
        # One more call could now end his game (6.1.7 B-D): no more penalties for him.
        if kind in ENDS_GAME or calls >= 3 or misconducts or stick >= 2:
            self.available[side].remove(player)

    # -- the end -----------------------------------------------------------------------------------

    def shootout(self) -> None:
        """1.3 E, R-40: three shooters each, then one-shooter rounds started by the team that shot second."""
        rng = self.rng
        first = rng.choice(SIDES)
        second = "away" if first == "home" else "home"
        goals = {"home": 0, "away": 0}
        shooters = self.rules.shootout_shooters
        for index in range(2 * shooters):
            side = first if index % 2 == 0 else second
            scored = rng.random() < 0.4
            self.add(
                {"type": "shootout_attempt", "team": side, "player": CLEAN[side][index // 2], "scored": scored},
                timed=False,
            )
            goals[side] += scored
            done = index + 1
            left_first = shooters - (done + 1) // 2
            left_second = shooters - done // 2
            if goals[first] > goals[second] + left_second or goals[second] > goals[first] + left_first:
                return
        # One extra round decides: the team that shot second starts and scores, the other misses.
        self.add({"type": "shootout_attempt", "team": second, "player": CLEAN[second][3], "scored": True}, timed=False)
        self.add({"type": "shootout_attempt", "team": first, "player": CLEAN[first][3], "scored": False}, timed=False)

    def build(self) -> list[dict]:
        periods = self.rules.periods
        per_period = max(1, self.target // (periods + (1 if self.game_type == ELIMINATION else 0)))
        for _ in range(periods):
            self.play_period(per_period)
            if self.ended:
                return self.entries
        tied = self.score["home"] == self.score["away"]
        if self.game_type == ELIMINATION and tied:
            self.play_period(per_period // 2)
            if not self.ended:
                self.shootout()
        if not self.ended and self.rng.random() < 0.5:
            self.add({"type": "game_end"}, timed=False)
        return self.entries


def random_log(
    rng: random.Random,
    events: int = 60,
    game_type: str | None = None,
    ruleset: Ruleset | None = None,
    mix: tuple[float, ...] = DENSE,
) -> Log:
    """Return a random valid game of about ``events`` events (fewer when it ends early)."""
    game_type = game_type or rng.choice((ROUND_ROBIN, ELIMINATION))
    ruleset = ruleset or Ruleset()
    builder = _Builder(rng, events, game_type, ruleset, mix)
    entries = builder.build()
    return Log(Game(HOME, AWAY, game_type), ruleset, entries, builder.penalized)


def long_log(events: int, seed: int = 2026, mix: tuple[float, ...] = DENSE) -> Log:
    """Return one round-robin game of about ``events`` events at the density of a 400-event game.

    The periods are stretched with the log (the ruleset is a parameter), so a
    40,000-event log has as many events per minute as a 400-event game and the
    per-event work stays comparable.
    """
    scale = max(1, events // 400)
    ruleset = Ruleset(period_length=12000 * scale, overtime_length=6000 * scale, two_minute_mark=1200)
    return random_log(random.Random(seed), events=events, game_type=ROUND_ROBIN, ruleset=ruleset, mix=mix)
