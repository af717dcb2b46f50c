"""Browser journey of the home (issue 12): a team manager logs in, lands on their home, at phone width."""

import pytest

from accounts.models import Role
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
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
