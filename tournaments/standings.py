"""Pool standings: points, tie-breakers and the shoot-out that only staff can enter.

Pure Python (no Django, no clock): results in, a table out. Rulebook 9.3 and
8.1; decisions R-41 (points), R-42 (tie-breakers) and R-43 (disqualification).
Other rule sets (older goal-difference rules, IIHF 3/2/1/0) are presets over
the same machinery.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from common.text import Text, _

from .errors import CoreInputError

RESULT_KINDS = ("regulation", "overtime", "shootout", "forfeit")


class StandingsError(CoreInputError):
    """Results that cannot make a table; `field` names the offending input."""


@dataclass(frozen=True)
class GameResult:
    """The final result of one game as the standings see it.

    A forfeit is recorded 1-0 to the team that did not forfeit (8.1 B); the
    goals carry that. A game won in a shoot-out keeps its tied score and names
    the shoot-out winner (R-40), unless the score already counts the deciding
    goal (the IIHF habit), in which case the winner follows from the goals.
    """

    game_id: str | int
    home: str
    away: str
    home_goals: int
    away_goals: int
    decided_in: str = "regulation"
    forfeited_by: str | None = None
    round_robin: bool = True
    shootout_winner: str | None = None

    @property
    def winner(self) -> str | None:
        """Return the winning team, or None for a tie."""
        if self.forfeited_by is not None:
            return self.away if self.forfeited_by == self.home else self.home
        if self.home_goals > self.away_goals:
            return self.home
        if self.away_goals > self.home_goals:
            return self.away
        if self.decided_in == "shootout":
            return self.shootout_winner
        return None

    @property
    def loser(self) -> str | None:
        """Return the losing team, or None for a tie."""
        winner = self.winner
        if winner is None:
            return None
        return self.away if winner == self.home else self.home

    def check(self) -> None:
        """Raise StandingsError if the result is not a possible game result."""
        where = f"results[{self.game_id}]"
        if self.home == self.away:
            raise StandingsError(f"{where}.away", "a team cannot play itself")
        if self.decided_in not in RESULT_KINDS:
            raise StandingsError(f"{where}.decided_in", f"must be one of {', '.join(RESULT_KINDS)}")
        for name in ("home_goals", "away_goals"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise StandingsError(f"{where}.{name}", f"goals must be a whole number >= 0, not {value!r}")
        if (self.decided_in == "forfeit") != (self.forfeited_by is not None):
            raise StandingsError(
                f"{where}.forfeited_by", "Rule 8.1 B: a forfeit names the forfeiting team, and only a forfeit does"
            )
        if self.forfeited_by is not None:
            if self.forfeited_by not in (self.home, self.away):
                raise StandingsError(f"{where}.forfeited_by", f"{self.forfeited_by!r} did not play this game")
            if self.winner is not None and (
                (self.winner == self.home and self.home_goals <= self.away_goals)
                or (self.winner == self.away and self.away_goals <= self.home_goals)
            ):
                raise StandingsError(
                    f"{where}.home_goals", "Rule 8.1 B: a forfeit is recorded 1-0 to the team that did not forfeit"
                )
        if self.decided_in == "overtime" and self.home_goals == self.away_goals:
            raise StandingsError(
                f"{where}.home_goals", "Rule 1.3 B: an overtime is sudden death, so it ends with a goal"
            )
        if self.decided_in == "shootout" and self.home_goals == self.away_goals:
            if self.shootout_winner not in (self.home, self.away):
                raise StandingsError(
                    f"{where}.shootout_winner", "Rule 1.3 E / R-40: a game decided in a shoot-out names its winner"
                )
        elif self.shootout_winner is not None and self.shootout_winner != self.winner:
            raise StandingsError(f"{where}.shootout_winner", "does not match the score")


@dataclass(frozen=True)
class PointsScheme:
    """Points for one game (9.3 A, 8.1 B / R-41); None falls back to the regulation value."""

    win: int = 2
    tie: int = 1
    loss: int = 0
    forfeit_loss: int = -2
    overtime_win: int | None = None
    overtime_loss: int | None = None
    shootout_win: int | None = None
    shootout_loss: int | None = None

    def for_winner(self, decided_in: str) -> int:
        if decided_in == "shootout" and self.shootout_win is not None:
            return self.shootout_win
        if decided_in in ("overtime", "shootout") and self.overtime_win is not None:
            return self.overtime_win
        return self.win

    def for_loser(self, decided_in: str) -> int:
        if decided_in == "forfeit":
            return self.forfeit_loss
        if decided_in == "shootout" and self.shootout_loss is not None:
            return self.shootout_loss
        if decided_in in ("overtime", "shootout") and self.overtime_loss is not None:
            return self.overtime_loss
        return self.loss


DEFAULT_TIEBREAKERS = (
    "head_to_head_points",
    "fewest_goals_against",
    "fewest_goals_against_in_wins_vs_common",
    "most_goals_for_in_losses_vs_common",
    "shootout",
)


@dataclass(frozen=True)
class StandingsRules:
    """How a pool table is ordered: the points and the tie-breakers in order.

    `restart_after_partial_split` (R-42): when a criterion separates some of the
    tied teams but not all, the ones still tied start again from the first
    criterion among themselves; when False they go on with the next criterion.
    """

    points: PointsScheme = field(default_factory=PointsScheme)
    tiebreakers: tuple[str, ...] = DEFAULT_TIEBREAKERS
    restart_after_partial_split: bool = True


DEFAULT = StandingsRules()


@dataclass
class _Record:
    """What one team did against one opponent (or against everyone)."""

    played: int = 0
    wins: int = 0
    ties: int = 0
    losses: int = 0
    forfeits: int = 0
    overtime_wins: int = 0
    overtime_losses: int = 0
    goals_for: int = 0
    goals_against: int = 0
    points: int = 0
    goals_against_in_wins: int = 0
    goals_for_in_losses: int = 0

    def add(self, other: _Record) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


class _Table:
    """Totals per team and per pair of teams, computed once per table."""

    def __init__(self, teams: Sequence[str], results: Sequence[GameResult], points: PointsScheme):
        self.totals: dict[str, _Record] = {team: _Record() for team in teams}
        self.pairs: dict[str, dict[str, _Record]] = {team: {} for team in teams}
        for result in results:
            self._count(result, points)

    def _count(self, result: GameResult, points: PointsScheme) -> None:
        winner = result.winner
        for team, opponent, gf, ga in (
            (result.home, result.away, result.home_goals, result.away_goals),
            (result.away, result.home, result.away_goals, result.home_goals),
        ):
            record = _Record(played=1, goals_for=gf, goals_against=ga)
            if winner is None:
                record.ties = 1
                record.points = points.tie
            elif winner == team:
                record.wins = 1
                record.points = points.for_winner(result.decided_in)
                record.goals_against_in_wins = ga
                record.overtime_wins = int(result.decided_in in ("overtime", "shootout"))
            else:
                record.losses = 1
                record.points = points.for_loser(result.decided_in)
                record.goals_for_in_losses = gf
                record.forfeits = int(result.forfeited_by == team)
                record.overtime_losses = int(result.decided_in in ("overtime", "shootout"))
            self.totals[team].add(record)
            self.pairs[team].setdefault(opponent, _Record()).add(record)

    def among(self, team: str, group: Collection[str]) -> _Record:
        """Return the record of `team` in its games against the others of `group`."""
        record = _Record()
        for opponent, pair in self.pairs[team].items():
            if opponent in group:
                record.add(pair)
        return record

    def common_opponents(self, group: Collection[str], *, beaten: bool) -> frozenset[str]:
        """Return the opponents outside `group` that every team of `group` beat (`beaten`) or lost to.

        R-42: an opponent beaten (or lost to) by only some of the tied teams is
        not common; with no common opponent the criterion separates nobody.
        """
        sets = [
            {opponent for opponent, pair in self.pairs[team].items() if (pair.wins if beaten else pair.losses)}
            for team in group
        ]
        return frozenset(set.intersection(*sets)) - frozenset(group) if sets else frozenset()

    def against(self, team: str, opponents: Collection[str]) -> _Record:
        record = _Record()
        for opponent in opponents:
            pair = self.pairs[team].get(opponent)
            if pair is not None:
                record.add(pair)
        return record


@dataclass(frozen=True)
class Tiebreaker:
    """One criterion: a value per tied team, and which way is better."""

    key: str
    article: str
    label: Text
    higher_is_better: bool
    value: Callable[[_Table, frozenset[str], str], int]
    signed: bool = False

    def __call__(self, table: _Table, group: frozenset[str]) -> dict[str, int]:
        return {team: self.value(table, group, team) for team in group}

    def describe(self, value: int) -> str:
        return f"{value:+d}" if self.signed else str(value)

    @property
    def title(self) -> Text:
        return (
            _("%(article)s: %(criterion)s", article=self.article, criterion=self.label) if self.article else self.label
        )


def _head_to_head_points(table: _Table, group: frozenset[str], team: str) -> int:
    return table.among(team, group).points


def _head_to_head_goal_difference(table: _Table, group: frozenset[str], team: str) -> int:
    record = table.among(team, group)
    return record.goals_for - record.goals_against


def _head_to_head_goals_for(table: _Table, group: frozenset[str], team: str) -> int:
    return table.among(team, group).goals_for


def _goals_against(table: _Table, group: frozenset[str], team: str) -> int:
    return table.totals[team].goals_against


def _goals_against_in_wins_vs_common(table: _Table, group: frozenset[str], team: str) -> int:
    # 9.3 E / R-42: goals allowed in the games won against the opponents that every tied team beat.
    return table.against(team, table.common_opponents(group, beaten=True)).goals_against_in_wins


def _goals_for_in_losses_vs_common(table: _Table, group: frozenset[str], team: str) -> int:
    # 9.3 F / R-42: goals scored in the games lost to the opponents that every tied team lost to.
    return table.against(team, table.common_opponents(group, beaten=False)).goals_for_in_losses


def _goal_difference(table: _Table, group: frozenset[str], team: str) -> int:
    return table.totals[team].goals_for - table.totals[team].goals_against


def _goals_for(table: _Table, group: frozenset[str], team: str) -> int:
    return table.totals[team].goals_for


def _wins(table: _Table, group: frozenset[str], team: str) -> int:
    return table.totals[team].wins


TIEBREAKERS: Mapping[str, Tiebreaker] = MappingProxyType(
    {
        t.key: t
        for t in (
            Tiebreaker("head_to_head_points", "9.3 C", _("head-to-head points"), True, _head_to_head_points),
            Tiebreaker("fewest_goals_against", "9.3 D", _("goals allowed in the round"), False, _goals_against),
            Tiebreaker(
                "fewest_goals_against_in_wins_vs_common",
                "9.3 E",
                _("goals allowed in wins against common opponents"),
                False,
                _goals_against_in_wins_vs_common,
            ),
            Tiebreaker(
                "most_goals_for_in_losses_vs_common",
                "9.3 F",
                _("goals scored in losses against common opponents"),
                True,
                _goals_for_in_losses_vs_common,
            ),
            Tiebreaker(
                "head_to_head_goal_difference",
                "",
                _("head-to-head goal difference"),
                True,
                _head_to_head_goal_difference,
                signed=True,
            ),
            Tiebreaker("head_to_head_goals_for", "", _("head-to-head goals scored"), True, _head_to_head_goals_for),
            Tiebreaker("goal_difference", "", _("goal difference"), True, _goal_difference, signed=True),
            Tiebreaker("goals_for", "", _("goals scored"), True, _goals_for),
            Tiebreaker("wins", "", _("wins"), True, _wins),
        )
    }
)

# 9.3 G: not computed; staff enter the shoot-out's order for the group.
SHOOTOUT = "shootout"
TIEBREAKER_NAMES = (*TIEBREAKERS, SHOOTOUT)

PRESETS: Mapping[str, StandingsRules] = MappingProxyType(
    {
        # 9.3 A-G with.
        "firs-2017": DEFAULT,
        # Older rules: goal difference first, then goals scored, then the games among the tied teams.
        "historic-goal-difference": StandingsRules(
            tiebreakers=("goal_difference", "goals_for", "head_to_head_points", SHOOTOUT),
            restart_after_partial_split=False,
        ),
        # IIHF: 3 for a regulation win, 2 for an overtime or shoot-out win, 1 for an
        # overtime or shoot-out loss, 0 for a regulation loss; the games among the
        # tied teams first, restarting when a criterion splits the group.
        "iihf": StandingsRules(
            points=PointsScheme(win=3, tie=1, loss=0, forfeit_loss=0, overtime_win=2, overtime_loss=1),
            tiebreakers=(
                "head_to_head_points",
                "head_to_head_goal_difference",
                "head_to_head_goals_for",
                "goal_difference",
                "goals_for",
                SHOOTOUT,
            ),
        ),
    }
)


@dataclass(frozen=True)
class StandingRow:
    team: str
    position: int
    played: int
    wins: int
    ties: int
    losses: int
    forfeits: int
    goals_for: int
    goals_against: int
    points: int
    decided_by: str | None
    needs_shootout: bool
    disqualified: bool
    overtime_wins: int = 0
    overtime_losses: int = 0

    @property
    def goal_difference(self) -> int:
        return self.goals_for - self.goals_against


@dataclass(frozen=True)
class Standings:
    rows: tuple[StandingRow, ...]
    unresolved: tuple[tuple[str, ...], ...]
    explanations: tuple[str, ...]

    def row(self, team: str) -> StandingRow:
        for row in self.rows:
            if row.team == team:
                return row
        raise KeyError(team)

    @property
    def order(self) -> tuple[str, ...]:
        return tuple(row.team for row in self.rows)

    @property
    def complete(self) -> bool:
        """Return True when every position is decided (no shoot-out pending)."""
        return not self.unresolved


def _names(teams: Iterable[str]) -> str:
    teams = list(teams)
    if len(teams) == 1:
        return teams[0]
    return _("%(teams)s and %(last)s", teams=", ".join(teams[:-1]), last=teams[-1])


class _Ranker:
    """Order teams equal on points by the tie-breakers (9.3 C-G, R-42)."""

    def __init__(
        self,
        table: _Table,
        rules: StandingsRules,
        shootouts: Mapping[frozenset[str], Sequence[str]],
        input_order: Mapping[str, int],
    ):
        self.table = table
        self.rules = rules
        self.shootouts = shootouts
        self.input_order = input_order
        self.decided_by: dict[str, Text] = {}
        self.unresolved: list[tuple[str, ...]] = []
        self.explanations: list[Text] = []
        for name in rules.tiebreakers:
            if name not in TIEBREAKER_NAMES:
                raise StandingsError("rules.tiebreakers", f"unknown tie-breaker {name!r}")

    def _sorted(self, teams: Iterable[str]) -> list[str]:
        return sorted(teams, key=self.input_order.__getitem__)

    def rank(self, group: frozenset[str], start: int = 0) -> list[tuple[str, ...]]:
        """Return the group as ordered blocks; a block of several teams is still tied."""
        if len(group) == 1:
            return [tuple(group)]
        criteria = self.rules.tiebreakers
        for index in range(start, len(criteria)):
            name = criteria[index]
            if name == SHOOTOUT:
                return self._shootout(group)
            criterion = TIEBREAKERS[name]
            values = criterion(self.table, group)
            distinct = sorted(set(values.values()), reverse=criterion.higher_is_better)
            if len(distinct) == 1:
                continue
            blocks = [frozenset(t for t in group if values[t] == v) for v in distinct]
            self.explanations.append(
                _(
                    "%(criterion)s: %(values)s",
                    criterion=criterion.title,
                    values=", ".join(f"{t} {criterion.describe(values[t])}" for b in blocks for t in self._sorted(b)),
                )
            )
            ordered: list[tuple[str, ...]] = []
            for block in blocks:
                if len(block) == 1:
                    (team,) = block
                    others = [v for v in distinct if v != values[team]]
                    self.decided_by[team] = _(
                        "%(criterion)s %(value)s vs %(others)s",
                        criterion=criterion.title,
                        value=criterion.describe(values[team]),
                        others=", ".join(criterion.describe(v) for v in others),
                    )
                    ordered.append((team,))
                    continue
                if self.rules.restart_after_partial_split:
                    self.explanations.append(
                        _(
                            "R-42: %(teams)s remain tied and start again from the first tie-breaker",
                            teams=_names(self._sorted(block)),
                        )
                    )
                    ordered.extend(self.rank(block, 0))
                else:
                    ordered.extend(self.rank(block, index + 1))
            return ordered
        self.unresolved.append(tuple(self._sorted(group)))
        self.explanations.append(_("%(teams)s remain tied after every tie-breaker", teams=_names(self._sorted(group))))
        return [tuple(self._sorted(group))]

    def _shootout(self, group: frozenset[str]) -> list[tuple[str, ...]]:
        order = self.shootouts.get(group)
        teams = self._sorted(group)
        if order is None:
            self.unresolved.append(tuple(teams))
            self.explanations.append(
                _("9.3 G: %(teams)s need a shoot-out (Rule 1.3 E); no result is entered yet", teams=_names(teams))
            )
            return [tuple(teams)]
        if len(order) != len(group) or set(order) != group:
            raise StandingsError(
                "shootout_results",
                f"Rule 9.3 G: the shoot-out between {_names(teams)} must rank exactly those teams, not {list(order)}",
            )
        self.explanations.append(
            _("9.3 G: shoot-out between %(teams)s: %(order)s", teams=_names(teams), order=", ".join(order))
        )
        for place, team in enumerate(order, start=1):
            self.decided_by[team] = _("9.3 G: shoot-out, place %(place)s of %(count)s", place=place, count=len(order))
        return [(team,) for team in order]


def compute_standings(
    teams: Sequence[str],
    results: Iterable[GameResult],
    *,
    rules: StandingsRules = DEFAULT,
    shootout_results: Mapping[frozenset[str], Sequence[str]] = MappingProxyType({}),
    disqualified: Collection[str] = (),
) -> Standings:
    """Return the pool table from the round-robin results (9.3).

    Only round-robin games count (9.3 B). A disqualified team's games are
    removed from everyone's table as if never played, and its row, emptied,
    goes to the bottom (8.1 D, R-43). A group that only a shoot-out can split
    shares its position and is listed in `unresolved` until staff enter the
    shoot-out's order (9.3 G, R-42).
    """
    if len(set(teams)) != len(teams):
        raise StandingsError("teams", "a team is listed twice")
    known = set(teams)
    excluded = set(disqualified)
    unknown_disqualified = excluded - known
    if unknown_disqualified:
        raise StandingsError("disqualified", f"not in this pool: {', '.join(sorted(unknown_disqualified))}")
    counted: list[GameResult] = []
    for result in results:
        result.check()
        for team in (result.home, result.away):
            if team not in known:
                raise StandingsError(f"results[{result.game_id}]", f"{team!r} is not in this pool")
        if not result.round_robin:
            continue
        if result.home in excluded or result.away in excluded:
            continue  # 8.1 D 2): erased as though the game had not been played
        counted.append(result)

    ranked = [team for team in teams if team not in excluded]
    table = _Table(ranked, counted, rules.points)
    input_order = {team: i for i, team in enumerate(teams)}
    ranker = _Ranker(table, rules, shootout_results, input_order)

    by_points: dict[int, list[str]] = {}
    for team in ranked:
        by_points.setdefault(table.totals[team].points, []).append(team)
    blocks: list[tuple[str, ...]] = []
    for points in sorted(by_points, reverse=True):
        group = by_points[points]
        if len(group) > 1:
            ranker.explanations.append(
                _("9.3 B: %(teams)s are equal on %(points)s points", teams=_names(group), points=points)
            )
        blocks.extend(ranker.rank(frozenset(group)))

    pending = {team for group in ranker.unresolved for team in group}
    rows: list[StandingRow] = []
    position = 1
    for block in blocks:
        for team in block:
            total = table.totals[team]
            rows.append(
                StandingRow(
                    team=team,
                    position=position,
                    played=total.played,
                    wins=total.wins,
                    ties=total.ties,
                    losses=total.losses,
                    forfeits=total.forfeits,
                    goals_for=total.goals_for,
                    goals_against=total.goals_against,
                    points=total.points,
                    decided_by=ranker.decided_by.get(team),
                    needs_shootout=team in pending,
                    disqualified=False,
                    overtime_wins=total.overtime_wins,
                    overtime_losses=total.overtime_losses,
                )
            )
        position += len(block)
    for team in teams:
        if team in excluded:
            ranker.explanations.append(
                _("8.1 D / R-43: %(team)s is disqualified; its games are removed from the table", team=team)
            )
            rows.append(
                StandingRow(
                    team=team,
                    position=position,
                    played=0,
                    wins=0,
                    ties=0,
                    losses=0,
                    forfeits=0,
                    goals_for=0,
                    goals_against=0,
                    points=0,
                    decided_by=_("8.1 D: disqualified"),
                    needs_shootout=False,
                    disqualified=True,
                )
            )
            position += 1
    return Standings(rows=tuple(rows), unresolved=tuple(ranker.unresolved), explanations=tuple(ranker.explanations))


def forfeit_disqualifies(*, forfeits_in_round_robin: int, forfeit_after_round_robin: bool) -> bool:
    """Return True when the team's forfeits disqualify it (8.1 C, R-43).

    One forfeit in the round robin is allowed; a second one, or any forfeit in
    the medal or placement games, disqualifies the team.
    """
    return forfeits_in_round_robin >= 2 or forfeit_after_round_robin


def disqualified_by_forfeits(results: Iterable[GameResult]) -> frozenset[str]:
    """Return the teams that the forfeits among `results` disqualify (8.1 C)."""
    in_round_robin: dict[str, int] = {}
    after: set[str] = set()
    for result in results:
        if result.forfeited_by is None:
            continue
        if result.round_robin:
            in_round_robin[result.forfeited_by] = in_round_robin.get(result.forfeited_by, 0) + 1
        else:
            after.add(result.forfeited_by)
    teams = set(in_round_robin) | after
    return frozenset(
        team
        for team in teams
        if forfeit_disqualifies(
            forfeits_in_round_robin=in_round_robin.get(team, 0), forfeit_after_round_robin=team in after
        )
    )
