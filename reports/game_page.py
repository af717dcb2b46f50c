"""A finished game's public page (issue 25): the box score in HTML, the official report's PDF beside it.

The page reads the same data as the official game report (``reports.game_report.game_report_data``: the final
sheet replayed, or the summary lines staff entered), so the page and the PDF never disagree; it says each value
as a person reads it (``games.labels``: ``P2 12:29``, the infraction's name with its article) and every time on
the venue's clock. Who reads: as the report (``reports.services.access_game_report``): a final game of a
published championship is public; a draft's is its directors'; a game not final has no page yet (404).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from games.labels import period_clock
from games.models import GameOfficial
from portal.page_cache import page_key, public_page

from .game_report import DUTY_ORDER, game_report_data
from .services import access_game_report

# The strength of a goal as the report abbreviates it, said in words.
STRENGTHS = {
    "EQ": _("even strength"),
    "PP": _("power play"),
    "SH": _("shorthanded"),
    "EN": _("empty net"),
    "PS": _("penalty shot"),
    "OG": _("own goal"),
    "AW": _("awarded"),
    "FF": _("forfeit (8.1 B)"),
}


def _when(period: str, time: str) -> str:
    """``P2 12:29`` (games.labels.period_clock); overtime reads ``OT 3:10``."""
    if period == "OT":
        return f"{pgettext('overtime, abbreviation', 'OT')} {time}".strip()
    return period_clock(period, time or None)


def _strength(codes: str) -> str:
    return ", ".join(str(STRENGTHS.get(code, code)) for code in codes.split())


def _officials(game) -> list[dict]:
    """The game's officials, the lead referee first (4.2 C), then the officials' table (4.3-4.5)."""
    rows = GameOfficial.objects.filter(game=game).select_related("person")
    ordered = sorted(rows, key=lambda o: (DUTY_ORDER.index(o.duty), o.position))
    return [{"duty": o.get_duty_display(), "lead": o.is_lead, "name": str(o.person)} for o in ordered]


def game_page(request, object_id: int):
    """A final game's box score: goals, penalties, shots, goalkeepers, officials, protest marks; the PDF beside."""
    game = access_game_report(request.user, object_id)
    # From the cache for anonymous viewers, at the championship's data version and the sheet's sequence (an
    # amendment of the final sheet adds entries; the results, summary lines, officials and protest marks bump the
    # championship's version).
    sheet = getattr(game, "sheet", None)  # read with the game (access_game_report)
    return public_page(
        request,
        "reports/game_page.html",
        key=page_key("game", game.pk),
        version=(game.championship.data_version, sheet.sequence if sheet else None),
        context=lambda: _game_page_context(game),
    )


def _game_page_context(game) -> dict:
    data = game_report_data(game)
    goals = [{**goal, "when": _when(goal["period"], goal["time"]), "strength": _strength(goal["strength"])}
             for goal in data["goals"]]  # fmt: skip
    penalties = [{**penalty, "when": _when(penalty["period"], penalty["time"])} for penalty in data["penalties"]]
    return {
        "game": game,
        "championship": game.championship,
        "data": data,
        "goals": goals,
        "penalties": penalties,
        "officials": _officials(game),
        "periods": [_when(p, "") for p in data["periods"]],
    }
