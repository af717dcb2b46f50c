"""Documents: which one is current, its render (by a Celery task), and who may read it.

A document is a template and a data function per kind (``KINDS``). The data's SHA-256 is the document's version:
``document_current`` finds or creates the row of the current version (one per kind, object and version: the
constraint) and queues its render once, after the commit; an older row is never what it answers. The render
(``document_render``, the task's body) locks the row (on PostgreSQL for the whole render; SQLite, which locks the
whole database for a write, renders outside a transaction), renders in a bounded child process
(``reports.rendering``), writes the PDF under a temporary name and moves it into place, then marks the row done:
a worker killed on the way leaves the row queued or rendering, no file under its final name, and the job is run
again (the broker's redelivery under ``acks_late``, or beat's ``requeue_stuck_documents``), to the same effect.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import logging
import os
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.core.files.base import ContentFile
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Q
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.models import Championship, Game, GameStatus, TeamEntry
from tournaments.selectors import access_championship as tournaments_access_championship
from tournaments.selectors import of_visible_championships

from . import hooks
from .championship_documents import standings_data, statistics_data
from .models import Document, DocumentKind, DocumentStatus
from .rendering import RenderError, render_pdf, static_file_url

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Kind:
    """A kind of document: the object it is about, its data, its template, its file name, who reads it.

    ``access(user, pk)`` answers the object ``user`` may read the document of, or raises ``Http404`` (no such
    object, not visible, or no document yet: a game not final, a protest not decided) or ``PermissionDenied``;
    the page, the download and the API all ask it. ``public``: anonymous visitors may ask (a published
    championship's documents); otherwise the page asks for a login and the API for credentials first.
    ``route``: the name of its page and API routes (``reports:<route>``, ``-pdf``, ``-retry``;
    ``reports-api:<route>``, ``-pdf``). ``can_retry(user, obj)``: who may queue a failed render again.
    """

    label: Any  # a lazy translation: said in the reader's language
    load: Callable[[int], Any]  # the object by id (DoesNotExist when gone)
    data: Callable[[Any], dict[str, Any]]
    template: str
    filename: Callable[[Any], str]
    access: Callable[[Any, int], Any]
    route: str
    title: Callable[[Any], str]
    back: Callable[[Any], tuple[str, str]]  # (url, text) of the page the document belongs to
    about: Any = ""  # one sentence on what the document is, with its articles (the page says it)
    public: bool = True
    can_retry: Callable[[Any, Any], bool] = lambda user, obj: False
    retry_by: Any = _("the championship's directors")  # who ``can_retry`` lets in, as the page and refusals say it
    done: Callable[[Any, dict[str, Any]], None] = lambda obj, data: None


def _game(pk: int) -> Game:
    return Game.objects.select_related("championship").get(pk=pk)


def _game_report_data(game: Game) -> dict[str, Any]:
    from .game_report import game_report_data

    return game_report_data(game)


def _game_report_done(game: Game, data: dict[str, Any]) -> None:
    """The sheet's hand-over (``games.GameReportRequest``, 4.3 A) of this version is rendered."""
    from games.models import GameReportRequest, ReportStatus

    if data.get("sheet_sequence") is not None:
        GameReportRequest.objects.filter(
            game=game, sequence__lte=data["sheet_sequence"], status=ReportStatus.PENDING
        ).update(status=ReportStatus.RENDERED)


def can_direct_championship_of(user, obj) -> bool:
    """The directors of the championship ``obj`` belongs to (or is): who queue its failed documents again."""
    from tournaments.views import can_direct

    championship = getattr(obj, "championship", obj)
    return can_direct(user, championship)


def _championship(pk: int) -> Championship:
    return Championship.objects.select_related("venue").get(pk=pk)


def _championship_kind(*, label: Any, data, route: str, back: tuple[str, Any], about: Any) -> Kind:
    """A document of a whole championship: public once it is published, its directors' while a draft; its
    template ``reports/<kind>.html`` (the route without ``-report``), its page ``back`` = (route name, text)."""
    name = route.removesuffix("-report")
    view, text = back
    return Kind(
        label=label,
        load=_championship,
        data=data,
        template=f"reports/{name}.html",
        filename=lambda championship: f"{name}-{championship.pk}",
        access=lambda user, pk: access_championship(user, pk),
        route=route,
        title=lambda championship: (
            gettext("%(document)s — %(championship)s") % {"document": label, "championship": championship.name}
        ),
        back=lambda championship: (
            reverse(view, args=[championship.pk]),
            gettext("%(championship)s: %(page)s") % {"championship": championship.name, "page": text},
        ),
        about=about,
        can_retry=can_direct_championship_of,
    )


def _entry(pk: int) -> TeamEntry:
    return TeamEntry.objects.select_related("championship__venue", "federation").get(pk=pk)


def _roster_sheet_data(entry: TeamEntry) -> dict[str, Any]:
    from .roster_sheet import roster_sheet_data

    return roster_sheet_data(entry)


def access_roster_sheet(user, entry_id: int) -> TeamEntry:
    """The entry whose roster sheet ``user`` may read: whoever reads its roster page (``access_managed_entry``)."""
    from tournaments.services import access_managed_entry

    return access_managed_entry(user, entry_id)


def _can_manage_entry(user, entry: TeamEntry) -> bool:
    from tournaments.services import can_manage_entry

    return can_manage_entry(user, entry)


def _game_title(game: Game) -> str:
    return gettext("Official game report — game #%(number)s: %(home)s %(home_goals)s–%(away_goals)s %(away)s") % {
        "number": game.number,
        "home": game.home.display_name,
        "home_goals": game.home_goals,
        "away_goals": game.away_goals,
        "away": game.away.display_name,
    }


KINDS: dict[str, Kind] = {
    DocumentKind.GAME_REPORT: Kind(
        label=_("Official game report"),
        load=_game,
        data=_game_report_data,
        template="reports/game_report.html",
        filename=lambda game: f"game-report-{game.championship_id}-{game.number}",
        access=lambda user, pk: access_game_report(user, pk),
        route="game-report",
        title=_game_title,
        back=lambda game: (
            reverse("tournaments:results", args=[game.championship_id]),
            gettext("%(championship)s: results") % {"championship": game.championship.name},
        ),
        about=_("Rules 4.2 O, 4.3 A: the report the referees, the official scorer and the captains sign."),
        can_retry=can_direct_championship_of,
        done=_game_report_done,
    ),
    DocumentKind.STANDINGS: _championship_kind(
        label=_("Pool standings"),
        data=standings_data,
        route="standings-report",
        back=("tournaments:standings", _("standings")),
        about=_(
            "Rule 9.3: every pool's table, final or provisional, with how its ties were broken (9.3 B-G); a "
            "disqualified team's games removed (8.1 D)."
        ),
    ),
    DocumentKind.STATISTICS: _championship_kind(
        label=_("Championship statistics"),
        data=statistics_data,
        route="statistics-report",
        back=("tournaments:leaders", _("leaders")),
        about=_(
            "Rules 4.3 A, 4.6 note, 8.1 B-D: the scoring leaders, the goalkeepers, the penalty minutes and the "
            "teams' special teams, as the leaders page shows them."
        ),
    ),
    DocumentKind.ROSTER: Kind(
        label=_("Roster sheet"),
        load=_entry,
        data=_roster_sheet_data,
        template="reports/roster_sheet.html",
        filename=lambda entry: f"roster-{entry.championship_id}-{entry.pk}",
        access=lambda user, pk: access_roster_sheet(user, pk),
        route="roster-sheet",
        title=lambda entry: (
            gettext("Roster sheet — %(entry)s, %(championship)s")
            % {"entry": entry.display_name, "championship": entry.championship.name}
        ),
        back=lambda entry: (
            reverse("tournaments:entry-detail", args=[entry.pk]),
            gettext("%(entry)s: entry and roster") % {"entry": entry.display_name},
        ),
        about=_(
            "Rules 1.1, 3.1.1, 3.1.2: the team's players with their eligibility for the championship's category "
            "(its articles, any IHTC waiver, R-03), its officials and the roster limits (R-04)."
        ),
        public=False,
        # Those who read it render a failed one again: the same version, nothing they could not see changes.
        can_retry=_can_manage_entry,
        retry_by=_("the entry's team managers and its federation's staff"),
    ),
}


def _protest(pk: int):
    from discipline.models import Protest

    return Protest.objects.select_related("game__championship", "entry").get(pk=pk)


def _case(pk: int):
    from discipline.models import Case

    return Case.objects.select_related("championship").get(pk=pk)


def _discipline_data(name: str) -> Callable[[Any], dict[str, Any]]:
    def data(obj):
        from . import discipline_documents

        return getattr(discipline_documents, name)(obj)

    return data


def _access(name: str) -> Callable[[Any, int], Any]:
    def access(user, pk):
        from discipline import access as discipline_access

        return getattr(discipline_access, name)(user, pk)

    return access


def _is_committee(user, obj) -> bool:
    from discipline.access import is_committee

    return is_committee(user)


KINDS.update(
    {
        DocumentKind.PROTEST_DECISION: Kind(
            label=_("Protest decision letter"),
            load=_protest,
            data=_discipline_data("protest_decision_data"),
            template="reports/protest_decision.html",
            filename=lambda protest: f"protest-decision-{protest.pk}",
            access=_access("access_protest_letter"),
            route="protest-decision-letter",
            title=lambda protest: (
                gettext("Protest decision letter — protest #%(number)s of %(entry)s")
                % {"number": protest.pk, "entry": protest.entry.display_name}
            ),
            back=lambda protest: (
                reverse("discipline:protest-detail", args=[protest.pk]),
                gettext("Protest #%(number)s") % {"number": protest.pk},
            ),
            about=_(
                "Rule 9.1 A, R-52: the IHTC's decision on the protest, its reasons and the fee's outcome; the "
                "right of appeal (9.2 A, R-54)."
            ),
            public=False,
            can_retry=_is_committee,
            retry_by=_("the discipline committee"),
        ),
        DocumentKind.CASE_DECISION: Kind(
            label=_("Committee decision letter"),
            load=_case,
            data=_discipline_data("case_decision_data"),
            template="reports/case_decision.html",
            filename=lambda case: f"case-decision-{case.pk}",
            access=_access("access_decision_letter"),
            route="case-decision-letter",
            title=lambda case: (
                gettext("Committee decision letter — case #%(number)s: %(title)s")
                % {"number": case.pk, "title": case.shown_title}
            ),
            # The decision's page every reader of the letter reads (the parties do not read the case's page).
            back=lambda case: (
                reverse("discipline:appeal-lodge", args=[case.decision.pk]),
                gettext("Case #%(number)s: the decision and its appeals") % {"number": case.pk},
            ),
            about=_(
                "R-53, 8.2: the discipline committee's decision on the case, its sanctions and reasons; the "
                "appeal route and deadline (9.2 A, R-54)."
            ),
            public=False,
            can_retry=_is_committee,
            retry_by=_("the discipline committee"),
        ),
        DocumentKind.SUSPENSIONS: Kind(
            label=_("Suspension list"),
            load=_championship,
            data=_discipline_data("suspension_list_data"),
            template="reports/suspension_list.html",
            filename=lambda championship: f"suspensions-{championship.pk}",
            access=_access("access_suspension_list"),
            route="suspensions-report",
            title=lambda championship: (
                gettext("Suspension list — %(championship)s") % {"championship": championship.name}
            ),
            back=lambda championship: (
                reverse("discipline:championship-suspensions", args=[championship.pk]),
                gettext("%(championship)s: suspensions") % {"championship": championship.name},
            ),
            about=_(
                "Rules 8.2, 7.1, R-53: every suspension imposed in the championship, with its article, the games "
                "to serve and served, and its status."
            ),
            public=False,
            can_retry=can_direct_championship_of,
        ),
    }
)


def kind_of(kind: str) -> Kind:
    return KINDS[kind]


def fingerprint(data: dict[str, Any]) -> str:
    """The data's version: SHA-256 of its canonical JSON (keys sorted)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


# --- the current document -------------------------------------------------------------------------------------


def document_language(language: str | None = None) -> str:
    """The language a document is written in: ``language`` (the request's) when the site offers it, else English."""
    try:
        return translation.get_supported_language_variant(language or settings.LANGUAGE_CODE)
    except LookupError:
        return settings.LANGUAGE_CODE


def document_current(
    kind: str, obj: Any, *, language: str | None = None, now: datetime.datetime | None = None
) -> Document:
    """Return the document of ``obj``'s current data in ``language``; make its row and queue its render when there
    is none.

    One row per (kind, object, version, language): two requests at once make one row (the constraint), and only the
    one that made it queues the render, after the commit. The data are computed in the document's language (their
    labels are), so the version is that language's.
    """
    language = document_language(language)
    with translation.override(language):
        data = KINDS[kind].data(obj)
    version = fingerprint(data)
    same = {"kind": kind, "object_id": obj.pk, "version": version, "language": language}
    existing = Document.objects.filter(**same).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            document = Document.objects.create(
                **same, version_label=data.get("version_label", "")[:300], requested_at=now or timezone.now()
            )
    except IntegrityError:
        return Document.objects.get(**same)
    transaction.on_commit(partial(queue_render, document.pk))
    return document


def queue_render(document_id: int) -> None:
    """Queue the document's render (the task ``reports.tasks.render_document``, which answers the hook)."""
    hooks.queue_document_render(document_id)


def previous_documents(document: Document) -> list[Document]:
    """The object's documents of older data versions in the same language, newest first (kept, never served as
    current)."""
    return list(
        Document.objects.filter(kind=document.kind, object_id=document.object_id, language=document.language)
        .exclude(pk=document.pk)
        .order_by("-requested_at", "-pk")
    )


def document_retry(document: Document) -> Document:
    """Queue a failed document's render again (the data version is the same; a bug fixed, a bound raised)."""
    with transaction.atomic():
        updated = Document.objects.filter(pk=document.pk, status=DocumentStatus.FAILED).update(
            status=DocumentStatus.QUEUED, error="", requested_at=timezone.now()
        )
        if updated:
            transaction.on_commit(partial(queue_render, document.pk))
    document.refresh_from_db()
    return document


def request_game_report(game_id: int) -> Document | None:
    """Queue the official game report of a final game (after its final commit, an amendment's, a result's)."""
    game = Game.objects.select_related("championship").filter(pk=game_id, status=GameStatus.FINAL).first()
    if game is None:
        return None
    return document_current(DocumentKind.GAME_REPORT, game)


def game_report_on_commit(game_id: int) -> None:
    """Queue the game's report once the transaction that made it final (or amended it) commits.

    ``robust``: a report that cannot be queued (the broker down) never undoes a result; the page queues it on
    its next visit and beat's sweep retries what is stuck.
    """
    transaction.on_commit(partial(request_game_report, game_id), robust=True)


# --- the render ----------------------------------------------------------------------------------------------


def _lock(document_id: int) -> Document | None:
    """Lock the row, skipping it when another worker holds it (it is rendering it now)."""
    return Document.objects.select_for_update(skip_locked=True).filter(pk=document_id).first()


def _file_name(document: Document) -> str:
    """The PDF's name in its folder: the version, and the language when it is not English (one file each)."""
    suffix = "" if document.language == settings.LANGUAGE_CODE else f".{document.language}"
    return f"{document.version[:24]}{suffix}.pdf"


def _store(document: Document, pdf: bytes) -> str:
    """Write the PDF under a temporary name, then move it to its final name at once (os.replace)."""
    storage = document.file.storage
    final = document.file.field.generate_filename(document, _file_name(document))
    temporary = storage.save(f"{final}.partial-{uuid.uuid4().hex}", ContentFile(pdf))
    try:
        os.replace(storage.path(temporary), storage.path(final))
    except NotImplementedError:  # a storage without local paths: its save is whole or nothing
        storage.delete(temporary)
        if storage.exists(final):
            storage.delete(final)
        final = storage.save(final, ContentFile(pdf))
    return final


def _clear_partials(document: Document) -> None:
    """Remove what a killed render left under a temporary name (never under the final name)."""
    storage = document.file.storage
    folder = document.file.field.generate_filename(document, "x").rsplit("/", 1)[0]
    try:
        _, files = storage.listdir(folder)
    except (FileNotFoundError, NotImplementedError):
        return
    for name in files:
        if name.startswith(f"{_file_name(document)}.partial-"):
            storage.delete(f"{folder}/{name}")


def document_render(document_id: int) -> str:
    """Render the document if it still needs it; return what happened (done, busy, superseded, failed...).

    Idempotent: a done document is left alone; a row another worker holds is skipped (that worker finishes it,
    or its message comes back); a row whose data changed since it was queued is marked superseded (failed, with
    why) and the current version is requested instead. Errors of the render itself are kept on the row; only
    errors of the database or the storage raise (the task retries them).
    """
    with transaction.atomic():
        document = _lock(document_id)
        if document is None:
            return "busy" if Document.objects.filter(pk=document_id).exists() else "missing"
        if document.status in (DocumentStatus.DONE, DocumentStatus.FAILED):
            return document.status
        document.status = DocumentStatus.RENDERING
        document.started_at = timezone.now()
        document.attempts = F("attempts") + 1
        document.save(update_fields=["status", "started_at", "attempts"])
    # With row locks (PostgreSQL) the render holds its row's lock: another worker skips the row meanwhile. SQLite
    # has none and a transaction there takes the whole database's write lock: the render runs outside one.
    row_locks = connection.features.has_select_for_update_skip_locked
    with transaction.atomic() if row_locks else contextlib.nullcontext():
        document = _lock(document_id) if row_locks else Document.objects.filter(pk=document_id).first()
        if document is None or document.status != DocumentStatus.RENDERING:
            return "busy" if document is None else document.status
        kind = KINDS[document.kind]
        try:
            obj = kind.load(document.object_id)
        except ObjectDoesNotExist as error:
            return _fail(document, f"The {document.get_kind_display()} is about an object that is gone: {error}")
        with translation.override(document.language):
            data = kind.data(obj)
            if fingerprint(data) != document.version:
                transaction.on_commit(partial(document_current, document.kind, obj, language=document.language))
                return _fail(document, "Superseded: the data changed before this version was rendered.", "superseded")
            _clear_partials(document)
            html = render_to_string(
                kind.template,
                {**data, "version": document.version, "stylesheet": static_file_url("reports/documents.css")},
            )
        try:
            rendered = render_pdf(html)
        except RenderError as error:
            logger.warning("document %s: %s", document.pk, error)
            return _fail(document, str(error))
        with transaction.atomic():
            if Document.objects.filter(pk=document.pk, status=DocumentStatus.DONE).exists():
                return "done"  # SQLite: another worker finished it meanwhile (its file has the same name)
            document.file.name = _store(document, rendered.pdf)
            document.size, document.pages = len(rendered.pdf), rendered.pages
            document.render_ms = rendered.milliseconds
            document.status, document.error, document.finished_at = DocumentStatus.DONE, "", timezone.now()
            document.save(update_fields=["file", "size", "pages", "render_ms", "status", "error", "finished_at"])
            kind.done(obj, data)
    return "done"


def _fail(document: Document, error: str, answer: str = "failed") -> str:
    document.status, document.error, document.finished_at = DocumentStatus.FAILED, error[:4000], timezone.now()
    document.save(update_fields=["status", "error", "finished_at"])
    return answer


def stuck_document_ids(*, now: datetime.datetime | None = None) -> list[int]:
    """Documents queued or rendering for longer than ``REPORTS_STUCK_SECONDS``: their render was lost."""
    now = now or timezone.now()
    cutoff = now - datetime.timedelta(seconds=settings.REPORTS_STUCK_SECONDS)
    stuck = Q(status=DocumentStatus.QUEUED, requested_at__lt=cutoff) | Q(
        status=DocumentStatus.RENDERING, started_at__lt=cutoff
    )
    return list(Document.objects.filter(stuck).values_list("pk", flat=True)[:100])


def mark_requeued(ids: list[int], *, now: datetime.datetime | None = None) -> None:
    """Date the queued documents' requests now, so that a worker down for hours is not sent one per minute."""
    Document.objects.filter(pk__in=ids, status=DocumentStatus.QUEUED).update(requested_at=now or timezone.now())


# --- who reads -----------------------------------------------------------------------------------------------


def access_game_report(user, game_id: int) -> Game:
    """The game whose official report ``user`` may read, or 404.

    The report of a final game is a public document of a published championship (like its result); a draft
    championship's is its directors' (the championship's visibility: ``of_visible_championships``). A game that
    is not final has no report yet: 404.
    """
    games = Game.objects.select_related(
        "championship__venue", "championship__sanctioning_body", "home", "away", "sheet"
    )
    game = get_object_or_404(of_visible_championships(games, user), pk=game_id)
    if game.status != GameStatus.FINAL:
        raise Http404(gettext("The official game report is made once the game is final (4.2 O, 4.3 A)."))
    return game


def access_championship(user, championship_id: int) -> Championship:
    """The championship whose standings and statistics ``user`` may read, or 404.

    A published championship's documents are public, like its pages; a draft's are its directors'
    (``championship_visibility_q``).
    """
    championships = Championship.objects.select_related("venue", "sanctioning_body")
    return tournaments_access_championship(user, championship_id, queryset=championships)


def check_can_retry(user, kind: str, obj: Any) -> None:
    """Only those the kind names (``can_retry``: the championship's directors, the committee...) queue a failed
    render again."""
    spec = KINDS[kind]
    if not spec.can_retry(user, obj):
        raise PermissionDenied(
            gettext("Only %(retry_by)s render a failed %(document)s again.")
            % {"retry_by": spec.retry_by, "document": spec.label.lower()}
        )
