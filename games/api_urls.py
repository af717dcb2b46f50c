from rest_framework.routers import SimpleRouter

from . import api

app_name = "games-api"

router = SimpleRouter()
router.register("game-officials", api.GameOfficialViewSet, basename="game-official")
router.register("lineups", api.LineupViewSet, basename="lineup")
router.register("game-readiness", api.GameReadinessViewSet, basename="game-readiness")

urlpatterns = router.urls
