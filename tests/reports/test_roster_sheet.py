"""The roster sheet of a team entry (1.1, 3.1.1, 3.1.2; R-03, R-04): rendered from the demo data and read back with
pdftotext, every player is there with the eligibility the entry page shows; who reads it; its versions."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from accounts.models import Role
from federation.models import Gender
from reports import services
from reports.models import Document, DocumentKind
from reports.roster_sheet import mask_passport_number, reason_text, roster_sheet_data
from tests.factories import (
    PassportFactory,
    PersonFactory,
    RosterEntryFactory,
    TeamEntryFactory,
    with_role,
)
from tournaments.models import OfficialRole, Position, TeamEntry, TeamOfficial
from tournaments.selectors import roster_with_eligibility

from .helpers import pdf_subject, rendered, rendered_text


def _row(line, result) -> re.Pattern:
    """A player's row as drawn (pdftotext -raw): number, name, position, mark, birth date, nationality, then (past
    the passport and the registration) the eligibility with each reason and waiver the entry page gives."""
    person = line.person
    mark = " C" if line.captain else (" A" if line.alternate else "")
    position = "GK" if line.position == Position.GOALKEEPER else "P"
    status = "Not eligible" if not result.eligible else "Eligible, by waiver" if result.waived else "Eligible"
    texts = [reason_text(r) for r in result.reasons] + [f"Waived: {reason_text(r)}" for r, _ in result.waived]
    eligibility = " ".join([status, *texts])
    return re.compile(
        rf"(?<!\d){re.escape(line.number)} {re.escape(str(person))} {position}{mark} "
        rf"{person.date_of_birth.isoformat()} [A-Z]{{3}} .{{0,60}}?{re.escape(eligibility)}"
    )


@pytest.mark.django_db
class TestTheDemoRosterSheets:
    def test_every_entry_lists_every_player_with_the_eligibility_of_the_entry_page(self, demo, tmp_path):
        entries = list(TeamEntry.objects.select_related("championship__venue", "federation").order_by("pk"))
        assert len(entries) >= 8
        players = ineligible = waived = 0
        for entry in entries:
            text = rendered_text(DocumentKind.ROSTER, entry, tmp_path, raw=True)
            assert f"ROSTER SHEET {entry.championship.name}" in text, entry
            assert entry.federation.name in text and entry.name in text
            for line, result in roster_with_eligibility(entry):
                assert _row(line, result).search(text), (entry, line, result)
                for passport in line.person.passports.all():
                    assert passport.number not in text, (entry, line)  # masked, never in full
                players += 1
                ineligible += not result.eligible
                waived += bool(result.waived)
            for official in entry.officials.select_related("person"):
                assert f"{official.person} {official.get_role_display()}" in text, (entry, official)
        # The demo's refused players (tests/test_demo.py) and its one waiver are on their sheets.
        assert players >= 128 and ineligible >= 4 and waived >= 1, (players, ineligible, waived)

    def test_the_sheet_says_the_rosters_state_and_its_limits(self, demo, tmp_path):
        entry = TeamEntry.objects.filter(roster__confirmed=False).distinct().first()
        text = rendered_text(DocumentKind.ROSTER, entry, tmp_path, raw=True)
        assert "Entry: Confirmed (fee paid)" in text
        assert "not fully registered, 15 of 16 players confirmed" in text
        assert "Frozen since the championship's first game started (3.1.1 B, R-05)" in text
        assert "Floor players 14 6-14 3.1.1 A, R-04" in text and "Goalkeepers 2 exactly 2" in text
        assert "The roster meets the limits." in text


# --- factories ------------------------------------------------------------------------------------------------


@pytest.fixture
def entry():
    """A confirmed entry of 12 floor players and 2 goalkeepers, all eligible, and its coach."""
    entry = TeamEntryFactory()
    for number in range(2, 14):
        line = RosterEntryFactory(entry=entry, number=str(number), captain=number == 2, alternate=number == 3)
        PassportFactory(person=line.person)
    for number in ("1", "30"):
        PassportFactory(person=RosterEntryFactory(entry=entry, number=number, position=Position.GOALKEEPER).person)
    coach = PersonFactory(federation=entry.federation, is_player=False, is_team_official=True)
    TeamOfficial.objects.create(entry=entry, person=coach, role=OfficialRole.COACH)
    return entry


@pytest.fixture
def manager(entry):
    user = with_role(Role.TEAM_MANAGER, entry.federation)
    entry.managers.add(user)
    return user


@pytest.mark.django_db
def test_the_data_is_the_same_twice_and_a_roster_change_makes_a_new_version(entry):
    first = services.document_current(DocumentKind.ROSTER, entry)
    assert services.fingerprint(roster_sheet_data(entry)) == first.version
    assert services.document_current(DocumentKind.ROSTER, entry).pk == first.pk
    RosterEntryFactory(entry=entry, number="77")
    second = services.document_current(DocumentKind.ROSTER, entry)
    assert second.version != first.version
    assert "15 players" in second.version_label and "14 players" in first.version_label
    assert services.previous_documents(second) == [first]


@pytest.mark.django_db
def test_a_roster_over_the_limits_says_which_rule_it_breaks(entry, tmp_path):
    RosterEntryFactory(entry=entry, number="31", position=Position.GOALKEEPER)
    text = rendered_text(DocumentKind.ROSTER, entry, tmp_path)
    assert "The roster does not meet the limits:" in text
    assert "Rule 3.1.1 A: exactly 2 goalkeepers are needed, not 3 (R-04)" in text
    document = services.document_current(DocumentKind.ROSTER, entry)
    with document.file.open("rb") as stored:
        subject = pdf_subject(stored.read(), tmp_path)
    # The PDF says which version of the data it shows (its Subject), as its version line does.
    assert subject == f"{document.version_label}; data version {document.version}"
    assert document.version_label == f"roster of {entry.name}: 15 players, 0 registered, 1 not eligible; roster open"


@pytest.mark.django_db
def test_sixteen_ineligible_players_with_long_reasons_fit_the_page_width(tmp_path):
    """Every player with three reasons (gender, nationality, passport): the sheet stays A4 portrait, each row whole."""
    entry = TeamEntryFactory(name="A national team with a rather long name for its sheet")
    for number in range(1, 17):
        person = PersonFactory(
            federation=entry.federation, gender=Gender.FEMALE, nationality="BR", last_name=f"VANDERWESTHUIZEN{number}"
        )
        PassportFactory(person=person, expiry_date=datetime.date(2027, 7, 5))
        RosterEntryFactory(
            entry=entry, person=person, number=str(number), position=Position.GOALKEEPER if number < 3 else "player"
        )
    document = rendered(DocumentKind.ROSTER, entry)
    assert document.pages <= 2
    text = rendered_text(DocumentKind.ROSTER, entry, tmp_path, raw=True)
    for line, result in roster_with_eligibility(entry):
        assert len(result.reasons) >= 2
        assert _row(line, result).search(text), line


def test_a_passport_number_is_never_printed_in_full():
    assert mask_passport_number("YA1234567") == "***567"
    assert mask_passport_number("12345") == "***"


@pytest.mark.django_db
def test_the_managers_read_it_and_an_unrelated_manager_or_anonymous_is_refused(entry, manager, client):
    page = reverse("reports:roster-sheet", args=[entry.pk])
    api = reverse("reports-api:roster-sheet", args=[entry.pk])
    assert client.get(page).status_code == 302 and "login" in client.get(page)["Location"]
    assert client.get(api).status_code in (401, 403)
    other = TeamEntryFactory(championship=entry.championship)
    stranger = with_role(Role.TEAM_MANAGER, other.federation)
    other.managers.add(stranger)
    client.force_login(stranger)
    assert client.get(page).status_code == 403
    assert client.get(api).status_code == 403
    assert client.post(reverse("reports:roster-sheet-retry", args=[entry.pk])).status_code == 403
    assert not Document.objects.filter(kind=DocumentKind.ROSTER, object_id=entry.pk).exists()
    client.force_login(manager)
    assert client.get(page).status_code == 200
    state = client.get(api).json()
    assert (state["entry"], state["kind"], state["status"]) == (entry.pk, DocumentKind.ROSTER, "queued")
    entry_page = client.get(reverse("tournaments:entry-detail", args=[entry.pk])).content.decode()
    assert page in entry_page
