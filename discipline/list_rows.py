"""The discipline committee's list pages, their rows built in Python with what every row shares worked out once
(portal.rows; issue 27: a page of 100 rows costs at most 10x the CPU of the home page). The pages around them stay
templates: ``discipline/case_list.html``."""

from __future__ import annotations

from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext, pgettext

from discipline.suspensions import terms_said
from portal.i18n import say
from portal.rows import date_formatter, escaped, fill, joined, sentence, url_pattern
from tournaments.venue_time import venue_time_formatter

DASH = "–"


def case_table_rows(rows) -> SafeString:
    """The table rows of the committee's cases (``selectors.case_rows``): the case and its championship, its status
    (with the hearing or the outcome), its games, its people and teams, when it was opened, at the venue."""
    case_url = url_pattern("discipline:case")
    when = venue_time_formatter()
    titled = gettext("Case #%(pk)s: %(title)s")
    hearing = gettext("hearing %(when)s")
    game_number = gettext("Game #%(number)s")
    html = []
    for row in rows:
        case = row["case"]
        decision = getattr(case, "decision", None)
        status_note: SafeString | str = ""
        if decision is not None:
            status_note = format_html("<br><small>{}</small>", decision.get_outcome_display())
        elif case.hearing_at:
            status_note = format_html(
                "<br><small>{}</small>", sentence(hearing, when=when(case.hearing_at, case.championship))
            )
        games = (
            format_html_join(
                "<br>",
                "{}: {} – {}",
                (
                    (
                        game_number % {"number": game.number},
                        game.home.display_name if game.home else "?",
                        game.away.display_name if game.away else "?",
                    )
                    for game in row["games"]
                ),
            )
            or DASH
        )
        people = conditional_escape(", ".join(str(person) for person in row["people"]) or DASH)
        teams = ""
        if row["teams"]:
            teams = format_html("<br><small>{}</small>", ", ".join(team.name for team in row["teams"]))
        html.append(
            fill(
                '<tr><td><a href="{url}">{title}</a><br><small>{championship}</small></td>'
                '<td><span class="badge status-{status}">{status_label}</span>{status_note}</td>'
                "<td>{games}</td><td>{people}{teams}</td><td>{opened}</td></tr>",
                url=case_url(case.pk),
                title=sentence(titled, pk=case.pk, title=case.shown_title),
                championship=case.championship.name,
                status=case.status,
                status_label=case.get_status_display(),
                status_note=status_note,
                games=games,
                people=people,
                teams=teams,
                opened=when(case.opened_at, case.championship),
            )
        )
    return joined(html)


def protest_table_rows(protests) -> SafeString:
    """The table rows of a protest list (the staff's or a team manager's): number, game, team, kind, status, fee
    (9.1 C) and when it was filed, at the venue."""
    protest_url = url_pattern("discipline:protest-detail")
    when = venue_time_formatter()
    game_number = gettext("Game #%(number)s")
    received = pgettext("the protest fee", "received")
    no_fee = gettext("none (9.1 C)")
    amounts: dict[tuple, str] = {}
    html = []
    for protest in protests:
        game = protest.game
        if protest.fee_due:
            due = protest.fee_due
            key = (due.amount, due.currency.code)
            if key not in amounts:  # a championship's protests mostly share one fee: each amount written once
                amounts[key] = escaped(due)
            fee = fill(
                "{due}{received}{outcome}",
                due=SafeString(amounts[key]),
                received=f" {received}" if protest.fee_received else "",
                outcome=f", {protest.get_fee_outcome_display()}" if protest.fee_outcome else "",
            )
        else:
            fee = no_fee
        html.append(
            fill(
                '<tr><td><a href="{url}">{pk}</a></td><td>{game}: {home} – {away}</td><td>{team}</td>'
                '<td>{kind}</td><td><span class="badge status-{status}">{status_label}</span></td>'
                "<td>{fee}</td><td>{filed}</td></tr>",
                url=protest_url(protest.pk),
                pk=protest.pk,
                game=game_number % {"number": game.number},
                home=game.home if game.home is not None else "",
                away=game.away if game.away is not None else "",
                team=protest.entry,
                kind=protest.get_kind_display(),
                status=protest.status,
                status_label=protest.get_status_display(),
                fee=fee,
                filed=when(protest.filed_at, game),
            )
        )
    return joined(html)


def suspension_table_rows(suspensions, appealable) -> SafeString:
    """The table rows of a suspension list (8.2): person, team, terms in the reader's language, status, when imposed
    (at the venue), and the appeal (9.2 A) where the login may lodge one (``appealable``: decision ids)."""
    appeal_url = url_pattern("discipline:appeal-lodge")
    letter_url = url_pattern("reports:case-decision-letter")
    at_venue = venue_time_formatter()
    at_home = date_formatter("DATETIME_FORMAT")
    text = {
        "appeal": gettext("Lodge an appeal"),
        "letter": gettext("decision letter (PDF)"),
        "provisional": gettext("provisional"),
    }
    # Terms are built by one function (suspensions.terms_said): the same English sentence is the same message with
    # the same values, so a page says each distinct one once (a championship's suspensions mostly share terms).
    terms: dict[str, str] = {}
    html = []
    for suspension in suspensions:
        english = terms_said(suspension)
        if english not in terms:
            terms[english] = str(say(english))
        if suspension.decision_id in appealable:
            appeal = fill(
                '<a href="{appeal_url}">{appeal}</a> &middot; <a href="{letter_url}">{letter}</a>',
                appeal_url=appeal_url(suspension.decision_id),
                appeal=text["appeal"],
                letter_url=letter_url(suspension.decision.case_id),
                letter=text["letter"],
            )
        else:
            appeal = text["provisional"] if suspension.provisional else DASH
        imposed = (
            at_venue(suspension.imposed_at, suspension.championship)
            if suspension.championship_id
            else at_home(suspension.imposed_at)
        )
        html.append(
            fill(
                "<tr><td>{person}</td><td>{team}</td><td>{terms}</td>"
                '<td><span class="badge status-{status}">{status_label}</span></td><td>{imposed}</td>'
                "<td>{appeal}</td></tr>",
                person=suspension.person,
                team=(suspension.entry.display_name if suspension.entry_id else "") or DASH,
                terms=terms[english],
                status=suspension.status,
                status_label=suspension.get_status_display(),
                imposed=imposed,
                appeal=appeal,
            )
        )
    return joined(html)
