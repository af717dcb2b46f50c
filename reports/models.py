"""Stored documents: one PDF per (kind, object, data version), rendered once by a Celery task.

A document shows one version of its data, in one language (English, French or Spanish: the reader's): ``version`` is the fingerprint (SHA-256) of the exact data the
template was given, so data that changes has another version and another row. The page and the API serve only
the row whose version is the data's current one (``reports.services``); an older file is kept (what was
published) but never served as current.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from federation.models import private_storage


class DocumentKind(models.TextChoices):
    """What a document is; each kind has a template and a renderer (``reports.services.KINDS``)."""

    GAME_REPORT = "game_report", _("Official game report (4.2 O, 4.3)")
    STANDINGS = "standings", _("Pool standings with tie-breakers (9.3)")
    STATISTICS = "statistics", _("Championship statistics (4.3)")
    SUSPENSIONS = "suspensions", _("Suspension list (8.2)")
    ROSTER = "roster", _("Roster sheet with eligibility (1.1, 3.1.1)")
    PROTEST_DECISION = "protest_decision", _("Protest decision letter (9.1)")
    CASE_DECISION = "case_decision", _("Committee decision letter (R-53)")


class DocumentStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RENDERING = "rendering", _("Rendering")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


def document_path(instance: Document, filename: str) -> str:
    return f"documents/{instance.kind}/{instance.object_id}/{filename}"


class Document(models.Model):
    """One rendered (or to be rendered) document: its kind, the object it is about, the data version it shows and
    its language."""

    kind = models.CharField(max_length=32, choices=DocumentKind.choices)
    object_id = models.PositiveBigIntegerField(help_text="The id of the object the document is about (by kind).")
    version = models.CharField(max_length=64, help_text="SHA-256 of the data the document shows.")
    version_label = models.CharField(max_length=300, help_text="The version as the document's version line says it.")
    language = models.CharField(
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        help_text="The language the document is written in (issue 12): one file per language of a data version.",
    )
    status = models.CharField(max_length=12, choices=DocumentStatus.choices, default=DocumentStatus.QUEUED)
    file = models.FileField(upload_to=document_path, storage=private_storage, blank=True, max_length=200)
    size = models.PositiveIntegerField(null=True, blank=True, help_text="Bytes of the stored file.")
    pages = models.PositiveSmallIntegerField(null=True, blank=True)
    render_ms = models.PositiveIntegerField(null=True, blank=True, help_text="How long the last render took.")
    attempts = models.PositiveSmallIntegerField(default=0, help_text="Renders started (a killed worker's included).")
    error = models.TextField(blank=True)
    requested_at = models.DateTimeField(help_text="When its render was (last) queued.")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["kind", "object_id", "-requested_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "object_id", "version", "language"], name="one_document_per_data_version_and_language"
            ),
            models.CheckConstraint(
                condition=~models.Q(status="done") | ~models.Q(file=""), name="a_done_document_has_its_file"
            ),
        ]
        indexes = [models.Index(fields=["kind", "object_id", "-requested_at"])]

    def __str__(self):
        return f"{self.get_kind_display()} of #{self.object_id} ({self.version[:12]}, {self.status})"

    @property
    def in_progress(self) -> bool:
        return self.status in (DocumentStatus.QUEUED, DocumentStatus.RENDERING)
