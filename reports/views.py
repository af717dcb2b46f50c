"""The documents' pages and downloads: thin views over ``reports.services``, one set for every kind.

Who reads: the kind's ``access`` (a published championship's documents: anyone; letters and lists: those the
discipline and tournaments access layers name). The page shows the current version's state and refreshes itself
while it is queued or rendering; the download serves the current version only, once rendered.
"""

from __future__ import annotations

import functools

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect, render
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_POST

from federation.files import private_file_response
from portal.services import NotYet

from . import services
from .models import DocumentStatus

# Seconds between two looks at a document being rendered (the page's refresh).
REFRESH_SECONDS = 2


def _tells_not_yet(view):
    """A document not made yet (a protest not decided) answers 404 with its reason, to those who may read it."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except NotYet as error:
            return render(request, "404.html", {"reason": str(error)}, status=404)

    return wrapper


def _readable(request, kind: str, object_id: int):
    """The kind and the object the request's user may read its document of (the kind's access check)."""
    spec = services.kind_of(kind)
    if not spec.public and not request.user.is_authenticated:
        return spec, None
    return spec, spec.access(request.user, object_id)


@_tells_not_yet
def document_page(request, object_id: int, *, kind: str):
    """A document of an object: its state while it renders, then its download."""
    spec, obj = _readable(request, kind, object_id)
    if obj is None:
        return redirect_to_login(request.get_full_path())
    document = services.document_current(kind, obj, language=get_language())
    back_url, back_text = spec.back(obj)
    return render(
        request,
        "reports/document_page.html",
        {
            "spec": spec,
            "object": obj,
            "title": spec.title(obj),
            "back_url": back_url,
            "back_text": back_text,
            "document": document,
            "previous": services.previous_documents(document),
            "refresh": REFRESH_SECONDS if document.in_progress else None,
            "can_retry": spec.can_retry(request.user, obj),
        },
    )


@_tells_not_yet
def document_pdf(request, object_id: int, *, kind: str):
    """The current version's PDF; while it is not rendered, the page that shows its progress."""
    spec, obj = _readable(request, kind, object_id)
    if obj is None:
        return redirect_to_login(request.get_full_path())
    document = services.document_current(kind, obj, language=get_language())
    if document.status != DocumentStatus.DONE:
        return redirect(f"reports:{spec.route}", obj.pk)
    return private_file_response(document.file, content_type="application/pdf", filename_stem=spec.filename(obj))


@require_POST
def document_retry(request, object_id: int, *, kind: str):
    """Queue a failed render of the current version again (the championship's directors)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    spec, obj = _readable(request, kind, object_id)
    services.check_can_retry(request.user, kind, obj)
    document = services.document_current(kind, obj, language=get_language())
    if document.status == DocumentStatus.FAILED:
        services.document_retry(document)
        messages.success(request, gettext("The %(document)s is queued again.") % {"document": str(spec.label).lower()})
    else:
        messages.info(
            request,
            gettext("The %(document)s is %(status)s; nothing to retry.")
            % {"document": str(spec.label).lower(), "status": str(document.get_status_display()).lower()},
        )
    return redirect(f"reports:{spec.route}", obj.pk)
