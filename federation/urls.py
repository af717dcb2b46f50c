from django.urls import path

from . import views

app_name = "federation"
urlpatterns = [
    path("people/", views.person_list_view, name="person-list"),
    path("people/register/", views.person_register_view, name="person-register"),
    path("people/<int:pk>/", views.person_detail_view, name="person-detail"),
    path("people/<int:pk>/waiver-requests/", views.waiver_request_create_view, name="waiver-request-create"),
    path("waiver-requests/", views.waiver_queue_view, name="waiver-queue"),
    path("waiver-requests/<int:pk>/decide/", views.waiver_request_decide_view, name="waiver-request-decide"),
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

# Keeping a person's record (issue 25): edit, passports with their scans, merging two records, the list's downloads.
from . import people_views  # noqa: E402

urlpatterns += [
    path("people/<int:pk>/edit/", people_views.person_edit_view, name="person-edit"),
    path("people/<int:pk>/passports/add/", people_views.passport_add_view, name="passport-add"),
    path("passports/<int:pk>/renew/", people_views.passport_renew_view, name="passport-renew"),
    path("people/<int:pk>/merge/", people_views.person_merge_choose_view, name="person-merge"),
    path("people/<int:pk>/merge/<int:other>/", people_views.person_merge_confirm_view, name="person-merge-confirm"),
    path("people/export/<str:kind>/", people_views.person_export_view, name="person-export"),
]
