"""The documents' admin: superusers and the IHTC executive only; read only; its retry action asks the kind's retry
rule again for each document and skips those it refuses."""

from __future__ import annotations

import dataclasses

import pytest
from django.urls import reverse

from accounts.models import Role
from reports import services
from reports.models import Document, DocumentKind, DocumentStatus
from tests.factories import (
    RosterEntryFactory,
    SuperuserFactory,
    TeamEntryFactory,
    UserFactory,
    federation_staff,
    international_staff,
    with_role,
)

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:reports_document_changelist")


def _failed(entry) -> Document:
    document = services.document_current(DocumentKind.ROSTER, entry)
    document.status, document.error = DocumentStatus.FAILED, "The render took longer than 30 s and was stopped."
    document.save(update_fields=["status", "error"])
    return document


@pytest.fixture
def entry():
    entry = TeamEntryFactory()
    RosterEntryFactory(entry=entry, number="9")
    return entry


@pytest.fixture
def executive():
    return with_role(Role.IHTC_EXECUTIVE, is_staff=True)


def test_only_superusers_and_the_executive_see_the_documents(client, entry, executive):
    document = _failed(entry)
    change = reverse("admin:reports_document_change", args=[document.pk])
    for user, want in [
        (SuperuserFactory(), 200),
        (executive, 200),
        (international_staff(), 403),
        (federation_staff(entry.federation), 403),
    ]:
        client.force_login(user)
        assert client.get(CHANGELIST).status_code == want, user
        assert client.get(change).status_code == want, user
    client.force_login(UserFactory())
    assert client.get(CHANGELIST)["Location"].startswith(reverse("admin:login"))


def test_nothing_is_added_changed_deleted_or_downloaded_from_the_admin(client, entry, executive):
    document = services.document_current(DocumentKind.ROSTER, entry)
    client.force_login(SuperuserFactory())
    assert client.get(reverse("admin:reports_document_add")).status_code == 403
    assert client.get(reverse("admin:reports_document_delete", args=[document.pk])).status_code == 403
    page = client.get(reverse("admin:reports_document_change", args=[document.pk])).content.decode()
    # The document's page (the kind's access check), not its stored file.
    assert reverse("reports:roster-sheet", args=[entry.pk]) in page
    assert "documents/roster/" not in page and 'type="submit" value="Save' not in page
    assert document.version[:12] in client.get(CHANGELIST).content.decode()
    # Searched by the object's id or the beginning of the version; a word that is neither finds nothing.
    assert document.version[:12] in client.get(CHANGELIST, {"q": str(entry.pk)}).content.decode()
    assert document.version[:12] in client.get(CHANGELIST, {"q": document.version[:16]}).content.decode()
    assert document.version[:12] not in client.get(CHANGELIST, {"q": "nothing"}).content.decode()


def _render_again(client, *documents):
    return client.post(
        CHANGELIST,
        {"action": "render_again", "_selected_action": [d.pk for d in documents], "index": 0},
        follow=True,
    )


def test_the_executive_queues_failed_renders_again(client, entry, executive):
    document = _failed(entry)
    done = services.document_current(DocumentKind.ROSTER, TeamEntryFactory())
    client.force_login(executive)
    answer = _render_again(client, document, done).content.decode()
    document.refresh_from_db()
    assert document.status == DocumentStatus.QUEUED and document.error == ""
    assert "1 document queued to render again." in answer
    assert "1 selected document had not failed" in answer


def test_the_action_asks_the_kinds_retry_rule_for_each_document_and_skips_those_it_refuses(
    client, entry, executive, monkeypatch
):
    refused = _failed(entry)
    gone = _failed(TeamEntryFactory())
    Document.objects.filter(pk=gone.pk).update(object_id=10**9)  # its entry is gone
    asked = []

    def only_the_gone(user, obj):
        asked.append((user, obj))
        return False

    roster = dataclasses.replace(services.KINDS[DocumentKind.ROSTER], can_retry=only_the_gone)
    monkeypatch.setitem(services.KINDS, DocumentKind.ROSTER, roster)
    client.force_login(executive)
    answer = _render_again(client, refused, gone).content.decode()
    assert asked == [(executive, entry)]
    assert "Not queued again:" in answer and "does not exist" in answer
    assert "team managers and its federation" in answer and "render a failed roster sheet again" in answer
    assert set(Document.objects.values_list("status", flat=True)) == {DocumentStatus.FAILED}
