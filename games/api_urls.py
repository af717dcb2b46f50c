from django.urls import path
from rest_framework.routers import SimpleRouter

from . import api, sheet_api

app_name = "games-api"

router = SimpleRouter()
router.register("game-officials", api.GameOfficialViewSet, basename="game-official")
router.register("lineups", api.LineupViewSet, basename="lineup")
router.register("game-readiness", api.GameReadinessViewSet, basename="game-readiness")
router.register("protest-marks", api.ProtestMarkViewSet, basename="protest-mark")

urlpatterns = [
    path("clock/", sheet_api.ServerClockView.as_view(), name="server-clock"),
    path("games/<int:game_id>/sheet/", sheet_api.SheetView.as_view(), name="game-sheet"),
    path("games/<int:game_id>/sheet/events/", sheet_api.SheetEventsView.as_view(), name="game-sheet-events"),
    path("games/<int:game_id>/sheet/devices/", sheet_api.SheetDevicesView.as_view(), name="game-sheet-devices"),
    *router.urls,
]
