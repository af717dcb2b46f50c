"""The discipline module's Celery tasks: the deadline sweep (9.1; R-51) and its per-deadline tasks; the end of
suspensions whose championship or period is over (8.2 C; R-53).

Beat runs ``sweep_protest_deadlines`` every minute. It asks the database which deadlines are past or near by
the database's own clock (``Now()``), so a worker that was down catches up on its first sweep after it comes
back, and queues one task per deadline. Each task takes the deadline's id, locks the row and does nothing when
it is no longer open (or not yet due): a task run twice, or queued by two sweeps, changes and sends nothing the
second time (``discipline.protests.deadline_expire``, ``deadline_remind``).
"""

from __future__ import annotations

from celery import shared_task

from . import protests, suspensions


@shared_task(name="discipline.tasks.sweep_protest_deadlines")
def sweep_protest_deadlines() -> dict[str, int]:
    """Queue the expiry of every overdue deadline and the reminder of every deadline within its reminder time."""
    due = protests.due_deadline_ids()
    near = protests.reminder_deadline_ids()
    for deadline_id in due:
        expire_deadline.delay(deadline_id)
    for deadline_id in near:
        remind_deadline.delay(deadline_id)
    return {"due": len(due), "reminders": len(near)}


@shared_task(name="discipline.tasks.expire_deadline")
def expire_deadline(deadline_id: int) -> str:
    """Lapse the protest of an overdue deadline (or mark it met / passed); idempotent."""
    return protests.deadline_expire(deadline_id)


@shared_task(name="discipline.tasks.remind_deadline")
def remind_deadline(deadline_id: int) -> str:
    """Send the reminder before a deadline once; idempotent."""
    return protests.deadline_remind(deadline_id)


@shared_task(name="discipline.tasks.end_finished_suspensions")
def end_finished_suspensions() -> int:
    """Close the suspensions that ended: the rest of a tournament that is over (8.2 C), a period that ran out.

    Beat runs it every 15 minutes; idempotent (a closed suspension is not closed, nor announced, again)."""
    return suspensions.end_finished()
