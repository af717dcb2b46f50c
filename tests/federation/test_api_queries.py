"""Every list endpoint of the federation API runs a constant number of queries, however long the list."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.factories import (
    EligibilityWaiverFactory,
    EquipmentInspectionFactory,
    EquipmentModelFactory,
    FederationFactory,
    PassportFactory,
    PersonFactory,
    ProtectiveDeviceRequestFactory,
    federation_staff,
    international_staff,
    jpeg_upload,
)

pytestmark = pytest.mark.django_db


def _make_people(federation, n, **kwargs):
    for person in PersonFactory.create_batch(n, federation=federation, **kwargs):
        PassportFactory(person=person)


MAKERS = {
    "/api/federations/": lambda fed, n: FederationFactory.create_batch(n),
    "/api/people/": _make_people,
    "/api/passports/": lambda fed, n: PassportFactory.create_batch(n, person__federation=fed, scan=jpeg_upload()),
    "/api/eligibility-waivers/": lambda fed, n: EligibilityWaiverFactory.create_batch(n, person__federation=fed),
    "/api/equipment-models/": lambda fed, n: EquipmentModelFactory.create_batch(n),
    "/api/equipment-inspections/": lambda fed, n: EquipmentInspectionFactory.create_batch(n, person__federation=fed),
    "/api/device-requests/": lambda fed, n: ProtectiveDeviceRequestFactory.create_batch(n, person__federation=fed),
}


def _count(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize("user_kind", ["national", "international"])
@pytest.mark.parametrize("url", list(MAKERS))
def test_list_endpoint_query_count_does_not_grow_with_the_data(url, user_kind, django_assert_num_queries):
    federation = FederationFactory()
    user = federation_staff(federation) if user_kind == "national" else international_staff()
    client = APIClient()
    # A session login: the user and their roles are read afresh by every request, as in production.
    client.force_login(user)
    MAKERS[url](federation, 2)
    small = _count(client, url)
    MAKERS[url](federation, 15)
    with django_assert_num_queries(small):
        response = client.get(url)
    assert response.status_code == 200
    assert response.json()["count"] >= 15


def test_a_filtered_and_searched_people_list_stays_constant(django_assert_num_queries):
    federation = FederationFactory()
    client = APIClient()
    client.force_login(international_staff())
    params = {
        "federation": federation.pk,
        "search": "ross",
        "passport_expiry_after": "2030-01-01",
        "ordering": "-last_name",
    }
    _make_people(federation, 2, last_name="Rossi")
    small = _count(client, "/api/people/?" + "&".join(f"{k}={v}" for k, v in params.items()))
    _make_people(federation, 15, last_name="Rossini")
    _make_people(federation, 3, last_name="Berg")
    with django_assert_num_queries(small):
        response = client.get("/api/people/", params)
    assert response.json()["count"] == 17
