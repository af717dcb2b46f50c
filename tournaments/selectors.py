"""Reads of championships shaped for the pure cores and the pages.

Every selector runs a fixed number of queries whatever the size of the
championship: rows are fetched once with their joins, then the pure cores
(``standings``, ``statistics``, ``scheduling``) do the work in memory.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q, QuerySet
from django.db.models.functions import Length
from django.shortcuts import get_object_or_404
from django.utils import timezone

from accounts.invitations import pending_for_target
from accounts.models import Invitation
from accounts.roles import is_international_staff, staff_federation_ids
from federation.eligibility import Category, EligibilityResult
from federation.models import EligibilityWaiver, Person
from federation.selectors import default_championship_dates, person_eligibility_by_category

from . import scheduling, statistics
from .facts import championship_standings_rules, championships_begun, roster_eligibility
from .models import (
    TEAM_ENTRY_TARGET,
    Championship,
    DecidedIn,
    EntryStatus,
    Game,
    GameStatus,
    GoalkeeperRecord,
    GoalRecord,
    PenaltyRecord,
    PhaseKind,
    Pool,
    PoolTeam,
    RosterEntry,
    StandingsShootoutPlace,
    TeamEntry,
)
from .standings import GameResult, Standings, compute_standings

# --- who sees a championship ---------------------------------------------------------------------------------------


def championship_visibility_q(user, through: str = "") -> Q:
    """Return the filter of the championships ``user`` may see, reached from a row by ``through``
    ("" on championships themselves, "championship" on entries, "entry__championship" on roster lines...).

    Every published championship; a draft only for those who direct it, as
    ``services.check_can_direct`` decides: staff of its sanctioning body and
    international staff (IHTC executives and superusers among them). Everyone
    else, anonymous or logged in, finds no such championship, nor its teams,
    rosters, pools or games.
    """
    if is_international_staff(user):
        return Q()
    prefix = f"{through}__" if through else ""
    return Q(**{f"{prefix}published": True}) | Q(**{f"{prefix}sanctioning_body_id__in": staff_federation_ids(user)})


def visible_championships(user) -> QuerySet[Championship]:
    """Return the championships ``user`` may see (see ``championship_visibility_q``)."""
    return Championship.objects.filter(championship_visibility_q(user))


def of_visible_championships(queryset: QuerySet, user, *, through: str = "championship") -> QuerySet:
    """Return the rows of ``queryset`` (entries, roster lines, pools, games, records) of championships ``user`` may see."""
    return queryset.filter(championship_visibility_q(user, through))


def access_championship(user, championship_id, *, queryset: QuerySet[Championship] | None = None) -> Championship:
    """Return the championship if ``user`` may see it (``championship_visibility_q``), or 404.

    A draft is no such championship for anyone but its directors, on every page and endpoint of every app: a 404
    like an id that does not exist, never a 403 that tells the draft is there.
    """
    championships = Championship.objects.all() if queryset is None else queryset
    return get_object_or_404(of_visible_championships(championships, user, through=""), pk=championship_id)


def access_game(user, game_id, *, queryset: QuerySet[Game] | None = None) -> Game:
    """Return the game if ``user`` may see its championship (``championship_visibility_q``), or 404: a draft's
    game is no such game for anyone but the draft's directors."""
    games = Game.objects.all() if queryset is None else queryset
    return get_object_or_404(of_visible_championships(games, user), pk=game_id)


# Jersey numbers are text without a leading zero (3.2.9 C): by length, then as text, is their numeric order (9
# before 10, 5 before 36), in the database as in Python.
NUMBER_ORDER = (Length("number"), "number")


def number_order(number: str) -> tuple[int, str]:
    """The sort key of a jersey number in Python: the order ``NUMBER_ORDER`` gives in the database."""
    return (len(number), number)


def roster_for_entry(entry: TeamEntry) -> list[RosterEntry]:
    """Return the roster with everything eligibility reads (passports, waivers), in three queries."""
    return list(
        RosterEntry.objects.filter(entry=entry)
        .select_related("person")
        .prefetch_related(
            "person__passports",
            Prefetch("person__eligibility_waivers", queryset=EligibilityWaiver.objects.select_related("approved_by")),
        )
        .order_by("position", *NUMBER_ORDER)
    )


@dataclass(frozen=True)
class AssumedChampionship:
    """A championship nobody entered the person in: 1-10 July of a year, entered by the person's federation."""

    start_date: datetime.date
    end_date: datetime.date
    team_country: str
    results: dict[Category, EligibilityResult]


@dataclass(frozen=True)
class PersonEligibility:
    """A person's eligibility: first in each championship a roster names them in, then an assumed one if any."""

    entered: list[tuple[RosterEntry, EligibilityResult]]
    assumed: AssumedChampionship | None


def person_eligibility(
    person: Person,
    *,
    year: int | None = None,
    start_date: datetime.date | None = None,
    end_date: datetime.date | None = None,
    team_country: str | None = None,
) -> PersonEligibility:
    """Return the person's eligibility (1.1 B-G, R-01..R-03) where it matters.

    ``entered``: every championship whose roster names the person (withdrawn
    entries aside), latest first, checked as the roster checks it (the
    championship's category, dates, team country, ruleset and waivers).
    ``assumed``: every category for an assumed championship, only when the
    person is entered nowhere or a year, dates or team country ask for one
    (defaults: 1-10 July of this year, entered by the person's federation).
    Reads ``person.passports`` and ``person.eligibility_waivers``: prefetch them.
    """
    lines = list(
        RosterEntry.objects.filter(person=person)
        .exclude(entry__status=EntryStatus.WITHDRAWN)
        .select_related("entry__championship", "entry__federation")
        .order_by("-entry__championship__start_date", "entry__championship__name", "pk")
    )
    entered = []
    for line in lines:
        line.person = person  # the caller's person, with its prefetched passports and waivers
        entered.append((line, roster_eligibility(line.entry, [line])[line.pk]))
    asked = year is not None or start_date is not None or team_country is not None
    if entered and not asked:
        return PersonEligibility(entered=entered, assumed=None)
    if start_date is None or end_date is None:
        start_date, end_date = default_championship_dates(year or timezone.now().year)
    country = team_country or person.federation.country.code or person.nationality.code
    results = person_eligibility_by_category(person, start_date=start_date, end_date=end_date, team_country=country)
    return PersonEligibility(entered=entered, assumed=AssumedChampionship(start_date, end_date, str(country), results))


def roster_eligibility_problems(entries: Sequence[TeamEntry]) -> list[tuple[RosterEntry, EligibilityResult]]:
    """The roster lines of ``entries`` not eligible for their own championship (1.1 B-G, R-01..R-03, waivers
    applied), each checked as its roster checks it (``roster_eligibility``), in entry then roster order; three
    queries whatever the number of entries. Reads ``entry.championship`` and ``entry.federation``: join them."""
    by_entry = {entry.pk: entry for entry in entries}
    if not by_entry:
        return []
    lines = (
        RosterEntry.objects.filter(entry_id__in=by_entry)
        .select_related("person")
        .prefetch_related(
            "person__passports",
            Prefetch("person__eligibility_waivers", queryset=EligibilityWaiver.objects.select_related("approved_by")),
        )
        .order_by("entry_id", "position", *NUMBER_ORDER)
    )
    rosters: dict[int, list[RosterEntry]] = {}
    for line in lines:
        rosters.setdefault(line.entry_id, []).append(line)
    problems = []
    for entry_id, roster in rosters.items():
        entry = by_entry[entry_id]
        results = roster_eligibility(entry, roster)
        for line in roster:
            line.entry = entry
            if not results[line.pk].eligible:
                problems.append((line, results[line.pk]))
    return problems


def roster_with_eligibility(entry: TeamEntry) -> list[tuple[RosterEntry, EligibilityResult]]:
    """Return each roster line with its eligibility (1.1 B-G, R-01..R-03), waivers applied."""
    roster = roster_for_entry(entry)
    results = roster_eligibility(entry, roster)
    return [(line, results[line.pk]) for line in roster]


def games_of_entry(entry: TeamEntry) -> QuerySet[Game]:
    """Return the games the entry plays, in the order of the schedule (its team page, its managers' line-ups)."""
    return games_shown().filter(Q(home=entry) | Q(away=entry)).order_by("start_at", "number")


def games_shown() -> QuerySet[Game]:
    """Return games with what the schedule, results and the API show of them (teams, rink, phase, venue) joined."""
    return Game.objects.select_related("championship__venue", "home", "away", "rink", "pool", "phase", "forfeited_by")


# --- standings ---------------------------------------------------------------------------------------------------

_GAME_FIELDS = (
    "id",
    "pool_id",
    "home__name",
    "away__name",
    "home_goals",
    "away_goals",
    "decided_in",
    "forfeited_by__name",
    "shootout_home_goals",
    "shootout_away_goals",
    "phase__kind",
)


def game_result(row: dict) -> GameResult:
    """Build the standings' view of a final game from a ``values(*_GAME_FIELDS)`` row."""
    shootout_winner = None
    if row["decided_in"] == DecidedIn.SHOOTOUT and row["home_goals"] == row["away_goals"]:
        home_won = (row["shootout_home_goals"] or 0) > (row["shootout_away_goals"] or 0)
        shootout_winner = row["home__name"] if home_won else row["away__name"]
    return GameResult(
        game_id=row["id"],
        home=row["home__name"],
        away=row["away__name"],
        home_goals=row["home_goals"],
        away_goals=row["away_goals"],
        decided_in=row["decided_in"] or DecidedIn.REGULATION,
        forfeited_by=row["forfeited_by__name"],
        round_robin=row["phase__kind"] == PhaseKind.ROUND_ROBIN,
        shootout_winner=shootout_winner,
    )


@dataclass(frozen=True)
class PoolStandings:
    """A pool's table and the entries its rows name (``StandingRow.team`` is the entry's name)."""

    pool: Pool
    standings: Standings
    entries: dict[str, TeamEntry]
    # Every game of the pool is played (it has games and none is still scheduled): the table is final.
    finished: bool = False

    def rows_with_entries(self):
        return [(row, self.entries[row.team]) for row in self.standings.rows]


def _pool_standings(pools: Iterable[Pool], championship: Championship) -> dict[int, PoolStandings]:
    pools = list(pools)
    rules = championship_standings_rules(championship)
    pool_ids = [p.pk for p in pools]
    members: dict[int, list[TeamEntry]] = {pk: [] for pk in pool_ids}
    for member in PoolTeam.objects.filter(pool_id__in=pool_ids).select_related("entry").order_by("seed", "entry__name"):
        members[member.pool_id].append(member.entry)
    results: dict[int, list[GameResult]] = {pk: [] for pk in pool_ids}
    to_play: dict[int, int] = dict.fromkeys(pool_ids, 0)
    for row in Game.objects.filter(pool_id__in=pool_ids).values(*_GAME_FIELDS, "status"):
        if row["status"] == GameStatus.FINAL:
            results[row["pool_id"]].append(game_result(row))
        else:
            to_play[row["pool_id"]] += 1
    shootouts: dict[int, dict[int, list[tuple[int, str]]]] = {pk: {} for pk in pool_ids}
    for pool_id, shootout_id, name, place in StandingsShootoutPlace.objects.filter(
        shootout__pool_id__in=pool_ids
    ).values_list("shootout__pool_id", "shootout_id", "entry__name", "place"):
        shootouts[pool_id].setdefault(shootout_id, []).append((place, name))
    tables = {}
    for pool in pools:
        entries = members[pool.pk]
        shootout_results = {
            frozenset(name for _, name in places): [name for _, name in sorted(places)]
            for places in shootouts[pool.pk].values()
        }
        standings = compute_standings(
            [e.name for e in entries],
            results[pool.pk],
            rules=rules,
            shootout_results=shootout_results,
            disqualified=[e.name for e in entries if e.status == EntryStatus.DISQUALIFIED],
        )
        tables[pool.pk] = PoolStandings(
            pool=pool,
            standings=standings,
            entries={e.name: e for e in entries},
            finished=bool(results[pool.pk]) and not to_play[pool.pk],
        )
    return tables


def pool_standings(pool: Pool) -> PoolStandings:
    """Return the pool's table with its entries, in a fixed number of queries (9.3, 8.1 D)."""
    return _pool_standings([pool], pool.championship)[pool.pk]


def standings_for_pool(pool: Pool) -> Standings:
    """Return the pool's table (9.3; R-41..R-43): rows name teams by entry name.

    A disqualified team's games leave everyone's table and its row is kept,
    marked, at the bottom (8.1 D). Shoot-outs staff entered break the ties
    that need them (9.3 G).
    """
    return pool_standings(pool).standings


def championship_standings(championship: Championship) -> list[PoolStandings]:
    """Return every pool's table of the championship, in a fixed number of queries."""
    pools = list(Pool.objects.filter(championship=championship).order_by("name"))
    tables = _pool_standings(pools, championship)
    return [tables[p.pk] for p in pools]


# --- elimination -------------------------------------------------------------------------------------------------


def _placement_kind(first_round_games: int, games: int) -> str:
    """Which placement games the bracket was made with (see ``scheduling.elimination_bracket``)."""
    teams = 2 * first_round_games
    if games <= teams - 1:
        return scheduling.NONE
    if games == teams:
        return scheduling.BRONZE
    return scheduling.ALL


def bracket_for(championship: Championship) -> scheduling.Bracket | None:
    """Return the elimination bracket with the teams the standings and results decide so far (1.3 B).

    Seeds come from the pool tables, never guessed while a shoot-out is
    pending (9.3 G) and never a disqualified team (8.1 C); winners of final
    games move on, losers play for the places. A pairing that shows a team of
    a pool still playing is provisional. None before the bracket exists.
    """
    rows = list(
        Game.objects.filter(championship=championship)
        .exclude(bracket_slot="")
        .order_by("number")
        .values(*_GAME_FIELDS, "bracket_slot", "home_source", "away_source", "status")
    )
    if not rows:
        return None
    first_round = [
        (row["home_source"], row["away_source"])
        for row in rows
        if not row["home_source"].startswith(("W ", "L ")) and not row["away_source"].startswith(("W ", "L "))
    ]
    tables = championship_standings(championship)
    standings = {table.pool.name: table.standings for table in tables}
    seeds = scheduling.seeds_from_standings(standings)
    provisional = scheduling.provisional_seeds(standings, {table.pool.name for table in tables if table.finished})
    winners = {
        row["bracket_slot"]: game_result(row).winner
        for row in rows
        if row["status"] == GameStatus.FINAL and row["home__name"] and row["away__name"]
    }
    return scheduling.elimination_bracket(
        first_round,
        seeds=seeds,
        winners={code: team for code, team in winners.items() if team is not None},
        placement=_placement_kind(len(first_round), len(rows)),
        provisional=provisional,
    )


# --- statistics --------------------------------------------------------------------------------------------------


# The statistics core's summaries, field -> column of the record's ``values()`` row.
_GOAL_COLUMNS = {
    "game_id": "game_id",
    "team": "entry__name",
    "scorer": "scorer_id",
    "assist": "assist_id",
    "own_goal": "own_goal",
    "empty_net": "empty_net",
    "power_play": "power_play",
    "shorthanded": "shorthanded",
    "penalty_shot": "penalty_shot",
}
_PENALTY_COLUMNS = {
    "game_id": "game_id",
    "team": "entry__name",
    "person": "person_id",
    "minutes": "minutes",
    "infraction": "infraction_code",
    "gives_power_play": "gives_power_play",
}
_GOALKEEPER_COLUMNS = {
    "game_id": "game_id",
    "team": "entry__name",
    "goalkeeper": "goalkeeper_id",
    "shots_against": "shots_against",
    "saves": "saves",
    "goals_against": "goals_against",
    "seconds_played": "seconds_played",
}


def _summaries(summary, columns: dict[str, str], rows: Iterable[dict]) -> list:
    """Build the core's ``summary`` dataclass from each ``values()`` row, ``columns`` naming where each field is."""
    return [summary(**{field: row[column] for field, column in columns.items()}) for row in rows]


@dataclass(frozen=True)
class ChampionshipStatistics:
    """The official tables (4.3, 4.6 note, 8.1 B-D): people by id, teams by entry name."""

    players: tuple[statistics.PlayerStatistics, ...]
    goalkeepers: tuple[statistics.GoalkeeperStatistics, ...]
    teams: tuple[statistics.TeamSpecialTeams, ...]
    people: dict[int, Person]
    entries: dict[str, TeamEntry]
    # Team games counted from the roster: the team gave no line-up (``game_appearances``).
    roster_games: int = 0


def game_appearances(
    games: Iterable[GameResult], listed: dict[tuple[int, str], list[int]], rostered: dict[str, list[int]]
) -> tuple[list[statistics.Appearance], int]:
    """Return who played each game (5.1 A: the players on its line-up) and how many team games had none.

    A team that gave no line-up for a game (a result entered by staff without the live module) counts the game
    for every player of its roster, as before line-ups existed: the second value counts those team games, which
    the leaders page names.
    """
    appearances, from_roster = [], 0
    for game in games:
        for team in (game.home, game.away):
            people = listed.get((game.game_id, team))
            if people is None:
                from_roster += 1
                people = rostered.get(team, [])
            appearances += [statistics.Appearance(game_id=game.game_id, team=team, person=p) for p in people]
    return appearances, from_roster


def championship_statistics(championship: Championship) -> ChampionshipStatistics:
    """Return player, goalkeeper and special-teams statistics of the championship in eight queries.

    Forfeits count 1-0 with the goal to the winner's captain and no goalkeeper
    line (8.1 B); a disqualified team's games leave every table (8.1 D). A
    player's games are the final games whose line-up lists him (5.1 A); where a
    team gave no line-up, the games of his team while he is on its roster
    (``game_appearances``).
    """
    entries = {e.name: e for e in TeamEntry.objects.filter(championship=championship)}
    disqualified = [name for name, e in entries.items() if e.status == EntryStatus.DISQUALIFIED]
    final_games = Game.objects.filter(championship=championship, status=GameStatus.FINAL)
    game_rows = list(final_games.values(*_GAME_FIELDS))
    games = [game_result(row) for row in game_rows]
    roster = list(
        RosterEntry.objects.filter(entry__championship=championship).values_list("entry__name", "person_id", "captain")
    )
    captains = {team: person for team, person, captain in roster if captain}
    players_by_team: dict[str, list[int]] = {}
    for team, person, _ in roster:
        players_by_team.setdefault(team, []).append(person)
    # The line-ups of the final games (games.Lineup, the games app's, read through the game): a line-up with no
    # player still says who played (no one).
    listed: dict[tuple[int, str], list[int]] = {}
    for game_id, team, person in final_games.filter(lineups__isnull=False).values_list(
        "pk", "lineups__entry__name", "lineups__players__person_id"
    ):
        people = listed.setdefault((game_id, team), [])
        if person is not None:
            people.append(person)
    appearances, roster_games = game_appearances(games, listed, players_by_team)
    final = {"game__championship": championship, "game__status": GameStatus.FINAL}
    goal_rows = list(GoalRecord.objects.filter(**final).values(*_GOAL_COLUMNS.values(), "forfeit_award"))
    # 8.1 B: the forfeit goal names the captain at the time of the forfeit; it wins over today's roster.
    captains.update({g["entry__name"]: g["scorer_id"] for g in goal_rows if g["forfeit_award"]})
    goals = _summaries(statistics.GoalSummary, _GOAL_COLUMNS, [g for g in goal_rows if not g["forfeit_award"]])
    penalties = _summaries(
        statistics.PenaltySummary,
        _PENALTY_COLUMNS,
        PenaltyRecord.objects.filter(**final).values(*_PENALTY_COLUMNS.values()),
    )
    keepers = _summaries(
        statistics.GoalkeeperGame,
        _GOALKEEPER_COLUMNS,
        GoalkeeperRecord.objects.filter(**final).values(*_GOALKEEPER_COLUMNS.values()),
    )
    players = statistics.player_statistics(
        games=games,
        appearances=appearances,
        goals=goals,
        penalties=penalties,
        captains=captains,
        disqualified=disqualified,
    )
    goalkeepers = statistics.goalkeeper_statistics(games=games, goalkeepers=keepers, disqualified=disqualified)
    teams = statistics.team_special_teams(games=games, goals=goals, penalties=penalties, disqualified=disqualified)
    people = Person.objects.in_bulk({p.person for p in players} | {k.goalkeeper for k in goalkeepers})
    return ChampionshipStatistics(
        players=players,
        goalkeepers=goalkeepers,
        teams=teams,
        people=people,
        entries=entries,
        roster_games=roster_games,
    )


# How many players each leaders table shows (the leaders page and the statistics document).
LEADERS = 20


def _percentage(value: float | None) -> float:
    return -1.0 if value is None else value


def leader_tables(stats: ChampionshipStatistics, limit: int = LEADERS) -> dict[str, list]:
    """Return the leaders' tables of ``stats`` as the leaders page and the statistics document show them.

    ``points``, ``goals``, ``assists``, ``penalty_minutes``: the first ``limit`` players with a figure, as
    (``PlayerStatistics``, ``Person``) pairs (the core orders players by points); ``goalkeepers``: every
    goalkeeper with his ``Person`` (ordered by save percentage); ``teams``: special teams, best power play first.
    """
    people = stats.people

    def top(key, keep) -> list:
        return [(p, people.get(p.person)) for p in sorted(stats.players, key=key) if keep(p)][:limit]

    return {
        "points": [(p, people.get(p.person)) for p in stats.players if p.points][:limit],
        "goals": top(lambda p: (-p.goals, p.games, p.person), lambda p: p.goals),
        "assists": top(lambda p: (-p.assists, p.games, p.person), lambda p: p.assists),
        "penalty_minutes": top(lambda p: (-p.penalty_minutes, p.person), lambda p: p.penalty_minutes),
        "goalkeepers": [(g, people.get(g.goalkeeper)) for g in stats.goalkeepers],
        "teams": sorted(stats.teams, key=lambda t: (-_percentage(t.power_play_percentage), t.team)),
    }


def roster_is_confirmed(entry: TeamEntry) -> bool:
    """Return True when the entry has a roster and every line of it is confirmed (registered)."""
    lines, unconfirmed = _roster_counts([entry.pk]).get(entry.pk, (0, 0))
    return RosterStatus(lines=lines, unconfirmed=unconfirmed, frozen=False).confirmed


def _roster_counts(entry_ids: list[int]) -> dict[int, tuple[int, int]]:
    """Each entry's (lines, lines not confirmed), in one query."""
    return {
        row["entry_id"]: (row["lines"], row["unconfirmed"])
        for row in RosterEntry.objects.filter(entry__in=entry_ids)
        .values("entry_id")
        .annotate(lines=Count("pk"), unconfirmed=Count("pk", filter=Q(confirmed=False)))
    }


@dataclass(frozen=True)
class RosterStatus:
    """A roster at a glance: its lines, how many are not confirmed yet, whether it is frozen (3.1.1 B, R-05)."""

    lines: int
    unconfirmed: int
    frozen: bool

    @property
    def confirmed(self) -> bool:
        """Every line is confirmed (registered), and there is at least one."""
        return self.lines > 0 and self.unconfirmed == 0


def roster_statuses(entries: Iterable[TeamEntry], *, now: datetime.datetime | None = None) -> dict[int, RosterStatus]:
    """Return each entry's ``RosterStatus`` by id in two queries whatever their number (reads
    ``entry.championship.venue``: select it)."""
    entries = list(entries)
    counts = _roster_counts([e.pk for e in entries])
    championships = list({e.championship_id: e.championship for e in entries}.values())
    begun = championships_begun(championships, now=now)
    return {
        e.pk: RosterStatus(
            lines=counts.get(e.pk, (0, 0))[0],
            unconfirmed=counts.get(e.pk, (0, 0))[1],
            frozen=e.championship_id in begun,
        )
        for e in entries
    }


def entries_managed_by(user) -> QuerySet[TeamEntry]:
    """Return the entries a user may manage: his teams as team manager, his federation's as its staff,
    every entry for international staff (see ``services.can_manage_entry``); none of a draft he may not see."""
    entries = TeamEntry.objects.select_related("championship", "federation")
    if not getattr(user, "is_authenticated", False):
        return entries.none()
    if is_international_staff(user):
        return entries
    mine = entries.filter(Q(managers=user) | Q(federation_id__in=staff_federation_ids(user)))
    return of_visible_championships(mine, user).distinct()


@dataclass(frozen=True)
class EntryManager:
    """A login that keeps a team entry, with the duty it was invited to (None when named otherwise)."""

    id: int
    name: str
    email: str
    duty: str | None


@dataclass(frozen=True)
class EntryStaff:
    """Who keeps a team entry (issue 25): its managers and officials with a login, and the invitations still
    waiting for their invitee."""

    managers: list[EntryManager]
    waiting: list[Invitation]


def entry_staff(entry: TeamEntry, *, now: datetime.datetime | None = None) -> EntryStaff:
    """The entry's managers and officials, and its waiting invitations, as the invitation page lists them."""
    duties = dict(
        Invitation.objects.filter(target_kind=TEAM_ENTRY_TARGET, target_id=entry.pk, accepted_by__isnull=False)
        .order_by("accepted_at")
        .values_list("accepted_by_id", "duty")
    )
    return EntryStaff(
        managers=[
            EntryManager(
                id=user.pk,
                name=user.get_full_name() or user.username,
                email=user.email,
                duty=duties.get(user.pk) or None,
            )
            for user in entry.managers.order_by("last_name", "username")
        ],  # fmt: skip
        waiting=list(pending_for_target(TEAM_ENTRY_TARGET, entry.pk, now=now)),
    )
