"""Every document rendered from the demo data (``manage.py demo``), read back with pdftotext: the facts are there.

One demo world is built for the class (rolled back afterwards); each document is rendered as the worker renders it
(``reports.services.document_render``) and its text compared with the records it was made from.
"""

from __future__ import annotations

import re

import pytest

from games.engine.events import format_time
from games.models import SheetSignature
from reports.models import DocumentKind
from tournaments.models import Game, GameStatus, GoalRecord, PenaltyRecord

from .helpers import rendered_text

# How the report names each role a signature is made in (4.2 O, 4.3 A).
_SIGNED_AS = {
    "referee": "Referee",
    "scorer": "Official scorer",
    "home_captain": "Home captain",
    "away_captain": "Away captain",
    "home_coach": "Home coach",
    "away_coach": "Away coach",
}


def _line(period: int, tenths: int, who: str) -> re.Pattern:
    """A goal's or a penalty's line: its period and time on the game clock, a team code, the player."""
    period_label = "OT" if period > 2 else str(period)
    return re.compile(rf"P?{period_label} {re.escape(format_time(tenths))} [A-Z]{{3}} (#\d+ |bench )?{re.escape(who)}")


@pytest.mark.django_db
class TestTheDemoDocuments:
    def test_every_final_game_report_has_every_goal_and_every_penalty_with_minutes_and_article(self, demo, tmp_path):
        from games.engine.penalty_index import get_infraction

        games = list(Game.objects.filter(status=GameStatus.FINAL).select_related("home", "away", "championship__venue"))
        assert len(games) >= 6
        goals = penalties = 0
        signed: dict[int, set[str]] = {}
        for game in games:
            text = rendered_text(DocumentKind.GAME_REPORT, game, tmp_path)
            assert f"{game.home.name} {game.home_goals} – {game.away_goals} {game.away.name}" in text, game
            for goal in GoalRecord.objects.filter(game=game).select_related("scorer"):
                if game.decided_in == "forfeit":
                    continue  # 8.1 B: the forfeit's 1-0 is said as such, with no scorer's line
                assert _line(goal.period, goal.time_tenths, str(goal.scorer)).search(text), (game, goal)
                goals += 1
            for penalty in PenaltyRecord.objects.filter(game=game).select_related("person"):
                line = get_infraction(penalty.infraction_code)
                who = str(penalty.person) if penalty.person else "Bench"
                found = re.search(
                    _line(penalty.period, penalty.time_tenths, who).pattern
                    + rf" .*?\({re.escape(line.article)}\) \S+ {penalty.minutes} ",
                    text,
                )
                assert found, (game, penalty)
                penalties += 1
            assert "SIGNATURES (4.2 O, 4.3 A)" in text and "data version" in text
            zone = game.championship.venue.zone
            for signature in SheetSignature.objects.filter(sheet__game=game):
                # Its line: the role it was signed as, the name as signed, the time (venue time), the sheet's version.
                at = signature.signed_at.astimezone(zone).strftime("%Y-%m-%d %H:%M")
                line = (
                    rf"{_SIGNED_AS[signature.role]} {re.escape(signature.name)} {re.escape(at)} #{signature.sequence}\b"
                )
                assert re.search(line, text), (game, signature)
                signed.setdefault(game.pk, set()).add(signature.role)
        assert goals >= 20 and penalties >= 4, (goals, penalties)
        # The demo has a game played on the live sheet to its end and signed by the referees, the official scorer
        # and both captains (4.2 O, 4.3 A).
        assert signed, "no demo game with signatures"
        assert any({"referee", "scorer", "home_captain", "away_captain"} <= roles for roles in signed.values()), signed
