from django.urls import path

from . import live_views, views

app_name = "games"
urlpatterns = [
    path("my/", views.my_games, name="my-games"),
    path("<int:game_pk>/lineup/<int:entry_pk>/", views.lineup_edit, name="lineup-edit"),
    path("<int:game_id>/live/", live_views.game_live, name="game-live"),
    path("<int:game_id>/arena/", live_views.game_arena, name="game-arena"),
    path("championships/<int:pk>/live/", live_views.championship_live, name="championship-live"),
]
