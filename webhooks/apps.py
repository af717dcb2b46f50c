from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "webhooks"
    verbose_name = "Webhooks"

    def ready(self):
        # The apps below announce their events through these broadcasts (docs/architecture.md, "Asking upwards").
        from discipline import hooks as discipline_hooks
        from federation import hooks as federation_hooks
        from tournaments import hooks as tournaments_hooks
        from webhooks import events, hooks, tasks

        federation_hooks.eligibility_facts_changed.register("webhooks", events.on_eligibility_facts_changed)
        tournaments_hooks.game_final.register("webhooks", events.on_game_final)
        discipline_hooks.protest_filed.register("webhooks", events.on_protest_filed)
        discipline_hooks.protest_decided.register("webhooks", events.on_protest_decided)
        discipline_hooks.suspension_changed.register("webhooks", events.on_suspension_changed)
        # The services queue a delivery through this (webhooks.hooks): the task module imports the services.
        hooks.queue_delivery.register_attribute(tasks, "queue_delivery")
