"""The documents' Celery tasks: render one document (by id), and queue again the renders that were lost.

``render_document`` takes the document's id and is idempotent (``reports.services.document_render``): run twice,
or after a worker was killed in the middle (``acks_late`` gives its message back), it renders the document once
and stores one file. Only errors of the database or the storage are retried; a document that cannot be rendered
is marked failed with its reason.
"""

from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError

from . import services


@shared_task(
    name="reports.tasks.render_document",
    autoretry_for=(DatabaseError, OSError),
    retry_backoff=2,
    max_retries=5,
)
def render_document(document_id: int) -> str:
    """Render the document ``document_id`` if it is not done yet; idempotent."""
    return services.document_render(document_id)


@shared_task(name="reports.tasks.requeue_stuck_documents")
def requeue_stuck_documents() -> int:
    """Queue again every document whose render was lost (queued or rendering for too long); beat, every minute."""
    ids = services.stuck_document_ids()
    services.mark_requeued(ids)
    for document_id in ids:
        queue_render(document_id)
    return len(ids)


def queue_render(document_id: int) -> None:
    """Queue the render of one document: the answer of ``reports.hooks.queue_document_render``."""
    render_document.delay(document_id)
