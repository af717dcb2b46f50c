from django.urls import path

from . import protest_views as pv

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
]
