"""A championship's pool standings (9.3) and statistics (4.3 A, 4.6 note, 8.1 B-D) as PDFs, read back with pdftotext.

From the demo data: every pool's rows with their points and every tie-break explanation line, every leader with
his figures, the goalkeepers and the penalty minutes. From factories: a tie broken head-to-head (9.3 C) said in
the PDF, and new results make a new version (the old file is not served as current).
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from reports import services
from reports.models import DocumentKind, DocumentStatus
from tests.factories import GameFactory, PhaseFactory, PoolFactory, PoolTeamFactory
from tournaments.models import Championship, EntryStatus, Game, GameStatus, Pool
from tournaments.selectors import championship_standings, championship_statistics, leader_tables

from .helpers import flat, pdf_subject, pdf_text, rendered, rendered_text


def _row(row) -> re.Pattern:
    """A standings row as the PDF reads it: position, team, GP W T L FF GF GA GD Pts; a disqualified team's mark
    (8.1 D) or a shoot-out still needed (9.3 G) on the team's second line, after the row's first line."""
    figures = (row.played, row.wins, row.ties, row.losses, row.forfeits, row.goals_for, row.goals_against)
    numbers = " ".join(str(n) for n in (*figures, row.goal_difference, row.points))
    pattern = rf"(?<![\d.]){row.position} {re.escape(row.team)} {numbers}(?!\d)"
    if row.disqualified:
        pattern += r"[^·]{0,120}? Disqualified \(8\.1 D\)"
    elif row.needs_shootout:
        pattern += r"[^·]{0,120}? Shoot-out needed \(9\.3 G\)"
    return re.compile(pattern)


def _player(rank: int, name: str, p) -> str:
    return f"{rank} {name} {p.team} {p.games} {p.goals} {p.assists} {p.points} {p.penalty_minutes}"


def _one_decimal(value) -> str:
    return "–" if value is None else f"{value:.1f}"


@pytest.mark.django_db
class TestTheChampionshipDocumentsOfTheDemo:
    def test_the_standings_have_every_pools_rows_with_points_and_every_tie_break_line(self, demo, tmp_path):
        championships = Championship.objects.filter(pk__in=Pool.objects.values("championship"))
        assert championships.exists()
        rows = lines = 0
        for championship in championships:
            text = rendered_text(DocumentKind.STANDINGS, championship, tmp_path)
            assert "POOL STANDINGS" in text and "data version" in text
            for table in championship_standings(championship):
                state = "FINAL: EVERY GAME PLAYED" if table.finished else "PROVISIONAL:"
                assert f"POOL {table.pool.name.upper()} · {state}" in text, (championship, table.pool)
                for row in table.standings.rows:
                    assert _row(row).search(text), (championship, table.pool, row)
                    rows += 1
                for line in table.standings.explanations:
                    assert flat(line) in text, (championship, table.pool, line)
                    lines += 1
        assert rows >= 4 and lines >= 1, (rows, lines)

    def test_the_statistics_have_the_leaders_goalkeepers_and_penalty_minutes(self, demo, tmp_path):
        championships = Championship.objects.filter(
            pk__in=Game.objects.filter(status=GameStatus.FINAL).values("championship")
        )
        assert championships.exists()
        players = keepers = 0
        for championship in championships:
            text = rendered_text(DocumentKind.STATISTICS, championship, tmp_path)
            stats = championship_statistics(championship)
            tables = leader_tables(stats)
            for key, title in (("points", "POINTS"), ("goals", "GOALS"), ("assists", "ASSISTS"),
                               ("penalty_minutes", "PENALTY MINUTES")):  # fmt: skip
                assert title in text
                for rank, (p, person) in enumerate(tables[key], start=1):
                    assert _player(rank, str(person), p) in text, (championship, key, p)
                    players += 1
            for g, person in tables["goalkeepers"]:
                figures = f"{g.games} {g.shots_against} {g.saves} {g.goals_against} {_one_decimal(g.save_percentage)}"
                assert f"{person} {g.team} {figures} {_one_decimal(g.goals_against_average)}" in text, g
                keepers += 1
            for t in tables["teams"]:
                assert f"{t.team} {t.power_plays} {t.power_play_goals} {_one_decimal(t.power_play_percentage)}" in text
            if stats.roster_games:
                assert f"{stats.roster_games} team game" in text and "count for the team's whole roster" in text
        assert players >= 10 and keepers >= 2, (players, keepers)


# --- a tie broken head-to-head, from factories --------------------------------------------------------------------


def _pool_of_four():
    """A, B, C, D: A and B win twice each (A beat B), C and D once each (D beat C): two ties broken by 9.3 C; E
    is disqualified (8.1 D) before its first game. D-C is still to play."""
    pool = PoolFactory()
    a, b, c, d = (PoolTeamFactory(pool=pool, seed=n).entry for n in range(1, 5))
    PoolTeamFactory(pool=pool, seed=5, entry__status=EntryStatus.DISQUALIFIED)
    phase = PhaseFactory(championship=pool.championship)
    scores = [(a, b, 3, 1), (a, c, 0, 2), (a, d, 4, 0), (b, c, 5, 1), (b, d, 2, 0), (c, d, 1, 2)]
    games = [
        GameFactory(
            championship=pool.championship, phase=phase, pool=pool, home=home, away=away, status=GameStatus.FINAL,
            home_goals=h, away_goals=v, decided_in="regulation", finalized_at=timezone.now(),
        )
        for home, away, h, v in scores[:-1]
    ]  # fmt: skip
    home, away, _, _ = scores[-1]
    last = GameFactory(championship=pool.championship, phase=phase, pool=pool, home=home, away=away)
    return pool, (a, b, c, d), games, last


@pytest.mark.django_db
def test_a_tie_broken_head_to_head_is_explained_in_the_pdf_and_new_results_make_a_new_version(client, tmp_path):
    pool, (a, b, c, d), games, last = _pool_of_four()
    championship = pool.championship
    (table,) = championship_standings(championship)
    assert table.standings.order[:2] == (a.name, b.name)
    assert table.standings.row(a.name).decided_by.startswith("9.3 C")
    first = rendered(DocumentKind.STANDINGS, championship)
    statistics = services.document_current(DocumentKind.STATISTICS, championship)
    assert first.version_label == f"Standings after 5 of 6 games, last final game #{max(g.number for g in games)}"
    with first.file.open("rb") as stored:
        data = stored.read()
    text = flat(pdf_text(data, tmp_path))
    assert pdf_subject(data, tmp_path) == f"{first.version_label}; data version {first.version}"
    assert f"POOL {pool.name} · PROVISIONAL: 5 OF 6 GAMES FINAL" in text  # the headings are in capitals
    for row in table.standings.rows:
        assert _row(row).search(text), row
    for line in table.standings.explanations:
        assert flat(line) in text, line
    assert any("9.3 C: head-to-head" in line for line in table.standings.explanations)
    assert any(line.startswith("8.1 D") for line in table.standings.explanations)
    assert table.standings.rows[-1].disqualified
    assert client.get(reverse("reports:standings-report-pdf", args=[championship.pk])).status_code == 200

    # D beats C: the last game is final, the pool is finished and the table changes; the old file is not current.
    Game.objects.filter(pk=last.pk).update(
        status=GameStatus.FINAL, home_goals=1, away_goals=2, decided_in="regulation", finalized_at=timezone.now()
    )
    current = services.document_current(DocumentKind.STANDINGS, championship)
    assert current.pk != first.pk and current.version != first.version
    assert current.status == DocumentStatus.QUEUED
    answer = client.get(reverse("reports:standings-report-pdf", args=[championship.pk]))
    assert answer.status_code == 302 and answer["Location"] == reverse(
        "reports:standings-report", args=[championship.pk]
    )
    assert client.get(reverse("reports-api:standings-report-pdf", args=[championship.pk])).status_code == 409
    state = client.get(reverse("reports-api:standings-report", args=[championship.pk])).json()
    assert (state["championship"], state["version"], state["download"]) == (championship.pk, current.version, None)
    text = rendered_text(DocumentKind.STANDINGS, championship, tmp_path)
    assert f"POOL {pool.name} · FINAL: EVERY GAME PLAYED" in text
    (table,) = championship_standings(championship)
    for line in table.standings.explanations:
        assert flat(line) in text, line
    assert services.previous_documents(current) == [first]
    now = services.document_current(DocumentKind.STATISTICS, championship)
    assert now.version != statistics.version and now.version_label.startswith("Statistics after 6 of 6 games")


@pytest.mark.django_db
def test_a_draft_championships_documents_are_not_found_by_the_public(client):
    pool, *_ = _pool_of_four()
    Championship.objects.filter(pk=pool.championship_id).update(published=False)
    for route in ("reports:standings-report", "reports:statistics-report", "reports-api:standings-report"):
        assert client.get(reverse(route, args=[pool.championship_id])).status_code == 404, route


@pytest.mark.django_db
def test_the_standings_and_leaders_pages_link_their_pdfs(client):
    pool, *_ = _pool_of_four()
    pk = pool.championship_id
    standings = client.get(reverse("tournaments:standings", args=[pk])).content.decode()
    assert f'href="{reverse("reports:standings-report", args=[pk])}">Print the standings (PDF)' in standings
    leaders = client.get(reverse("tournaments:leaders", args=[pk])).content.decode()
    assert f'href="{reverse("reports:statistics-report", args=[pk])}">Print the statistics (PDF)' in leaders
    page = client.get(reverse("reports:statistics-report", args=[pk])).content.decode()
    assert "Championship statistics — " in page and reverse("tournaments:leaders", args=[pk]) in page
