"""Browser journey of the home (issue 12): a team manager logs in, lands on their home, at phone width."""

import pytest

from accounts.models import Role
from tests.e2e.live_helpers import fits_the_screen
from tests.factories import TeamEntryFactory, with_role

pytestmark = pytest.mark.browser


def test_team_manager_lands_on_their_home_at_375_px_without_overflow(page, login_as, screenshot):
    manager = with_role(Role.TEAM_MANAGER)
    TeamEntryFactory().managers.add(manager)
    page.set_viewport_size({"width": 375, "height": 800})
    login_as(manager)
    assert page.url.rstrip("/").endswith(page.url.split("/")[2])  # landed on "/"
    assert page.get_by_role("heading", name="Your teams").is_visible()
    screenshot(page, "home-team-manager-375")
    fits_the_screen(page)


def test_federation_staff_land_on_what_waits_in_their_federation_and_follow_it(
    page, login_as, screenshot, accessible, outside_requests
):
    import datetime

    from django.utils import timezone

    from tests.factories import (
        FederationFactory,
        PassportFactory,
        PersonFactory,
        ProtectiveDeviceRequestFactory,
        RosterEntryFactory,
        federation_staff,
    )
    from tournaments.models import EntryStatus

    federation = FederationFactory(name="Federazione Italiana")
    staff = federation_staff(federation)
    # 1.1 B / R-03: a player without a passport of the team's country plays in no category; the home lists him
    # once he is on the roster of a championship the federation is entered in now.
    senzapass = PersonFactory(federation=federation, first_name="Marco", last_name="Senzapass")
    PassportFactory(
        person=PersonFactory(federation=federation, last_name="Scadenza"),
        expiry_date=timezone.localdate() + datetime.timedelta(days=20),
    )
    ProtectiveDeviceRequestFactory(person=PassportFactory(person=PersonFactory(federation=federation)).person)
    # 1.1 A: the entry is confirmed once its fee is paid; this one waits.
    italia = TeamEntryFactory(
        federation=federation,
        name="Italia",
        status=EntryStatus.ENTERED,
        fee_paid=False,
        fee_paid_amount=None,
        fee_paid_at=None,
    )
    RosterEntryFactory(entry=italia, person=senzapass)
    PersonFactory(last_name="Straniero")  # another federation's: not theirs to see

    login_as(staff)
    section = page.get_by_role("region", name="Your federation")
    assert section.get_by_role("heading", name="People with an eligibility problem").is_visible()
    assert "Rule 1.1 B / R-03" in section.inner_text()
    assert section.get_by_role("link", name="SCADENZA").is_visible()
    assert "fee not yet paid (1.1 A)" in section.inner_text()
    assert "STRANIERO" not in page.content()
    accessible(page, "federation staff home")
    screenshot(page, "home-federation-staff")

    section.get_by_role("link", name="SENZAPASS Marco").focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")  # keyboard-usable: the link is reached and followed without a mouse
    assert page.get_by_role("heading", name="Marco Senzapass", exact=True).is_visible()
    accessible(page, "person page from the home")
    screenshot(page, "person-from-home")
    assert outside_requests == []


def test_the_executive_lands_on_the_championship_at_a_glance(page, login_as, screenshot, accessible, outside_requests):
    import datetime

    from django.utils import timezone

    from accounts.models import Role
    from tests.factories import ChampionshipFactory, GameFactory, with_role

    today = timezone.localdate()
    running = ChampionshipFactory(
        name="World Championship Senior Men",
        start_date=today - datetime.timedelta(days=1),
        end_date=today + datetime.timedelta(days=4),
        entry_closing_date=today - datetime.timedelta(days=30),
    )
    game = GameFactory(championship=running, start_at=timezone.now())
    login_as(with_role(Role.IHTC_EXECUTIVE))
    section = page.get_by_role("region", name="The championships at a glance")
    assert section.get_by_role("link", name="World Championship Senior Men").is_visible()
    assert "0 fees unpaid" in section.inner_text()
    assert "Open discipline cases: 0; protests open: 0" in section.inner_text()
    assert section.get_by_role("link", name=f"Game #{game.number}").is_visible()  # today at the venue
    accessible(page, "executive home")
    screenshot(page, "home-executive")
    assert outside_requests == []
