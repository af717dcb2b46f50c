"""A committee case gathers protests beside incident reports (R-53; 9.1 C: a federation's protest about an
incident may be all a case is about): the service, the case page and the protest page."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from discipline import cases
from discipline import protests as svc
from discipline.models import Case, CaseStatus, Protest
from tests.factories import GameFactory

from .protest_helpers import INCIDENT_AT, manager_of, world
from .test_protest_pages import logged_in

pytestmark = pytest.mark.django_db
HOUR = datetime.timedelta(hours=1)


@pytest.fixture
def w():
    return world()


def file_ruling(w) -> Protest:
    return svc.protest_file(
        by=w.home_manager, game=w.game, entry=w.game.home, kind="ruling", incident=w.on_rink_protest,
        statement="The goal was scored after the whistle.", now=INCIDENT_AT + HOUR,
    )  # fmt: skip


def other_championship_protest() -> Protest:
    other = world()
    return svc.protest_file(
        by=other.home_manager, game=other.game, entry=other.game.home, kind="ruling", incident=other.on_rink_protest,
        now=INCIDENT_AT + HOUR,
    )  # fmt: skip


def test_a_case_opened_from_a_protest_gathers_it_audited(w):
    protest = file_ruling(w)
    case = cases.open_case(protests=[protest], title="", by=w.committee)
    protest.refresh_from_db()
    assert protest.case == case and case.championship_id == w.game.championship_id
    assert case.title.startswith("Case: Protest #")
    assert case.status == CaseStatus.OPEN
    assert protest.history.first().history_user == w.committee  # who gathered it, in the protest's history
    assert protest.status == "filed"  # the protest's own workflow (9.1 A) goes on as it was


def test_gathering_a_protest_checks_the_championship_the_case_and_who_names_the_rule(w):
    protest = file_ruling(w)
    case = cases.open_case(protests=[protest], title="Late goal", by=w.committee)
    stranger = other_championship_protest()
    with pytest.raises(ValidationError) as refused:
        cases.gather_protest(case=case, protest=stranger, by=w.committee)
    assert "R-53" in refused.value.message_dict["protest"][0]
    away = svc.protest_file(
        by=w.away_manager, game=w.game, entry=w.game.away, kind="federation", incident=w.penalty,
        now=INCIDENT_AT + HOUR,
    )  # fmt: skip
    second = cases.open_case(protests=[away], title="Other", by=w.committee)
    with pytest.raises(ValidationError) as refused:
        cases.gather_protest(case=second, protest=protest, by=w.committee)
    assert f"case #{case.pk} already" in refused.value.message_dict["protest"][0]
    with pytest.raises(PermissionDenied, match="R-53"):
        cases.gather_protest(case=case, protest=protest, by=w.home_manager)
    with pytest.raises(ValidationError) as refused:
        cases.open_case(protests=[], title="Nothing", by=w.committee)
    assert "R-53" in refused.value.message_dict["reports"][0]
    protest.refresh_from_db()
    stranger.refresh_from_db()
    assert protest.case == case and stranger.case is None  # nothing changed by the refusals
    assert Case.objects.count() == 2


def test_a_decided_case_gathers_no_more_protests(w):
    first = file_ruling(w)
    case = cases.open_case(protests=[first], title="Late goal", by=w.committee)
    cases.decide_case(case=case, outcome="no_action", reasons="Nothing to sanction.", by=w.committee)
    away = svc.protest_file(
        by=w.away_manager, game=w.game, entry=w.game.away, kind="federation", incident=w.penalty,
        now=INCIDENT_AT + HOUR,
    )  # fmt: skip
    with pytest.raises(ValidationError) as refused:
        cases.gather_protest(case=case, protest=away, by=w.committee)
    assert refused.value.message_dict["case"] == ["R-53: the case is decided."]
    away.refresh_from_db()
    assert away.case is None


def test_the_pages_open_a_case_from_a_protest_and_gather_another_one(w):
    protest = file_ruling(w)
    committee = logged_in(w.committee)
    detail = committee.get(reverse("discipline:protest-detail", args=[protest.pk]))
    assert b"Open a case from this protest" in detail.content
    manager_page = logged_in(w.home_manager).get(reverse("discipline:protest-detail", args=[protest.pk]))
    assert b"Open a case" not in manager_page.content and b"Committee case" not in manager_page.content
    refused = logged_in(w.home_manager).post(reverse("discipline:protest-open-case", args=[protest.pk]))
    assert refused.status_code == 403 and Case.objects.count() == 0

    opened = committee.post(reverse("discipline:protest-open-case", args=[protest.pk]), {"title": "Late goal"})
    case = Case.objects.get()
    assert opened.status_code == 302 and opened["Location"] == reverse("discipline:case", args=[case.pk])
    detail = committee.get(reverse("discipline:protest-detail", args=[protest.pk]))
    assert f"Case #{case.pk}: Late goal".encode() in detail.content

    away = svc.protest_file(
        by=w.away_manager, game=w.game, entry=w.game.away, kind="federation", incident=w.penalty,
        now=INCIDENT_AT + HOUR,
    )  # fmt: skip
    page = committee.get(reverse("discipline:case", args=[case.pk]))
    assert f"Protest #{protest.pk}".encode() in page.content
    assert f'<option value="{away.pk}">'.encode() in page.content  # offered to gather
    gathered = committee.post(
        reverse("discipline:case", args=[case.pk]), {"action": "gather_protest", "protest": away.pk}
    )
    assert gathered.status_code == 302
    away.refresh_from_db()
    assert away.case == case


def test_the_case_page_refuses_a_protest_it_may_not_gather_naming_the_rule(w):
    protest = file_ruling(w)
    case = cases.open_case(protests=[protest], title="Late goal", by=w.committee)
    elsewhere = GameFactory()
    manager_of(elsewhere.home)
    stranger = other_championship_protest()
    response = logged_in(w.committee).post(
        reverse("discipline:case", args=[case.pk]), {"action": "gather_protest", "protest": stranger.pk}
    )
    assert response.status_code == 400
    assert b"R-53: a case gathers the protests of its own championship." in response.content
    stranger.refresh_from_db()
    assert stranger.case is None


def test_a_cases_default_title_is_said_in_the_readers_language(w):
    """Issue 26: the title the portal writes when the committee gives none is a stored message; a title typed by the
    committee is its own words, as written."""
    from django.utils.translation import override

    protest = file_ruling(w)
    case = cases.open_case(protests=[protest], title="", by=w.committee)
    case.refresh_from_db()
    assert case.title == f"Case: Protest #{protest.pk} (Against a referee's ruling) of {protest.entry}"
    with override("fr"):
        assert case.shown_title == (
            f"Dossier : Réclamation n° {protest.pk} (Contre une décision de l'arbitre) de {protest.entry}"
        )
        assert str(case) == case.shown_title
        page = logged_in(w.committee).get(reverse("discipline:case", args=[case.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    assert "Dossier : Réclamation n°" in page.content.decode()
    with override("es"):
        assert case.shown_title.startswith(f"Expediente: Protesta n.º {protest.pk} (Contra una decisión del árbitro)")
    typed = cases.open_case(protests=[other_championship_protest()], title="Goal after the whistle", by=w.committee)
    assert typed.title_message is None
    with override("fr"):
        assert typed.shown_title == "Goal after the whistle"
