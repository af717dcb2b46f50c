from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self):
        # The federation app asks this of the tournaments app (federation.hooks; docs/architecture.md).
        from federation import hooks
        from tournaments import selectors

        hooks.person_eligibility.register_attribute(selectors, "person_eligibility")
