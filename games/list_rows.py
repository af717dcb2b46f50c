"""The officials' assignments page (4.1-4.6): one row per game with its crew and the form that assigns one more,
built in Python with what every row shares worked out once (portal.rows; issue 27: a page of 100 games costs at
most 10x the CPU of the home page). The page around it is ``games/assignments.html``."""

from __future__ import annotations

from django.middleware.csrf import get_token
from django.utils.dateformat import DateFormat
from django.utils.formats import get_format
from django.utils.html import format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext, pgettext

from games.models import OfficialDuty
from portal.rows import date_formatter, fill, joined, sentence

DASH = "–"


def assignment_rows(request, rows, *, candidate_options: str, duties) -> SafeString:
    """``rows``: the view's game rows (``game``, ``local_start`` at the venue, ``crew``, ``errors``)."""
    csrf = get_token(request)
    iso = date_formatter("c")
    local_pattern = f"D {get_format('MONTH_DAY_FORMAT')} {get_format('TIME_FORMAT')}"
    text = {
        "game": gettext("Game #%(number)s"),
        "final": pgettext("game status", "final"),
        "lead": pgettext("lead referee", "lead"),
        "withdraw": gettext("Withdraw"),
        "withdraw person": gettext("Withdraw %(person)s"),
        "official": gettext("Official"),
        "duty": gettext("Duty"),
        "place": gettext("Place"),
        "next": pgettext("next free place", "next"),
        "assign": gettext("Assign"),
    }
    duty_labels = {duty: str(label) for duty, label in OfficialDuty.choices}
    duty_options = format_html_join("", '<option value="{}">{}</option>', ((duty, label) for duty, label, _ in duties))
    html = []
    for row in rows:
        game = row["game"]
        final = game.is_final
        crew = []
        for official in row["crew"]:
            crew.append(
                fill(
                    '<form method="post" class="inline"><input type="hidden" name="csrfmiddlewaretoken" value="{csrf}">'
                    '<input type="hidden" name="action" value="withdraw"><input type="hidden" name="game" value="{game}">'
                    '<input type="hidden" name="assignment" value="{pk}"> {duty} {position}{lead}: {person} {button}</form>',
                    csrf=csrf,
                    game=game.pk,
                    pk=official.pk,
                    duty=duty_labels[official.duty],
                    position=official.position,
                    lead=f" ({text['lead']})" if official.is_lead else "",
                    person=official.person,
                    button=""
                    if final
                    else fill(
                        '<button type="submit" aria-label="{label}">{withdraw}</button>',
                        label=sentence(text["withdraw person"], person=official.person),
                        withdraw=text["withdraw"],
                    ),
                )
            )
        assign = ""
        if not final:
            errors = format_html_join("", "<li>{}</li>", ((error,) for error in row["errors"])) if row["errors"] else ""
            assign = fill(
                '<form method="post" class="inline"><input type="hidden" name="csrfmiddlewaretoken" value="{csrf}">'
                '<input type="hidden" name="action" value="assign"><input type="hidden" name="game" value="{game}"> '
                '<label>{l_official} <select name="person" required>{candidates}</select></label> '
                '<label>{l_duty} <select name="duty">{duties}</select></label> '
                '<label>{l_place} <input name="position" size="2" inputmode="numeric" placeholder="{next}"></label> '
                '<button type="submit">{assign}</button></form>{errors}',
                csrf=csrf,
                game=game.pk,
                l_official=text["official"],
                candidates=SafeString(candidate_options),
                l_duty=text["duty"],
                duties=duty_options,
                l_place=text["place"],
                next=text["next"],
                assign=text["assign"],
                errors=fill('<ul class="errors">{items}</ul>', items=errors) if errors else "",
            )
        local = row["local_start"]
        home = game.home.display_name if game.home_id else game.home_source
        away = game.away.display_name if game.away_id else game.away_source
        html.append(
            fill(
                '<tr id="game-{pk}"><td>{when}</td><td>{number}: {home} – {away}{final}</td><td>{rink}</td>'
                "<td>{crew}</td><td>{assign}</td></tr>",
                pk=game.pk,
                when=fill(
                    '<time datetime="{iso}">{local}</time>',
                    iso=iso(game.start_at),
                    local=DateFormat(local).format(local_pattern),
                )
                if local
                else DASH,
                number=text["game"] % {"number": game.number},
                home=home,
                away=away,
                final=f" ({text['final']})" if final else "",
                rink=(game.rink.name if game.rink_id else "") or DASH,
                crew=SafeString("<br>".join(crew)) if crew else DASH,
                assign=assign,
            )
        )
    return joined(html)
