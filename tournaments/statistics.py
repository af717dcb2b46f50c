"""Championship statistics from game summaries: players, goalkeepers, special teams.

Pure Python (no Django). The live module's records (goals, penalties,
goalkeeper counts, line-ups) come in as plain summaries; the official tables
come out. Rulebook 4.3, 4.6 (note on saves), 5.5.11, 8.1 B and D; R-21, R-32,
R-41 and R-43.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .errors import CoreInputError
from .standings import GameResult

Person = Hashable


class StatisticsError(CoreInputError):
    """A summary that cannot be counted; `field` names it."""


@dataclass(frozen=True)
class GoalSummary:
    """A goal as credited (5.5.11 B-E): `team` is the team the goal counts for."""

    game_id: str | int
    team: str
    scorer: Person | None
    assist: Person | None = None  # at most one assist
    own_goal: bool = False  # 5.5.11 D: credited to the attacker who last played the puck, no assist
    empty_net: bool = False
    power_play: bool = False
    shorthanded: bool = False
    penalty_shot: bool = False


@dataclass(frozen=True)
class PenaltySummary:
    """A penalty as charged in the records (R-20, R-21); `person` None is a bench penalty."""

    game_id: str | int
    team: str
    person: Person | None
    minutes: int
    infraction: str = ""
    gives_power_play: bool = False  # it left the team shorthanded, so the opponent had a power play


@dataclass(frozen=True)
class GoalkeeperGame:
    """One goalkeeper's counts in one game (4.3, 4.6 D)."""

    game_id: str | int
    team: str
    goalkeeper: Person
    shots_against: int
    saves: int
    goals_against: int
    seconds_played: int | None = None


ShotSummary = GoalkeeperGame


@dataclass(frozen=True)
class Appearance:
    """A person on a game's line-up (5.1 A): a game played."""

    game_id: str | int
    team: str
    person: Person


@dataclass(frozen=True)
class PlayerStatistics:
    person: Person
    team: str
    games: int
    goals: int
    assists: int
    points: int
    penalty_minutes: int
    power_play_goals: int = 0
    shorthanded_goals: int = 0


@dataclass(frozen=True)
class GoalkeeperStatistics:
    goalkeeper: Person
    team: str
    games: int
    shots_against: int
    saves: int
    goals_against: int
    save_percentage: float | None  # saves / shots against x 100; None without a shot
    seconds_played: int | None
    goals_against_average: float | None  # per full game, when the time played is known


@dataclass(frozen=True)
class TeamSpecialTeams:
    team: str
    power_plays: int
    power_play_goals: int
    power_play_percentage: float | None
    times_shorthanded: int
    power_play_goals_against: int
    penalty_kill_percentage: float | None
    shorthanded_goals: int
    penalty_minutes: int


class _Games:
    """The games that count, and checks that every summary belongs to one of them."""

    def __init__(self, games: Iterable[GameResult], disqualified: Collection[str]):
        self.all: dict[str | int, GameResult] = {}
        for game in games:
            if game.game_id in self.all:
                raise StatisticsError("games", f"game {game.game_id} is listed twice")
            self.all[game.game_id] = game
        excluded = set(disqualified)
        # 8.1 D / R-43: a removed team's games are erased for both teams, as though never played.
        self.counted = {
            gid: game for gid, game in self.all.items() if game.home not in excluded and game.away not in excluded
        }

    def get(self, field: str, game_id: str | int, team: str) -> GameResult | None:
        """Return the counted game, None for an erased one; refuse a game or team that does not exist."""
        game = self.all.get(game_id)
        if game is None:
            raise StatisticsError(f"{field}.game_id", f"no game {game_id!r}")
        if team not in (game.home, game.away):
            raise StatisticsError(f"{field}.team", f"{team!r} did not play game {game_id!r}")
        return self.counted.get(game_id)

    @staticmethod
    def opponent(game: GameResult, team: str) -> str:
        return game.away if team == game.home else game.home


def _percentage(part: int, whole: int) -> float | None:
    return None if whole == 0 else 100.0 * part / whole


def check_goal(goal: GoalSummary, field: str = "goal") -> None:
    """Raise StatisticsError for a goal that cannot be credited that way (5.5.11 C-D, R-32)."""
    if goal.own_goal and goal.assist is not None:
        raise StatisticsError(f"{field}.assist", "Rule 5.5.11 D / R-32: an own goal is credited with no assist")
    if goal.assist is not None and goal.assist == goal.scorer:
        raise StatisticsError(f"{field}.assist", "Rule 5.5.11 C: the scorer cannot assist his own goal")
    if goal.power_play and goal.shorthanded:
        raise StatisticsError(f"{field}.shorthanded", "a goal is scored on the power play or shorthanded, not both")


def player_statistics(
    *,
    games: Iterable[GameResult],
    appearances: Iterable[Appearance] = (),
    goals: Iterable[GoalSummary] = (),
    penalties: Iterable[PenaltySummary] = (),
    captains: Mapping[str, Person] = MappingProxyType({}),
    disqualified: Collection[str] = (),
) -> tuple[PlayerStatistics, ...]:
    """Return games, goals, assists, points and penalty minutes per player, best first.

    A forfeit counts 1-0: one goal to the winner's captain, no assist, and the
    goals actually scored in that game do not count (8.1 B, R-41). Games of a
    disqualified team are erased for everyone (8.1 D, R-43). Penalty minutes
    stand in a forfeited game: they were charged (R-21).
    """
    table = _Games(games, disqualified)
    rows: dict[tuple[Person, str], dict[str, int]] = {}

    def row(person: Person, team: str) -> dict[str, int]:
        found = rows.get((person, team))
        if found is None:
            found = rows[person, team] = dict.fromkeys(("games", "goals", "assists", "pim", "ppg", "shg"), 0)
        return found

    seen: set[tuple[str | int, Person]] = set()
    for i, appearance in enumerate(appearances):
        if table.get(f"appearances[{i}]", appearance.game_id, appearance.team) is None:
            continue
        if (appearance.game_id, appearance.person) in seen:
            continue
        seen.add((appearance.game_id, appearance.person))
        row(appearance.person, appearance.team)["games"] += 1
    for i, goal in enumerate(goals):
        check_goal(goal, f"goals[{i}]")
        game = table.get(f"goals[{i}]", goal.game_id, goal.team)
        if game is None or game.forfeited_by is not None:
            continue  # 8.1 B: a forfeit is recorded 1-0 whatever was scored
        if goal.scorer is not None:
            scorer = row(goal.scorer, goal.team)
            scorer["goals"] += 1
            scorer["ppg"] += int(goal.power_play)
            scorer["shg"] += int(goal.shorthanded)
        if goal.assist is not None:
            row(goal.assist, goal.team)["assists"] += 1
    for i, penalty in enumerate(penalties):
        if penalty.minutes < 0:
            raise StatisticsError(f"penalties[{i}].minutes", "R-21: minutes charged are 0 or more")
        if table.get(f"penalties[{i}]", penalty.game_id, penalty.team) is None or penalty.person is None:
            continue
        row(penalty.person, penalty.team)["pim"] += penalty.minutes
    for game in table.counted.values():
        if game.forfeited_by is None:
            continue
        winner = table.opponent(game, game.forfeited_by)
        if winner not in captains:
            raise StatisticsError(
                "captains", f"Rule 8.1 B: the forfeit of game {game.game_id} gives a goal to {winner}'s captain"
            )
        row(captains[winner], winner)["goals"] += 1

    result = [
        PlayerStatistics(
            person=person,
            team=team,
            games=r["games"],
            goals=r["goals"],
            assists=r["assists"],
            points=r["goals"] + r["assists"],
            penalty_minutes=r["pim"],
            power_play_goals=r["ppg"],
            shorthanded_goals=r["shg"],
        )
        for (person, team), r in rows.items()
    ]
    result.sort(key=lambda p: (-p.points, -p.goals, p.games, str(p.person)))
    return tuple(result)


def goalkeeper_counts_problem(*, shots_against: object, saves: object, goals_against: object) -> tuple[str, str] | None:
    """Return (count, message) when a goalkeeper's counts for a game do not add up, else None.

    Counts are whole numbers of 0 or more, and a save is a shot that would
    have entered the goal (4.6 note): shots against = saves + goals against.
    """
    counts: list[int] = []
    for name, value in (("shots_against", shots_against), ("saves", saves), ("goals_against", goals_against)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            return name, f"a count is a whole number >= 0, not {value!r}"
        counts.append(value)
    shots, saved, against = counts
    if shots != saved + against:
        return (
            "shots_against",
            f"Rule 4.6 note: a save is a shot that would have entered, so shots against ({shots_against}) "
            f"are saves ({saves}) + goals against ({goals_against})",
        )
    return None


@dataclass
class _KeeperTotals:
    """One goalkeeper's running totals for one team; `seconds_played` None once a game's time is unknown."""

    games: int = 0
    shots_against: int = 0
    saves: int = 0
    goals_against: int = 0
    seconds_played: int | None = 0


def goalkeeper_statistics(
    *,
    games: Iterable[GameResult],
    goalkeepers: Iterable[GoalkeeperGame],
    disqualified: Collection[str] = (),
    game_seconds: int = 2400,
) -> tuple[GoalkeeperStatistics, ...]:
    """Return shots against, saves, goals against and save percentage per goalkeeper, best first.

    A save is a shot that would have entered the goal, stopped by the
    goalkeeper (4.6 note), so shots against = saves + goals against. Forfeits
    credit no goalkeeper with a shot, save or goal against (8.1 B); games of a
    disqualified team are erased (8.1 D). The goals-against average is per
    `game_seconds` (2 x 20 min, 1.2 A) when the time played is known.
    """
    table = _Games(games, disqualified)
    rows: dict[tuple[Person, str], _KeeperTotals] = {}
    for i, line in enumerate(goalkeepers):
        field = f"goalkeepers[{i}]"
        problem = goalkeeper_counts_problem(
            shots_against=line.shots_against, saves=line.saves, goals_against=line.goals_against
        )
        if problem is not None:
            raise StatisticsError(f"{field}.{problem[0]}", problem[1])
        game = table.get(field, line.game_id, line.team)
        if game is None or game.forfeited_by is not None:
            continue
        r = rows.setdefault((line.goalkeeper, line.team), _KeeperTotals())
        r.games += 1
        r.shots_against += line.shots_against
        r.saves += line.saves
        r.goals_against += line.goals_against
        if line.seconds_played is None or r.seconds_played is None:
            r.seconds_played = None
        else:
            r.seconds_played += line.seconds_played
    result = [
        GoalkeeperStatistics(
            goalkeeper=keeper,
            team=team,
            games=r.games,
            shots_against=r.shots_against,
            saves=r.saves,
            goals_against=r.goals_against,
            save_percentage=_percentage(r.saves, r.shots_against),
            seconds_played=r.seconds_played,
            goals_against_average=(r.goals_against * game_seconds / r.seconds_played) if r.seconds_played else None,
        )
        for (keeper, team), r in rows.items()
    ]
    result.sort(
        key=lambda g: (g.save_percentage is None, -(g.save_percentage or 0.0), g.goals_against, str(g.goalkeeper))
    )
    return tuple(result)


def team_special_teams(
    *,
    games: Iterable[GameResult],
    goals: Iterable[GoalSummary] = (),
    penalties: Iterable[PenaltySummary] = (),
    disqualified: Collection[str] = (),
) -> tuple[TeamSpecialTeams, ...]:
    """Return power-play and penalty-kill figures per team.

    Power-play % = power-play goals / power plays (opponent's penalties that
    left it shorthanded); penalty-kill % = power plays killed / times
    shorthanded. A forfeited game counts only as 1-0 (8.1 B), so its goals and
    power plays are left out; games of a disqualified team are erased (8.1 D).
    """
    table = _Games(games, disqualified)
    teams = sorted({t for g in table.counted.values() for t in (g.home, g.away)})
    counts = {t: dict.fromkeys(("pp", "ppg", "sh", "ppga", "shg", "pim"), 0) for t in teams}

    def live(field: str, game_id: str | int, team: str) -> GameResult | None:
        game = table.get(field, game_id, team)
        return None if game is None or game.forfeited_by is not None else game

    for i, penalty in enumerate(penalties):
        game = live(f"penalties[{i}]", penalty.game_id, penalty.team)
        if game is None:
            continue
        counts[penalty.team]["pim"] += penalty.minutes
        if penalty.gives_power_play:
            counts[penalty.team]["sh"] += 1
            counts[table.opponent(game, penalty.team)]["pp"] += 1
    for i, goal in enumerate(goals):
        check_goal(goal, f"goals[{i}]")
        game = live(f"goals[{i}]", goal.game_id, goal.team)
        if game is None:
            continue
        if goal.power_play:
            counts[goal.team]["ppg"] += 1
            counts[table.opponent(game, goal.team)]["ppga"] += 1
        if goal.shorthanded:
            counts[goal.team]["shg"] += 1
    return tuple(
        TeamSpecialTeams(
            team=team,
            power_plays=c["pp"],
            power_play_goals=c["ppg"],
            power_play_percentage=_percentage(c["ppg"], c["pp"]),
            times_shorthanded=c["sh"],
            power_play_goals_against=c["ppga"],
            penalty_kill_percentage=_percentage(c["sh"] - c["ppga"], c["sh"]),
            shorthanded_goals=c["shg"],
            penalty_minutes=c["pim"],
        )
        for team, c in counts.items()
    )
