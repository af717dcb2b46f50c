from django.urls import path
from rest_framework.routers import SimpleRouter

from . import api, protest_api

app_name = "discipline-api"

router = SimpleRouter()
# --- protests (9.1) ---
router.register("protests", protest_api.ProtestViewSet, basename="protest")

# Each path's first segment names its collection (tests/test_api_conformance.py gives real ids by it).
urlpatterns: list = [
    path(
        "games/<int:game_id>/protest-incidents/",
        protest_api.GameProtestIncidentsView.as_view(),
        name="game-protest-incidents",
    ),
    # --- incident reports, cases, suspensions (R-53) ---
    path("incident-reports/", api.ReportQueueView.as_view(), name="report-queue"),
    path("incident-reports/<int:id>/", api.ReportView.as_view(), name="report"),
    path(
        "games/<int:game_id>/confidential-reports/",
        api.GameConfidentialReportsView.as_view(),
        name="game-confidential-reports",
    ),
    path("confidential-reports/<int:id>/", api.ConfidentialReportView.as_view(), name="confidential-report"),
    path("cases/", api.CasesView.as_view(), name="cases"),
    path("cases/<int:id>/", api.CaseView.as_view(), name="case"),
    path("cases/<int:id>/decision/", api.CaseDecisionView.as_view(), name="case-decision"),
    path(
        "championships/<int:id>/suspensions/",
        api.ChampionshipSuspensionsView.as_view(),
        name="championship-suspensions",
    ),
    path("suspensions/", api.SuspensionsView.as_view(), name="suspensions"),
    # --- appeals (9.2 A; R-54) ---
    path("decisions/<int:id>/appeals/", api.DecisionAppealsView.as_view(), name="decision-appeals"),
    path("protests/<int:id>/appeals/", api.ProtestAppealsView.as_view(), name="protest-appeals"),
    path("appeals/<int:id>/decision/", api.AppealDecisionView.as_view(), name="appeal-decision"),
    *router.urls,
]
