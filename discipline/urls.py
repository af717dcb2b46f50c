from django.urls import path

from . import protest_views as pv
from . import views

app_name = "discipline"
urlpatterns: list = [
    # Protests (9.1)
    path("protests/", pv.protest_list, name="protest-list"),
    path("protests/mine/", pv.my_protests, name="my-protests"),
    path("protests/new/", pv.protest_file, name="protest-file"),
    path("protests/<int:pk>/", pv.protest_detail, name="protest-detail"),
    path("protests/<int:pk>/fee/", pv.protest_fee, name="protest-fee"),
    path("protests/<int:pk>/review/", pv.protest_review, name="protest-review"),
    path("protests/<int:pk>/decide/", pv.protest_decide, name="protest-decide"),
    path("protests/<int:pk>/withdraw/", pv.protest_withdraw, name="protest-withdraw"),
    path("protests/<int:pk>/answer/", pv.protest_answer, name="protest-answer"),
    path("protests/<int:pk>/statement/", pv.protest_statement, name="protest-statement"),
    path("protests/<int:pk>/attachments/<int:attachment_id>/", pv.protest_attachment, name="protest-attachment"),
    # --- incident reports, cases, suspensions (R-53) ---
    path("reports/", views.queue, name="queue"),
    path("reports/<int:pk>/", views.report_detail, name="report"),
    path("cases/", views.case_list, name="cases"),
    path("cases/<int:pk>/", views.case_detail, name="case"),
    path("protests/<int:pk>/case/", views.protest_open_case, name="protest-open-case"),
    path("games/<int:game_pk>/confidential/", views.confidential_file, name="confidential-file"),
    path("confidential/<int:pk>/", views.confidential_detail, name="confidential"),
    path("attachments/<int:pk>/", views.attachment_download, name="attachment"),
    path("championships/<int:pk>/suspensions/", views.championship_suspensions, name="championship-suspensions"),
    path("suspensions/", views.my_suspensions, name="suspensions"),
    # --- appeals (9.2 A; R-54) ---
    path("decisions/<int:pk>/appeal/", views.appeal_lodge, name="appeal-lodge"),
    path("protests/<int:pk>/appeal/", views.protest_appeal_lodge, name="protest-appeal-lodge"),
    path("appeals/<int:pk>/", views.appeal_detail, name="appeal"),
    path("appeals/<int:pk>/decide/", views.appeal_decide, name="appeal-decide"),
]
