from django.urls import path

from . import views

app_name = "games"
urlpatterns = [
    path("my/", views.my_games, name="my-games"),
    path("<int:game_pk>/console/", views.console, name="console"),
    path("console-worker.js", views.console_worker, name="console-worker"),
    path("<int:game_pk>/lineup/<int:entry_pk>/", views.lineup_edit, name="lineup-edit"),
    path("championships/<int:pk>/officials/", views.assignments, name="assignments"),
]
