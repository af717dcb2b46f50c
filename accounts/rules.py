"""Object permissions of the accounts app, for ``user.has_perm``, and the predicates every app's rules share.

``rules`` autodiscovers each app's ``rules.py``: the federation register's in ``federation/rules.py``, the games'
in ``games/rules.py``, discipline's in ``discipline/rules.py``, the documents' in ``reports/rules.py``. Each
permission is a thin predicate over its app's access layer (``<app>/access.py``; the role predicates of
``accounts.roles``), so the API, the pages and the admin (``rules.contrib.admin.ObjectPermissionsModelAdmin``) ask
the same question and get the same answer. Called without an object, a permission answers "may the user do this
to some object of that kind" (list pages, add forms).
"""

from __future__ import annotations

import rules

from accounts import roles


@rules.predicate
def is_superuser(user):
    return roles.is_superuser(user)


@rules.predicate
def is_authenticated(user):
    return bool(getattr(user, "is_authenticated", False))


# --- Accounts: logins and their roles are kept by IHTC executives (and superusers) ---------------


@rules.predicate
def manages_accounts(user):
    return roles.can_manage_accounts(user)


rules.add_perm("accounts", manages_accounts)
for _model in ("user", "roleassignment"):
    for _action in ("view", "add", "change", "delete"):
        rules.add_perm(f"accounts.{_action}_{_model}", manages_accounts)


# --- The admin of the other apps: superusers only ---------------------------------------------
# portal.admin.AccessAdmin asks these for every admin page. Championships are directed through their pages and the API (tournaments.services checks the
# directors and managers); their admin pages, and the worker heartbeats, are the superuser's.
SUPERUSER_ADMIN_MODELS = {
    "tournaments": (
        "venue",
        "rink",
        "championship",
        "teamentry",
        "rosterentry",
        "teamofficial",
        "numberchangeapproval",
        "pool",
        "poolteam",
        "phase",
        "game",
        "goalrecord",
        "penaltyrecord",
        "goalkeeperrecord",
        "disqualification",
        "resultamendment",
        "standingsshootout",
        "standingsshootoutplace",
    ),
    "portal": ("workerheartbeat",),
    # Roles are RoleAssignments; Django's groups are not used. Login attempts (django-axes) are the superuser's.
    "auth": ("group",),
    "axes": ("accessattempt", "accesslog", "accessfailurelog"),
}
for _app, _models in SUPERUSER_ADMIN_MODELS.items():
    rules.add_perm(_app, is_superuser)
    for _model in _models:
        for _action in ("view", "add", "change", "delete"):
            rules.add_perm(f"{_app}.{_action}_{_model}", is_superuser)
