from django.urls import path

from . import views

app_name = "federation"
urlpatterns = [
    path("people/", views.person_list_view, name="person-list"),
    path("people/<int:pk>/", views.person_detail_view, name="person-detail"),
    path("passports/<int:pk>/scan/", views.passport_scan_view, name="passport-scan"),
    path("device-requests/<int:pk>/prescription/", views.device_prescription_view, name="device-prescription"),
]
