"""Every kind of document in English, French and Spanish (issue 26), read back with pdftotext: the reader's
language throughout, no English sentence but the line that says the English text is authoritative (in every
language) and people's own words; the language is part of the document's row and file."""

from __future__ import annotations

import os
import re

import pytest

from discipline.models import Case, CaseStatus, Protest, ProtestStatus, Suspension
from reports.models import Document, DocumentKind
from tournaments.models import Championship, Game, GameStatus, Pool, TeamEntry

from .helpers import rendered_text

AUTHORITATIVE = {
    "en": "The English text is authoritative.",
    "fr": "Le texte anglais fait foi.",
    "es": "El texto en inglés es el auténtico.",
}
PAGE_OF = {"en": r"Page 1 of \d", "fr": r"Page 1 sur \d", "es": r"Página 1 de \d"}
# Sentences of the documents' own words: one of each language must be there, and no English one in another.
ENGLISH = [
    "This document shows:",
    "This letter shows:",
    "This sheet shows:",
    "This list shows:",
    "data version",
    "Dear team manager",
    "The English text is authoritative.",
    # The documents' data said in the reader's language (issue 26): the letters' and the report's own words.
    "in regulation time",
    "Result entered by staff",
    "final and signed",
    "more games to serve",
    "more game to serve",
    "This decision may be appealed",
    "No appeal deadline is set",
    "in force; last change",
    "(venue time)",
]


def _objects():
    """One object of each kind of document in the demo world."""
    game = Game.objects.filter(status=GameStatus.FINAL).order_by("pk").first()
    with_pools = Championship.objects.filter(pk__in=Pool.objects.values("championship")).order_by("pk").first()
    suspended = Suspension.objects.select_related("championship").order_by("pk").first().championship
    return {
        DocumentKind.GAME_REPORT: game,
        DocumentKind.STANDINGS: with_pools,
        DocumentKind.STATISTICS: with_pools,
        DocumentKind.SUSPENSIONS: suspended,
        DocumentKind.ROSTER: TeamEntry.objects.order_by("pk").first(),
        DocumentKind.PROTEST_DECISION: Protest.objects.filter(status=ProtestStatus.REJECTED).order_by("pk").first(),
        DocumentKind.CASE_DECISION: Case.objects.filter(status=CaseStatus.DECIDED).order_by("pk").first(),
    }


@pytest.mark.django_db
class TestEveryDocumentInEveryLanguage:
    def test_each_kind_is_written_in_the_readers_language_and_says_english_is_authoritative(self, demo, tmp_path):
        dump = os.environ.get("DOCUMENT_TEXT_DUMP")
        for kind, obj in _objects().items():
            assert obj is not None, kind
            for language in ("en", "fr", "es"):
                text = rendered_text(kind, obj, tmp_path, language=language)
                if dump:
                    with open(os.path.join(dump, f"{kind}.{language}.txt"), "w") as out:
                        out.write(text)
                assert AUTHORITATIVE[language] in text, (kind, language)
                assert re.search(PAGE_OF[language], text), (kind, language)
                if language != "en":
                    english = [s for s in ENGLISH if s in text and s != AUTHORITATIVE["en"]]
                    assert not english, (kind, language, english)
            languages = Document.objects.filter(kind=kind, object_id=obj.pk).values_list("language", flat=True)
            assert sorted(languages) == ["en", "es", "fr"], kind
