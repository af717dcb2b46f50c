from django.urls import path

from . import api

app_name = "reports-api"

# Each path's first segment names its collection (tests/test_api_conformance.py gives real ids by it).
urlpatterns: list = [
    path("games/<int:game_id>/report/", api.GameReportView.as_view(), name="game-report"),
    path("games/<int:game_id>/report/pdf/", api.GameReportPDFView.as_view(), name="game-report-pdf"),
]
