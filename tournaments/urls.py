from django.urls import path

from . import championship_form_views, invite_views, public_views, views

app_name = "tournaments"
urlpatterns = [
    # Public
    path("", views.championship_list, name="championship-list"),
    path("<int:pk>/", views.championship_detail, name="championship-detail"),
    path("<int:pk>/schedule/", views.schedule, name="schedule"),
    path("<int:pk>/results/", views.results, name="results"),
    path("<int:pk>/standings/", views.standings, name="standings"),
    path("<int:pk>/bracket/", views.bracket, name="bracket"),
    path("<int:pk>/leaders/", views.leaders, name="leaders"),
    path("teams/<int:pk>/", public_views.team, name="team"),
    # Tournament direction
    path("new/", championship_form_views.championship_edit, name="championship-create"),
    path("<int:pk>/edit/", championship_form_views.championship_edit, name="championship-edit"),
    path("<int:pk>/publish/confirm/", championship_form_views.publish_confirm, name="championship-publish-confirm"),
    path("<int:pk>/publish/", views.championship_publish, name="championship-publish"),
    path("<int:pk>/entries/", views.entries, name="entries"),
    path("<int:pk>/enter/", views.entry_create, name="entry-create"),
    path("<int:pk>/schedule/generate/", views.schedule_generate, name="schedule-generate"),
    path("<int:pk>/bracket/manage/", views.bracket_manage, name="bracket-manage"),
    path("entries/<int:pk>/fee-paid/", views.entry_fee_paid, name="entry-fee-paid"),
    path("games/<int:pk>/", views.game_manage, name="game-manage"),
    path("pools/<int:pk>/shootout/", views.standings_shootout, name="standings-shootout"),
    # Team managers
    path("my-entries/", views.my_entries, name="my-entries"),
    path("entries/<int:pk>/", views.entry_detail, name="entry-detail"),
    path("entries/<int:pk>/roster/add/", views.roster_add, name="roster-add"),
    path("entries/<int:pk>/roster/confirm/", views.roster_confirm, name="roster-confirm"),
    path("entries/<int:pk>/roster/import/", views.roster_import, name="roster-import"),
    path("entries/<int:pk>/officials/add/", views.official_add, name="official-add"),
    path("entries/<int:pk>/roster/export/<str:kind>/", views.roster_export, name="roster-export"),
    path("roster/import-template/<str:kind>/", views.roster_import_template, name="roster-import-template"),
    path("entries/<int:pk>/invite/", invite_views.entry_invite, name="entry-invite"),
    path("roster/<int:pk>/", views.roster_line_edit, name="roster-line-edit"),
    path("roster/<int:pk>/remove/", views.roster_remove, name="roster-remove"),
]
