"""Helpers of the documents' tests: a played and signed sheet game, a staff-entered result, the PDF's text."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from tests.games.endgame_helpers import AFTER_GAME, played_game, post_log, sign_all
from tests.games.sheet_helpers import entry
from tournaments import services as results
from tournaments.models import RosterEntry


def _poppler(tool: str) -> str:
    """The path of a poppler-utils tool; skip without it (fail under `make test`, which installs it)."""
    path = shutil.which(tool)
    if path is None:
        reason = f"{tool} (poppler-utils) is not installed: make test installs it (scripts/pdf-tools)"
        if os.environ.get("PORTAL_TESTS_STRICT") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return path


def _run(tool: str, data: bytes, tmp_path, *args: str) -> str:
    path = tmp_path / "document.pdf"
    path.write_bytes(data)
    return subprocess.run(
        [_poppler(tool), *args, str(path), *(["-"] if tool == "pdftotext" else [])],
        check=True, capture_output=True, text=True, timeout=30,
    ).stdout  # fmt: skip


def pdf_text(data: bytes, tmp_path) -> str:
    """The PDF's text as pdftotext extracts it, in reading order (-layout)."""
    return _run("pdftotext", data, tmp_path, "-layout")


def pdf_raw_text(data: bytes, tmp_path) -> str:
    """The PDF's text in the order it was drawn (-raw): a table cell's wrapped lines stay together, where -layout
    interleaves them with the lines of the cells beside it."""
    return _run("pdftotext", data, tmp_path, "-raw")


def pdf_subject(data: bytes, tmp_path) -> str:
    """The PDF's Subject metadata (pdfinfo), where a document says which version of its data it shows."""
    info = _run("pdfinfo", data, tmp_path)
    return next((line.split(":", 1)[1].strip() for line in info.splitlines() if line.startswith("Subject:")), "")


def report_log() -> list[dict]:
    """Home 3-2: an assisted goal, a power-play goal, a shorthanded goal; a minor, a double minor, a major with its
    game misconduct (6.1.3 B); a time-out; an on-rink protest by away's captain (9.1 A); shots and saves."""
    return [
        entry("period_start", period=1),
        entry("goal", period=1, time="5:00", team="home", player=8, assist=9),
        entry("clock_start", period=1, time="5:00"),
        entry("penalty", period=1, time="6:00", team="away", player=14, penalty="minor", infraction="tripping"),
        entry("clock_start", period=1, time="6:00"),
        entry("goal", period=1, time="7:00", team="home", player=10, assist=3),
        entry("clock_start", period=1, time="7:00"),
        entry("shot", period=1, time="9:00", team="home", player=3),
        entry("clock_stop", period=1, time="9:30"),
        entry("timeout", period=1, time="9:30", team="away"),
        entry("clock_start", period=1, time="9:30"),
        entry("shot", period=1, time="11:00", team="away", player=17),
        entry("period_end", period=1, time="20:00"),
        entry("period_start", period=2),
        entry("goal", period=2, time="3:00", team="away", player=15, assist=13),
        entry("clock_start", period=2, time="3:00"),
        entry(
            "penalty", period=2, time="8:00", team="home", player=4, penalty="double_minor", infraction="high_sticks"
        ),
        entry("clock_start", period=2, time="8:00"),
        entry("goal", period=2, time="9:00", team="home", player=6),
        entry("clock_start", period=2, time="9:00"),
        entry("shot", period=2, time="10:00", team="away", player=18),
        entry("penalty", period=2, time="12:00", team="away", player=16, penalty="major", infraction="slashing_major"),
        entry("protest", period=2, time="12:00", team="away"),
        entry("clock_start", period=2, time="12:00"),
        entry("goal", period=2, time="15:00", team="away", player=19),
        entry("clock_start", period=2, time="15:00"),
        entry("period_end", period=2, time="20:00"),
    ]


def signed_sheet_game(director, *, log=None, **kwargs):
    """A sheet game played with ``report_log`` and signed by the referees, the scorer and both captains."""
    game, scorer = played_game(director, **kwargs)
    post_log(game, scorer, log or report_log())
    sign_all(game, scorer)
    game.refresh_from_db()
    return game, scorer


def person_of(game, side, number):
    team = game.home if side == "home" else game.away
    return RosterEntry.objects.get(entry=team, number=str(number)).person


def staff_result_game(director):
    """A game whose result and summary the championship's director entered (no sheet): 2-1, two penalties."""
    game, _ = played_game(director, scorer=False)
    now = AFTER_GAME
    scorer, assist = person_of(game, "home", 8), person_of(game, "home", 9)
    results.goal_add(
        game=game, entry=game.home, scorer=scorer, assist=assist, period=1, time_tenths=3000, by=director, now=now
    )
    results.goal_add(
        game=game, entry=game.home, scorer=person_of(game, "home", 10), period=2, time_tenths=4200,
        power_play=True, by=director, now=now,
    )  # fmt: skip
    results.goal_add(
        game=game, entry=game.away, scorer=person_of(game, "away", 15), period=2, time_tenths=9000, by=director, now=now
    )
    results.penalty_add(
        game=game, entry=game.away, person=person_of(game, "away", 14), infraction_code="tripping", minutes=2,
        period=2, time_tenths=3600, gives_power_play=True, by=director, now=now,
    )  # fmt: skip
    results.penalty_add(
        game=game, entry=game.home, person=person_of(game, "home", 5), infraction_code="roughing", minutes=2,
        period=1, time_tenths=7000, by=director, now=now,
    )  # fmt: skip
    results.goalkeeper_record_set(
        game=game, entry=game.home, goalkeeper=person_of(game, "home", 1), shots_against=20, saves=19,
        goals_against=1, by=director, now=now,
    )  # fmt: skip
    results.game_record_result(game=game, home_goals=2, away_goals=1, by=director, now=now)
    game.refresh_from_db()
    return game


def flat(text: str) -> str:
    """The PDF's text with every run of white space made one space: table cells read as one line, and a line the
    page wrapped reads unwrapped, a break after a word's own hyphen ("shoot-" / "out") included."""
    return " ".join(re.sub(r"-[ \t]*\n\s*", "-", text).split())


def rendered(kind: str, obj, *, language: str | None = None):
    """Render ``obj``'s current document of ``kind`` (in ``language``) now, as the worker does, and return its row,
    done."""
    from reports import services
    from reports.models import DocumentStatus

    document = services.document_current(kind, obj, language=language)
    services.document_render(document.pk)
    document.refresh_from_db()
    assert document.status == DocumentStatus.DONE, document.error
    return document


def rendered_text(kind: str, obj, tmp_path, *, raw: bool = False, language: str | None = None) -> str:
    """The text of ``obj``'s current document of ``kind``, rendered now, as ``flat`` reads it (``raw``: in the order
    it was drawn, ``pdf_raw_text``)."""
    document = rendered(kind, obj, language=language)
    with document.file.open("rb") as stored:
        data = stored.read()
    return flat(pdf_raw_text(data, tmp_path) if raw else pdf_text(data, tmp_path))


def page_images(data: bytes, folder) -> list[bytes]:
    """Every page of the PDF as a 50 dpi greyscale image (pdftoppm's PGM bytes), first page first."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "document.pdf"
    path.write_bytes(data)
    subprocess.run(
        [_poppler("pdftoppm"), "-r", "50", "-gray", str(path), str(folder / "page")],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return [page.read_bytes() for page in sorted(folder.glob("page*.pgm"))]
