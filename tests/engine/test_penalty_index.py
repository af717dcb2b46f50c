"""The Annex C penalty index as data (with the Annex B signals): database-free."""

import ast
import re
from pathlib import Path

import pytest

from games.engine import penalty_index
from games.engine.penalty_index import INFRACTIONS, PENALTY_KINDS, SIGNALS, Infraction, get_infraction
from tests.rulebook import read_text, rulebook_refs

# Annex C prints 38 lines on its first page and 45 on its second.
ANNEX_C_LINES = 83

# Where the data deliberately differs from the printed index (see the comments in the module).
ARTICLE_CORRECTIONS = {"physical_abuse_of_officials": "6.4.28A B, C"}


def _annex(text: str, start: str, end: str | None = None) -> str:
    begin = text.rindex(start)
    stop = text.index(end, begin) if end else len(text)
    return " ".join(text[begin:stop].split())


def _squash(value: str) -> str:
    return re.sub(r"[\s–-]", "", value).lower()


def _plain_name(infraction: Infraction) -> str:
    """The line's name without its parenthesis and star, lower case."""
    return re.sub(r"\(.*?\)|\*", "", infraction.name).lower()


def test_it_holds_every_line_of_annex_c():
    assert len(INFRACTIONS) == ANNEX_C_LINES
    annex = _squash(_annex(read_text(), "Annex C FIRS PENALTY INDEX"))
    for infraction in INFRACTIONS.values():
        assert _squash(infraction.name) in annex, infraction.name
        printed = ARTICLE_CORRECTIONS.get(infraction.code, infraction.article)
        assert _squash(printed) in annex, (infraction.code, printed)


def test_lines_sharing_a_name_are_told_apart_by_article():
    # "Throwing Stick" (6.4.32 A, B) and "Resistance to Serve Penalty" (6.4.9 D, GM and 10') appear twice.
    seen: dict[tuple[str, str, tuple[str, ...]], str] = {}
    for infraction in INFRACTIONS.values():
        key = (infraction.name, infraction.article, infraction.penalties)
        assert key not in seen, f"{infraction.code} repeats {seen[key]}"
        seen[key] = infraction.code


def test_every_article_reference_is_a_rulebook_heading():
    refs = rulebook_refs()
    for infraction in INFRACTIONS.values():
        match = re.fullmatch(r"(\d+(?:\.\d+)+)(?: ([A-Z](?:, [A-Z])*))?", infraction.article)
        assert match, f"{infraction.code}: article {infraction.article!r} is not like '6.4.30 A'"
        number, letters = match.groups()
        cited = [f"{number} {letter}" for letter in letters.split(", ")] if letters else [number]
        for ref in cited:
            assert ref in refs, f"{infraction.code}: {ref} is not an article or clause of the rulebook"


def test_codes_are_unique_readable_slugs():
    codes = [infraction.code for infraction in INFRACTIONS.values()]
    assert len(set(codes)) == len(codes)
    assert list(INFRACTIONS) == codes
    for code in codes:
        assert re.fullmatch(r"[a-z]+(?:_[a-z]+)*", code), code


def test_stick_flags_are_exactly_on_the_five_stick_infractions():
    # 6.1.7 C, R-29: slashing, high sticking, cross-checking, butt-ending and spearing.
    five = ("slashing", "high sticks", "cross checking", "butt-ending", "spearing")
    expected = {
        code for code, infraction in INFRACTIONS.items() if any(word in _plain_name(infraction) for word in five)
    }
    # 6.4.21 C: a stick swung above the shoulders "shall be called for high sticking".
    expected.add("stick_swung_above_shoulder")
    flagged = {code for code, infraction in INFRACTIONS.items() if infraction.stick_infraction}
    assert flagged == expected
    assert "three_stick_penalties" not in flagged  # the consequence, not a stick infraction


def test_signals_table_is_annex_b():
    annex_b = _annex(read_text(), "Annex B FIRS Penalty Signals", "Annex C FIRS PENALTY INDEX")
    assert len(SIGNALS) == 26
    for name, description in SIGNALS.items():
        assert name.rstrip(" /") in annex_b
        assert description in annex_b, name


def test_signals_are_attached_where_annex_b_has_them():
    by_infraction = {
        "boarding": "Boarding",
        "charging": "Charging",
        "cross checking": "Cross-Checking",
        "checking from behind": "Checking from Behind",
        "delaying the game": "Delay of Game",
        "elbowing": "Elbowing",
        "kneeing": "Kneeing",
        "roughing": "Roughing",
        "high sticks": "High-Sticking",
        "holding": "Holding",
        "hooking": "Hooking",
        "interference": "Interference",
        "slashing": "Slashing",
        "spearing": "Spearing",
        "butt-ending": "Butt-Ending",
        "tripping": "Tripping",
        "penalty shot": "Penalty Shot",
    }
    by_penalty = {"MIS": "Misconduct", "10'": "Misconduct", "MP": "Match", "PS": "Penalty Shot"}
    # Lines whose signal is named in their article rather than their name.
    by_article = {
        "stick_swung_above_shoulder": ["High-Sticking"],  # 6.4.21 C: called as high sticking
        "adjustment_to_clothing": ["Delay of Game"],  # 6.4.5 A: a minor for delay of the game
    }
    # 6.4.25 punishes no player; 6.1.7 penalties are added by count, not signalled.
    unsignalled = {"interference_by_spectators", "third_penalty", "subsequent_penalty", "three_stick_penalties"}
    for code, infraction in INFRACTIONS.items():
        name = _plain_name(infraction)
        expected = [signal for word, signal in by_infraction.items() if word in name]
        expected = by_article.get(code, expected)
        if not expected:
            expected = sorted({by_penalty[p] for p in infraction.penalties if p in by_penalty})
        if code in unsignalled:
            assert infraction.signal is None, code
            continue
        if not expected:
            assert infraction.signal is None, code
            continue
        assert infraction.signal is not None, code
        for signal in expected:
            assert SIGNALS[signal].rstrip(".") in infraction.signal, (code, signal)


def test_penalties_are_known_kinds_and_only_spectators_give_none():
    assert set(PENALTY_KINDS) == {"2'", "2+2'", "5'+GM", "GM", "MIS", "MP", "PS", "10'", "GE"}
    for infraction in INFRACTIONS.values():
        assert set(infraction.penalties) <= set(PENALTY_KINDS), infraction.code
    assert [code for code, line in INFRACTIONS.items() if not line.penalties] == ["interference_by_spectators"]


@pytest.mark.parametrize(
    ("code", "article", "penalties"),
    [
        ("slashing", "6.4.30 A", ("2'",)),
        ("spearing_butt_ending_attempted", "6.4.31 A", ("2+2'",)),
        ("leaving_bench_altercation", "6.4.27 F", ("2+2'", "GM")),
        ("throwing_stick_from_bench", "6.4.32 A", ("2'", "GM")),
        ("three_stick_penalties", "6.1.7 C", ("GE",)),
        ("shooting_puck_away_from_official", "6.4.9 B", ("MIS",)),
        ("third_penalty", "6.1.7 A", ("10'",)),
        ("subsequent_penalty", "6.1.7 B", ("GE",)),
        ("penalty_shot_awarded_goal", "6.4.35", ("PS",)),
    ],
)
def test_it_reads_the_lines_the_extraction_scrambled(code, article, penalties):
    infraction = get_infraction(code)
    assert (infraction.article, infraction.penalties) == (article, penalties)


def test_get_infraction_rejects_an_unknown_code_naming_it():
    with pytest.raises(KeyError, match="no penalty index line with code 'spearing_attempt'"):
        get_infraction("spearing_attempt")


def test_the_index_cannot_be_changed():
    with pytest.raises(TypeError):
        INFRACTIONS["slashing"] = get_infraction("hooking")  # type: ignore[index]
    with pytest.raises(AttributeError):
        get_infraction("slashing").article = "6.4.30 B"  # type: ignore[misc]


def test_it_rejects_a_penalty_kind_outside_the_index():
    with pytest.raises(ValueError, match="unknown penalty"):
        Infraction(code="x", name="X", article="6.4.30 A", penalties=("7'",))


def test_the_index_imports_no_django():
    tree = ast.parse(Path(penalty_index.__file__).read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not any(name.split(".")[0] == "django" for name in imported)
