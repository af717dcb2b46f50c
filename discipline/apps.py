from django.apps import AppConfig


class DisciplineConfig(AppConfig):
    name = "discipline"

    def ready(self):
        # The apps below ask these of the discipline app (games.hooks, tournaments.hooks; docs/architecture.md).
        from discipline import services
        from games import hooks as games_hooks
        from tournaments import hooks as tournaments_hooks

        games_hooks.active_suspensions.register_attribute(services, "active_suspensions")
        games_hooks.receive_game_consequences.register_attribute(services, "receive_game_consequences")
        tournaments_hooks.count_served_games.register_attribute(services, "count_served_games")
        # A merge of two records of one person moves the sanctions and reports about the duplicate (federation.merge).
        from discipline.models import GameConsequence, IncidentReport, Suspension
        from federation.merge import register_person_fields

        register_person_fields(
            "discipline",
            [(Suspension, "person"), (IncidentReport, "person"), (GameConsequence, "person")],
        )
