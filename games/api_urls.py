from django.urls import path

from . import sheet_api

app_name = "games-api"

urlpatterns = [
    path("games/<int:game_id>/sheet/", sheet_api.SheetView.as_view(), name="game-sheet"),
    path("games/<int:game_id>/sheet/events/", sheet_api.SheetEventsView.as_view(), name="game-sheet-events"),
]
