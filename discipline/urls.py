from django.urls import path

from . import views

app_name = "discipline"
urlpatterns: list = [
    # --- incident reports, cases, suspensions (R-53) ---
    path("reports/", views.queue, name="queue"),
    path("reports/<int:pk>/", views.report_detail, name="report"),
    path("cases/<int:pk>/", views.case_detail, name="case"),
    path("games/<int:game_pk>/confidential/", views.confidential_file, name="confidential-file"),
    path("confidential/<int:pk>/", views.confidential_detail, name="confidential"),
    path("attachments/<int:pk>/", views.attachment_download, name="attachment"),
    path("championships/<int:pk>/suspensions/", views.championship_suspensions, name="championship-suspensions"),
    path("suspensions/", views.my_suspensions, name="suspensions"),
]
