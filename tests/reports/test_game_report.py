"""The official game report (4.2 O, 4.3, 4.4): rendered from real data when a game becomes final and again after
an audited amendment, read back with pdftotext; the old version is never served as current."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.finalize import sheet_amend
from games.models import GameReportRequest, ReportStatus
from reports.models import Document, DocumentKind, DocumentStatus
from tests.games.sheet_helpers import entry
from tournaments import services as results
from tournaments.models import GoalRecord

from .helpers import AFTER_GAME, flat, pdf_subject, pdf_text, report_log, signed_sheet_game, staff_result_game

pytestmark = pytest.mark.django_db


def _current(game) -> Document:
    return Document.objects.filter(kind=DocumentKind.GAME_REPORT, object_id=game.pk).latest("requested_at", "pk")


def test_a_signed_sheet_game_gets_its_report_with_every_goal_penalty_signature_and_the_version(
    director, django_capture_on_commit_callbacks, tmp_path
):
    with django_capture_on_commit_callbacks(execute=True):
        game, _ = signed_sheet_game(director)
    document = _current(game)
    assert document.status == DocumentStatus.DONE, document.error
    assert document.pages == 1  # a normal game is one A4 page
    pdf = document.file.read()
    text = flat(pdf_text(pdf, tmp_path))

    assert "OFFICIAL GAME REPORT" in text
    assert f"Game {game.number}" in text and game.championship.name in text
    # Home team first (4.3 A), the result and how it was decided.
    assert f"{game.home.name} 3 – 2 {game.away.name}" in text
    assert "decided in regulation time (1.2 A)" in text
    # Every goal (period, time, scorer with number, assist, strength, running score); every penalty (number,
    # player, infraction, article, minutes, when it was served); saves per goalkeeper per period.
    assert not _missing(
        text,
        game,
        "P1 5:00 {home} #8 {h8} #9 {h9} EQ 1-0",
        "P1 7:00 {home} #10 {h10} #3 {h3} PP 2-0",
        "P2 3:00 {away} #15 {a15} #13 {a13} EQ 2-1",
        "P2 9:00 {home} #6 {h6} - SH 3-1",
        "P2 15:00 {away} #19 {a19} - SH 3-2",
        "P1 6:00 {away} #14 {p14} Tripping (6.4.33 A) Minor 2 P1 6:00-7:00 (ended by goal, 6.2.1 B)",
        "P2 8:00 {home} #4 {p4} High Sticks (6.4.21 C) Double minor 4 P2 8:00-10:00; P2 10:00-12:00",
        "P2 12:00 {away} #16 {p16} Slashing (6.4.30 B) Major 5 P2 12:00-17:00",
        "P2 12:00 {away} #16 {p16} With the major (6.1.3 B) Game misconduct 10",
        "{home} #1 {g1} 1 1 2",
        "{away} #31 {g31} 1 0 1",
    )
    assert "Lead referee:" in text
    assert f"{_code(game.away)}: period 1 at 9:30" in text
    assert f"{_code(game.away)}'s captain, period 2 at 12:00" in text
    # Signatures with their time, and the version line.
    for role in ("Referee", "Official scorer", "Home captain", "Away captain"):
        assert re.search(rf"{role} .+ 2027-07-01 12:00 #{_sequence(game)}", text), role
    assert (
        f"This report shows: Game sheet version #{_sequence(game)} ({_sequence(game)} entries), final and signed"
        in text
    )
    assert f"data version {document.version[:16]}" in text
    assert pdf_subject(pdf, tmp_path).endswith(f"final and signed; data version {document.version}")
    # The sheet's hand-over to the report module (4.3 A) is rendered.
    assert GameReportRequest.objects.get(game=game).status == ReportStatus.RENDERED


HOME_NUMBERS = {*range(1, 12), 30}  # tests.engine.generators' HOME: players 2-11, goalkeepers 1 and 30


def _code(entry) -> str:
    """The team's short name in the report's tables: its federation's country code (ISO 3166 alpha-3)."""
    return entry.federation.country.alpha3


def _missing(text: str, game, *lines: str) -> list[str]:
    """The lines (``_line`` templates) the report's text does not have."""
    return [line for line in (_line(template, game) for template in lines) if line not in text]


def _sequence(game) -> int:
    return game.sheet.sequence


def _line(template: str, game) -> str:
    from .helpers import person_of

    names = {"home": _code(game.home), "away": _code(game.away)}
    for key in re.findall(r"\{([hapg])(\d+)\}", template):
        prefix, number = key
        side = "home" if prefix == "h" or (prefix in "pg" and int(number) in HOME_NUMBERS) else "away"
        names[f"{prefix}{number}"] = str(person_of(game, side, number))
    return template.format(**names)


def test_a_staff_entered_result_gets_its_report_from_the_summary_lines(
    director, django_capture_on_commit_callbacks, tmp_path
):
    with django_capture_on_commit_callbacks(execute=True):
        game = staff_result_game(director)
    document = _current(game)
    assert document.status == DocumentStatus.DONE, document.error
    text = flat(pdf_text(document.file.read(), tmp_path))
    assert f"{game.home.name} 2 – 1 {game.away.name}" in text
    assert not _missing(
        text,
        game,
        "P1 5:00 {home} #8 {h8} #9 {h9} EQ 1-0",
        "P2 7:00 {home} #10 {h10} - PP 2-0",
        "P2 15:00 {away} #15 {a15} - EQ 2-1",
        "P1 11:40 {home} #5 {p5} Roughing (6.4.34 A) - 2 not recorded",
        "P2 6:00 {away} #14 {p14} Tripping (6.4.33 A) - 2 not recorded",
        "{home} #1 {g1} 20 19 1",
    )
    assert "No signature: the result and summary were entered by the championship's staff" in text
    assert f"This report shows: Result entered by staff ({director}, 2027-07-01 12:00)" in text


def test_an_amended_sheet_gets_a_new_version_and_the_old_file_is_never_served_as_current(
    director, django_capture_on_commit_callbacks, client, tmp_path
):
    log = report_log()
    last_goal = next(e for e in log if e["type"] == "goal" and e["time"] == "15:00")
    with django_capture_on_commit_callbacks(execute=True):
        game, _ = signed_sheet_game(director, log=log)
    first = _current(game)
    assert first.status == DocumentStatus.DONE
    with django_capture_on_commit_callbacks(execute=True):
        sheet_amend(
            game=game,
            by=director,
            reason="Video review: the 15:00 goal was kicked in (6.4.11)",
            events=[entry("correction", voids=last_goal["id"])],
            now=AFTER_GAME,
        )
    second = _current(game)
    assert second.pk != first.pk and second.version != first.version
    assert second.status == DocumentStatus.DONE, second.error
    first.refresh_from_db()
    assert first.status == DocumentStatus.DONE and first.file.name != second.file.name  # kept, as it was

    text = flat(pdf_text(second.file.read(), tmp_path))
    assert f"{game.home.name} 3 – 1 {game.away.name}" in text
    assert "15:00" not in text.split("PENALTIES")[0]
    assert "amended 1 time" in text and "Video review: the 15:00 goal was kicked in" in text

    # The page, the download and the API all answer the new version only.
    page = client.get(reverse("reports:game-report", args=[game.pk])).content.decode()
    assert second.version[:16] in page.split("Earlier versions")[0]
    assert first.version[:16] in page.split("Earlier versions")[1]
    download = client.get(reverse("reports:game-report-pdf", args=[game.pk]))
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"
    assert b"".join(download.streaming_content) == second.file.open("rb").read()
    answer = client.get(reverse("reports-api:game-report", args=[game.pk])).json()
    assert (answer["id"], answer["version"], answer["status"]) == (second.pk, second.version, "done")
    assert GameReportRequest.objects.filter(game=game, status=ReportStatus.RENDERED).count() == 2


def test_an_amended_staff_result_gets_a_new_version(director, django_capture_on_commit_callbacks, tmp_path):
    with django_capture_on_commit_callbacks(execute=True):
        game = staff_result_game(director)
    first = _current(game)
    goal = GoalRecord.objects.get(game=game, period=2, time_tenths=9000)
    with django_capture_on_commit_callbacks(execute=True):
        results.result_amend(
            game=game, reason="Offside goal (5.5.11)", by=director, remove_goals=[goal], now=AFTER_GAME
        )
    second = _current(game)
    assert second.version != first.version and second.status == DocumentStatus.DONE
    text = flat(pdf_text(second.file.read(), tmp_path))
    assert f"{game.home.name} 2 – 0 {game.away.name}" in text
    assert "amended 1 time" in text and "Offside goal (5.5.11)" in text


def test_a_change_made_without_an_amendment_is_picked_up_when_the_report_is_read(
    director, django_capture_on_commit_callbacks, client
):
    """A summary line entered after the result (a penalty staff forgot) changes the data: the page asks for the
    new version and does not offer the old file as the report."""
    with django_capture_on_commit_callbacks(execute=True):
        game = staff_result_game(director)
    first = _current(game)
    from .helpers import person_of

    results.penalty_add(
        game=game, entry=game.home, person=person_of(game, "home", 7), infraction_code="hooking", minutes=2,
        period=2, time_tenths=100, by=director, now=AFTER_GAME,
    )  # fmt: skip
    page = client.get(reverse("reports:game-report", args=[game.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    assert "Download the official game report" not in body and 'data-refresh="2"' in body
    assert client.get(reverse("reports:game-report-pdf", args=[game.pk])).status_code == 302
    assert client.get(reverse("reports-api:game-report-pdf", args=[game.pk])).status_code == 409
    assert _current(game).pk != first.pk and _current(game).status == DocumentStatus.QUEUED


def test_a_game_decided_by_shoot_out_lists_every_attempt(director, django_capture_on_commit_callbacks, tmp_path):
    """1.3 B, E; R-40: tied after regulation and the sudden-death overtime, decided by the shoot-out."""
    from tests.factories import PhaseFactory
    from tournaments.models import PhaseKind

    from .helpers import played_game, post_log, sign_all

    game, scorer = played_game(director)
    game.phase = PhaseFactory(championship=game.championship, kind=PhaseKind.ELIMINATION, name="Quarter-finals")
    game.pool = None
    game.save(update_fields=["phase", "pool"])
    shots = [("home", 8, True), ("away", 15, False), ("home", 9, False), ("away", 16, True)]
    shots += [("home", 10, False), ("away", 17, False), ("away", 18, False), ("home", 3, True)]  # second starts
    log = [
        entry("period_start", period=1),
        entry("goal", period=1, time="5:00", team="home", player=8),
        entry("clock_start", period=1, time="5:00"),
        entry("period_end", period=1, time="20:00"),
        entry("period_start", period=2),
        entry("goal", period=2, time="3:00", team="away", player=15),
        entry("clock_start", period=2, time="3:00"),
        entry("period_end", period=2, time="20:00"),
        entry("period_start", period=3),
        entry("period_end", period=3, time="10:00"),
        *(entry("shootout_attempt", team=team, player=player, scored=scored) for team, player, scored in shots),
    ]
    with django_capture_on_commit_callbacks(execute=True):
        post_log(game, scorer, log)
        sign_all(game, scorer)
    game.refresh_from_db()
    assert (game.decided_in, game.shootout_home_goals, game.shootout_away_goals) == ("shootout", 2, 1)
    document = _current(game)
    assert document.status == DocumentStatus.DONE, document.error
    text = flat(pdf_text(document.file.read(), tmp_path))
    assert f"{game.home.name} 1 – 1 {game.away.name} · shoot-out 2–1 · decided by shoot-out (1.3 E," in text
    assert f"winner: {game.home.name}" in text
    assert not _missing(
        text,
        game,
        *(
            f"{n} {{{side}}} #{number} {{{'h' if side == 'home' else 'a'}{number}}} {'goal' if scored else 'no goal'}"
            for n, (side, number, scored) in enumerate(shots, start=1)
        ),
    )
