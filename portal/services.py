"""Service plumbing shared by the apps: status transition tables and the acting user of the audit trail."""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.http import Http404
from django.utils.translation import gettext

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractUser as User  # the ground imports no app (accounts.User)
    from django.db import models


class NotYet(Http404):
    """404 for a record the user may read but whose document is not made yet (a protest not decided): unlike a
    plain 404, which tells nothing, its message is shown (the API's ``detail``, the page)."""


def check_transition(
    table: Mapping[str, Set[str]],
    current: str,
    target: str,
    *,
    field: str = "status",
    subject: str = "it",
    article: str = "",
) -> None:
    """Raise ValidationError on ``field`` unless ``table`` allows the move from ``current`` to ``target``.

    ``table`` maps each status to the statuses it may become (the tables beside
    the models, keyed by ``TextChoices`` members, whose labels the message
    shows); ``subject`` names the thing in the message ("a request") and
    ``article`` cites the rule or R-id that sets the table, when one does.
    """
    allowed = table.get(current, frozenset())
    if target in allowed:
        return
    labels = {str(status): str(getattr(status, "label", status)).lower() for status in table}
    choices = ", ".join(sorted(labels.get(str(status), str(status)) for status in allowed)) or gettext(
        "nothing (final)"
    )
    # ``subject`` is said by the caller (gettext), the statuses by their labels: the reader's language throughout.
    message = gettext("%(subject)s that is %(current)s cannot become %(target)s; it can become: %(choices)s.") % {
        "subject": subject,
        "current": labels.get(str(current), current),
        "target": labels.get(str(target), target),
        "choices": choices,
    }
    if article:
        message = gettext("%(article)s: %(message)s") % {"article": article, "message": message}
    else:
        message = message[0].upper() + message[1:]
    raise ValidationError({field: message})


def audited_save(
    obj: models.Model, by: User | None, /, *, update_fields: list[str] | None = None, reason: str = ""
) -> None:
    """Save ``obj`` with ``by`` named as the author of the change in its history (simple-history's ``_history_user``)
    and, when given, ``reason`` as the change's reason (at most 100 characters: the history's column)."""
    obj._history_user = by
    if reason:
        obj._change_reason = reason[:100]
    obj.save(update_fields=update_fields)


def audited_create(model: type[models.Model], by: User | None, /, **fields) -> models.Model:
    """Create a ``model`` row from ``fields`` with ``by`` named as its author in the history."""
    obj = model(**fields)
    audited_save(obj, by)
    return obj


def audited_delete(obj: models.Model, by: User | None, /, *, reason: str = "") -> None:
    """Delete ``obj`` with ``by`` named as the author of the deletion (and ``reason`` as its reason) in its history."""
    obj._history_user = by
    if reason:
        obj._change_reason = reason[:100]
    obj.delete()
