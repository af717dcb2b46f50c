"""Pages of the end of the game: sign-off on the device (4.2 O, 4.3 A), the sheet's log, the staff's amendment
of a final sheet and rescue import. Thin views over ``games.finalize``, ``games.rescue`` and ``games.sheet``."""

from __future__ import annotations

import json
import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext

from federation.models import Person
from tournaments.models import Game
from tournaments.selectors import of_visible_championships

from . import finalize, rescue
from .devices import ConsoleConflict
from .models import SheetAmendment, SignerRole
from .sheet import SheetRefused, sheet_log, sheet_state

DEFAULT_DEVICE = "sign-page"


def _visible_game(request, game_id: int, *, teams_known: bool = False) -> Game:
    """The game, if its championship is one the user may see; with ``teams_known``, once both teams are known
    (a bracket game waiting for earlier results has no sheet to sign or amend)."""
    games = Game.objects.select_related("championship__sanctioning_body", "phase", "home", "away")
    game = get_object_or_404(of_visible_championships(games, request.user), pk=game_id)
    if teams_known and (game.home_id is None or game.away_id is None):
        raise Http404(gettext("The game's teams are not known yet."))
    return game


def _messages_of(error: ValidationError) -> list[str]:
    if hasattr(error, "error_dict"):
        return [m for ms in error.message_dict.values() for m in ms]
    return list(error.messages)


@login_required
def sheet_sign(request, game_id: int):
    """The sign-off on the device (4.2 O, 4.3 A): the referees, the scorer and each team's captain or coach."""
    game = _visible_game(request, game_id, teams_known=True)
    finalize.check_can_sign(request.user, game)
    device = (request.POST.get("device") or request.GET.get("device") or DEFAULT_DEVICE)[:64]
    errors: list[str] = []
    status = 200
    if request.method == "POST":
        person = Person.objects.filter(pk=request.POST.get("person") or 0).first()
        role = request.POST.get("role", "")
        try:
            if person is None:
                raise ValidationError({"person": gettext("Rule 4.2 O / 4.3 A: choose who signs.")})
            # The signer types their own PIN or password on the device (issue 23), unless this is their login.
            _, finalized = finalize.sheet_sign(
                game=game,
                by=request.user,
                role=role,
                person=person,
                device=device,
                pin=request.POST.get("pin", ""),
                password=request.POST.get("password", ""),
                name=request.POST.get("name", ""),
            )
        except ValidationError as error:
            errors, status = _messages_of(error), 400
        except ConsoleConflict as conflict:
            errors, status = [str(conflict)], 409
        else:
            messages.success(
                request,
                gettext("The sheet is final: the result and the records follow.")
                if finalized
                else gettext("%(person)s signed.") % {"person": person},
            )
            return redirect(f"{request.path}?device={device}")
    state = finalize.signatures_state(game, user=request.user)
    signed = {(s.role, s.person_id) for s in state.signed}
    groups = []
    for title, roles in (
        (gettext("Referees (4.2 O)"), [SignerRole.REFEREE]),
        (gettext("Official scorer (4.3 A)"), [SignerRole.SCORER]),
        (
            gettext("%(team)s — captain or coach") % {"team": game.home},
            [SignerRole.HOME_CAPTAIN, SignerRole.HOME_COACH],
        ),
        (
            gettext("%(team)s — captain or coach") % {"team": game.away},
            [SignerRole.AWAY_CAPTAIN, SignerRole.AWAY_COACH],
        ),
    ):
        rows = [
            {
                "signer": s,
                "signed": (s.role, s.person.pk) in signed,
                "is_me": s.login is not None and s.login.pk == request.user.pk,
            }
            for s in state.signers
            if s.role in roles
        ]
        groups.append({"title": title, "rows": rows})
    context = {
        "game": game,
        "state": state,
        "groups": groups,
        "errors": errors,
        "device": device,
        "sheet": sheet_state(game),
    }
    return render(request, "games/sheet_sign.html", context, status=status)


@login_required
def sheet_log_page(request, game_id: int):
    """The sheet's log for its officials and directing staff: who entered what, when, voided entries included."""
    game = _visible_game(request, game_id)
    lines = sheet_log(game, user=request.user)
    devices = sorted({line.event.device for line in lines})
    types = sorted({line.event.payload.get("type", "") for line in lines})
    device, kind = request.GET.get("device", ""), request.GET.get("type", "")
    shown = [
        line
        for line in lines
        if (not device or line.event.device == device) and (not kind or line.event.payload.get("type") == kind)
    ]
    rows = [{"line": line} for line in shown]
    context = {"game": game, "rows": rows, "devices": devices, "types": types, "device": device, "type": kind}
    return render(request, "games/sheet_log.html", context)


@login_required
def sheet_amend(request, game_id: int):
    """The audited amendment of a final sheet (directing staff): void entries, add entries, give the reason."""
    game = _visible_game(request, game_id, teams_known=True)
    finalize.check_can_amend_sheet(request.user, game)
    lines = sheet_log(game, user=request.user)
    errors: list[str] = []
    status = 200
    if request.method == "POST":
        try:
            entries = amendment_entries(request.POST.getlist("void"), request.POST.get("events", ""))
            amendment, _ = finalize.sheet_amend(
                game=game, by=request.user, reason=request.POST.get("reason", ""), events=entries
            )
        except (ValidationError, SheetRefused) as error:
            errors, status = _messages_of(error), 400
        else:
            messages.success(
                request,
                gettext("Amendment recorded (%(count)s entries); the records follow.")
                % {"count": len(amendment.event_ids)},
            )
            return redirect(request.path)
    amendments = SheetAmendment.objects.filter(sheet__game=game).select_related("amended_by").order_by("-amended_at")
    context = {
        "game": game,
        "lines": lines,
        "amendments": amendments,
        "errors": errors,
        "reason": request.POST.get("reason", ""),
        "events": request.POST.get("events", ""),
        "sheet": sheet_state(game),
    }
    return render(request, "games/sheet_amend.html", context, status=status)


@login_required
def sheet_rescue(request, game_id: int):
    """Import a console's rescue file (directing staff): how many entries were stored, how many were there."""
    game = _visible_game(request, game_id)
    rescue.check_can_import_rescue(request.user, game)
    errors: list[str] = []
    result = None
    status = 200
    if request.method == "POST":
        upload = request.FILES.get("file")
        try:
            if upload is None:
                raise ValidationError({"file": gettext("R-10: choose the rescue file the console exported.")})
            if upload.size > rescue.MAX_RESCUE_BYTES:
                raise ValidationError({"file": gettext("R-10: the file is larger than a rescue file can be.")})
            result = rescue.rescue_import(game=game, by=request.user, data=rescue.read_rescue_file(upload.read()))
        except (ValidationError, SheetRefused) as error:
            errors, status = _messages_of(error), 400
    return render(request, "games/sheet_rescue.html", {"game": game, "errors": errors, "result": result}, status=status)


def amendment_entries(voids: list[str], text: str) -> list[dict]:
    """The entries of the amendment form: a correction for each entry ticked "void", then the events given as
    JSON (a list, or a batch with ``events``); an entry typed here without ``id`` or ``device_time`` gets a new
    id and the server's time (the staff's entry, R-10)."""
    now = timezone.now().isoformat()
    entries: list[dict] = [
        {"id": str(uuid.uuid4()), "type": "correction", "voids": voided, "device_time": now, "clock_offset_ms": 0}
        for voided in voids
    ]
    if text.strip():
        try:
            data = json.loads(text)
        except ValueError as error:
            raise ValidationError(
                {"events": gettext("R-10: the entries are JSON (%(error)s).") % {"error": error}}
            ) from None
        if isinstance(data, dict):
            data = data.get("events")
        if not isinstance(data, list) or not all(isinstance(e, dict) for e in data):
            raise ValidationError(
                {"events": gettext("R-10: the entries are a list of events (or a batch with 'events').")}
            )
        for event in data:
            entries.append({"id": str(uuid.uuid4()), "device_time": now, "clock_offset_ms": 0, **event})
    if not entries:
        raise ValidationError({"events": gettext("R-10: tick an entry to void or give the entries to add.")})
    return entries
