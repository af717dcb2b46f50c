"""Game scripts: a whole game as JSON (teams, events, expectations), and their checking.

The format is documented in docs/game-scripts.md.
"""

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from common.text import _

from .errors import EngineError, ScriptError
from .events import Event, parse_log, parse_time
from .replay import replay, state_at
from .ruleset import DEFAULT_RULESET, ROUND_ROBIN, Ruleset
from .state import Game, StateDict, TeamRoster

# Keys of the state an expectation may check (GameState.to_dict()).
CHECKABLE = frozenset(
    {
        "status",
        "period",
        "elapsed",
        "countdown",
        "running",
        "two_minute_mark",
        "score",
        "strength",
        "power_play",
        "box",
        "timeouts_used",
        "teams",
        "players",
        "penalties",
        "goals",
        "notices",
        "shootout",
        "result",
        "protests",
    }
)
TIME_KEYS = frozenset({"time", "elapsed", "remaining", "start", "countdown"})
# Lists checked by inclusion (each expected item is there); every other list must match item for item.
INCLUSIVE_LISTS = frozenset({"notices"})
_SCRIPT_KEYS = frozenset({"title", "rule", "description", "game_type", "ruleset", "teams", "events", "expect"})
_SCRIPT_KEYS |= {"expect_error"}
_EXPECT_ERROR_KEYS = frozenset({"rule", "event", "field"})


@dataclass(slots=True)
class Expectation:
    at: tuple[int, int] | None  # (period, tenths); None: the end of the log
    checks: dict[str, object]  # state key -> the JSON value expected there
    label: str


@dataclass(slots=True)
class Script:
    title: str
    rule: str
    description: str
    game: Game | None  # None: the teams were refused (``refusal``)
    ruleset: Ruleset
    events: list[Event]
    expectations: list[Expectation] = field(default_factory=list)
    expect_error: Mapping[str, object] | None = None  # {"rule": ..., "event": ...}
    refusal: EngineError | None = None  # raised while the teams or the log were read, kept for expect_error


@dataclass(slots=True)
class Outcome:
    """What running a script gave: the final state (JSON-ready) or the error, and every mismatch."""

    state: StateDict | None
    error: EngineError | None
    mismatches: list[str]

    @property
    def ok(self) -> bool:
        return not self.mismatches


def _roster(side: str, data: object) -> TeamRoster:
    if not isinstance(data, dict):
        raise ScriptError(_("R-07: teams.%(side)s is a mapping with players and goalkeepers", side=side), field="teams")
    unknown = set(data) - {"name", "players", "goalkeepers", "captain", "staff"}
    if unknown:
        raise ScriptError(
            _("R-07: teams.%(side)s has no field(s) %(fields)s", side=side, fields=", ".join(sorted(unknown))),
            field="teams",
        )
    numbers: dict[str, frozenset[int]] = {}
    for key in ("players", "goalkeepers"):
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(n, int) and not isinstance(n, bool) for n in value):
            raise ScriptError(
                _("R-06: teams.%(side)s.%(key)s is a list of jersey numbers", side=side, key=key), field="teams"
            )
        if len(set(value)) != len(value):
            raise ScriptError(
                _("Rule 3.2.9 D / R-06: teams.%(side)s.%(key)s repeats a number", side=side, key=key), field="teams"
            )
        numbers[key] = frozenset(value)
    staff = data.get("staff", [])
    if not isinstance(staff, list) or not all(isinstance(n, str) and n for n in staff) or len(set(staff)) != len(staff):
        raise ScriptError(
            _("R-07: teams.%(side)s.staff is a list of the bench staff's names, once each", side=side), field="teams"
        )
    return TeamRoster(
        staff=frozenset(staff),
        name=str(data.get("name", side)),
        skaters=numbers["players"],
        goalkeepers=numbers["goalkeepers"],
        captain=data.get("captain"),
    )


def _moment(value: object, label: str) -> tuple[int, int] | None:
    if value == "end":
        return None
    if not isinstance(value, dict) or set(value) != {"period", "time"}:
        raise ScriptError(
            _('%(label)s: \'at\' is "end" or {"period": n, "time": "mm:ss"}', label=label), field="expect"
        )
    return (value["period"], parse_time(value["time"], field="at.time"))


def parse_script(data: object) -> Script:
    """Return the Script of a parsed JSON document, refusing unknown keys.

    A refusal raised while the teams, the ruleset or the log are read (a short mapping, a goal with two
    assists, 5.5.11 C) is raised, unless the script expects an error (``expect_error``): then it is kept
    as the script's ``refusal``, and ``run_script`` checks it as it checks a refusal of the replay.
    """
    if not isinstance(data, dict):
        raise ScriptError(_("a game script is a JSON object"), field="script")
    unknown = set(data) - _SCRIPT_KEYS
    if unknown:
        raise ScriptError(_("unknown script key(s) %(keys)s", keys=", ".join(sorted(unknown))), field="script")
    expectations = _expectations(data.get("expect", []))
    expect_error = data.get("expect_error")
    if expect_error is not None and (not isinstance(expect_error, dict) or "rule" not in expect_error):
        raise ScriptError(_('expect_error is {"rule": "...", "event": "id", "field": "name"}'), field="expect_error")
    if expect_error is not None and set(expect_error) - _EXPECT_ERROR_KEYS:
        extra = ", ".join(sorted(set(expect_error) - _EXPECT_ERROR_KEYS))
        raise ScriptError(
            _("expect_error has no key(s) %(keys)s; it has rule, event and field", keys=extra), field="expect_error"
        )
    script = Script(
        title=str(data.get("title", "")),
        rule=str(data.get("rule", "")),
        description=str(data.get("description", "")),
        game=None,
        ruleset=DEFAULT_RULESET,
        events=[],
        expectations=expectations,
        expect_error=expect_error,
    )
    try:
        teams = data.get("teams")
        if not isinstance(teams, dict) or set(teams) != {"home", "away"}:
            raise ScriptError(_("R-07: teams has exactly 'home' and 'away'"), field="teams")
        script.game = Game(
            home=_roster("home", teams["home"]),
            away=_roster("away", teams["away"]),
            game_type=data.get("game_type", ROUND_ROBIN),
        )
        script.ruleset = Ruleset.from_dict(data.get("ruleset"))
        script.events = parse_log(data.get("events", []))
    except EngineError as exc:
        if expect_error is None:
            raise
        script.refusal = exc
    return script


def _expectations(entries: object) -> list[Expectation]:
    if not isinstance(entries, list):
        raise ScriptError(_("expect is a list of expectations"), field="expect")
    expectations = []
    for index, entry in enumerate(entries):
        label = f"expect[{index}]"
        if not isinstance(entry, dict) or "at" not in entry:
            raise ScriptError(
                _("%(label)s: an expectation has 'at' and the values to check", label=label), field="expect"
            )
        checks = {k: v for k, v in entry.items() if k not in ("at", "note")}
        unknown = set(checks) - CHECKABLE
        if unknown:
            raise ScriptError(
                _("%(label)s: cannot check %(keys)s", label=label, keys=", ".join(sorted(unknown))), field="expect"
            )
        at = _moment(entry["at"], label)
        if at is not None:
            label += f" at P{at[0]} {entry['at']['time']}"
        else:
            label += " at end"
        expectations.append(Expectation(at=at, checks=checks, label=label))
    return expectations


def load_script(path: str | Path) -> Script:
    """Read and parse a game script file."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ScriptError(
            _("%(path)s: not valid JSON: %(error)s", path=str(path), error=str(exc)), field="script"
        ) from exc
    return parse_script(data)


def compare(expected: object, actual: object, path: str) -> list[str]:
    """Return the mismatches of an expected value against the actual one; mappings are checked key by key."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected {json.dumps(expected)}, got {json.dumps(actual)}"]
        out = []
        for key, value in expected.items():
            key = str(key)
            if key not in actual:
                out.append(f"{path}.{key}: no such value in the state")
            else:
                out.extend(compare(value, actual[key], f"{path}.{key}"))
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return [f"{path}: expected a list, got {json.dumps(actual)}"]
        inclusive = path.rsplit(".", 1)[-1] in INCLUSIVE_LISTS
        return _compare_items(expected, actual, path, inclusive)
    key = path.rsplit(".", 1)[-1]
    if key in TIME_KEYS and isinstance(expected, (str, int)) and isinstance(actual, str) and expected is not True:
        try:
            if parse_time(expected) == parse_time(actual):
                return []
        except EngineError:
            pass
    elif expected == actual and type(expected) is type(actual):
        return []
    return [f"{path}: expected {json.dumps(expected)}, got {json.dumps(actual)}"]


def _compare_items(expected: list[object], actual: list[object], path: str, inclusive: bool) -> list[str]:
    out = []
    if not inclusive and len(expected) != len(actual):
        out.append(f"{path}: expected {len(expected)} item(s), got {len(actual)}: {json.dumps(actual)}")
        return out
    free = list(range(len(actual)))
    for index, item in enumerate(expected):
        match = next((i for i in free if not compare(item, actual[i], path)), None)
        if match is None:
            out.append(f"{path}[{index}]: no item matches {json.dumps(item)} in {json.dumps(actual)}")
        else:
            free.remove(match)
    return out


def run_script(script: Script) -> Outcome:
    """Replay a script, check its expectations and return the outcome."""
    mismatches: list[str] = []
    final: StateDict | None = None
    error = script.refusal
    game = script.game
    if error is None and game is not None:
        try:
            final = replay(script.events, game, script.ruleset).to_dict()
        except EngineError as exc:
            error = exc
    wanted = script.expect_error
    if wanted is not None:
        mismatches.extend(_check_error(wanted, error))
    elif error is not None:
        mismatches.append(f"replay refused the log: {error}")
    for expectation in script.expectations:
        if game is None:
            mismatches.append(f"{expectation.label}: no state (the teams or the log were refused)")
            continue
        try:
            if expectation.at is None:
                if final is None:
                    mismatches.append(f"{expectation.label}: no final state (the log was refused)")
                    continue
                state = final
            else:
                period, time = expectation.at
                state = state_at(script.events, game, period, time, script.ruleset).to_dict()
        except EngineError as exc:
            mismatches.append(f"{expectation.label}: replay refused the log: {exc}")
            continue
        values: Mapping[str, object] = state  # read by the expectation's keys (CHECKABLE)
        for key, value in expectation.checks.items():
            mismatches.extend(f"{expectation.label}: {m}" for m in compare(value, values[key], key))
    return Outcome(state=final, error=error, mismatches=mismatches)


def _check_error(wanted: Mapping[str, object], error: EngineError | None) -> list[str]:
    """Return the mismatches of the refusal a script expects: its rule cited, its event and field named."""
    if error is None:
        return [f"expect_error: the log replayed without the error {wanted['rule']!r}"]
    out = []
    if str(wanted["rule"]) not in error.message:
        out.append(f"expect_error: expected an error citing {wanted['rule']!r}, got {error}")
    if wanted.get("event") is not None and str(wanted["event"]) != error.event_id:
        out.append(f"expect_error: expected the error on event {wanted['event']}, got {error}")
    if wanted.get("field") is not None and str(wanted["field"]) != error.field:
        out.append(f"expect_error: expected the error about field {wanted['field']}, got {error.field}: {error}")
    return out


def run_file(path: str | Path) -> Outcome:
    """Load and run one script file."""
    return run_script(load_script(path))
