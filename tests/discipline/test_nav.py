"""The navigation's discipline links follow the login's roles (R-53, 9.1, 8.2), with no query beyond the roles."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from tests.factories import federation_staff, with_role

pytestmark = pytest.mark.django_db


def nav_links(user) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    page = client.get(reverse("tournaments:championship-list")).content.decode()
    return page[page.index("<nav") : page.index("</nav>")]


@pytest.mark.parametrize(
    ("make", "shown", "hidden"),
    [
        (
            lambda: with_role(Role.DISCIPLINE_COMMITTEE),
            ["discipline:queue", "discipline:protest-list", "discipline:suspensions"],
            [],
        ),
        (
            lambda: with_role(Role.IHTC_EXECUTIVE),
            ["discipline:queue", "discipline:protest-list", "discipline:suspensions"],
            [],
        ),
        (federation_staff, ["discipline:protest-list"], ["discipline:queue"]),
        (
            lambda: with_role(Role.TEAM_MANAGER),
            ["discipline:my-protests", "discipline:suspensions"],
            ["discipline:queue", "discipline:protest-list"],
        ),
        (
            lambda: with_role(Role.GAME_OFFICIAL),
            [],
            ["discipline:queue", "discipline:protest-list", "discipline:my-protests"],
        ),
        (lambda: None, [], ["discipline:queue", "discipline:protest-list", "discipline:my-protests"]),
    ],
)
def test_the_navigation_links_the_discipline_pages_a_role_opens(make, shown, hidden):
    nav = nav_links(make())
    for name in shown:
        assert f'href="{reverse(name)}"' in nav
    for name in hidden:
        assert f'href="{reverse(name)}"' not in nav
