from django.apps import AppConfig


class ReportsConfig(AppConfig):
    name = "reports"
    verbose_name = "Documents (PDF reports)"

    def ready(self):
        # The apps below queue a final game's report through these (games.hooks, tournaments.hooks).
        from games import hooks as games_hooks
        from reports import hooks, services, tasks
        from tournaments import hooks as tournaments_hooks

        games_hooks.game_report_on_commit.register_attribute(services, "game_report_on_commit")
        tournaments_hooks.game_report_on_commit.register_attribute(services, "game_report_on_commit")
        # The services queue a render through this (reports.hooks): the task module imports the services.
        hooks.queue_document_render.register_attribute(tasks, "queue_render")
