"""Refusals are not errors: a 4xx answer is one info line in the log, never a traceback.

Django's request logger writes every 403 and 404 that came from an exception (``PermissionDenied``, ``Http404``)
as a warning with the exception's full traceback, and every other 4xx (DRF's ``NotAuthenticated``,
``PermissionDenied``, a 405) as a warning. A refusal is the portal working as intended: a run of a few thousand
refused requests buried the real errors under thousands of tracebacks. ``RefusalsAsInfo`` (on the
``django.request`` logger, settings.LOGGING) turns a record of a response below 500 into one INFO line with no
traceback; 5xx answers keep their level and their traceback.
"""

from __future__ import annotations

import logging


class RefusalsAsInfo(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and status < 500:
            record.levelno, record.levelname = logging.INFO, logging.getLevelName(logging.INFO)
            record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True
