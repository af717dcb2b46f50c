"""Logging out clears the browser's caches of the portal's pages (issue 23): the console's service worker keeps
console pages in window.caches for offline use, and a shared tablet must not keep them after its login left."""

import pytest
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_logout_answer_tells_the_browser_to_clear_its_caches_and_ends_the_session(client):
    client.force_login(UserFactory())
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert response["Clear-Site-Data"] == '"cache"'
    # Not "storage": the console's outbox of unsent entries (IndexedDB) is kept until it is sent.
    assert "storage" not in response["Clear-Site-Data"]
    assert "_auth_user_id" not in client.session


def test_the_logout_button_deletes_the_consoles_caches_before_it_sends(client):
    client.force_login(UserFactory())
    page = client.get(reverse("home")).content.decode()
    assert 'data-clear-caches="ihtc-console-"' in page
    assert "/static/logout.js" in page
