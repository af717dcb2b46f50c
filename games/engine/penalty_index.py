"""The FIRS penalty index (Annex C) as data, with the penalty signals of Annex B.

One `Infraction` per line of the index, in the index's order. The index is the
referee's and scorekeeper's table: a penalty entered on the game sheet names one
of these lines (R-20), and the line gives its article and its penalty. Where the
printed index and the article disagree, the line keeps what the index prints and
a comment says so; the article's text is the rule the engine applies.

A name ending in " *" is the index's mark for the major (and game misconduct) the
referee may give instead of the minor ("at the discretion of the Referee").

A line's signal is the Annex B signal of its infraction where Annex B has one;
otherwise the signal of its penalty (Misconduct, Match, Penalty Shot), except for
the penalties the scorekeeper adds by count (6.1.7), which no referee signals.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from common.text import Text, _

# The penalties of the index's DURATION column and what each one means.
PENALTY_KINDS: Mapping[str, str] = MappingProxyType(
    {
        "2'": "Minor penalty: 2 minutes in the box; a bench minor is 2 minutes too (6.1.2 A, D)",
        "2+2'": "Double minor: two minor penalties served one after the other, 4 minutes (6.4.31 A, R-23)",
        "5'+GM": "Major penalty and its game misconduct: out for the game, a substitute serves 5 minutes (6.1.3 A-B)",
        "GM": "Game misconduct: out for the rest of the game, 10 minutes in the records (6.1.5)",
        "MIS": "Misconduct: 10 minutes, a substitute may replace the player at once (6.1.4)",
        "10'": "Ten-minute misconduct (6.1.4 A); the index writes it 10' where the rule reads 'misconduct'",
        "MP": "Match penalty: out for the game, a substitute serves 5 minutes (6.1.6)",
        "PS": "Penalty shot (6.1.8)",
        "GE": "Game ejection: out for the game, a substitute serves any time (6.1.7 B-C)",
    }
)

# Annex B, FIRS Penalty Signals: signal name -> what the referee does.
SIGNALS: Mapping[str, str] = MappingProxyType(
    {
        "Boarding": "Strike the clenched fist of one hand into the open palm of the other hand in front of the chest",
        "Body Checking": "The non-whistle hand is placed on the shoulder and then moved out and to the side.",
        "Butt-Ending": "A crossing motion of the forearms, one moving under the other.",
        "Cross-Checking": "A single forward and back motion with both fists clenched in front of the chest.",
        "Checking from Behind": "Both open hands extended out from the body in a pushing motion.",
        "Delay Penalty": "The extension of the action arm above the body with an open palm. Fingers are together.",
        "Charging": "Rotating clenched fists around one another in front of the chest",
        "Delay of Game": "The non-whistle hand, palm open, is placed across the chest and then fully extended.",
        "Elbowing": "Tapping either elbow with the opposite hand.",
        "Roughing": "Fist clenched, fully extending the arm out from the body.",
        "Goal Scored": "Point at the net with the nonwhistle hand.",
        "Misconduct": "Both hands placed on the hips",
        "High-Sticking": "Holding both fists one above the other to the side of the body.",
        "Holding": "Grasping the wrist of the whistle hand in front of the body.",
        "Match": "The non-whistle hand placed on the top of the helmet.",
        "Hooking": "A tug of both closed fists in toward the body.",
        "Hand Pass": "The non-whistle hand with and open palm pushed out away from the body.",
        "Interference": "Crossed arms with both fists closed in front of the body.",
        "Kneeing": "The non-whistle hand placed on the knee with both skates on the surface.",
        "Slashing": "A chop to the forearm of the whistle hand with the non-whistle hand.",
        "Penalty Shot": "Crossed arms above the head with closed fists.",
        "Tripping": "Keeping both skates on the surface swipe the non-whistle hand to the knee.",
        "Timeout": "Using both hands form a “T’ in front of the chest.",
        "Unsportsmanlike": "Using both hands form a “T’ in front of the chest.",
        "Spearing": "A single jab with both arms extending out from the body.",
        "Washout": "Both arms fully extended out from the body with open palms.",
    }
)


@dataclass(frozen=True, slots=True)
class Infraction:
    """One line of the Annex C penalty index.

    `penalties` are the penalties the line gives; two of them (6.4.27 F: "2+2+GM")
    are given together. An empty tuple is a line that gives no penalty (6.4.25).
    `stick_infraction` counts towards the game ejection of 6.1.7 C (R-29). `name` is the index's English, a
    ``common.text.Text`` said in the reader's language where it is shown (``games.labels.infraction_label``).
    """

    code: str
    name: str
    article: str
    penalties: tuple[str, ...]
    stick_infraction: bool = False
    signal: str | None = None

    def __post_init__(self) -> None:
        unknown = [penalty for penalty in self.penalties if penalty not in PENALTY_KINDS]
        if unknown:
            raise ValueError(f"Annex C line {self.code!r}: unknown penalty {unknown}; one of {list(PENALTY_KINDS)}")


def _signal(*names: str) -> str:
    """Return the Annex B description of one signal, or of several named one by one."""
    if len(names) == 1:
        return SIGNALS[names[0]]
    return " ".join(f"{name}: {SIGNALS[name].rstrip('.')}." for name in names)


def _line(
    code: str, name: Text, article: str, *penalties: str, stick: bool = False, signals: tuple[str, ...] = ()
) -> Infraction:
    return Infraction(
        code=code,
        name=name,
        article=article,
        penalties=penalties,
        stick_infraction=stick,
        signal=_signal(*signals) if signals else None,
    )


# Stick infractions of 6.1.7 C: slashing, high sticking, cross-checking, butt-ending and spearing.
_LINES = (
    # Page 1 of the index: minors, the double minor, the stick majors and match penalties.
    _line(
        "adjustment_to_clothing", _("Adjustment to Clothing and Equipment"), "6.4.5", "2'", signals=("Delay of Game",)
    ),
    _line("boarding", _("Boarding"), "6.4.13", "2'", signals=("Boarding",)),
    _line("broken_stick", _("Broken Stick"), "6.4.11", "2'"),
    _line("charging", _("Charging"), "6.4.12 A", "2'", signals=("Charging",)),
    _line("delaying_the_game", _("Delaying the Game"), "6.4.16", "2'", signals=("Delay of Game",)),
    _line("elbowing_or_kneeing", _("Elbowing or Kneeing"), "6.4.17", "2'", signals=("Elbowing", "Kneeing")),
    _line("face_off_violation", _("Face Off Violation"), "6.4.4", "2'"),
    _line("falling_on_the_puck", _("Falling on the Puck"), "6.4.18 A", "2'"),
    _line("goalkeeper_penalties", _("Goalkeeper Penalties"), "6.4.7", "2'"),
    _line("handling_puck_with_hand", _("Handling Puck with Hand"), "6.4.20 A, B", "2'"),
    _line("holding", _("Holding"), "6.4.22 A", "2'", signals=("Holding",)),
    _line("hooking", _("Hooking"), "6.4.23 A", "2'", signals=("Hooking",)),
    _line("illegal_equipment_goalkeeper", _("Illegal Equipment (Goalkeeper)"), "6.4.3 D", "2'"),
    _line("illegal_equipment_protective", _("Illegal Equipment (Protective equipment)"), "6.4.3 C", "2'"),
    _line("illegal_equipment_skates", _("Illegal Equipment (Skates)"), "6.4.3 B", "2'"),
    _line("illegal_equipment_sticks", _("Illegal Equipment (Sticks)"), "6.4.3 A", "2'"),
    # 6.4.6 C: in the last two minutes a penalty shot replaces this bench minor (the engine applies it).
    _line("illegal_substitution", _("Illegal Substitution"), "6.4.6 C", "2'"),
    _line("interference", _("Interference"), "6.4.24 A", "2'", signals=("Interference",)),
    _line(
        "interference_with_goalkeeper", _("Interference with Goalkeeper"), "6.4.24 C", "2'", signals=("Interference",)
    ),
    _line("leaving_bench", _("Leaving the Player or Penalty Benches"), "6.4.27 B", "2'"),
    _line("refusal_to_start_play", _("Refusal to Start Play"), "8.1 A", "2'"),
    _line("roughing", _("Roughing"), "6.4.34 A", "2'", signals=("Roughing",)),
    _line("tripping", _("Tripping"), "6.4.33 A", "2'", signals=("Tripping",)),
    # 6.4.21 C: a stick swung above the shoulders "shall be called for high sticking".
    _line(
        "stick_swung_above_shoulder",
        _("Stick Swung above shoulder"),
        "6.4.21 C",
        "2'",
        stick=True,
        signals=("High-Sticking",),
    ),
    _line("slashing", _("Slashing"), "6.4.30 A", "2'", stick=True, signals=("Slashing",)),
    _line("cross_checking", _("Cross Checking"), "6.4.14 A", "2'", stick=True, signals=("Cross-Checking",)),
    _line("high_sticks", _("High Sticks"), "6.4.21 C", "2'", stick=True, signals=("High-Sticking",)),
    _line(
        "spearing_butt_ending_attempted",
        _("Spearing and Butt-Ending (attempted)"),
        "6.4.31 A",
        "2+2'",
        stick=True,
        signals=("Spearing", "Butt-Ending"),
    ),
    _line("three_stick_penalties", _("Three Stick Penalties"), "6.1.7 C", "GE"),
    # The index cites 6.4.14 B for the discretionary major; the article gives it in 6.4.14 A.
    _line("cross_checking_major", _("Cross Checking *"), "6.4.14 B", "5'+GM", stick=True, signals=("Cross-Checking",)),
    _line(
        "cross_checking_injury",
        _("Cross Checking causing Injury"),
        "6.4.14 C",
        "5'+GM",
        stick=True,
        signals=("Cross-Checking",),
    ),
    _line(
        "cross_checking_goalkeeper_in_crease",
        _("Cross Checking Goalkeeper with in the crease"),
        "6.4.14 B",
        "5'+GM",
        stick=True,
        signals=("Cross-Checking",),
    ),
    # The index cites 6.4.30 B for the discretionary major; the article gives it in 6.4.30 A.
    _line("slashing_major", _("Slashing *"), "6.4.30 B", "5'+GM", stick=True, signals=("Slashing",)),
    _line("slashing_injury", _("Slashing causing Injury"), "6.4.30 B", "5'+GM", stick=True, signals=("Slashing",)),
    _line("high_sticks_major", _("High Sticks *"), "6.4.21 D", "5'+GM", stick=True, signals=("High-Sticking",)),
    _line(
        "high_sticks_injury",
        _("High Sticks causing Injury"),
        "6.4.21 E",
        "5'+GM",
        stick=True,
        signals=("High-Sticking",),
    ),
    _line(
        "slashing_altercation", _("Slashing during Altercation"), "6.4.30 C", "MP", stick=True, signals=("Slashing",)
    ),
    _line(
        "spearing_butt_ending_injury",
        _("Spearing and Butt-Ending causing Injury"),
        "6.4.31 B",
        "MP",
        stick=True,
        signals=("Spearing", "Butt-Ending"),
    ),
    # Page 2 of the index: bench and throwing penalties, majors, game misconducts, match
    # penalties, penalty shots, misconducts and the automatic penalties of 6.1.7.
    _line(
        "leaving_bench_altercation",
        _("Leaving the Player or Penalty Benches (During a fight or for purpose of starting a fight)"),
        "6.4.27 F",
        "2+2'",
        "GM",
    ),
    _line("throwing_stick_from_bench", _("Throwing Stick"), "6.4.32 A", "2'", "GM"),
    _line("boarding_major", _("Boarding *"), "6.4.13", "5'+GM", signals=("Boarding",)),
    _line("charging_major", _("Charging *"), "6.4.12 A", "5'+GM", signals=("Charging",)),
    _line(
        "charging_goalkeeper_in_crease",
        _("Charging Goalkeeper within the goal crease"),
        "6.4.12 B",
        "5'+GM",
        signals=("Charging",),
    ),
    _line("checking_from_behind", _("Checking From Behind"), "6.4.26 A", "5'+GM", signals=("Checking from Behind",)),
    _line("fighting_starting", _("Fighting (Starting)"), "6.4.19 B", "5'+GM"),
    _line("holding_major", _("Holding *"), "6.4.22 A", "5'+GM", signals=("Holding",)),
    _line("holding_injury", _("Holding Causing Injury"), "6.4.22 B", "5'+GM", signals=("Holding",)),
    _line("hooking_major", _("Hooking *"), "6.4.23 A", "5'+GM", signals=("Hooking",)),
    _line("hooking_injury", _("Hooking Causing Injury"), "6.4.23 B", "5'+GM", signals=("Hooking",)),
    _line("interference_major", _("Interference *"), "6.4.24 A", "5'+GM", signals=("Interference",)),
    _line("roughing_major", _("Roughing *"), "6.4.34 A", "5'+GM", signals=("Roughing",)),
    _line("throwing_stick_on_surface", _("Throwing Stick"), "6.4.32 B", "5'+GM"),
    _line("tripping_major", _("Tripping *"), "6.4.33 A", "5'+GM", signals=("Tripping",)),
    _line("tripping_injury", _("Tripping causing Injury"), "6.4.33 B", "5'+GM", signals=("Tripping",)),
    _line("roughing_injury", _("Roughing causing Injury"), "6.4.34 B", "5'+GM", signals=("Roughing",)),
    _line(
        "elbowing_or_kneeing_major",
        _("Elbowing or Kneeing *"),
        "6.4.17 A",
        "5'+GM",
        signals=("Elbowing", "Kneeing"),
    ),
    _line(
        "elbowing_or_kneeing_injury",
        _("Elbowing or Kneeing causing Injury"),
        "6.4.17 B",
        "5'+GM",
        signals=("Elbowing", "Kneeing"),
    ),
    _line("fighting_intervening", _("Fighting (Intervene in fight)"), "6.4.19 E", "GM"),
    _line("fighting_off_surface", _("Fighting (off the playing surface)"), "6.4.19 D", "GM"),
    _line("goalkeeper_leaves_crease_altercation", _("Goalkeeper leaves goal crease for Altercation"), "6.4.7 F", "GM"),
    _line("inciting_opponent", _("Incite Opponent after warning"), "6.4.9 E", "GM"),
    _line("interfering_with_official", _("Interfere with Official"), "6.4.9 J", "GM"),
    _line("obscene_language_or_gestures", _("Obscene or Profane Language or Gestures"), "6.4.29", "GM"),
    # 6.4.9 D, second sentence: after an altercation, failing to go to the box is a game misconduct.
    _line("resisting_to_serve_penalty_altercation", _("Resistance to Serve Penalty"), "6.4.9 D", "GM"),
    # The index cites 6.4.9 J; the words "resists a Referee in the discharge of the Referee's duties" are in 6.4.9 D.
    _line("resisting_referee", _("Resists Referee in Duties"), "6.4.9 J", "GM"),
    _line("second_misconduct", _("Second Misconduct same game"), "6.1.7 D", "GM"),
    _line(
        "shooting_puck_away_from_official",
        _("Shooting the puck out of the reach of an official"),
        "6.4.9 B",
        "MIS",
        signals=("Misconduct",),
    ),
    _line("throwing_object_on_surface", _("Throwing Object on Skating Surface"), "6.4.9 I", "GM"),
    _line("attempt_to_injure", _("Attempt to Injure"), "6.4.10", "MP", signals=("Match",)),
    _line(
        "checking_from_behind_into_boards",
        _("Checking From Behind (Boarding or Goal Cage)"),
        "6.4.26 B",
        "MP",
        signals=("Checking from Behind",),
    ),
    _line("fighting_intent_to_injure", _("Fighting (Intent to injure)"), "6.4.19 G", "MP", signals=("Match",)),
    _line("kicking_opponent", _("Kicking Opponent"), "6.4.15 C", "MP", signals=("Match",)),
    # The index prints "6.4.28A B, C"; the article has clauses A and B only.
    _line("physical_abuse_of_officials", _("Physical Abuse of Officials"), "6.4.28 A, B", "MP", signals=("Match",)),
    _line("deliberate_injury", _("Deliberate Injury to Opponents"), "6.4.15 A", "MP", signals=("Match",)),
    _line(
        "displacing_goal_post",
        _("Deliberate Displacement of the Goal Post"),
        "6.4.8",
        "PS",
        signals=("Penalty Shot",),
    ),
    # The index leaves the duration of the next line empty: 6.4.35 awards a penalty shot, or a goal
    # when the goalkeeper has been removed (the awarded goal is a goal event, not a penalty).
    _line("penalty_shot_awarded_goal", _("Penalty Shots – Awarded Goals"), "6.4.35", "PS", signals=("Penalty Shot",)),
    _line("banging_boards", _("Banging Boards"), "6.4.9 C", "10'", signals=("Misconduct",)),
    _line(
        "entering_referee_crease",
        _("Entering the Referee Crease without permission"),
        "6.4.9 K",
        "10'",
        signals=("Misconduct",),
    ),
    _line("protest", _("Protest"), "6.4.2", "10'", signals=("Misconduct",)),
    # 6.4.9 D, first sentence: not going directly to the penalty box is a misconduct.
    _line("resisting_to_serve_penalty", _("Resistance to Serve Penalty"), "6.4.9 D", "10'", signals=("Misconduct",)),
    # The index leaves the duration of the last three lines empty; the articles give them:
    # 6.1.7 A a ten-minute misconduct on the third penalty, 6.4.25 no penalty (play stops and the
    # referee reports the spectator), 6.1.7 B a game ejection on any later penalty.
    _line("third_penalty", _("Third Minor Penalty"), "6.1.7 A", "10'"),
    _line("interference_by_spectators", _("Interference by Spectators"), "6.4.25"),
    _line("subsequent_penalty", _("Subsequent Penalty"), "6.1.7 B", "GE"),
)

INFRACTIONS: Mapping[str, Infraction] = MappingProxyType({line.code: line for line in _LINES})

# The penalty kind an event carries (docs/game-scripts.md) for each penalty of the index's DURATION column. The
# game misconduct of "5'+GM" is the engine's own (6.1.3 B): the event is the major.
ENGINE_KINDS: Mapping[str, str] = MappingProxyType(
    {
        "2'": "minor",
        "2+2'": "double_minor",
        "5'+GM": "major",
        "GM": "game_misconduct",
        "MIS": "misconduct",
        "10'": "misconduct",
        "MP": "match",
        "PS": "penalty_shot",
        "GE": "game_ejection",
    }
)


def engine_kinds(line: Infraction) -> tuple[str, ...]:
    """Return the penalty kinds of the events a line of the index is entered as, in the index's order."""
    return tuple(ENGINE_KINDS[penalty] for penalty in line.penalties)


if len(INFRACTIONS) != len(_LINES):
    raise ValueError("Annex C: two index lines share a code")


def nearest_codes(code: str, limit: int = 3) -> list[str]:
    """Return the index codes closest in spelling to an unknown one (difflib), best first."""
    return difflib.get_close_matches(code, list(INFRACTIONS), n=limit, cutoff=0.6)


def unknown_code_hint(code: str) -> Text:
    """Return the end of the message refusing an unknown code: the nearest codes, or where the codes are."""
    nearest = nearest_codes(code)
    if nearest:
        return _("nearest: %(codes)s", codes=", ".join(nearest))
    return _("see games.engine.penalty_index.INFRACTIONS for the %(count)s codes", count=len(INFRACTIONS))


def get_infraction(code: str) -> Infraction:
    """Return the Annex C index line with this code."""
    try:
        return INFRACTIONS[code]
    except KeyError:
        raise KeyError(f"Annex C: no penalty index line with code {code!r}; {unknown_code_hint(code)}") from None
