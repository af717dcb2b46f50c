from django.apps import AppConfig


class HubConfig(AppConfig):
    name = "hub"
    verbose_name = "Hub"
