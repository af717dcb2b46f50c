"""The official game report's page and download: thin views over ``reports.services``.

Who reads: ``access_game_report`` (a published championship's final game: anyone; a draft's: its directors). The
page shows the current version's state and refreshes itself while it is queued or rendering; the download serves
the current version only, once rendered.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from federation.files import private_file_response
from tournaments.views import can_direct

from . import services
from .models import DocumentKind, DocumentStatus

# Seconds between two looks at a report being rendered (the page's refresh).
REFRESH_SECONDS = 2


def game_report(request, game_id: int):
    """The official game report of a final game: its state while it renders, then its download."""
    game = services.access_game_report(request.user, game_id)
    document = services.document_current(DocumentKind.GAME_REPORT, game)
    return render(
        request,
        "reports/game_report_page.html",
        {
            "game": game,
            "document": document,
            "previous": services.previous_documents(document),
            "refresh": REFRESH_SECONDS if document.in_progress else None,
            "director": can_direct(request.user, game.championship),
        },
    )


def game_report_pdf(request, game_id: int):
    """The current version's PDF; while it is not rendered, the page that shows its progress."""
    game = services.access_game_report(request.user, game_id)
    document = services.document_current(DocumentKind.GAME_REPORT, game)
    if document.status != DocumentStatus.DONE:
        return redirect("reports:game-report", game_id=game.pk)
    return private_file_response(
        document.file, content_type="application/pdf", filename_stem=services.KINDS[document.kind].filename(game)
    )


@login_required
@require_POST
def game_report_retry(request, game_id: int):
    """Queue a failed render of the current version again (the championship's directors)."""
    game = services.access_game_report(request.user, game_id)
    services.check_can_retry(request.user, game)
    document = services.document_current(DocumentKind.GAME_REPORT, game)
    if document.status == DocumentStatus.FAILED:
        services.document_retry(document)
        messages.success(request, "The report is queued again.")
    else:
        messages.info(request, f"The report is {document.get_status_display().lower()}; nothing to retry.")
    return redirect("reports:game-report", game_id=game.pk)
