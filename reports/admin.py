"""The documents' admin: every stored render (kind, object, data version, its state), read here only.

Superusers and the IHTC executive see it (``reports/rules.py``: ``reports.view_document``). Nothing is added,
changed, deleted or reverted here: a document is made by its kind's data (``reports.services``). No file is served
from here either: each row links to the document's page, which asks the kind's access check before any download.
The one action queues failed renders again through ``services.document_retry``, asking the kind's retry rule
(``services.check_can_retry``) for each document; those it refuses are skipped and named.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext, gettext_lazy, ngettext

from portal.admin import ReadOnlyAdmin

from . import services
from .models import Document, DocumentStatus


@admin.register(Document)
class DocumentAdmin(ReadOnlyAdmin):
    list_display = [
        "kind", "on_the_portal", "status", "short_version", "pages", "size", "render_ms", "attempts",
        "requested_at", "finished_at",
    ]  # fmt: skip
    list_filter = ["kind", "status"]
    # An object's id exactly; a version by its beginning (the pages and the PDF's footer print 16 characters).
    search_fields = ["=object_id", "^version"]
    search_help_text = "The object's id, or the beginning of a data version."
    date_hierarchy = "requested_at"
    fields = [
        "kind", "object_id", "on_the_portal", "version", "version_label", "status", "error", "pages", "size",
        "render_ms", "attempts", "requested_at", "started_at", "finished_at",
    ]  # fmt: skip
    readonly_fields = fields
    actions = ["render_again"]

    def revert_disabled(self, request, obj=None):
        return True  # a document is its data's: nothing is restored by hand

    @admin.display(description=gettext_lazy("Version"), ordering="version")
    def short_version(self, obj):
        return obj.version[:12]

    @admin.display(description=gettext_lazy("Object"), ordering="object_id")
    def on_the_portal(self, obj):
        """The document's page (its kind's access check, then its download), never the stored file itself."""
        kind = services.KINDS.get(obj.kind)
        if kind is None:
            return f"#{obj.object_id}"
        return format_html(
            '<a href="{}">#{}</a>', reverse(f"reports:{kind.route}", args=[obj.object_id]), obj.object_id
        )

    @admin.action(description=gettext_lazy("Render the selected failed documents again"))
    def render_again(self, request, queryset):
        queued, refused = [], []
        failed = list(queryset.filter(status=DocumentStatus.FAILED))
        others = queryset.count() - len(failed)
        for document in failed:
            kind = services.KINDS.get(document.kind)
            try:
                if kind is None:
                    raise PermissionDenied(gettext("no renderer for this kind"))
                services.check_can_retry(request.user, document.kind, kind.load(document.object_id))
            except (PermissionDenied, ObjectDoesNotExist) as refusal:
                refused.append(f"{document} ({refusal})")
                continue
            services.document_retry(document)
            queued.append(document)
        if queued:
            self.message_user(
                request,
                ngettext(
                    "%(count)s document queued to render again.",
                    "%(count)s documents queued to render again.",
                    len(queued),
                )
                % {"count": len(queued)},
                messages.SUCCESS,
            )
        if refused:
            self.message_user(
                request,
                gettext("Not queued again: %(documents)s.") % {"documents": "; ".join(refused)},
                messages.WARNING,
            )
        if others:
            self.message_user(
                request,
                ngettext(
                    "%(count)s selected document had not failed: left alone.",
                    "%(count)s selected documents had not failed: left alone.",
                    others,
                )
                % {"count": others},
                messages.INFO,
            )
