"""Team rosters and game line-ups: sizes, numbers, captains, the freeze.

Pure Python (no Django): rulebook 3.1.1, 3.1.2, 3.2.9, 5.1, 5.4 F and the
decisions R-04 to R-07. Each check returns the problems it finds (all of them,
not only the first), each naming the field and the article, so a form or the
API can show them beside the input.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass

from common.text import Text, _

PLAYER = "player"
GOALKEEPER = "goalkeeper"
POSITIONS = (PLAYER, GOALKEEPER)

ADD = "add"
SUBSTITUTE = "substitute"
REMOVE = "remove"
NUMBER_CHANGE = "number_change"
CHANGE_KINDS = (ADD, SUBSTITUTE, REMOVE, NUMBER_CHANGE)

_NUMBER = re.compile(r"[1-9][0-9]?")


@dataclass(frozen=True)
class RosterLine:
    person_id: Hashable
    number: str  # as typed, so that "07" can be refused
    position: str = PLAYER
    captain: bool = False
    alternate: bool = False
    # How a message names this line when another line clashes with it ("row 2" of a file, a player's name);
    # empty: "line n", its place in the list.
    label: str = ""


def _line_name(lines: Sequence[RosterLine], index: int) -> str:
    return lines[index].label or _("line %(number)s", number=index + 1)


@dataclass(frozen=True)
class RosterProblem:
    field: str
    article: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class RosterLimits:
    """Roster and line-up sizes; the defaults are R-04, R-06 and R-07."""

    min_skaters: int = 6  # 3.1.1 A
    max_skaters: int = 14  # 3.1.1 A
    min_goalkeepers: int = 2  # 3.1.1 A, R-04 (the article, not the Terminology page)
    max_goalkeepers: int = 2  # 3.1.1 A
    max_alternates: int = 3  # 3.1.2 B, 3.2.9 E
    max_lineup_skaters: int = 14
    max_lineup_goalkeepers: int = 2
    max_bench_officials: int = 5  # 5.4 F


DEFAULT = RosterLimits()


def _problem(field: str, article: str, message: Text, line: int | None = None) -> RosterProblem:
    return RosterProblem(
        field=field,
        article=article,
        message=_("Rule %(article)s: %(problem)s", article=article, problem=message),
        line=line,
    )


def check_jersey_number(number: str) -> RosterProblem | None:
    """Return the problem with a jersey number as typed, or None (3.2.9 C, R-06)."""
    text = "" if number is None else str(number)
    if _NUMBER.fullmatch(text):
        return None
    if re.fullmatch(r"0[0-9]+", text):
        return _problem(
            "number",
            "3.2.9 C",
            _(
                'numbers are 1-99 without a leading zero ("%(number)s", not "%(typed)s")',
                number=text.lstrip("0") or "0",
                typed=text,
            ),
        )
    return _problem("number", "3.2.9 C", _('numbers are 1-99 without a leading zero, not "%(typed)s"', typed=text))


def _line_problems(lines: Sequence[RosterLine]) -> list[RosterProblem]:
    """Numbers, positions and the captain's marks of each line, and duplicates across lines."""
    problems: list[RosterProblem] = []
    numbers: dict[str, int] = {}
    people: dict[Hashable, int] = {}
    for i, line in enumerate(lines):
        if line.position not in POSITIONS:
            problems.append(
                _problem(
                    "position",
                    "3.1.1 A",
                    _("a position is player or goalkeeper, not %(position)s", position=repr(line.position)),
                    i,
                )
            )
        bad_number = check_jersey_number(line.number)
        if bad_number is not None:
            problems.append(RosterProblem(bad_number.field, bad_number.article, bad_number.message, i))
        elif line.number in numbers:
            problems.append(
                _problem(
                    "number",
                    "3.2.9 D",
                    _(
                        "number %(number)s is already worn by %(line)s",
                        number=line.number,
                        line=_line_name(lines, numbers[line.number]),
                    ),
                    i,
                )
            )
        else:
            numbers[line.number] = i
        if line.person_id in people:
            problems.append(
                _problem(
                    "person_id",
                    "3.1.1 A",
                    _("this person is already on %(line)s", line=_line_name(lines, people[line.person_id])),
                    i,
                )
            )
        else:
            people[line.person_id] = i
        if line.captain and line.alternate:
            problems.append(
                _problem("alternate", "3.2.9 E", _("a player is either the captain or an alternate, not both"), i)
            )
        if line.position == GOALKEEPER and (line.captain or line.alternate):
            field = "captain" if line.captain else "alternate"
            problems.append(
                _problem(field, "3.1.2 C", _("a goalkeeper can be neither captain nor alternate captain"), i)
            )
    return problems


def _count_problems(
    lines: Sequence[RosterLine],
    *,
    min_skaters: int,
    max_skaters: int,
    min_gk: int,
    max_gk: int,
    article: str,
    decision: str,
) -> list[RosterProblem]:
    skaters = sum(1 for line in lines if line.position == PLAYER)
    goalkeepers = sum(1 for line in lines if line.position == GOALKEEPER)
    problems = []
    if skaters < min_skaters:
        problems.append(
            _problem(
                "lines",
                article,
                _(
                    "at least %(minimum)s floor players are needed, not %(count)s (%(decision)s)",
                    minimum=min_skaters,
                    count=skaters,
                    decision=decision,
                ),
            )
        )
    if skaters > max_skaters:
        problems.append(
            _problem(
                "lines",
                article,
                _(
                    "at most %(maximum)s floor players are allowed, not %(count)s (%(decision)s)",
                    maximum=max_skaters,
                    count=skaters,
                    decision=decision,
                ),
            )
        )
    if goalkeepers < min_gk or goalkeepers > max_gk:
        if min_gk == max_gk:
            wanted = _("exactly %(count)s goalkeepers are needed", count=min_gk)
        elif min_gk == 0:
            wanted = _("at most %(count)s goalkeepers are needed", count=max_gk)
        else:
            wanted = _("%(minimum)s-%(maximum)s goalkeepers are needed", minimum=min_gk, maximum=max_gk)
        problems.append(
            _problem(
                "lines",
                article,
                _("%(wanted)s, not %(count)s (%(decision)s)", wanted=wanted, count=goalkeepers, decision=decision),
            )
        )
    return problems


def _names(lines: Sequence[RosterLine], indexes: Sequence[int]) -> str:
    """The lines named, as a message lists them: ``#7 DOE Jane, #9 ROE Ann``."""
    names = _line_name(lines, indexes[0])
    for i in indexes[1:]:
        names = _("%(names)s, %(name)s", names=names, name=_line_name(lines, i))
    return names


def _captain_problems(lines: Sequence[RosterLine], *, max_alternates: int, need_captain: bool) -> list[RosterProblem]:
    captains = [i for i, line in enumerate(lines) if line.captain]
    alternates = [i for i, line in enumerate(lines) if line.alternate]
    problems = []
    if len(captains) > 1:
        problems.append(
            _problem(
                "captain",
                "3.1.2 A",
                _(
                    "a team appoints exactly one captain; %(count)s are marked: %(names)s",
                    count=len(captains),
                    names=_names(lines, captains),
                ),
            )
        )
    elif need_captain and not captains:
        problems.append(_problem("captain", "3.1.2 A", _("a team appoints exactly one captain; none is marked")))
    if len(alternates) > max_alternates:
        problems.append(
            _problem(
                "alternate",
                "3.1.2 B",
                _(
                    "at most %(maximum)s alternate captains are allowed; %(count)s are marked: %(names)s",
                    maximum=max_alternates,
                    count=len(alternates),
                    names=_names(lines, alternates),
                ),
            )
        )
    return problems


def check_roster(
    lines: Sequence[RosterLine], *, limits: RosterLimits = DEFAULT, complete: bool = True
) -> tuple[RosterProblem, ...]:
    """Return the problems of a team's registered roster (3.1.1 A, 3.1.2, 3.2.9 C-E; R-04, R-06).

    With ``complete=False`` (a roster still being entered) only the maxima
    apply; the minimum sizes and the captain are required when it is submitted.
    """
    problems = _line_problems(lines)
    problems += _count_problems(
        lines,
        min_skaters=limits.min_skaters if complete else 0,
        max_skaters=limits.max_skaters,
        min_gk=limits.min_goalkeepers if complete else 0,
        max_gk=limits.max_goalkeepers,
        article="3.1.1 A",
        decision="R-04",
    )
    problems += _captain_problems(lines, max_alternates=limits.max_alternates, need_captain=complete)
    return tuple(problems)


def roster_capacity(limits: RosterLimits = DEFAULT) -> int:
    """Return the most lines a roster holds: floor players and goalkeepers together (3.1.1 A, R-04: 14 + 2)."""
    return limits.max_skaters + limits.max_goalkeepers


def roster_room(*, on_roster: int, limits: RosterLimits = DEFAULT) -> int:
    """Return how many more lines a roster of ``on_roster`` lines can take (R-04)."""
    return max(roster_capacity(limits) - on_roster, 0)


def check_roster_room(new_lines: int, *, on_roster: int, limits: RosterLimits = DEFAULT) -> RosterProblem | None:
    """Return the problem when ``new_lines`` more lines do not fit on a roster of ``on_roster`` lines, or None.

    A file of players (the roster import) is refused by this count before its
    rows are read one by one (3.1.1 A, R-04).
    """
    room = roster_room(on_roster=on_roster, limits=limits)
    if new_lines <= room:
        return None
    return _problem(
        "roster",
        "3.1.1 A",
        _(
            "a roster holds at most %(capacity)s players (%(skaters)s floor players and %(goalkeepers)s goalkeepers, "
            "R-04); it has %(count)s, so at most %(room)s can be added",
            capacity=roster_capacity(limits),
            skaters=limits.max_skaters,
            goalkeepers=limits.max_goalkeepers,
            count=on_roster,
            room=room,
        ),
    )


def check_roster_change(
    *,
    first_game_started: bool,
    kind: str,
    number_change_approved: bool = False,
    registered: bool = True,
) -> RosterProblem | None:
    """Return why a roster change is refused, or None (R-05).

    From the start of the championship's first game no player can be added or
    substituted (3.1.1 B), nor taken off: the roster is frozen (R-05), the
    games played and the line-ups given name its players. A number change
    after the preliminary registration needs the IHTC's written approval
    (3.2.9 D), before and during the championship alike.
    """
    if kind not in CHANGE_KINDS:
        raise ValueError(f"kind must be one of {', '.join(CHANGE_KINDS)}, not {kind!r}")
    if kind in (ADD, SUBSTITUTE) and first_game_started:
        return _problem(
            "person_id", "3.1.1 B", _("once the championship has begun, no player can be added or substituted (R-05)")
        )
    if kind == REMOVE and first_game_started:
        return _problem(
            "person_id",
            "3.1.1 B",
            _("once the championship has begun, the roster is frozen: no player can be taken off it (R-05)"),
        )
    if kind == NUMBER_CHANGE and registered and not number_change_approved:
        return _problem(
            "number",
            "3.2.9 D",
            _("a number cannot change after registration without the IHTC's written approval (R-05)"),
        )
    return None


def check_lineup(
    lines: Sequence[RosterLine],
    *,
    roster_person_ids: Collection[Hashable],
    suspensions: Mapping[Hashable, str] | None = None,
    bench_officials: Sequence[Hashable] = (),
    starting_person_ids: Collection[Hashable] = (),
    floor_players: int = 4,
    limits: RosterLimits = DEFAULT,
) -> tuple[RosterProblem, ...]:
    """Return the problems of a game line-up (R-07, 5.3 A).

    Everyone listed is on the registered roster (5.1 B) and not suspended
    (``suspensions``: person id -> the suspension, named in the problem); at
    most 14 floor players and 2 goalkeepers; captain and alternates marked
    (3.1.2, 4.3); at most 5 non-playing officials on the bench (5.4 F;
    ``bench_officials``: their person ids, checked for suspensions too); the
    starting line-up names at most ``floor_players`` floor players and one
    goalkeeper (5.3 A, B).
    """
    roster = set(roster_person_ids)
    suspended = suspensions or {}
    # A line off the roster has no registered number: its 5.1 B problem says it all.
    problems = [
        p for p in _line_problems(lines) if p.field != "number" or p.line is None or lines[p.line].person_id in roster
    ]
    for i, line in enumerate(lines):
        if line.person_id not in roster:
            problems.append(
                _problem("person_id", "5.1 B", _("only players on the registered team roster can play (R-07)"), i)
            )
        if line.person_id in suspended:
            problems.append(
                _problem(
                    "person_id",
                    "8.2 A",
                    _(
                        "a suspended player cannot be on the line-up: %(suspension)s (R-07, R-53)",
                        suspension=suspended[line.person_id],
                    ),
                    i,
                )
            )
    problems += _count_problems(
        lines,
        min_skaters=0,
        max_skaters=limits.max_lineup_skaters,
        min_gk=0,
        max_gk=limits.max_lineup_goalkeepers,
        article="5.1 A",
        decision="R-07",
    )
    problems += _captain_problems(lines, max_alternates=limits.max_alternates, need_captain=False)
    if lines and not any(line.captain or line.alternate for line in lines):
        problems.append(
            _problem("captain", "3.1.2 B", _("the line-up marks the captain or an alternate captain (4.3, R-07)"))
        )
    problems += _bench_problems(bench_officials, suspended, limits=limits)
    problems += _starting_problems(lines, set(starting_person_ids), floor_players=floor_players)
    return tuple(problems)


def _bench_problems(
    officials: Sequence[Hashable], suspended: Mapping[Hashable, str], *, limits: RosterLimits
) -> list[RosterProblem]:
    problems = []
    if len(officials) > limits.max_bench_officials:
        problems.append(
            _problem(
                "bench_officials",
                "5.4 F",
                _(
                    "at most %(maximum)s non-playing team officials on the bench, not %(count)s",
                    maximum=limits.max_bench_officials,
                    count=len(officials),
                ),
            )
        )
    seen: set[Hashable] = set()
    for i, person_id in enumerate(officials):
        if person_id in seen:
            problems.append(_problem("bench_officials", "5.4 F", _("this team official is already on the bench"), i))
        seen.add(person_id)
        if person_id in suspended:
            problems.append(
                _problem(
                    "bench_officials",
                    "8.2 A",
                    _(
                        "a suspended team official cannot sit on the bench: %(suspension)s (R-07, R-53)",
                        suspension=suspended[person_id],
                    ),
                    i,
                )
            )
    return problems


def _starting_problems(
    lines: Sequence[RosterLine], starting: set[Hashable], *, floor_players: int
) -> list[RosterProblem]:
    listed = {line.person_id for line in lines}
    skaters = [i for i, line in enumerate(lines) if line.person_id in starting and line.position == PLAYER]
    goalkeepers = [i for i, line in enumerate(lines) if line.person_id in starting and line.position == GOALKEEPER]
    problems = []
    if starting - listed:
        problems.append(_problem("starting", "5.3 A", _("the starting line-up is named from the line-up")))
    if len(skaters) > floor_players:
        problems.append(
            _problem(
                "starting",
                "5.3 A",
                _(
                    "the starting line-up has at most %(maximum)s floor players (5.3 B); %(count)s are marked: "
                    "%(names)s",
                    maximum=floor_players,
                    count=len(skaters),
                    names=_names(lines, skaters),
                ),
            )
        )
    if len(goalkeepers) > 1:
        problems.append(
            _problem(
                "starting",
                "5.3 A",
                _(
                    "the starting line-up has one goalkeeper (5.3 B); %(count)s are marked: %(names)s",
                    count=len(goalkeepers),
                    names=_names(lines, goalkeepers),
                ),
            )
        )
    return problems


def check_lineup_change(
    *, game_started: bool, replaces_injured_goalkeeper: bool = False, already_on_lineup: bool = False
) -> RosterProblem | None:
    """Return why a line-up change is refused, or None (5.1 C, R-07).

    After the game starts the list is closed; the one exception is a goalkeeper
    injured or ill, replaced by someone already on the list.
    """
    if not game_started:
        return None
    if replaces_injured_goalkeeper and already_on_lineup:
        return None
    if replaces_injured_goalkeeper:
        return _problem("person_id", "5.1 C", _("an injured goalkeeper is replaced by a player already on the line-up"))
    return _problem("lines", "5.1 C", _("the line-up cannot change after the game has started (R-07)"))
