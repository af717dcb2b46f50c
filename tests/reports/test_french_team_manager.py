"""A French team manager reads French (issue 26): his notifications on the page and by e-mail, the committee's
letter that suspends his player and the game's report, each asked for from his pages; the English text stays the
authoritative one, and the committee's reasons (its own words) are as written."""

from __future__ import annotations

import datetime
import html

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import Role
from discipline import cases
from discipline.models import IncidentReport
from discipline.services import receive_game_consequences
from reports import services
from reports.models import Document, DocumentKind
from tests.factories import GameFactory, RosterEntryFactory, game_consequence, with_role
from tournaments.models import DecidedIn, GameStatus

from .helpers import flat, pdf_text

DAY = datetime.timedelta(days=1)


def _document_text(client, route: str, kind: str, pk: int, tmp_path) -> str:
    """The document his page asks for (in his language), rendered as the worker renders it, as pdftotext reads it."""
    assert client.get(reverse(f"reports:{route}", args=[pk])).status_code == 200
    document = Document.objects.get(kind=kind, object_id=pk)
    assert document.language == "fr"
    services.document_render(document.pk)
    document.refresh_from_db()
    with document.file.open("rb") as stored:
        return flat(pdf_text(stored.read(), tmp_path))


@pytest.mark.django_db
def test_a_french_team_managers_notifications_letter_and_game_report_are_in_french(
    client, tmp_path, django_capture_on_commit_callbacks
):
    manager = with_role(Role.TEAM_MANAGER, email="gerant@example.org", language="fr")
    game = GameFactory(status=GameStatus.FINAL, home_goals=1, away_goals=0, decided_in=DecidedIn.REGULATION)
    game.home.managers.add(manager)
    player = RosterEntryFactory(entry=game.home).person
    at = game.start_at + datetime.timedelta(hours=2)
    committee = with_role(Role.DISCIPLINE_COMMITTEE)
    with django_capture_on_commit_callbacks(execute=True):
        receive_game_consequences(
            game=game, consequences=[game_consequence(game, player, infraction="kicking_opponent")], now=at
        )
        case = cases.open_case(reports=[IncidentReport.objects.get()], title="Kicking", by=committee, now=at)
        cases.decide_case(
            case=case, outcome="sanctions", reasons="The kick was deliberate.", by=committee, now=at + DAY,
            sanctions=[cases.Sanction(person_id=player.pk, kind="games", games=3, article="7.1")],
        )  # fmt: skip

    client.force_login(manager)  # no cookie: the language on his login is the page's (portal.middleware)
    page = html.unescape(client.get(reverse("notifications")).content.decode())
    assert f"{player} est suspendu(e)" in page
    assert "Règle 7.1 : pénalité de match, le reste du tournoi jusqu'à la décision de la commission" in page
    assert "is suspended" not in page and "Rule 7.1" not in page
    letters = [m for m in mail.outbox if m.to == ["gerant@example.org"]]
    assert letters and all(m.subject.startswith("Suspension : ") for m in letters), [m.subject for m in letters]
    assert any("suspension (provisoire)" in m.body for m in letters)
    assert not any("is suspended" in m.body or "suspended (" in m.body for m in letters)

    letter = _document_text(client, "case-decision-letter", DocumentKind.CASE_DECISION, case.pk, tmp_path)
    assert "Décision de la commission de discipline" in letter, letter[:600]
    assert "3 matchs" in letter and "Le texte anglais fait foi." in letter
    assert "The kick was deliberate." in letter  # the committee's own words, as written
    for english in ("This letter shows", "3 games", "more games to serve", "This decision may be appealed", "decided"):
        assert english not in letter, english

    report = _document_text(client, "game-report", DocumentKind.GAME_REPORT, game.pk, tmp_path)
    assert "FEUILLE DE MATCH OFFICIELLE" in report and "dans le temps réglementaire (1.2 A)" in report, report[:600]
    assert "Le texte anglais fait foi." in report
    for english in ("OFFICIAL GAME REPORT", "in regulation time", "This report shows", "Result entered by staff"):
        assert english not in report, english
