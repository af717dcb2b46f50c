"""Object permissions of the documents (``rules`` autodiscovers this module); see ``reports/rules.py``."""

from __future__ import annotations

import rules

from accounts import roles

# --- Documents (reports, issue 11): the render queue's admin, for superusers and the IHTC executive ----------------
# Read only: a document is made by its kind's data and read on its page (the kind's access check); the admin lists
# the renders and queues failed ones again (reports.admin re-asks the kind's retry rule for each).


@rules.predicate
def oversees_documents(user):
    return roles.oversees_documents(user)


rules.add_perm("reports", oversees_documents)
rules.add_perm("reports.view_document", oversees_documents)
