from django.apps import AppConfig


class DisciplineConfig(AppConfig):
    name = "discipline"
