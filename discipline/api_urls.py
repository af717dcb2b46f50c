from django.urls import path

from . import api

app_name = "discipline-api"

urlpatterns: list = [
    # --- incident reports, cases, suspensions (R-53) ---
    path("discipline/reports/", api.ReportQueueView.as_view(), name="report-queue"),
    path("discipline/reports/<int:pk>/", api.ReportView.as_view(), name="report"),
    path(
        "discipline/games/<int:game_id>/confidential-reports/",
        api.GameConfidentialReportsView.as_view(),
        name="game-confidential-reports",
    ),
    path("discipline/confidential-reports/<int:pk>/", api.ConfidentialReportView.as_view(), name="confidential-report"),
    path("discipline/cases/<int:pk>/", api.CaseView.as_view(), name="case"),
    path("discipline/cases/<int:pk>/decision/", api.CaseDecisionView.as_view(), name="case-decision"),
    path(
        "discipline/championships/<int:pk>/suspensions/",
        api.ChampionshipSuspensionsView.as_view(),
        name="championship-suspensions",
    ),
    path("discipline/suspensions/", api.SuspensionsView.as_view(), name="suspensions"),
    # --- appeals (9.2 A; R-54) ---
    path("discipline/decisions/<int:pk>/appeals/", api.DecisionAppealsView.as_view(), name="decision-appeals"),
    path("discipline/appeals/<int:pk>/decision/", api.AppealDecisionView.as_view(), name="appeal-decision"),
]
