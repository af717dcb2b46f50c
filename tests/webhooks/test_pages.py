"""The webhooks pages, API and admin: staff of a federation manage its endpoints and read its deliveries, never
another federation's (404); international staff all; anyone else none. Forms are posted as a browser does
(form-encoded, with the page's CSRF token)."""

from __future__ import annotations

import pytest
from django.urls import reverse, reverse_lazy

from accounts.models import Role
from tests.browser_forms import browser_client, post_form
from tests.factories import (
    FederationFactory,
    client_for,
    federation_staff,
    international_staff,
    with_role,
)
from webhooks import services
from webhooks.models import Delivery, DeliveryStatus, Endpoint, EventType

pytestmark = pytest.mark.django_db
PAGE = "/webhooks/"
ENDPOINTS = reverse_lazy("webhooks-api:endpoint-list")
DELIVERIES = reverse_lazy("webhooks-api:delivery-list")

# A secret the caller chooses (refused: the portal makes each endpoint's secret).
CHOSEN_SECRET = {"secret": "x"}  # pragma: allowlist secret


def logged_in(user):
    client = browser_client()
    client.force_login(user)
    return client


def endpoint_of(federation, url, **kwargs) -> Endpoint:
    return services.endpoint_create(
        by=federation_staff(federation), federation=federation, url=url, event_types=[EventType.GAME_FINAL], **kwargs
    )


def delivery_to(endpoint) -> Delivery:
    return Delivery.objects.create(
        endpoint=endpoint,
        event_id="11111111-1111-4111-8111-111111111111",
        event_type=EventType.GAME_FINAL,
        subject="game:1",
        payload={"data": {}},
        status=DeliveryStatus.FAILED,
        attempts=6,
        response_code=500,
    )


@pytest.fixture
def two(receiver):
    a, b = FederationFactory(), FederationFactory()
    return a, b, endpoint_of(a, receiver.url), endpoint_of(b, receiver.url + "/b")


def test_staff_register_an_endpoint_and_see_its_secret_once(two, receiver):
    a, _, _, _ = two
    client = logged_in(federation_staff(a))
    answer = post_form(
        client,
        PAGE,
        {"federation": a.pk, "url": receiver.url + "/new", "event_types": ["game.final", "protest.filed"]},
    )
    assert answer.status_code == 200
    made = Endpoint.objects.get(url=receiver.url + "/new")
    assert made.federation == a and made.event_types == ["game.final", "protest.filed"]
    assert made.secret.startswith("whsec_") and made.secret in answer.content.decode()
    assert made.secret not in client.get(PAGE).content.decode()


def test_staff_see_only_their_federations_endpoints_and_deliveries(two):
    a, b, mine, theirs = two
    delivery_to(mine), delivery_to(theirs)
    client = logged_in(federation_staff(a))
    page = client.get(PAGE).content.decode()
    assert mine.url in page and theirs.url not in page
    log = client.get(reverse("webhooks:deliveries")).content.decode()
    assert mine.url in log and theirs.url not in log
    assert client.get(reverse("webhooks:deliveries"), {"endpoint": theirs.pk}).status_code == 404
    everything = logged_in(international_staff())
    assert theirs.url in everything.get(PAGE).content.decode()


def test_an_endpoint_for_another_federation_is_refused_and_nothing_stored(two, receiver):
    a, b, _, _ = two
    client = logged_in(federation_staff(a))
    answer = post_form(client, PAGE, {"federation": b.pk, "url": receiver.url + "/x", "event_types": ["game.final"]})
    assert answer.status_code == 200 and "federation" in answer.context["form"].errors
    assert not Endpoint.objects.filter(url=receiver.url + "/x").exists()


def test_a_plain_http_or_private_url_is_refused_in_production_naming_the_field(two, settings):
    settings.WEBHOOKS_ALLOW_LOOPBACK = settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = False
    a, _, _, _ = two
    client = logged_in(federation_staff(a))
    for url, message in (("http://127.0.0.1:8000/in", "HTTPS only"), ("https://127.0.0.1/in", "public addresses")):
        answer = post_form(client, PAGE, {"federation": a.pk, "url": url, "event_types": ["game.final"]})
        assert message in " ".join(answer.context["form"].errors["url"])
        assert not Endpoint.objects.filter(url=url).exists()


def test_staff_remove_their_endpoint_never_anothers(two):
    a, _, mine, theirs = two
    client = logged_in(federation_staff(a))
    assert post_form(client, reverse("webhooks:endpoint-delete", args=[theirs.pk]), {}, page=PAGE).status_code == 404
    assert post_form(client, reverse("webhooks:endpoint-delete", args=[mine.pk]), {}, page=PAGE).status_code == 302
    assert list(Endpoint.objects.all()) == [theirs]


def test_a_delivery_is_sent_again_from_the_log(two, receiver, django_capture_on_commit_callbacks):
    a, _, mine, theirs = two
    failed, other = delivery_to(mine), delivery_to(theirs)
    client = logged_in(federation_staff(a))
    log = reverse("webhooks:deliveries")
    assert post_form(client, reverse("webhooks:delivery-resend", args=[other.pk]), {}, page=log).status_code == 404
    with django_capture_on_commit_callbacks(execute=True):
        answer = post_form(client, reverse("webhooks:delivery-resend", args=[failed.pk]), {}, page=log)
    assert answer.status_code == 302
    failed.refresh_from_db()
    assert (failed.status, failed.attempts, failed.response_code) == (DeliveryStatus.DELIVERED, 7, 200)
    assert [r.path for r in receiver.requests] == ["/hooks"]


def test_a_post_without_the_csrf_token_is_refused(two, receiver):
    a, _, mine, _ = two
    client = logged_in(federation_staff(a))
    answer = client.post(PAGE, {"federation": a.pk, "url": receiver.url + "/y", "event_types": ["game.final"]})
    assert answer.status_code == 403 and not Endpoint.objects.filter(url=receiver.url + "/y").exists()


@pytest.mark.parametrize("role", [Role.TEAM_MANAGER, Role.DISCIPLINE_COMMITTEE, Role.GAME_OFFICIAL])
def test_others_get_no_webhooks_pages_and_no_menu_link(role):
    client = logged_in(with_role(role, FederationFactory() if role == Role.TEAM_MANAGER else None))
    assert client.get(PAGE).status_code == 403
    assert client.get(reverse("webhooks:deliveries")).status_code == 403
    assert PAGE not in client.get("/").content.decode()


def test_the_menu_links_the_webhooks_page_for_federation_staff():
    assert f'href="{PAGE}"' in logged_in(federation_staff()).get("/").content.decode()


def test_anonymous_callers_are_sent_to_log_in():
    assert browser_client().get(PAGE).status_code == 302


def endpoint_url(pk) -> str:
    return reverse("webhooks-api:endpoint-detail", args=[pk])


def resend_url(pk) -> str:
    return reverse("webhooks-api:delivery-resend", args=[pk])


# --- the API ----------------------------------------------------------------------------------------------------------


def test_the_api_lists_makes_and_removes_endpoints_within_the_federation(two, receiver):
    a, b, mine, theirs = two
    api = client_for(federation_staff(a))
    listed = api.get(ENDPOINTS).json()
    assert [row["id"] for row in listed["results"]] == [mine.pk]
    assert "secret" not in listed["results"][0]
    made = api.post(
        ENDPOINTS,
        {"federation": a.pk, "url": receiver.url + "/api", "event_types": ["roster.frozen"]},
        format="json",
    )
    assert made.status_code == 201, made.json()
    assert made.json()["secret"] == Endpoint.objects.get(pk=made.json()["id"]).secret
    assert "secret" not in api.get(endpoint_url(made.json()["id"])).json()
    assert api.get(endpoint_url(theirs.pk)).status_code == 404
    assert api.delete(endpoint_url(theirs.pk)).status_code == 404
    assert api.delete(endpoint_url(mine.pk)).status_code == 204
    assert set(Endpoint.objects.values_list("federation", flat=True)) == {a.pk, b.pk}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"url": "https://127.0.0.1/x", "event_types": ["game.final"]}, "federation"),
        ({"url": "http://127.0.0.1:8000/x", "event_types": ["nope"]}, "event_types"),
        ({"url": "http://127.0.0.1:8000/x", "event_types": []}, "event_types"),
        ({"url": "ftp://example.org/", "event_types": ["game.final"]}, "url"),
        ({"url": "http://127.0.0.1:8000/x", "event_types": ["game.final"], **CHOSEN_SECRET}, "secret"),
    ],
)
def test_the_api_refuses_bad_input_naming_the_field(body, field):
    federation = FederationFactory()
    api = client_for(federation_staff(federation))
    answer = api.post(
        ENDPOINTS, {"federation": federation.pk, **body} if field != "federation" else body, format="json"
    )
    assert answer.status_code == 400 and field in answer.json()
    assert not Endpoint.objects.exists()


def test_the_api_refuses_another_federations_endpoint_with_403(two, receiver):
    a, b, _, _ = two
    answer = client_for(federation_staff(a)).post(
        ENDPOINTS, {"federation": b.pk, "url": receiver.url, "event_types": ["game.final"]}, format="json"
    )
    assert answer.status_code == 403
    assert client_for(with_role(Role.GAME_OFFICIAL)).get(ENDPOINTS).status_code == 403


def test_the_api_lists_the_federations_deliveries_and_sends_one_again(
    two, receiver, django_capture_on_commit_callbacks
):
    a, _, mine, theirs = two
    failed, other = delivery_to(mine), delivery_to(theirs)
    api = client_for(federation_staff(a))
    rows = api.get(DELIVERIES).json()["results"]
    assert [(row["id"], row["status"], row["attempts"], row["response_code"]) for row in rows] == [
        (failed.pk, "failed", 6, 500)
    ]
    assert api.get(DELIVERIES, {"endpoint": theirs.pk}).json()["results"] == []
    assert api.get(reverse("webhooks-api:delivery-detail", args=[other.pk])).status_code == 404
    assert api.post(resend_url(other.pk)).status_code == 404
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post(resend_url(failed.pk))
    assert answer.status_code == 202
    failed.refresh_from_db()
    assert failed.status == DeliveryStatus.DELIVERED and len(receiver.requests) == 1


def test_the_admin_shows_staff_their_federations_deliveries_only(two):
    a, _, mine, theirs = two
    delivery_to(mine), delivery_to(theirs)
    client = logged_in(federation_staff(a))
    page = client.get(reverse("admin:webhooks_delivery_changelist"))
    assert page.status_code == 200
    assert list(page.context["cl"].queryset) == [Delivery.objects.get(endpoint=mine)]
    assert client.get(reverse("admin:webhooks_endpoint_change", args=[theirs.pk])).status_code == 302
