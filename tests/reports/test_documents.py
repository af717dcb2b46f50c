"""Stored documents: one row per (kind, object, data version), rendered once by an idempotent task that stores the
file whole or not at all; a render lost with its worker is run again."""

from __future__ import annotations

import datetime

import pytest
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from reports import services, tasks
from reports.models import Document, DocumentKind, DocumentStatus
from tests.factories import GameFactory
from tournaments import services as results

from .helpers import AFTER_GAME, person_of, rendered, rendered_text, staff_result_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(director):
    """A staff-entered final game whose report was not queued (its commit's callbacks did not run)."""
    return staff_result_game(director)


def _queued(game) -> Document:
    return services.document_current(DocumentKind.GAME_REPORT, game)


def test_one_data_version_has_one_document_row(game):
    first = _queued(game)
    assert _queued(game).pk == first.pk
    with pytest.raises(IntegrityError), transaction.atomic():
        Document.objects.create(kind=first.kind, object_id=game.pk, version=first.version, requested_at=timezone.now())


def test_the_render_is_queued_once_after_the_commit(game, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        _queued(game)
        _queued(game)
    assert len(callbacks) == 1


def test_rendering_twice_renders_once_and_stores_one_file(game):
    document = _queued(game)
    assert services.document_render(document.pk) == "done"
    document.refresh_from_db()
    stored = document.file.name
    assert services.document_render(document.pk) == "done"
    document.refresh_from_db()
    assert (document.file.name, document.attempts, document.status) == (stored, 1, DocumentStatus.DONE)
    folder = stored.rsplit("/", 1)[0]
    assert document.file.storage.listdir(folder)[1] == [stored.rsplit("/", 1)[1]]


def test_a_render_cut_off_by_a_killed_worker_is_done_again_and_leaves_no_partial_file(game):
    """The killed worker left the row rendering and a temporary file; the redelivered task finishes the job."""
    document = _queued(game)
    Document.objects.filter(pk=document.pk).update(
        status=DocumentStatus.RENDERING, attempts=1, started_at=timezone.now()
    )
    storage = document.file.storage
    final = document.file.field.generate_filename(document, f"{document.version[:24]}.pdf")
    partial = storage.save(f"{final}.partial-deadbeef", ContentFile(b"%PDF-1.7 half"))
    assert tasks.render_document.delay(document.pk).get() == "done"
    document.refresh_from_db()
    assert document.status == DocumentStatus.DONE and document.attempts == 2
    assert not storage.exists(partial)
    assert storage.listdir(final.rsplit("/", 1)[0])[1] == [final.rsplit("/", 1)[1]]
    assert document.file.open("rb").read().startswith(b"%PDF-")


def test_a_queued_version_whose_data_changed_is_superseded_by_the_current_one(
    game, director, django_capture_on_commit_callbacks
):
    old = _queued(game)
    results.penalty_add(
        game=game, entry=game.home, person=person_of(game, "home", 7), infraction_code="hooking", minutes=2,
        period=2, time_tenths=100, by=director, now=AFTER_GAME,
    )  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        assert services.document_render(old.pk) == "superseded"
    old.refresh_from_db()
    assert old.status == DocumentStatus.FAILED and old.error.startswith("Superseded") and not old.file
    current = Document.objects.exclude(pk=old.pk).get(object_id=game.pk)
    assert current.status == DocumentStatus.DONE


def test_a_failed_render_keeps_its_reason_and_the_director_queues_it_again(
    game, director, client, monkeypatch, django_capture_on_commit_callbacks
):
    document = _queued(game)
    monkeypatch.setattr(services, "render_pdf", _fails)
    assert services.document_render(document.pk) == "failed"
    document.refresh_from_db()
    assert document.status == DocumentStatus.FAILED and "took longer than" in document.error
    page = client.get(reverse("reports:game-report", args=[game.pk])).content.decode()
    # The public learns that it failed, not why, and cannot retry.
    assert "could not be rendered;" in page and "took longer" not in page and "Render it again" not in page
    assert client.get(reverse("reports-api:game-report", args=[game.pk])).json()["error"] == ""
    monkeypatch.undo()
    client.force_login(director)
    page = client.get(reverse("reports:game-report", args=[game.pk])).content.decode()
    assert "took longer than 30 s" in page and "Render it again" in page
    assert "took longer" in client.get(reverse("reports-api:game-report", args=[game.pk])).json()["error"]
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(reverse("reports:game-report-retry", args=[game.pk]))
    assert answer.status_code == 302
    document.refresh_from_db()
    assert document.status == DocumentStatus.DONE and document.attempts == 2


def _fails(html, **kwargs):
    raise services.RenderError("The render took longer than 30 s and was stopped.")


def test_beat_queues_again_the_documents_whose_render_was_lost(game, django_capture_on_commit_callbacks):
    document = _queued(game)
    long_ago = timezone.now() - datetime.timedelta(minutes=10)
    Document.objects.filter(pk=document.pk).update(requested_at=long_ago)
    assert services.stuck_document_ids() == [document.pk]
    assert tasks.requeue_stuck_documents.delay().get() == 1
    document.refresh_from_db()
    assert document.status == DocumentStatus.DONE
    assert services.stuck_document_ids() == []


def test_the_page_shows_the_progress_while_queued_then_the_download(game, client):
    document = _queued(game)
    page = client.get(reverse("reports:game-report", args=[game.pk])).content.decode()
    assert (
        '<noscript><meta http-equiv="refresh" content="2"></noscript>' in page
        and 'data-refresh="2"' in page
        and "<progress" in page
        and "is queued" in page
    )
    assert client.get(reverse("reports:game-report-pdf", args=[game.pk]))["Location"].endswith(
        reverse("reports:game-report", args=[game.pk])
    )
    api = client.get(reverse("reports-api:game-report", args=[game.pk])).json()
    assert (api["status"], api["download"]) == ("queued", None)
    refused = client.get(reverse("reports-api:game-report-pdf", args=[game.pk]), HTTP_ACCEPT="application/pdf")
    assert refused.status_code == 409
    assert refused.json() == {"detail": "The official game report of the current version is queued."}

    services.document_render(document.pk)
    page = client.get(reverse("reports:game-report", args=[game.pk])).content.decode()
    assert "http-equiv" not in page and "Download the official game report (PDF, 1 page" in page
    download = client.get(reverse("reports:game-report-pdf", args=[game.pk]))
    assert download["Content-Disposition"].startswith("attachment")
    assert download["Cache-Control"] == "private, no-store"
    api = client.get(reverse("reports-api:game-report", args=[game.pk])).json()
    assert api["status"] == "done" and api["download"].endswith(f"/api/v1/games/{game.pk}/report/pdf/")
    pdf = client.get(api["download"], HTTP_ACCEPT="application/pdf")
    assert pdf.status_code == 200 and b"".join(pdf.streaming_content).startswith(b"%PDF-")


def test_a_game_that_is_not_final_has_no_report(client):
    game = GameFactory()
    assert client.get(reverse("reports:game-report", args=[game.pk])).status_code == 404
    assert client.get(reverse("reports-api:game-report", args=[game.pk])).status_code == 404
    assert not Document.objects.exists()


def test_a_draft_championships_report_is_its_directors_only(game, director, client):
    game.championship.published = False
    game.championship.save(update_fields=["published"])
    assert client.get(reverse("reports:game-report", args=[game.pk])).status_code == 404
    assert client.get(reverse("reports-api:game-report-pdf", args=[game.pk])).status_code == 404
    client.force_login(director)
    assert client.get(reverse("reports:game-report", args=[game.pk])).status_code == 200


def test_beat_looks_for_lost_renders_every_minute_by_default(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["requeue-stuck-documents"]
    assert entry["task"] == tasks.requeue_stuck_documents.name == "reports.tasks.requeue_stuck_documents"
    assert entry["schedule"] == 60.0
    assert settings.REPORTS_STUCK_SECONDS > settings.REPORTS_RENDER_SECONDS  # never taken from a live render


def test_a_refused_retry_names_who_may_render_that_kind_again(director):
    from django.core.exceptions import PermissionDenied

    from tests.factories import TeamEntryFactory, UserFactory

    someone = UserFactory()
    game = staff_result_game(director)
    with pytest.raises(PermissionDenied, match="^Only the championship's directors render a failed official game"):
        services.check_can_retry(someone, DocumentKind.GAME_REPORT, game)
    services.check_can_retry(director, DocumentKind.GAME_REPORT, game)  # a director may
    with pytest.raises(PermissionDenied, match="^Only the entry's team managers and its federation's staff render"):
        services.check_can_retry(someone, DocumentKind.ROSTER, TeamEntryFactory())


def test_each_language_has_its_own_document_and_file(game, tmp_path):
    """Issue 12: a document is written in its reader's language; English stays the authoritative one."""
    english = rendered(DocumentKind.GAME_REPORT, game)
    spanish = rendered(DocumentKind.GAME_REPORT, game, language="es")
    assert (english.language, spanish.language) == ("en", "es")
    assert english.pk != spanish.pk and english.file.name != spanish.file.name
    assert services.previous_documents(spanish) == []
    # A language the site does not offer falls back to English.
    assert services.document_current(DocumentKind.GAME_REPORT, game, language="de").pk == english.pk
    text = rendered_text(DocumentKind.GAME_REPORT, game, tmp_path, language="es")
    # The labels are Spanish; the articles keep their numbers (4.2 O, 4.3).
    assert "Tiempo reglamentario" in text or "Árbitro" in text, text[:400]
    assert "4.3" in text


def test_the_page_asks_for_the_document_in_the_readers_language(client, game, settings):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    response = client.get(reverse("reports:game-report", args=[game.pk]))
    assert response.status_code == 200
    assert list(Document.objects.filter(object_id=game.pk).values_list("language", flat=True)) == ["fr"]
