"""Where a webhook may go (SSRF): HTTPS to public addresses only in production; outside it, plain HTTP to a
loopback address and private addresses are allowed (tests, a developer's receiver). The resolver is replaced:
no network is used."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from webhooks.addresses import check_endpoint_url

PRODUCTION = {"allow_loopback": False, "allow_private": False}
DEVELOPMENT = {"allow_loopback": True, "allow_private": True}


def resolving(*addresses):
    return lambda host, port: list(addresses)


def refusal(url, resolver, **allowed) -> str:
    with pytest.raises(ValidationError) as refused:
        check_endpoint_url(url, resolver=resolver, **allowed)
    return refused.value.message_dict["url"][0]


def test_https_to_a_public_address_is_taken_in_production():
    assert check_endpoint_url("https://hooks.example.org/in", resolver=resolving("93.184.216.34"), **PRODUCTION)


@pytest.mark.parametrize(
    "address",
    ["127.0.0.1", "10.1.2.3", "172.16.0.5", "192.168.1.1", "169.254.169.254", "::1", "fe80::1", "fd00::1", "0.0.0.0",
     "::ffff:10.0.0.1", "100.64.0.1"],
)  # fmt: skip
def test_private_loopback_and_link_local_addresses_are_refused_in_production(address):
    message = refusal("https://inside.example.org/", resolving(address), **PRODUCTION)
    assert "public addresses only" in message


def test_a_name_resolving_to_one_private_address_among_public_ones_is_refused():
    assert "public addresses only" in refusal(
        "https://mixed.example.org/", resolving("93.184.216.34", "10.0.0.8"), **PRODUCTION
    )


def test_plain_http_is_refused_in_production_even_to_loopback():
    assert "HTTPS only" in refusal("http://127.0.0.1:8000/in", resolving("127.0.0.1"), **PRODUCTION)
    assert "HTTPS only" in refusal("http://hooks.example.org/in", resolving("93.184.216.34"), **PRODUCTION)


def test_plain_http_to_loopback_is_allowed_outside_production_never_to_another_host():
    assert check_endpoint_url("http://127.0.0.1:8000/in", resolver=resolving("127.0.0.1"), **DEVELOPMENT)
    assert check_endpoint_url("http://localhost:8000/in", resolver=resolving("127.0.0.1", "::1"), **DEVELOPMENT)
    assert "HTTPS only" in refusal("http://hooks.example.org/", resolving("93.184.216.34"), **DEVELOPMENT)


def test_private_addresses_are_allowed_outside_production_only_when_the_setting_says():
    assert check_endpoint_url("https://lan.example/", resolver=resolving("192.168.1.10"), **DEVELOPMENT)
    assert "public" in refusal(
        "https://lan.example/", resolving("192.168.1.10"), allow_loopback=True, allow_private=False
    )


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("", "Give the URL"),
        ("ftp://hooks.example.org/", "https://"),
        ("https:///path", "https://"),
        ("https://user:pw@hooks.example.org/", "user name or password"),  # pragma: allowlist secret
        ("https://hooks.example.org/#x", "fragment"),
        ("https://hooks.example.org:99999/", "valid URL"),
        ("https://" + "a" * 500 + ".org/", "longer than"),
    ],
)
def test_malformed_urls_are_refused_naming_the_field(url, message):
    assert message in refusal(url, resolving("93.184.216.34"), **PRODUCTION)


def test_a_name_that_does_not_resolve_is_refused():
    def fails(host, port):
        raise OSError("no such name")

    assert "cannot be resolved" in refusal("https://nowhere.invalid/", fails, **PRODUCTION)


def test_production_settings_force_https_and_public_addresses(settings):
    settings.WEBHOOKS_ALLOW_LOOPBACK = settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = False
    with pytest.raises(ValidationError):
        check_endpoint_url("http://127.0.0.1:9/", resolver=resolving("127.0.0.1"))
