from django.urls import path

from . import end_views, live_views, views

app_name = "games"
urlpatterns = [
    path("my/", views.my_games, name="my-games"),
    path("<int:game_pk>/console/", views.console, name="console"),
    path("console-worker.js", views.console_worker, name="console-worker"),
    path("<int:game_pk>/lineups/", views.lineups, name="lineups"),
    path("<int:game_pk>/lineup/<int:entry_pk>/", views.lineup_edit, name="lineup-edit"),
    path("<int:game_id>/live/", live_views.game_live, name="game-live"),
    path("<int:game_id>/arena/", live_views.game_arena, name="game-arena"),
    path("championships/<int:pk>/live/", live_views.championship_live, name="championship-live"),
    path("championships/<int:pk>/officials/", views.assignments, name="assignments"),
    # The end of the game (4.2 O, 4.3 A): sign-off on the device, the log, amendment and rescue import by staff.
    path("<int:game_id>/sheet/sign/", end_views.sheet_sign, name="sheet-sign"),
    path("<int:game_id>/sheet/log/", end_views.sheet_log_page, name="sheet-log"),
    path("<int:game_id>/sheet/amend/", end_views.sheet_amend, name="sheet-amend"),
    path("<int:game_id>/sheet/rescue/", end_views.sheet_rescue, name="sheet-rescue"),
]
