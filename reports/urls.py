from django.urls import path

from . import views

app_name = "reports"
urlpatterns = [
    path("games/<int:game_id>/", views.game_report, name="game-report"),
    path("games/<int:game_id>/pdf/", views.game_report_pdf, name="game-report-pdf"),
    path("games/<int:game_id>/retry/", views.game_report_retry, name="game-report-retry"),
]
