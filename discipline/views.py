"""The committee's pages (R-53): the queue of open incident reports, a report, a case (gather, hearing, statement,
decision with sanctions), the confidential reports and their attachments; the suspension lists (8.2) of staff
and team managers. Every page goes through ``discipline.access`` / ``discipline.suspensions``; the services
re-check with the acting user."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from common.numbers import NotANumber, whole_number
from discipline import access, appeals, cases, involved, selectors
from discipline.appeal_forms import DecideAppealForm, LodgeAppealForm
from discipline.case_forms import CaseFilterForm
from discipline.list_rows import case_table_rows, suspension_table_rows
from discipline.models import (
    Appeal,
    AppealStatus,
    CaseStatus,
    ConfidentialKind,
    Decision,
    DecisionOutcome,
    IncidentReport,
    Protest,
    ReportStatus,
    SuspensionKind,
    SuspensionStatus,
)
from federation.files import private_file_response
from portal.filters import MAX_ID
from portal.forms import apply_errors
from tournaments.models import Game
from tournaments.selectors import access_game


def _errors(exc: ValidationError) -> dict[str, list[str]]:
    return exc.message_dict if hasattr(exc, "error_dict") else {"__all__": list(exc.messages)}


# The names the case and report pages give the fields a refusal names (never the parameter's own name).
FIELD_LABELS = {
    "title": _("Title"),
    "reports": _("Reports"),
    "report": _("Report"),
    "protest": _("Protest"),
    "protests": _("Protests (9.1)"),
    "hearing_at": _("Hearing"),
    "text": _("Statement"),
    "attachments": _("Attachments"),
    "outcome": _("Outcome"),
    "reasons": _("Reasons"),
    "sanctions": _("Sanction (8.2)"),
    "person": _("Person"),
    "kind": _("Kind"),
    "games": pgettext_lazy("number of games of a suspension", "Games"),
    "until": _("Until (venue time)"),
    "article": _("Article"),
    "action": _("Action"),
}


def _said(errors: dict[str, list[str]]) -> list[tuple[str, str]]:
    """A refusal's messages as the page shows them: each with its field's label (none for the whole form)."""
    return [
        (str(FIELD_LABELS.get(field, "")) if field != "__all__" else "", message)
        for field, messages_ in errors.items()
        for message in messages_
    ]


@login_required
def queue(request):
    """The committee's queue: open incident reports, oldest first, with their deadlines."""
    access.check_committee(request.user)
    return render(request, "discipline/queue.html", {"reports": list(selectors.report_queue(request.user))})


@login_required
def case_list(request):
    """The committee's cases (R-53), newest first: open and decided, searched by person, team, game or title and
    filtered by status and championship; beside the queue of incident reports."""
    access.check_committee(request.user)
    form = CaseFilterForm(request.GET or None, championships=selectors.case_championships(request.user))
    chosen = {}
    if form.is_bound:
        form.is_valid()
        chosen = {k: v for k, v in getattr(form, "cleaned_data", {}).items() if k not in form.errors}
    rows = selectors.case_rows(
        selectors.case_list(
            request.user,
            q=chosen.get("q") or "",
            status=chosen.get("status") or "",
            championship=chosen.get("championship"),
        )
    )
    return render(
        request,
        "discipline/case_list.html",
        {
            "form": form,
            "rows": rows,
            "table_rows": case_table_rows(rows),
            "searched": any(chosen.values()),
            "limit": selectors.CASE_LIST_LIMIT,
        },
        status=400 if form.errors else 200,
    )


@login_required
def report_detail(request, pk: int):
    """An incident report, its confidential reports (the committee's), and opening a case from it (POST)."""
    report = access.access_incident_report(request.user, pk)
    errors: dict = {}
    if request.method == "POST":
        try:
            case = cases.open_case(reports=[report], title=request.POST.get("title", ""), by=request.user)
        except ValidationError as exc:
            errors = _errors(exc)
        else:
            messages.success(request, gettext("Case opened."))
            return redirect("discipline:case", pk=case.pk)
    confidential = (
        access.confidential_reports_visible_to(request.user)
        .filter(game=report.game)
        .select_related("author")
        .prefetch_related("attachments")
    )
    return render(
        request,
        "discipline/report.html",
        {"report": report, "confidential": confidential, "errors": _said(errors)},
        status=400 if errors else 200,
    )


def _sanction_from(post, zone) -> list[cases.Sanction]:
    person = post.get("person")
    if not person:
        return []
    try:
        person_id = whole_number(person, minimum=1, maximum=MAX_ID)
        games = whole_number(post["games"], minimum=1, maximum=MAX_ID) if post.get("games") else None
    except NotANumber:
        raise ValidationError(
            {"sanctions": gettext("Rule 8.2: give the person and the number of games as numbers.")}
        ) from None
    until = parse_datetime(post.get("until", "")) if post.get("until") else None
    if until is not None and timezone.is_naive(until):
        until = until.replace(tzinfo=zone)  # the venue's clock, as the form says
    return [
        cases.Sanction(
            person_id=person_id, kind=post.get("kind", ""), article=post.get("article", "8.2"), games=games, until=until
        )
    ]


@login_required
def case_detail(request, pk: int):
    """A case: its reports, protests, statements, attachments, hearing and decision; POST ``action``: gather (a
    report), gather_protest, hearing, statement, decide."""
    case = access.access_case(request.user, pk)
    errors: dict = {}
    if request.method == "POST":
        action, post = request.POST.get("action"), request.POST
        try:
            if action == "gather":
                report = access.access_incident_report(request.user, post.get("report"))
                cases.gather_report(case=case, report=report, by=request.user)
            elif action == "gather_protest":
                protest = access.access_protest(request.user, post.get("protest"))
                cases.gather_protest(case=case, protest=protest, by=request.user)
            elif action == "hearing":
                when = parse_datetime(post.get("hearing_at", ""))
                if when is not None and timezone.is_naive(when):
                    when = when.replace(tzinfo=case.championship.venue.zone)
                cases.schedule_hearing(case=case, hearing_at=when, by=request.user, why=post.get("why", ""))
            elif action == "statement":
                cases.add_statement(
                    case=case,
                    text=post.get("text", ""),
                    by=request.user,
                    attachments=request.FILES.getlist("attachments"),
                )
            elif action == "decide":
                cases.decide_case(
                    case=case, outcome=post.get("outcome", ""), reasons=post.get("reasons", ""), by=request.user,
                    sanctions=_sanction_from(post, case.championship.venue.zone),
                )  # fmt: skip
            else:
                raise ValidationError(
                    {"action": gettext("Choose: gather, gather_protest, hearing, statement or decide.")}
                )
        except ValidationError as exc:
            errors = _errors(exc)
        else:
            messages.success(request, gettext("Saved."))
            return redirect("discipline:case", pk=case.pk)
        case = access.access_case(request.user, pk)
    reports = list(case.incident_reports.select_related("game", "person", "entry"))
    decision = getattr(case, "decision", None)
    context = {
        "case": case,
        "reports": reports,
        "open_reports": IncidentReport.objects.filter(
            status=ReportStatus.OPEN, game__championship=case.championship
        ).select_related("game", "person"),
        "protests": case.protests.select_related("game", "entry"),
        "open_protests": access.protests_visible_to(request.user)
        .filter(case__isnull=True, game__championship=case.championship)
        .select_related("game", "entry"),
        "statements": case.statements.select_related("author"),
        "attachments": case.attachments.all(),
        "transitions": case.transitions.select_related("by"),
        "decision": decision,
        "may_appeal": decision is not None and appeals.may_appeal_now(request.user, decision),
        # R-53, 8.2: the people of the case's reports, its protests' incidents and its games' line-ups.
        "candidates": involved.sanction_candidates(case),
        "decided": case.status == CaseStatus.DECIDED,
        "outcomes": DecisionOutcome.choices,
        "kinds": [k for k in SuspensionKind.choices if k[0] != SuspensionKind.UNTIL_DECISION],
        "errors": _said(errors),
        "tz": case.championship.venue.zone,
    }
    return render(request, "discipline/case.html", context, status=400 if errors else 200)


@login_required
def protest_open_case(request, pk: int):
    """The committee opens a case from a protest (POST; R-53, 9.1 C): the case then gathers reports and more."""
    if request.method != "POST":
        return redirect("discipline:protest-detail", pk=pk)
    protest = access.access_protest(request.user, pk)
    access.check_committee(request.user)
    try:
        case = cases.open_case(protests=[protest], title=request.POST.get("title", ""), by=request.user)
    except ValidationError as exc:
        for label, message in _said(_errors(exc)):
            messages.error(
                request,
                pgettext("error summary: a field's label, then its error", "%(label)s: %(error)s")
                % {"label": label, "error": message}
                if label
                else message,
            )
        return redirect("discipline:protest-detail", pk=protest.pk)
    messages.success(
        request,
        gettext("Case #%(case)s opened from protest #%(protest)s.") % {"case": case.pk, "protest": protest.pk},
    )
    return redirect("discipline:case", pk=case.pk)


@login_required
def confidential_file(request, game_pk: int):
    """File a confidential report on a game: the referee's (4.2 P), or a 6.4.29 one (game and team officials)."""
    game = access_game(request.user, game_pk, queryset=Game.objects.select_related("championship", "home", "away"))
    kinds = [k for k in ConfidentialKind.choices if access.can_file_confidential(request.user, game, k[0])]
    if not kinds:
        raise PermissionDenied(
            gettext("Rule 6.4.29: only the game's officials and its teams' officials file this report.")
        )
    errors: dict = {}
    if request.method == "POST":
        try:
            report = cases.file_confidential_report(
                game=game, kind=request.POST.get("kind", ""), text=request.POST.get("text", ""), by=request.user,
                attachments=request.FILES.getlist("attachments"),
            )  # fmt: skip
        except ValidationError as exc:
            errors = _errors(exc)
        else:
            messages.success(request, gettext("Your confidential report is filed."))
            return redirect("discipline:confidential", pk=report.pk)
    return render(
        request,
        "discipline/confidential_form.html",
        {"game": game, "kinds": kinds, "errors": errors, "post": request.POST},
        status=400 if errors else 200,
    )


@login_required
def confidential_detail(request, pk: int):
    """CONFIDENTIAL: the committee, the executive and the author read it."""
    report = access.access_confidential_report(request.user, pk)
    attachments = report.attachments.all()
    return render(request, "discipline/confidential.html", {"report": report, "attachments": attachments})


@login_required
def attachment_download(request, pk: int):
    attachment = access.access_attachment(request.user, pk)
    return private_file_response(
        attachment.file, content_type=attachment.content_type, filename_stem=f"discipline-{attachment.pk}"
    )


@login_required
def championship_suspensions(request, pk: int):
    """Staff's list of a championship's suspensions (8.2), filtered by status, kind, provisional."""
    championship = access.access_suspension_list(request.user, pk)
    rows, errors = selectors.suspension_list(request.user, championship=championship, filters=_chosen(request))
    return _suspension_page(request, championship, list(rows), errors)


@login_required
def my_suspensions(request):
    """The suspensions a login may read: a team manager sees those of his teams' people; the public none."""
    rows, errors = selectors.suspension_list(request.user, filters=_chosen(request))
    return _suspension_page(request, None, list(rows), errors)


def _chosen(request) -> dict[str, str]:
    """The filter form's chosen values: its "all" option sends the parameter empty."""
    return {key: value for key, value in request.GET.items() if value}


def _suspension_page(request, championship, rows, errors):
    """The suspension list, with the appeal link (9.2 A) on each decided suspension the login may appeal, and what a
    filter's value breaks (``errors``, by parameter)."""
    appealable = access.appealable_decision_ids(request.user, [s.decision_id for s in rows])
    return render(
        request,
        "discipline/suspensions.html",
        {"championship": championship, "suspensions": rows, "filters": request.GET,
         # The rows, built once per page, their terms in the reader's language (issues 26, 27).
         "table_rows": suspension_table_rows(rows, appealable),
         "statuses": SuspensionStatus.choices, "kinds": SuspensionKind.choices, "filter_errors": errors},
    )  # fmt: skip


# --- appeals (9.2 A; R-54): lodged against a decision, decided by the IHTC executive ------------------------------


def _lodge(request, appealed, *, tz):
    """The lodging page of an appeal against ``appealed`` (a committee's decision, R-54, or a protest's, R-56), for
    a party ``can_file_appeal`` allows (the caller checked): the General Assembly, then (its appeal dismissed) the
    FIRS Congress; grounds, the fee if any. The same steps for both (``appeals.file_appeal``)."""
    upcoming = appeals.next_appeal(appealed) if appeals.may_appeal_now(request.user, appealed) else None
    level, previous = upcoming if upcoming else ("", None)
    form = LodgeAppealForm(request.POST or None, initial={"level": level})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            against = {"protest": appealed} if isinstance(appealed, Protest) else {"decision": appealed}
            try:
                appeal = appeals.file_appeal(
                    level=data["level"], grounds=data["grounds"], fee=data["fee"], by=request.user, **against
                )
            except ValidationError as exc:
                apply_errors(form, exc)
            else:
                messages.success(
                    request, gettext("Your appeal to the %(level)s is lodged.") % {"level": appeal.get_level_display()}
                )
                return redirect("discipline:appeal", pk=appeal.pk)
        status = 400
    context = {
        "decision": appealed if isinstance(appealed, Decision) else None,
        "protest": appealed if isinstance(appealed, Protest) else None,
        "form": form,
        "held": appealed.appeals.select_related("filer"),
        "open": upcoming is not None,
        "deadline": appeals.appeal_deadline(appealed, level, previous=previous) if level else None,
        "tz": tz,
    }
    return render(request, "discipline/appeal_form.html", context, status=status)


@login_required
def appeal_lodge(request, pk: int):
    """Lodge an appeal against a committee's decision (9.2 A; R-54). Whoever ``can_file_appeal`` allows; the rest
    may not learn the decision exists."""
    decision = get_object_or_404(Decision.objects.select_related("case__championship__venue"), pk=pk)
    if not access.can_file_appeal(request.user, decision):
        raise Http404(gettext("No such decision."))
    return _lodge(request, decision, tz=decision.case.championship.venue.zone)


@login_required
def protest_appeal_lodge(request, pk: int):
    """Lodge an appeal against the IHTC's decision on a protest (9.2 A; R-56), from the protest's page: the teams of
    the game and their federations (``access.access_protest_appeal``: 403 for a reader of the protest who is no
    party, 404 for the rest)."""
    protest = access.access_protest_appeal(request.user, pk)
    return _lodge(request, protest, tz=protest.game.championship.venue.zone)


def _access_appeal(user, pk: int) -> Appeal:
    try:
        return (
            access.appeals_visible_to(user)
            .select_related(
                "decision__case__championship__venue",
                "protest__game__championship__venue",
                "protest__entry",
                "filer",
                "decided_by",
                "previous",
            )  # fmt: skip
            .get(pk=pk)
        )
    except Appeal.DoesNotExist:
        raise Http404(gettext("No such appeal.")) from None


def _appeal_page(request, appeal: Appeal, form: DecideAppealForm | None = None, status: int = 200):
    context = {
        "appeal": appeal,
        "tz": appeal.championship.venue.zone,
        # The form stays with its errors after a refused decision (one recorded meanwhile, 9.2 A).
        "can_decide": (appeal.status == AppealStatus.FILED or form is not None)
        and appeals.can_decide_appeal(request.user),
        "form": form or DecideAppealForm(),
    }
    return render(request, "discipline/appeal.html", context, status=status)


@login_required
def appeal_detail(request, pk: int):
    """An appeal: filer, grounds, fee, deadline (venue time, R-54), status and decision; its deciders decide here."""
    return _appeal_page(request, _access_appeal(request.user, pk))


@login_required
@require_POST
def appeal_decide(request, pk: int):
    """Record the General Assembly's or the FIRS Congress's decision (9.2 A): upheld or dismissed, with reasons."""
    appeal = _access_appeal(request.user, pk)
    appeals.check_can_decide_appeal(request.user)
    form = DecideAppealForm(request.POST)
    if form.is_valid():
        try:
            appeals.decide_appeal(
                appeal=appeal, outcome=form.cleaned_data["outcome"], reasons=form.cleaned_data["reasons"],
                by=request.user,
            )  # fmt: skip
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            messages.success(request, gettext("The appeal's decision is recorded."))
            return redirect("discipline:appeal", pk=appeal.pk)
    return _appeal_page(request, appeal, form, status=400)
