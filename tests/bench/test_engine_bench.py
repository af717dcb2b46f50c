"""Benchmark of the game engine's replay (run with `.venv/bin/pytest tests/bench -m bench -s`).

Targets (issue 3): a full game of 400 events replays in at most 2 ms (median of
at least 200 runs); a long synthetic log replays at 200,000 events/s or more; the
cost per event stays about the same at 400, 4,000 and 40,000 events (linear growth).

Logs come from tests/engine/generators.py: the 400-event game and the long log of
the throughput target have the mix of a real game sheet (shots, stoppages, ~10
goals, ~20 penalties per 400 events); the logs of the linearity test are dense in
penalties (stacking, coincidental, delayed, accumulation: about one event in six is
a penalty), the engine's costliest work, and their table shows that throughput too.
Long logs stretch the periods so that every length has the same density of events
per minute.

Timing is time.perf_counter (wall clock). The test machine is shared, so each
run also records time.process_time: a run whose wall time exceeds its CPU time by
more than 25% was descheduled by the OS and is left out. When fewer than half of
the runs are undisturbed, the figure asserted is the CPU time, and the table says so.
Every figure is judged on the median run; the fastest run is printed beside it.
Before each timed run the garbage of the previous runs is collected (untimed), so
a run pays for its own garbage only, not for a collection of its predecessors'.
"""

import gc
import random
import statistics
import time
from dataclasses import dataclass

import pytest

from games.engine import replay
from tests.engine.generators import REALISTIC, long_log, random_log

pytestmark = pytest.mark.bench

FULL_GAME_BUDGET = 0.002  # seconds, median
THROUGHPUT_TARGET = 200_000  # events per second
LINEARITY_FACTOR = 2.0  # the largest per-event cost at most twice the smallest
UNDISTURBED = 1.25


@dataclass
class Figure:
    label: str
    events: int
    runs: int
    wall: float  # median perf_counter seconds of the undisturbed runs (all runs when none is)
    cpu: float  # median process_time seconds
    undisturbed: int
    best_wall: float  # fastest undisturbed run (fastest run when none is)
    best_cpu: float

    @property
    def basis(self) -> str:
        return "wall" if 2 * self.undisturbed >= self.runs else "cpu"

    @property
    def seconds(self) -> float:
        """The median the targets are checked against (see the module docstring)."""
        return self.wall if self.basis == "wall" else self.cpu

    @property
    def per_event_us(self) -> float:
        return self.seconds / self.events * 1e6

    @property
    def events_per_second(self) -> float:
        return self.events / self.seconds


def measure(label: str, log, runs: int) -> Figure:
    """Replay a log ``runs`` times (after one warm-up) and return its figures."""
    events = log.events()
    replay(events, log.game, log.ruleset)
    walls, cpus, calm = [], [], []
    for _ in range(runs):
        gc.collect()
        cpu0, wall0 = time.process_time(), time.perf_counter()
        replay(events, log.game, log.ruleset)
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        walls.append(wall)
        cpus.append(cpu)
        if wall <= UNDISTURBED * cpu + 20e-6:
            calm.append(wall)
    return Figure(
        label=label,
        events=len(events),
        runs=runs,
        wall=statistics.median(calm or walls),
        cpu=statistics.median(cpus),
        undisturbed=len(calm),
        best_wall=min(calm or walls),
        best_cpu=min(cpus),
    )


def table(title: str, figures: list[Figure]) -> None:
    print(f"\n{title}")
    print(
        f"{'log':<28}{'events':>8}{'runs':>6}{'calm':>6}{'median wall ms':>16}{'median cpu ms':>15}"
        f"{'best wall ms':>14}{'best cpu ms':>13}{'us/event':>10}{'events/s':>12}  judged on"
    )
    for f in figures:
        print(
            f"{f.label:<28}{f.events:>8}{f.runs:>6}{f.undisturbed:>6}{f.wall * 1e3:>16.3f}{f.cpu * 1e3:>15.3f}"
            f"{f.best_wall * 1e3:>14.3f}{f.best_cpu * 1e3:>13.3f}{f.per_event_us:>10.2f}{f.events_per_second:>12,.0f}"
            f"  median {f.basis}"
        )


def full_game():
    return random_log(random.Random(2026), events=400, game_type="round_robin", mix=REALISTIC)


def test_a_full_game_of_400_events_replays_within_2_ms():
    log = full_game()
    assert 380 <= len(log.entries) <= 420
    figure = measure("full game (realistic)", log, runs=300)
    table("Full game replay, median of 300 runs (target <= 2 ms)", [figure])
    assert figure.seconds <= FULL_GAME_BUDGET, f"median {figure.seconds * 1e3:.3f} ms ({figure.basis})"


def test_sustained_replay_of_a_long_log_reaches_200000_events_per_second():
    figure = measure("long log (realistic mix)", long_log(40_000, mix=REALISTIC), runs=15)
    table("Sustained replay (target >= 200,000 events/s)", [figure])
    assert figure.events_per_second >= THROUGHPUT_TARGET, f"{figure.events_per_second:,.0f} events/s ({figure.basis})"


def test_replay_cost_grows_linearly_with_the_log():
    figures = [
        measure("400 events (dense)", long_log(400), runs=200),
        measure("4,000 events (dense)", long_log(4_000), runs=40),
        measure("40,000 events (dense)", long_log(40_000), runs=15),
    ]
    table("Cost by log length (per-event cost within a factor of 2)", figures)
    costs = [f.per_event_us for f in figures]
    assert max(costs) <= LINEARITY_FACTOR * min(costs), costs
