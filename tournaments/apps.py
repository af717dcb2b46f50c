from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self):
        # The federation app asks this of the tournaments app (federation.hooks; docs/architecture.md).
        from federation import hooks
        from tournaments import selectors

        hooks.person_eligibility.register_attribute(selectors, "person_eligibility")
        # A merge of two records of one person moves the championships' rows about the duplicate (federation.merge).
        from federation.merge import register_person_fields
        from tournaments.models import GoalkeeperRecord, GoalRecord, PenaltyRecord, RosterEntry, TeamOfficial

        register_person_fields(
            "tournaments",
            [
                (RosterEntry, "person"),
                (TeamOfficial, "person"),
                (GoalRecord, "scorer"),
                (GoalRecord, "assist"),
                (PenaltyRecord, "person"),
                (GoalkeeperRecord, "goalkeeper"),
            ],
        )

        # The accounts app asks these of the tournaments app: invitations to a team entry, revoked team roles.
        from accounts import hooks as accounts_hooks
        from tournaments import team_logins

        accounts_hooks.team_entry_label.register_attribute(team_logins, "team_entry_label")
        accounts_hooks.team_entry_accept.register_attribute(team_logins, "team_entry_accept")
        accounts_hooks.role_revoked.register_attribute(team_logins, "role_revoked")
