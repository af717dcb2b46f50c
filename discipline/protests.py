"""The protest workflow (9.1; R-50 to R-52): one service per transition, each role-checked with ``by=``.

filed -> under review -> upheld (fee returned) / rejected (fee forfeited); filed -> lapsed (the system, at the
deadline, when the fee or the statement is missing); filed / under review -> withdrawn (the filer's team).
Every service locks the protest row (``select_for_update``), changes it in one transaction, writes one
``ProtestTransition`` (who, when, from, to, why) besides the simple-history row, and tells both teams through
``portal.notifications.notify`` with a key naming the occasion (so a retry tells nobody twice).

Deadlines come from ``discipline.deadlines`` (pure arithmetic) over the championship's ruleset (R-51) and are
anchored on recorded server times: the sheet's receipt of the event that ended the game (administrative,
9.1 B; a game without a sheet: the time its result was finalized) or of the incident (a ruling: the on-rink
protest the sheet records, R-50; a federation's protest: the incident's event).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import DateTimeField, ExpressionWrapper
from django.db.models.functions import Now
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop
from djmoney.money import Money

from accounts.models import User
from common.text import Text, Words, _, said, said_in
from federation.files import check_scan_upload
from games import labels
from games.models import GameProtestMark, LineupPlayer, SheetEvent
from games.selectors import on_rink_protests, protest_marks
from games.sheet import decided_at as sheet_decided_at
from portal.i18n import in_every_language, storable, untranslated
from portal.services import audited_create, audited_save, check_transition
from tournaments.facts import championship_ruleset
from tournaments.models import Game, RosterEntry, TeamEntry
from tournaments.ruleset import ProtestRules
from tournaments.venue_time import venue_stamp

from . import access as pa
from . import deadlines as dl
from . import hooks
from .models import (
    Deadline,
    DeadlineKind,
    DeadlineStatus,
    FeeMethod,
    FeeOutcome,
    Protest,
    ProtestAttachment,
    ProtestKind,
    ProtestStatus,
    ProtestTransition,
)

S = ProtestStatus
TRANSITIONS = {
    S.FILED: frozenset({S.UNDER_REVIEW, S.LAPSED, S.WITHDRAWN}),
    S.UNDER_REVIEW: frozenset({S.UPHELD, S.REJECTED, S.WITHDRAWN}),
    S.UPHELD: frozenset(),
    S.REJECTED: frozenset(),
    S.LAPSED: frozenset(),
    S.WITHDRAWN: frozenset(),
}
MAX_ATTACHMENTS = 5
MAX_STATEMENT = 10_000
# Sheet events a federation's protest may be about (9.1 C: "any incidents ... during the course of the
# Championships"): what the officials recorded, not the clock's housekeeping.
INCIDENT_EVENT_TYPES = ("goal", "penalty", "penalty_shot", "shootout_attempt", "forfeit", "goalkeeper_replaced")


def protest_rules(championship) -> ProtestRules:
    """The championship's protest deadlines and fee (R-51, R-52)."""
    return championship_ruleset(championship).protests


def game_end_at(game: Game) -> datetime.datetime | None:
    """The server time of the game's end (9.1 B's anchor): when the sheet received its ``game_end`` event (the
    latest one, a corrected end counting as it was received again); without one, when it received the entry that
    ended the game on the sheet (the last period's end that leaves a winner, overtime's goal, the shoot-out's
    deciding attempt: ``games.sheet.decided_at``, no ``game_end`` needed); a game without a sheet: when its result
    was finalized."""
    received = (
        SheetEvent.objects.filter(sheet__game=game, payload__type="game_end")
        .order_by("-sequence")
        .values_list("received_at", flat=True)
        .first()
    )
    return received or sheet_decided_at(game) or game.finalized_at


# An incident's key (``Incident.key``): a protest mark made before the start (9.1 B) by its id, or a sheet event (an
# on-rink protest, 9.1 A; an incident, 9.1 C) by its UUID, as ``incidents_of`` writes them.
INCIDENT_KEY_PATTERN = r"^(mark:[1-9][0-9]*|event:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$"


@dataclass(frozen=True)
class Incident:
    """Something a protest of ``kind`` can be about, as the game's records hold it, with its anchor time."""

    kind: str
    key: str  # "mark:<id>" or "event:<uuid>"
    label: str
    at: datetime.datetime | None  # the anchoring server time (None: the game has not ended yet)
    entry_id: int | None  # the team it belongs to (a mark, an on-rink protest); None: either team's
    mark_id: int | None = None
    event_id: str | None = None


def _mark_incidents(game: Game) -> list[Incident]:
    end = game_end_at(game)
    return [
        Incident(
            ProtestKind.ADMINISTRATIVE,
            f"mark:{mark.pk}",
            gettext("Made before the start by %(team)s: %(subject)s")
            % {"team": mark.entry, "subject": mark.get_subject_display()}
            + (f" ({mark.details})" if mark.details else ""),  # the captain's words, as written
            end,
            mark.entry_id,
            mark_id=mark.pk,
        )
        for mark in protest_marks(game)
    ]


def _ruling_incidents(game: Game) -> list[Incident]:
    return [
        Incident(
            ProtestKind.RULING,
            f"event:{p.event_id}",
            gettext("On-rink protest by %(team)s, %(clock)s")
            % {"team": p.entry, "clock": labels.period_clock(p.period, p.time)},
            p.recorded_at,
            p.entry.pk if p.entry else None,
            event_id=str(p.event_id),
        )
        for p in on_rink_protests(game)
    ]


def _wearers(game: Game) -> dict[tuple[str, str], str]:
    """Who wore each number for each side of ``game`` (``("home", "8") -> "FAVRE"``): the line-up's, else the
    team's roster's; two queries."""
    sides = {game.home_id: "home", game.away_id: "away"}
    sides.pop(None, None)
    named: dict[tuple[str, str], str] = {}
    lined = LineupPlayer.objects.filter(lineup__game=game, lineup__entry_id__in=sides)
    for entry_id, number, last in lined.values_list("lineup__entry_id", "number", "person__last_name"):
        named[(sides[entry_id], number)] = last.upper()
    given = {side for side, _ in named}
    rest = [entry_id for entry_id, side in sides.items() if side not in given]
    if rest:
        rows = RosterEntry.objects.filter(entry_id__in=rest).values_list("entry_id", "number", "person__last_name")
        for entry_id, number, last in rows:
            named.setdefault((sides[entry_id], number), last.upper())
    return named


def _numbered(wearers: dict[tuple[str, str], str], side: object, number: object) -> str:
    """``#8 FAVRE`` (the number alone when nobody of the side wore it)."""
    name = wearers.get((str(side), str(number)))
    return f"#{number} {name}" if name else f"#{number}"


def sheet_incident_label(game: Game, payload: dict, wearers: dict[tuple[str, str], str]) -> str:
    """A sheet entry as a protest names it (issue 25): "Goal by Spain, P1 12:29 (#8 FAVRE): assists #9 DURAND";
    "Penalty to Italy, P1 3:00 (#12 ROSSI): Tripping (6.4.33 A), Minor"."""
    kind, side = payload.get("type"), payload.get("team")
    team = labels.side_name(game, side) if side else ""
    if kind == "goal" and team:
        head = gettext("Goal by %(team)s") % {"team": team}
    elif kind == "penalty" and team:
        head = gettext("Penalty to %(team)s") % {"team": team}
    elif team:
        head = f"{labels.event_kind_label(kind)}, {team}"
    else:
        head = labels.event_kind_label(kind)
    where = labels.period_clock(payload.get("period"), payload.get("time"))
    text = f"{head}, {where}" if where else head
    if payload.get("player") not in (None, ""):
        text += f" ({_numbered(wearers, side, payload['player'])})"
    rest = {key: value for key, value in payload.items() if key not in ("team", "player", "assist", "assists")}
    parts = [labels.event_details(game, rest)] if labels.event_details(game, rest) else []
    assists = payload.get("assists") or ([payload["assist"]] if payload.get("assist") else [])
    if assists:
        numbers = ", ".join(_numbered(wearers, side, a) for a in assists)
        parts.insert(0, gettext("assists %(numbers)s") % {"numbers": numbers})
    return f"{text}: {', '.join(parts)}" if parts else text


def _sheet_incidents(game: Game) -> list[Incident]:
    rows = SheetEvent.objects.filter(sheet__game=game, payload__type__in=INCIDENT_EVENT_TYPES).order_by("sequence")
    wearers = _wearers(game)
    return [
        Incident(
            ProtestKind.FEDERATION,
            f"event:{row['event_id']}",
            sheet_incident_label(game, row["payload"], wearers),
            row["received_at"],
            None,
            event_id=str(row["event_id"]),
        )
        for row in rows.values("event_id", "payload", "received_at")
    ]


def incidents_of(game: Game, kind: str) -> list[Incident]:
    """The incidents a protest of ``kind`` about ``game`` can name (the form's choices)."""
    if kind == ProtestKind.ADMINISTRATIVE:
        return _mark_incidents(game)
    if kind == ProtestKind.RULING:
        return _ruling_incidents(game)
    if kind == ProtestKind.FEDERATION:
        return _sheet_incidents(game)
    return []


def incidents_for(game: Game, entry: TeamEntry, kind: str | None = None) -> list[Incident]:
    """What ``entry`` can protest in ``game`` (9.1): the incidents of ``kind`` (every kind when None) that are its
    own or either team's (an on-rink protest or a mark of the other team is not)."""
    kinds = [kind] if kind else list(ProtestKind.values)
    return [i for k in kinds for i in incidents_of(game, k) if i.entry_id in (None, entry.pk)]


def protesting_entry(user: User, game: Game, entry: TeamEntry | None = None) -> TeamEntry:
    """The team ``user`` protests for in ``game`` (9.1: a team manager files his team's protest): ``entry`` when
    named (it must play the game and be his), else the one of the game's teams he manages."""
    teams = [team for team in (game.home, game.away) if team is not None]
    if entry is not None:
        if entry.pk not in {team.pk for team in teams}:
            raise ValidationError({"entry": _("Rule 9.1: %(team)s does not play this game.", team=entry)})
        pa.require(pa.manages_entry(user, entry), _("Rule 9.1: only a team manager of the protesting team files."))
        return entry
    managed = [team for team in teams if pa.manages_entry(user, team)]
    pa.require(bool(managed), _("Rule 9.1: only a team manager of one of the game's teams files its protest."))
    if len(managed) > 1:
        raise ValidationError({"entry": _("Rule 9.1: you manage both teams of this game; name the protesting one.")})
    return managed[0]


def _status(protest: Protest) -> Text:
    """The protest's status as a refusal names it ("the protest is upheld"), said in the reader's language."""
    words = {
        S.FILED: _("filed"),
        S.UNDER_REVIEW: _("under review"),
        S.UPHELD: _("upheld"),
        S.REJECTED: _("rejected"),
        S.LAPSED: _("lapsed"),
        S.WITHDRAWN: _("withdrawn"),
    }
    return words.get(protest.status, _("closed"))


def find_incident(game: Game, kind: str, key: str, entry: TeamEntry) -> Incident:
    """The incident ``key`` of the game for a protest of ``kind`` by ``entry``, or a ValidationError citing why not."""
    incidents = incidents_of(game, kind)
    if kind == ProtestKind.ADMINISTRATIVE and not [i for i in incidents if i.entry_id == entry.pk]:
        raise ValidationError(
            {
                "incident": _(
                    "Rule 9.1 B: only an administrative protest made to the referee before the start is valid, and "
                    "the sheet records none by %(team)s for this game.",
                    team=entry,
                )
            }
        )
    if kind == ProtestKind.RULING and not [i for i in incidents if i.entry_id == entry.pk]:
        raise ValidationError(
            {
                "incident": _(
                    "R-50, Rule 9.1 A: a protest of a referee's ruling is valid only if the captain made it on the "
                    "rink to the referee; the game sheet records none by %(team)s.",
                    team=entry,
                )
            }
        )
    for incident in incidents:
        if incident.key == key and (incident.entry_id in (None, entry.pk)):
            return incident
    raise ValidationError(
        {"incident": _("Rule 9.1: choose an incident of this game as recorded (not %(key)s).", key=repr(key))}
    )


def filing_deadline(kind: str, incident: Incident, rules: ProtestRules) -> dl.DeadlineSpec:
    if incident.at is None:
        raise ValidationError(
            {
                "incident": _(
                    "Rule 9.1 B: the written protest confirms it within 1 h 30 min of the game's end; the game has "
                    "not ended yet, so its deadline is not known."
                )
            }
        )
    return dl.protest_deadline(kind, anchor=incident.at, rules=rules)


def check_filing_in_time(spec: dl.DeadlineSpec, *, now: datetime.datetime, tz) -> None:
    """Refuse a filing after its deadline, citing the article and the deadline in the venue's time (R-51)."""
    if not spec.is_open(now):
        local_now = now.astimezone(tz)
        raise ValidationError(
            {
                "incident": _(
                    "Rule %(article)s: the written protest was due by %(due)s; it is now %(now)s, too late (R-51).",
                    article=spec.article,
                    due=spec.describe(tz),
                    now=dl.moment_text(local_now),
                )
            }
        )


def _check_attachments(files: Sequence, field: str = "attachments") -> list[tuple[object, str]]:
    if len(files) > MAX_ATTACHMENTS:
        raise ValidationError({field: _("At most %(count)s files.", count=MAX_ATTACHMENTS)})
    return [(f, check_scan_upload(f, field=field)) for f in files]


def _store_attachments(protest: Protest, checked, by: User, now) -> None:
    for uploaded, content_type in checked:
        row = ProtestAttachment(
            protest=protest,
            content_type=content_type,
            name=str(getattr(uploaded, "name", "file"))[:120],
            uploaded_by=by,
            uploaded_at=now,
        )
        row.file.save("upload", uploaded, save=False)
        audited_save(row, by)


def _clean_text(value: str, field: str, limit: int = MAX_STATEMENT) -> str:
    value = (value or "").strip()
    if len(value) > limit:
        raise ValidationError({field: _("At most %(count)s characters.", count=limit)})
    return value


def _teams_managers(protest: Protest) -> list[User]:
    users: dict[int, User] = {}
    for entry in (protest.game.home, protest.game.away):
        if entry is not None:
            for user in entry.managers.all():
                users[user.pk] = user
    return list(users.values())


def _entry_managers(entry: TeamEntry | None) -> list[User]:
    return list(entry.managers.all()) if entry is not None else []


def protest_url(protest: Protest) -> str:
    return reverse("discipline:protest-detail", args=[protest.pk])


# The notifications are stored messages (``common.text.said``), said in each reader's language where they are
# shown (issue 26, ``portal.notifications``); a team's own words (its answer) are stored as written.


def _and(parts: Sequence) -> Text:
    """``a``, ``a and b``, ``a and b and c``, said in the reader's language."""
    joined = parts[0]
    for part in parts[1:]:
        joined = said("{first} and {second}", first=joined, second=part)
    return joined


def _notify(protest: Protest, occasion: str, subject, body, *, users=None, now=None) -> None:
    from portal.notifications import notify  # the portal's notifications sit above the apps

    notify(
        users=_teams_managers(protest) if users is None else users,
        key=f"protest:{protest.pk}:{occasion}",
        subject=said("Protest #{number}, {game}: {what}", number=protest.pk, game=str(protest.game), what=subject),
        body=body,
        url=protest_url(protest),
        now=now,
    )


def tell_teams(protest: Protest, occasion: str, subject, body, *, now=None) -> None:
    """Tell the managers of both teams of the protest's game about ``occasion``, once (its appeals too, R-56)."""
    _notify(protest, occasion, subject, body, now=now)


def _transition(protest: Protest, to: str, *, by: User | None, now, reason: str = "", article: str = "9.1") -> str:
    """Move ``protest`` (locked) to ``to``, with its transition row; return the status it had. A ``reason`` the
    portal wrote (a ``Text``) is stored as its message too (issue 26); a person's is kept as written."""
    before = protest.status
    check_transition(
        TRANSITIONS,
        before,
        to,
        subject=gettext("A protest"),
        article=gettext("Rule %(article)s") % {"article": article},
    )
    protest.status = to
    ProtestTransition.objects.create(
        protest=protest,
        from_status=before,
        to_status=to,
        by=by,
        at=now,
        reason=reason,
        reason_message=storable(reason),
    )
    return before


def _locked(protest: Protest | int) -> Protest:
    pk = protest.pk if isinstance(protest, Protest) else protest
    return (
        Protest.objects.select_for_update(of=("self",))
        .select_related("game__championship__venue", "game__home", "game__away", "entry")
        .get(pk=pk)
    )


def _venue_tz(protest: Protest):
    return protest.game.championship.venue.zone


def _close_deadlines(protest: Protest, *, kinds: Sequence[str], status: str, now) -> None:
    Deadline.objects.filter(protest=protest, kind__in=kinds, status=DeadlineStatus.OPEN).update(
        status=status, closed_at=now
    )


def _meet_protest_deadline_if_complete(protest: Protest, now) -> None:
    if protest.fee_is_in and protest.statement:
        _close_deadlines(protest, kinds=[DeadlineKind.PROTEST], status=DeadlineStatus.MET, now=now)


# --- Filing ---------------------------------------------------------------------------------------------------


def protest_file(
    *,
    by: User,
    game: Game,
    entry: TeamEntry,
    kind: str,
    incident: str,
    statement: str = "",
    attachments: Sequence = (),
    now: datetime.datetime | None = None,
) -> Protest:
    """File a protest of ``entry`` about ``game`` (9.1): the team's manager, within the deadline (R-51).

    ``incident`` is an ``Incident.key`` of ``incidents_of(game, kind)``. The statement may follow (it and the fee
    must be in by the deadline, or the protest lapses); the fee due is the ruleset's (R-52), none for 9.1 C.
    """
    now = now or timezone.now()
    pa.require(
        pa.manages_entry(by, entry), _("Rule 9.1: only a team manager of the protesting team files its protest.")
    )
    if kind not in ProtestKind.values:
        raise ValidationError({"kind": _("Rule 9.1: choose one of %(kinds)s.", kinds=", ".join(ProtestKind.values))})
    if entry.pk not in (game.home_id, game.away_id):
        raise ValidationError({"game": _("Rule 9.1: %(team)s does not play this game.", team=entry)})
    statement = _clean_text(statement, "statement")
    checked = _check_attachments(attachments)
    rules = protest_rules(game.championship)
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).select_related("championship__venue").get(pk=game.pk)
        found = find_incident(game, kind, incident, entry)
        # The incident as the records hold it, in every language: each reader reads it in theirs (issue 26).
        incident_text = in_every_language(lambda: find_incident(game, kind, incident, entry).label)
        spec = filing_deadline(kind, found, rules)
        check_filing_in_time(spec, now=now, tz=game.championship.venue.zone)
        same = Protest.objects.filter(game=game, entry=entry, kind=kind).exclude(
            status__in=[S.WITHDRAWN, S.LAPSED, S.REJECTED]
        )
        same = (
            same.filter(protest_mark_id=found.mark_id)
            if found.mark_id
            else same.filter(incident_event_id=found.event_id)
        )
        if same.exists():
            raise ValidationError({"incident": _("Rule 9.1: your team has already protested this incident.")})
        fee = Money(rules.fee_amount, rules.fee_currency) if dl.KIND_RULES[kind].fee_due else None
        protest = audited_create(
            Protest,
            by,
            kind=kind,
            game=game,
            entry=entry,
            protest_mark=GameProtestMark.objects.get(pk=found.mark_id) if found.mark_id else None,
            incident_event_id=found.event_id,
            incident=incident_text[:300],
            incident_message=storable(incident_text),
            incident_at=spec.anchor,
            statement=statement,
            filed_by=by,
            filed_at=now,
            fee_due=fee,
        )
        ProtestTransition.objects.create(protest=protest, from_status="", to_status=S.FILED, by=by, at=now)
        Deadline.objects.create(
            protest=protest, kind=DeadlineKind.PROTEST, article=spec.article, anchor_at=spec.anchor, due_at=spec.due
        )
        answer = dl.answer_deadline(filed_at=now, rules=rules)
        Deadline.objects.create(
            protest=protest,
            kind=DeadlineKind.ANSWER,
            article=answer.article,
            anchor_at=answer.anchor,
            due_at=answer.due,
        )
        _store_attachments(protest, checked, by, now)
        _meet_protest_deadline_if_complete(protest, now)
        tz = game.championship.venue.zone
        fee_text = said("The fee of {fee} is due by then (R-52).", fee=fee) if fee else said("No fee is due (9.1 C).")
        _notify(
            protest,
            "filed",
            said("filed by {team}", team=str(entry)),
            Text.made(
                "{protest}\n{due} {fee}\n{answer}",
                {
                    "protest": said(
                        "{team} protests ({kind}): {incident}.",
                        team=str(entry),
                        kind=untranslated(ProtestKind(protest.kind).label),
                        incident=incident_text,
                    ),
                    "due": said(
                        "The written protest is due by {due} (Rule {article}).",
                        due=spec.describe(tz),
                        article=spec.article,
                    ),
                    "fee": fee_text,
                    "answer": said("The opposing team may answer in writing until {due}.", due=answer.describe(tz)),
                },
                braced=True,
            ),
            now=now,
        )
        hooks.protest_filed(protest_id=protest.pk)  # answered by webhooks, after the commit
    return protest


def protest_add_statement(
    *, by: User, protest: Protest, statement: str, attachments: Sequence = (), now: datetime.datetime | None = None
) -> Protest:
    """The filer's written statement (and files) after filing, within the protest's deadline (9.1, R-51)."""
    now = now or timezone.now()
    statement = _clean_text(statement, "statement")
    if not statement:
        raise ValidationError({"statement": _("Rule 9.1: a protest must be written; write the statement.")})
    checked = _check_attachments(attachments)
    with transaction.atomic():
        protest = _locked(protest)
        pa.require(pa.manages_entry(by, protest.entry), _("Rule 9.1: only the protesting team's manager writes it."))
        if protest.status != S.FILED:
            raise ValidationError({"statement": _("Rule 9.1: the protest is %(status)s.", status=_status(protest))})
        deadline = protest.deadlines.get(kind=DeadlineKind.PROTEST)
        spec = dl.DeadlineSpec(deadline.kind, deadline.article, deadline.anchor_at, deadline.due_at)
        check_filing_in_time(spec, now=now, tz=_venue_tz(protest))
        protest.statement = statement
        audited_save(protest, by)
        _store_attachments(protest, checked, by, now)
        _meet_protest_deadline_if_complete(protest, now)
    return protest


# --- The fee (9.1 A, R-52) -------------------------------------------------------------------------------------


def protest_record_fee(
    *,
    by: User,
    protest: Protest,
    amount: Money,
    method: str,
    received_at: datetime.datetime | None = None,
    now: datetime.datetime | None = None,
) -> Protest:
    """Staff record the fee as received (cash or transfer, at the venue): R-52, US$200 or the equivalent.

    In the fee's own currency the amount must be at least the fee; another currency is "the equivalent" the
    staff accepted (R-52), any positive amount. ``received_at`` defaults to now and cannot be in the future.
    """
    now = now or timezone.now()
    received_at = received_at or now
    if method not in FeeMethod.values:
        raise ValidationError({"method": _("R-52: the fee is received in cash or by transfer.")})
    if amount is None or amount.amount <= 0:
        raise ValidationError({"amount": _("R-52: enter the amount received.")})
    if received_at > now:
        raise ValidationError({"received_at": _("R-52: the fee cannot be received in the future.")})
    with transaction.atomic():
        protest = _locked(protest)
        pa.require(
            pa.keeps_protest_fees(by, protest.game.championship),
            _("R-52: only staff of the sanctioning body or IHTC executives record protest fees."),
        )
        if protest.fee_due is None:
            raise ValidationError({"amount": _("Rule 9.1 C: a federation's protest has no fee.")})
        if protest.fee_received is not None:
            raise ValidationError(
                {"amount": _("R-52: the fee was recorded already (%(fee)s).", fee=protest.fee_received)}
            )
        if protest.status != S.FILED:
            raise ValidationError({"amount": _("R-52: the protest is %(status)s.", status=_status(protest))})
        if str(amount.currency) == str(protest.fee_due.currency) and amount < protest.fee_due:
            raise ValidationError(
                {"amount": _("R-52: the fee is %(fee)s; %(amount)s was entered.", fee=protest.fee_due, amount=amount)}
            )
        protest.fee_received = amount
        protest.fee_method = method
        protest.fee_received_at = received_at
        protest.fee_received_by = by
        audited_save(protest, by)
        _meet_protest_deadline_if_complete(protest, now)
        _notify(
            protest,
            "fee",
            said_in("protest notification", "fee received"),
            said(
                "The protest fee of {amount} ({method}) was received (R-52).",
                amount=str(amount),
                method=untranslated(FeeMethod(method).label),
            ),
            users=_entry_managers(protest.entry),
            now=now,
        )
    return protest


# --- Review and decision (9.1 A: "The IHTC will then investigate the protest") ------------------------------------


def protest_start_review(
    *, by: User, protest: Protest, reason: str = "", now: datetime.datetime | None = None
) -> Protest:
    """The committee starts its review: the fee (if due) and the statement must be in (9.1 A, R-52)."""
    now = now or timezone.now()
    with transaction.atomic():
        protest = _locked(protest)
        pa.require(pa.is_committee(by), _("Rule 9.1 A: the discipline committee or the IHTC executive reviews."))
        if not protest.fee_is_in:
            raise ValidationError({"status": _("Rule 9.1 A, R-52: the protest fee has not been received.")})
        if not protest.statement:
            raise ValidationError({"status": _("Rule 9.1: the written statement is missing.")})
        _transition(protest, S.UNDER_REVIEW, by=by, now=now, reason=_clean_text(reason, "reason"))
        audited_save(protest, by)
        _meet_protest_deadline_if_complete(protest, now)
        _notify(
            protest,
            "under_review",
            said_in("protest notification", "under review"),
            said("The discipline committee is reviewing the protest."),
            now=now,
        )
    return protest


# A decision as the teams are told it (9.1 A, R-52): the subject, the sentence, the fee's outcome.
_DECIDED = {
    S.UPHELD: (said_in("protest notification", "upheld"), gettext_noop("The protest is upheld: {reason}")),
    S.REJECTED: (said_in("protest notification", "rejected"), gettext_noop("The protest is rejected: {reason}")),
}
_FEE_OUTCOME_TOLD = {
    FeeOutcome.RETURNED: said("The fee is returned (9.1 A, R-52)."),
    FeeOutcome.FORFEITED: said("The fee is forfeited (9.1 A, R-52)."),
}


def _decide(protest, *, by, to, outcome, reason, now) -> Protest:
    now = now or timezone.now()
    reason = _clean_text(reason, "reason")
    if not reason:
        raise ValidationError({"reason": _("Rule 9.1 A: give the reasons of the decision.")})
    with transaction.atomic():
        protest = _locked(protest)
        pa.require(pa.is_committee(by), _("Rule 9.1 A: the discipline committee or the IHTC executive decides."))
        _transition(protest, to, by=by, now=now, reason=reason, article="9.1 A")
        if protest.fee_due is not None:
            protest.fee_outcome = outcome
        protest.decided_at = now
        protest.decision_reason = reason
        audited_save(protest, by)
        _close_deadlines(
            protest, kinds=[DeadlineKind.PROTEST, DeadlineKind.ANSWER], status=DeadlineStatus.CANCELLED, now=now
        )
        subject, sentence = _DECIDED[to]
        body = said(sentence, reason=Words(reason))  # the committee's reasons: its own words, never translated
        if protest.fee_due is not None:
            body = Text.made("{decision} {fee}", {"decision": body, "fee": _FEE_OUTCOME_TOLD[outcome]}, braced=True)
        _notify(protest, to, subject, body, now=now)
        hooks.protest_decided(protest_id=protest.pk)  # answered by webhooks, after the commit
    return protest


def protest_uphold(*, by: User, protest: Protest, reason: str, now: datetime.datetime | None = None) -> Protest:
    """The protest is upheld: the fee is returned in full (9.1 A, R-52)."""
    return _decide(protest, by=by, to=S.UPHELD, outcome=FeeOutcome.RETURNED, reason=reason, now=now)


def protest_reject(*, by: User, protest: Protest, reason: str, now: datetime.datetime | None = None) -> Protest:
    """The protest is found unjustified: the fee is forfeited (9.1 A, R-52)."""
    return _decide(protest, by=by, to=S.REJECTED, outcome=FeeOutcome.FORFEITED, reason=reason, now=now)


def protest_withdraw(*, by: User, protest: Protest, reason: str = "", now: datetime.datetime | None = None) -> Protest:
    """The protesting team withdraws its protest (its manager); a fee received is returned."""
    now = now or timezone.now()
    with transaction.atomic():
        protest = _locked(protest)
        pa.require(pa.manages_entry(by, protest.entry), _("Rule 9.1: only the protesting team's manager withdraws it."))
        _transition(protest, S.WITHDRAWN, by=by, now=now, reason=_clean_text(reason, "reason"))
        if protest.fee_received is not None:
            protest.fee_outcome = FeeOutcome.RETURNED
        audited_save(protest, by)
        _close_deadlines(
            protest, kinds=[DeadlineKind.PROTEST, DeadlineKind.ANSWER], status=DeadlineStatus.CANCELLED, now=now
        )
        _notify(
            protest,
            "withdrawn",
            said_in("protest notification", "withdrawn"),
            said("{team} withdrew the protest.", team=str(protest.entry)),
            now=now,
        )
    return protest


def protest_answer(
    *, by: User, protest: Protest, answer: str, attachments: Sequence = (), now: datetime.datetime | None = None
) -> Protest:
    """The opposing team's written answer, by its manager, within the ruleset's answer time (9.1 A; R-51)."""
    now = now or timezone.now()
    answer = _clean_text(answer, "answer")
    if not answer:
        raise ValidationError({"answer": _("Rule 9.1 A: write the answer.")})
    checked = _check_attachments(attachments)
    with transaction.atomic():
        protest = _locked(protest)
        pa.require(pa.manages_entry(by, protest.opponent), _("Rule 9.1 A: only the opposing team's manager answers."))
        if protest.status not in (S.FILED, S.UNDER_REVIEW):
            raise ValidationError({"answer": _("Rule 9.1 A: the protest is %(status)s.", status=_status(protest))})
        if protest.answered_at is not None:
            raise ValidationError({"answer": _("Rule 9.1 A: your team has answered already.")})
        deadline = protest.deadlines.get(kind=DeadlineKind.ANSWER)
        spec = dl.DeadlineSpec(deadline.kind, deadline.article, deadline.anchor_at, deadline.due_at)
        if not spec.is_open(now):
            raise ValidationError(
                {
                    "answer": _(
                        "Rule %(article)s: the answer was due by %(due)s.",
                        article=spec.article,
                        due=spec.describe(_venue_tz(protest)),
                    )
                }
            )
        protest.answer, protest.answered_at, protest.answered_by = answer, now, by
        audited_save(protest, by)
        _store_attachments(protest, checked, by, now)
        _close_deadlines(protest, kinds=[DeadlineKind.ANSWER], status=DeadlineStatus.MET, now=now)
        answered = said("answered by {team}", team=str(protest.opponent))
        _notify(protest, "answered", answered, Words(answer[:2000]), now=now)  # the team's own words, marked theirs
    return protest


# --- Deadlines, run by Celery (discipline.tasks) --------------------------------------------------------------


def _db_now(now: datetime.datetime | None):
    """The comparison's clock: the database's (``Now()``) unless a test gives one."""
    return Now() if now is None else now


def _reminder_horizon(now: datetime.datetime | None):
    if now is not None:
        return now + dl.REMINDER_BEFORE
    return ExpressionWrapper(Now() + dl.REMINDER_BEFORE, output_field=DateTimeField())


def due_deadline_ids(now: datetime.datetime | None = None) -> list[int]:
    """Open deadlines whose due time is past by the database's clock (the sweep lapses or closes them), the
    oldest first."""
    return list(
        Deadline.objects.filter(status=DeadlineStatus.OPEN, due_at__lt=_db_now(now))
        .order_by("due_at", "pk")
        .values_list("pk", flat=True)
    )


def reminder_deadline_ids(now: datetime.datetime | None = None) -> list[int]:
    """Open deadlines within the reminder time of their due time with no reminder sent yet."""
    clock, soon = _db_now(now), _reminder_horizon(now)
    return list(
        Deadline.objects.filter(
            status=DeadlineStatus.OPEN, reminder_sent_at__isnull=True, due_at__gte=clock, due_at__lte=soon
        )
        .order_by("due_at", "pk")
        .values_list("pk", flat=True)
    )


def _locked_deadline(deadline_id: int, **conditions) -> tuple[Protest | None, Deadline | None]:
    """Lock the deadline's protest, then the deadline if it is open and meets ``conditions`` (the services lock
    the protest first too, so the two never wait on each other in opposite order)."""
    protest_id = Deadline.objects.filter(pk=deadline_id).values_list("protest_id", flat=True).first()
    if protest_id is None:
        return None, None
    protest = _locked(protest_id)
    deadline = (
        Deadline.objects.select_for_update().filter(pk=deadline_id, status=DeadlineStatus.OPEN, **conditions).first()
    )
    return protest, deadline


def _facts(protest: Protest) -> dl.ProtestFacts:
    return dl.ProtestFacts(
        fee_due=protest.fee_due is not None,
        fee_received=protest.fee_received is not None,
        has_statement=bool(protest.statement),
    )


def deadline_expire(deadline_id: int, *, now: datetime.datetime | None = None) -> str:
    """Act on a deadline that is past (by the database's clock): the protest still missing its fee or statement
    lapses (9.1, R-51); a complete one meets it; the answer time closes. Idempotent: a deadline no longer open
    (or not yet due) is left as it is and nothing is sent. Returns what it did."""
    with transaction.atomic():
        protest, deadline = _locked_deadline(deadline_id, due_at__lt=_db_now(now))
        if deadline is None:
            return "nothing"
        stamp = now or timezone.now()
        if deadline.kind == DeadlineKind.ANSWER:
            deadline.status, deadline.closed_at = DeadlineStatus.PASSED, stamp
            deadline.save(update_fields=["status", "closed_at"])
            return "passed"
        missing = _facts(protest).missing()
        if protest.status != S.FILED or not missing:
            deadline.status, deadline.closed_at = DeadlineStatus.MET, stamp
            deadline.save(update_fields=["status", "closed_at"])
            return "met"
        told = said(
            "Rule {article}: {what} missing at the deadline, {due}.",
            article=deadline.article,
            what=_and(
                [{"fee": said("the fee (R-52)"), "statement": said("the written statement")}[m] for m in missing]
            ),
            due=venue_stamp(deadline.due_at, protest.game),
        )
        _transition(protest, S.LAPSED, by=None, now=stamp, reason=told, article=deadline.article)
        audited_save(protest, None)
        deadline.status, deadline.closed_at = DeadlineStatus.LAPSED, stamp
        deadline.save(update_fields=["status", "closed_at"])
        _close_deadlines(protest, kinds=[DeadlineKind.ANSWER], status=DeadlineStatus.CANCELLED, now=stamp)
        _notify(protest, "lapsed", said_in("protest notification", "lapsed"), told, now=stamp)
        return "lapsed"


def deadline_remind(deadline_id: int, *, now: datetime.datetime | None = None) -> str:
    """Send the reminder before a deadline once (``reminder_sent_at``): to the protesting team while its fee or
    statement is missing, to the opposing team while it has not answered. Idempotent."""
    with transaction.atomic():
        protest, deadline = _locked_deadline(
            deadline_id, reminder_sent_at__isnull=True, due_at__gte=_db_now(now), due_at__lte=_reminder_horizon(now)
        )
        if deadline is None:
            return "nothing"
        stamp = now or timezone.now()
        tz = _venue_tz(protest)
        due = dl.DeadlineSpec(deadline.kind, deadline.article, deadline.anchor_at, deadline.due_at).describe(tz)
        deadline.reminder_sent_at = stamp
        deadline.save(update_fields=["reminder_sent_at"])
        if deadline.kind == DeadlineKind.PROTEST:
            missing = _facts(protest).missing() if protest.status == S.FILED else ()
            if not missing:
                return "not needed"
            pieces = {
                "fee": said("the fee of {fee}", fee=str(protest.fee_due)),
                "statement": said("the statement"),
            }
            users = _entry_managers(protest.entry)
            body = said(
                "Rule {article}: {what} must be in by {due}, or the protest lapses.",
                article=deadline.article,
                what=_and([pieces[m] for m in missing]),
                due=due,
            )
        else:
            if protest.answered_at is not None or protest.status not in (S.FILED, S.UNDER_REVIEW):
                return "not needed"
            users = _entry_managers(protest.opponent)
            body = said("Your team may answer the protest in writing until {due}.", due=due)
        reminder = said_in("protest notification", "reminder")
        _notify(protest, f"reminder:{deadline.kind}", reminder, body, users=users, now=stamp)
        return "reminded"
