"""The API answers in the caller's language (issue 26): ``Accept-Language`` picks it, refusals included.

The middleware reads the header (Django's ``LocaleMiddleware``, after the session's and before anything that says a
word); ``portal.api.exception_handler`` says a core's sentence (``common.text.Text``) and a service's message in that
language; DRF's own messages come from its catalogues. Articles and R-ids stay as cited; the fields' names do not
change. The schema documents the header on every operation.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from drf_spectacular.generators import SchemaGenerator

from accounts.models import Role
from tests.factories import ChampionshipFactory, TeamEntryFactory, client_for, with_role
from tests.tournaments.conftest import eligible_person
from tournaments.models import RosterEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager():
    entry = TeamEntryFactory(championship=ChampionshipFactory())
    user = with_role(Role.TEAM_MANAGER, entry.federation)
    entry.managers.add(user)
    return client_for(user), entry


def _add(client, entry, number, language=None):
    headers = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    body = {"entry": entry.pk, "person": eligible_person(entry.federation).pk, "number": number}
    return client.post("/api/v1/roster-entries/", body, format="json", **headers)


def test_the_locale_middleware_reads_the_header_after_the_session_and_before_the_answer_is_made():
    middleware = settings.MIDDLEWARE
    locale = middleware.index("django.middleware.locale.LocaleMiddleware")
    assert middleware.index("django.contrib.sessions.middleware.SessionMiddleware") < locale
    assert locale < middleware.index("django.middleware.common.CommonMiddleware")


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("fr", "Règle 3.2.9 C : les numéros vont de 1 à 99 sans zéro initial (« 7 », pas « 07 »)"),
        ("es-ES,es;q=0.9", "Regla 3.2.9 C: los números van del 1 al 99 sin cero inicial («7», no «07»)"),
        (None, 'Rule 3.2.9 C: numbers are 1-99 without a leading zero ("7", not "07")'),
    ],
)
def test_a_cores_refusal_is_answered_in_the_language_asked(manager, language, expected):
    client, entry = manager
    response = _add(client, entry, "07", language)
    assert response.status_code == 400
    assert response.json() == {"number": [expected]}
    assert response["Content-Language"] == (language or "en")[:2]
    assert not RosterEntry.objects.filter(entry=entry).exists()


def test_drfs_own_messages_are_answered_in_french(manager):
    client, entry = manager
    response = client.post("/api/v1/roster-entries/", {"entry": entry.pk}, format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 400
    assert response.json()["number"] == ["Ce champ est obligatoire."]


def test_a_refusal_of_permission_is_answered_in_spanish():
    client = client_for(with_role(Role.TEAM_MANAGER, TeamEntryFactory().federation))
    response = client.post("/api/v1/federations/", {}, format="json", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 403
    detail = response.json()["detail"]
    assert detail and "permission" not in detail.lower()  # DRF's English default is not what the caller reads


def test_the_schema_documents_accept_language_on_every_operation():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    operations = [op for item in schema["paths"].values() for op in item.values() if isinstance(op, dict)]
    assert operations
    for operation in operations:
        headers = [p for p in operation.get("parameters", []) if p["in"] == "header"]
        assert [p["name"] for p in headers].count("Accept-Language") == 1, operation["operationId"]
    parameter = next(p for p in operations[0]["parameters"] if p["name"] == "Accept-Language")
    assert "fr" in parameter["description"] and "es" in parameter["description"]
