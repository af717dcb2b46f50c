"""What the accounts app asks of the apps above it; they answer at start-up (``AppConfig.ready``).

An invitation (``accounts.invitations``) names a target by kind and id; the app that owns the kind says what the
target is called and what accepting does there. A revoked role is told to the apps that granted rights with it.
See docs/architecture.md ("Asking upwards").
"""

from common.hooks import Hook

# tournaments: a team entry's name as an invitation reads it ("France, Euro 2026"); None when it is gone.
team_entry_label = Hook("accounts.team_entry_label", answered_by="tournaments")
# tournaments: make ``user`` a manager of the team entry (``entry_id``) an invitation named; ``by`` invited.
team_entry_accept = Hook("accounts.team_entry_accept", answered_by="tournaments")
# tournaments: a login lost a role (``role``, ``federation_id``): take away what the role gave (managing entries).
role_revoked = Hook("accounts.role_revoked", answered_by="tournaments")

# The invitations' targets: kind -> (label, accept).
INVITATION_TARGETS = {"team_entry": (team_entry_label, team_entry_accept)}
