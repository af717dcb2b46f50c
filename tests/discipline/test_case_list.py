"""The committee's list of cases (R-53: issue 25) and the people a case's decision offers to sanction (8.2): the
players and team officials named on its protests' incidents, then its games' line-ups, by number and team."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from discipline import cases, involved
from discipline import protests as svc
from tournaments.models import RosterEntry

from .protest_helpers import INCIDENT_AT, world
from .test_protest_pages import logged_in

pytestmark = pytest.mark.django_db
HOUR = datetime.timedelta(hours=1)


@pytest.fixture
def w():
    return world()


def penalty_case(w, title="Tripping on the away no. 12"):
    """A federation's protest (9.1 C) about the away team's penalty to no. 12, and a case opened from it."""
    protest = svc.protest_file(
        by=w.away_manager, game=w.game, entry=w.game.away, kind="federation", incident=w.penalty,
        now=INCIDENT_AT + HOUR,
    )  # fmt: skip
    return cases.open_case(protests=[protest], title=title, by=w.committee), protest


def test_the_list_finds_a_case_by_person_team_game_and_filters_by_status_and_championship(w):
    case, _ = penalty_case(w)
    player = RosterEntry.objects.get(entry=w.game.away, number="12").person
    client = logged_in(w.committee)
    url = reverse("discipline:cases")
    page = client.get(url)
    assert page.status_code == 200
    assert f"Case #{case.pk}: {case.title}" in page.text
    for query in (player.last_name.lower(), w.game.away.name, f"#{w.game.number}", "tripping"):
        found = client.get(url, {"q": query})
        assert f"Case #{case.pk}" in found.text, query
    missing = client.get(url, {"q": "nobody-of-that-name"})
    assert f"Case #{case.pk}" not in missing.text and "No case matches this search." in missing.text
    assert f"Case #{case.pk}" in client.get(url, {"status": "pending"}).text
    assert f"Case #{case.pk}" not in client.get(url, {"status": "decided"}).text
    assert f"Case #{case.pk}" in client.get(url, {"championship": w.game.championship_id}).text
    # A value outside the choices is the field's error, and the list is shown unfiltered by it (never a 500).
    refused = client.get(url, {"status": "bogus\x00", "championship": "999999999999"})
    assert refused.status_code == 400
    assert "Status:" in refused.text and "Championship:" in refused.text
    assert f"Case #{case.pk}" in refused.text


def test_the_list_is_the_committees(w):
    assert logged_in(w.home_manager).get(reverse("discipline:cases")).status_code == 403
    home = logged_in(w.committee).get("/")
    assert reverse("discipline:cases") in home.text  # from the committee's home
    queue = logged_in(w.committee).get(reverse("discipline:queue"))
    assert reverse("discipline:cases") in queue.text  # and beside the queue of incident reports


def test_the_decision_offers_the_protests_player_first_then_the_line_ups_in_number_order(w):
    case, _ = penalty_case(w)
    offered = involved.sanction_candidates(case)
    player = RosterEntry.objects.get(entry=w.game.away, number="12").person
    assert offered[0].group == "named"
    assert offered[0].person_id == player.pk
    assert offered[0].label == f"#12 {player} ({w.game.away})"
    # Then both teams' players (no line-up given: the rosters), each once, in number order within a team.
    rest = [c for c in offered if c.group == "lineup"]
    assert player.pk not in {c.person_id for c in rest}
    home = [
        int(m.group(1)) for c in rest if c.label.endswith(f"({w.game.home})") for m in [re.match(r"#(\d+)", c.label)]
    ]
    assert home == sorted(home) and home[:2] == [1, 2]  # 2 before 10, as numbers
    page = logged_in(w.committee).get(reverse("discipline:case", args=[case.pk]))
    assert f'<option value="{player.pk}">#12 {player} ({w.game.away})</option>' in page.text
    assert "Named in the reports and protests" in page.text


def test_the_decision_sanctions_a_person_of_the_protest_with_its_team_and_game_and_refuses_a_stranger(w):
    from django.core.exceptions import ValidationError

    from discipline.models import Suspension
    from tests.factories import PersonFactory

    case, _ = penalty_case(w)
    player = RosterEntry.objects.get(entry=w.game.away, number="12").person
    stranger = PersonFactory()
    with pytest.raises(ValidationError) as refused:
        cases.decide_case(
            case=case, outcome="sanctions", reasons="Tripping.", by=w.committee,
            sanctions=[cases.Sanction(person_id=stranger.pk, kind="games", article="8.2", games=1)],
        )  # fmt: skip
    assert "R-53" in refused.value.message_dict["sanctions"][0]
    assert not Suspension.objects.filter(person=stranger).exists()
    cases.decide_case(
        case=case, outcome="sanctions", reasons="Tripping.", by=w.committee,
        sanctions=[cases.Sanction(person_id=player.pk, kind="games", article="8.2", games=1)],
    )  # fmt: skip
    suspension = Suspension.objects.get(person=player, decision__case=case)
    assert (suspension.entry, suspension.offence_game, suspension.games_required) == (w.game.away, w.game, 1)
