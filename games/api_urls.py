from django.urls import path
from rest_framework.routers import SimpleRouter

from . import api, end_api, sheet_api

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
    # The end of the game (4.2 O, 4.3 A): signatures, amendments of the final sheet, rescue import.
    path("games/<int:game_id>/sheet/signatures/", end_api.SignaturesView.as_view(), name="game-sheet-signatures"),
    path("games/<int:game_id>/sheet/amendments/", end_api.AmendmentsView.as_view(), name="game-sheet-amendments"),
    path("games/<int:game_id>/sheet/rescue/", end_api.RescueView.as_view(), name="game-sheet-rescue"),
    *router.urls,
]
