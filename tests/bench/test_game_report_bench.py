"""Benchmark: the official game report of a full game (run: `.venv/bin/pytest tests/bench/test_game_report_bench.py -m bench -s`).

The game is a generated round-robin log of tests/engine/generators.py (seed 20, 240 events, a mix with more
penalties than a real game): 41 penalties (the called ones and the automatic ones the rules add), 12 goals, shots,
saves and stoppages, entered on a live sheet and made final; both teams have full line-ups (14 floor players and 2
goalkeepers, captain and alternates) and their officials, and the game its crew of five.

Timed, each RUNS times, median: reading the report's data (``game_report_data``: the sheet's replay, the line-ups,
officials, signatures), and rendering it (the template, then ``render_pdf``: WeasyPrint in its bounded child
process, fonts and caches inherited from the warmed parent); against the median of a one-page plain-text document
rendered the same way in the same run (the same pipeline: ``reports.rendering.DocumentHTML``, whose smaller
user-agent stylesheet makes every document faster, the plain one too, so the ratio is the stricter for it). Targets
(issue 11): the report's render at most 400 ms and at most 8 times the plain document's, checked on the render child's CPU time (user + system, from wait4); the wall-clock medians
are printed beside them with the load average, since this machine is shared and they move with its load.
"""

from __future__ import annotations

import os
import random
import statistics
import time

import pytest
from django.template.loader import render_to_string

from games.engine.ruleset import ROUND_ROBIN
from games.models import GameOfficial, GameSheet, SheetStatus
from reports.game_report import game_report_data
from reports.rendering import render_pdf, static_file_url
from tests.engine.generators import random_log
from tests.factories import PersonFactory, RosterEntryFactory, international_staff
from tests.games.sheet_helpers import sheet_game, sign_in, with_uuids
from tournaments.models import GameStatus, OfficialRole, RosterEntry, TeamOfficial

pytestmark = [pytest.mark.bench, pytest.mark.django_db]

RUNS = 15
BUDGET_SECONDS = 0.400
RATIO = 8
MIX = (0.30, 0.34, 0.60, 0.85, 0.90)  # shot by a player, goal, penalty, stoppage, correction (generators.py)
PLAIN = "<p>" + " ".join(["The official game report is rendered from the game's record."] * 40) + "</p>"


def _full_game():
    game = sheet_game()
    for team in (game.home, game.away):
        for number in (40, 41, 42, 43):  # 14 floor players and 2 goalkeepers (3.1.1 A, R-04)
            RosterEntryFactory(entry=team, person=PersonFactory(federation=team.federation), number=str(number))
        RosterEntry.objects.filter(entry=team, number__in=["40", "41", "42"]).update(alternate=True)
        for role in (OfficialRole.COACH, OfficialRole.MANAGER):
            TeamOfficial.objects.create(entry=team, person=PersonFactory(federation=team.federation), role=role)
    from django.utils import timezone

    for duty, position in (("referee", 1), ("referee", 2), ("scorer", 1), ("timekeeper", 1), ("penalty_timekeeper", 1)):
        GameOfficial.objects.create(
            game=game, person=PersonFactory(), duty=duty, position=position, assigned_at=timezone.now()
        )
    director = international_staff()
    log = random_log(random.Random(20), events=240, game_type=ROUND_ROBIN, mix=MIX)
    sign_in(game, director, device="bench")
    from games.sheet import record_events

    answer = record_events(game=game, by=director, device="bench", events=with_uuids(log.entries))
    GameSheet.objects.filter(game=game).update(status=SheetStatus.FINAL)
    score = answer.state["score"]
    game.status, game.home_goals, game.away_goals, game.decided_in = (
        GameStatus.FINAL, score["home"], score["away"], "regulation",
    )  # fmt: skip
    game.save()
    return game, answer.state


def _median_ms(work) -> tuple[float, object, float | None]:
    """Median wall-clock milliseconds of ``work`` over RUNS, its last result, and the median CPU milliseconds of the
    render's child process when ``work`` renders (the figure the other sessions' load does not inflate)."""
    times, cpu, result = [], [], None
    for _ in range(RUNS):
        started = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - started)
        cpu.append(getattr(result, "cpu_milliseconds", None))
    return statistics.median(times) * 1000, result, statistics.median(cpu) if None not in cpu else None


def test_the_game_report_of_a_full_game_renders_within_its_budget():
    game, state = _full_game()
    assert len(state["penalties"]) == 41 and len(state["goals"]) == 12
    stylesheet = static_file_url("reports/documents.css")

    data_ms, data, _ = _median_ms(lambda: game_report_data(game))
    assert len(data["penalties"]) == 41 and len(data["goals"]) == 12
    assert [len(team["players"]) for team in data["teams"]] == [16, 16]
    render_pdf(PLAIN)  # the parent process warms up once (fonts), like a worker after its first document
    plain_ms, plain, plain_cpu = _median_ms(lambda: render_pdf(PLAIN))

    def report():
        html = render_to_string("reports/game_report.html", {**data, "version": "0" * 64, "stylesheet": stylesheet})
        return render_pdf(html)

    report_ms, rendered, report_cpu = _median_ms(report)
    ratio = report_ms / plain_ms
    print(
        f"\ngame report ({len(data['penalties'])} penalties, {len(data['goals'])} goals, 2 x 16 players, "
        f"{rendered.pages} pages, {len(rendered.pdf) // 1024} KiB): data {data_ms:.1f} ms, render {report_ms:.0f} ms "
        f"(child CPU {report_cpu:.0f} ms); plain one-page document {plain_ms:.0f} ms (CPU {plain_cpu:.0f} ms, "
        f"{plain.pages} page); ratio {ratio:.1f} (CPU {report_cpu / plain_cpu:.1f}); medians of {RUNS}, "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    # The budget holds for the render's own cost: its child's CPU time. The wall-clock figure is printed with the
    # load average: on this machine, shared with other sessions, it also counts the time spent waiting for a core.
    assert report_cpu <= BUDGET_SECONDS * 1000
    assert report_cpu / plain_cpu <= RATIO and ratio <= RATIO * 1.25
