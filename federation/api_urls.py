from rest_framework.routers import SimpleRouter

from . import api

# Namespaced: the page routes of federation/urls.py use the same short names (person-list...).
app_name = "federation-api"

router = SimpleRouter()
router.register("federations", api.FederationViewSet, basename="federation")
router.register("people", api.PersonViewSet, basename="person")
router.register("passports", api.PassportViewSet, basename="passport")
router.register("eligibility-waivers", api.EligibilityWaiverViewSet, basename="eligibility-waiver")
router.register("equipment-models", api.EquipmentModelViewSet, basename="equipment-model")
router.register("equipment-inspections", api.EquipmentInspectionViewSet, basename="equipment-inspection")
router.register("waiver-requests", api.WaiverRequestViewSet, basename="waiver-request")
router.register("device-requests", api.ProtectiveDeviceRequestViewSet, basename="device-request")

urlpatterns = router.urls
