"""Notifications: the one way the portal tells a person something (issue 10, "Notifications").

``notify`` stores one ``Notification`` per person and occasion and queues its e-mail when the transaction
commits. The occasion's ``key`` makes it idempotent: a task that runs twice, a service retried after a
conflict, a sweep that finds the same deadline again, none tells anybody twice. The e-mail goes through Celery
(``portal.tasks.send_notification_email``); a message whose task was lost (broker down, worker killed before it
ran) is sent by the beat sweep ``portal.tasks.send_pending_notifications``, so nothing waits for ever.

The person's language (issues 12, 26): ``subject`` and ``body`` are ``common.text.Text`` messages, stored as
their message and values (``Notification.subject_message``, ``body_message``) and said in the reader's language
where they are shown: the page in the language of the page, the e-mail in the one the person chose
(``User.language``), English when they never chose. Plain words (a team's own answer) are stored as they are and
never translated. A lazy translation (``gettext_lazy``) is still accepted: it is written out in each person's
language when stored, as before issue 26.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from celery import shared_task
from django.conf import settings
from django.contrib.auth.models import AbstractUser as User  # the ground imports no app (accounts.User)
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext

from common.text import Text

from .i18n import storable, stored
from .models import EmailStatus, Notification

# A message the mail server refused this many times is given up (``EmailStatus.FAILED``), shown in the portal.
MAX_EMAIL_ATTEMPTS = 5


def notify(
    *,
    users: Iterable[User],
    key: str,
    subject: Text | str | Promise,
    body: Text | str | Promise,
    url: str = "",
    now: datetime.datetime | None = None,
) -> list[Notification]:
    """Tell each of ``users`` about the occasion ``key`` once; return the notifications made by this call.

    A user told already about ``key`` is skipped (and nothing is sent again); inactive logins and duplicates are
    skipped. The e-mails are queued when the surrounding transaction commits, so a rolled-back change tells
    nobody.
    """
    now = now or timezone.now()
    wanted = {user.pk: user for user in users if user is not None and user.is_active}
    if not wanted:
        return []
    told = set(Notification.objects.filter(key=key, user_id__in=wanted).values_list("user_id", flat=True))
    made = []
    for user_id, user in wanted.items():
        if user_id in told:
            continue
        with translation.override(language_of(user)):  # a Text is its English; a lazy text is the person's language
            subject_text, body_text = str(subject), str(body)
        try:
            with transaction.atomic():
                made.append(
                    Notification.objects.create(
                        user=user,
                        key=key,
                        subject=subject_text[:300],
                        body=body_text,
                        subject_message=storable(subject),
                        body_message=storable(body),
                        url=url,
                        created_at=now,
                    )
                )
        except IntegrityError:  # told by a concurrent call with the same key in the meantime
            continue
    if made:
        ids = [n.pk for n in made]
        transaction.on_commit(lambda: _queue_emails(ids))
    return made


def _queue_emails(ids: list[int]) -> None:
    """Queue the e-mails; a broker that is down loses nothing (the beat sweep sends what stays pending)."""
    for notification_id in ids:
        try:
            send_notification_email.delay(notification_id)
        except Exception:  # noqa: BLE001 - the broker is down: the row stays pending for the sweep
            return


def email_notification(notification_id: int, *, now: datetime.datetime | None = None) -> str:
    """Send the e-mail of one notification once; return its e-mail status afterwards.

    The row is locked while sending, so two workers running the same task send it once; a row sent already (or
    given up) changes nothing. A refusal of the mail server is recorded and left pending for the sweep until
    ``MAX_EMAIL_ATTEMPTS``.
    """
    with transaction.atomic():
        notification = (
            Notification.objects.select_for_update().select_related("user").filter(pk=notification_id).first()
        )
        if notification is None or notification.email_status != EmailStatus.PENDING:
            return notification.email_status if notification else "missing"
        address = notification.user.email
        if not address:
            notification.email_status = EmailStatus.NO_ADDRESS
            notification.save(update_fields=["email_status"])
            return notification.email_status
        notification.email_attempts += 1
        try:
            with translation.override(language_of(notification.user)):
                subject, text = (
                    stored(notification.subject_message, notification.subject)[:300],
                    _email_body(notification),
                )
            EmailMessage(
                subject,
                text,
                settings.DEFAULT_FROM_EMAIL,
                [address],
                headers={"Message-ID": message_id(notification.pk)},
            ).send()
        except Exception as error:  # noqa: BLE001 - any refusal of the mail server is recorded, not raised
            notification.email_error = f"{type(error).__name__}: {error}"[:500]
            if notification.email_attempts >= MAX_EMAIL_ATTEMPTS:
                notification.email_status = EmailStatus.FAILED
        else:
            notification.email_status = EmailStatus.SENT
            notification.emailed_at = now or timezone.now()
            notification.email_error = ""
        notification.save(update_fields=["email_status", "emailed_at", "email_attempts", "email_error"])
        return notification.email_status


def message_id(notification_id: int) -> str:
    """The e-mail's Message-ID, derived from the notification alone: every send of one notification carries the same.

    A worker that dies between the mail server's 250 and its commit leaves the row pending, and the sweep sends it
    again; the second copy has the first one's Message-ID, so mail clients and servers that deduplicate by it show
    one message, and anyone reading the log sees the repeat (docs/operations.md, "E-mail").
    """
    domain = settings.DEFAULT_FROM_EMAIL.rpartition("@")[2].strip("> ") or "ihtc-portal.invalid"
    return f"<notification-{notification_id}@{domain}>"


def language_of(user: User) -> str:
    """The language a person reads the portal's messages in: their choice, else English (the rules' language)."""
    chosen = getattr(user, "language", "")
    return chosen if chosen in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def _email_body(notification: Notification) -> str:
    base = settings.PORTAL_BASE_URL.rstrip("/")
    link = f"\n\n{base}{notification.url}" if notification.url else ""
    footer = gettext("-- IHTC Portal (your notifications: %(url)s)") % {"url": f"{base}/notifications/"}
    return f"{notification.shown_body}{link}\n\n{footer}"


def pending_email_ids(*, older_than: datetime.timedelta, now: datetime.datetime | None = None) -> list[int]:
    """The notifications still waiting for their e-mail ``older_than`` after they were made (the sweep's work)."""
    now = now or timezone.now()
    return list(
        Notification.objects.filter(email_status=EmailStatus.PENDING, created_at__lte=now - older_than)
        .order_by("created_at", "pk")
        .values_list("pk", flat=True)[:500]
    )


def notifications_of(user: User):
    """A person's notifications, newest first (only their own: the queryset every page and count reads)."""
    return Notification.objects.filter(user=user)


def unread_count(user: User) -> int:
    return notifications_of(user).filter(read_at__isnull=True).count()


def mark_read(user: User, *, ids: Iterable[int] | None = None, now: datetime.datetime | None = None) -> int:
    """Mark the user's notifications read (those of ``ids``, or all); return how many changed. Only their own."""
    rows = notifications_of(user).filter(read_at__isnull=True)
    if ids is not None:
        rows = rows.filter(pk__in=list(ids))
    return rows.update(read_at=now or timezone.now())


# A notification's e-mail is queued on commit; one still pending this long after is the sweep's (a lost task).
NOTIFICATION_SWEEP_GRACE = datetime.timedelta(minutes=1)


@shared_task(name="portal.tasks.send_notification_email")
def send_notification_email(notification_id):
    """Send one notification's e-mail (takes its id; sends it at most once however often it runs)."""
    return email_notification(notification_id)


@shared_task(name="portal.tasks.send_pending_notifications")
def send_pending_notifications():
    """Run by beat every minute: send the e-mails still pending (their task was lost, or the server refused)."""
    ids = pending_email_ids(older_than=NOTIFICATION_SWEEP_GRACE)
    return {str(notification_id): email_notification(notification_id) for notification_id in ids}
