"""Object permissions of the discipline app (``rules`` autodiscovers this module): predicates over
``discipline.access``, ``discipline.suspensions`` and ``discipline.appeals``; see ``discipline/rules.py``."""

from __future__ import annotations

import rules
from django.utils.module_loading import import_string

from accounts.rules import is_authenticated

# --- Discipline (9.1, 9.2 A, R-50 to R-54): discipline.access, discipline.suspensions and discipline.appeals decide --
# The admin reads these records; every change goes through the services (discipline.protests, cases, suspensions,
# appeals), so only view permissions are given. CONFIDENTIAL reports (4.2 P, 6.4.29) and their attachments: their
# audience only (the committee, the executive, the author).


def _discipline_predicate(name: str, *, of_kind: str, visible_to: str, through: str | None = None):
    """A predicate asking ``of_kind(user)`` without an object (list pages) and, with one, whether the queryset
    ``visible_to(user)`` holds it, or holds the record it belongs to (the foreign key ``through``). Both are dotted
    paths of the discipline app's access functions, imported when asked (they import the discipline models)."""

    def predicate(user, obj=None):
        if obj is None:
            return import_string(of_kind)(user)
        pk = getattr(obj, f"{through}_id") if through else obj.pk
        return import_string(visible_to)(user).filter(pk=pk).exists()

    return rules.predicate(predicate, name=name)


@rules.predicate
def is_discipline_committee(user):
    return import_string("discipline.access.is_committee")(user)


_PROTESTS = {"of_kind": "discipline.access.can_see_protests", "visible_to": "discipline.access.protests_visible_to"}
_SUSPENSIONS = {
    "of_kind": "discipline.suspensions.sees_suspensions",
    "visible_to": "discipline.suspensions.suspensions_visible_to",
}
can_view_protest = _discipline_predicate("can_view_protest", **_PROTESTS)
can_view_protest_record = _discipline_predicate("can_view_protest_record", **_PROTESTS, through="protest")
can_view_confidential_report = _discipline_predicate(
    "can_view_confidential_report",
    of_kind="discipline.access.reads_confidential_reports",
    visible_to="discipline.access.confidential_reports_visible_to",
)
can_view_discipline_attachment = _discipline_predicate(
    "can_view_discipline_attachment",
    of_kind="discipline.access.reads_confidential_reports",
    visible_to="discipline.access.attachments_visible_to",
)
can_view_suspension = _discipline_predicate("can_view_suspension", **_SUSPENSIONS)
can_view_served_game = _discipline_predicate("can_view_served_game", **_SUSPENSIONS, through="suspension")
can_view_appeal = _discipline_predicate(
    "can_view_appeal", of_kind="discipline.access.sees_appeals", visible_to="discipline.access.appeals_visible_to"
)

DISCIPLINE_VIEW_PERMISSIONS = {
    # Protests (9.1): as discipline.access.protests_visible_to; their logs and files with them.
    "protest": can_view_protest,
    "protesttransition": can_view_protest_record,
    "protestattachment": can_view_protest_record,
    "deadline": can_view_protest_record,
    # The committee's records.
    "gameconsequence": is_discipline_committee,
    "incidentreport": is_discipline_committee,
    "case": is_discipline_committee,
    "casetransition": is_discipline_committee,
    "casestatement": is_discipline_committee,
    "decision": is_discipline_committee,
    # CONFIDENTIAL (4.2 P, 6.4.29): the committee, the executive, the author.
    "confidentialreport": can_view_confidential_report,
    "attachment": can_view_discipline_attachment,
    # Suspensions (8.2): as discipline.suspensions.suspensions_visible_to.
    "suspension": can_view_suspension,
    "servedgame": can_view_served_game,
    # Appeals (9.2 A, R-54): as discipline.access.appeals_visible_to.
    "appeal": can_view_appeal,
}
# The app itself (admin index): anyone who may see some of its records.
rules.add_perm(
    "discipline",
    is_authenticated
    & (
        is_discipline_committee
        | can_view_protest
        | can_view_confidential_report
        | can_view_suspension
        | can_view_appeal
    ),
)
for _model, _predicate in DISCIPLINE_VIEW_PERMISSIONS.items():
    rules.add_perm(f"discipline.view_{_model}", _predicate)
