"""Pages of protests (9.1): file one, follow it with its live deadlines, record the fee, review and decide,
answer; the lists of staff and committee and of a team manager. Thin views over ``discipline.protests``; who
sees what comes from ``discipline.access``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from federation.files import private_file_response
from portal.filters import id_or_none
from portal.forms import apply_errors
from tournaments.models import Game

from . import access as pa
from . import appeals
from . import protests as svc
from .list_rows import protest_table_rows
from .models import DeadlineKind, DeadlineStatus, Protest, ProtestAttachment, ProtestStatus
from .protest_forms import FeeForm, FileProtestForm, ProtestFilterForm, ReasonForm, TextForm

# How many of his teams' latest games a team manager's protest list offers to protest.
RECENT_GAMES = 10


def _list_queryset(queryset):
    # What the rows show (discipline.list_rows.protest_table_rows): the game at its venue, its teams, the team.
    return queryset.select_related("game__championship__venue", "game__home", "game__away", "entry").only(
        *("pk", "status", "kind", "filed_at", "fee_outcome"),
        *("fee_due", "fee_due_currency", "fee_received", "fee_received_currency"),
        *("game__number", "game__home__name", "game__away__name", "game__championship__venue__time_zone"),
        "entry__name",
    )


def _managed_games(user):
    entries = user.managed_entries.values("pk")
    return (
        Game.objects.filter(Q(home__in=entries) | Q(away__in=entries))
        .select_related("championship__venue", "home", "away")
        .order_by("-start_at", "-pk")[:100]
    )


@login_required
def protest_list(request):
    """Staff and committee: every protest they may see, filterable by status, kind and championship."""
    if not (pa.is_committee(request.user) or pa.keeps_protest_fees(request.user)):
        raise PermissionDenied(
            gettext("Protests are listed for the discipline committee, the IHTC executive and staff.")
        )
    form = ProtestFilterForm(request.GET or None)
    protests = pa.protests_visible_to(request.user)
    if form.is_valid():
        data = form.cleaned_data
        if data["status"]:
            protests = protests.filter(status=data["status"])
        if data["kind"]:
            protests = protests.filter(kind=data["kind"])
        if data["championship"]:
            protests = protests.filter(game__championship_id=data["championship"])
    protests = list(_list_queryset(protests)[:200])
    context = {"protests": protests, "table_rows": protest_table_rows(protests), "form": form, "mine": False}
    return render(request, "discipline/protest_list.html", context)


@login_required
def my_protests(request):
    """A team manager's protests: those of the games his entries play (filed by or against them)."""
    if not pa.manages_entries(request.user):
        raise PermissionDenied(gettext("This list is a team manager's."))
    protests = list(_list_queryset(pa.protests_visible_to(request.user))[:200])
    # The games a protest may be about (9.1): those begun, newest first; each links to the filing, game chosen.
    begun = [g for g in _managed_games(request.user)[:RECENT_GAMES] if g.start_at and g.start_at <= timezone.now()]
    context = {
        "protests": protests,
        "table_rows": protest_table_rows(protests),
        "form": None,
        "mine": True,
        "games": begun,
    }
    return render(request, "discipline/protest_list.html", context)


@login_required
def protest_file(request):
    """A team manager files a protest: the game, the incident as recorded, the statement, files; the fee shown."""
    if not pa.manages_entries(request.user):
        raise PermissionDenied(gettext("Rule 9.1: a team manager files his team's protests."))
    games = list(_managed_games(request.user))
    by_pk = {g.pk: g for g in games}
    chosen = by_pk.get(id_or_none(request.POST.get("game") or request.GET.get("game")))
    managed = set(request.user.managed_entries.values_list("pk", flat=True))
    entry = None
    incidents = []
    if chosen is not None:
        entry = chosen.home if chosen.home_id in managed else chosen.away
        incidents = svc.incidents_for(chosen, entry)
    status = 200
    if request.method == "POST" and chosen is not None:
        form = FileProtestForm(request.POST, request.FILES, games=games, incidents=incidents)
        if form.is_valid():
            try:
                kind, key = form.cleaned_kind_and_key()
                protest = svc.protest_file(
                    by=request.user,
                    game=chosen,
                    entry=entry,
                    kind=kind,
                    incident=key,
                    statement=form.cleaned_data["statement"],
                    attachments=form.cleaned_data["attachments"],
                )
            except ValidationError as error:
                apply_errors(form, error)
            else:
                messages.success(
                    request, gettext("Protest #%(number)s filed; the opposing team is told.") % {"number": protest.pk}
                )
                return redirect("discipline:protest-detail", protest.pk)
        status = 400
    else:
        form = FileProtestForm(initial={"game": chosen.pk if chosen else ""}, games=games, incidents=incidents)
    rules = svc.protest_rules(chosen.championship) if chosen else None
    context = {"form": form, "game": chosen, "entry": entry, "rules": rules, "incidents": incidents}
    return render(request, "discipline/protest_file.html", context, status=status)


def _fee_to_pay(protest: Protest) -> dict | None:
    """What the protesting team reads of a fee still to pay (R-52, 9.1 A): how much, by when (the written
    protest's deadline: without the fee the protest lapses then, R-51), to whom and how; None when no fee is due or
    it is in."""
    if protest.fee_due is None or protest.fee_received is not None or protest.status != ProtestStatus.FILED:
        return None
    due = next((d for d in protest.deadlines.all() if d.kind == DeadlineKind.PROTEST), None)
    championship = protest.game.championship
    return {
        "amount": protest.fee_due,
        # The currency by its code ("200.00 USD"): "$" alone does not say which dollar.
        "label": f"{number_format(protest.fee_due.amount, 2)} {protest.fee_due.currency}",
        "due_at": due.due_at if due is not None else None,
        "venue": championship.venue,
        "body": championship.sanctioning_body,
    }


def _detail_context(request, protest: Protest, **forms) -> dict:
    user = request.user
    tz = protest.game.championship.venue.zone
    now = timezone.now()
    # The template shows the due times on the venue's clock ({% timezone tz_name %}).
    deadlines = [{"row": d, "open": d.status == DeadlineStatus.OPEN} for d in protest.deadlines.all()]
    is_filer = pa.manages_entry(user, protest.entry)
    is_opponent = pa.manages_entry(user, protest.opponent)
    open_ = protest.status in (ProtestStatus.FILED, ProtestStatus.UNDER_REVIEW)
    context = {
        "protest": protest,
        "fee_to_pay": _fee_to_pay(protest),
        "deadlines": deadlines,
        "server_now": now,
        "tz_name": str(tz),
        "transitions": protest.transitions.select_related("by"),
        "attachments": protest.attachments.all(),
        "can_fee": pa.keeps_protest_fees(user, protest.game.championship)
        and protest.fee_due is not None
        and protest.fee_received is None
        and protest.status == ProtestStatus.FILED,
        "can_review": pa.is_committee(user) and protest.status == ProtestStatus.FILED,
        "can_case": pa.is_committee(user),
        # Whoever reads the protest reads its decision letter (``access_protest_letter``).
        "decision_letter": pa.has_decision_letter(protest),
        # the protest's decision is appealed as a committee's is (9.2 A), by the game's teams and federations.
        "appeals": pa.appeals_visible_to(user).filter(protest=protest).select_related("filer"),
        "may_appeal": appeals.may_appeal_now(user, protest),
        "can_decide": pa.is_committee(user) and protest.status == ProtestStatus.UNDER_REVIEW,
        "can_withdraw": is_filer and open_,
        "can_statement": is_filer and protest.status == ProtestStatus.FILED and not protest.statement,
        "can_answer": is_opponent and open_ and protest.answered_at is None,
        "fee_form": forms.get("fee_form") or FeeForm(initial={"amount": protest.fee_due}, tz=tz),
        "reason_form": forms.get("reason_form") or ReasonForm(),
        "text_form": forms.get("text_form") or TextForm(),
        "action": forms.get("action", ""),
    }
    return context


@login_required
def protest_detail(request, pk: int):
    protest = pa.access_protest(request.user, pk)
    return render(request, "discipline/protest_detail.html", _detail_context(request, protest))


def _act(request, pk: int, action: str, form_class, call):
    protest = pa.access_protest(request.user, pk)
    # The fee's time is typed on the venue's clock.
    kwargs = {"tz": protest.game.championship.venue.zone} if form_class is FeeForm else {}
    form = form_class(request.POST, request.FILES, **kwargs)
    if form.is_valid():
        try:
            call(protest, form.cleaned_data)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, gettext("Done."))
            return redirect("discipline:protest-detail", protest.pk)
    key = {FeeForm: "fee_form", ReasonForm: "reason_form", TextForm: "text_form"}[form_class]
    context = _detail_context(request, protest, **{key: form, "action": action})
    return render(request, "discipline/protest_detail.html", context, status=400)


@login_required
@require_POST
def protest_fee(request, pk: int):
    return _act(
        request,
        pk,
        "fee",
        FeeForm,
        lambda p, d: svc.protest_record_fee(
            by=request.user, protest=p, amount=d["amount"], method=d["method"], received_at=d["received_at"]
        ),
    )


@login_required
@require_POST
def protest_review(request, pk: int):
    return _act(
        request,
        pk,
        "review",
        ReasonForm,
        lambda p, d: svc.protest_start_review(by=request.user, protest=p, reason=d["reason"]),
    )


@login_required
@require_POST
def protest_decide(request, pk: int):
    decision = request.POST.get("decision")
    service = {"uphold": svc.protest_uphold, "reject": svc.protest_reject}.get(decision)
    if service is None:
        form = ReasonForm(request.POST)
        form.is_valid()
        form.add_error(None, "Rule 9.1 A: choose to uphold or to reject the protest.")
        protest = pa.access_protest(request.user, pk)
        context = _detail_context(request, protest, reason_form=form, action="decide")
        return render(request, "discipline/protest_detail.html", context, status=400)
    return _act(request, pk, "decide", ReasonForm, lambda p, d: service(by=request.user, protest=p, reason=d["reason"]))


@login_required
@require_POST
def protest_withdraw(request, pk: int):
    return _act(
        request,
        pk,
        "withdraw",
        ReasonForm,
        lambda p, d: svc.protest_withdraw(by=request.user, protest=p, reason=d["reason"]),
    )


@login_required
@require_POST
def protest_answer(request, pk: int):
    return _act(
        request,
        pk,
        "answer",
        TextForm,
        lambda p, d: svc.protest_answer(by=request.user, protest=p, answer=d["text"], attachments=d["attachments"]),
    )


@login_required
@require_POST
def protest_statement(request, pk: int):
    return _act(
        request,
        pk,
        "statement",
        TextForm,
        lambda p, d: svc.protest_add_statement(
            by=request.user, protest=p, statement=d["text"], attachments=d["attachments"]
        ),
    )


@login_required
def protest_attachment(request, pk: int, attachment_id: int):
    """A file of a protest, for those who may see the protest (private storage, downloaded, never rendered)."""
    protest = pa.access_protest(request.user, pk)
    attachment = ProtestAttachment.objects.filter(protest=protest, pk=attachment_id).first()
    if attachment is None:
        raise Http404(gettext("No such file."))
    return private_file_response(
        attachment.file, content_type=attachment.content_type, filename_stem=f"protest-{protest.pk}-{attachment.pk}"
    )
