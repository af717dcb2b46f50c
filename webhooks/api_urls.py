from rest_framework.routers import SimpleRouter

from . import api

app_name = "webhooks-api"

# Each path's first segment names its collection and its id is ``id`` (tests/test_api_conformance.py).
router = SimpleRouter()
router.register("webhooks", api.EndpointViewSet, basename="endpoint")
router.register("webhook-deliveries", api.DeliveryViewSet, basename="delivery")

urlpatterns = router.urls
