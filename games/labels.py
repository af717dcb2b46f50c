"""What a person reads for the game's raw values (issue 25): one function per concept, used by every screen,
document and message (templates through ``games.templatetags.game_labels``).

- ``event_kind_label``: the name of a kind of sheet entry ("Clock started" for ``clock_start``);
- ``period_clock``: a period and its game time, ``P1 12:29`` (the time elapsed in the period, R-10);
- ``infraction_label``: the Annex C index line's name with its article, ``Holding (6.4.18)``;
- ``penalty_kind_label``: a penalty's kind ("Minor" for ``minor``);
- ``game_state_label``: the engine's game status ("In progress" for ``in_progress``);
- ``sheet_status_label``: the sheet's status (open, final);
- ``side_name``: the team of a side of the game (its name, not "home");
- ``event_details``: the rest of an entry as a phrase ("Team A, #64, Holding (6.4.18), Minor");
- ``goal_outcomes`` / ``penalty_outcomes``: what the penalty situations the rulebook leaves open made of a goal or
  a penalty (R-58, R-69, R-70), as codes, said by ``OUTCOMES`` (the game report and the live scoreboard).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from portal.i18n import say

from .engine import events as ev
from .engine import state as st
from .engine.errors import EventFormatError
from .engine.penalty_index import INFRACTIONS

EVENT_KINDS: Mapping[str, Any] = {
    ev.PERIOD_START: _("Period started"),
    ev.PERIOD_END: _("Period ended"),
    ev.CLOCK_START: _("Clock started"),
    ev.CLOCK_STOP: _("Clock stopped"),
    ev.GOAL: _("Goal"),
    ev.PENALTY: _("Penalty"),
    ev.PENALTY_SHOT_ATTEMPT: _("Penalty shot"),
    ev.TIMEOUT: _("Time-out"),
    ev.GOALKEEPER_PULLED: _("Goalkeeper pulled"),
    ev.GOALKEEPER_RETURNED: _("Goalkeeper returned"),
    ev.GOALKEEPER_REPLACED: _("Goalkeeper replaced"),
    ev.SHOT: _("Shot on goal"),
    ev.SERVE: _("Penalty served by"),
    ev.RETURN_FIRST: _("Player back from the box"),
    ev.SHOOTOUT_ATTEMPT: _("Shoot-out attempt"),
    ev.FORFEIT: _("Forfeit"),
    ev.PROTEST: _("On-rink protest"),
    ev.GAME_END: _("Game ended"),
    ev.CORRECTION: _("Correction"),
}

PENALTY_KINDS: Mapping[str, Any] = {
    "minor": _("Minor"),
    "bench_minor": _("Bench minor"),
    "double_minor": _("Double minor"),
    "major": _("Major"),
    "match": _("Match"),
    "misconduct": _("Misconduct"),
    "game_misconduct": _("Game misconduct"),
    "game_ejection": _("Game ejection"),
    "gross_misconduct": _("Gross misconduct"),
    "penalty_shot": _("Penalty shot"),
}

GAME_STATES: Mapping[str, Any] = {
    "not_opened": _("not started"),
    st.NOT_STARTED: _("not started"),
    st.IN_PROGRESS: _("in progress"),
    st.INTERMISSION: _("intermission"),
    st.SHOOTOUT: _("shoot-out"),
    st.ENDED: _("ended"),
}

SHEET_STATES: Mapping[str, Any] = {
    "not_opened": _("not opened"),
    "open": pgettext_lazy("sheet status", "open"),
    "final": pgettext_lazy("sheet status", "final (signed)"),
}


def _known(labels: Mapping[str, Any], value: object) -> str:
    """The label of ``value``, or the value made readable when it is not one the table knows."""
    if value in labels:
        return str(labels[value])  # type: ignore[index]
    return str(value or "").replace("_", " ")


def event_kind_label(kind: object) -> str:
    """The name of a kind of sheet entry in the reader's language (``clock_start`` -> "Clock started")."""
    return _known(EVENT_KINDS, kind)


def penalty_kind_label(kind: object) -> str:
    """A penalty's kind in the reader's language (``double_minor`` -> "Double minor")."""
    return _known(PENALTY_KINDS, kind)


def game_state_label(status: object) -> str:
    """The engine's game status in the reader's language (``in_progress`` -> "in progress")."""
    return _known(GAME_STATES, status)


def sheet_status_label(status: object) -> str:
    """The sheet's status in the reader's language (``open``, ``final``: signed)."""
    return _known(SHEET_STATES, status)


def period_clock(period: object, tenths: object = None) -> str:
    """A period and the game time elapsed in it (R-10: tenths of a second or ``m:ss``): ``P1 12:29``; the period
    alone when there is no time; empty when there is no period (a shoot-out attempt, the game end)."""
    if period in (None, ""):
        return ""
    text = f"{pgettext('period, abbreviation before its number', 'P')}{period}"
    if tenths in (None, ""):
        return text
    try:
        elapsed = ev.parse_time(tenths)
    except EventFormatError:
        return f"{text} {tenths}"
    return f"{text} {ev.format_time(elapsed - elapsed % 10)}"


def infraction_label(code: object) -> str:
    """The Annex C index line's name with its article (R-20): ``holding`` -> "Holding (6.4.18)"."""
    line = INFRACTIONS.get(str(code or ""))
    if line is None:
        return str(code or "").replace("_", " ")
    return f"{say(line.name)} ({line.article})"  # the index's name in the reader's language


def side_name(game, side: object) -> str:
    """The team playing ``side`` (home, away) of ``game``: its name, never the word "home"."""
    team = game.home if side == "home" else game.away if side == "away" else None
    return str(team) if team is not None else str(side or "")


def event_details(game, payload: Mapping[str, Any]) -> str:
    """The fields of a sheet entry beyond its kind, period and time, as a person reads them:
    "Team A, #64, Holding (6.4.18), Minor" (``team=home player=64 infraction=holding penalty=minor``)."""
    parts: list[str] = []
    if payload.get("team"):
        parts.append(side_name(game, payload["team"]))
    if payload.get("player") not in (None, ""):
        parts.append(f"#{payload['player']}")
    if payload.get("infraction"):
        parts.append(infraction_label(payload["infraction"]))
    if payload.get("penalty"):
        parts.append(penalty_kind_label(payload["penalty"]))
    assists = payload.get("assists") or ([payload["assist"]] if payload.get("assist") else [])
    if assists:
        parts.append(gettext("assists %(numbers)s") % {"numbers": ", ".join(f"#{a}" for a in assists)})
    for flag, label in (
        ("own_goal", _("own goal")),
        ("awarded", _("awarded")),
        ("empty_net", _("empty net")),
        ("delayed", _("delayed")),
    ):
        if payload.get(flag):
            parts.append(str(label))
    if "scored" in payload:
        parts.append(str(_("scored") if payload["scored"] else _("missed")))
    if payload.get("served_by") not in (None, ""):
        parts.append(gettext("served by #%(number)s") % {"number": payload["served_by"]})
    if payload.get("voids"):
        voids = payload["voids"] if isinstance(payload["voids"], list) else [payload["voids"]]
        parts.append(gettext("voids %(entries)s") % {"entries": ", ".join(str(v)[:8] for v in voids)})
    return ", ".join(p for p in parts if p)


# What a goal or a penalty became under the decisions on penalty situations the rulebook leaves open, as the game
# report and the live scoreboard say it (the same words: one translation each).
OUTCOMES: Mapping[str, Any] = {
    "awarded": _("awarded goal, no assist (R-69)"),
    "washed_out_half": _("first half washed out by a goal, second half served (R-58)"),
    "at_buzzer": _("assessed at the buzzer that ended the period (R-70)"),
}


def goal_outcomes(goal: Mapping[str, Any]) -> list[str]:
    """The ``OUTCOMES`` codes of one goal of the engine's state: an awarded goal, credited with no assist (R-69)."""
    return ["awarded"] if goal.get("awarded") else []


def period_end_time(period: int, rules: Any) -> str:
    """The game time (m:ss elapsed) at which a period's buzzer sounds (1.2 A, 1.3 B; R-11)."""
    return ev.format_time(rules.overtime_length if period > rules.periods else rules.period_length)


def penalty_outcomes(penalty: Mapping[str, Any], rules: Any) -> list[str]:
    """The ``OUTCOMES`` codes of one penalty of the engine's state (``rules``: the game's ``Ruleset``).

    R-58: a goal washed out the first half of a signalled double minor; R-70: the period's end assessed it (its
    time is the buzzer's).
    """
    codes = []
    if penalty.get("washed_out_half"):
        codes.append("washed_out_half")
    if penalty.get("time") == period_end_time(int(penalty.get("period") or 0), rules):
        codes.append("at_buzzer")
    return codes
