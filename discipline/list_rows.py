"""The discipline committee's list pages, their rows built in Python with what every row shares worked out once
(portal.rows; issue 27: a page of 100 rows costs at most 10x the CPU of the home page). The pages around them stay
templates: ``discipline/case_list.html``."""

from __future__ import annotations

from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from portal.rows import fill, joined, sentence, url_pattern
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
                title=sentence(titled, pk=case.pk, title=case.title),
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
