"""The accounts admin: IHTC executives keep logins and roles; only superusers make superusers."""

import pytest

from accounts.models import Role, RoleAssignment, User
from tests.factories import (
    FederationFactory,
    SuperuserFactory,
    UserFactory,
    federation_staff,
    with_role,
)

pytestmark = pytest.mark.django_db


def executive():
    user = with_role(Role.IHTC_EXECUTIVE, is_staff=True)
    return user


def test_an_executive_assigns_a_federation_staff_role(client):
    client.force_login(executive())
    target, federation = UserFactory(), FederationFactory()
    response = client.post(
        "/admin/accounts/roleassignment/add/",
        {"user": target.pk, "role": Role.FEDERATION_STAFF, "federation": federation.pk},
    )
    assert response.status_code == 302, response.content
    assert RoleAssignment.objects.filter(user=target, role=Role.FEDERATION_STAFF, federation=federation).exists()


def test_federation_staff_role_without_a_federation_is_refused(client):
    client.force_login(executive())
    target = UserFactory()
    response = client.post("/admin/accounts/roleassignment/add/", {"user": target.pk, "role": Role.FEDERATION_STAFF})
    assert response.status_code == 200  # the form again, with its error
    assert not RoleAssignment.objects.filter(user=target).exists()


def test_an_executive_cannot_make_anyone_a_superuser(client):
    client.force_login(executive())
    target = UserFactory(is_staff=True)
    page = client.get(f"/admin/accounts/user/{target.pk}/change/")
    assert page.status_code == 200
    assert b'name="is_superuser"' not in page.content


def test_an_executive_cannot_see_or_change_a_superuser(client):
    boss = SuperuserFactory()
    client.force_login(executive())
    assert boss.username not in client.get("/admin/accounts/user/").content.decode()
    assert client.get(f"/admin/accounts/user/{boss.pk}/change/").status_code == 302
    assert client.get(f"/admin/accounts/user/{boss.pk}/password/").status_code == 404
    assert User.objects.get(pk=boss.pk).check_password("correct-horse-battery-staple")


def test_federation_staff_may_not_manage_accounts(client):
    client.force_login(federation_staff())
    assert client.get("/admin/accounts/user/").status_code == 403
    assert client.get("/admin/accounts/roleassignment/").status_code == 403


def test_a_superuser_sees_the_superuser_fields(client):
    client.force_login(SuperuserFactory())
    target = UserFactory()
    assert b'name="is_superuser"' in client.get(f"/admin/accounts/user/{target.pk}/change/").content
