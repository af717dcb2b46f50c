from django.urls import path

from . import api
from .services import kind_of

app_name = "reports-api"


def document_api_paths(prefix: str, views: tuple) -> list:
    """The state and the PDF endpoints of one kind (``api.document_api_views``), under ``prefix``."""
    state, pdf = views
    route = kind_of(state.kind).route
    return [path(prefix, state.as_view(), name=route), path(f"{prefix}pdf/", pdf.as_view(), name=f"{route}-pdf")]


# Each path's first segment names its collection and its id is ``id`` or ``game_id`` (tests/test_api_conformance.py
# gives real ids by them).
urlpatterns: list = [
    *document_api_paths("games/<int:game_id>/report/", (api.GameReportView, api.GameReportPDFView)),
    *document_api_paths(
        "championships/<int:id>/standings/report/", (api.StandingsReportView, api.StandingsReportPDFView)
    ),
    *document_api_paths(
        "championships/<int:id>/statistics/report/", (api.StatisticsReportView, api.StatisticsReportPDFView)
    ),
    *document_api_paths("entries/<int:id>/roster/report/", (api.RosterSheetView, api.RosterSheetPDFView)),
    *document_api_paths("protests/<int:id>/decision-letter/", (api.ProtestDecisionView, api.ProtestDecisionPDFView)),
    *document_api_paths("cases/<int:id>/decision-letter/", (api.CaseDecisionView, api.CaseDecisionPDFView)),
    *document_api_paths(
        "championships/<int:id>/suspensions/report/", (api.SuspensionListView, api.SuspensionListPDFView)
    ),
]
