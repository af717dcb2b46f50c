"""Read the rulebook's articles and lettered clauses from its text.

The text is the PDF extraction of the FIRS/IHTC Rules of the Game (2017): numbering
is flattened and tables are split, so the parser leans on the table of contents for
the list of articles and their titles, then finds each article's heading in the body
and the clause letters A., B., C. ... in sequence inside it.

`tests/data/firs-inline-hockey-rules-2017.txt` is a verbatim copy of the shared
specification, kept in the repository so the suite runs on a clean clone.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from functools import cache
from pathlib import Path

RULEBOOK_PATH = Path(__file__).resolve().parent / "data" / "firs-inline-hockey-rules-2017.txt"

# The annexes close the rulebook; they have no lettered clauses.
ANNEXES = (
    ("Annex A", "Rink, goal crease and goal cage diagrams"),
    ("Annex B", "FIRS penalty signals"),
    ("Annex C", "FIRS penalty index"),
)

# The table of contents numbers the last article 10.1; its heading in the body reads
# "9.3" (a numbering slip of the rulebook). Rows and citations use the contents' number.
BODY_NUMBER = {"10.1": "9.3"}

_NUMBER = re.compile(r"\d+(?:\.\d+)*")
_LEADER = re.compile(r"\s*\.{4,}\s*\d+")
_FOOTER = re.compile(r"\b\d+\s+V1 May 1, 2017")


@dataclass(frozen=True, slots=True)
class Clause:
    """One row of the coverage table: a lettered clause, an article without letters, or an annex."""

    article: str
    letter: str | None
    title: str
    text: str

    @property
    def ref(self) -> str:
        return f"{self.article} {self.letter}" if self.letter else self.article


def read_text(path: Path = RULEBOOK_PATH) -> str:
    return path.read_text(encoding="utf-8")


def _contents_and_body(text: str) -> tuple[str, str]:
    start = text.index("Table of Contents")
    # The foreword's heading opens the contents' list and, a second time, the body.
    body_start = text.index("FOREWORD", text.index("FOREWORD", start) + 1)
    body_end = text.index("Annex A RINK DIAGRAM", body_start)
    return text[start:body_start], text[body_start:body_end]


def parse_contents(text: str) -> list[tuple[str, str]]:
    """Return (number, title) for every numbered chapter and article of the contents, in order."""
    contents, _ = _contents_and_body(text)
    contents = _FOOTER.sub(" ", contents.replace("Table of Contents", " "))
    pending: list[str] = []
    entries: list[tuple[str, str]] = []
    # Each chunk between dot leaders is: an optional run of numbers, then one title.
    for chunk in _LEADER.split(contents):
        words = chunk.split()
        numbers = []
        while words and _NUMBER.fullmatch(words[0]):
            numbers.append(words.pop(0))
        pending.extend(numbers)
        title = " ".join(words)
        if not title:
            continue
        if pending:
            entries.append((pending.pop(0), title))
        # Titles with no number waiting are the foreword, glossary, section headings and annexes.
    if pending:
        raise ValueError(f"contents numbers without a title: {pending}")
    return entries


def _leaf_articles(entries: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Articles that hold text: numbered with a dot and not the parent of other articles."""
    numbers = [number for number, _ in entries]
    return [
        (number, title)
        for number, title in entries
        if "." in number and not any(other.startswith(number + ".") for other in numbers)
    ]


def _heading(body: str, number: str, title: str, start: int) -> re.Match[str]:
    """Find an article's heading: its number at a line start or after a chapter title, then its title or "A."."""
    shown = re.escape(BODY_NUMBER.get(number, number))
    first_word = re.escape(title.split()[0])
    # After the number may come a sub-article's number and the parent's title ("6.4 6.4.1 Implementation
    # of Penalties General"); a cross-reference ("Rule 6.2.2 C") is neither at a line start nor after a
    # chapter title in capitals.
    pattern = re.compile(
        rf"(?:^|(?<=\n)|(?<=[A-Z]{{2}} )|(?<=\d\.\d )|(?<=Championships )){shown}(?![\d.])"
        rf"(?=\s+(?:\d+(?:\.\d+)+\s+)?(?:[A-Z][\w ]{{0,60}}?\s)?(?:(?i:{first_word})|A\.))"
    )
    match = pattern.search(body, start)
    if match is None:
        raise ValueError(f"heading of article {number} ({title}) not found in the rulebook body")
    return match


def _letters(text: str) -> list[tuple[str, int, int]]:
    """Return (letter, start, end-of-marker) for the clause letters A., B., ... found in sequence."""
    found: list[tuple[str, int, int]] = []
    position = 0
    for letter in string.ascii_uppercase:
        marker = re.compile(rf"(?:^|(?<=\s)|(?<=\*)){letter}\.\.?(?=\s|$)")
        match = marker.search(text, position)
        if match is None:
            break
        found.append((letter, match.start(), match.end()))
        position = match.end()
    return found


def parse_clauses(text: str) -> list[Clause]:
    """Return every lettered clause (or letterless article) of 1.1 to 10.1, then the annexes, in rulebook order."""
    _, body = _contents_and_body(text)
    articles = _leaf_articles(parse_contents(text))
    starts = []
    position = 0
    for number, title in articles:
        match = _heading(body, number, title, position)
        starts.append((number, title, match.start(), match.end()))
        position = match.end()

    clauses: list[Clause] = []
    for index, (number, title, _, end) in enumerate(starts):
        stop = starts[index + 1][2] if index + 1 < len(starts) else len(body)
        article_text = body[end:stop]
        letters = _letters(article_text)
        if not letters:
            clauses.append(Clause(number, None, title, _clean(article_text, title)))
            continue
        for position_in_list, (letter, _, marker_end) in enumerate(letters):
            clause_end = letters[position_in_list + 1][1] if position_in_list + 1 < len(letters) else len(article_text)
            clauses.append(Clause(number, letter, title, _clean(article_text[marker_end:clause_end], title)))
    clauses = _unstack(clauses)
    clauses.extend(Clause(name, None, title, "") for name, title in ANNEXES)
    return clauses


def _clean(text: str, title: str) -> str:
    """Collapse whitespace, drop page footers and a repeated article title at the start."""
    text = " ".join(_FOOTER.sub(" ", text).split())
    rest = text[len(title) :].lstrip()
    # "3.2.1 A. General All equipment ...": the title printed after the letter, then the sentence.
    if text.lower().startswith(title.lower()) and rest[:1].isupper():
        return rest
    return text


def _unstack(clauses: list[Clause]) -> list[Clause]:
    """Give stacked headings their text back.

    The extraction prints "2.6 A. 2.7 A. 2.8 A." first and then the three articles' texts,
    each opening with its title; split that text at the titles.
    """
    result = list(clauses)
    index = 0
    while index < len(result):
        run_end = index
        while run_end < len(result) and not result[run_end].text:
            run_end += 1
        if run_end == index or run_end == len(result):
            index += 1
            continue
        stacked = result[index : run_end + 1]
        titles = [clause.title for clause in stacked]
        # The last clause got the text of all of them, starting with the first one's title.
        text = stacked[-1].text
        if not text.lower().startswith(titles[0].lower()):
            index = run_end + 1
            continue
        pieces = []
        for position, title in enumerate(titles):
            begin = text.lower().index(title.lower()) + len(title)
            end = text.lower().index(titles[position + 1].lower(), begin) if position + 1 < len(titles) else len(text)
            pieces.append(text[begin:end].strip())
            text = text[end:]
        for offset, piece in enumerate(pieces):
            clause = stacked[offset]
            result[index + offset] = Clause(clause.article, clause.letter, clause.title, piece)
        index = run_end + 1
    return result


@cache
def rulebook_clauses() -> tuple[Clause, ...]:
    return tuple(parse_clauses(read_text()))


@cache
def rulebook_refs() -> frozenset[str]:
    """Every citable reference: clause refs ("6.4.30 A") and article numbers ("6.4.30")."""
    clauses = rulebook_clauses()
    return frozenset(clause.ref for clause in clauses) | frozenset(clause.article for clause in clauses)
