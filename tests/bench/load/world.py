"""The load test's world: one championship with live games to score, and the logins that score and read them.

    python -m tests.bench.load.world OUT.json GAMES

Run by tests/bench/load/run.py against the topology's database, with the topology's secret key in
DJANGO_SECRET_KEY (the sessions written here are signed with it). Built with the tests' factories: every game has
the rosters of tests.engine.generators (home 2-11 and goalkeepers 1, 30; away 12-21 and 31, 35), each game an
official's console device signed in to its sheet (staff who direct the championship, 4.3-4.5), and a session
for it and for an API reader, as a browser keeps after logging in.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import django


def build(games: int) -> dict:
    from tests.factories import ChampionshipFactory, international_staff
    from tests.games.sheet_helpers import sheet_game, sign_in
    from tests.live_servers import Session

    championship = ChampionshipFactory()
    world = {"championship": championship.pk, "games": []}
    for n in range(games):
        game = sheet_game(championship=championship)
        official = international_staff(username=f"load-official-{n + 1}")
        device = f"load-table-{n + 1}"
        sign_in(game, official, device=device)
        world["games"].append({"game": game.pk, "device": device, "headers": Session(official).headers})
    world["reader"] = {"headers": Session(international_staff(username="load-reader")).headers}
    return world


if __name__ == "__main__":
    django.setup()
    out, count = Path(sys.argv[1]), int(sys.argv[2])
    out.write_text(json.dumps(build(count), indent=1))
    print(f"world: championship and {count} games written to {out}")
