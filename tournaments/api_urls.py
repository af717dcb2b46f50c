from rest_framework.routers import SimpleRouter

from . import api

# Namespaced, like the federation API: the page routes use short names of their own.
app_name = "tournaments-api"

router = SimpleRouter()
router.register("venues", api.VenueViewSet, basename="venue")
router.register("rinks", api.RinkViewSet, basename="rink")
router.register("championships", api.ChampionshipViewSet, basename="championship")
router.register("entries", api.EntryViewSet, basename="entry")
router.register("roster-entries", api.RosterEntryViewSet, basename="roster-entry")
router.register("pools", api.PoolViewSet, basename="pool")
router.register("games", api.GameViewSet, basename="game")
router.register("goals", api.GoalViewSet, basename="goal")
router.register("penalties", api.PenaltyViewSet, basename="penalty")

urlpatterns = router.urls
