from django.urls import path

from . import views

app_name = "federation"
urlpatterns = [
    path("people/", views.person_list_view, name="person-list"),
    path("people/<int:pk>/", views.person_detail_view, name="person-detail"),
    path("passports/<int:pk>/scan/", views.passport_scan_view, name="passport-scan"),
    path("device-requests/<int:pk>/prescription/", views.device_prescription_view, name="device-prescription"),
]

# The approvals queue (3.2.6 A, 3.2.8 C).
from . import approval_views  # noqa: E402

urlpatterns += [
    path("approvals/", approval_views.approvals_queue_view, name="approvals"),
    path(
        "approvals/device-requests/<int:pk>/decide/",
        approval_views.device_request_decide_view,
        name="approvals-device-decide",
    ),
    path(
        "approvals/equipment/<int:pk>/decide/",
        approval_views.equipment_model_decide_view,
        name="approvals-equipment-decide",
    ),
]
