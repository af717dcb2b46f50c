"""The discipline committee's list pages, their rows built in Python with what every row shares worked out once
(portal.rows; issue 27: a page of 100 rows costs at most 10x the CPU of the home page). The pages around them stay
templates: ``discipline/case_list.html``."""

from __future__ import annotations

from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext, pgettext

from portal.rows import escaped, fill, joined, sentence, url_pattern
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
