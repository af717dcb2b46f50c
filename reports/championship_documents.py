"""A championship's pool standings (9.3) and its statistics (4.3 A, 4.6 note, 8.1 B-D): their data, for the templates.

Both read what the championship's pages read (``tournaments.selectors.championship_standings`` for the standings
page, ``championship_statistics`` and ``leader_tables`` for the leaders page) and return plain data (strings,
numbers, lists, dicts), so it fingerprints as it renders: the document's version is the SHA-256 of exactly this.
Percentages and averages are written as the pages write them (one decimal), never as floats, and nothing in the
data says when it was made: the same results give the same version.
"""

from __future__ import annotations

from typing import Any

from django.utils.formats import date_format
from django.utils.translation import ngettext

from portal.i18n import say
from tournaments.facts import championship_standings_rules
from tournaments.models import Championship, Game, GameStatus
from tournaments.selectors import championship_standings, championship_statistics, leader_tables

NO_FIGURE = "–"


def _header(championship: Championship) -> dict[str, Any]:
    venue = championship.venue
    return {
        "championship": championship.name,
        "category": championship.get_category_display(),
        "level": championship.get_level_display(),
        "venue": f"{venue.name}, {venue.city}",
        "dates": f"{date_format(championship.start_date, 'DATE_FORMAT')} – {date_format(championship.end_date, 'DATE_FORMAT')}",
    }


def _one_decimal(value: float | None) -> str:
    return NO_FIGURE if value is None else f"{value:.1f}"


# The version lines, one pair per document (the words around the counts differ with the document's name).
_PROGRESS = {
    "standings": (
        lambda total: ngettext(
            "Standings before any final game (%(total)s game to play)",
            "Standings before any final game (%(total)s games to play)",
            total,
        ),
        lambda total: ngettext(
            "Standings after %(final)s of %(total)s game, last final game #%(last)s",
            "Standings after %(final)s of %(total)s games, last final game #%(last)s",
            total,
        ),
    ),
    "statistics": (
        lambda total: ngettext(
            "Statistics before any final game (%(total)s game to play)",
            "Statistics before any final game (%(total)s games to play)",
            total,
        ),
        lambda total: ngettext(
            "Statistics after %(final)s of %(total)s game, last final game #%(last)s",
            "Statistics after %(final)s of %(total)s games, last final game #%(last)s",
            total,
        ),
    ),
}


def _progress(final: list[int], total: int, what: str) -> str:
    """'Standings after 8 of 12 games, last final game #8' (or before any game is final), in the reader's
    language; ``what`` is "standings" or "statistics"."""
    before, after = _PROGRESS[what]
    if not final:
        return before(total) % {"total": total}
    return after(total) % {"final": len(final), "total": total, "last": max(final)}


# --- the standings -------------------------------------------------------------------------------------------


def standings_data(championship: Championship) -> dict[str, Any]:
    """Every pool's table as the standings page shows it, its tie-break explanations (9.3 B-G) and its state."""
    games: dict[int, list[tuple[int, bool]]] = {}
    for pool_id, number, status in Game.objects.filter(championship=championship, pool__isnull=False).values_list(
        "pool_id", "number", "status"
    ):
        games.setdefault(pool_id, []).append((number, status == GameStatus.FINAL))
    pools = []
    for table in championship_standings(championship):
        pool_games = games.get(table.pool.pk, [])
        final = sorted(number for number, is_final in pool_games if is_final)
        pools.append(
            {
                "name": table.pool.name,
                "finished": table.finished,
                "final_games": len(final),
                "games": len(pool_games),
                "rows": [
                    {
                        "position": row.position,
                        "team": row.team,
                        "played": row.played,
                        "wins": row.wins,
                        "ties": row.ties,
                        "losses": row.losses,
                        "forfeits": row.forfeits,
                        "goals_for": row.goals_for,
                        "goals_against": row.goals_against,
                        "goal_difference": row.goal_difference,
                        "points": row.points,
                        "decided_by": str(say(row.decided_by or "")),
                        "needs_shootout": row.needs_shootout,
                        "disqualified": row.disqualified,
                    }
                    for row in table.standings.rows
                ],
                "unresolved": [list(group) for group in table.standings.unresolved],
                "explanations": [str(say(line)) for line in table.standings.explanations],
            }
        )
    rules = championship_standings_rules(championship)
    final = [number for pool_games in games.values() for number, is_final in pool_games if is_final]
    total = sum(len(pool_games) for pool_games in games.values())
    return {
        **_header(championship),
        "preset": championship.get_standings_preset_display(),
        "points": {
            "win": rules.points.win,
            "tie": rules.points.tie,
            "loss": rules.points.loss,
            "forfeit_loss": rules.points.forfeit_loss,
        },
        "pools": pools,
        "finished": bool(pools) and all(pool["finished"] for pool in pools),
        "version_label": _progress(final, total, "standings"),
    }


# --- the statistics ------------------------------------------------------------------------------------------


def _players(rows: list) -> list[dict[str, Any]]:
    return [
        {
            "name": str(person) if person is not None else "",
            "team": p.team,
            "games": p.games,
            "goals": p.goals,
            "assists": p.assists,
            "points": p.points,
            "penalty_minutes": p.penalty_minutes,
        }
        for p, person in rows
    ]


def statistics_data(championship: Championship) -> dict[str, Any]:
    """The leaders page's tables: points, goals, assists, penalty minutes, goalkeepers and special teams."""
    stats = championship_statistics(championship)
    tables = leader_tables(stats)
    numbers = list(Game.objects.filter(championship=championship).values_list("number", "status"))
    final = [number for number, status in numbers if status == GameStatus.FINAL]
    return {
        **_header(championship),
        "leaders": [
            {"title": title, "rows": _players(tables[key])}
            for key, title in (
                ("points", "Points"),
                ("goals", "Goals"),
                ("assists", "Assists"),
                ("penalty_minutes", "Penalty minutes"),
            )
        ],
        "goalkeepers": [
            {
                "name": str(person) if person is not None else "",
                "team": g.team,
                "games": g.games,
                "shots_against": g.shots_against,
                "saves": g.saves,
                "goals_against": g.goals_against,
                "save_percentage": _one_decimal(g.save_percentage),
                "goals_against_average": _one_decimal(g.goals_against_average),
            }
            for g, person in tables["goalkeepers"]
        ],
        "teams": [
            {
                "team": t.team,
                "power_plays": t.power_plays,
                "power_play_goals": t.power_play_goals,
                "power_play_percentage": _one_decimal(t.power_play_percentage),
                "times_shorthanded": t.times_shorthanded,
                "power_play_goals_against": t.power_play_goals_against,
                "penalty_kill_percentage": _one_decimal(t.penalty_kill_percentage),
                "penalty_minutes": t.penalty_minutes,
            }
            for t in tables["teams"]
        ],
        "roster_games": stats.roster_games,
        "version_label": _progress(final, len(numbers), "statistics"),
    }
