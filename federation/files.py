"""Checks and serving of confidential uploads: passport scans, prescriptions."""

from __future__ import annotations

import filetype
from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404
from django.utils.translation import gettext

MAX_SCAN_BYTES = 5 * 1024 * 1024

# What a scan may be, by its content: content type -> file extension.
ALLOWED_SCAN_TYPES = {
    "image/jpeg": "jpg",
    "image/png": "png",
    "application/pdf": "pdf",
}

# filetype needs at most this many leading bytes to recognise a format.
_SNIFF_BYTES = 8192


def check_scan_upload(uploaded_file, *, field: str = "scan") -> str:
    """Return the content type of an uploaded scan, or raise ValidationError naming ``field``.

    Only JPEG, PNG or PDF are accepted, recognised by their content (magic
    bytes), never by the file name or the content type the client sent: an
    HTML page renamed ``.png`` is refused. At most 5 MB.
    """
    size = getattr(uploaded_file, "size", None)
    if size is None:
        raise ValidationError({field: gettext("Upload a file: JPEG, PNG or PDF, at most 5 MB.")})
    if size > MAX_SCAN_BYTES:
        raise ValidationError(
            {field: gettext("The file is %(size)s MB; the limit is 5 MB.") % {"size": f"{size / 1024 / 1024:.1f}"}}
        )
    if size == 0:
        raise ValidationError({field: gettext("The file is empty.")})
    uploaded_file.seek(0)
    head = uploaded_file.read(_SNIFF_BYTES)
    uploaded_file.seek(0)
    kind = filetype.guess(head)
    if kind is None or kind.mime not in ALLOWED_SCAN_TYPES:
        if kind:
            raise ValidationError(
                {
                    field: gettext("Only JPEG, PNG or PDF files are accepted (its content is %(mime)s).")
                    % {"mime": kind.mime}
                }
            )
        raise ValidationError({field: gettext("Only JPEG, PNG or PDF files are accepted.")})
    return kind.mime


def private_file_response(file_field, *, content_type: str, filename_stem: str) -> FileResponse:
    """Return a download response for a privately stored file.

    The browser saves it instead of rendering it (attachment, nosniff), and
    no shared cache keeps a copy. Nothing stored, or a missing file: 404.
    """
    if not file_field:
        raise Http404(gettext("No file is stored here."))
    extension = ALLOWED_SCAN_TYPES.get(content_type, "bin")
    try:
        handle = file_field.open("rb")
    except FileNotFoundError:
        raise Http404(gettext("The stored file is missing.")) from None
    response = FileResponse(
        handle,
        as_attachment=True,
        filename=f"{filename_stem}.{extension}",
        content_type=content_type or "application/octet-stream",
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    return response
